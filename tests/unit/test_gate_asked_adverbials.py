"""The asked kind and noun read past the words around them: an adverbial phrase of time ("right
now", "so far") is no asked noun and no word a row must say; a location may be a URL; a
noun's number abbreviated ("ticket no.") is its id; a port may be said by its place after
its host ("… on 8210", "sbc-edge-03, 5061 over TLS")."""

from __future__ import annotations

from crewline.policy.clauses import shape_of
from crewline.policy.fleet import value_ask
from crewline.policy.fleet.asking import ValueAsk, adverbial_words
from crewline.policy.values import Kind, values_in
from crewline.policy.wording import code_form
from tests.unit.gate_kit import answers, facts, no_answer


def _ask(question: str) -> ValueAsk:
    ask = value_ask(shape_of(code_form(question)))
    assert ask is not None, question
    return ask


# --- an adverbial phrase of time ------------------------------------------------------------


def test_right_now_is_no_asked_noun() -> None:
    ask = _ask("quote latency p95 in EU — what is it right now?")
    assert ask.noun != "right"
    assert ask.kinds == (Kind.DURATION,)


def test_so_far_is_no_word_a_row_must_say() -> None:
    ask = _ask("how many claims has the fraud model flagged so far this week?")
    assert "far" not in ask.subject
    assert "week" in ask.subject


def test_these_days_is_no_word_a_row_must_say() -> None:
    assert "day" not in _ask("Which host runs the adjuster scheduler these days?").subject


def test_a_count_asked_so_far_is_answered() -> None:
    rows = facts(("fraud", "fraudscore 2.7.1 is live since Tuesday, flagged 96 claims this week"))
    answers("how many claims has fraudscore flagged so far this week?", rows, "96 claims")


def test_near_miss_a_count_so_far_of_another_period_is_no_answer() -> None:
    rows = facts(("fraud", "fraudscore 2.7.1 is live since Tuesday, flagged 96 claims this week"))
    no_answer("how many claims has fraudscore flagged so far this month?", rows)


def test_near_miss_up_to_date_is_no_adverbial_of_time() -> None:
    assert adverbial_words("which date is the mirror up to date as of?") == frozenset()
    assert adverbial_words("how many shards so far to date?")


def test_near_miss_how_far_still_asks_a_lag() -> None:
    assert _ask("roughly how far behind is the satellite feed right now?").kinds[0] is (
        Kind.DURATION
    )


# --- a location written as a URL -------------------------------------------------------------


def test_a_location_is_answered_by_a_url() -> None:
    rows = facts(
        ("ocr", "today's scan batch is SCN-88412, landing in s3://insureco-scan-ingest/2024/")
    )
    answers("Which S3 location do today's scans land in?", rows, "s3://insureco-scan-ingest/2024/")


def test_near_miss_another_day_s_location_is_no_answer() -> None:
    rows = facts(
        ("ocr", "today's scan batch is SCN-88412, landing in s3://insureco-scan-ingest/2024/")
    )
    no_answer("Which S3 location do yesterday's scans land in?", rows)


# --- a noun's number abbreviated --------------------------------------------------------------


def test_ticket_no_asks_the_ticket_s_id() -> None:
    rows = facts(
        ("claims", "Tom Whitfield took the 14 flood claims from Carlisle, tracked in CLM-77310")
    )
    answers("ticket no. for the carlisle flood claims pls", rows, "CLM-77310")


def test_near_miss_ticket_no_of_another_place_is_no_answer() -> None:
    rows = facts(
        ("claims", "Tom Whitfield took the 14 flood claims from Carlisle, tracked in CLM-77310")
    )
    no_answer("ticket no. for the leeds flood claims pls", rows)


def test_near_miss_a_no_said_alone_is_no_noun() -> None:
    ask = _ask("No. Which port did the probe find?")
    assert (ask.noun, ask.kinds[0]) == ("port", Kind.PORT)


# --- a port said by its place after its host ---------------------------------------------------


def _kinds(text: str) -> list[tuple[str, Kind]]:
    return [(v.text, v.kind) for v in values_in(text)]


def test_a_number_after_its_host_is_its_port() -> None:
    said = _kinds("endorsement service is pas-endo-01.ins.internal on 8210")
    assert said[-1] == ("8210", Kind.PORT)


def test_a_number_after_a_machine_with_its_protocol_is_its_port() -> None:
    assert _kinds("SIP trunk terminates on sbc-edge-03, 5061 over TLS")[-1] == ("5061", Kind.PORT)


def test_the_port_said_by_its_place_is_answered() -> None:
    rows = facts(("telephony", "SIP trunk terminates on sbc-edge-03, 5061 over TLS"))
    answers("SIP over TLS — which port did telephony say?", rows, "5061")


def test_near_miss_a_count_after_a_machine_is_no_port() -> None:
    said = _kinds("warehouse load done at 04:47 on dwh-etl-01, 212 tables")
    assert said[-1] == ("212", Kind.NUMBER)


def test_near_miss_a_year_after_a_host_is_no_port() -> None:
    assert _kinds("moved to db-2.internal at 2024, then left")[1] == ("2024", Kind.NUMBER)


def test_near_miss_a_number_after_a_name_with_no_protocol_is_no_port() -> None:
    assert _kinds("queue drained on worker-4, 8210")[-1] == ("8210", Kind.NUMBER)


def test_near_miss_another_service_s_port_is_no_answer() -> None:
    rows = facts(("telephony", "SIP trunk terminates on sbc-edge-03, 5061 over TLS"))
    no_answer("Which port does the IVR recorder listen on?", rows)
