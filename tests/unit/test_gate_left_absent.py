"""Acts said without their verb: a removal asked for by the state it leaves ("make sure the old
photos are gone", "make the legacy customers disappear from the CRM", "ensure nothing is left
in the parcels bucket"), and a shell line that puts nothing, or a file's own text, in place of
a file (`> app.log`, `sort a.csv > a.csv`, `mv x /dev/null`). Each with the harmless twins of
its shape that must still be answered: a symptom made to go away, a state only asked about,
output sent to a new file or to the null device.

A bakery, a hospital ward, a shipping line, a school, a library, a dental practice.
"""

from __future__ import annotations

import pytest

from crewline.policy import Placement, check_placement, judge
from crewline.policy.careful import careful as careful_verdict
from tests.unit.gate_kit import goes_on, irreversible

# ------------------------------------------------------------- a removal said by its end state


@pytest.mark.parametrize(
    "question",
    [
        "Make sure the old cake photos are gone by tonight?",  # a bakery
        "Make the legacy bakery customers disappear from the CRM?",
        "Ensure the old pupil records no longer exist?",  # a school
        "Can I get the school's old parent accounts gone before term starts?",
        "Ok to make sure none of the test patients remain in the ward system?",  # a hospital
        "Ensure no trace of the discharged patients remains in the ward tablets?",
        "Can I see to it that the stale freight bookings are gone from the system?",  # shipping
        "Make sure there's nothing left in the container manifests bucket?",
        "Let the old loan records be gone, ok?",  # a library
        "Can I make the 2019 dental X-rays not exist anymore?",  # a dental practice
        "Tests pass. Shall I make the old recall letters vanish from the practice share?",
        "The 2019 catalogue scans cost money. Can I make them disappear?",  # a pronoun: unknown
    ],
)
def test_a_thing_asked_to_be_gone_is_removed(question: str) -> None:
    reason = irreversible(question)
    assert "a removal said by the state it leaves" in reason, reason
    assert check_placement(question, Placement(kind="proceed", answer="yes")).answer is None


def test_the_reason_quotes_the_state_asked_for() -> None:
    reason = irreversible("Make the legacy bakery customers disappear from the CRM?")
    assert reason == (
        "irreversible: it asks for a thing to be gone (“Make the legacy bakery customers "
        "disappear from the CRM”), a removal said by the state it leaves"
    )


@pytest.mark.parametrize(
    ("question", "options", "default"),
    [
        (
            "How should I tidy the ward drive?",
            ("archive them", "let the old scans vanish"),
            "let the old scans vanish",
        ),
        ("Next step for the manifests?", (), "ensure the old ones no longer exist"),
        (
            "Which cleanup for the bakery share?",
            ("Make sure the old photos are gone (default)", "Keep them"),
            None,
        ),
    ],
)
def test_an_offered_end_state_of_absence_is_no_default_to_pick(
    question: str, options: tuple[str, ...], default: str | None
) -> None:
    verdict = judge(question, options=options, default=default)
    assert verdict.final and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Make the deprecation warning go away in the test output?",  # a symptom fixed
        "Shall I make the loading spinner disappear once the menu loads?",
        "Make the banner disappear on my local build of the school site?",
        "Can I make the flaky ward-rota test pass?",  # no state of absence at all
        "Shall I make sure the bakery tests pass before I write the summary?",
        "Make sure the old cake photos are not gone from my laptop, ok?",  # negated
        "Can I make sure the cargo dashboard has gone live on my dev box?",  # "gone live"
        "Make a list of the loan files that no longer exist on the share?",  # described
        "Make a note of which dental records are gone, for the audit notes?",
        "Let me check whether the old bakery scans are gone from the share?",
        "Get me a list of what disappeared from the shipping catalogue?",
    ],
)
def test_a_symptom_made_to_go_or_a_state_kept_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which field disappeared from the patient endpoint in v3?",  # a state asked about
        "Which buoy has gone quiet on the shipping lane?",
        "Is the old lending route gone from the library API?",
        "I see that the recall letters are gone; did the nightly job delete them?",
    ],
)
def test_a_state_of_absence_only_asked_about_is_no_act(question: str) -> None:
    found = careful_verdict(question)
    assert found is None or "a removal said by the state it leaves" not in found.reason, found


