"""The end-to-end suites run once on each store.

Every test here that runs crewline in this process (it asks for ``config``, directly or
through ``crew``) runs on SQLite; the journeys named in ``POSTGRESQL_JOURNEYS`` run again on
a fresh PostgreSQL database of the session's throwaway cluster (tests/pg_cluster.py), over
the memory harness alone. The store's promises are the contract suite's
(tests/contract, over both engines, through the port only); an end-to-end run on
PostgreSQL proves only what the contract cannot: a whole journey over the real pool,
writer threads and notifications, and what survives a restart or a kill. A test that reads
one engine's own files or counters is marked ``@pytest.mark.sqlite_only("why")``. The Crew
driver is tests/driver.py.

The suites that start crewline as a separate process (the CLI, crash/restart) ask for
``cli_store`` instead: every crewline command they start reads ``$CREWLINE_DATABASE_URL``,
unset on SQLite and naming a fresh PostgreSQL database on PostgreSQL; ``sqlite_only`` works
there too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from crewline.config import Config
from tests.driver import Crew
from tests.e2e import agent_cli

__all__ = ["Crew"]

STORES = ("sqlite", "postgresql")

# The end-to-end tests that also run on PostgreSQL: a module name (all its tests) or
# ``module::test`` (every parametrisation of it). Each proves what the store contract over
# both engines cannot (docs/testing.md, "PostgreSQL where it proves something").
POSTGRESQL_JOURNEYS = frozenset(
    {
        # one escalation's journey: HTTP, the record, the card, a press, the agent's event
        "test_escalations.py::test_a_click_answers_its_record_and_the_agent_hears_it",
        # veto windows across a restart, and on the scheduler's clocks
        "test_escalations.py::test_a_deadline_that_passed_while_down_closes_on_the_next_start",
        "test_window_clocks.py",
        # an unreadable index is the engine's own error, mapped to the caller's 503
        "test_escalations.py::test_an_unreadable_index_refuses_writers_and_is_rebuilt_from_the_transcript",
        # crash safety: what a kill leaves, found again on the next start
        "test_crash_safety.py",
        "test_boundary_crash.py",
        # the outbox's lanes, ids and restarts over the pool and its writer threads
        "test_outbox.py",
        # keyed writes racing on the engine's constraints
        "test_idempotency.py::test_concurrent_retries_with_one_key_make_one_write",
        "test_idempotency.py::test_a_retried_escalation_returns_the_first_response_and_writes_nothing",
        # event cursors taken under locks; a commit waking a long poll; resuming after a restart
        "test_events.py::test_a_long_poll_returns_as_soon_as_an_event_commits",
        "test_events.py::test_the_stream_resumes_from_its_cursor_after_a_restart",
        "test_event_stream.py::test_events_stream_in_order_then_live",
        "test_webhooks.py::test_each_event_is_posted_signed_in_cursor_order",
        "test_webhooks.py::test_deliveries_resume_after_a_restart",
        # a revoked key ends its streams through the engine's notifications
        "test_revocation.py",
        # a boundary's freeze and commit, and a card answered between them
        "test_boundaries.py::test_an_edit_rewinds_from_the_edited_row_and_resends_it_as_a_new_row",
        "test_boundaries.py::test_a_card_answered_during_the_boundary_stays_answered",
        # the concierge's journey: judged off the store, its suggestion sent by a press
        "test_concierge.py::test_send_suggestion_answers_as_the_human_via_suggestion",
        # the CLI beside a server on $CREWLINE_DATABASE_URL
        "test_cli.py::test_member_add_prints_the_key_alone_on_the_last_line",
        "test_cli.py::test_a_member_added_while_stopped_is_shown_at_start_without_a_failed_send",
        # each platform's message references and offsets, kept in the store over a restart
        "test_telegram_restart.py::test_buttons_posted_before_a_restart_answer_after_it",
        "test_discord_restarts.py::test_a_card_posted_before_a_restart_is_answered_by_the_new_client",
        "test_slack_retry_lookup.py::test_a_card_that_landed_late_in_a_long_thread_is_found_not_posted_twice",
        # readiness asks the store
        "test_health.py::test_readyz_lists_every_part_and_answers_200_when_all_are_well",
    }
)


@pytest.fixture(params=STORES)
def config(request: pytest.FixtureRequest, config: Config) -> Config:
    """The suite's ``config`` on SQLite (in its data directory), then on PostgreSQL."""
    if request.param == "sqlite":
        return config
    return replace(config, database_url=request.getfixturevalue("postgres_url"))


@pytest.fixture(params=STORES)
def cli_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The store of every crewline process the test starts: SQLite in the data directory
    (None), then a fresh PostgreSQL database (its URL), through $CREWLINE_DATABASE_URL."""
    if request.param == "sqlite":
        monkeypatch.delenv("CREWLINE_DATABASE_URL", raising=False)
        return None
    url = str(request.getfixturevalue("postgres_url"))
    monkeypatch.setenv("CREWLINE_DATABASE_URL", url)
    return url


@pytest.fixture(autouse=True)
async def _no_agent_outlives_its_test() -> AsyncIterator[None]:
    """Kill what a test's agent processes left running (tests/e2e/agent_cli.py), in its loop."""
    yield
    await agent_cli.reap()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Drop the PostgreSQL runs that would test only what the SQLite run already has."""
    _journeys_exist()
    dropped = [item for item in items if _sqlite_suffices(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in gone]


def _journeys_exist() -> None:
    """A journey renamed or removed must not quietly stop running on PostgreSQL."""
    here = Path(__file__).parent
    for journey in sorted(POSTGRESQL_JOURNEYS):
        module, _, test = journey.partition("::")
        source = here / module
        if not source.is_file() or (test and f"def {test}(" not in source.read_text()):
            raise pytest.UsageError(f"POSTGRESQL_JOURNEYS names {journey!r}, which is not a test")


def _sqlite_suffices(item: pytest.Item) -> bool:
    """A PostgreSQL run that is not one of the journeys, or not over the memory harness, or
    of a test that can only mean SQLite."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "postgresql" not in (params.get("config"), params.get("cli_store")):
        return False
    journey = item.path.name in POSTGRESQL_JOURNEYS or (
        f"{item.path.name}::{getattr(item, 'originalname', item.name)}" in POSTGRESQL_JOURNEYS
    )
    return (
        not journey
        or params.get("harness", "memory") != "memory"
        or bool(item.get_closest_marker("sqlite_only"))
    )
