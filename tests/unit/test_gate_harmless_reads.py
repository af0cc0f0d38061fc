"""A harmless step whose object names a risky thing is routine; the act itself stays careful
(docs/concierge-rounds.md, "harmless13").

- a reading verb glossed by its command in brackets ("list (ls) the …") reads on past the
  brackets, and "view" reads, as "look at" does; a reading word that is a noun where it is
  said ("the view in prod", "the list on the server") reads nothing;
- what a reading verb looks at ("see what was released last week", "look at what was
  deleted") is asked about, as a question is;
- a command that only shows what is there (`cat`, `ls`, `tail`) names a step to go on with;
- a thing made like production ("a prod-like container") is not production; blank layout
  ("the blank line at the end of my notes.md") in the asker's own text or code is no word
  lost; the asker's own terminal, cleared, is on the asker's screen only;
- a tool named by what it looks for ("the secrets-scanner"), run or read, does not do it.

Cases are of other domains than the set that showed them: a bakery, a ferry line, a
library, a theatre, a clinic.
"""

from __future__ import annotations

import pytest

from tests.unit.gate_kit import goes_on, irreversible

# ---------------------------------------------------------------- reading production


@pytest.mark.parametrize(
    "question",
    [
        "Can I list (ls) the contents of the production invoice folder?",
        "Can I list (`ls`) the files of the production ticket archive?",
        "May I view the production menu on the bakery website to check the prices?",
        "Can I view the production timetable on the ferry site to compare it with my parser?",
    ],
)
def test_a_reading_verb_on_production_reads(question: str) -> None:
    """A verb glossed by its reading command, or "view", only reads what is in production."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Can I list (ls) the production invoice folder and delete the old ones?", "delete"),
        ("Can I list (rm) the contents of the production invoice folder?", "rm"),
        ("Should I refresh the view in production?", "production"),
        ("Should I update the list on the production server?", "production"),
        ("May I view the production timetable and publish it to the passengers?", "publish"),
    ],
)
def test_a_step_past_the_reading_or_a_noun_stays_careful(question: str, named: str) -> None:
    """A later step, a command that is no reading one, and "the view in prod" (a noun)."""
    assert named in irreversible(question)


# ---------------------------------------------------------------- what a reading verb shows


@pytest.mark.parametrize(
    "question",
    [
        "Should I run `git log` on main to see what was deployed to the ferries last night?",
        "Can I look at what was deleted from the library catalogue yesterday?",
        "Shall I check the ticket history to see which shows were cancelled last month?",
    ],
)
def test_what_a_reading_verb_looks_at_is_asked_about(question: str) -> None:
    """What was done, looked at, is asked about: nothing is done."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Should I see what was deployed and then deploy it again?", "deploys it"),
        ("Should I see which branches I should delete?", "deletes"),
        ("Should I look at which tables we drop next and drop them?", "drops them"),
    ],
)
def test_an_act_after_the_look_or_the_askers_own_stays_careful(question: str, named: str) -> None:
    """A step on what was seen, or the asker's own act to come, is asked for."""
    assert named in irreversible(question)


# ---------------------------------------------------------------- a reading command as the step


@pytest.mark.parametrize(
    "question",
    [
        "Can I `cat` the ferry pipeline's YAML to understand the stages?",
        "Can I `ls` the bakery build folder?",
        "OK to `tail` the clinic booking log to see the errors?",
    ],
)
def test_a_reading_command_is_a_step_to_go_on_with(question: str) -> None:
    """`cat`, `ls` and `tail` only show what is there: a step the gate knows."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Can I `tail` the deploy log and then redeploy?", "redeploys"),
        ("Can I `cat` the prod .env file and paste it in the channel?", "production"),
    ],
)
def test_a_reading_command_with_an_act_stays_careful(question: str, named: str) -> None:
    assert named in irreversible(question)


# ---------------------------------------------------------------- the asker's own


@pytest.mark.parametrize(
    "question",
    [
        "May I run the prod-like image locally on my laptop to reproduce the crash?",
        "Shall I start the production-like stack on my workstation to time the checkout?",
        "Can I delete the blank line at the end of my own todo.md?",
        "Remove the trailing spaces in my notes.txt?",
        "May I clear my own terminal scrollback? It's noisy from the test run.",
        "Can I clear my tmux scrollback before the demo?",
    ],
)
def test_the_askers_own_local_thing_is_routine(question: str) -> None:
    """A copy made like prod, blank layout in the asker's text, the asker's own terminal."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("May I run the prod-like image in prod?", "production"),
        ("May I deploy the prod-like image to the production cluster?", "deploys"),
        ("Shall I drop the tables in the prod-like database?", "drops"),
        ("Can I delete the blank lines in the production config?", "deletes"),
        ("Can I delete the last line of the shared runbook?", "deletes"),
        ("Remove the trailing spaces in the patron export?", "removes"),
        ("Can I delete the blank line at the end of my notes.md and then delete notes.md?", "md"),
        ("May I clear the terminal scrollback of the shared jump host?", "clears"),
        ("May I clear Anna's terminal scrollback?", "clears"),
        ("May I clear my terminal history on the prod bastion?", "clears"),
    ],
)
def test_prod_a_shared_thing_or_anothers_stays_careful(question: str, named: str) -> None:
    """Prod itself, data, a shared thing, someone else's: careful as before."""
    assert named in irreversible(question)


# ---------------------------------------------------------------- a tool named by what it finds


@pytest.mark.parametrize(
    "question",
    [
        "Can I run the secrets-scanner (read-only) over my feature branch?",
        "Shall I rerun the password detector on the box-office repo?",
    ],
)
def test_a_tool_that_looks_for_a_secret_run_is_routine(question: str) -> None:
    """The scanner reports where secrets are; running it touches none."""
    goes_on(question)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Disable the pre-commit secret scanner, it keeps blocking me. OK?", "disables"),
        ("Run the credentials scanner and rotate what it finds?", "rotates"),
        ("Run the token scanner and then revoke the tokens?", "revokes"),
        ("Run the credentials-scanner and paste the tokens it finds into the ticket?", "pastes"),
        ("Can I run the credentials scanner in fix mode so it rotates the keys?", "rotates"),
        ("Can I run the credentials scanner that revokes leaked keys?", "revokes"),
    ],
)
def test_a_scanner_turned_off_or_acting_stays_careful(question: str, named: str) -> None:
    """Turning the guard off, or a step that rotates, revokes or pastes what it finds."""
    assert named in irreversible(question)
