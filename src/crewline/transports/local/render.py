"""Pure functions: the view as the page's JSON, markdown as safe HTML, composer text parsed.

Nothing here does I/O; the web app and the test harness call the same functions, so what a
test reads is exactly what the page is sent.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from crewline.moments import in_words, localize
from crewline.transports.local.view import InboxView, ShownBell, ShownMessage

__all__ = [
    "ComposerCommand",
    "ComposerText",
    "bell_json",
    "markdown_html",
    "message_json",
    "parse_composer",
    "state_json",
    "thread_json",
]


# --- the composer ----------------------------------------------------------------------------

_COMMAND = re.compile(r"^/(?P<name>[A-Za-z][A-Za-z0-9_-]{0,31})(?:\s+(?P<args>.*))?$", re.DOTALL)


@dataclass(frozen=True, kw_only=True, slots=True)
class ComposerCommand:
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class ComposerText:
    text: str


def parse_composer(text: str) -> ComposerCommand | ComposerText:
    """``/roster`` and ``/concierge answer routine`` are commands; anything else is a reply.

    A line starting with ``//`` is sent as text with one slash removed, so a reply can still
    begin with a slash.
    """
    stripped = text.strip()
    if stripped.startswith("//"):
        return ComposerText(text=stripped[1:])
    match = _COMMAND.fullmatch(stripped)
    if match is None:
        return ComposerText(text=text)
    return ComposerCommand(name=match["name"].lower(), args=tuple((match["args"] or "").split()))


# --- markdown, safely --------------------------------------------------------------------------

_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.DOTALL)
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?![\w*])")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^\s)]+)\)")
_PLACEHOLDER = "\x00{}\x00"
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|(?P<number>\d{1,9})[.)])\s+(?P<text>.*)$")


def markdown_html(text: str) -> str:
    """The markdown agents write (paragraphs, line breaks, lists, ``code``, fences, **bold**,
    *italic*, [links](https://…)) as HTML. Everything is escaped first, so no tag or
    attribute an agent writes ever reaches the page; links are http(s) only."""
    kept: list[str] = []
    text = text.replace("\x00", "")

    def keep(fragment: str) -> str:
        kept.append(fragment)
        return _PLACEHOLDER.format(len(kept) - 1)

    text = _FENCE.sub(lambda m: keep(f"<pre><code>{html.escape(m[1])}</code></pre>"), text)
    text = _CODE.sub(lambda m: keep(f"<code>{html.escape(m[1])}</code>"), text)
    text = html.escape(text, quote=True)
    text = _LINK.sub(
        lambda m: keep(f'<a href="{m[2]}" rel="noopener noreferrer" target="_blank">{m[1]}</a>'),
        text,
    )
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    text = _ITALIC.sub(r"<em>\1</em>", text)
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    body = "".join(_blocks(p) for p in paragraphs)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m[1])], body)


def _blocks(paragraph: str) -> str:
    """One paragraph of escaped text: its lines, with runs of list items as real lists."""
    out: list[str] = []
    lines: list[str] = []
    items: list[str] = []
    ordered: str | None = None  # the first number of an ordered run; None for bullets

    def flush_lines() -> None:
        if lines:
            out.append(f"<p>{'<br>'.join(lines)}</p>")
            lines.clear()

    def flush_items() -> None:
        if items:
            listed = "".join(f"<li>{item}</li>" for item in items)
            if ordered is None:
                out.append(f"<ul>{listed}</ul>")
            else:
                start = "" if ordered == "1" else f' start="{int(ordered)}"'
                out.append(f"<ol{start}>{listed}</ol>")
            items.clear()

    for line in paragraph.split("\n"):
        item = _LIST_ITEM.match(line)
        if item is not None:
            flush_lines()
            if items and (item["number"] is None) != (ordered is None):
                flush_items()
            if not items:
                ordered = item["number"]
            items.append(item["text"])
        elif items and line[:1] in (" ", "\t") and line.strip():
            items[-1] += "<br>" + line.strip()  # an indented line continues its item
        else:
            flush_items()
            lines.append(line)
    flush_lines()
    flush_items()
    return "".join(out)


def _moment_html(moment: datetime, *, deadline: datetime | None) -> str:
    """A time the page shows in the reader's zone; the UTC words stay until the script runs
    (and as the tooltip). The open deadline also carries its countdown."""
    iso = moment.isoformat()
    extra = f' data-deadline="{iso}"' if moment == deadline else ""
    return f'<time class="moment" datetime="{iso}"{extra}>{in_words(moment)}</time>'


# --- the page's JSON ---------------------------------------------------------------------------


def message_json(shown: ShownMessage) -> dict[str, Any]:
    current = shown.current
    return {
        "ref": shown.ref,
        "kind": "typed" if shown.typed_by is not None else current.kind,
        "author": current.author,
        "text": current.text,
        "html": localize(
            markdown_html(current.text),
            current.times,
            lambda moment: _moment_html(moment, deadline=current.deadline),
        ),
        "buttons": [
            {
                "label": b.label,
                "payload": b.payload,
                "role": b.role,
                "recommended": b.recommended,
            }
            for b in current.buttons
        ],
        "settled": current.settled,
        "deadline": current.deadline.isoformat() if current.deadline else None,
        "at": shown.at.isoformat(),
        "mine": shown.typed_by is not None,
        "edited": shown.edited_at is not None,
        "notice": shown.notice,
        "rewound": shown.rewound,
        "versions": len(shown.versions),
    }


def thread_json(view: InboxView, thread: str) -> dict[str, Any]:
    shown = view.threads.get(thread)
    return {
        "thread": thread,
        "name": shown.name if shown else thread,
        "version": shown.changed if shown else 0,
        "messages": [message_json(m) for m in view.thread_messages(thread)],
    }


def bell_json(bell: ShownBell) -> dict[str, Any]:
    current = bell.current
    return {
        "group_key": bell.group_key,
        "member": current.member,
        "title": current.title,
        "body": current.body,
        "count": current.count,
        "at": bell.at.isoformat(),
        "version": bell.changed,
        "versions": [v.body for v in bell.versions],
    }


def state_json(view: InboxView, *, user: str) -> dict[str, Any]:
    """Everything but the messages: the roster (with each thread's version), the bells."""
    members: dict[str, dict[str, Any]] = {}
    for entry in view.roster:
        members[entry.slug] = {
            "slug": entry.slug,
            "name": entry.name,
            "needs_you": entry.needs_you,
            "pending_escalations": entry.pending_escalations,
            "open": entry.open_count,
            # The concierge's answer of the last minute: its line, and its time for the page.
            "concierge": entry.concierge_status(in_words(entry.concierge_answer.at))
            if entry.concierge_answer is not None
            else None,
            "concierge_at": entry.concierge_answer.at.isoformat()
            if entry.concierge_answer is not None
            else None,
        }
    # Once a roster is drawn, the page shows exactly its members: a member removed, or owned
    # by someone else, is off the page with its bells, though its thread stays in the view.
    # Before the first roster (a fresh inbox's first moments), every opened thread shows.
    drawn = view.roster_changed > 0
    for thread in [] if drawn else view.threads.values():
        members.setdefault(
            thread.ref,
            {
                "slug": thread.ref,
                "name": thread.name,
                "needs_you": False,
                "pending_escalations": 0,
                "open": 0,
            },
        )
    for slug, member in members.items():
        opened = view.threads.get(slug)
        member["thread_version"] = opened.changed if opened else 0
        member["messages"] = len(view.thread_messages(slug))
    bells = sorted(
        (b for b in view.bells.values() if not drawn or b.current.member in members),
        key=lambda b: b.at,
        reverse=True,
    )
    return {
        "version": view.version,
        "user": user,
        "members": list(members.values()),
        "bells": [bell_json(b) for b in bells],
    }
