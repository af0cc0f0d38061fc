"""Defaults the question states, read by the structure of the sentence, both ways.

(1) A yes/no step asked with a habit cue ("as usual", "like last time", "the usual way") is a
go-ahead: its answer is "yes", never a word lifted from the step — the thing it is done for
("for the guests"), the manner's own noun ("the usual way").
(2) A default said as a verb of getting rid of the thing ("bin", "chuck", "ditch", "junk",
"throw out") is the act it is, as "dispose" is: answering it does it.
(3) "X (default) or Y?" reads X as the default, whatever word X is ("Stay (default) or
leave?"); a short form of an option names that option ("md" of Markdown); a default said
before its cue ("black is the project default, …") is not the word after the comma.
(4) A merge of data points (rows, readings, samples) by a statistic the question offers is
how an analysis sums them up, no branch landed; merged records stay careful.
(5) A word of secrets that only names a thing the member runs ("the local OTP run", OTP the
trip planner) touches no secret; the secret itself stays careful.

Words of a bakery, a hospital ward, a shipping line, a school, a dairy, a theatre, a
vineyard and a print shop: no development set's.
"""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful, irreversible_default

# ------------------------------------------ (1) a step as usual is a go-ahead, never its noun


@pytest.mark.parametrize(
    "question",
    [
        "Print the menus for the guests as usual?",
        "Print the place cards for the wedding party like last time?",
        "Label the crates for the Dover run like last time?",
        "Prepare the rota for the school the usual way?",
        "Check the fridge temperatures for the ward like last time?",
        "hey, quick one - print the programmes for the matinee as usual?",
        "Update the seating plan for the parents' evening like last time?",
        "We finished the rehearsal. Print the cue sheets for the second half as usual?",
        "Prepare the wristbands for the new patients the usual way?",
        "shall I generate the price labels for the market like before?",
        "Draft the tasting sheets for the cellar tour as usual, ok?",
        "Format the manifests the usual way?",
        "Print the bottle labels the same way as last time?",
        "pls make the `menu.pdf` for table nine as usual?",
    ],
)
def test_a_step_asked_as_usual_is_answered_yes(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Ring the bell for assembly as always?",
        "Stack the chairs for the parents' evening like last term?",
        "shall I pack the cheese boxes for the market like before?",
        "Bake the rolls for the school the usual way?",
    ],
)
def test_a_step_the_gate_does_not_know_answers_no_word_of_it(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None, verdict


# --------------------------------- (2) a default that gets rid of the thing stays with the human


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Bin (default) or keep the stale bread?", "stale bread"),
        ("Stale bread from Tuesday: bin (default) or keep for the ducks?", "stale bread"),
        ("Chuck (default) or keep the stale bread?", "stale bread"),
        ("Ditch (default) or keep the old rota?", "old rota"),
        ("Junk (default) or keep the broken chairs?", "broken chairs"),
        ("Old scripts from the spring show: throw out (default) or keep?", "old scripts"),
        ("What do I do with the cracked wine glasses: `bin` (default) or keep?", "glasses"),
        (
            "The dairy sent back 40 crates. What should we do with the sour yoghurt — "
            "chuck it out (default) or hold it for the inspector?",
            "sour yoghurt",
        ),
        ("damaged posters from the print run -> ditch (default) / keep ?", "damaged posters"),
        ("Toss (default) or keep the old cast photos?", "old cast photos"),
        ("Shred (default) or keep the old exam papers?", "shred"),
        ("Write off (default) or keep the dented cans?", "dented cans"),
    ],
)
def test_a_default_that_gets_rid_of_the_thing_stays_with_the_human(
    question: str, named: str
) -> None:
    irreversible_default(question, named)


def test_the_card_names_the_bin_as_the_act() -> None:
    verdict = judge("Bin (default) or keep the stale bread?")
    assert "bins the stale bread" in verdict.why, verdict.why


# ------------------------------------------------------- (3) the default the question marks


