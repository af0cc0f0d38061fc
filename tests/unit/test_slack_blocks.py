"""Drawing crewline's messages in Block Kit (pure functions: values in, Slack JSON out)."""

from __future__ import annotations

from datetime import UTC, datetime

from crewline.models import Bell, Button, OutboundMessage, RecentAnswer, RosterEntry
from crewline.transports.slack import blocks


def _card(**changes: object) -> OutboundMessage:
    values: dict[str, object] = {
        "author": "Radar",
        "text": "Ship v2?",
        "buttons": (Button(label="yes", payload="e:0123456789abcdef:0"),),
        "kind": "card",
    }
    values.update(changes)
    return OutboundMessage(**values)  # type: ignore[arg-type]


def test_markdown_becomes_mrkdwn() -> None:
    """Bold, italics, strike, links, headings and bullets are translated; code is kept."""
    source = "# Plan\n**bold** and *it* and ~~gone~~\n- [docs](https://x.test/a?b=1) `**raw**`"
    assert blocks.to_mrkdwn(source) == (
        "*Plan*\n*bold* and _it_ and ~gone~\n• <https://x.test/a?b=1|docs> `**raw**`"
    )


def test_control_characters_are_escaped_so_text_cannot_ping_or_forge_links() -> None:
    """A member's <!channel> or <http://evil|bank> stays plain text."""
    assert blocks.to_mrkdwn("hi <!channel> & <http://evil|bank>") == (
        "hi &lt;!channel&gt; &amp; &lt;http://evil|bank&gt;"
    )
    assert blocks.to_mrkdwn("```\nif a < b: pass\n```") == "```\nif a &lt; b: pass\n```"


def test_a_card_has_its_text_its_window_and_one_actions_block() -> None:
    """Buttons carry the core's payload as value and a unique action_id each; the card's
    deadline is stated once, as Slack's date token in each reader's zone with the UTC words
    as its fallback (no second "your time" line)."""
    deadline = datetime(2030, 9, 6, 9, 42, tzinfo=UTC)
    card = _card(
        text="Ship v2?\n\nUnless you reply by Sep 6, 09:42 UTC, Radar will: ship it",
        buttons=(
            Button(label="yes", payload="e:0123456789abcdef:0"),
            Button(label="no", payload="e:0123456789abcdef:1"),
        ),
        deadline=deadline,
        times=(deadline,),
    )
    drawn = blocks.message_blocks(card)
    assert [b["type"] for b in drawn] == ["section", "actions"]
    token = (
        f"<!date^{int(deadline.timestamp())}^{{date_short_pretty}} at {{time}}|Sep 6, 09:42 UTC>"
    )
    assert drawn[0]["text"] == {
        "type": "mrkdwn",
        "text": f"Ship v2?\n\nUnless you reply by {token}, Radar will: ship it",
    }
    assert "Sep 6, 09:42 UTC, Radar" in blocks.message_text(card)  # the notification's words
    assert [(e["action_id"], e["value"], e["text"]["text"]) for e in drawn[1]["elements"]] == [
        ("crewline:0", "e:0123456789abcdef:0", "yes"),
        ("crewline:1", "e:0123456789abcdef:1", "no"),
    ]


def test_a_settled_card_keeps_its_text_and_has_no_buttons_or_window() -> None:
    """Settled: only the text remains, even if buttons were passed along."""
    settled = _card(settled=True, deadline=datetime(2030, 1, 1, tzinfo=UTC))
    assert [b["type"] for b in blocks.message_blocks(settled)] == ["section"]


def test_long_text_is_split_into_sections_under_slacks_limit() -> None:
    """A section holds at most 3000 characters; longer text is cut at line ends."""
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(80))
    drawn = blocks.message_blocks(_card(text=text, buttons=()))
    sections = [b["text"]["text"] for b in drawn]
    assert len(sections) == 3
    assert all(len(s) <= blocks.SECTION_LIMIT for s in sections)
    assert "\n".join(sections) == text


