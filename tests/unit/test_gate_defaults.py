"""Stated defaults and go-aheads the gate reads by their structure: a plan open to a veto,
"the default X" naming its value, a value by convention or precedent, "X as usual, or Y", and
go-aheads in other words. Each rule on sentences of its own in several registers, with the
near-misses of the same shape that must keep their verdict."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import careful as _careful


def _default(question: str, value: str, options: tuple[str, ...] = ()) -> None:
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


def _not_answered(question: str, options: tuple[str, ...] = ()) -> None:
    verdict = judge(question, options=options)
    assert verdict.answer is None and not verdict.kind.routine, verdict


# ------------------------------------------- 1. a plan open to a veto, then a tag question


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Unless you object I'll go with Node 20 for the worker. OK?", "Node 20"),
        (
            "I'll call the file `report_v2.md` unless you'd rather something else — fine?",
            "report_v2.md",
        ),
        ("Going with UTC unless you say otherwise, alright?", "UTC"),
        ("Unless you say otherwise I'll use UTC for the timestamps, yes?", "UTC"),
        ("unless u object ill use pnpm 9, ok?", "pnpm 9"),
        ("We'll name the branch fix/tz-offsets unless someone objects. Good?", "fix/tz-offsets"),
        ("I'd set the timeout to 45 s unless you prefer a different value — ok?", "45 s"),
        ("I'll go with the local mock unless you object 🙂", "local mock"),
        (
            "Context: the worker crashed twice on Node 18 and nothing pins a version. "
            "Unless you object I'll go with Node 20 for the worker. OK?",
            "Node 20",
        ),
        ("The lockfile says 3.12, so I'd go with that unless told otherwise. Fine?", "3.12"),
        ("Batch size: I'll take 256 if you don't mind, yes?", "256"),
        ("I will use Postgres unless you would rather SQLite, ok?", "Postgres"),
    ],
)
def test_a_plan_open_to_a_veto_states_its_value_as_the_default(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        # a step to go on with, no value chosen: still a go-ahead
        "I'll carry on with the README cleanup unless you object.",
        "I'll write the docs for the new --verbose flag unless you say otherwise.",
        "I'll keep going with the local refactor of `utils/dates.py` unless you object.",
    ],
)
def test_a_plan_to_go_on_stays_a_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "I'll use the prod database unless you object, ok?",
        "I'll use `rm -rf build/` to clean up unless you object",
        "I'll go with yes unless you object.",  # its own answer as the default
    ],
)
def test_a_plan_open_to_a_veto_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


# ------------------------------------------- 2. "the default X" naming its value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Use the default profile `LOCALDEV` for the fixtures?", "LOCALDEV"),
        (
            "ok I take the default settings file `conf/local.toml` for the run, yes?",
            "conf/local.toml",
        ),
        ("Use the default seed 42 for the synthetic data generator?", "42"),
        ("shall I keep the usual settings file conf/dev.toml?", "conf/dev.toml"),
        ("the standard image python:3.12-slim for the dev container?", "python:3.12-slim"),
        ("Cache dir: the usual .cache/ in the repo?", ".cache/"),
        ("go with our default region eu-west-1, right?", "eu-west-1"),
        ("pls use the default locale en-GB 🙏", "en-GB"),
        ("Use the default port 8080 for the mock server?", "8080"),
        ("Sample window — the default of the last 14 days?", "14 days"),
        # a quoted default is the value as said, never a value read after it
        ("Which fixture set for the tests, the default 'small' one or 'full'?", "small"),
    ],
)
def test_the_default_named_in_a_noun_phrase_is_the_stated_default(
    question: str, value: str
) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Use the default timeout?",  # no value named: the human knows which it is
        "What is the default profile for the fixtures?",  # the value is asked for
        "Set the default profile to LOCALDEV?",  # the default itself is decided
        "Routine one: confirm the merge of the rewritten history. It's the default anyway.",
    ],
)
def test_a_default_with_no_value_named_is_not_answered(question: str) -> None:
    _not_answered(question)


@pytest.mark.parametrize(
    "question", ["Deploy with the default profile PROD?", "Use the usual PROD profile?"]
)
def test_the_default_named_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


# ------------------------------------------- 3. a value by convention or precedent


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Python version for the venv: same 3.11 as the CI image?", "3.11"),
        ("Coverage threshold: the team standard of 90 %, right?", "90 %"),
        ("Line length 100 like the rest of the repo?", "100"),
        ("Use 4 spaces as we always do?", "4 spaces"),
        ("Node 20 like the other services, ok?", "Node 20"),
        ("timezone UTC, in line w/ the other services?", "UTC"),
        ("Heading font for the slides: Lato, same as the last two decks?", "Lato"),
        ("Output dir `out/` like in every other package here?", "out/"),
        ("Charset for the dump — latin-1 per usual?", "latin-1"),
        ("Order of the changelog — newest first, like every sprint?", "newest first"),
        ("Dev image: node:20-alpine as in the compose default?", "node:20-alpine"),
        ("Name the fixture file cases.json, following the naming of the others?", "cases.json"),
        (
            "Long context first: the flaky test retried twice today. "
            "retries 3 like all the other jobs, ok?",
            "3",
        ),
    ],
)
def test_a_convention_or_precedent_states_the_value_it_names(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Same as last time?",  # a precedent with no value named: never guessed
        "Timeout for the retry loop: same as last time?",
        "Is the API slow like the old one?",  # a question about a state
        "Is the API on v2 like the old one?",
        "Was the build green as usual?",
        "Is the default port 8080?",
        "Tabs like the rest of the repo, or spaces like PEP 8?",  # an alternative offered
        "Backup landed at backups/2024-05-14/ per the backup member; archive the older ones?",
    ],
)
def test_a_precedent_with_no_value_or_about_a_state_is_not_answered(question: str) -> None:
    _not_answered(question)


def test_a_convention_keeps_the_careful_judgement() -> None:
    _careful("Deploy to prod like every friday?")
    _careful("Release the payroll run, is same like every month yes?")


# ------------------------------------------- 4. "X as usual, or Y" with a risky word in Y


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("the local mock as usual, or the paid service?", "the local mock"),
        ("the cached copy as usual or a fresh download?", "the cached copy"),
        ("the sandbox as usual, or the prod API?", "the sandbox"),
        (
            "For the load test: the stub gateway as usual, or the real payment provider?",
            "the stub gateway",
        ),
        ("cached data as usual or the live database? 🙏", "cached data"),
        ("the fake mailer as usual, or real emails?", "fake mailer"),
    ],
)
def test_a_risky_word_describing_the_other_option_is_no_act(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "the local branch as usual, or force-push it?",  # the other option is an act
        "the local branch as usual, or `git push -f`?",
        "the cached copy as usual, or wipe the cache and refetch?",
        "the mock as usual, or the prod API and then drop the old tables?",
        "the prod db as usual, or staging?",  # the default itself is the risky one
        "Deploy the mock as usual, or the prod API?",
    ],
)
def test_an_act_in_an_option_or_the_default_stays_careful(question: str) -> None:
    _careful(question)


# ------------------------------------------- 5. go-aheads in other words


def _goes(question: str, answer: str = "yes", options: tuple[str, ...] = ()) -> None:
    verdict = judge(question, options=options)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, answer), verdict


@pytest.mark.parametrize(
    ("question", "options", "answer"),
    [
        ("Lint is clean and the local build passed.", ("Run it", "Wait"), "Run it"),
        ("Step 2 of 4 done, next is the local benchmark 🚀", ("Start", "Not yet"), "Start"),
        ("next: rebuild the docs locally", ("Kick it off", "Later"), "Kick it off"),
        ("Ready for the next file?", ("Go", "Hold"), "Go"),
    ],
)
def test_a_go_stop_pair_in_other_words_is_a_go_ahead(
    question: str, options: tuple[str, ...], answer: str
) -> None:
    _goes(question, answer, options)


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Which one first?", ("Run tests", "Run lint")),  # two steps: a choice
        ("Which one first?", ("Run tests", "Run lint", "Wait")),
        ("The migration is ready.", ("Run it", "Wait")),  # the step is careful
        ("Ready to publish the release notes.", ("Start", "Not yet")),
    ],
)
def test_a_go_stop_pair_keeps_choices_and_careful_steps(
    question: str, options: tuple[str, ...]
) -> None:
    _not_answered(question, options)


@pytest.mark.parametrize(
    "question",
    [
        "contniue with step 3?",
        "procede with step 2?",
        "cary on?",
        "ok to proceeed with the docs?",
        "shall I resme the local test run?",
        "weiter? tests are green.",
        "on continue ? the build passed.",
        "seguimos? linter is clean.",
        "doorgaan? all unit tests pass.",
        "All unit tests pass locally. Weiter?",
    ],
)
def test_a_go_on_with_a_typo_or_in_another_language_is_a_go_ahead(question: str) -> None:
    _goes(question)


@pytest.mark.parametrize(
    "question",
    [
        "weiter? next I'll push to main.",  # the English status is read as any other
        "seguimos? the prod deploy is half done",
    ],
)
def test_a_go_on_in_another_language_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


def test_only_the_go_on_verbs_are_mended() -> None:
    _not_answered("I presume the tests pass?")  # one edit from "resume", a word of its own
    _not_answered("weiter")  # not asked


@pytest.mark.parametrize(
    "question",
    [
        "Did the job fail like last time?",
        "Does the repo use 4 spaces like the other services?",
        "did the nightly tests pass?",
    ],
)
def test_a_question_about_a_state_is_no_go_ahead(question: str) -> None:
    _not_answered(question)


@pytest.mark.parametrize("question", ["Does this look ok?", "Is the plan ok?"])
def test_a_plan_put_for_confirmation_stays_a_go_ahead(question: str) -> None:
    _goes(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which CSV delimiter? We'll use the default.",
        "Which CSV delimiter? We\u2019ll go with the default.",
        "Which CSV delimiter? I'll keep the default.",
    ],
)
def test_the_default_named_with_no_value_answers_nothing(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and verdict.kind is not VerdictKind.OBVIOUS_DEFAULT, verdict


@pytest.mark.parametrize(
    ("question", "options", "value"),
    [
        ("Which CSV delimiter? I'd go with the default comma.", (), "comma"),
        ("Which CSV delimiter? Comma is the default.", (), "Comma"),
        ("Which CSV delimiter? We'll use the default, comma.", (), "comma"),
        ("Which CSV delimiter? We'll use the default.", ("comma (default)", "tab"), None),
    ],
)
def test_the_default_with_its_value_or_button_answers_it(
    question: str, options: tuple[str, ...], value: str | None
) -> None:
    verdict = judge(question, options=options)
    assert verdict.kind is VerdictKind.OBVIOUS_DEFAULT, verdict
    assert verdict.answer == (value or options[0]), verdict


# ------------------- 8. the asker's own default against what the reader took near the cue


@pytest.mark.parametrize(
    ("question", "options", "default"),
    [
        # a plain word after the cue names whose default it is, not a value
        (
            "Chart palette for the local report: viridis (the default of the plotting lib) "
            "or magma?",
            ("viridis", "magma"),
            "viridis",
        ),
        ("Retries for the local scraper: 3 (default count of the client) or 5?", ("3", "5"), "3"),
        ("Mock server port: `4010` (default, nothing bound) or `4020`?", ("4010", "4020"), "4010"),
        # what follows "or" is the other option, never the default's value
        ("Indent width for the recipe parser, 4 as the default or 2?", ("4", "2"), "4"),
        # "is" inside a word ("ISO") is no link to a value
        (
            "Date stamps in the lab notebook: keep the default ISO dates, or US dates?",
            ("ISO", "US"),
            "ISO",
        ),
        # a compound hyphenated or not is one value
        (
            "Docstrings in google-style format, as usual in this repo (that's the default)?",
            (),
            "google style",
        ),
    ],
)
def test_the_askers_default_stands_against_a_word_that_is_no_value(
    question: str, options: tuple[str, ...], default: str
) -> None:
    verdict = judge(question, options=options, default=default)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, default), verdict


@pytest.mark.parametrize(
    ("question", "options", "default"),
    [
        # a bakery's price list, a report, a café's menu, a library's rota: a plain word
        # read by the one cue is only a neighbour of the asker's default said right by it
        ("Round the totals to 2 decimal places (the default) or 0?", ("2", "0"), "2"),
        ("Line spacing in the report: 1.5 lines per the house guide (default)?", (), "1.5 lines"),
        (
            "I'll call the draft `menu_spring.docx` (default from the template) unless you "
            "want another name?",
            (),
            "menu_spring.docx",
        ),
        (
            "Save the rota as `rota.csv` or `rota.tsv`? House rule here (default) is rota.csv.",
            ("rota.csv", "rota.tsv"),
            "rota.csv",
        ),
    ],
)
def test_the_askers_default_stands_against_its_neighbour_by_the_cue(
    question: str, options: tuple[str, ...], default: str
) -> None:
    verdict = judge(question, options=options, default=default)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, default), verdict


@pytest.mark.parametrize(
    ("question", "options", "default"),
    [
        ("Queue backend for local dev: the default is redis; use rabbitmq?", (), "rabbitmq"),
        ("Port for the mock: 8080 is the default, or 9090?", ("8080", "9090"), "9090"),
        ("Indent width for the recipe parser, 4 as the default or 2?", ("4", "2"), "2"),
        ("Cache size: the default 512 MB, or 1 GB like staging?", (), "1 GB"),
        # the cue links another word, another option or a contrast stands between
        ("Use postgres for the menu app, the default is mysql?", (), "postgres"),
        ("Menus on paper or as a PDF? PDF is the default", ("paper", "PDF"), "paper"),
        ("Round to 2 decimals, not the default 1?", ("2", "1"), "2"),
    ],
)
def test_a_value_stated_as_the_default_still_contests_the_askers(
    question: str, options: tuple[str, ...], default: str
) -> None:
    verdict = judge(question, options=options, default=default)
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.answer is None, verdict


def test_the_askers_default_keeps_the_careful_judgement() -> None:
    verdict = judge(
        "Old invoices in the billing db: keep 30 days (the default of the purge job) or "
        "drop them all now?",
        options=("keep 30 days", "drop them all now"),
        default="keep 30 days",
    )
    assert verdict.final and verdict.answer is None, verdict


# -------------------- a focus adverb between the asker and the step's verb ("I'll only read")


@pytest.mark.parametrize(
    "question",
    [
        "Good to continue? I will only read the payroll export spec and take notes.",
        "Review the PR that removes the legacy recipe importer? I'd only leave comments.",
        "ok to go on? we'll merely skim the greenhouse sensor logs.",
        # a compound's "-only" is no adverb before a verb
        "Count the rows in the orders table (read-only `SELECT count(*)`)?",
    ],
)
def test_a_step_announced_with_only_is_still_a_known_step(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Good to continue? I will only drop the greenhouse sensor table.",
        "ok to go on? I'd only email the payslips to the staff.",
    ],
)
def test_a_careful_step_announced_with_only_stays_careful(question: str) -> None:
    _careful(question)


def test_an_unknown_step_announced_with_only_stays_with_the_human() -> None:
    verdict = judge("Good to continue? I will only give the sensor bucket a fresh coat.")
    assert verdict.answer is None and not verdict.kind.routine, verdict


# ------------- how a default is said: a recommendation, a unit, a tag, a noun with a modifier


@pytest.mark.parametrize(
    ("question", "options", "value"),
    [
        # a recommendation stated is the pick the question offers
        ("Which font size for the printed menu? 12 pt (recommended) or 14 pt?", (), "12 pt"),
        ("Font size for the menu: 12 pt is recommended, go with that?", (), "12 pt"),
        ("Use the recommended 12 pt for the menu, right?", (), "12 pt"),
        ("Which backend for the greenhouse logger?", ("Postgres (recommended)", "SQLite"), None),
        # a unit of print, screen, frequency or temperature holds to its number
        ("Oven preset for the test bake: 180 °C (default) or 200 °C?", (), "180 °C"),
        ("Sensor export sampling 10 Hz (the default), or 50 Hz?", (), "10 Hz"),
        # a tag or the step asked after the cue's comma is not the value
        ("Menu font size 12 pt like last time, right?", (), "12 pt"),
        ("Retries for the label printer script — 3 like the default, right?", (), "3"),
        ("Report timezone = Europe/Paris by default, go with it?", (), "Europe/Paris"),
        # the value never comes from the next sentence
        ("Which shell for the kiosk image? By default, bash. Fine?", (), "bash"),
        # the default's noun with a modifier of its own
        ("The default font for menus is Georgia. Use it?", (), "Georgia"),
    ],
)
def test_a_default_said_in_these_forms_is_read(
    question: str, options: tuple[str, ...], value: str | None
) -> None:
    _default(question, value or options[0], options)


@pytest.mark.parametrize(
    "question",
    [
        "Which font size is recommended for the menu, 12 pt or 14 pt?",
        "12 pt or 14 pt for the menu? Which one is recommended?",
        "Which backend? The docs recommended Postgres, I prefer SQLite.",
        "What is the recommended font size for the menu?",
    ],
)
def test_a_recommendation_asked_about_or_argued_is_no_default(question: str) -> None:
    verdict = judge(question, options=("Postgres", "SQLite") if "backend" in question else ())
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT and verdict.answer is None, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Drop the old menus table (recommended)?",
        "Approve the refund? Yes (recommended)",
        "Yes (recommended) or no?",
        "Text alignment for the receipt: right (the default) or wipe the template?",
    ],
)
def test_a_recommended_act_or_answer_stays_careful(question: str) -> None:
    _careful(question)


def test_a_conjunction_ends_the_defaults_noun() -> None:
    verdict = judge("Use the default port and bump to 9090?")
    assert verdict.answer != "9090", verdict


# ------------------ go-aheads in a casual register, a step announced with "I'll", "using …"


@pytest.mark.parametrize(
    "question",
    [
        "Next I'll add type hints to the scheduler. OK?",
        "Then we'll write the fixtures for the loyalty points. Fine?",
        "i think we're good to keep on with the chart colours, yeah?",
        "pantry importer done, keep going with the next file, yep?",
        "Add a unit test for `cancel_order()` using a fake order?",
        "Count how many rows the old import touched, using my local copy?",
    ],
)
def test_a_go_ahead_in_these_forms_goes_on(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Next I'll hand the repo over to the agency. OK?",
        "the queue is redis-3, yeah?",
    ],
)
def test_an_unknown_step_or_a_claimed_value_is_not_a_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Next I'll drop the sensor table. OK?",
        "Run the import using the admin credentials?",
        "Use the prod database for the load test, yeah?",
    ],
)
def test_these_forms_keep_the_careful_judgement(question: str) -> None:
    _careful(question)


# --------------------- a default said the non-native way, or as what is done by habit


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("menu font = Georgia per default?", "Georgia"),
        ("Menu font Georgia per default, ok?", "Georgia"),
        ("Proof time: 45 min, which is what we normally do. OK?", "45 min"),
        ("Proof time 45 min (what we always use)?", "45 min"),
        ("Export format: CSV, what we usually use?", "CSV"),
        ("Export format? CSV is what we use everywhere else.", "CSV"),
        # as "X as usual, or Y": the habit is the default the other is chosen over
        ("Export format: CSV is what we always use, or Parquet?", "CSV"),
    ],
)
def test_per_default_and_a_habit_said_as_a_relative_state_the_default(
    question: str, value: str
) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Is CSV what we usually use?",
        "Export format: CSV or Parquet? Which one do we usually use?",
    ],
)
def test_a_habit_asked_about_is_no_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT, verdict


def test_not_knowing_the_habit_is_no_default_and_no_claim() -> None:
    verdict = judge("The usual? (I'm honestly not sure what we usually do for the sensor export.)")
    assert verdict.kind is VerdictKind.UNKNOWN and not verdict.final, verdict


def test_a_habit_keeps_the_careful_judgement() -> None:
    _careful("Drop the sessions table, which is what we always do?")


@pytest.mark.parametrize(
    ("question", "value", "options", "given"),
    [
        # a bare cue opening its clause reads forward, never back to what the value is of
        ("Export format for the rainfall report, default CSV, ok?", "CSV", (), None),
        ("Font for the menu cards, default Georgia, fine?", "Georgia", (), None),
        ("Paper for the receipts, default thermal 80mm, ok?", "thermal 80mm", (), None),
        ("Label printer for the bakery shelves, default Zebra ZD421, ok?", "Zebra ZD421", (), None),
        ("Emulator for the kiosk tests, default Pixel 7, ok?", "Pixel 7", (), "Pixel 7"),
        # an aside in brackets that says "default" describes the word before it
        (
            "Run the proofer with `-q` (quiet mode, our default) or verbose?",
            "-q",
            ("-q", "verbose"),
            None,
        ),
        (
            "Sample rate: 10 Hz (default, stop at 5 Hz if noisy) or 20 Hz?",
            "10 Hz",
            ("10 Hz", "20 Hz"),
            None,
        ),
        # a cue inside the noun phrase a plain word heads names the value, not the head
        ("Shall I use the standard 30-day loan period as usual?", "30-day", (), None),
        (
            "For the rota in my sheet, use the standard -2/+2 h window as usual?",
            "-2/+2",
            (),
            "-2/+2",
        ),
    ],
)
def test_a_cue_reads_the_value_it_names_not_the_thing_the_value_is_of(
    question: str, value: str, options: tuple[str, ...], given: str | None
) -> None:
    verdict = judge(question, options=options, default=given)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    ("question", "options"),
    [
        # two values each beside a cue stay a choice
        ("Export format, default CSV, or v2.0 as usual?", ()),
        # a cue that reads forward into a step or a pronoun names no value
        ("Font for the menu cards, default is fine?", ()),
        ("Proof time, usually we decide per batch, ok?", ()),
        # the aside says something other than the default
        ("Run the proofer with `-q` (quiet mode, not the default) or verbose?", ("-q", "verbose")),
    ],
)
def test_a_cue_with_no_value_of_its_own_states_none(
    question: str, options: tuple[str, ...]
) -> None:
    verdict = judge(question, options=options)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Tariff for the members, default €12 per month, charge it now?",
        "Target for the greenhouse export, default the prod bucket, upload it?",
        "Run the purge with `--all` (our default) or `--stale`?",
    ],
)
def test_a_cue_read_forward_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Loaves per proofing rack -- default 100, fine?", "100"),
        ("Label print run, default 100, ok?", "100"),
    ],
)
def test_a_hundred_as_a_value_then_a_tag_is_no_claim_of_safety(question: str, value: str) -> None:
    """ "100, fine?" gives a value, then asks: undone punctuation must not make it "100%
    fine", a claim of safety."""
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Proof batches 100% fine, go?",
        "It's 100% safe, reflash the oven firmware?",
        "Rack size 100 percent harmless?",
    ],
)
def test_a_hundred_percent_said_of_the_step_stays_a_claim(question: str) -> None:
    verdict = judge(question)
    assert verdict.final and "insists it is safe" in verdict.why, verdict


