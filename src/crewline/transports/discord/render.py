"""Discord's side of crewline's words: pure functions from core values to message parts, and
from Discord payload fields back to human-event parts. No I/O and no discord.py here.

Discord's limits shape everything: content 2000 characters, an embed description 4096, a
button label 80, a ``custom_id`` 1..100, a thread name 100, a nonce 25, five buttons a row.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from crewline.models import Bell, Button, OutboundMessage, Receipt, RosterEntry
from crewline.moments import localize

__all__ = [
    "CUSTOM_ID_TEMPLATE",
    "EDIT_INPUT_ID",
    "FORK_INPUT_ID",
    "STATUS_HEADER",
    "ButtonSpec",
    "EmbedSpec",
    "RenderedMessage",
    "bell_message",
    "command_event",
    "commands_differ",
    "edit_event_id",
    "edit_modal_id",
    "edit_submission",
    "fit",
    "fork_modal_id",
    "fork_submission",
    "is_status_message",
    "jump_url",
    "late_edit_notice",
    "nonce_for",
    "refusal_reply",
    "slug_from_thread_name",
    "status_content",
    "thread_message",
    "thread_name",
    "timestamp",
]

CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256
LABEL_LIMIT = 80
CUSTOM_ID_LIMIT = 100
THREAD_NAME_LIMIT = 100
NONCE_LIMIT = 25
MAX_BUTTONS = 25  # five rows of five
CUT = "…"

# Every component interaction on crewline's messages is routed to one DynamicItem, whatever
# its custom_id: the core judges the payload (a foreign or forged one is refused and audited),
# so no press ever ends in Discord's "This interaction failed".
CUSTOM_ID_TEMPLATE = r"(?s)(?P<payload>.*)"

STATUS_HEADER = "**crewline status**"
# Receipt codes a thread reply would only add noise for: a redelivery was answered the first
# time, and a thread that is not a member's is not crewline's to talk in.
_QUIET_CODES = frozenset({"duplicate_event", "unknown_thread"})
_SLUG_IN_NAME = re.compile(r"\(([a-z0-9][a-z0-9-]{0,62})\)\Z")
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]])")


@dataclass(frozen=True, kw_only=True, slots=True)
class ButtonSpec:
    label: str
    custom_id: str
    # "primary" only for the answer the concierge's suggestion names; "secondary" for the
    # other answers and for the concierge's Send / Edit / Dismiss, which sit on a row of
    # their own (``row``) below the answers.
    style: str = "secondary"
    row: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class EmbedSpec:
    description: str
    title: str | None = None
    url: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class RenderedMessage:
    """One Discord message: content, at most one embed, buttons (none: no components)."""

    content: str | None
    embed: EmbedSpec | None = None
    buttons: tuple[ButtonSpec, ...] = ()


def escape(text: str) -> str:
    """Text shown literally inside Discord markdown (names, titles)."""
    return _MARKDOWN.sub(r"\\\1", text)


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, keeping its last paragraphs when it can.

    A card ends with the lines that say what to do ("To answer, tap a button …", "Answered:
    …"); those matter more than the end of a long first paragraph, so the first paragraph is
    the one that is cut.
    """
    if len(text) <= limit:
        return text
    first, sep, rest = text.partition("\n\n")
    room = limit - len(rest) - len(sep) - len(CUT)
    if sep and room > 0:
        return first[:room] + CUT + sep + rest
    return text[: limit - len(CUT)] + CUT


def thread_message(message: OutboundMessage) -> RenderedMessage:
    """A row, card or question in a member's thread: the author in bold, then the text.

    Up to 2000 characters it is plain content; longer, the text moves into an embed (4096).
    A settled message has no buttons, so redrawing it removes them. The times it names are
    Discord timestamps, shown in each reader's zone; an open deadline also says how long is left.
    """
    header = f"**{escape(message.author)}**"
    deadline = None if message.settled else message.deadline
    text = localize(message.text, message.times, lambda moment: timestamp(moment, deadline))
    whole = f"{header}\n{text}"
    buttons = _laid_out(message.buttons)
    if len(whole) <= CONTENT_LIMIT:
        return RenderedMessage(content=whole, buttons=buttons)
    return RenderedMessage(
        content=header,
        embed=EmbedSpec(description=fit(text, DESCRIPTION_LIMIT)),
        buttons=buttons,
    )


