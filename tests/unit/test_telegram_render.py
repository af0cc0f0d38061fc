"""Drawing for Telegram: HTML that Telegram accepts, texts that fit, buttons that fit."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from crewline.bot import cards
from crewline.errors import PermanentTransportError
from crewline.models import Bell, Button, Escalation, OutboundMessage, RosterEntry
from crewline.transports.telegram.markup import markdown_html, plain_text, utf16_len
from crewline.transports.telegram.refs import edited_record
from crewline.transports.telegram.render import (
    MAX_CALLBACK_DATA,
    MAX_TEXT,
    REWOUND_LABEL,
    bell_html,
    chain_header,
    check_callback_data,
    edit_prompt_html,
    keyboard,
    message_html,
    rewound_html,
    roster_html,
    topic_link,
)

_ALLOWED_TAGS = {"b", "i", "s", "code", "pre", "a"}
_TAG = re.compile(r"<(/?)([a-z]+)(?: [^>]*)?>")


def _well_nested(rendered: str) -> bool:
    """Every '<' opens or closes an allowed tag, and tags close in reverse order."""
    stack: list[str] = []
    position = 0
    for match in _TAG.finditer(rendered):
        if "<" in rendered[position : match.start()] or ">" in rendered[position : match.start()]:
            return False
        closing, name = match.group(1), match.group(2)
        if name not in _ALLOWED_TAGS:
            return False
        if closing:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
        position = match.end()
    rest = rendered[position:]
    return not stack and "<" not in rest and ">" not in rest


def _escalation(**fields: object) -> Escalation:
    values: dict[str, object] = {
        "id": "f" * 16,
        "member": "radar",
        "row_id": "r1",
        "session": "s1",
        "message": "Ship?",
        "created_at": datetime(2026, 9, 6, 9, 42, tzinfo=UTC),
    }
    values.update(fields)
    return Escalation(**values)  # type: ignore[arg-type]


def test_the_longest_payload_the_core_can_make_fits_callback_data() -> None:
    """The longest payload the core's grammar allows (21 ASCII bytes) fits Telegram's 64."""
    longest = "q:" + "f" * 16 + ":99"
    assert cards.parse_payload(longest) is not None
    assert cards.parse_payload("q:" + "f" * 16 + ":100") is None  # the grammar ends here
    assert len(longest.encode("utf-8")) == 21 <= MAX_CALLBACK_DATA == 64
    assert check_callback_data(longest) == longest
    card = cards.escalation_card(_escalation(options=tuple(f"o{n}" for n in range(10))), "R")
    drawn = keyboard(card.buttons)
    payloads = [b.payload for row in drawn.rows for b in row]
    assert payloads == [f"e:{'f' * 16}:{n}" for n in range(10)]
    assert max(len(p.encode()) for p in payloads) <= MAX_CALLBACK_DATA


@pytest.mark.parametrize("payload", ["", "x" * 65, "é" * 33], ids=["empty", "65", "66-utf8"])
def test_callback_data_outside_1_to_64_bytes_is_refused_before_sending(payload: str) -> None:
    """Telegram counts UTF-8 bytes; a payload it would refuse is never sent."""
    with pytest.raises(PermanentTransportError) as refused:
        keyboard([Button(label="x", payload=payload)])
    assert refused.value.code == "button_data_invalid"


def test_short_labels_share_rows_and_long_ones_get_their_own() -> None:
    """Up to three short buttons a row; any long label puts every button on its own row."""
    short = [Button(label=s, payload=f"e:{'a' * 16}:{n}") for n, s in enumerate("abcd")]
    assert [len(row) for row in keyboard(short).rows] == [3, 1]
    long = [*short[:2], Button(label="a rather long option label", payload="e:" + "a" * 16 + ":9")]
    assert [len(row) for row in keyboard(long).rows] == [1, 1, 1]


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("<script>alert(1)</script> & co", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"),
        (
            "**bold** and *it* and _it_ and ~~gone~~",
            "<b>bold</b> and <i>it</i> and <i>it</i> and <s>gone</s>",
        ),
        ("snake_case_name and 2*3*4", "snake_case_name and 2*3*4"),
        ("use `a<b && c`", "use <code>a&lt;b &amp;&amp; c</code>"),
        (
            "```py\nif a < b:\n    pass\n```",
            '<pre><code class="language-py">if a &lt; b:\n    pass</code></pre>',
        ),
        ("[docs](https://x.org/a_b?q=1&r=2)", '<a href="https://x.org/a_b?q=1&amp;r=2">docs</a>'),
        ("[click](javascript:alert(1))", "[click](javascript:alert(1))"),
        ("# Plan\n- one\n- two", "<b>Plan</b>\n• one\n• two"),
    ],
)
def test_markdown_becomes_escaped_telegram_html(markdown: str, expected: str) -> None:
    """The markdown subset is drawn; everything else is escaped text."""
    assert markdown_html(markdown) == expected


def test_any_mix_of_markers_and_brackets_gives_well_nested_html() -> None:
    """Thousands of random marker soups never produce a tag Telegram would refuse."""
    pieces = [
        "*",
        "**",
        "_",
        "__",
        "`",
        "```",
        "~~",
        "[",
        "](",
        "https://x.y/a_b",
        ")",
        "<",
        ">",
        "&",
        "a",
        "word",
        " ",
        "\n",
        "# ",
        "- ",
        "\x00",
    ]
    chooser = random.Random(6)
    for _ in range(3000):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 24)))
        rendered = markdown_html(text)
        assert _well_nested(rendered), (text, rendered)


def test_plain_text_is_what_the_reader_sees() -> None:
    """Tags dropped, entities decoded: the harness and the status lookup read this."""
    assert plain_text("<b>R&amp;D</b> · #radar &lt;x&gt;") == "R&D · #radar <x>"


def test_a_long_card_is_shortened_in_its_message_and_keeps_its_state_line() -> None:
    """A card over 4096 characters loses the end of the member's message, not its buttons'
    explanation; escaping is counted."""
    state = "To answer, tap a button or type one of these as a reply in this thread: yes"
    message = OutboundMessage(author="Radar", text="<&>" * 2000 + "\n\n" + state, kind="card")
    drawn = message_html(message, header=chain_header("Radar", "radar"))
    assert utf16_len(drawn) <= MAX_TEXT
    assert drawn.endswith(state)
    assert drawn.startswith("<b>Radar</b> · #radar\n&lt;&amp;&gt;")
    assert " …\n\n" in drawn
    emoji = OutboundMessage(author="Radar", text="🚀" * 3000, kind="card")
    assert utf16_len(message_html(emoji)) <= MAX_TEXT


def test_rows_by_someone_else_name_their_author() -> None:
    """The thread's own member speaks plainly; crewline and other members are named."""
    own = OutboundMessage(author="Radar", text="hello")
    notice = OutboundMessage(author="crewline", text="2 requests are open", kind="notice")
    assert message_html(own, member_name="Radar") == "hello"
    assert message_html(own) == "hello"  # the thread's member unknown: nobody is named
    other = OutboundMessage(author="probe", text="found 4321")
    assert message_html(other, member_name="Radar") == "<b>probe</b>: found 4321"
    assert message_html(notice, member_name="Radar") == "<b>crewline</b>: 2 requests are open"
    assert message_html(notice) == "<b>crewline</b>: 2 requests are open"


