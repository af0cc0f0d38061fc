"""Two rows that disagree give no answer (SPEC §4): a dispute is read at least as generously
as an answer. A rival worded otherwise — its head noun in the place of the question's generic
one ("compaction *sweep*" for "compaction *job*"), its subject a pronoun for the clause before
("… got pushed back - *it* kicks off at 00:40"), no cadence said where the question names one,
the question's own verb in another form before its value ("boarding *starts* 21:40"), a
cadence word in the place of the question's word of time ("*Nightly* boarding" for "boarding
tonight") — leaves the question with the human, offline and with a model, and the card says
both rows. A row that says another cadence, another end, another environment, another month
or another thing disputes nothing.

Each case is of another domain than the eval set that showed it (a mobile operator's rating
run): a database's compaction, an invoicing batch, a sync service's port, an airline's
boarding, a university's grading window.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge
from tests.unit.gate_kit import answers, by_model, disputed, facts

REWORDED = [
    (  # a generic head said otherwise, the value's clause led by a pronoun, no cadence said
        "At what time does the nightly compaction job begin?",
        ("storage-bot", "Nightly compaction run starts 23:15 UTC."),
        ("dba", "compaction sweep got pushed back - it kicks off at 00:40 UTC from tonight on."),
        "23:15 UTC",
        "00:40 UTC",
    ),
    (  # the same, said by another member with "changed" and "now"
        "When does the weekly invoice job start?",
        ("billing-bot", "Weekly invoice run starts Mondays at 06:00."),
        ("finance", "invoice batch changed, it now starts at 07:30."),
        "06:00",
        "07:30",
    ),
    (  # another kind of value: a port
        "Which port does the nightly sync job use?",
        ("sync-bot", "Nightly sync run uses port 8873."),
        ("net", "the sync batch moved - it now uses port 9873."),
        "8873",
        "9873",
    ),
    (  # the question's verb in another form before the value, a cadence for its time word
        "When does boarding start tonight, UTC?",
        (
            "gate-bot",
            "boarding for the late flight got moved - it starts at 22:10 UTC from tonight on.",
        ),
        ("ops", "Nightly boarding starts 21:40 UTC."),
        "22:10 UTC",
        "21:40 UTC",
    ),
    (  # the same shape, another end of a thing
        "When does grading close tonight, UTC?",
        ("lms-bot", "grading window got moved - it closes at 23:00 UTC from tonight on."),
        ("registrar", "Nightly grading window closes 21:00 UTC."),
        "23:00 UTC",
        "21:00 UTC",
    ),
]


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), REWORDED)
def test_a_rival_worded_otherwise_leaves_the_question_with_the_human(
    question: str, answer: tuple[str, str], rival: tuple[str, str], value: str, other: str
) -> None:
    why = disputed(question, answer, rival, value)
    assert f"{answer[0]} said" in why and f"{rival[0]} said {other}" in why


@pytest.mark.parametrize(("question", "answer", "rival", "value", "other"), REWORDED)
def test_a_model_citing_a_row_a_rival_disputes_in_other_words_is_refused(
    question: str, answer: tuple[str, str], rival: tuple[str, str], value: str, other: str
) -> None:
    assert by_model(question, facts(answer), value) == value  # alone, the citation holds
    rows = facts(answer, rival)
    verdict = check_placement(
        question, Placement(kind="fleet", answer=value, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None and not verdict.kind.routine, verdict


NEIGHBOURS = [
    (  # another cadence said
        "At what time does the nightly compaction job begin?",
        ("storage-bot", "Nightly compaction run starts 23:15 UTC."),
        ("dba", "weekly compaction sweep kicks off at 02:00 UTC on Sundays."),
        "23:15 UTC",
    ),
    (  # the other end of the same run
        "At what time does the nightly compaction job begin?",
        ("storage-bot", "Nightly compaction run starts 23:15 UTC."),
        ("dba", "nightly compaction run finishes at 01:10 UTC."),
        "23:15 UTC",
    ),
    (  # another environment, moved, its clause led by a pronoun
        "Which port does the production sync job use?",
        ("sync-bot", "Production sync run uses port 8873."),
        ("net", "the staging sync batch moved - it now uses port 9873."),
        "8873",
    ),
    (  # another month, said "now"
        "What was the March refund total?",
        ("finance", "March refund total: EUR 12,400."),
        ("finance-bot", "April refund total is now EUR 9,800."),
        "EUR 12,400",
    ),
    (  # another thing at the same time of night
        "When does boarding start tonight, UTC?",
        (
            "gate-bot",
            "boarding for the late flight got moved - it starts at 22:10 UTC from tonight on.",
        ),
        ("ops", "Nightly cleaning starts 21:40 UTC."),
        "22:10 UTC",
    ),
]


@pytest.mark.parametrize(("question", "answer", "other", "value"), NEIGHBOURS)
def test_a_row_of_a_neighbouring_thing_disputes_nothing(
    question: str, answer: tuple[str, str], other: tuple[str, str], value: str
) -> None:
    rows = facts(answer, other)
    answers(question, rows, value)
    assert by_model(question, rows, value) == value


# ----------------------------- a member's name as a piece of another name names no member

HOST_QUESTION = "I'm wiring the client to ledger-db2 — which port do I use?"
HOST_ANSWER = ("ledger", "ledger-db2.corp.lan listens on port 6432 for the pooler")
HOST_RIVAL = ("netops", "since the weekend ledger-db2 takes connections on port 7432 now")


def test_a_host_named_after_a_member_leaves_every_members_row_a_rival() -> None:
    """ "ledger-db2" is a host, not the member "ledger": the question asks every member, and
    another member's row with another port disputes the answer."""
    answers(HOST_QUESTION, facts(HOST_ANSWER), "6432")  # alone, the row answers
    verdict = judge(HOST_QUESTION, facts=facts(HOST_ANSWER, HOST_RIVAL))
    assert verdict.answer is None and verdict.final, verdict
    assert "ledger said 6432" in verdict.why and "netops said 7432" in verdict.why, verdict.why


