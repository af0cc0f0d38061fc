"""The Discord transport's pure functions: Discord's limits, crewline's words."""

from __future__ import annotations

from crewline.models import Bell, Button, OutboundMessage, Receipt, RosterEntry
from crewline.transports.discord.render import (
    CONTENT_LIMIT,
    CUSTOM_ID_TEMPLATE,
    DESCRIPTION_LIMIT,
    NONCE_LIMIT,
    THREAD_NAME_LIMIT,
    bell_message,
    command_event,
    commands_differ,
    edit_event_id,
    edit_modal_id,
    edit_submission,
    fit,
    fork_modal_id,
    fork_submission,
    is_status_message,
    nonce_for,
    refusal_reply,
    slug_from_thread_name,
    status_content,
    thread_message,
    thread_name,
)

CARD_TAIL = "To answer, tap a button or type one of these as a reply in this thread: yes · no"


def _card(text: str) -> OutboundMessage:
    return OutboundMessage(
        author="Radar",
        text=text,
        kind="card",
        buttons=(
            Button(label="yes", payload="e:0123456789abcdef:0"),
            Button(label="no", payload="e:0123456789abcdef:1"),
        ),
    )


def test_a_short_card_is_plain_content_with_its_buttons() -> None:
    """A card within 2000 characters is the author in bold, its text, one button per option."""
    rendered = thread_message(_card(f"Ship v2?\n\n{CARD_TAIL}"))
    assert rendered.embed is None
    assert rendered.content == f"**Radar**\nShip v2?\n\n{CARD_TAIL}"
    assert [(b.label, b.custom_id) for b in rendered.buttons] == [
        ("yes", "e:0123456789abcdef:0"),
        ("no", "e:0123456789abcdef:1"),
    ]


def test_a_long_card_moves_into_an_embed_and_keeps_its_last_lines() -> None:
    """Past 2000 characters the text is an embed; cut to 4096, the answer line survives."""
    message = "x" * 5000
    rendered = thread_message(_card(f"{message}\n\n{CARD_TAIL}"))
    assert len(f"**Radar**\n{message}") > CONTENT_LIMIT
    assert rendered.content == "**Radar**"
    assert rendered.embed is not None
    description = rendered.embed.description
    assert len(description) == DESCRIPTION_LIMIT
    assert description.endswith(f"…\n\n{CARD_TAIL}")


def test_fit_leaves_short_text_alone_and_cuts_a_single_paragraph_at_the_end() -> None:
    """fit keeps text within the limit untouched; one long paragraph is cut with an ellipsis."""
    assert fit("short", 10) == "short"
    assert fit("abcdefghijkl", 10) == "abcdefghi…"


def test_a_settled_message_has_no_buttons() -> None:
    """Redrawing a settled card sends no components, which removes its buttons."""
    settled = OutboundMessage(
        author="Radar", text="Ship?\n\nAnswered: yes", settled=True, kind="card"
    )
    assert thread_message(settled).buttons == ()


def test_markdown_in_the_author_name_is_shown_literally() -> None:
    """A member named with markdown cannot restyle the message around its name."""
    rendered = thread_message(OutboundMessage(author="**Boss**_", text="hi"))
    assert rendered.content == "**\\*\\*Boss\\*\\*\\_**\nhi"


def test_every_core_payload_matches_the_one_button_template() -> None:
    """The DynamicItem template accepts any custom_id, so every press reaches the core."""
    import re

    template = re.compile(CUSTOM_ID_TEMPLATE)
    for custom_id in ("e:0123456789abcdef:9", "q:0123456789abcdef:0", "", "x" * 100, "a\nb"):
        match = template.fullmatch(custom_id)
        assert match is not None and match["payload"] == custom_id


def test_the_bell_mentions_the_owner_links_the_thread_and_keeps_the_body_verbatim() -> None:
    """The mention is in the content (embeds never notify); the body is the core's words."""
    bell = Bell(
        group_key="escalation:radar:release",
        member="radar",
        title="Radar needs you",
        body="Radar needs you with a request about release. Tag it?",
        count=1,
    )
    rendered = bell_message(bell, guild_id=10, thread_id=20, owner_id="30")
    assert rendered.content == "<@30> <#20>"
    assert rendered.embed is not None
    assert rendered.embed.description == bell.body
    assert rendered.embed.title == "Radar needs you"
    assert rendered.embed.url == "https://discord.com/channels/10/20"


def test_a_bell_without_a_known_thread_or_owner_still_says_its_words() -> None:
    """No owner id and no thread: no mention, no link, the same body."""
    bell = Bell(
        group_key="escalation:radar:",
        member="radar",
        title="Radar needs you",
        body="Radar needs you with a request.",
        count=1,
    )
    rendered = bell_message(bell, guild_id=10, thread_id=None, owner_id=None)
    assert rendered.content is None
    assert rendered.embed is not None and rendered.embed.url is None
    assert rendered.embed.description == bell.body


def test_the_status_lists_every_member_with_needs_you_and_open_counts() -> None:
    """The pinned status says, per member, whether it needs you and how many are open."""
    content = status_content(
        [
            RosterEntry(slug="radar", name="Radar", needs_you=True, pending_escalations=2),
            RosterEntry(slug="probe", name="Probe", needs_you=False, pending_escalations=0),
        ]
    )
    assert content.splitlines() == [
        "**crewline status**",
        "Radar (radar): needs you, 2 open",
        "Probe (probe): all clear",
    ]
    assert is_status_message(content)
    assert not is_status_message("Radar (radar): needs you")


