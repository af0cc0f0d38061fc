"""A plan answers a question that asks the plan: a row that states what is planned or next
("Next backup window: opens 02:30 UTC") answers "when does the next window open?", offline
and when a model cites it — but never a question about what happened or what is so now, and
never as a guess, an unconfirmed or tentative plan, or a former one."""

from __future__ import annotations

from tests.unit.gate_kit import answers, by_model, facts, no_answer

WINDOW = facts(("backup-bot", "Next backup window on vault-db: opens 02:30 UTC, closes 04:10 UTC."))
SET_FOR = facts(
    ("drills", "Next failover drill on db-7 is set for 2026-12-09 14:00 UTC, one region.")
)
PLANNED = facts(("drills", "Failover drill on db-7 is planned to start 2026-12-09 14:00 UTC."))
SCHEDULED = facts(("drills", "Next failover drill on db-7 is scheduled for 2026-12-09 14:00 UTC."))
WHEN = "2026-12-09 14:00 UTC"


def test_a_model_citing_a_plan_for_a_question_about_the_plan_holds() -> None:
    assert by_model("When does the next backup window on vault-db open?", WINDOW, "02:30 UTC") == (
        "02:30 UTC"
    )
    assert by_model("When is the db-7 failover drill scheduled?", SCHEDULED, WHEN) == WHEN


def test_a_plan_answers_offline_the_question_about_the_plan() -> None:
    answers("When is the next failover drill on db-7 scheduled for?", SET_FOR, WHEN)


def test_a_bare_when_asks_no_plan() -> None:
    # "when does it run?" may ask the present, habitual value: the planned one is no answer
    rows = facts(("ops", "Nightly export runs at 02:00 UTC, moving to 03:00 UTC next week."))
    assert by_model("When does the nightly export run?", rows, "03:00 UTC") is None
    no_answer("When is the db-7 failover drill?", PLANNED)
    assert by_model("When is the db-7 failover drill?", PLANNED, WHEN) is None


def test_a_plan_is_no_answer_to_what_happened() -> None:
    for rows in (SET_FOR, PLANNED, SCHEDULED):
        no_answer("When did the db-7 failover drill start?", rows)
        assert by_model("When did the db-7 failover drill happen?", rows, WHEN) is None


def test_a_plan_is_no_answer_to_what_is_so_now() -> None:
    ask = "When did the backup window on vault-db open last night?"
    no_answer(ask, WINDOW)
    assert by_model(ask, WINDOW, "02:30 UTC") is None
    assert by_model("What time was the db-7 failover drill at?", PLANNED, WHEN) is None


def test_a_guessed_plan_is_no_answer() -> None:
    for hedge in ("I think", "TBC", "maybe", "probably", "unconfirmed", "I believe"):
        rows = facts(("drills", f"Next failover drill on db-7 is 2026-12-09 14:00 UTC, {hedge}."))
        no_answer("When is the next db-7 failover drill scheduled?", rows)
        assert by_model("When is the next db-7 failover drill?", rows, WHEN) is None


def test_a_tentative_plan_is_no_answer() -> None:
    for tentative in ("pencilled", "tentatively set", "provisionally set"):
        said = f"Next failover drill on db-7 is {tentative} for 2026-12-09 14:00 UTC."
        rows = facts(("drills", said))
        ask = "When is the db-7 failover drill scheduled?"
        no_answer(ask, rows)
        assert by_model(ask, rows, WHEN) is None


def test_a_value_believed_is_no_fact() -> None:
    rows = facts(("web", "The web tier listens on port 8443 I think."))
    no_answer("Which port does the web tier listen on?", rows)
    assert by_model("Which port does the web tier listen on?", rows, "8443") is None


def test_a_former_plan_is_no_answer() -> None:
    said = "The db-7 failover drill was scheduled for 2026-12-02 14:00 UTC until it moved."
    rows = facts(("drills", said))
    no_answer("When is the db-7 failover drill scheduled?", rows)
    ask = "When is the db-7 failover drill scheduled?"
    assert by_model(ask, rows, "2026-12-02 14:00 UTC") is None


def test_the_noun_plan_asks_no_plan_of_a_model() -> None:
    rows = facts(
        ("billing", "Student plan costs 4.99 EUR per month, going up to 5.99 EUR next month.")
    )
    assert by_model("What does the student plan cost per month?", rows, "5.99 EUR") is None
    rows = facts(("scheduler", "Contact plan v2024.46 is live; v2024.47 scheduled for Monday."))
    assert by_model("Which contact plan version is the current one?", rows, "v2024.47") is None
