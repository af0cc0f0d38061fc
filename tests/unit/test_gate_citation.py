"""A right model's cited answer is refused only for what makes it unsafe.

Each rule of ``check_cited`` a model's fleet answer meets, with answers in words a gate's
own reading missed (each refused before its rule) and the near misses that must stay with
the human: another environment, place, period, or the wrong row a confused model cites.
"""

from __future__ import annotations

import pytest

from crewline.policy import Fact, Placement, check_placement
from crewline.policy.fleet import Refusal
from tests.unit.gate_kit import answers, by_model, facts, no_answer


def _one(row: str) -> list[Fact]:
    return facts(("scout", row))


# ----------------------------------------- a status is read where its word stands


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # "plan" names a thing the value's verb acts on, after a determiner
            "How long did the route solver take?",
            "The route solver took 38.6 s to solve the Monday route plan.",
            "38.6 s",
        ),
        (  # "Vault" names what the service is backed by; a host is never a secret
            "Which host is the config service up on?",
            "Config service for vault is up at cfg-01.internal.",
            "cfg-01.internal",
        ),
        (  # a hedge of another sentence is not this value's
            "How long did the route solver take?",
            "The route solver took 38.6 s. Tomorrow's run will probably be slower.",
            "38.6 s",
        ),
    ],
)
def test_a_word_that_is_no_status_of_the_value_leaves_it_a_fact(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a hedge of the value's own sentence
            "How long will the route solver take?",
            "The route solver will probably take 38.6 s.",
            "38.6 s",
        ),
        (  # a plan stated as such
            "What's the checkout timeout?",
            "Checkout timeout: the plan is 90 s.",
            "90 s",
        ),
        (  # a secret stays one: a number beside a secret's word
            "What's the pin for the staging kiosk?",
            "The staging kiosk vault pin is 483920.",
            "483920",
        ),
        (  # a count of a target, not of what was done
            "How many stops did the route solver solve?",
            "Route solver target: 1,300 stops, waiting on the depot data.",
            "1,300",
        ),
    ],
)
def test_a_status_of_the_value_still_refuses(question: str, row: str, answer: str) -> None:
    assert by_model(question, _one(row), answer) is None


# ----------------------------------------- the asked kind: a folder is a path in any form


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # a URL's path for "folder"
            "Which folder do the nightly exports land in?",
            "Nightly exports land in /data/exports/nightly.",
            "/data/exports/nightly",
        ),
        (  # a bucket URL with a path for "directory"
            "Which directory does the archiver write to?",
            "Archiver writes to s3://acme-archive/daily/.",
            "s3://acme-archive/daily/",
        ),
        (  # the head of the wh-phrase is the asked noun, not the one after "per"
            "What's the max size per upload photo?",
            "Photo uploads: max size per photo 12 MB.",
            "12 MB",
        ),
    ],
)
def test_a_folder_is_answered_by_a_path_in_any_form(question: str, row: str, value: str) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a site is no folder
            "Which folder do the nightly exports land in?",
            "Nightly exports are browsable at https://exports.example.com.",
            "https://exports.example.com",
        ),
        (  # another environment's folder
            "Which folder do the staging exports land in?",
            "Prod exports land in /data/exports/prod.",
            "/data/exports/prod",
        ),
        (  # the wrong row of two: the confused model's pick
            "Which folder do the nightly exports land in?",
            "Weekly exports land in /data/exports/weekly.",
            "/data/exports/weekly",
        ),
    ],
)
def test_a_folder_of_another_thing_still_refuses(question: str, row: str, answer: str) -> None:
    assert by_model(question, _one(row), answer) is None


