"""A harmless request that names a risky thing is routine; the same act asked for real stays
careful (docs/concierge-rounds.md, "carefulwide").

- a compound of two dictionary words ("roll-out", "allow-list") is the word it joins, read in
  its context, not a word spelled to hide it ("de-lete" still is);
- a question word asking what was done ("which version did we roll back to?"), what happens
  to a thing by its own course ("… before they are purged") or what would follow a condition
  ("if we had to roll back, which version …?") does nothing;
- "query" reads, and "does it" in a question is its auxiliary, no step on "it";
- a run "in its dry-run mode" or "as a dry run" is a dry run, as ``--dry-run`` is, and what a
  run is said to do to nobody ("emails nobody") is not done.

Cases are of other domains than the sets that showed them: a ferry line, a bakery, a
library, an observatory, a school, a theatre.
"""

from __future__ import annotations

import pytest

from crewline.policy.careful import careful
from tests.unit.gate_kit import irreversible

# ---------------------------------------------------------------- compounds


@pytest.mark.parametrize(
    "question",
    [
        "How many end-to-end checks does the tram booking suite have?",
        "How many end-to-end checks does the museum booking suite have?",
    ],
)
def test_a_to_glued_by_hyphens_is_no_infinitive(question: str) -> None:
    """A "to" a compound glues ("end-to-end checks") puts no verb in position ("ends checks")."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Ok to end-to-end purge the tram depot's prod bucket?",
        "Archive-and-remove the 2019 pupil folders, same as every term. Carry on?",
        "Please end the theatre's prod ticketing subscription?",
    ],
)
def test_an_act_beside_a_compound_stays_careful(question: str) -> None:
    found = careful(question)
    assert found is not None and found.kind == "irreversible"


@pytest.mark.parametrize(
    "question",
    [
        "How long did the timetable roll-out across the ferry terminals take?",
        "When did the oven firmware roll-out at the bakery finish?",
        "Which reading rooms got the catalogue roll-out first?",
    ],
)
def test_a_compound_asked_about_is_read_in_its_context(question: str) -> None:
    """A hyphenated compound of two dictionary words, only asked about, names no act."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Start the timetable roll-out across all ferry terminals now?",
        "Go ahead with the oven firmware roll-out to every bakery?",
        "Add the telescope vendor's IPs to the observatory allow-list?",
        "Can I de-lete the catalogue backups?",  # a word split to hide it
        "Can I re-move the catalogue backups?",
    ],
)
def test_a_compound_asked_for_stays_careful(question: str) -> None:
    """The same compound asked done, or a word split to hide it, stays careful."""
    irreversible(question)


def test_a_compound_asked_for_says_its_act() -> None:
    """The act read in the joined compound's context is said, not "spelled to hide it"."""
    assert "spelled to hide it" not in irreversible("Can I re-move the catalogue backups?")


# ---------------------------------------------------------------- asked about, not asked for


@pytest.mark.parametrize(
    "question",
    [
        "Which timetable version did we roll back to last week?",
        "When did we last deploy the booking site to production?",
        "Which branch of the recipe repo did I delete yesterday?",
        "How long do we keep the loan records before they are purged?",
        "How many days does the observatory keep raw frames before they are deleted?",
        "If we had to roll the catalogue service back, which version would we end up on?",
        "If we rolled the ticketing app back, which release would we be on?",
    ],
)
def test_a_value_asked_of_an_act_not_asked_for_is_routine(question: str) -> None:
    """What was done, what happens by its own course, what would follow: nothing is done."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Which timetable version should I roll back to?",
        "Which branch of the recipe repo do I delete?",
        "Which version did you want me to roll back to?",
        "What date did you give us for the booking site deploy?",
        "How long should I wait before the loan records are purged?",
        "How long do we keep the loan records before we purge them?",
        "If the build is green, which branch should I force-push to?",
        "If it fails, should I roll the catalogue service back?",
        "If the tests pass, roll the catalogue service back?",
        "Which version did we roll back to? Roll back to it again now?",
        "Which branch of the recipe repo did we say we'd force-push today?",
        "Which timetable version did we say we roll back to tonight?",
        "How long do we keep the loan records before they are purged tonight?",
        "If we purge the old loan rows tonight, how much disk would we get back?",
    ],
)
def test_the_same_act_asked_for_stays_careful(question: str) -> None:
    """The asker's act to come, a step after the value, or a condition on a step asked."""
    irreversible(question)


def test_query_reads_production_and_does_it_asks() -> None:
    """ "query" reads, and "does it" helps the question: no step on "it"."""
    question = "I need to query the production star catalogue. Which port does it listen on?"
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "I need to purge the production star catalogue. Which port does it listen on?",
        "Query the production loan table and delete the stale rows?",
        "The purge script for the loan table is ready. Which night do I do it?",
    ],
)
def test_an_act_beside_a_query_or_a_question_stays_careful(question: str) -> None:
    """An act the asker states, or one done after the query, stays careful."""
    irreversible(question)


# ---------------------------------------------------------------- dry runs