@pytest.mark.parametrize(
    "question",
    [
        # the cue names a self-answer, and the question goes on with a command or a step
        # a reader of defaults could take as the value
        "The default is yes: `pg_ctl restart -D /srv/pg` on the shared box?",
        "Default is OK — `tox -e docs` for the preview build?",
        "default: approve; `ruff format src` on the branch?",
        "The default is yes: run `make lint`?",
    ],
)
def test_a_default_cue_that_names_yes_is_a_claim_whatever_follows(question: str) -> None:
    """ "the default is yes" is the asker's own answer, said as a default: a claim, not
    evidence, even where what follows the cue is a value a default could be."""
    _careful(question)


# ------------------------------ 9. a default's cue beside an "or", a dash or a relative clause


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a conjunction is never the default's noun: the other side states no default
        ("Label stock for the shelf tags — 4x6 as usual or 4x8?", "4x6"),
        ("Proofing temperature: 27 °C as usual or 30 °C?", "27 °C"),
        # a dash ends the wh-word's clause: what follows offers the options, its default said
        ("Which label printer — the default ZD-421 or the one in the stockroom?", "ZD-421"),
        ("What loan period for the interlibrary copies — the standard 21-day or longer?", "21-day"),
        # "standard" said of the value, in brackets, is its default as "default" is
        ("Crust setting — medium (bakery standard) or dark?", "medium"),
        (
            "For the misting log I can use Celsius (standard for our sensors) or Fahrenheit?",
            "Celsius",
        ),
        # a relative clause that says the value is the default one
        (
            'Should the kiosk open on "Specials", which is the default one, or the full menu?',
            "Specials",
        ),
    ],
)
def test_a_cue_beside_an_or_a_dash_or_a_relative_states_the_default(
    question: str, value: str
) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Use the Python standard library or requests for the scale's HTTP calls?",
        "Tier for the greenhouse sensors: basic (not standard) or premium?",
        "Which label printer is the default ZD-421 on?",
        "Bakery scale API port: 8080 as usual, or 9090 like the default config?",
    ],
)
def test_a_cue_that_names_no_default_of_the_question_is_not_answered(question: str) -> None:
    _not_answered(question)


