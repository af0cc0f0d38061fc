"""The gate's fourth round of rules by category, each on sentences of its own (not the eval
sets'), with the careful near-misses of the same shape that must stay with the human."""

from __future__ import annotations

import pytest

from crewline.policy import VerdictKind, judge
from tests.unit.gate_kit import answers as _answers
from tests.unit.gate_kit import facts as _facts
from tests.unit.gate_kit import no_answer as _no_answer

# ---------------------------------------------------------------- who, and which team

PEOPLE = _facts(
    ("triager", "Passed the billing timeout bug to Marek Szabo; his squad core-payments owns it."),
    ("owners-bot", "CODEOWNERS maps the infra folder to team-platform, approver is Ngozi Adebayo."),
    ("blame-bot", "git blame pins the cache eviction code on Ines Okonkwo, commit 9f1e2d3."),
    ("monitor", "Billing alerts run on Google Cloud Monitoring now."),
    ("reviews", "The search patch was reviewed by Ana Souza and by Li Wei."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Who got the billing timeout bug?", "Marek Szabo"),
        ("who was the billing timeout bug passed to?", "Marek Szabo"),
        ("Which squad owns the billing timeout bug?", "core-payments"),
        ("Which team is the infra folder mapped to in CODEOWNERS?", "team-platform"),
        ("Who's the approver for the infra folder?", "Ngozi Adebayo"),
        ("who wrote the cache eviction code, per blame?", "Ines Okonkwo"),
    ],
)
def test_who_asks_a_persons_name_and_which_team_a_teams(question: str, value: str) -> None:
    _answers(question, PEOPLE, value)


@pytest.mark.parametrize(
    "question",
    [
        "Who owns the search indexer?",  # no row about it
        "Who runs the billing alerts?",  # "Google Cloud Monitoring" is no person
        "Who reviewed the search patch?",  # two people: which is asked?
        "Who should take the billing timeout bug?",  # a decision, not a fact
        "Who can approve changes to the infra folder?",
    ],
)
def test_who_stays_with_the_human_without_one_persons_name(question: str) -> None:
    _no_answer(question, PEOPLE)


def test_two_rows_naming_different_people_disagree() -> None:
    rows = _facts(
        ("triager", "Passed the login loop bug to Marek Szabo."),
        ("lead-bot", "Correction from the board: the login loop bug went to Sanna Lindqvist."),
    )
    _no_answer("Who has the login loop bug?", rows)


# ---------------------------------------------------------------- a port by its place

PLACES = _facts(
    ("netscan", "Only the grafana proxy is listening, on 3000; the rest is closed."),
    ("infra-notes", "The qa admin console sits on 9443 behind the VPN."),
    ("mail-notes", "Mailhog lives at 8025 on the dev box."),
    ("k8s", "The reporting worker runs on 3 nodes in qa."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What port is the grafana proxy listening on?", "3000"),
        ("which port did netscan see grafana proxy on?", "3000"),
        ("Which port is the qa admin console on?", "9443"),
        ("qa admin console port?", "9443"),
        ("what port is mailhog at on the dev box?", "8025"),
    ],
)
def test_a_port_is_the_number_a_row_places_the_thing_at(question: str, value: str) -> None:
    _answers(question, PLACES, value)


@pytest.mark.parametrize(
    "question",
    [
        "Which port is the reporting worker on?",  # "runs on 3 nodes" counts nodes
        "What port is the billing api on?",  # no row places it
    ],
)
def test_a_number_that_counts_something_is_no_port(question: str) -> None:
    _no_answer(question, PLACES)


# ---------------------------------------------------------------- "the US": a country

REGIONS = _facts(
    ("release-planner", "Ops agreed to do the US region cutover on 2027-01-12."),
    ("release-planner", "The EU region cutover is fixed for 2027-02-02."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What date did ops agree on for the US region cutover?", "2027-01-12"),
        ("Which day did ops settle on for the US region cutover?", "2027-01-12"),
        ("when is the US region cutover, per release-planner?", "2027-01-12"),
    ],
)
def test_the_us_after_a_determiner_is_a_country_not_the_asker(question: str, value: str) -> None:
    _answers(question, REGIONS, value)