def test_a_member_named_whole_still_asks_its_rows_alone() -> None:
    answers("which port did ledger give for ledger-db2?", facts(HOST_ANSWER, HOST_RIVAL), "6432")


# ------------------ a member's name said as the asked noun names the thing, not the member

FLEET_QUESTION = "How many trucks are on the road at the moment?"
FLEET_ANSWER = ("trucks", "we've got 212 refrigerated trucks on the road at the moment")
FLEET_RIVAL = ("dispatch", "dispatch sees 230 trucks on the road right now")


def test_a_member_named_like_the_asked_noun_leaves_every_members_row_a_rival() -> None:
    """ "how many trucks …" asks of trucks, not of member "trucks" alone: another member's
    count of them disputes its count, whatever modifier or time words each says."""
    answers(FLEET_QUESTION, facts(FLEET_ANSWER), "212")  # alone, the row answers
    verdict = judge(FLEET_QUESTION, facts=facts(FLEET_ANSWER, FLEET_RIVAL))
    assert verdict.answer is None and verdict.final, verdict
    assert "trucks said 212" in verdict.why and "dispatch said 230" in verdict.why, verdict.why


def test_a_count_of_another_kind_of_the_noun_disputes_nothing() -> None:
    """ "refrigerated" against "curtain-side" trucks: two things, each answered."""
    rival = ("dispatch", "dispatch sees 230 curtain-side trucks on the road right now")
    rows = facts(FLEET_ANSWER, rival)
    answers("How many refrigerated trucks are on the road at the moment?", rows, "212")
    answers("How many curtain-side trucks are on the road at the moment?", rows, "230")


def test_a_member_named_beside_the_asked_noun_still_asks_its_rows_alone() -> None:
    rows = facts(FLEET_ANSWER, FLEET_RIVAL)
    answers("How many trucks did trucks count on the road?", rows, "212")