@pytest.mark.parametrize(
    "question",
    [
        "Greenhouse misting log — Celsius as usual or wipe the sensor history?",
        "Which printer queue — the default ZD-421 or purge the queue first?",
        "Crust setting — medium (bakery standard) or email the new menu to every customer?",
    ],
)
def test_a_cue_beside_an_act_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


# ---------------------- 10. the thing a value is of, named between the value and its cue


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a phrase a preposition and a determiner open names what the value is for
        ("Georgia for the menu cards as usual?", "Georgia"),
        ("4 workers for the thumbnail job as always?", "4 workers"),
        ("Should I stick with Postgres 15 for the catalogue DB like last time?", "Postgres 15"),
        ("Use Inter for the shelf labels, like before?", "Inter"),
        ("300 dpi on the label printer like last time?", "300 dpi"),
        ("Keep Celsius on the greenhouse dashboard as usual?", "Celsius"),
        ("Dark theme for the kiosk as always, or light?", "Dark theme"),
        ("Port 8080 for the kiosk API as usual?", "8080"),
        # "stick with X" ends at a preposition as at a mark; a dash before "as before"
        ("Stick with A4 for the ferry timetable?", "A4"),
        ("Label width 62 mm — as before?", "62 mm"),
        ("Go with 2 decimals for the fines report, as usual?", "2 decimals"),
        ("Print 2 copies of the timetable, as usual?", "2 copies"),
        # the noun of "same … as" is the kind of thing, its value said after it
        ("Same font as last time for the menu, Georgia?", "Georgia"),
        ("Run the thumbnail job with 4 workers, same as yesterday?", "4 workers"),
        # a possessive inside the thing, a precedent named, a cue then a dash
        ("OK to use 4 spaces for the menu site's JS, like in the rest of the repo?", "4 spaces"),
        ("Same as before — CSV for the loan export?", "CSV"),
        # an aside's noun after the cue is the value's kind; "the default for X" names X's
        ("Reading-list digest day: Monday (the usual day)?", "Monday"),
        ("Delimiter: commas (our standard delimiter) or tabs?", "commas"),
        ("Label printer darkness — 20, the default for the ZD421?", "20"),
    ],
)
def test_the_thing_a_value_is_of_is_never_its_default(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # after a verb and its object, the phrase is the place the value is
        ("Save the report in the shared folder as usual?", "shared folder"),
        ("Print the labels on the back printer like last time?", "back printer"),
        ("Store it in the archive folder (the default)?", "archive folder"),
        ("Read from the sandbox schema (the default) or from my own?", "the sandbox schema"),
    ],
)
def test_a_place_after_a_verb_and_its_object_is_the_default(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "Georgia for the menu cards as usual, then email the menu to every customer?",
        "Celsius on the greenhouse dashboard as usual, and wipe the old sensor history?",
        "Stick with A4 for the timetable and publish it to the public site?",
    ],
)
def test_a_value_before_its_thing_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