def test_the_chain_header_names_the_member_and_its_hashtag() -> None:
    """'<name> · #slug', escaped, on one line, dashes as underscores."""
    assert chain_header("R&D\nTeam", "api-fix") == "<b>R&amp;D Team</b> · #api_fix"


def test_bell_and_status_are_escaped_words() -> None:
    """The bell says its title and body; the status lists needs-you and open counts."""
    bell = Bell(
        group_key="escalation:radar:",
        member="radar",
        title="Radar needs you",
        body="Ship <v2>? Open Radar's thread to answer.",
        count=1,
    )
    assert bell_html(bell) == (
        "<b>Radar needs you</b>\n\nShip &lt;v2&gt;? Open Radar's thread to answer."
    )
    roster = [
        RosterEntry(slug="radar", name="Radar", needs_you=True, pending_escalations=2),
        RosterEntry(slug="probe", name="P<robe>", needs_you=False, pending_escalations=0),
    ]
    assert roster_html(roster) == (
        "<b>crewline · crew status</b>\n<b>Radar</b>: needs you, 2 "
        "open\n<b>P&lt;robe&gt;</b>: all clear"
    )
    many = [
        RosterEntry(slug=f"m{n}", name="N" * 80, needs_you=False, pending_escalations=0)
        for n in range(200)
    ]
    drawn = roster_html(many)
    assert utf16_len(drawn) <= MAX_TEXT and drawn.endswith("more") and _well_nested(drawn)


def test_only_supergroup_topics_have_links() -> None:
    """t.me/c/<id>/<topic> for a -100… supergroup; a private chat has no link."""
    assert topic_link(-1001234567890, 7) == "https://t.me/c/1234567890/7"
    assert topic_link(1001, 7) is None


def test_a_rewound_message_is_labelled_and_struck_as_plain_words() -> None:
    """Its formatting is dropped, so nothing nests in the strike; special characters stay
    escaped."""
    message = OutboundMessage(author="Radar", text="**Ship** it <now> & `then`")
    drawn = rewound_html(message, header="<b>Radar</b> · #radar")
    assert drawn == (
        f"<b>Radar</b> · #radar\n<i>{REWOUND_LABEL}</i>\n<s>Ship it &lt;now&gt; &amp; then</s>"
    )


@pytest.mark.parametrize("filler", ["x", "&", "<", "é", "😀"])
def test_a_long_rewound_message_still_fits(filler: str) -> None:
    """Tags and escapes counted, the redraw fits Telegram's limit and says it was cut."""
    message = OutboundMessage(author="Radar", text=filler * (MAX_TEXT * 2))
    drawn = rewound_html(message)
    assert utf16_len(drawn) <= MAX_TEXT
    assert drawn.startswith(f"<i>{REWOUND_LABEL}</i>\n<s>")
    assert drawn.endswith(" …</s>") or drawn.endswith("…</s>")


@pytest.mark.parametrize(
    "suggestion", ["no, keep <them> & wait", "&" * 5000], ids=["short", "long"]
)
def test_the_edit_prompt_ends_with_its_record_whole_even_when_shortened(suggestion: str) -> None:
    """The suggestion gives way to the limit; the line naming the record is read back whole."""
    html = edit_prompt_html(suggestion, record="0123456789abcdef", header=chain_header("R", "r"))
    assert utf16_len(html) <= MAX_TEXT
    assert edited_record(plain_text(html)) == "0123456789abcdef"
    if len(suggestion) < 100:
        assert "<code>no, keep &lt;them&gt; &amp; wait</code>" in html