def timestamp(moment: datetime, deadline: datetime | None = None) -> str:
    """Discord's timestamp markup: the reader's own zone and locale (``f``: date and time);
    the open deadline adds the relative form (``R``: "in 42 minutes"), kept live by Discord."""
    unix = int(moment.timestamp())
    return f"<t:{unix}:f> (<t:{unix}:R>)" if moment == deadline else f"<t:{unix}:f>"


def _button(label: str, payload: str, *, style: str = "secondary", row: int = 0) -> ButtonSpec:
    if not 1 <= len(payload) <= CUSTOM_ID_LIMIT:
        raise ValueError(f"a button payload must be 1..{CUSTOM_ID_LIMIT} characters: {payload!r}")
    return ButtonSpec(label=fit(label, LABEL_LIMIT) or "?", custom_id=payload, style=style, row=row)


_PER_ROW = 5


def _laid_out(buttons: Sequence[Button]) -> tuple[ButtonSpec, ...]:
    """Answers five a row, then the concierge's controls on the next row of their own; at
    most five rows (Discord's limit), answers first."""
    answers = [b for b in buttons if b.role != "control"]
    controls = [b for b in buttons if b.role == "control"]
    answer_rows = -(-len(answers) // _PER_ROW)
    if controls:
        answers = answers[: (MAX_BUTTONS // _PER_ROW - 1) * _PER_ROW]
        answer_rows = -(-len(answers) // _PER_ROW)
    laid = [
        _button(
            b.label,
            b.payload,
            style="primary" if b.recommended else "secondary",
            row=n // _PER_ROW,
        )
        for n, b in enumerate(answers[:MAX_BUTTONS])
    ]
    laid += [_button(b.label, b.payload, row=answer_rows) for b in controls[:_PER_ROW]]
    return tuple(laid)


def jump_url(guild_id: int, channel_id: int) -> str:
    """The link Discord clients open a channel or thread with."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def bell_message(
    bell: Bell, *, guild_id: int, thread_id: int | None, owner_id: str | None
) -> RenderedMessage:
    """The bell in the crew channel: the owner mentioned, a link to the thread, the words.

    The mention is in the content (mentions inside embeds never notify); the body is the
    embed's description exactly as the core wrote it, and the title links to the thread.
    """
    mention = f"<@{owner_id}>" if owner_id and owner_id.isdigit() else None
    thread = f"<#{thread_id}>" if thread_id is not None else None
    content = " ".join(part for part in (mention, thread) if part) or None
    return RenderedMessage(
        content=content,
        embed=EmbedSpec(
            title=fit(bell.title, TITLE_LIMIT),
            url=jump_url(guild_id, thread_id) if thread_id is not None else None,
            description=fit(bell.body, DESCRIPTION_LIMIT),
        ),
    )


def status_content(roster: Sequence[RosterEntry]) -> str:
    """The pinned status message: every member, whether it needs you, its open requests."""
    lines = [STATUS_HEADER]
    for entry in roster:
        state = f"needs you, {entry.open_count} open" if entry.needs_you else "all clear"
        lines.append(f"{escape(entry.name)} ({entry.slug}): {state}")
        if entry.concierge_answer is not None:
            # Discord keeps the relative time ("10 seconds ago") live in every reader's view.
            when = f"<t:{int(entry.concierge_answer.at.timestamp())}:R>"
            lines.append(f"  {entry.concierge_status(when, escape)}")
    if not roster:
        lines.append("No members yet.")
    text = "\n".join(lines)
    if len(text) <= CONTENT_LIMIT:
        return text
    kept: list[str] = []
    for index, line in enumerate(lines):
        more = f"and {len(lines) - index} more"
        if len("\n".join([*kept, line, more])) > CONTENT_LIMIT:
            return "\n".join([*kept, more])
        kept.append(line)
    return "\n".join(kept)


def is_status_message(content: str) -> bool:
    return content.startswith(STATUS_HEADER)


def thread_name(name: str, slug: str) -> str:
    """A member's thread is named "Radar (radar)": readable, and found again by its slug."""
    suffix = f" ({slug})"
    room = THREAD_NAME_LIMIT - len(suffix)
    shown = " ".join(name.split())[:room].strip() or slug
    return shown + suffix


def slug_from_thread_name(name: str) -> str | None:
    match = _SLUG_IN_NAME.search(name)
    return match[1] if match else None


def nonce_for(key: str) -> str:
    """Discord's idempotency key for the message showing ``key`` (at most 25 characters)."""
    return hashlib.sha256(key.encode()).hexdigest()[:NONCE_LIMIT]


def edit_event_id(message_id: int, edited_timestamp: str) -> str:
    """Each edit is its own event; a redelivered edit carries the same timestamp."""
    return f"{message_id}@{edited_timestamp}"


EDIT_MODAL_PREFIX = "crewline-edit:"
EDIT_INPUT_ID = "reply"  # the Edit modal's one text input
FORK_MODAL_PREFIX = "crewline-fork:"
FORK_INPUT_ID = "slug"  # the "Fork from here" modal's one text input


def edit_modal_id(record: str) -> str:
    """The Edit modal's ``custom_id``: it names the record its Submit answers, so whichever
    process receives the submit (one restarted since the modal opened, too) can route it."""
    return _modal_id(EDIT_MODAL_PREFIX, record)


def fork_modal_id(message_ref: str) -> str:
    """The "Fork from here" modal's ``custom_id``: it names the message to fork from, so the
    submit is routed from what it carries, as the Edit modal's is."""
    return _modal_id(FORK_MODAL_PREFIX, message_ref)


def _modal_id(prefix: str, ref: str) -> str:
    custom_id = prefix + ref
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"an id too long for a modal's custom_id: {ref!r}")
    return custom_id


def edit_submission(data: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """(record, text) from a modal submit's interaction data, when it is the Edit modal's;
    None for any other modal or a malformed one. Reads only what the submit carries."""
    return _submission(data, EDIT_MODAL_PREFIX, EDIT_INPUT_ID)


def fork_submission(data: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """(message_ref, slug) from a modal submit's interaction data, when it is the "Fork from
    here" modal's; None for any other modal or a malformed one."""
    return _submission(data, FORK_MODAL_PREFIX, FORK_INPUT_ID)


def _submission(
    data: Mapping[str, Any] | None, prefix: str, input_id: str
) -> tuple[str, str] | None:
    custom_id = data.get("custom_id") if data else None
    if not isinstance(custom_id, str) or not custom_id.startswith(prefix):
        return None
    ref = custom_id.removeprefix(prefix)
    assert data is not None
    pending = list(data.get("components") or [])
    while pending:
        component = pending.pop(0)
        if not isinstance(component, Mapping):
            continue
        if component.get("custom_id") == input_id and isinstance(component.get("value"), str):
            return (ref, component["value"]) if ref else None
        pending.extend(component.get("components") or [])
        if isinstance(component.get("component"), Mapping):  # a label wrapping its input
            pending.append(component["component"])
    return None


def command_event(qualified_name: str, values: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """``/concierge answer routine`` -> ("concierge", ("answer", "routine"))."""
    name, *subcommands = qualified_name.split()
    return name, (*subcommands, *values)


def late_edit_notice(suggestion: str) -> str:
    """What an Edit press answered after its deferral says: Discord opens a modal only as an
    interaction's first response, so the box did not open; the suggestion is still shown."""
    head = "The reply box could not open in time: press Edit again. The suggestion: "
    return head + fit(escape(suggestion), CONTENT_LIMIT - len(head))


def refusal_reply(receipt: Receipt) -> str | None:
    """What to say in the thread about a typed message, if anything.

    Discord has no ephemeral reply to a plain message; the member's thread is private to its
    owner, so a refusal is answered there as a reply. An accepted reply needs no words: the
    card it answered is redrawn.
    """
    notice = receipt.notice_to_post  # a repeat's was answered for the first delivery
    if receipt.accepted or not notice or receipt.code in _QUIET_CODES:
        return None
    return fit(notice, CONTENT_LIMIT)


def commands_differ(
    local: Sequence[Mapping[str, Any]], remote: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the registered commands differ from crewline's, so a sync is needed."""
    return _command_set(local) != _command_set(remote)


def _command_set(commands: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    return frozenset(repr(_command_shape(c)) for c in commands)


def _command_shape(command: Mapping[str, Any]) -> tuple[Any, ...]:
    options = command.get("options") or []
    choices = command.get("choices") or []
    return (
        command.get("name"),
        int(command.get("type") or 1),
        command.get("description") or "",
        bool(command.get("required", False)),
        tuple(sorted((str(c.get("name")), str(c.get("value"))) for c in choices)),
        tuple(_command_shape(o) for o in options),
    )
