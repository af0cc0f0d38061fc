"""Pure drawing: what crewline's messages, cards, bells and status look like on Telegram.

Every text is Telegram HTML (see :mod:`.markup`) that fits the 4096-character limit, and
every button's ``callback_data`` fits Telegram's 64 bytes; nothing here calls the platform.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crewline.errors import PermanentTransportError
from crewline.models import Bell, Button, OutboundMessage, RosterEntry
from crewline.moments import in_words
from crewline.transports.telegram.markup import escape, markdown_html, plain_text, utf16_len
from crewline.transports.telegram.refs import edit_line, hashtag

__all__ = [
    "MAX_CALLBACK_DATA",
    "MAX_TEXT",
    "REWOUND_LABEL",
    "STATUS_TITLE",
    "Keyboard",
    "bell_html",
    "chain_header",
    "check_callback_data",
    "keyboard",
    "message_html",
    "notice_html",
    "rewound_html",
    "roster_html",
    "topic_link",
]

MAX_TEXT = 4096  # UTF-16 code units, after Telegram parsed the entities
MAX_CALLBACK_DATA = 64  # bytes of UTF-8
STATUS_TITLE = "crewline · crew status"
REWOUND_LABEL = "Rewound: this is no longer part of the conversation."
_SHORT_LABEL = 14  # labels this short share a row, three at most
_ELLIPSIS = " …"


@dataclass(frozen=True, kw_only=True, slots=True)
class Keyboard:
    """An inline keyboard: rows of (label, callback_data); ``url`` buttons for links."""

    rows: tuple[tuple[Button, ...], ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # (label, url), one per row, after the buttons

    def __bool__(self) -> bool:
        return bool(self.rows or self.links)


def check_callback_data(payload: str) -> str:
    """The payload, if Telegram accepts it as ``callback_data`` (1..64 bytes of UTF-8)."""
    size = len(payload.encode("utf-8"))
    if not 1 <= size <= MAX_CALLBACK_DATA:
        raise PermanentTransportError(
            f"button payload of {size} bytes does not fit Telegram's callback_data "
            f"(1..{MAX_CALLBACK_DATA} bytes)",
            code="button_data_invalid",
        )
    return payload


def keyboard(buttons: Sequence[Button]) -> Keyboard:
    """The card's buttons: its answers (short labels side by side, three a row; long ones a
    row each), then the concierge's Send / Edit / Dismiss on a row of their own below them.
    Telegram draws every inline button alike, so no answer looks recommended."""
    for button in buttons:
        check_callback_data(button.payload)
    answers = [b for b in buttons if b.role != "control"]
    controls = tuple(b for b in buttons if b.role == "control")
    if all(len(b.label) <= _SHORT_LABEL for b in answers):
        rows = tuple(tuple(answers[i : i + 3]) for i in range(0, len(answers), 3))
    else:
        rows = tuple((b,) for b in answers)
    return Keyboard(rows=rows + ((controls,) if controls else ()))


def chain_header(name: str, slug: str) -> str:
    """The first line of a member's message in a reply chain: its name and hashtag."""
    shown = " ".join(name.split()) or slug
    return f"<b>{escape(shown)}</b> · {hashtag(slug)}"


def message_html(
    message: OutboundMessage, *, header: str | None = None, member_name: str | None = None
) -> str:
    """A row or card as Telegram HTML, shortened to fit when the text is very long.

    ``header`` heads messages of a reply chain; a row written by someone other than the
    thread's member (another member, crewline itself) names its author.
    """
    prefix = header + "\n" if header else ""
    # crewline's own words always say so; a row is only attributed when the thread's member
    # is known and did not write it (after a restart, until its next card, it may not be).
    other = message.kind == "row" and member_name is not None and message.author != member_name
    if message.kind == "notice" or other:
        prefix += f"<b>{escape(message.author)}</b>: "
    paragraphs = message.text.split("\n\n")

    def draw(parts: Sequence[str]) -> str:
        return prefix + markdown_html("\n\n".join(parts))

    text = draw(paragraphs)
    while utf16_len(text) > MAX_TEXT and paragraphs:
        # Shorten the longest paragraph (the member's message, not the card's state line)
        # as little as needed: the longest beginning of it that fits, found by bisection.
        longest = max(range(len(paragraphs)), key=lambda i: len(paragraphs[i]))
        low, high = 0, len(paragraphs[longest]) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if utf16_len(draw(_shortened(paragraphs, longest, middle))) <= MAX_TEXT:
                low = middle
            else:
                high = middle - 1
        paragraphs = _shortened(paragraphs, longest, low)
        text = draw(paragraphs)
    return text if paragraphs else _hard_cut(prefix + escape(message.text))