# ----------------------------------------- a bare value is said by its noun, or by its form


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # the head of the asked noun phrase names the number
            "What's the iOS build number we shipped?",
            "Shipped iOS build 4182 to TestFlight.",
            "4182",
        ),
        (  # a listener is what a port is of
            "What's the TLS port on the mqtt broker?",
            "The mqtt broker has its TLS listener on 8883.",
            "8883",
        ),
        (  # the head of "flag key"
            "What's the flag key for the new checkout?",
            "New checkout is behind flag `checkout.flow_v2`.",
            "checkout.flow_v2",
        ),
        (  # the counted noun after the number
            "How many stops did the route solver handle overnight?",
            "Route solver overnight: 1,204 stops solved.",
            "1,204 stops",
        ),
        (  # the counted things' state after the number
            "How many messages are in the payments DLQ?",
            "312 messages waiting in the payments DLQ.",
            "312 messages",
        ),
        (  # an instance type by its form
            "What instance type does the ingest worker run on?",
            "The ingest worker runs on the c6i.4xlarge box.",
            "c6i.4xlarge",
        ),
    ],
)
def test_a_bare_value_counts_by_the_head_of_its_noun_or_its_form(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a number beside another noun
            "What's the iOS build number we shipped?",
            "Shipped the iOS build to 4182 testers.",
            "4182",
        ),
        (  # another build's number: the confused model's wrong row
            "What's the iOS build number we shipped?",
            "Shipped Android build 4182 to the Play Store.",
            "4182",
        ),
        (  # a count of the pods, not a port
            "What's the TLS port on the mqtt broker?",
            "The mqtt broker runs 3 of 4 pods with a TLS listener.",
            "3",
        ),
        (  # another period
            "How many stops did the route solver handle last week?",
            "Route solver this week: 1,204 stops solved.",
            "1,204",
        ),
        (  # an instance type asked of another worker
            "What instance type does the ingest worker run on?",
            "The export worker runs on the c6i.4xlarge box.",
            "c6i.4xlarge",
        ),
        (  # a ticket's key is no port
            "What's the TLS port on the mqtt broker?",
            "The mqtt broker TLS listener change is OPS-8883.",
            "OPS-8883",
        ),
    ],
)
def test_a_bare_value_beside_another_noun_still_refuses(
    question: str, row: str, answer: str
) -> None:
    assert by_model(question, _one(row), answer) is None


# ----------------------------------------- verbs wherever they stand, derivations and degree


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # a verb after a relative pronoun
            "Which service is the one that checks webhook signatures?",
            "Webhook signatures are checked by the service hook-guard.",
            "hook-guard",
        ),
        (  # a participle after a noun, before a particle
            "How many messages are sitting in the payments DLQ right now?",
            "Payments DLQ depth: 312 messages.",
            "312 messages",
        ),
        (  # a participle after a noun, before "by"
            "Which bucket has the logs shipped by the edge proxies?",
            "Edge proxy logs land in bucket edge-logs-2026.",
            "edge-logs-2026",
        ),
        (  # "successful" of "succeeded": one word's derivations
            "When was the last successful run of the nightly export?",
            "Nightly export last succeeded at 03:12 UTC.",
            "03:12 UTC",
        ),
        (  # "failed" of "failures", the qualifier too
            "How many syncs failed last week?",
            "Sync failures last week: 19.",
            "19",
        ),
        (  # a hedge of how often, and "how far"
            "How far behind is the analytics replica usually?",
            "Analytics replica lag: 42 s.",
            "42 s",
        ),
        (  # a bound the row's one value answers; "replication" of "replica"
            "What is the replication lag at worst for the analytics replica?",
            "Analytics replica lag peaks at 42 s.",
            "42 s",
        ),
        (  # "max" of a row that says one bound
            "What's the max upload size per photo for the driver app?",
            "Driver app photo uploads are capped at 12 MB.",
            "12 MB",
        ),
        (  # "incident" of "incident number" for a ticket's key
            "What's the incident number for the login outage?",
            "Login outage tracked as INC-2231.",
            "INC-2231",
        ),
    ],
)
def test_a_verb_a_derivation_or_a_degree_is_the_models_reading(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # another thing in the relative clause
            "Which service is the one that checks payment signatures?",
            "Webhook signatures are checked by the service hook-guard.",
            "hook-guard",
        ),
        (  # a participle before a noun is the thing's modifier
            "How many cached builds are sitting in the build queue?",
            "Build queue holds 57 builds.",
            "57",
        ),
        (  # the other outcome
            "When was the last failed run of the nightly export?",
            "Nightly export last succeeded at 03:12 UTC.",
            "03:12 UTC",
        ),
        (  # another period
            "How many syncs failed this week?",
            "Sync failures last week: 19.",
            "19",
        ),
        (  # another environment
            "How far behind is the staging analytics replica usually?",
            "Prod analytics replica lag: 42 s.",
            "42 s",
        ),
        (  # the row says the other bound too
            "What's the min upload size per photo for the driver app?",
            "Driver app photo uploads: at least 1 KB, at most 12 MB.",
            "12 MB",
        ),
        (  # another outage's ticket: the confused model's wrong row
            "What's the incident number for the login outage?",
            "Checkout outage tracked as INC-2231.",
            "INC-2231",
        ),
        (  # "how" and an adjective of measure asks an amount, never a name
            "How heavy is the checkout page JS now, gzipped?",
            "checkout page bundle dropped to 340 KB gzipped after we removed lodash.js",
            "lodash.js",
        ),
    ],
)
def test_the_thing_asked_about_still_refuses(question: str, row: str, answer: str) -> None:
    assert by_model(question, _one(row), answer) is None


# ----------------------------------------- the asked noun is the head of the wh-phrase


@pytest.mark.parametrize(
    ("question", "row", "answer", "value"),
    [
        (  # "migration", not "applied": the wh-phrase's last word before its verb
            "What's the newest migration applied on staging?",
            "Staging is at migration 0047_add_invoice_currency; nothing newer has been applied.",
            "0047_add_invoice_currency",
            "0047_add_invoice_currency",
        ),
        (  # another environment's migration
            "What's the newest migration applied on prod?",
            "Staging is at migration 0047_add_invoice_currency; nothing newer has been applied.",
            "0047_add_invoice_currency",
            None,
        ),
        (  # an identifier beside another noun
            "What's the newest migration applied on staging?",
            "Staging is at schema 0047_add_invoice_currency after the migration run.",
            "0047_add_invoice_currency",
            None,
        ),
    ],
)
def test_the_head_of_the_wh_phrase_names_a_bare_value(
    question: str, row: str, answer: str, value: str | None
) -> None:
    assert by_model(question, _one(row), answer) == value


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # an acronym the row spells out
            "How many messages are stuck in the orders-events DLQ right now?",
            "orders-events dead-letter queue currently holds 212 messages.",
            "212 messages",
        ),
        (  # spelled out for another thing's
            "How many messages are stuck in the payments DLQ right now?",
            "orders-events dead-letter queue currently holds 212 messages.",
            None,
        ),
        (  # initials of words that spell no acronym the question writes
            "How many messages are stuck in the orders-events dlq right now?",
            "orders-events: 212 messages, down low quickly.",
            None,
        ),
    ],
)
def test_an_acronym_is_the_rows_words_spelled_out(
    question: str, row: str, value: str | None
) -> None:
    assert by_model(question, _one(row), "212") == value


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (  # a participle that ends the clause is its event
            "When was the cert for api.acme.io issued?",
            "TLS cert for api.acme.io expires on 2024-07-02.",
        ),
        (  # "which" asking, not a relative clause's
            "Which cert expires first?",
            "TLS cert for api.acme.io was issued on 2024-07-02.",
        ),
    ],
)
def test_the_event_a_moment_is_asked_of_stays_the_rows(question: str, row: str) -> None:
    assert by_model(question, _one(row), "2024-07-02") is None


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # "week" of another qualifier's row is not "weekly"
            "How many rows did the weekly report export?",
            "Daily report exported 4,210 rows this week.",
            "4,210",
        ),
    ],
)
def test_a_word_of_the_same_root_is_no_derivation(question: str, row: str, answer: str) -> None:
    assert by_model(question, _one(row), answer) is None


def test_a_qualifier_is_derived_by_an_ending_only() -> None:
    from crewline.policy.fleet.rows import derived_qualifiers, qualifiers

    weekly = qualifiers("the weekly report")[1]
    assert not weekly & derived_qualifiers("Daily report exported 4,210 rows this week.")[1]
    failed = qualifiers("how many syncs failed")[3]
    assert failed <= derived_qualifiers("Sync failures last week: 19.")[3]


# ------------------- the offline reader's safety rules hold for a cited answer too


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # an adverb between the copula and the state: "is currently live"
            "Which Android build is currently live in the Play Store?",
            "Android build 9120 is in beta review since Monday.",
            "9120",
        ),
        (
            "what version is deployed to prod rn?",
            "payments v3.4.0 is staged, waiting for the Thursday window",
            "v3.4.0",
        ),
        (  # the value's clause is about another subject than the one asked
            "Which cluster do the nightly reports run on?",
            "The ad-hoc notebooks run on cluster ana-big-2; the nightly reports use their own.",
            "ana-big-2",
        ),
    ],
    ids=["adverb-state", "staged-for-deployed", "another-subject"],
)
def test_a_cited_value_in_another_state_or_of_another_subject_is_refused(
    question: str, row: str, answer: str
) -> None:
    assert by_model(question, _one(row), answer) is None


def test_a_cited_value_another_row_disputes_in_other_words_is_refused() -> None:
    rows = facts(
        ("gateway", "The broker API limit is 120 requests per minute."),
        ("trader", "the broker throttles us at 60 req/min, 429s above that"),
    )
    assert by_model("What's the broker API limit?", rows, "120") is None
    assert by_model("What's the broker API limit?", rows, "60 req/min", row=1) is None


# ----------------------------------------- a value the row states whole is given whole

DAG_RUN = "Airflow DAG nightly_etl last succeeded at 2026-12-05 03:12 UTC."
SFTP = "Partner SFTP is sftp.partner.example:2222, files under /outbound."


@pytest.mark.parametrize(
    ("question", "row", "answer", "value"),
    [
        (  # a moment: the date and its time of day, as the row says them
            "When was the last successful run of the `nightly_etl` DAG?",
            DAG_RUN,
            "2026-12-05 03:12 UTC",
            "2026-12-05 03:12 UTC",
        ),
        (  # the date alone, asked by its own noun
            "What date did the `nightly_etl` DAG last succeed?",
            DAG_RUN,
            "2026-12-05",
            "2026-12-05",
        ),
        (  # the port alone, asked by its own noun
            "Which port does the partner SFTP listen on?",
            SFTP,
            "2222",
            "2222",
        ),
        (  # the host alone, asked by its own noun
            "Which host is the partner SFTP on?",
            SFTP,
            "sftp.partner.example",
            "sftp.partner.example",
        ),
        (  # an address: the host with its port
            "What's the address of the partner SFTP?",
            SFTP,
            "sftp.partner.example:2222",
            "sftp.partner.example:2222",
        ),
    ],
)
def test_a_whole_value_or_the_part_its_noun_asks_is_answered(
    question: str, row: str, answer: str, value: str
) -> None:
    assert by_model(question, _one(row), answer) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # the date of a date and time, for "when"
            "When was the last successful run of the `nightly_etl` DAG?",
            DAG_RUN,
            "2026-12-05",
        ),
        (  # the host of a host and port, for "the address"
            "What's the address of the partner SFTP?",
            SFTP,
            "sftp.partner.example",
        ),
    ],
)
def test_a_part_given_for_the_whole_value_is_refused(question: str, row: str, answer: str) -> None:
    assert by_model(question, _one(row), answer) is None


# ----------------------------------------- the thing named otherwise: a head, never a modifier

GEO_CACHE = "Planner geocoding cache is 2.3 GB, lives in /var/cache/geo."


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # "host": the head after a word the row says ("planner")
            "Which directory holds the geocoding cache on the planner host?",
            GEO_CACHE,
            "/var/cache/geo",
        ),
        (  # "board": the row calls it a dashboard
            "link to the grafana board for the reefer temp alerts?",
            "Reefer temperature alert dashboard: https://grafana.example.local/d/reefer",
            "https://grafana.example.local/d/reefer",
        ),
    ],
)
def test_a_row_naming_the_thing_by_another_head_word_answers(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "rows", "answer"),
    [
        (  # a name the row does not say
            "What port is the redis exporter on the billing host bound to?",
            ["The postgres exporter on the billing host is on port 9187."],
            "9187",
        ),
        (  # a name of no dictionary
            "Which k8s namespace runs the ingest gateway?",
            ["The ingest gateway deployment runs in namespace telematics-prod."],
            "telematics-prod",
        ),
        (  # a modifier: the row says another one in its place
            "What port does the staging search replica listen on?",
            ["Staging search primary listens on port 9201."],
            "9201",
        ),
        (  # a modifier the row does not say: another thing of the kind
            "What's the median latency of /search in the load test?",
            ["Load test: /search p95 latency 412 ms."],
            "412 ms",
        ),
        (  # a qualifier after a preposition
            "What port is the search service on in staging?",
            ["The search service answered on port 4321."],
            "4321",
        ),
        (  # another month
            "Where is the HS code table for December?",
            ["HS code table for November is at s3://ref/2026-11/hs.parquet."],
            "s3://ref/2026-11/hs.parquet",
        ),
        (  # another row says the head word: the confused model's pick of the two
            "Which directory holds the geocoding cache on the planner host?",
            [GEO_CACHE, "The planner host keeps its geocoding cache in /srv/geo-cache."],
            "/var/cache/geo",
        ),
    ],
)
def test_a_row_leaving_out_a_name_or_a_modifier_or_rivalled_is_refused(
    question: str, rows: list[str], answer: str
) -> None:
    assert by_model(question, facts(*(("scout", r) for r in rows)), answer) is None


# ----------------------------------------- a count by the noun it counts, as the question says it


def test_a_count_with_the_questions_own_modifiers_before_its_noun_answers() -> None:
    rows = facts(("tally", "Counted 617 stale feature flags across 38 services."))
    assert by_model("How many stale feature flags did tally find?", rows, "617") == "617"


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a modifier the question does not say: another thing counted
            "How many builds ran overnight?",
            "Overnight: 12 failed builds, 40 in all.",
            "12",
        ),
        (  # the question says the modifier, but not of the noun: the whole is asked
            "How many feature flags are there in total, stale or not?",
            "Counted 617 stale feature flags across 38 services.",
            "617",
        ),
        (  # the whole of a part and its whole, right beside the noun
            "How many pods restarted during the canary?",
            "Canary run finished: 3 of 40 pods restarted, error rate held at 0.2%.",
            "40",
        ),
    ],
)
def test_a_count_of_another_thing_before_its_noun_is_refused(
    question: str, row: str, answer: str
) -> None:
    assert by_model(question, _one(row), answer) is None


def test_a_row_leaving_out_a_head_word_another_row_says_is_refused_whatever_its_values() -> None:
    rows = facts(
        ("customs-docs", "Customs broker API rate limit is 120 requests per minute."),
        ("customs-filer", "Broker API throttles us at 60 requests/minute, saw 429s above that."),
    )
    question = "What is the customs broker API's request limit per minute?"
    assert by_model(question, rows, "429s", row=1) is None


def test_a_row_that_says_the_thing_but_for_one_word_disputes_a_cited_value() -> None:
    rows = facts(
        ("customs-docs", "Customs broker API rate limit is 120 requests per minute."),
        ("customs-filer", "Broker API throttles us at 60 requests/minute, saw 429s above that."),
    )
    question = "What is the customs broker API's request limit per minute?"
    assert by_model(question, rows, "120 requests per minute") is None


# ----------------------------------------- near misses refused on both paths


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # an environment
            "What is the staging disk size of the search node? I need it for the resize.",
            "The search node disk is 500 GB in production.",
            "500 GB",
        ),
        (  # a month
            "What was the December total of the carrier invoices? Need it for the audit.",
            "November carrier invoices total: €12,400.",
            "€12,400",
        ),
        (  # a statistic
            "What is the median latency of the search endpoint? I am tuning the cache.",
            "Search endpoint p95 latency is 420 ms.",
            "420 ms",
        ),
        (  # a state
            "What is the uncompressed size of the nightly dump? I need it for the restore.",
            "The nightly dump weighs 3.2 GB compressed.",
            "3.2 GB",
        ),
        (  # a named instance
            "Which port does the Westbrook gateway listen on? I am writing the firewall rule.",
            "The Eastfield gateway listens on port 8443.",
            "8443",
        ),
        (  # a release state
            "Which version is deployed to the EU cluster? I need it for the release note.",
            "Version 3.4.1 of the EU cluster is staged.",
            "3.4.1",
        ),
        (  # a verb that is the difference
            "How many documents did the indexer reject?",
            "Reindex complete: 812 documents went into the index.",
            "812",
        ),
    ],
)
def test_a_near_miss_is_refused_on_both_paths(question: str, row: str, answer: str) -> None:
    rows = _one(row)
    assert by_model(question, rows, answer) is None
    no_answer(question, rows)


# ------------------ a period the row contradicts, a count of another outcome: on both paths


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # the row's period is another month than the question's
            "How much has the render farm cost so far this month?",
            "Last month's spend on the render farm was $2,310.",
            "$2,310",
        ),
        (  # another week, in other words of the question
            "what did the render farm cost us this week?",
            "render farm spend last week: $610",
            "$610",
        ),
        (  # the question counts the failed jobs, the row all it ran
            "How many jobs failed in the ingest queue last night?",
            "The ingest queue ran 41 jobs last night.",
            "41",
        ),
        (  # an outcome of two words
            "how many requests timed out on the gateway today?",
            "The gateway served 9,400 requests today.",
            "9,400",
        ),
        (
            "How many jobs retried in the ingest queue last night?",
            "Ingest queue: 41 jobs last night, all green.",
            "41",
        ),
    ],
)
def test_another_period_or_outcome_is_left_to_the_human(
    question: str, row: str, answer: str
) -> None:
    rows = _one(row)
    assert by_model(question, rows, answer) is None
    no_answer(question, rows)


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (
            "How much has the render farm cost so far this month?",
            "Render farm: this month's spend so far is $1,980.",
            "$1,980",
        ),
        (  # the row names no other week: this week's is its present
            "what did the render farm cost us this week?",
            "render farm spend this week: $640",
            "$640",
        ),
        (
            "How many jobs failed in the ingest queue last night?",
            "In the ingest queue, 41 jobs failed last night.",
            "41 jobs",
        ),
        (  # the outcome by a word derived from the question's
            "How many jobs failed in the ingest queue last night?",
            "Ingest queue last night: 41 job failures.",
            "41",
        ),
        (
            "how many requests timed out on the gateway today?",
            "On the gateway today, 212 requests timed out.",
            "212 requests",
        ),
    ],
)
def test_the_period_or_outcome_asked_is_answered(question: str, row: str, value: str) -> None:
    rows = _one(row)
    assert by_model(question, rows, value) == value
    answers(question, rows, value)


def test_a_schedule_word_is_no_other_night() -> None:
    """ "nightly" names when the ETL runs, not another night than "last night's"."""
    answers(
        "At what time did last night's ETL finish?",
        facts(("etl-watch", "Nightly ETL kicked off at 01:00 and wrapped up at 03:47.")),
        "03:47",
    )


# ----------------------------------------- a word left out, forgiven by rank alone

# A question the offline path reads as no request (a yes/no about a measurement), so only
# the model's citation, checked against the loose reading, can answer it.
_LOAD_TEST = "Did the bench measure a p95 for the billing API in the 500 rps load test?"
_CITED = "p95 latency of the billing API under 500 rps load is 210 ms."


def test_the_row_ranked_first_by_a_margin_is_forgiven_the_word_it_leaves_out() -> None:
    # the cited row says every word of the question but "test"; the only other row that
    # says "test" says two of its words: this row is the one the question is about
    rows = facts(
        ("bench", _CITED),
        ("scout", "The flaky test in the billing suite was fixed."),
        ("scout", "The search API p95 is 90 ms."),
    )
    assert by_model(_LOAD_TEST, rows, "210 ms") == "210 ms"


def test_a_row_as_much_about_the_question_takes_the_rank_away() -> None:
    rows = facts(
        ("bench", _CITED),
        ("scout", "The 500 rps load test of the billing API ran on the bench host for 20 min."),
    )
    assert by_model(_LOAD_TEST, rows, "210 ms") is None


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a modifier tells the thing from its near miss: "test" of "test environment"
            "Which port does the MLLP listener use in the test environment?",
            "The MLLP listener on the production engine answers on port 2575.",
            "2575",
        ),
        (  # a month is a period, never a paraphrase
            "Where is the HS code table for December?",
            "HS code table for November is at s3://customs-ref/hs/2026-11/codes.parquet.",
            "s3://customs-ref/hs/2026-11/codes.parquet",
        ),
    ],
)
def test_rank_never_forgives_what_tells_a_near_miss_apart(
    question: str, row: str, answer: str
) -> None:
    rows = facts(("scout", row), ("scout", "The customs API is up; MLLP handshake takes 30 s."))
    assert by_model(question, rows, answer) is None


# ----------------------------------------- the kind and the label of what is asked


def test_a_noun_of_no_known_kind_is_answered_only_by_a_row_that_says_it() -> None:
    # "MAU" names no kind: any value may answer it, so only the row's own word says which
    assert by_model("What was MAU in March?", _one("MAU in March was 1.2M, up from Feb."), "1.2M")
    churn = _one("Churn for March came out at 2.3%, mostly trial users.")
    assert by_model("What was MAU in March?", churn, "2.3%") is None  # shares only the month


def test_a_label_of_the_thing_asked_is_no_value_of_it() -> None:
    rows = _one("D7 retention for the May 3 cohort: 18.2%, D30 is 6.1%.")
    assert by_model("Day-7 retention of the May 3 cohort?", rows, "18.2%") == "18.2%"
    assert by_model("Day-7 retention of the May 3 cohort?", rows, "D7") is None  # "D7 retention"


def test_a_label_of_the_asked_noun_itself_is_the_answer() -> None:
    row = _one("v3 dropped the legacy_id field from GET /customers responses.")
    assert by_model("Which field disappeared from the customers endpoint in v3?", row, "legacy_id")


def test_a_name_is_no_amount() -> None:
    # "how far behind …" asks an amount: "Postgres" is a name the row gives beside it
    question = "How far behind the primary is the orders replica?"
    row = _one(
        "Orders DB is Postgres 15.4 on the primary; the replica lags about 2 seconds behind."
    )
    assert by_model(question, row, "2 seconds") == "2 seconds"
    assert by_model(question, row, "Postgres") is None


# ----------------------------------------- a bare value in a row wholly about the thing


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # a count the row gives with no noun: the thing is every word of the row's
            "How many tanks does the north brewery cellar have?",
            "The north brewery cellar has 14.",
            "14",
        ),
        (  # a name after "as"
            "Which account does the observatory archive sync run as?",
            "The observatory archive sync runs as svc-astro.",
            "svc-astro",
        ),
        (  # a name after "on"
            "What ticketing system does the library help desk use?",
            "The library help desk runs on Zammad, hosted at desk.lib.example.",
            "Zammad",
        ),
        (  # said to be the thing asked, in the question's words
            "Which host is the main collector for the greenhouse sensors?",
            "gh-log-03 is the main collector, 64 greenhouse sensors reading, one read every 30 s.",
            "gh-log-03",
        ),
    ],
)
def test_a_bare_value_of_a_row_wholly_about_the_thing_answers(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # another noun counts it
            "How many tanks does the north brewery cellar have?",
            "The north brewery cellar has 14 brewers.",
            "14",
        ),
        (  # another noun labels it
            "Which account does the observatory archive sync run as?",
            "The observatory archive sync runs on host astro-07.",
            "astro-07",
        ),
        (  # another cellar
            "How many tanks does the north brewery cellar have?",
            "The south brewery cellar has 14.",
            "14",
        ),
        (  # a word of the thing left out
            "How many tanks does the north brewery cellar have?",
            "The north cellar has 14.",
            "14",
        ),
        (  # one word of the thing is too little to own a bare value
            "How many tanks does the cellar have?",
            "The cellar has 14.",
            "14",
        ),
        (  # the other of two values the question's words pick
            "How many tanks does the north brewery cellar have?",
            "The east brewery cellar has 9 and the north brewery cellar has 14.",
            "9",
        ),
        (  # not the row's one number: which of them is the thing's is the noun's to say
            "How many tanks does the north brewery cellar have?",
            "The north brewery cellar has 14, 3 of them empty since Monday.",
            "3",
        ),
        (  # a label of another value: the confused model's pick
            "Which kiln did the glaze firing test use?",
            "Glaze firing test finished after 9h; peak 1240 C, cone6 2 h 10 min.",
            "cone6",
        ),
        (  # said to be another thing: the hostile model's first value
            "What's the cadence of greenhouse sensor reads?",
            "gh-log-03 is the main collector, 64 greenhouse sensors reading, one read every 30 s.",
            "gh-log-03",
        ),
    ],
)
def test_a_bare_value_named_otherwise_or_of_a_row_short_of_the_thing_refuses(
    question: str, row: str, answer: str
) -> None:
    assert by_model(question, _one(row), answer) is None


def test_a_refused_citation_says_the_rule_that_refused_it() -> None:
    rows = _one("The observatory archive sync runs on host astro-07.")
    verdict = check_placement(
        "Which account does the observatory archive sync run as?",
        Placement(kind="fleet", answer="astro-07", row=rows[0].row_id),
        facts=rows,
    )
    assert verdict.refused is Refusal.BARE
    assert verdict.why.endswith(Refusal.BARE.found), verdict.why
    unsaid = check_placement(
        "Which account does the observatory archive sync run as?",
        Placement(kind="fleet", answer="svc-other", row=rows[0].row_id),
        facts=rows,
    )
    assert unsaid.refused is Refusal.NOT_IN_ROW


# ------------------------------------- a value confirmed is a fact, one not yet is none


def test_a_value_said_confirmed_is_a_fact_offline_and_cited() -> None:
    rows = facts(("relay-probe", "Mail relay region confirmed: eu-central-1."))
    answers("Which region is the mail relay deployed in?", rows, "eu-central-1")
    assert by_model("Which region is the mail relay deployed in?", rows, "eu-central-1") == (
        "eu-central-1"
    )


@pytest.mark.parametrize(
    "row",
    [
        "Mail relay region isn't confirmed yet: eu-central-1.",
        "Mail relay region has not been confirmed: eu-central-1.",
        "Mail relay region is unconfirmed: eu-central-1.",
    ],
)
def test_a_value_not_confirmed_yet_stays_with_the_human(row: str) -> None:
    rows = facts(("relay-probe", row))
    no_answer("Which region is the mail relay deployed in?", rows)
    assert by_model("Which region is the mail relay deployed in?", rows, "eu-central-1") is None


# ------------------------------------- "how many <things> per <unit>" asks a rate


@pytest.mark.parametrize(
    ("question", "row", "answer", "value"),
    [
        (
            "How many messages per second does the mail relay accept?",
            "The mail relay accepts 340 messages per second at peak.",
            "340",
            "340 messages per second",
        ),
        (
            "How many readings per hour does the weather station send?",
            "Weather station uplink: 12 readings per hour over LoRa.",
            "12",
            "12 readings per hour",
        ),
    ],
)
def test_a_count_per_unit_of_time_is_answered_by_the_rate(
    question: str, row: str, answer: str, value: str
) -> None:
    assert by_model(question, _one(row), answer) == value


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [  # a rate per another unit: the gate converts none
        (
            "How many messages per second does the mail relay accept?",
            "The mail relay accepts 340 messages per minute at peak.",
            "340",
        ),
        (
            "How many readings per hour does the weather station send?",
            "Weather station uplink: 12 readings per day over LoRa.",
            "12",
        ),
    ],
)
def test_a_rate_per_another_unit_still_refuses(question: str, row: str, answer: str) -> None:
    rows = _one(row)
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None and verdict.refused is Refusal.OTHER_KIND, verdict


# ------------------------------------- what a thing was before a change: its former value

_CHANGED = "After the compression change, the nightly export went from 18 GB down to 6 GB."
_BEFORE = "What was the nightly export size before the compression change?"


def test_the_former_value_answers_what_a_thing_was_before_a_change() -> None:
    assert by_model(_BEFORE, _one(_CHANGED), "18 GB") == "18 GB"


@pytest.mark.parametrize(
    ("question", "row", "answer", "refused"),
    [
        (_BEFORE, _CHANGED, "6 GB", Refusal.FORMER),  # the value it went to
        ("How big is the nightly export now?", _CHANGED, "18 GB", Refusal.NOT_LIVE),
        (  # gone, with no value it changed to in the row: no change told
            _BEFORE,
            "The nightly export was 18 GB until the compression change.",
            "18 GB",
            Refusal.NOT_LIVE,
        ),
    ],
)
def test_a_former_value_answers_nothing_else(
    question: str, row: str, answer: str, refused: Refusal
) -> None:
    rows = _one(row)
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None and verdict.refused is refused, verdict


# ------------------- a typed value of another kind, for a noun of no known kind


@pytest.mark.parametrize(
    ("question", "row", "answer"),
    [
        (  # a time is when the vaccines arrived, not which freezer holds them
            "Which freezer are the vaccines stored in?",
            "The vaccines arrived at 14:05, checked in by Omar.",
            "14:05",
        ),
        (  # a host is where the menu is, not who caters
            "Which caterer is doing the gala?",
            "Gala menu is up at menus.example.org.",
            "menus.example.org",
        ),
        (  # a time the thermostat was rebooted is no firmware
            "Which firmware is the lobby thermostat on?",
            "Lobby thermostat was rebooted at 03:10 after the outage.",
            "03:10",
        ),
    ],
    ids=["time-for-freezer", "host-for-caterer", "time-for-firmware"],
)
def test_a_typed_value_the_row_does_not_tie_to_a_noun_of_no_kind_is_refused(
    question: str, row: str, answer: str
) -> None:
    rows = _one(row)
    verdict = check_placement(
        question, Placement(kind="fleet", answer=answer, row=rows[0].row_id), facts=rows
    )
    assert verdict.answer is None
    assert verdict.refused is Refusal.UNTIED


@pytest.mark.parametrize(
    ("question", "row", "value"),
    [
        (  # the noun right beside the value
            "Which firmware is the lobby thermostat on?",
            "Lobby thermostat runs firmware 4.2.1 since Tuesday.",
            "4.2.1",
        ),
        (  # the noun in the value's own clause
            "Which firmware is the lobby thermostat on?",
            "The lobby thermostat firmware was upgraded to 4.2.1 last night.",
            "4.2.1",
        ),
        (  # a bare name is no typed value: the rule of a bare value reads it
            "Which freezer are the vaccines stored in?",
            "The vaccines went into freezer F-3 at 14:05.",
            "F-3",
        ),
        (  # "the longest" asks a degree of the thing, an amount, not a thing of no kind
            "What's the longest a loaner laptop can be kept?",
            "Loaner laptops can be kept for 14 days, then IT recalls them.",
            "14 days",
        ),
    ],
    ids=["beside-the-noun", "noun-in-clause", "a-bare-name", "a-superlative"],
)
def test_a_typed_value_the_row_ties_to_the_noun_answers(
    question: str, row: str, value: str
) -> None:
    assert by_model(question, _one(row), value) == value