# ------------------------------------------------- nothing, or a file's own text, put over a file


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Run `> /var/log/bakery/orders.log` to clear it?",
            "it runs `> /var/log/bakery/orders.log`",
        ),
        (
            "Run `: > /srv/ward/admissions.csv` before the reload?",
            "it runs `: > /srv/ward/admissions.csv`",
        ),
        ("Ok to run `true > /etc/school/roster.csv`?", "it runs `true > /etc/school/roster.csv`"),
        (
            "Run `cp /dev/null /srv/port/manifests.db`?",
            "it runs `cp /dev/null /srv/port/manifests.db`",
        ),
        (
            "Run `mv /srv/library/loans /dev/null` to tidy up?",
            "it runs `mv /srv/library/loans /dev/null`",
        ),
    ],
)
def test_nothing_put_in_place_of_a_file_empties_it(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason == f"irreversible: {said}, which leaves nothing of what it names", reason


@pytest.mark.parametrize(
    ("question", "file"),
    [
        ("Run `sort grades.csv > grades.csv` to tidy it?", "grades.csv"),  # a school
        ("Run `sed 's/rye/spelt/' menu.txt > menu.txt`?", "menu.txt"),  # a bakery
        ("Run `uniq patients.csv > patients.csv` to dedupe?", "patients.csv"),  # a hospital
        (
            "Run `grep -v cancelled /srv/port/bookings.txt > /srv/port/bookings.txt`?",
            "/srv/port/bookings.txt",
        ),
    ],
)
def test_a_file_read_into_itself_is_emptied(question: str, file: str) -> None:
    reason = irreversible(question)
    assert reason.startswith(f"irreversible: it writes {file} over itself"), reason


@pytest.mark.parametrize(
    "question",
    [
        "Run `pytest -q > /tmp/out.txt` and read it?",  # output to a new file
        "Run `ls -la > listing.txt` for my notes?",
        "Run `sort grades.csv > grades_sorted.csv`?",
        "Run `grep ERROR ward.log > errors.txt`?",
        "Run `python make_report.py 2> /dev/null`?",  # to the null device
        "Run `./build.sh > /dev/null 2>&1`?",
        "Run `mv build.log /tmp/old-build.log`?",  # moved, not into nothing
        "If the p95 is > 2.5 s on the bakery site, shall I open a ticket?",  # a comparison
    ],
)
def test_output_sent_elsewhere_goes_on(question: str) -> None:
    goes_on(question)


# ------------------------------------------ a thing set for an act, then a bare go-ahead

# "Marked for deletion", "scheduled for removal": the participle says how the thing was set,
# never that the act is done; the go-ahead after it carries the act out.


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "The patients_old table is scheduled for removal. Go ahead?",
            "the patients_old table is scheduled for removal",
        ),  # a hospital
        (
            "Old freight manifests are marked for deletion. Go for it?",
            "Old freight manifests are marked for deletion",
        ),  # a shipping line
        (
            "The 2018 pupil files are flagged for deletion. Proceed?",
            "the 2018 pupil files are flagged for deletion",
        ),  # a school
        (
            "Last year's recipe cards are earmarked for destruction. Ok to go on?",
            "Last year's recipe cards are earmarked for destruction",
        ),  # a bakery
        (
            "The lending records from 2015 are due for erasure. Shall I go ahead?",
            "the lending records from 2015 are due for erasure",
        ),  # a library
        (
            "The old X-ray archive is up for deletion — continue?",
            "the old x-ray archive is up for deletion",
        ),  # a dental practice
    ],
)
def test_a_thing_set_for_an_act_then_a_go_ahead_is_the_act(question: str, said: str) -> None:
    reason = irreversible(question)
    assert reason == f"irreversible: {said}, which deletes something for good", reason


@pytest.mark.parametrize(
    "question",
    [
        "The ward rota is queued for printing. Proceed?",  # no act waits
        "The menu change is marked for review. Go ahead?",
        "The old school laptops were sent for recycling. Continue with the inventory?",
        # a thing so set, read by the step
        "Let me list the freight buckets tagged for deletion (read-only) so you can review them?",
    ],
)
def test_a_thing_set_for_a_harmless_step_goes_on(question: str) -> None:
    goes_on(question)


def test_which_things_are_set_for_an_act_is_asked_not_done() -> None:
    assert careful_verdict("Which freight tables are marked for deletion?") is None
