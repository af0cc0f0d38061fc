"""The gate's fifth round, by structure: a fleet answer only from one row about the asked
thing and one value of it there; each rule on sentences of its own, with the near-misses
of the same shape that must still be answered."""

from __future__ import annotations

import pytest

from crewline.policy import Fact, Placement, VerdictKind, check_placement, judge
from tests.unit.gate_kit import answers as _answers
from tests.unit.gate_kit import careful as _careful
from tests.unit.gate_kit import facts as _facts
from tests.unit.gate_kit import no_answer as _no_answer

# ------------------------------------------- a qualifier the question states, in the row

PLAIN = _facts(
    ("backup-bot", "The backup job takes 14 min."),
    ("portscan", "The api listens on port 4321."),
    ("exporter", "The export pipeline took 22 min."),
)


@pytest.mark.parametrize(
    "question",
    [
        "How long does the nightly backup take?",
        "What port does the live api listen on?",
        "How long did the weekly export take?",
        "which port is the api on in staging?",
    ],
)
def test_an_environment_or_cadence_the_row_does_not_state_gets_no_answer(question: str) -> None:
    _no_answer(question, PLAIN)


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (
            "How long does the nightly backup take?",
            _facts(("backup-bot", "The nightly backup job takes 14 min.")),
            "14 min",
        ),
        (
            "What port does the staging api listen on?",
            _facts(("portscan", "On staging the api listens on port 4321.")),
            "4321",
        ),
        (
            # a qualifier in the asker's own context is not one of the asked thing
            "Which branch has the upload retry fix? I'll base my local work on it.",
            _facts(("branch-scout", "The upload retry fix is on branch fix/upload-retry.")),
            "fix/upload-retry",
        ),
    ],
)
def test_the_same_qualifier_in_the_row_still_answers(
    question: str, rows: list[Fact], value: str
) -> None:
    _answers(question, rows, value)


# ------------------------------------- one value of the asked kind, told by the question

TWO = _facts(("deploy-timer", "the eu worker deploy time is 9 min; the api deploy takes 4 min"))


@pytest.mark.parametrize(
    "question",
    [
        # the "eu" the question says is said only of the other value
        "What is the eu api deploy time?",
        "how long does the api deploy take in the eu?",
    ],
)
def test_a_value_whose_clause_lacks_a_word_another_clause_says_is_no_answer(
    question: str,
) -> None:
    _no_answer(question, TWO)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How long does the api deploy take?", "4 min"),
        ("What is the eu worker deploy time?", "9 min"),
    ],
)
def test_the_one_value_whose_clause_states_every_word_is_answered(
    question: str, value: str
) -> None:
    _answers(question, TWO, value)


def test_a_word_only_the_rows_other_clauses_say_tells_no_value_apart() -> None:
    rows = _facts(("bench", "The api answered in 120 ms and the worker in 300 ms, on staging."))
    _answers("What was the staging api latency?", rows, "120 ms")


def test_the_card_says_the_qualifier_the_row_does_not_state() -> None:
    verdict = judge("How long does the nightly backup take?", facts=PLAIN)
    assert "backup-bot" in verdict.why and "not of the nightly one" in verdict.why, verdict


# ------------------------------------ a modifier of the asked thing the row does not say


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        ("What port does the main api listen on?", PLAIN),
        ("How big is the old orders table?", _facts(("db", "The orders table is 40 GB."))),
        ("What's the final bundle size?", _facts(("build", "The bundle is 2.1 MB."))),
        (
            "What's the default timeout of the client?",
            _facts(("lib", "The client timeout is 30 s.")),
        ),
    ],
)
def test_a_modifier_the_row_does_not_say_gets_no_answer(question: str, rows: list[Fact]) -> None:
    _no_answer(question, rows)


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (
            "How big is the old orders table?",
            _facts(("db", "The old orders table is 40 GB.")),
            "40 GB",
        ),
        # "live" as a place is no environment
        (
            "Where does the deploy config live?",
            _facts(("gh-scout", "The deploy config is at deploy/config.toml.")),
            "deploy/config.toml",
        ),
        (
            "Where do the nightly reports live?",
            _facts(("gh-scout", "The nightly reports are written to out/reports/.")),
            "out/reports/",
        ),
    ],
)
def test_the_modifier_said_in_the_row_still_answers(
    question: str, rows: list[Fact], value: str
) -> None:
    _answers(question, rows, value)


# ------------------------------------------------- a stated default is a value it states


