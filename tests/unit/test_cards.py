"""What a card says in each state (SPEC §1 "The card"), and its button payloads."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from crewline.bot import cards
from crewline.models import AnsweredBy, Escalation, EscalationState

NOW = datetime(2026, 9, 6, 9, 0, tzinfo=UTC)
BASE = Escalation(
    id="0123456789abcdef",
    member="radar",
    row_id="r",
    session="s",
    message="Ship v2?",
    created_at=NOW,
)


def test_the_veto_line_names_the_time_with_its_zone_and_the_default() -> None:
    """Deadline and default read 'Unless you reply by <time, zone>, Radar will: X'."""
    card = cards.escalation_card(
        replace(BASE, deadline=NOW + timedelta(minutes=42), default_action="ship it"), "Radar"
    )
    assert "Unless you reply by Sep 6, 09:42 UTC, Radar will: ship it" in card.text


def test_the_time_is_shown_in_the_readers_zone_when_given() -> None:
    """A transport that knows the reader's zone shows the time in it, with the zone."""
    card = cards.escalation_card(
        replace(BASE, deadline=NOW), "Radar", zone=ZoneInfo("Europe/Berlin")
    )
    assert "Sep 6, 11:00 CEST" in card.text


def test_a_deadline_without_default_says_nothing_happens() -> None:
    """Deadline only: the request stays open with no reply."""
    card = cards.escalation_card(replace(BASE, deadline=NOW), "Radar")
    assert (
        "Reply by Sep 6, 09:00 UTC; with no reply, nothing happens and the request stays open."
    ) in card.text


def test_a_held_window_says_the_member_waits_and_counts_nothing_down() -> None:
    """An answer taken back holds the window: no time to reply by, no countdown, the
    default named as what will not happen by itself; the bell says the same in words."""
    held = replace(
        BASE, deadline=NOW + timedelta(minutes=42), default_action="ship it", window_held=True
    )
    card = cards.escalation_card(held, "Radar")
    assert (
        "Answered, then taken back: Radar waits for your reply, and will not do this by"
        " itself: ship it"
    ) in card.text
    assert "Unless you reply by" not in card.text
    assert card.deadline is None and card.times == ()
    without_default = cards.escalation_card(replace(held, default_action=None), "Radar")
    assert "Answered, then taken back: Radar waits for your reply." in without_default.text
    bell = cards.escalation_bell("Radar", "radar", None, [held])
    assert "Radar waits for your reply" in bell.body and "Unless" not in bell.body


def test_options_are_buttons_and_the_typed_path_is_spelled_out() -> None:
    """Each option is a button carrying id and index; the hint says typing works too,
    without repeating the labels the buttons show right beside it."""
    card = cards.escalation_card(replace(BASE, options=("A", "B", "C")), "Radar")
    assert [(b.label, b.payload) for b in card.buttons] == [
        ("A", "e:0123456789abcdef:0"),
        ("B", "e:0123456789abcdef:1"),
        ("C", "e:0123456789abcdef:2"),
    ]
    assert card.text.endswith(
        "To answer, tap a button or type its label as a reply in this thread."
    )
    assert "A · B · C" not in card.text  # the buttons show the options: said once


def test_a_card_without_options_says_how_to_answer() -> None:
    """No options: 'Reply in this thread to answer.'"""
    assert "Reply in this thread to answer." in cards.escalation_card(BASE, "Radar").text


def test_settled_cards_keep_their_text_and_lose_their_buttons() -> None:
    """Each settled state has its line; none has buttons."""
    answered = replace(
        BASE,
        options=("yes",),
        state=EscalationState.ANSWERED,
        answer="yes",
        answered_by=AnsweredBy.USER,
        settled_at=NOW,
    )
    defaulted = replace(BASE, deadline=NOW, default_action="ship", state=EscalationState.DEFAULTED)
    expired = replace(BASE, deadline=NOW, state=EscalationState.EXPIRED)
    retracted = replace(BASE, state=EscalationState.RETRACTED)
    expected = {
        answered: "Answered: yes — by you, Sep 6, 09:00 UTC",
        defaulted: "Window closed — Radar said it would: ship",
        expired: "Window closed with no reply",
        retracted: "Withdrawn — this request is no longer open.",
    }
    for record, line in expected.items():
        card = cards.escalation_card(record, "Radar")
        assert line in card.text
        assert "Ship v2?" in card.text
        assert card.buttons == () and card.settled


def test_only_a_confirmed_default_is_said_to_have_run() -> None:
    """'said it would' until the member confirms; then 'confirmed it did'."""
    defaulted = replace(BASE, deadline=NOW, default_action="ship", state=EscalationState.DEFAULTED)
    assert "said it would: ship" in cards.escalation_card(defaulted, "Radar").text
    confirmed = replace(defaulted, default_applied=True)
    assert "confirmed it did: ship" in cards.escalation_card(confirmed, "Radar").text


def test_the_longest_payload_fits_telegrams_64_bytes() -> None:
    """The widest payload crewline makes (10 options, a full id) is far under 64 bytes."""
    card = cards.escalation_card(replace(BASE, options=tuple(str(n) for n in range(10))), "R")
    longest = max(len(b.payload.encode()) for b in card.buttons)
    assert longest == len("e:0123456789abcdef:9") <= cards.MAX_PAYLOAD_BYTES


def test_payloads_parse_back_and_forgeries_do_not() -> None:
    """parse_payload round-trips crewline's payloads and rejects anything else."""
    press = cards.parse_payload("e:0123456789abcdef:3")
    assert press == cards.ButtonPress(kind="e", record_id="0123456789abcdef", choice=3)
    for forged in (
        "",
        "e:0123456789abcdef",
        "e:0123456789ABCDEF:1",
        "x:0123456789abcdef:1",
        "e:0123456789abcdef:100",
        "e:0123456789abcdef:1:extra",
        "e:../../etc:1",
    ):
        assert cards.parse_payload(forged) is None


def test_the_bell_says_it_in_words_with_a_utc_time_and_no_glyphs() -> None:
    """One bell per goal; the body is sentences, a UTC clock time, no glyphs."""
    pending = [
        replace(
            BASE, deadline=NOW, default_action="ship it", options=("yes", "no"), goal="release"
        ),
        replace(BASE, id="fedcba9876543210", message="Notes?", goal="release"),
    ]
    bell = cards.escalation_bell("Radar", "radar", "release", pending)
    assert bell.group_key == "escalation:radar:release"
    assert bell.count == 2
    assert bell.body.startswith("Radar needs you with 2 requests about release.")
    assert "Unless you reply by Sep 6, 09:00 UTC, Radar will: ship it." in bell.body
    assert "Options: yes or no." in bell.body
    assert all(glyph not in bell.body for glyph in "·•→✓✗")
