"""Reading Slack payloads into crewline's human events: pure functions, no SDK, no I/O.

Thread refs are ``<channel>:<root ts>`` (every member thread is a thread in the owner's DM
with the app) and message refs ``<channel>:<ts>``, so a reply's ``thread_ts`` maps straight
back to the thread crewline opened. Whether the person may do what they did is the core's
decision; these functions only say what was done, where, and by whom.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from crewline.models import HumanClick, HumanCommand, HumanEdit, HumanEvent, HumanMessage

__all__ = [
    "COMMANDS",
    "EDIT_CALLBACK",
    "FORK_CALLBACK",
    "FORK_SHORTCUT",
    "REWIND_SHORTCUT",
    "edit_modal",
    "fork_modal",
    "from_mrkdwn",
    "message_ref",
    "order_key",
    "parse_click",
    "parse_edit_submission",
    "parse_fork_submission",
    "parse_message",
    "parse_shortcut",
    "parse_slash_command",
    "payload_teams",
    "split_ref",
    "text_command",
    "thread_ref",
]

# The commands crewline knows, typed as slash commands at the DM root or, because Slack
# refuses slash commands inside threads, as plain words in a member's thread.
COMMANDS = frozenset({"concierge", "roster", "rewind", "regenerate", "reset", "fork", "help"})
# Destructive with no argument to tell them from an answer: a command only with the slash.
_SLASHED_ONLY = frozenset({"regenerate", "reset", "fork"})
# Bare words that are a command only when they are the whole message, so an answer that
# merely starts with "help" is still an answer.
_ALONE = frozenset({"roster", "help"})
_HUMAN_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})
_ANGLE = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")


def thread_ref(channel: str, ts: str) -> str:
    return f"{channel}:{ts}"


message_ref = thread_ref


def split_ref(ref: str) -> tuple[str, str]:
    """``(channel, ts)`` of a thread or message ref."""
    channel, sep, ts = ref.partition(":")
    if not sep or not channel or not ts:
        raise ValueError(f"not a Slack ref (CHANNEL:TS): {ref!r}")
    return channel, ts


def from_mrkdwn(text: str) -> str:
    """What a person typed, from Slack's encoding: links and mentions as text, unescaped."""

    def plain(match: re.Match[str]) -> str:
        target, label = match[1], match[2]
        if label:
            return label
        if target.startswith(("@", "#")):
            return target
        if target.startswith("!"):
            return "@" + target[1:].split("^")[0]
        return target

    return _ANGLE.sub(plain, text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def text_command(text: str) -> tuple[str, tuple[str, ...]] | None:
    """A command typed as text: ``/roster``, ``roster``, ``concierge undo``, ``/crew help``."""
    words = text.split()
    if not words:
        return None
    first = words[0].lower()
    slashed = first.startswith("/")
    name = first.removeprefix("/")
    if slashed and name == "crew":
        words = words[1:] or ["help"]
        name = words[0].lower().removeprefix("/")
    args = tuple(words[1:])
    if name not in COMMANDS:
        return None
    if not slashed and (
        name in _SLASHED_ONLY
        or (name in _ALONE and args)
        or (name == "concierge" and not args)
        or (name == "rewind" and len(args) > 1)
    ):
        return None
    return name, args


def parse_message(event: Mapping[str, Any], *, transport: str, event_id: str) -> HumanEvent | None:
    """A ``message`` event in a DM: a message, a typed command or an edit; None to ignore.

    Ignored: other bots (and this app's own messages and redraws), channels other than
    DMs, edits that did not change the text (Slack also sends ``message_changed`` when a
    thread gets a reply or a link unfurls), deletions (crewline has no deletion event:
    the transcript keeps what was said), and every other subtype.
    """
    if event.get("type") != "message" or event.get("channel_type") != "im":
        return None
    channel = str(event.get("channel") or "")
    subtype = event.get("subtype")
    if subtype == "message_changed":
        return _edit(event, channel, transport=transport, event_id=event_id)
    if subtype not in _HUMAN_SUBTYPES or event.get("bot_id") or not channel:
        return None
    user, ts = event.get("user"), event.get("ts")
    if not isinstance(user, str) or not isinstance(ts, str):
        return None
    text = from_mrkdwn(str(event.get("text") or ""))
    root = event.get("thread_ts")
    thread = thread_ref(channel, root) if isinstance(root, str) and root != ts else None
    command = text_command(text)
    if command is not None:
        return HumanCommand(
            transport=transport,
            event_id=event_id,
            user_id=user,
            thread=thread,
            name=command[0],
            args=command[1],
        )
    return HumanMessage(
        transport=transport,
        event_id=event_id,
        user_id=user,
        thread=thread,
        text=text,
        message_ref=message_ref(channel, ts),
    )


def _edit(
    event: Mapping[str, Any], channel: str, *, transport: str, event_id: str
) -> HumanEdit | None:
    edited, before = event.get("message"), event.get("previous_message")
    if not isinstance(edited, Mapping) or edited.get("bot_id") or not channel:
        return None
    user, ts = edited.get("user"), edited.get("ts")
    if not isinstance(user, str) or not isinstance(ts, str):
        return None
    text = str(edited.get("text") or "")
    if isinstance(before, Mapping) and str(before.get("text") or "") == text:
        return None
    root = edited.get("thread_ts")
    return HumanEdit(
        transport=transport,
        event_id=event_id,
        user_id=user,
        thread=thread_ref(channel, root) if isinstance(root, str) and root != ts else None,
        message_ref=message_ref(channel, ts),
        text=from_mrkdwn(text),
    )


def parse_click(body: Mapping[str, Any], *, transport: str) -> HumanClick | None:
    """A ``block_actions`` button press; its ``value`` is passed on as the untrusted payload."""
    actions = body.get("actions")
    user = body.get("user")
    if not isinstance(actions, list) or not actions or not isinstance(user, Mapping):
        return None
    action = actions[0]
    user_id = user.get("id")
    if not isinstance(action, Mapping) or not isinstance(user_id, str):
        return None
    container = body.get("container") if isinstance(body.get("container"), Mapping) else {}
    assert isinstance(container, Mapping)
    channel = container.get("channel_id") or _get(body, "channel", "id")
    root = container.get("thread_ts")
    thread = (
        thread_ref(channel, root) if isinstance(channel, str) and isinstance(root, str) else None
    )
    # An interaction is not retried over HTTP, but a Socket Mode envelope that was not
    # acknowledged in time is redelivered with the same trigger: the core drops the second.
    trigger = body.get("trigger_id") or f"{action.get('action_ts')}:{user_id}"
    value = action.get("value")
    return HumanClick(
        transport=transport,
        event_id=f"click:{trigger}",
        user_id=user_id,
        thread=thread,
        payload=value if isinstance(value, str) else "",
    )


REWIND_SHORTCUT = "rewind_to_here"  # the message shortcut's callback_id (the manifest's)
FORK_SHORTCUT = "fork_from_here"  # another; it opens FORK_CALLBACK's modal for the new slug
FORK_CALLBACK = "crewline:fork"
_FORK_BLOCK, _FORK_ACTION = "slug", "slug"


def parse_shortcut(body: Mapping[str, Any], *, transport: str) -> HumanCommand | None:
    """The "Rewind to here" message shortcut: a /rewind to the message it was used on."""
    if body.get("type") != "message_action" or body.get("callback_id") != REWIND_SHORTCUT:
        return None
    user_id = _get(body, "user", "id")
    channel = _get(body, "channel", "id")
    message = body.get("message")
    if not isinstance(user_id, str) or not isinstance(channel, str):
        return None
    if not isinstance(message, Mapping) or not isinstance(message.get("ts"), str):
        return None
    root = message.get("thread_ts")
    return HumanCommand(
        transport=transport,
        event_id=f"shortcut:{body.get('trigger_id') or message['ts']}",
        user_id=user_id,
        thread=thread_ref(channel, root) if isinstance(root, str) else None,
        name="rewind",
        message_ref=message_ref(channel, message["ts"]),
    )


def fork_modal(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The "Fork from here" shortcut asks for the new member's slug in a modal, which
    carries the message it was used on (``private_metadata``); None for a foreign payload."""
    if body.get("type") != "message_action" or body.get("callback_id") != FORK_SHORTCUT:
        return None
    channel, message = _get(body, "channel", "id"), body.get("message")
    if not isinstance(channel, str) or not isinstance(message, Mapping):
        return None
    ts, root = message.get("ts"), message.get("thread_ts")
    if not isinstance(ts, str):
        return None
    where = {
        "thread": thread_ref(channel, root) if isinstance(root, str) else None,
        "message": message_ref(channel, ts),
        "channel": channel,
    }
    return {
        "type": "modal",
        "callback_id": FORK_CALLBACK,
        "title": {"type": "plain_text", "text": "Fork from here"},
        "submit": {"type": "plain_text", "text": "Fork"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "private_metadata": json.dumps(where),
        "blocks": [
            {
                "type": "input",
                "block_id": _FORK_BLOCK,
                "label": {"type": "plain_text", "text": "The new member's slug"},
                "hint": {
                    "type": "plain_text",
                    "text": "a-z, 0-9 and dashes; its conversation is a copy up to this message",
                },
                "element": {
                    "type": "plain_text_input",
                    "action_id": _FORK_ACTION,
                    "max_length": 64,
                },
            }
        ],
    }


def parse_fork_submission(
    body: Mapping[str, Any], *, transport: str
) -> tuple[HumanCommand, str] | None:
    """The fork a "Fork from here" modal asks for (``/fork SLUG`` on its message), and the
    DM channel to answer in."""
    submitted = _modal_input(body, _FORK_BLOCK, _FORK_ACTION)
    if submitted is None:
        return None
    event_id, user_id, meta, value = submitted
    message, thread = meta.get("message"), meta.get("thread")
    if not isinstance(message, str):
        return None
    command = HumanCommand(
        transport=transport,
        event_id=event_id,
        user_id=user_id,
        thread=thread if isinstance(thread, str) else None,
        name="fork",
        args=(value.strip(),),
        message_ref=message,
    )
    channel = meta.get("channel")
    return command, channel if isinstance(channel, str) else ""


def parse_slash_command(form: Mapping[str, Any], *, transport: str) -> HumanCommand | None:
    """``/crew roster``, ``/concierge undo``, ``/roster``: the command and its words."""
    command, user_id = form.get("command"), form.get("user_id")
    if not isinstance(command, str) or not isinstance(user_id, str):
        return None
    words = str(form.get("text") or "").split()
    name = command.lower().removeprefix("/")
    if name == "crew":
        words = words or ["help"]
        name = words[0].lower().removeprefix("/")
        words = words[1:]
    trigger = form.get("trigger_id") or f"{form.get('channel_id')}:{command}:{form.get('text')}"
    return HumanCommand(
        transport=transport,
        event_id=f"command:{trigger}",
        user_id=user_id,
        thread=None,
        name=name,
        args=tuple(words),
    )


def order_key(body: Mapping[str, Any]) -> str:
    """The channel a request happened in: requests of one channel are handled in order."""
    for found in (
        _get(body, "event", "channel"),
        _get(body, "container", "channel_id"),
        _get(body, "channel", "id"),
        body.get("channel_id"),
    ):
        if isinstance(found, str) and found:
            return found
    return ""


def payload_teams(body: Mapping[str, Any]) -> set[str]:
    """Every workspace id a payload names: all of them must be this app's workspace."""
    return set(_team_ids(body))


def _team_ids(body: Mapping[str, Any]) -> Iterator[str]:
    candidates: list[object] = [
        body.get("team_id"),
        _get(body, "team", "id"),
        _get(body, "user", "team_id"),
        _get(body, "event", "team")
        if isinstance(body.get("event"), Mapping) and body["event"].get("type") == "message"
        else None,
    ]
    authorizations = body.get("authorizations")
    if isinstance(authorizations, list):
        candidates.extend(a.get("team_id") for a in authorizations if isinstance(a, Mapping))
    for candidate in candidates:
        if isinstance(candidate, str) and candidate:
            yield candidate


def _get(body: Mapping[str, Any], outer: str, inner: str) -> object:
    value = body.get(outer)
    return value.get(inner) if isinstance(value, Mapping) else None


EDIT_CALLBACK = "crewline:edit"  # the concierge's Edit modal
_EDIT_BLOCK, _EDIT_ACTION = "reply", "text"


def edit_modal(text: str, *, thread: str | None, record: str, channel: str) -> dict[str, Any]:
    """The concierge's Edit: a modal whose one input holds the suggestion, to change and send.

    ``private_metadata`` carries where the reply goes and which record it answers."""
    return {
        "type": "modal",
        "callback_id": EDIT_CALLBACK,
        "title": {"type": "plain_text", "text": "Edit the reply"},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "private_metadata": json.dumps({"thread": thread, "record": record, "channel": channel}),
        "blocks": [
            {
                "type": "input",
                "block_id": _EDIT_BLOCK,
                "label": {"type": "plain_text", "text": "Your reply"},
                "element": {
                    "type": "plain_text_input",
                    "action_id": _EDIT_ACTION,
                    "multiline": True,
                    "initial_value": text[:3000],
                },
            }
        ],
    }


def parse_edit_submission(
    body: Mapping[str, Any], *, transport: str
) -> tuple[HumanMessage, str] | None:
    """The reply an Edit modal sends (naming the record it answers), and the DM channel."""
    submitted = _modal_input(body, _EDIT_BLOCK, _EDIT_ACTION)
    if submitted is None:
        return None
    event_id, user_id, meta, value = submitted
    record, thread, channel = meta.get("record"), meta.get("thread"), meta.get("channel")
    if not isinstance(record, str):
        return None
    message = HumanMessage(
        transport=transport,
        event_id=event_id,
        user_id=user_id,
        thread=thread if isinstance(thread, str) else None,
        text=value,
        escalation_id=record,
    )
    return message, channel if isinstance(channel, str) else ""


def _modal_input(
    body: Mapping[str, Any], block: str, action: str
) -> tuple[str, str, dict[str, Any], str] | None:
    """A modal's submission as its parsers read it: its event id, the sender, the private
    metadata it was opened with, and the text typed into ``block``'s ``action``; None when
    any of them is missing or malformed."""
    view, user = body.get("view"), body.get("user")
    if not isinstance(view, Mapping) or not isinstance(user, Mapping):
        return None
    try:
        meta = json.loads(str(view.get("private_metadata") or ""))
        value = view["state"]["values"][block][action]["value"]
    except (ValueError, KeyError, TypeError):
        return None
    user_id = user.get("id")
    if not isinstance(meta, dict) or not isinstance(user_id, str) or not isinstance(value, str):
        return None
    return f"view:{view.get('id')}:{view.get('hash', '')}", user_id, meta, value