@pytest.mark.parametrize(
    "question",
    [
        "Which commit is the default branch at?",
        "What region is the default bucket in?",
        "Which node is the default gateway on?",
        "which version is the default in the base image?",
    ],
)
def test_what_a_question_asks_is_never_its_stated_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is not VerdictKind.OBVIOUS_DEFAULT and verdict.answer is None, verdict


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which port, 8080 as usual?", "8080"),
        ("What port? The default is 8080.", "8080"),
        ("Which region, eu-west-1 as always?", "eu-west-1"),
        ("Which shell? bash is the default.", "bash"),
    ],
)
def test_a_value_the_question_states_as_default_is_still_its_answer(
    question: str, value: str
) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Keep 8080 as usual, or switch to 9090 like the default config?",
        "Port 8080 as usual? The default config says 9090 though.",
    ],
)
def test_two_values_each_stated_as_the_default_are_no_default(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict


def test_the_same_value_stated_twice_is_still_the_default() -> None:
    verdict = judge("Port 8080 as usual? The default config says 8080 too.")
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, "8080"), verdict


# ---------------------------------- a risky word that only names what is read or tested


@pytest.mark.parametrize(
    "question",
    [
        "Open the production deploy runbook and summarise it for me?",
        "Can I open the prod on-call runbook and read the escalation steps?",
        "Can I open the Terraform file defining the prod database, just to read its size?",
        "Run the delete-endpoint integration tests against the local mock server?",
        "Run the refund-flow unit tests on my machine?",
        "Run the drop-table regression tests locally?",
    ],
)
def test_a_risky_word_naming_a_document_opened_or_a_test_run_is_routine(question: str) -> None:
    verdict = judge(question)
    assert verdict.kind is VerdictKind.PROCEED, verdict


@pytest.mark.parametrize(
    "question",
    [
        "Open the production firewall port 8443?",
        "Open the prod config file and change the timeout to 30s?",
        "Open the production database to the public?",
        "Open the prod runbook and run step 3?",
        "Open the production runbook and follow it?",
        "Open the production migration file and apply it?",
        "Run the delete-endpoint integration job against the staging db?",
        "Run the drop-table regression job?",
        "Run the delete endpoint on the old users?",
    ],
)
def test_the_act_itself_stays_careful(question: str) -> None:
    _careful(question)


# ------------------------------------------- a value is the whole of what the row wrote


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (
            "Which LOINC code does the lab mapping use for sodium?",
            _facts(("hl7-mapper", "In the lab mapping, sodium is coded as LOINC 2951-2.")),
            "2951-2",
        ),
        (
            "What is the order number of the laptop order?",
            _facts(("procurement", "The laptop order is order number 4410-17.")),
            "4410-17",
        ),
        (
            "What exit code did the import job end with?",
            _facts(("job-watch", "The import job exited with code 137.")),
            "137",
        ),
        (
            "How many nodes does the analytics cluster have?",
            _facts(("node-inventory", "The analytics cluster runs on 12 nodes.")),
            "12 nodes",
        ),
        (
            "How long does the export take?",
            _facts(("exporter", "The export takes 15 minutes.")),
            "15 minutes",
        ),
    ],
)
def test_a_code_of_joined_digits_is_answered_whole(
    question: str, rows: list[Fact], value: str
) -> None:
    _answers(question, rows, value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # never the number before a code's hyphen, nor the end of a range
        ("How many laptops are in the order?", "The laptop order is 4410-17."),
        ("How long does the export take?", "The export takes 10-15 minutes."),
        ("How big is the nightly dump?", "The nightly dump is 40-45 GB."),
        ("How many replicas does the worker run?", "The worker runs 3-5 replicas under load."),
    ],
)
def test_a_number_cut_from_a_code_or_a_range_is_no_answer(question: str, row: str) -> None:
    _no_answer(question, _facts(("reporter", row)))


# ------------------------------------------- a whole and a part of it: which is asked

WHOLE_AND_PART = _facts(
    ("gpu-scout", "The training cluster has 64 GPUs, 40 of them allocated."),
    ("facilities", "The north garage has 310 parking spots, 288 of them occupied this morning."),
    ("booking-sync", "The east wing has 42 rooms, 35 of them reserved for the offsite."),
    ("licence-bot", "We own 120 Figma licences, 97 of them assigned."),
    ("inspector", "Inspection finished: 31 rusted bolts, 4 of them cracked."),
)


