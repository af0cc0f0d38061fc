"""Validation, deadlines, routing and the caller gates of session_escalate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from crewline.bot.escalations import EscalationRequest, parse_deadline, route, validate
from crewline.errors import InvalidInput
from crewline.models import CallerKind, Session
from crewline.policy import VERB_GRANTS, Verb, authorize, granted

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PT30M", NOW + timedelta(minutes=30)),
        ("P1DT2H", NOW + timedelta(days=1, hours=2)),
        ("P2W", NOW + timedelta(weeks=2)),
        ("PT1.5S", NOW + timedelta(seconds=1.5)),
        ("2026-12-01T08:00:00+01:00", datetime(2026, 12, 1, 7, 0, tzinfo=UTC)),
        ("2026-12-01T08:00:00Z", datetime(2026, 12, 1, 8, 0, tzinfo=UTC)),
    ],
)
def test_deadlines_are_absolute_times_with_zone_or_durations(text: str, expected: datetime) -> None:
    """Both forms SPEC §1.5 allows resolve to an aware moment."""
    assert parse_deadline(text, NOW) == expected


def test_the_30_day_limit_is_inclusive() -> None:
    """Exactly 30 days ahead is allowed; a second more is not."""
    assert validate(EscalationRequest(message="x", deadline="P30D"), NOW).deadline
    with pytest.raises(InvalidInput) as refused:
        validate(EscalationRequest(message="x", deadline="P30DT1S"), NOW)
    assert refused.value.code == "deadline_too_far"


def test_delivery_is_decided_by_the_caller() -> None:
    """Member → own thread; worker → creating member's; anyone else → own transcript."""
    member = Session(id="m", kind=CallerKind.MEMBER, member="radar")
    worker = Session(id="w", kind=CallerKind.WORKER, member="radar", parent="m")
    plain = Session(id="p", kind=CallerKind.PLAIN, member=None)
    conductor = Session(id="c", kind=CallerKind.CONDUCTOR, member="radar")
    assert route(member).member == "radar"
    assert route(worker).member == "radar"
    assert (route(plain).member, route(plain).conversation) == (None, "~p")
    assert route(conductor).member is None


def test_every_verb_is_classified_and_channel_agents_cannot_reach_the_human() -> None:
    """The policy table covers every verb; escalate is denied to channel agents only."""
    assert set(VERB_GRANTS) == set(Verb)
    channel = Session(id="c", kind=CallerKind.CHANNEL, member=None)
    decision = authorize(channel, Verb.SESSION_ESCALATE)
    assert (decision.allowed, decision.code) == (False, "caller_blocked")
    for kind in set(CallerKind) - {CallerKind.CHANNEL}:
        assert authorize(Session(id="x", kind=kind, member=None), Verb.SESSION_ESCALATE).allowed


def test_granted_is_exactly_what_authorize_allows_for_each_kind() -> None:
    """What MCP lists is what a call would pass: the hub verbs for a concierge alone."""
    hub = {v for v in Verb if v.value.startswith("hub_")}
    for kind in CallerKind:
        session = Session(id="x", kind=kind, member=None)
        assert granted(session) == {v for v in Verb if authorize(session, v).allowed}
        assert (hub <= granted(session)) is (kind is CallerKind.CONCIERGE)
        assert not hub & granted(session) or kind is CallerKind.CONCIERGE


@pytest.mark.parametrize(
    "text",
    [
        "PT999999999999999999999999999999S",
        "P" + "9" * 5000 + "D",
        "P999999999D",
        "P99999999W",
        "PT9999999999999999999999.5S",
    ],
)
def test_a_duration_no_clock_can_hold_is_invalid_and_names_the_largest(text: str) -> None:
    """An OverflowError (a 500 over HTTP, an int-conversion message over MCP) before: now
    invalid_deadline, saying the largest deadline allowed, quoting at most 80 characters."""
    with pytest.raises(InvalidInput) as refused:
        validate(EscalationRequest(message="x", deadline=text), NOW)
    error = refused.value
    assert (error.code, error.details) == (
        "invalid_deadline",
        {"field": "deadline", "largest": "P30D"},
    )
    assert "P30D" in error.message and len(error.message) < 200


@pytest.mark.parametrize(
    ("text", "meant"),
    [("30m", "PT30M"), ("2 hours", "PT2H"), ("45s", "PT45S"), ("1d", "P1D"), ("2W", "P2W")],
)
def test_a_casual_duration_is_told_its_iso_8601_form(text: str, meant: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_deadline(text, NOW)
    assert refused.value.code == "invalid_deadline"
    assert f"did you mean {meant}?" in refused.value.message
    assert "such as PT30M" in refused.value.message


def test_digits_of_other_scripts_are_not_a_duration() -> None:
    """Fullwidth digits are refused, not folded into ASCII ones."""
    with pytest.raises(InvalidInput) as refused:
        parse_deadline("P\uff11D", NOW)
    assert refused.value.code == "invalid_deadline"
