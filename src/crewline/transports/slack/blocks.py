"""Drawing crewline's messages in Block Kit: pure functions from values to Slack JSON.

What a card says comes from the core (``bot/cards.py``); this module only decides how it
looks in Slack: markdown turned into mrkdwn (with ``&``, ``<`` and ``>`` escaped, so a
member's text can never mention ``@channel`` or forge a link), sections split under Slack's
3000-character limit, one ``actions`` block of buttons whose ``value`` is the core's payload
and whose ``action_id`` is unique in the block, and message metadata naming the crewline
object a message shows, so the transport can find it again after a crash.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from crewline.models import Bell, Button, OutboundMessage, RosterEntry
from crewline.moments import in_words, localize

__all__ = [
    "ACTION_PREFIX",
    "BELL_BODY_BLOCK",
    "BELL_EVENT",
    "MESSAGE_EVENT",
    "THREAD_EVENT",
    "bell_blocks",
    "bell_text",
    "concierge_line",
    "escape",
    "home_view",
    "icon_for",
    "local_time",
    "message_blocks",
    "message_text",
    "metadata",
    "rewound_blocks",
    "rewound_text",
    "root_blocks",
    "root_drawn",
    "root_status",
    "root_text",
    "to_mrkdwn",
]

JsonDict = dict[str, Any]

ACTION_PREFIX = "crewline:"  # action_id of the n-th button: "crewline:<n>"
BELL_BODY_BLOCK = "crewline-bell-body"
# Message metadata event types: which crewline object a Slack message shows.
MESSAGE_EVENT = "crewline_message"  # a row or card; payload {"key": object key}
THREAD_EVENT = "crewline_thread"  # a member thread's root; payload {"member": slug}
BELL_EVENT = "crewline_bell"  # a bell; payload {"key": group key}

SECTION_LIMIT = 3000
BUTTON_TEXT_LIMIT = 75
BUTTONS_PER_BLOCK = 25
MAX_BLOCKS = 50
HOME_MEMBERS = 90  # a home view holds 100 blocks

_ICONS = (
    ":robot_face:",
    ":satellite_antenna:",
    ":compass:",
    ":telescope:",
    ":hammer_and_wrench:",
    ":mag:",
    ":rocket:",
    ":gear:",
    ":bulb:",
    ":owl:",
    ":fox_face:",
    ":octopus:",
    ":seedling:",
    ":hourglass_flowing_sand:",
)
_FENCE = re.compile(r"^\s*```")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\[([^\]\n]+)\]\(((?:https?|mailto):[^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+")
_ITALIC = re.compile(r"(?<![*\w])\*(?![*\s])(.+?)(?<![*\s])\*(?![*\w])")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")


def escape(text: str) -> str:
    """Escape the three characters Slack reads as control sequences in mrkdwn."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    """Common markdown in Slack's mrkdwn: bold, italics, strike, links, headings, lists, code."""
    lines: list[str] = []
    in_fence = False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            lines.append(line.strip())
        elif in_fence:
            lines.append(escape(line))
        else:
            lines.append(_line_to_mrkdwn(line))
    return "\n".join(lines)


def _line_to_mrkdwn(line: str) -> str:
    heading = _HEADING.match(line)
    if heading:
        return f"*{_inline(heading[1])}*"
    bullet = _BULLET.match(line)
    if bullet:
        return f"{bullet[1]}• {_inline(line[bullet.end() :])}"
    return _inline(line)


def _inline(text: str) -> str:
    """Inline markup outside code spans; code spans are kept verbatim (escaped)."""
    parts: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_styled(text[last : span.start()]))
        parts.append(f"`{escape(span[2])}`")
        last = span.end()
    parts.append(_styled(text[last:]))
    return "".join(parts)


def _styled(text: str) -> str:
    pieces: list[str] = []
    last = 0
    for link in _LINK.finditer(text):
        pieces.append(_emphasis(escape(text[last : link.start()])))
        url = link[2].replace("|", "%7C").replace(">", "%3E").replace("<", "%3C")
        pieces.append(f"<{url}|{_emphasis(escape(link[1]))}>")
        last = link.end()
    pieces.append(_emphasis(escape(text[last:])))
    return "".join(pieces)


def _emphasis(text: str) -> str:
    text = _ITALIC.sub(r"_\1_", text)
    text = _BOLD.sub(lambda m: f"*{m[1] or m[2]}*", text)
    return _STRIKE.sub(r"~\1~", text)


def _sections(mrkdwn: str, *, block_id: str | None = None) -> list[JsonDict]:
    """Section blocks of at most 3000 characters, split at line ends where possible."""
    chunks: list[str] = []
    rest = mrkdwn
    while len(rest) > SECTION_LIMIT:
        cut = rest.rfind("\n", 0, SECTION_LIMIT)
        if cut <= 0:
            cut = rest.rfind(" ", 0, SECTION_LIMIT)
        if cut <= 0:
            cut = SECTION_LIMIT
        chunks.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    chunks.append(rest or " ")
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": chunk}} for chunk in chunks]
    if block_id is not None:
        for n, block in enumerate(blocks):
            block["block_id"] = block_id if n == 0 else f"{block_id}-{n}"
    return blocks


def _context(mrkdwn: str) -> JsonDict:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": mrkdwn}]}


def _label(text: str) -> str:
    return text if len(text) <= BUTTON_TEXT_LIMIT else text[: BUTTON_TEXT_LIMIT - 1] + "…"


def _buttons(buttons: Sequence[Button]) -> list[JsonDict]:
    """The card's answers in their actions block(s), then the concierge's Send / Edit /
    Dismiss in a block of their own (default style: secondary beside the answers). Only the
    answer the concierge's suggestion names is drawn ``primary``."""
    answers = [b for b in buttons if b.role != "control"]
    controls = [b for b in buttons if b.role == "control"]
    blocks = _action_blocks(answers, "crewline-actions", offset=0)
    if controls:
        blocks += _action_blocks(controls, "crewline-controls", offset=len(answers))
    return blocks


def _action_blocks(buttons: Sequence[Button], name: str, *, offset: int) -> list[JsonDict]:
    blocks = []
    for first in range(0, len(buttons), BUTTONS_PER_BLOCK):
        elements = []
        for n, button in enumerate(buttons[first : first + BUTTONS_PER_BLOCK]):
            element: JsonDict = {
                "type": "button",
                "action_id": f"{ACTION_PREFIX}{offset + first + n}",
                "text": {"type": "plain_text", "text": _label(button.label), "emoji": False},
                "value": button.payload,
            }
            if button.recommended and button.role != "control":
                element["style"] = "primary"
            elements.append(element)
        blocks.append({"type": "actions", "block_id": f"{name}-{first}", "elements": elements})
    return blocks


def local_time(moment: datetime) -> str:
    """Slack's date token: each reader sees the time in their own zone; the core's UTC words
    are the fallback Slack requires (shown where the token cannot be rendered)."""
    return f"<!date^{int(moment.timestamp())}^{{date_short_pretty}} at {{time}}|{in_words(moment)}>"


def message_text(message: OutboundMessage) -> str:
    """The notification / fallback text of a row or card: its whole text, in mrkdwn."""
    return to_mrkdwn(message.text)


def message_blocks(message: OutboundMessage) -> list[JsonDict]:
    """A row or card: its text, with the times it names in each reader's zone, its buttons."""
    blocks = _sections(localize(message_text(message), message.times, local_time))
    if message.buttons and not message.settled:
        blocks.extend(_buttons(message.buttons))
    return blocks[:MAX_BLOCKS]


def rewound_text(mrkdwn: str) -> str:
    """A message's text struck through line by line (mrkdwn strikes do not span lines)."""
    return "\n".join(f"~{line}~" if line.strip() else line for line in mrkdwn.splitlines())


def rewound_blocks(mrkdwn: str) -> list[JsonDict]:
    """A message whose row a rewind removed: struck through and labelled, without buttons."""
    return [
        *_sections(rewound_text(mrkdwn)),
        _context("Rewound: this is no longer part of the conversation."),
    ]


def metadata(event_type: str, **payload: str) -> JsonDict:
    """Message metadata naming the crewline object the message shows."""
    return {"event_type": event_type, "event_payload": payload}


def icon_for(author: str) -> str:
    """A stable emoji per author, so each member's messages are recognisable at a glance."""
    if author == "crewline":
        return ":information_source:"
    digest = hashlib.sha256(author.encode()).digest()
    return _ICONS[digest[0] % len(_ICONS)]


def root_status(entry: RosterEntry | None) -> str:
    """What a thread root says about its member: only whether it needs you.

    Counts are on the App Home: a root that changed with every count would cost a
    ``chat.update`` for each escalation.
    """
    return "needs you" if entry is not None and entry.needs_you else "all clear"


def concierge_line(entry: RosterEntry | None) -> str | None:
    """The concierge's answer of the last minute as a status line (SPEC §4), its time as
    Slack's ``{ago}`` token so it stays true in each reader's view; None when there is none.
    """
    if entry is None or entry.concierge_answer is None:
        return None
    at = entry.concierge_answer.at
    return entry.concierge_status(f"<!date^{int(at.timestamp())}^{{ago}}|{in_words(at)}>", escape)


def root_drawn(status: str, concierge: str | None) -> str:
    """What a root shows, as one string: compared to skip a redraw that would change nothing."""
    return status if concierge is None else f"{status}\n{concierge}"


def root_text(name: str, status: str, concierge: str | None = None) -> str:
    return f"{escape(name)}: {root_drawn(status, concierge)}"


def root_blocks(name: str, status: str, concierge: str | None = None) -> list[JsonDict]:
    """A member thread's root: its name and status, the concierge's answer of the last
    minute under them; everything of the member is below it."""
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": f"*{escape(name)}* · {status}"}},
        *([_context(concierge)] if concierge is not None else []),
        _context(
            f"{escape(name)}'s thread: its messages and requests are the replies here. "
            "Answer a request with its buttons or by replying in this thread."
        ),
    ]


def bell_text(bell: Bell) -> str:
    return f"{escape(bell.title)}: {escape(bell.body)}"


def bell_blocks(bell: Bell, *, thread_link: str | None) -> list[JsonDict]:
    """The bell of one goal group: its title, its body in words, a link to the thread."""
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": f"*{escape(bell.title)}*"}},
        *_sections(escape(bell.body), block_id=BELL_BODY_BLOCK),
    ]
    if thread_link:
        blocks.append(_context(f"<{thread_link}|Open the thread>"))
    return blocks


def home_view(roster: Sequence[RosterEntry], *, links: Mapping[str, str]) -> JsonDict:
    """The App Home: every member, whether it needs you, its open requests, its thread."""
    blocks: list[JsonDict] = [
        {"type": "header", "text": {"type": "plain_text", "text": "Your crew"}}
    ]
    if not roster:
        blocks.append(
            {
                "type": "section",
                "text": {
                    "type": "mrkdwn",
                    "text": (
                        "No members yet. Add one with `crewline member add SLUG --name NAME"
                        " --owner slack:YOUR_USER_ID --transport slack`."
                    ),
                },
            }
        )
    for entry in roster[:HOME_MEMBERS]:
        if entry.needs_you:
            state = f":large_orange_circle: *needs you* · {entry.open_count} open"
        else:
            state = ":white_check_mark: all clear"
        line = f"*{escape(entry.name)}* (`{entry.slug}`) · {state}"
        link = links.get(entry.slug)
        if link:
            line += f" · <{link}|open the thread>"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": line}})
        concierge = concierge_line(entry)
        if concierge is not None:
            blocks.append(_context(concierge))
    if len(roster) > HOME_MEMBERS:
        blocks.append(_context(f"…and {len(roster) - HOME_MEMBERS} more: `/roster` lists all."))
    return {"type": "home", "blocks": blocks}