@pytest.mark.parametrize(
    "question",
    [
        "How many training cluster GPUs are taken right now?",
        "How many parking spots in the north garage are taken?",
        "How many rooms of the east wing got booked?",
        "how many Figma licences are being used?",
    ],
)
def test_a_word_the_row_does_not_say_never_picks_the_whole_over_its_part(question: str) -> None:
    _no_answer(question, WHOLE_AND_PART)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How many GPUs does the training cluster have in total?", "64"),
        ("How many parking spots does the north garage have?", "310"),
        ("How many Figma licences do we own?", "120"),
        ("How many rusted bolts did the inspection find?", "31"),
        ("How many of the rusted bolts are cracked?", "4"),
    ],
)
def test_the_whole_or_the_part_the_question_names_is_answered(question: str, value: str) -> None:
    _answers(question, WHOLE_AND_PART, value)


# ------------------------------------------- a dispute said in other words still disputes


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        (
            "Who owns the billing database?",
            _facts(
                ("cmdb-reader", "The DBA who owns the billing database is Marta Silva."),
                ("planner", "Owner of the billing DB is Daniel Cho, per the project charter."),
            ),
        ),
        (
            "Who maintains the payments repository?",
            _facts(
                ("codeowners-bot", "The payments repository is maintained by Ana Lopes."),
                ("wiki-reader", "Maintainer of the payments repo is Bo Chen, per the team page."),
            ),
        ),
        (
            "Which version of the mobile app runs in production?",
            _facts(
                ("release-bot", "The mobile app version running in production is v3.2.0."),
                ("smoke", "Prod mobile app release: v3.3.1."),
            ),
        ),
        (
            "Which port does the metrics database listen on?",
            _facts(
                ("portscan", "The metrics database listens on port 5433."),
                ("cfg-reader", "metrics DB port is 5434 in the compose file."),
            ),
        ),
    ],
)
def test_a_row_saying_the_question_in_other_words_disputes(question: str, rows: list[Fact]) -> None:
    verdict = judge(question, facts=rows)
    assert verdict.answer is None and "the fleet disagrees" in (verdict.why or ""), verdict


@pytest.mark.parametrize(
    ("question", "rows", "value"),
    [
        (
            # said only in other words, it answers
            "Who owns the billing database?",
            _facts(("planner", "Owner of the billing DB is Daniel Cho.")),
            "Daniel Cho",
        ),
        (
            # another database's owner disputes nothing
            "Who owns the billing database?",
            _facts(
                ("cmdb-reader", "The DBA who owns the billing database is Marta Silva."),
                ("planner", "Owner of the reporting DB is Daniel Cho."),
            ),
            "Marta Silva",
        ),
        (
            # two rows naming the same person agree
            "Who maintains the payments repository?",
            _facts(
                ("codeowners-bot", "The payments repository is maintained by Ana Lopes."),
                ("wiki-reader", "Maintainer of the payments repo is Ana Lopes."),
            ),
            "Ana Lopes",
        ),
        (
            "Which port does the metrics database listen on?",
            _facts(
                ("portscan", "The metrics database listens on port 5433."),
                ("cfg-reader", "the logs DB port is 5434 in the compose file."),
            ),
            "5433",
        ),
    ],
)
def test_a_row_of_another_thing_or_the_same_value_still_answers(
    question: str, rows: list[Fact], value: str
) -> None:
    _answers(question, rows, value)


# ------------------------------------------- a value said of another named place


OTHER_PLACE = _facts(
    (
        "vpn-probe",
        "Site-to-site VPN to the Harlowe clinic comes up on 10.9.4.1; the Dunmere tunnel is "
        "still down.",
    ),
    (
        "scan-probe",
        "The scanner at the Oakhurst depot answers on port 9100; the Brightholm one is offline.",
    ),
    (
        "tenant-map",
        "The Norrland tenant is served from app-7.acme.internal, Zephyrine not migrated yet.",
    ),
)


@pytest.mark.parametrize(
    "question",
    [
        "Which IP does the Dunmere clinic tunnel use?",
        "Which port does the Brightholm depot scanner use?",
        "Which host serves the Zephyrine tenant?",
    ],
)
def test_a_value_said_of_another_named_place_is_no_answer(question: str) -> None:
    _no_answer(question, OTHER_PLACE)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which IP does the Harlowe clinic tunnel come up on?", "10.9.4.1"),
        ("Which port does the Oakhurst depot scanner use?", "9100"),
        ("Which host serves the Norrland tenant?", "app-7.acme.internal"),
    ],
)
def test_the_value_of_the_named_place_is_answered(question: str, value: str) -> None:
    _answers(question, OTHER_PLACE, value)