def test_long_labels_are_cut_and_many_buttons_are_split_into_blocks() -> None:
    """Button text is at most 75 characters and an actions block holds at most 25."""
    buttons = tuple(Button(label="o" * 80, payload=f"e:0123456789abcdef:{n}") for n in range(30))
    drawn = blocks.message_blocks(_card(buttons=buttons))
    actions = [b for b in drawn if b["type"] == "actions"]
    assert [len(a["elements"]) for a in actions] == [25, 5]
    assert len({a["block_id"] for a in actions}) == 2
    assert actions[1]["elements"][0]["action_id"] == "crewline:25"
    assert len(actions[0]["elements"][0]["text"]["text"]) == 75


def test_the_bell_says_its_body_in_its_own_block_and_links_the_thread() -> None:
    """The bell's body is escaped, in a block a reader (and a test) can find; the link last."""
    bell = Bell(
        group_key="escalation:radar:",
        member="radar",
        title="Radar needs you",
        body="Tag <v2>?",
        count=1,
    )
    drawn = blocks.bell_blocks(bell, thread_link="https://slack.test/archives/D1/p1")
    assert drawn[1] == {
        "type": "section",
        "block_id": blocks.BELL_BODY_BLOCK,
        "text": {"type": "mrkdwn", "text": "Tag &lt;v2&gt;?"},
    }
    assert drawn[-1]["elements"][0]["text"] == "<https://slack.test/archives/D1/p1|Open the thread>"
    assert blocks.bell_blocks(bell, thread_link=None)[-1]["block_id"] == blocks.BELL_BODY_BLOCK


def test_the_home_view_shows_needs_you_counts_and_thread_links() -> None:
    """Each member: name, slug, needs-you badge with its open count, link when known."""
    view = blocks.home_view(
        [
            RosterEntry(slug="radar", name="Radar", needs_you=True, pending_escalations=1),
            RosterEntry(slug="probe", name="Probe", needs_you=False, pending_escalations=0),
        ],
        links={"radar": "https://slack.test/r"},
    )
    lines = [b["text"]["text"] for b in view["blocks"][1:]]
    assert view["type"] == "home"
    assert lines == [
        "*Radar* (`radar`) · :large_orange_circle: *needs you* · 1 open"
        " · <https://slack.test/r|open the thread>",
        "*Probe* (`probe`) · :white_check_mark: all clear",
    ]
    assert "No members yet" in blocks.home_view([], links={})["blocks"][1]["text"]["text"]


def test_each_author_gets_a_stable_icon() -> None:
    """The same name always draws the same emoji; crewline's own notices have their own."""
    assert blocks.icon_for("Radar") == blocks.icon_for("Radar")
    assert blocks.icon_for("crewline") == ":information_source:"
    assert len({blocks.icon_for(f"member {n}") for n in range(40)}) > 5


def test_the_root_says_the_concierges_answer_of_the_last_minute_under_its_status() -> None:
    """The answer's line (escaped, its time Slack's {ago} token) sits under the status; a
    root without one draws as before."""
    at = datetime(2026, 9, 6, 9, 12, tzinfo=UTC)
    entry = RosterEntry(
        slug="radar",
        name="Radar",
        needs_you=False,
        pending_escalations=0,
        concierge_answer=RecentAnswer(text="yes <v2>", at=at),
    )
    line = blocks.concierge_line(entry)
    assert line == (
        f"concierge · answered radar: yes &lt;v2&gt; (<!date^{int(at.timestamp())}^{{ago}}"
        "|Sep 6, 09:12 UTC>) · /concierge undo"
    )
    assert blocks.concierge_line(None) is None
    assert blocks.root_text("Radar", "all clear", line) == f"Radar: all clear\n{line}"
    drawn = blocks.root_blocks("Radar", "all clear", line)
    assert [b["type"] for b in drawn] == ["section", "context", "context"]
    assert drawn[1]["elements"][0]["text"] == line
    assert [b["type"] for b in blocks.root_blocks("Radar", "all clear")] == ["section", "context"]
    assert blocks.root_drawn("all clear", None) == "all clear"


def test_the_root_and_metadata_name_the_member() -> None:
    """The root says the member's status; metadata names the object for later lookups."""
    assert blocks.root_text("R&D", "needs you") == "R&amp;D: needs you"
    assert blocks.root_status(None) == "all clear"
    assert blocks.metadata(blocks.THREAD_EVENT, member="radar") == {
        "event_type": "crewline_thread",
        "event_payload": {"member": "radar"},
    }