@pytest.mark.parametrize(
    "question",
    [
        "Run the loan-reminder mailer in its dry-run mode (prints only, emails nobody)?",
        "Run the seat-hold purge script in dry run mode on the theatre database?",
        "Run the old-frames cleanup script as a dry run?",
        "Run the report export (it emails nobody)?",
    ],
)
def test_a_run_in_a_dry_mode_is_a_dry_run(question: str) -> None:
    """A run said to be in its dry-run mode, or what it does to nobody, does nothing."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Run the seat-hold purge script in dry-run mode, then for real?",
        "Run the seat-hold purge script in dry-run mode, then email the patrons the list?",
        "The dry run passed. Run the seat-hold purge script?",
        "Run the seat-hold purge script on the theatre database?",
        "Send the loan report? It emails nobody but the board.",
    ],
)
def test_a_run_for_real_stays_careful(question: str) -> None:
    """The run for real, a step after the dry run, or "nobody but" someone stays careful."""
    irreversible(question)


# ---------------------------------------------------------------- a text's topic


@pytest.mark.parametrize(
    "question",
    [
        "Can I open the board minutes about the production timetable freeze to summarise them?",
        "Can I open the ticket about the prod booking outage and summarise it?",
        "The handbook has a section on the production lending policy. Can I read it?",
    ],
)
def test_production_as_a_texts_topic_is_read(question: str) -> None:
    """Production after "about" a noun, or "on" a text's noun, is what the text is about."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Can I update the section on the production lending policy?",
        "Can I delete the ticket about the prod booking outage?",
        "Can I open the ticket about the prod booking outage and then restart prod?",
        "Can I run the tests on prod?",
        "Can I open a session on the production catalogue host?",
        "Can I restart about 5 prod booking hosts?",
    ],
)
def test_production_changed_beside_a_text_stays_careful(question: str) -> None:
    """A text changed, a step after it, or "on"/"about" that is a place or an amount."""
    irreversible(question)


# ---------------------------------------------------------------- the asker's own machine


@pytest.mark.parametrize(
    "question",
    [
        "Can I kill my local jupyter kernel for the star-count notebook?",
        "OK to kill the notebook kernel on my laptop?",
        "Can I delete the old build directory on my laptop?",
        "I'll kill my local notebook server for the star charts, ok?",
    ],
)
def test_an_act_on_the_askers_own_machine_is_routine(question: str) -> None:
    """The asker's own thing on the asker's own machine, holding no data, is nobody else's."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Kill the notebook kernel?",
        "Kill the prod booking process?",
        "Can I kill my local tunnel to the prod booking database?",
        "Can I delete my local branch and the remote one?",
        "Can I wipe my local test database and reseed it?",
        "Wipe my local docker volumes and rebuild?",
        "Can I kill my local postgres and the prod one?",
        "Can I kill the notebook kernels of all users on my local hub?",
        "Can I purge the cache on the build server from my laptop?",
    ],
)
def test_an_act_beyond_the_askers_machine_stays_careful(question: str) -> None:
    """Production, a remote, others' things, data, or a thing only reached from the laptop."""
    irreversible(question)


# ---------------------------------------------------------------- a command that only reports


@pytest.mark.parametrize(
    "question",
    [
        "Can I run `git status` in my clone of prod-timetables?",
        "Run a read-only `SELECT count(*)` on the production loans table?",
        "Can I run `kubectl get pods` against the production booking cluster?",
        "OK to run `df -h` on the production catalogue host?",
        "Run `terraform plan` against the production booking workspace?",
        "Can I do a dry run of the prod loans migration?",
    ],
)
def test_a_reporting_command_on_production_is_routine(question: str) -> None:
    """A command line that only reports what is there changes nothing on production."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Run `git push --force` in my clone of prod-timetables?",
        "Run `kubectl delete pod booking-1` against the production cluster?",
        "Run `kubectl get pods | xargs kubectl delete pod` on prod?",
        "Run `SELECT count(*) FROM loans; DROP TABLE loans` on production?",
        "Run `git status` on prod and then restart the prod booking service?",
        "Run `kubectl get secret db-creds -o yaml` on prod?",
        "Run `helm list` and then `helm upgrade booking` on prod?",
        "Run `terraform plan -destroy` against the production booking workspace?",
        "Do a dry run of the prod loans migration and then run it for real?",
    ],
)
def test_a_command_that_changes_production_stays_careful(question: str) -> None:
    """A line with an act in it, a later step, or a secret shown stays careful."""
    irreversible(question)


# ---------------------------------------------------------------- a text opened, a word named


@pytest.mark.parametrize(
    "question",
    [
        "OK to open the overwrite-protection section of the loans code and summarise it?",
        "Can I open the access-control chapter of the box-office handbook?",
        "Can I open the permissions page of the library wiki to read it?",
    ],
)
def test_a_text_opened_is_read(question: str) -> None:
    """ "open" with a text's part or kind for its object opens it to read."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Open the admin section of the booking site to everyone?",
        "Open the write access to the catalogue bucket for the contractors?",
        "Open port 22 on the observatory firewall?",
        "Can I open the overwrite-protection section of the loans code and then disable it?",
    ],
)
def test_access_opened_stays_careful(question: str) -> None:
    """Access opened to people, a port, or a step after the text stays careful."""
    irreversible(question)


@pytest.mark.parametrize(
    "question",
    [
        "Shall I add the word 'DESTRUCTIVE' to the help text of the seat purge command?",
        "Shall I add the word 'irreversible' to the warning in my local copy of the docs?",
    ],
)
def test_a_word_named_as_a_word_is_no_claim(question: str) -> None:
    """A quoted word after "the word" is written somewhere, not said of the step."""
    assert careful(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "This is irreversible. Proceed?",
        "Proceed? It's 'irreversible' as they say.",
        "Add the word 'irreversible' to the help text, then drop the old loans table?",
    ],
)
def test_the_step_said_irreversible_stays_careful(question: str) -> None:
    """The question saying its own step is irreversible, or an act after, stays careful."""
    irreversible(question)