@pytest.mark.parametrize(
    "question",
    [
        "What date did ops agree on for the APAC region cutover?",  # no row about it
        "What date is the region cutover on?",  # US or EU?
    ],
)
def test_a_region_the_rows_do_not_name_gets_no_date(question: str) -> None:
    _no_answer(question, REGIONS)


@pytest.mark.parametrize(
    "question",
    [
        "Which date should we pick for the US region cutover?",  # the asker's act
        "What date did you give us for the cutover?",  # "us" the asker
        "When do I deploy the US cluster?",
    ],
)
def test_the_askers_own_act_stays_careful(question: str) -> None:
    assert judge(question, facts=REGIONS).kind is VerdictKind.IRREVERSIBLE


# ---------------------------------------------------------------- told to the asker

PAGES = _facts(
    ("pager", "The public incident page for the outage is up at https://status.acme.test/i/77."),
)


@pytest.mark.parametrize(
    "question",
    [
        "Could you give me the link to the public incident page?",
        "can you send me the url of the public incident page for the outage?",
        "give us the address of the public incident page, please?",
    ],
)
def test_a_value_given_to_the_asker_is_told_not_granted(question: str) -> None:
    _answers(question, PAGES, "https://status.acme.test/i/77")


@pytest.mark.parametrize(
    "question",
    [
        "Could you give me access to the public incident page?",  # a right, not a value
        "give me the key to the public bucket?",
        "Send the customers the link to the incident page?",  # the audience is told
        "Share the link to the public incident page with our users?",
        "send me the link to the prod db with the password?",
    ],
)
def test_a_right_or_an_audience_stays_careful(question: str) -> None:
    assert judge(question, facts=PAGES).kind is VerdictKind.IRREVERSIBLE


# ---------------------------------------------------------------- "which one", per a source

TABLES = _facts(
    ("schema-bot", "The invoices view reads from the table ledger_invoices_v3."),
)


@pytest.mark.parametrize(
    "question",
    [
        "The invoices view reads some underlying table — which one, per schema-bot?",
        "there is a table under the invoices view - which one, according to schema-bot?",
    ],
)
def test_which_one_of_what_a_source_said_is_a_look_up(question: str) -> None:
    _answers(question, TABLES, "ledger_invoices_v3")


@pytest.mark.parametrize(
    "question",
    [
        "Two tables back the invoices view — which one should I query?",
        "Which one, according to you?",
        "which one per the runbook do we restart?",
        "There are two configs — which one is better, per the docs?",
        "Pick one: which one?",
    ],
)
def test_which_one_put_to_the_human_stays_a_choice(question: str) -> None:
    verdict = judge(question, facts=TABLES)
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.answer is None, verdict


def test_which_one_a_source_never_said_gets_no_answer() -> None:
    _no_answer("The orders view wraps some table — which one, according to the schema bot?", TABLES)


# ---------------------------------------------------------------- a value ending a sentence


@pytest.mark.parametrize(
    ("row", "question", "value"),
    [
        ("Bumped the sdk; we now pin httpx v0.27.2.", "Which httpx version do we pin?", "v0.27.2"),
        ("The cli got its fresh tag, v3.0.0.", "what tag did the cli get?", "v3.0.0"),
    ],
)
def test_a_version_that_ends_its_sentence_is_a_version(row: str, question: str, value: str) -> None:
    _answers(question, _facts(("deps-bot", row)), value)


def test_a_file_named_like_a_version_is_no_version() -> None:
    _no_answer("Which notes version is it?", _facts(("docs-bot", "Wrote the notes to v3.1.4.txt.")))


# ---------------------------------------------------------------- recency and generic words

RECENT = _facts(
    ("release-bot", "Latest tag in the repo at this point: v9.4.1."),
    ("db-watch", "The reporting database reports Postgres 16.2."),
    ("py-env", "Local box is on Python 3.13."),
)


@pytest.mark.parametrize(
    "question",
    [
        "What's the most recent tag in the repo?",
        "newest tag on the repo?",
        "which tag is the most recent one in the repo?",
    ],
)
def test_recency_words_say_no_more_than_latest(question: str) -> None:
    _answers(question, RECENT, "v9.4.1")


@pytest.mark.parametrize(
    "question",
    [
        "What version is running?",  # of what? every version disputes
        "What's the newest release?",
        "What's the most recent version on the server?",  # no row says the server
    ],
)
def test_a_request_about_nothing_named_gets_no_version(question: str) -> None:
    _no_answer(question, RECENT)