def test_a_huge_roster_is_cut_to_discords_limit_and_says_how_many_more() -> None:
    """Hundreds of members still fit one message, ending with how many were left out."""
    roster = [
        RosterEntry(slug=f"member-{n}", name=f"Member {n}", needs_you=False, pending_escalations=0)
        for n in range(300)
    ]
    content = status_content(roster)
    assert len(content) <= CONTENT_LIMIT
    last = content.splitlines()[-1]
    assert last.startswith("and ") and last.endswith(" more")
    shown = len(content.splitlines()) - 2
    assert int(last.split()[1]) == 300 - shown


def test_a_thread_name_carries_the_slug_within_discords_limit() -> None:
    """A member's thread is found again by the slug at the end of its name."""
    name = thread_name("Radar", "radar")
    assert name == "Radar (radar)"
    assert slug_from_thread_name(name) == "radar"
    long = thread_name("N" * 200, "s" * 63)
    assert len(long) == THREAD_NAME_LIMIT
    assert slug_from_thread_name(long) == "s" * 63
    assert slug_from_thread_name("general chat") is None


def test_a_nonce_is_stable_per_key_and_fits_discord() -> None:
    """The same key always gives the same nonce, at most 25 characters; keys differ."""
    assert nonce_for("row:0123456789abcdef") == nonce_for("row:0123456789abcdef")
    assert nonce_for("row:0123456789abcdef") != nonce_for("row:0123456789abcdee")
    assert len(nonce_for("row:" + "f" * 200)) == NONCE_LIMIT


def test_commands_become_a_name_and_words() -> None:
    """/concierge answer routine reaches the core as concierge + (answer, routine)."""
    assert command_event("concierge answer", ["routine"]) == ("concierge", ("answer", "routine"))
    assert command_event("concierge undo", []) == ("concierge", ("undo",))
    assert command_event("roster", []) == ("roster", ())


def test_commands_are_synced_only_when_they_changed() -> None:
    """Discord's answer adds ids and versions; only names, words and options count."""
    local = [{"name": "roster", "description": "Every member", "type": 1, "options": []}]
    remote = [{**local[0], "id": "1", "version": "2", "application_id": "3"}]
    assert not commands_differ(local, remote)
    assert commands_differ(local, [])
    changed = [{**local[0], "description": "Everyone"}]
    assert commands_differ(local, changed)


def test_only_refusals_that_say_something_get_a_thread_reply() -> None:
    """An accepted answer, a redelivery and a foreign thread get no reply; a refusal does."""
    assert refusal_reply(Receipt(accepted=True, notice="Answered: yes")) is None
    assert refusal_reply(Receipt(accepted=False, code="duplicate_event")) is None
    repeat = Receipt(accepted=False, code="not_your_record", notice="Not yours", repeat=True)
    assert refusal_reply(repeat) is None  # the first delivery's reply said it
    assert refusal_reply(Receipt(accepted=False, code="unknown_thread", notice="not here")) is None
    assert refusal_reply(Receipt(accepted=False, code="not_owner", notice="Only the owner")) == (
        "Only the owner"
    )


def test_each_edit_is_its_own_event() -> None:
    """Two edits of one message have different event ids; a redelivered edit the same one."""
    first = edit_event_id(5, "2026-01-01T00:00:00+00:00")
    assert first == edit_event_id(5, "2026-01-01T00:00:00+00:00")
    assert first != edit_event_id(5, "2026-01-01T00:00:01+00:00")


def test_the_edit_modal_submit_carries_its_record_and_text() -> None:
    """What routes an Edit submit is in the submit itself: the record and the typed text."""
    row = {"type": 1, "components": [{"type": 4, "custom_id": "reply", "value": "no, keep"}]}
    data = {"custom_id": edit_modal_id("e_1"), "components": [row]}
    assert edit_submission(data) == ("e_1", "no, keep")
    labelled = {"type": 18, "component": {"type": 4, "custom_id": "reply", "value": "ok"}}
    assert edit_submission({"custom_id": edit_modal_id("e_2"), "components": [labelled]}) == (
        "e_2",
        "ok",
    )


def test_an_edit_submit_that_is_not_crewlines_is_not_routed() -> None:
    row = {"type": 1, "components": [{"type": 4, "custom_id": "reply", "value": "x"}]}
    assert edit_submission({"custom_id": "someone-else:e_1", "components": [row]}) is None
    assert edit_submission({"custom_id": edit_modal_id("e_1"), "components": []}) is None
    assert edit_submission({"custom_id": "crewline-edit:", "components": [row]}) is None
    assert edit_submission({"custom_id": edit_modal_id("e_1"), "components": ["junk"]}) is None
    assert edit_submission(None) is None


def test_the_fork_modal_submit_carries_its_message_and_slug() -> None:
    """A "Fork from here" submit names its message and the slug; an Edit submit is not one."""
    row = {"type": 1, "components": [{"type": 4, "custom_id": "slug", "value": "radar-b"}]}
    assert fork_submission({"custom_id": fork_modal_id("123"), "components": [row]}) == (
        "123",
        "radar-b",
    )
    assert fork_submission({"custom_id": edit_modal_id("123"), "components": [row]}) is None
    assert edit_submission({"custom_id": fork_modal_id("123"), "components": [row]}) is None
    assert fork_submission({"custom_id": "crewline-fork:", "components": [row]}) is None
