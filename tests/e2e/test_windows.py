"""Veto windows at volume: many windows falling due together close in batched commits."""

from __future__ import annotations

from datetime import timedelta

import pytest

from crewline.bot.changes import Change
from crewline.bot.escalations.feature import WINDOW_BATCH
from crewline.models import Escalation, RowRole, new_id
from crewline.store.sqlite import SqliteStore
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)
WINDOWS = 1200


@pytest.mark.sqlite_only("counts SQLite's group commits (batches_committed)")
async def test_windows_due_together_close_in_a_few_commits(crew: Crew) -> None:
    """A sweep closes every due window, batched per member rather than one commit each."""
    await crew.add_member()
    running = crew.crewline
    store = running.store
    assert isinstance(store, SqliteStore)
    session = (await store.write(lambda tx: tx.member_sessions("radar")))[0]
    deadline = crew.clock.now() + timedelta(minutes=1)

    def open_windows(ch: Change) -> None:
        # Past the backlog ceiling on purpose: this is load, written as the index would be.
        for n in range(WINDOWS):
            escalation_id = new_id()
            row = ch.tx.append_row(
                conversation="radar",
                role=RowRole.ESCALATION,
                author="Radar",
                text=f"window {n}",
                now=ch.now,
                meta={
                    "escalation_id": escalation_id,
                    "session": session.id,
                    "deadline": deadline.timestamp(),
                    "default_action": "go",
                    "options": [],
                    "goal": None,
                },
            )
            ch.tx.put_escalation(
                Escalation(
                    id=escalation_id,
                    member="radar",
                    row_id=row.id,
                    session=session.id,
                    message=row.text,
                    deadline=deadline,
                    default_action="go",
                    created_at=ch.now,
                )
            )

    await running.hub.change(open_windows)
    assert (await store.pending_counts()) == {"radar": WINDOWS}
    crew.clock.advance(timedelta(minutes=2))
    commits_before = store.batches_committed
    assert await running.bot.escalations.close_due_windows() == WINDOWS
    assert store.batches_committed - commits_before <= WINDOWS // WINDOW_BATCH + 1
    assert await store.pending_counts() == {}
    events = await store.events_after(session.id, 0, limit=WINDOWS + 1)
    assert len(events) == WINDOWS and {e.kind for e in events} == {"window_closed"}