# ---------------------------------------------------------------- a terse request's head

TERSE = _facts(
    ("doc-bot", "The billing service's runbook is https://wiki.acme.test/runbooks/billing."),
    ("pins", "The lockfile pins grpcio at 1.62.1."),
    ("scan", "On build-04 the cache proxy listens on 3128; 8080 is closed."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("link to the billing service runbook?", "https://wiki.acme.test/runbooks/billing"),
        ("grpcio version in the lockfile?", "1.62.1"),
        ("cache proxy port on build-04?", "3128"),
        ("version of grpcio in the lockfile?", "1.62.1"),
        ("port of the cache proxy on build-04?", "3128"),
    ],
)
def test_a_terse_request_asks_the_noun_before_its_preposition(question: str, value: str) -> None:
    _answers(question, TERSE, value)


@pytest.mark.parametrize(
    "question",
    [
        "cache proxy port on build-05?",  # another host
        "grpcio version in the poetry lock?",  # another file
        "link to the search service runbook?",
    ],
)
def test_a_terse_request_of_another_thing_gets_no_answer(question: str) -> None:
    _no_answer(question, TERSE)


# ---------------------------------------------------------------- another row's value disputes

RELEASES = [
    ("notes-bot", "The readme says the current release is v2.0.4."),
    ("tags", "Newest release tag upstream is v2.0.6."),
]


@pytest.mark.parametrize(
    "question",
    [
        "What's our latest released version?",
        "which release are we on now?",
        "latest release version?",
    ],
)
def test_a_value_another_row_says_without_the_noun_still_disputes(question: str) -> None:
    _no_answer(question, _facts(*RELEASES))
    _answers(question, _facts(RELEASES[0]), "v2.0.4")  # alone, each row answers


@pytest.mark.parametrize("question", ["which port is the api on?", "which port?", "api port?"])
def test_a_value_by_the_asked_noun_is_never_dropped_for_anothers_kind(question: str) -> None:
    # ":5432" is a port by its form, "4321" one by the word "port": no guess between them
    _no_answer(question, _facts(("probe", "Postgres sits at :5432 and the api on port 4321.")))


# ---------------------------------------------------------------- "count of …?": a noun

COUNTS = _facts(
    ("tracker", "The web repo has 52 open issues tagged regression right now."),
)


@pytest.mark.parametrize(
    "question",
    [
        "count of open regression issues in the web repo?",
        "number of open issues tagged regression in the web repo?",
        "count of the open regression issues?",
    ],
)
def test_count_of_a_noun_asks_the_count_never_a_go_ahead(question: str) -> None:
    _answers(question, COUNTS, "52")


@pytest.mark.parametrize(
    "question",
    [
        "count of open issues in the docs repo?",  # another repo
        "count of closed regression issues in the web repo?",
    ],
)
def test_count_of_another_thing_is_neither_answered_nor_a_yes(question: str) -> None:
    _no_answer(question, COUNTS)
    assert judge(question).kind is not VerdictKind.PROCEED


def test_count_as_a_step_is_still_a_step() -> None:
    assert judge("Count the open issues and post the total here?").kind is VerdictKind.PROCEED


# ---------------------------------------------------------------- a hyphenated name, whole

BUCKETS = _facts(
    ("quota-bot", "Bucket media-exports: 4.1 TB in 2.2M objects."),
)


@pytest.mark.parametrize(
    "question",
    [
        "How many objects are in the media-logs bucket?",  # "logs" names it, never asks
        "How much data does the media-report bucket hold?",
        "how many objects sit in the media-finds bucket?",
    ],
)
def test_a_word_inside_a_hyphenated_name_names_the_thing(question: str) -> None:
    _no_answer(question, BUCKETS)


def test_the_bucket_the_row_names_whole_is_answered() -> None:
    _answers("How many objects are in the media-exports bucket?", BUCKETS, "2.2M")


def test_a_hyphenated_phrase_with_a_word_of_grammar_is_no_name() -> None:
    rows = _facts(("ci-stats", "Last run: 41 e2e tests passed, 2 failed."))
    _answers("How many end-to-end tests passed in the last run?", rows, "41")


# ---------------------------------------------------------------- "3 hours ago" is a moment