def rewound_html(
    message: OutboundMessage, *, header: str | None = None, member_name: str | None = None
) -> str:
    """A message of crewline's whose row a rewind removed: labelled, its words struck through.

    The words are struck as plain text (their formatting dropped), so no tag nests inside
    the strike, and shortened so that the whole, tags counted, fits Telegram's limit.
    """
    prefix = (header + "\n" if header else "") + f"<i>{escape(REWOUND_LABEL)}</i>\n"
    words = plain_text(message_html(message, member_name=member_name))
    room = MAX_TEXT - utf16_len(prefix + "<s></s>")
    if utf16_len(escape(words)) > room:
        room -= utf16_len(_ELLIPSIS)
        while utf16_len(escape(words)) > room:
            words = words[: len(words) - max(1, (utf16_len(escape(words)) - room) // 6)]
        words = words.rstrip() + _ELLIPSIS
    return f"{prefix}<s>{escape(words)}</s>"


def _shortened(paragraphs: Sequence[str], index: int, keep: int) -> list[str]:
    """The paragraphs with one cut to its first ``keep`` characters (dropped at zero)."""
    part = paragraphs[index][:keep].rstrip() + _ELLIPSIS if keep else ""
    return [p for p in (*paragraphs[:index], part, *paragraphs[index + 1 :]) if p]


def bell_html(bell: Bell) -> str:
    """A bell: its title in bold, then the body in words."""
    return _hard_cut(f"<b>{escape(bell.title)}</b>\n\n{escape(bell.body)}")


def edit_prompt_html(text: str, *, record: str, header: str | None = None) -> str:
    """The concierge's Edit: its suggestion, tap-to-copy, above the reply box it opens, and
    last the record a reply to it answers (read back from the reply: see ``edited_record``).
    """
    suggestion = text
    while True:
        lines = [header] if header else []
        lines += [
            "Edit the concierge's suggestion and send it as your reply:",
            f"<code>{escape(suggestion)}</code>",
            escape(edit_line(record)),
        ]
        drawn = "\n".join(lines)
        if utf16_len(drawn) <= MAX_TEXT:
            return drawn
        # Shortened, the suggestion gives way: the last line must stay whole to be read back.
        suggestion = suggestion[: len(suggestion) - max(1, (utf16_len(drawn) - MAX_TEXT))]


def notice_html(notice: str) -> str:
    """A receipt's notice, told to the person who acted: plain words, escaped."""
    return _hard_cut(escape(notice))


def roster_html(roster: Sequence[RosterEntry]) -> str:
    """The pinned status message: every member, whether it needs you, its open requests."""
    lines = [f"<b>{escape(STATUS_TITLE)}</b>"]
    for entry in roster:
        if entry.needs_you:
            count = entry.open_count
            state = f"needs you, {count} open" if count else "needs you"
        else:
            state = "all clear"
        lines.append(f"<b>{escape(entry.name)}</b>: {state}")
        if entry.concierge_answer is not None:
            lines.append(f"  {entry.concierge_status(in_words(entry.concierge_answer.at), escape)}")
    if not roster:
        lines.append("No members yet.")
    while utf16_len("\n".join(lines)) > MAX_TEXT:
        # Whole lines go, never half a tag; the count of those left out is said instead.
        hidden = len(roster) - (len(lines) - 2) if lines[-1].startswith("…") else 1
        lines = [*lines[: -2 if lines[-1].startswith("…") else -1], f"… and {hidden} more"]
    return "\n".join(lines)


def topic_link(chat_id: int, topic_id: int) -> str | None:
    """A t.me link to a supergroup's topic (private chats have no links)."""
    digits = str(-chat_id)
    if chat_id >= 0 or not digits.startswith("100"):
        return None
    return f"https://t.me/c/{digits[3:]}/{topic_id}"


def _hard_cut(text: str) -> str:
    """Last resort for text without formatting: cut at the limit (never inside an entity)."""
    if utf16_len(text) <= MAX_TEXT:
        return text
    cut = text
    while utf16_len(cut) > MAX_TEXT - len(_ELLIPSIS):
        cut = cut[: len(cut) - max(1, utf16_len(cut) - MAX_TEXT + len(_ELLIPSIS))]
    amp = cut.rfind("&")
    if amp != -1 and ";" not in cut[amp:]:
        cut = cut[:amp]
    return cut + _ELLIPSIS
