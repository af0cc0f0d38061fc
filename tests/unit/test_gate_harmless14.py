"""A harmless step that only reads, drafts or edits the asker's own text is routine; the act
beside it stays careful (docs/concierge-rounds.md, "harmless14").

- a bracketed negation ("draft (not submit) …") keeps its verb off production, and a verb
  that only drafts a text ("draft", "sketch") makes a text about production, nothing more;
- a reading command said as the verb ("tail the prod logs") reads;
- two modifiers joined before one noun ("the staging and prod configs") are one object,
  read by the verb before the first;
- "open … in view mode" (or read-only) opens to read;
- a piece of a text ("a typo", "the trailing empty line") in the asker's own draft or notes
  is no one else's work lost;
- a quoted term added to a text ("add 'overwrite protection' to the ideas in my notes") is
  words written, no access granted;
- a figure worked out ("work out what the invoice would come to", "compute the total we
  paid the baker") moves no money: the payment is a thing or an amount in the sum, or told
  as done, and no step is joined to it;
- "On to step 3?" goes on to the plan's next step, and "flesh out" writes more of a text.

Cases are of other domains than the set that showed them: a bakery, a museum, a ferry line,
a clinic, a school.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import careful, goes_on, irreversible

# ---------------------------------------------------------------- read or drafted production


@pytest.mark.parametrize(
    "question",
    [
        "Shall I draft (not submit) a production change request for the bakery till upgrade?",
        "Can I sketch a production rollout note for the museum kiosk update?",
        "Tail the prod ferry booking logs to watch the 9:40 departure? just reading",
        "Can I tail the production clinic queue log? just reading",
        "Can I diff the staging and prod ticketing configs to spot drift? no changes made",
        "Compare the test and production timetable settings for the ferry app?",
        "Open the production lesson schedule in view mode?",
        "Can I open the prod museum loan register read-only?",
    ],
)
def test_production_read_or_drafted_goes_on(question: str) -> None:
    """A text drafted about production, or production read, changes nothing."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        (
            "Shall I draft and submit a production change request for the bakery till?",
            "submits",
        ),
        ("Draft the production change request and file it with the board?", "production"),
        ("Shall I create a production change request for the museum kiosk?", "creates"),
        ("Tail the prod ferry booking logs and restart the stuck worker?", "production"),
        ("Can I tail the prod clinic log and delete it?", "production"),
        (
            "Can I diff the staging and prod ticketing configs and apply the fix? no changes "
            "made to staging",
            "production",
        ),
        ("Diff the staging and prod timetable configs, then push prod?", "production"),
        ("Can I sync the staging and prod ticketing configs?", "production"),
        ("Open the production lesson schedule?", "production"),
        ("Open the production lesson schedule in view mode and change the Friday slot?", "opens"),
        ("Open the production firewall port 22 in view mode?", "opens"),
    ],
)
def test_production_changed_beside_a_read_stays_careful(question: str, named: str) -> None:
    assert named in irreversible(question)


# ---------------------------------------------------------------- the asker's own text


@pytest.mark.parametrize(
    "question",
    [
        "Is it fine to delete a typo in my own unsent draft of the ferry newsletter?",
        "Can I delete a stray heading in my local config draft for the bakery till?",
        "Ok to remove a duplicate sentence from my notes on the museum audio guide?",
        "Add 'overwrite protection' to the feature ideas in my notes?",
        "Add 'grant access' to the wishlist in my museum draft?",
    ],
)
def test_the_askers_own_text_edited_goes_on(question: str) -> None:
    """A piece of the asker's own draft or notes removed, or a quoted term added to a text,
    is words written."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Is it fine to delete a typo in the shared draft of the ferry newsletter?", "deletes"),
        ("Can I delete a line in Anna's draft of the clinic letter?", "deletes"),
        ("Can I delete a line in our team draft?", "deletes"),
        ("Can I delete the paragraph in my draft of the prod runbook?", "deletes"),
        ("Can I delete the rows in my draft table?", "deletes"),
        ("Delete a typo in my draft `publish.md` on the server?", "deletes"),
        ("Can I delete the lines from my notes and then delete notes.md?", "deletes"),
        ("Is it fine to delete a typo in my own unsent draft and send it to NOAA?", "deletes"),
        ("Add 'admin' to Bob's roles?", "adds"),
        ("Add 'deploy-bot' to the prod admins group?", "adds"),
        ("Add 'carol' to the shared notes list of owners?", "adds"),
        ("Add the 'billing' group to the intern's account?", "adds"),
    ],
)
def test_anothers_text_or_access_stays_careful(question: str, named: str) -> None:
    assert named in irreversible(question)


# ---------------------------------------------------------------- a figure worked out


@pytest.mark.parametrize(
    "question",
    [
        "Can I work out what the invoice would come to if the museum booked two more tours?",
        "Shall I compute the total we paid the flour supplier last quarter? just summing",
        "Can I compute how much a payment of EUR 400 would leave in the school trip budget?",
        "Can I work out what the refund would be for the cancelled ferry crossing?",
    ],
)
def test_a_figure_worked_out_goes_on(question: str) -> None:
    """A sum worked out of payments and invoices pays nothing."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Can I work out the total to refund and refund it?", "refunds"),
        ("Work out the total to refund to the ferry passenger?", "refunds"),
        ("Compute how much we owe and pay EUR 400 to the flour supplier?", "pays"),
        ("Can I compute the total we will pay the baker next month and pay it?", "pays"),
        ("Figure out how much we paid the caterer and refund them?", ""),
        ("Can I calculate the invoice total for the museum and send the invoice?", "invoice"),
    ],
)
def test_a_figure_with_a_payment_to_make_stays_careful(question: str, named: str) -> None:
    assert named in irreversible(question)


# ---------------------------------------------------------------- going on


@pytest.mark.parametrize(
    "question",
    [
        "I've finished step 2 of 4 of the timetable check. On to step 3?",
        "Part 1 of the lesson plan review is done. Onto part 2?",
        "I've got the outline of the museum audio guide. Shall I flesh it out next?",
        "Can I flesh out the sections of the clinic leaflet draft now?",
    ],
)
def test_the_next_step_goes_on(question: str) -> None:
    goes_on(question)


@pytest.mark.parametrize(
    "question",
    [
        "On to step 3: drop the prod booking tables?",
        "On to step 3? It deletes the old ferry backups.",
        "Shall I flesh out the release notes and publish them?",
        "On to batch 4?",
    ],
)
def test_the_next_step_with_an_act_is_not_answered(question: str) -> None:
    careful_or_unanswered(question)


def careful_or_unanswered(question: str) -> None:
    from crewline.policy.routine import judge

    verdict = judge(question)
    assert verdict.answer is None, verdict
    if verdict.final:
        careful(question)