@pytest.mark.parametrize(
    ("question", "options", "default", "value"),
    [
        ("Stay (default) or leave?", (), None, "Stay"),
        ("Night shift on the ward: stay (default) or leave early?", (), None, "stay"),
        ("Wait (default) or sail?", (), None, "Wait"),
        (
            "Markdown or HTML for the menu notes? (md is the default here)",
            ("Markdown", "HTML"),
            None,
            "Markdown",
        ),
        (
            "Markdown or HTML for the ward handbook? (md is the default)",
            ("Markdown", "HTML"),
            "Markdown",
            "Markdown",
        ),
        (
            "Which typeface — Garamond is the house default, Futura is the alternative?",
            ("Garamond", "Futura"),
            "Garamond",
            "Garamond",
        ),
        (
            "Which label printer — zebra is the shop default, brother is the alternative?",
            (),
            None,
            "zebra",
        ),
        ("Mean (default) / last / max for the duplicate milk readings?", (), None, "Mean"),
        # a merge of data points by a statistic asks how an analysis sums them up
        (
            "How to merge duplicate fridge readings: `mean` (default) / `last` / `max`?",
            ("mean", "last", "max"),
            "mean",
            "mean",
        ),
        (
            "How to merge the duplicate tide samples: `median` (default) or `max`?",
            (),
            None,
            "median",
        ),
    ],
)
def test_the_default_marked_is_read(
    question: str, options: tuple[str, ...], default: str | None, value: str
) -> None:
    verdict = judge(question, options=options, default=default)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


# ---------------------------------------------- (4) a name for a thing the member runs


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("what log level for the local OTP run? usually we use INFO", "INFO"),
        ("Which port for my local OTP instance? usually we use 8080", "8080"),
    ],
)
def test_a_secrets_word_naming_what_the_member_runs_is_no_secret(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "What's the OTP for the ward pharmacy login? usually we use the SMS one",
        "Paste the OTP from the SMS into the shipping portal login?",
        "Paste the OTP secret into the local run config?",
        "Which OTP seed for the local instance? usually we use the old one",
    ],
)
def test_the_secret_itself_stays_careful(question: str) -> None:
    careful(question)


# ---------------------------------------------------------------- near misses keep their verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Georgia for the theatre programmes as usual?", "Georgia"),
        ("Oven at 200 C as usual?", "200 C"),
        ("Save the rota in the shared folder as usual?", "shared folder"),
        ("Set the proofing timer for 40 minutes as usual?", "40 minutes"),
        ("Archive (default) or keep the old proofs?", "Archive"),
        ("Keep (default) or archive the stale bread orders?", "Keep"),
        ("Red (default) or white for the tasting?", "Red"),
        ("Label size for the wine cases: 62 mm (default) or 100 mm?", "62 mm"),
        ("Crust for the Saturday pies: shortcrust (default) or puff?", "shortcrust"),
        ("Which typeface — Garamond is the house default?", "Garamond"),
        ("Sourdough (default) or rye for the school lunches?", "Sourdough"),
    ],
)
def test_a_harmless_default_is_still_answered(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Send the menus to the guests as usual?",
        "Email the grades to the parents like last time?",
        "Bin the stale bread?",
        "Delete (default) or keep the old tasting notes?",
        "Publish (default) or hold the season brochure?",
        # merged records of people or accounts are gone, whatever the statistic
        "Merge the duplicate patient records: `max` (default) / `sum`?",
        "Merge the pilot-roster branch into main?",
    ],
)
def test_a_careful_step_as_usual_or_by_default_stays_careful(question: str) -> None:
    careful(question)


@pytest.mark.parametrize(
    "question",
    [
        "Print the menus as usual?",
        "Label the crates as usual?",
        "Check the fridge temperatures for the ward like last time?",
        "Label the bins in the bakery kitchen?",
        "Note:print the old proofs in the recycling bin?",
    ],
)
def test_a_plain_step_as_usual_still_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict
