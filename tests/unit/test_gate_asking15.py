"""Requests for a value the reader did not read as requests: "what" after the asker's own
clause, a question embedded in another's finding or asking, "how" and an adjective that
names a measure, "whose", "what" in situ, a title's or a number label's stop, a hyphenated
word in the asked phrase, a courtesy with an emoji after it. Each with its near misses, in
other domains than the sets that showed them."""

from __future__ import annotations

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, goes_on, no_answer


def _ask_noun(question: str) -> str | None:
    ask = value_ask(shape_of(code_form(question)))
    return None if ask is None else ask.noun


# ----------------------------------------- "what" after the asker's own clause


def test_what_after_the_askers_clause_is_a_request() -> None:
    # "what" is never a relative of the noun before the comma, as "which" may be
    question = "I am setting up the tunnel for the metrics gateway, what port does it listen on?"
    answers(question, facts(("net", "The metrics gateway listens on port 9464.")), "9464")


def test_what_after_a_condition_is_a_request() -> None:
    question = "Once a trial account runs out, what plan does it drop to?"
    assert _ask_noun(question) is not None


def test_what_after_a_comma_asks_nothing_the_fleet_lacks() -> None:
    # the near miss: the row is another gateway's
    no_answer(
        "I am setting up the tunnel for the metrics gateway, what port does it listen on?",
        facts(("net", "The logs gateway listens on port 9500.")),
    )


def test_what_after_a_comma_asking_the_human_to_decide_stays_unanswered() -> None:
    no_answer(
        "I am setting up the tunnel for the metrics gateway, what port should I use?",
        facts(("net", "The metrics gateway listens on port 9464.")),
    )


# ----------------------------------------- a question embedded in a finding, or reported


def test_a_question_another_found_out_is_asked() -> None:
    rows = facts(("search", "After the restart, 3 shards are unassigned on the search cluster."))
    answers("Did anyone find out how many shards are unassigned?", rows, "3 shards")


def test_a_found_out_question_of_another_thing_stays_unanswered() -> None:
    rows = facts(("search", "After the restart, 3 shards are unassigned on the search cluster."))
    no_answer("Did anyone find out how many replicas are unassigned?", rows)


def test_the_askers_own_working_out_is_a_step() -> None:
    # "can I work out what …" asks leave for a step, not a value
    goes_on("Can I work out what the freight bill would come to with two more pallets?")


def test_a_question_someone_asks_is_the_question_asked() -> None:
    question = "The auditor asks which firmware version is on the door controllers — do we know?"
    assert _ask_noun(question) == "version"
    rows = facts(("site", "The door controllers run firmware version 4.7.2 since Monday."))
    answers(question, rows, "4.7.2")
    no_answer(question, facts(("site", "The turnstiles run firmware version 4.6.0.")))


def test_the_askers_own_asking_is_not_stripped() -> None:
    # "we asked which …" reports the asker's own question, not another's to be answered
    question = "We asked which firmware version is on the door controllers — what now?"
    rows = facts(("site", "The door controllers run firmware version 4.7.2 since Monday."))
    no_answer(question, rows)


# ----------------------------------------- "how" and an adjective naming a measure


def test_how_loaded_asks_a_share() -> None:
    rows = facts(("net", "The core switch peaked at 73% load during the backup window."))
    answers("How loaded was the core switch at its peak?", rows, "73%")


def test_how_heavy_asks_a_size() -> None:
    rows = facts(("web", "The checkout bundle is 184 KB gzipped after the split."))
    answers("How heavy is the checkout bundle, gzipped?", rows, "184 KB")


def test_how_quickly_asks_a_time() -> None:
    rows = facts(("ops", "Under the contract the courier must collect a return within 48 hours."))
    answers("How quickly must the courier collect a return under the contract?", rows, "48 hours")


def test_how_bad_asks_the_measure_it_names() -> None:
    rows = facts(("mobile", "Crash rate after the 5.2 release is 0.4% over the last day."))
    answers("How bad was the crash rate after the 5.2 release?", rows, "0.4%")


def test_how_bad_of_no_measure_is_a_judgement() -> None:
    rows = facts(("ops", "The outage hit 40% of checkout requests for 12 minutes."))
    no_answer("How bad is the outage?", rows)


def test_how_heavy_of_another_bundle_stays_unanswered() -> None:
    rows = facts(("web", "The search bundle is 96 KB gzipped."))
    no_answer("How heavy is the checkout bundle, gzipped?", rows)


# ----------------------------------------- "whose"


def test_whose_asks_a_person() -> None:
    rows = facts(("lab", "Sample HX-4410 belongs to Dr. Aiko Nakamura's lab, freezer B."))
    answers("Whose lab does sample HX-4410 belong to?", rows, "Aiko Nakamura")
    no_answer("Whose lab does sample HX-4411 belong to?", rows)


def test_whose_asking_a_decision_is_none() -> None:
    assert value_ask(shape_of(code_form("Whose turn should it be to take the pager?"))) is None


def test_whose_as_a_relative_is_no_request() -> None:
    assert value_ask(shape_of(code_form("the courier whose van broke down"))) is None


# ----------------------------------------- "what" in situ


def test_what_in_situ_is_read_as_put_first() -> None:
    rows = facts(("cache", "staging Redis listens on port 6390."))
    answers("The staging Redis port is what now?", rows, "6390")
    no_answer("The production Redis port is what now?", rows)


# ----------------------------------------- a title's stop, a number label's stop


def test_a_titles_stop_ends_no_sentence() -> None:
    assert len(shape_of(code_form("When does Dr. Lindqvist start her shift?")).sentences) == 1
    assert len(shape_of(code_form("How many crates (art. 88812) are left?")).sentences) == 1


def test_a_stop_before_a_word_after_no_ends_the_sentence() -> None:
    assert len(shape_of(code_form("I said no. What port is it?")).sentences) == 2


def test_an_aside_ends_the_counted_phrase() -> None:
    assert _ask_noun("How many 5 L canisters (art. 88812) are in stock in the east depot?") == (
        "canister"
    )


# ----------------------------------------- a hyphenated word in the asked phrase


def test_a_hyphenated_word_is_one_word_of_the_phrase() -> None:
    question = "For the capacity doc I need the APAC image-resize queue latency. What was it?"
    rows = facts(("perf", "APAC image-resize queue latency was 340 ms over the last day."))
    answers(question, rows, "340 ms")
    no_answer(question, facts(("perf", "EU image-resize queue latency was 120 ms.")))


# ----------------------------------------- a courtesy with an emoji after it


def test_a_courtesy_before_an_emoji_ends_the_request() -> None:
    rows = facts(("ops", "Billing dashboard link: https://grafana.example.com/d/billing"))
    answers("dashboard link for billing pls 🙏", rows, "https://grafana.example.com/d/billing")


def test_how_soon_asking_when_to_act_is_a_decision() -> None:
    rows = facts(("ops", "The nightly report export takes 40 minutes to run."))
    no_answer("How soon should I start the nightly report export?", rows)


# ----------------------------------------- "what" asking the human's view or the next step


def test_what_asking_the_humans_view_after_a_comma_stays_a_go_ahead() -> None:
    goes_on("I have finished the dry run, what do you think, go ahead?")
    goes_on("Lint is clean, what next?")


def test_a_what_run_on_from_a_question_asks_of_that_questions_thing() -> None:
    # "still v2": the request is the v2 API's, and the v3 endpoint a row names is another's
    no_answer(
        "Is the billing API still v2, what endpoint do I call?",
        facts(("api", "billing API v3 endpoint is /api/v3/invoices")),
    )


def test_a_statement_before_a_what_is_context_not_the_subject() -> None:
    answers(
        "DNS is flaky in the lab — what's the IP address of the staging MQTT broker?",
        facts(("net", "staging MQTT broker IP address is 10.42.7.18")),
        "10.42.7.18",
    )