UPTIME = ("uptime-x", "build-07 uptime: 12 days.")
RESTART = ("ops-log", "build-07 was restarted 3 hours ago after a kernel patch.")


@pytest.mark.parametrize(
    "question", ["How long has build-07 been up?", "how long has build-07 been running for?"]
)
def test_a_moment_ago_is_no_duration_but_disputes_one(question: str) -> None:
    _answers(question, _facts(UPTIME), "12 days")
    _no_answer(question, _facts(UPTIME, RESTART))  # up 12 days, or 3 hours?
    _no_answer(question, _facts(RESTART))  # "3 hours ago" says when, not how long


# ---------------------------------------------------------------- the same thing, other words

LIMITS = [
    ("conf-a", "The proxy config caps request bodies at 10 MB for the billing api."),
    ("conf-b", "The billing api's max request body size is 20 MB (app settings)."),
]


@pytest.mark.parametrize(
    "question",
    [
        "What's the max request body size on the billing api?",
        "max request body size for the billing api?",
    ],
)
def test_a_value_said_of_the_same_thing_in_other_words_disputes(question: str) -> None:
    _no_answer(question, _facts(*LIMITS))
    _answers(question, _facts(LIMITS[1]), "20 MB")


def test_a_value_of_another_thing_in_the_row_does_not_dispute() -> None:
    rows = _facts(LIMITS[1], ("conf-c", "The search api caps request bodies at 5 MB."))
    _answers("What's the max request body size on the billing api?", rows, "20 MB")


# ---------------------------------------------------------------- a label that only says whose

HELD = _facts(("deps-x", "Held urllib3 at 1.26.18 in the lockfile because 2.2.1 breaks our proxy."))


@pytest.mark.parametrize(
    "question",
    [
        "which urllib3 release is the one that breaks our proxy?",
        "What urllib3 version breaks the proxy?",
    ],
)
def test_a_label_that_only_says_whose_picks_no_value(question: str) -> None:
    verdict = judge(question, facts=HELD)
    assert verdict.answer != "1.26.18" and verdict.answer is None, verdict


def test_the_value_its_own_words_pick_is_still_answered() -> None:
    _answers("which urllib3 version is in the lockfile?", HELD, "1.26.18")


# ---------------------------------------------------------------- a span's ends, a named month

SPANS = _facts(
    ("cal-bot", "The release freeze runs from 2027-03-02 to 2027-03-16."),
    ("planner-x", "The docs embargo lifts on April 9."),
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("When does the release freeze kick in?", "2027-03-02"),
        ("when does the release freeze begin?", "2027-03-02"),
        ("When does the release freeze end?", "2027-03-16"),
        ("When does the docs embargo end?", "April 9"),
        ("what date does the docs embargo lift?", "April 9"),
    ],
)
def test_a_span_gives_its_start_and_its_end_by_the_asked_boundary(
    question: str, value: str
) -> None:
    _answers(question, SPANS, value)


@pytest.mark.parametrize(
    "question",
    [
        "When is the release freeze?",  # the start or the end?
        "When does the docs embargo start?",  # only its end is said
    ],
)
def test_a_span_asked_without_its_boundary_gets_no_date(question: str) -> None:
    _no_answer(question, SPANS)


def test_a_change_from_one_size_to_another_is_still_a_change() -> None:
    rows = _facts(("img", "The api image went from 530 MB to 412 MB."))
    _answers("How big is the api image now?", rows, "412 MB")


# ---------------------------------------------------------------- "how much of X": a share

BUDGET = _facts(("slo-bot", "We've spent 63% of the quarter's latency budget."))


@pytest.mark.parametrize(
    "question",
    [
        "How much of the quarter's latency budget have we spent?",
        "how much of the latency budget did we use this quarter?",
        "How much of this quarter's latency budget have we used?",
    ],
)
def test_how_much_of_a_thing_asks_a_share(question: str) -> None:
    _answers(question, BUDGET, "63%")


@pytest.mark.parametrize(
    "question",
    [
        "How much of the latency budget is left?",  # what is left is not what was spent
        "How much of the quarter's latency budget remains?",
        "How much of the quarter's error budget have we spent?",
        "How much have we spent on latency budget so far?",  # an amount, not a share
    ],
)
def test_how_much_of_what_the_row_does_not_say_gets_no_share(question: str) -> None:
    _no_answer(question, BUDGET)