def test_a_state_after_the_asked_thing_is_no_other_name() -> None:
    rows = _facts(("packer", "Release tarball built: 212 MB uncompressed, 61 MB once gzipped."))
    _answers("How big is the release tarball gzipped?", rows, "61 MB")


@pytest.mark.parametrize(
    ("question", "answer", "row"),
    [
        ("Which IP does the Dunmere clinic tunnel use?", "10.9.4.1", "row-0"),
        ("Which port does the Brightholm depot scanner use?", "9100", "row-1"),
    ],
)
def test_a_model_citing_another_named_places_value_stays_with_the_human(
    question: str, answer: str, row: str
) -> None:
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=row), facts=OTHER_PLACE
    )
    assert verdict.answer is None, verdict


def test_a_model_citing_the_whole_for_a_part_stays_with_the_human() -> None:
    question = "How many parking spots in the north garage are taken?"
    rows = [f for f in WHOLE_AND_PART if f.member == "facilities"]
    whole = check_placement(
        question, Placement(kind="fleet", answer="310", row=rows[0].row_id), facts=rows
    )
    assert whole.answer is None, whole
    asked_whole = check_placement(
        "How many parking spots does the north garage have?",
        Placement(kind="fleet", answer="310", row=rows[0].row_id),
        facts=rows,
    )
    assert asked_whole.answer == "310", asked_whole


# ------------------------------------------- a value joined to the first shares its subject


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "npm version in the web image?",
            "The web image pins Node 20.11.1 and npm 10.2.4.",
            "10.2.4",
        ),
        (
            "cmake version on the build host?",
            "The build host runs GCC 13.2.0 and CMake 3.28.1.",
            "3.28.1",
        ),
        (
            "Which Node version does the web image pin?",
            "The web image pins Node 20.11.1 and npm 10.2.4.",
            "20.11.1",
        ),
    ],
)
def test_a_value_joined_by_its_label_alone_shares_the_rows_subject(
    question: str, row: str, value: str
) -> None:
    _answers(question, _facts(("pinner", row)), value)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the joined value names a subject of its own
        (
            "npm version in the web image?",
            "The web image pins Node 20.11.1 and the api image npm 10.2.4.",
        ),
        # the subject the question names is not the row's
        ("npm version in the api image?", "The web image pins Node 20.11.1 and npm 10.2.4."),
        ("numpy version in the web image?", "The web image pins Node 20.11.1 and npm 10.2.4."),
    ],
)
def test_a_joined_value_of_another_subject_is_no_answer(question: str, row: str) -> None:
    _no_answer(question, _facts(("pinner", row)))


# ------------------------------------------- a value inside a URL or ending its sentence


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "On which port is the Grafana console served?",
            "The Grafana console is served at https://grafana.corp.internal:3443/login",
            "3443",
        ),
        ("What is the IP of the lab gateway?", "The lab gateway sits at 10.1.2.3.", "10.1.2.3"),
        # the row's own port, not a URL's of another thing
        (
            "Which port does the api listen on?",
            "The api listens on port 4321; its docs are at https://docs.corp.internal:8443",
            "4321",
        ),
        (
            "Which host serves the Grafana console?",
            "The Grafana console is served from grafana.corp.internal:3443.",
            "grafana.corp.internal",
        ),
    ],
)
def test_a_port_in_a_url_or_an_address_ending_its_sentence_is_read(
    question: str, row: str, value: str
) -> None:
    _answers(question, _facts(("endpoint-mapper", row)), value)


def test_a_url_without_a_port_gives_no_port() -> None:
    row = "The Grafana console is served at https://grafana.corp.internal/login"
    _no_answer("Which port is the Grafana console on?", _facts(("endpoint-mapper", row)))


# ------------------------------------------- a default's cue is never its value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Line endings for the generated files — LF as usual (default)?", "LF"),
        ("Encoding for the export, UTF-8 like before (the default)?", "UTF-8"),
        ("Indent width for the new module: 4 as always (default)?", "4"),
    ],
)
def test_a_value_with_two_cues_of_one_default_is_that_default(question: str, value: str) -> None:
    verdict = judge(question)
    assert (verdict.kind, verdict.answer) == (VerdictKind.OBVIOUS_DEFAULT, value), verdict


@pytest.mark.parametrize(
    "question",
    [
        "Port for the local dev server: 8080 as usual (default), or 9090 like the default config?",
        "Which default should the export use, CSV or JSON?",
    ],
)
def test_two_defaults_or_a_choice_of_the_default_stay_with_the_human(question: str) -> None:
    verdict = judge(question)
    assert verdict.answer is None and not verdict.kind.routine, verdict