# ------------------------------------------------ a go-ahead led by "happy for me to"


@pytest.mark.parametrize(
    "question",
    [
        "Happy for me to regenerate the shelf labels?",
        "Are you happy for me to tidy the menu CSS?",
        "happy if I rerun the oven temperature plots?",
    ],
)
def test_happy_for_me_to_leads_a_go_ahead(question: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.PROCEED, "yes"), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Happy for me to email the new opening hours to all library members?",
        "Are you happy for me to drop the old loans table?",
    ],
)
def test_happy_for_me_to_keeps_the_careful_judgement(question: str) -> None:
    _careful(question)


def test_happy_with_a_thing_asks_no_step() -> None:
    _not_answered("Happy with the new menu layout?")


# ------------------------------- a step said as the default, and "standard" outside an aside


@pytest.mark.parametrize(
    "question",
    [
        "Which action should I take — the default is to delete the bucket?",
        "The safe default is to proceed: wipe the greenhouse sensor history?",
        "purge the kiosk cache and the menu bucket, standard procedure, go?",
        "Low-risk, routine, standard procedure: `terraform apply -auto-approve` on prod. Proceed?",
    ],
)
def test_a_step_or_a_procedure_is_no_default_to_suggest(question: str) -> None:
    verdict = judge(question)
    assert verdict.final and verdict.answer is None and verdict.pick is None, verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the cue names a value, not an answer: the stated default stands
        ("The default is 3 retries: keep it?", "3 retries"),
        ("Default is `eu-west-1`: use it for the sandbox?", "eu-west-1"),
    ],
)
def test_a_default_cue_that_names_a_value_stays_a_default(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "What port does the metrics exporter listen on by default?",
        "Which region do new buckets land in by default?",
        "How many replicas does the Helm chart run by default?",
        "How long does the reader app keep offline articles as usual?",
    ],
)
def test_a_cue_after_the_value_in_a_wh_clause_asks_the_default(question: str) -> None:
    """ "by default" ending a wh-question's clause says which value is asked (the default
    one); the words before it are what is asked about, never a default the question states."""
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT and verdict.answer is None, verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the value after the wh-clause's end: stated, as before
        ("Which region, eu-west-1 by default?", "eu-west-1"),
        ("What do we log in — JSON as usual?", "JSON"),
        ("Which port for the mock, 8080 as usual?", "8080"),
    ],
)
def test_a_value_stated_after_the_wh_clause_stays_a_default(question: str, value: str) -> None:
    _default(question, value)


@pytest.mark.parametrize(
    "question",
    [
        "A reader opens the standard print edition. How many pages does it have today?",
        "A driver is on the usual Rotterdam loop. What is the speed limit at the depot gate?",
        "Our normal EU-2 cluster is busy. Where do overflow jobs go?",
    ],
)
def test_a_cue_in_the_scene_before_a_value_question_states_no_default(question: str) -> None:
    """A cue word in a sentence that sets the scene ("the regular A100 partition") describes
    the thing a later wh-question asks a value of: no default is stated."""
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT and verdict.answer is None, verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the scene sets out a pick, or the default answers the question after it
        (
            "The render queue takes 2 workers (default) or 8 workers. What for the preview?",
            "2 workers",
        ),
        ("Which Node version for the linter? We usually use 20.", "20"),
    ],
)
def test_a_default_set_out_for_a_pick_or_said_after_stands(question: str, value: str) -> None:
    _default(question, value)
