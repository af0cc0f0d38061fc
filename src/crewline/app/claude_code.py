"""Claude Code's permission prompts, relayed to the human's chat as a dialog.

``crewline hook claude-code`` is a Claude Code command hook for ``PermissionRequest`` and
``PreToolUse``: Claude Code writes the event as JSON on stdin and reads the decision as JSON
on stdout (field names and decision shapes as documented in Claude Code's hooks reference,
https://code.claude.com/docs/en/hooks). The prompt becomes a dialog — a question card only
the human may answer, never the concierge — showing the tool, its input (shortened, secrets
masked) and the reason the agent gave, with Allow and Deny. The hook waits a bounded time;
with no answer it denies and says why (or, if so configured, hands the decision back to
Claude Code's own prompt). It fails closed: anything but a press of Allow denies.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from crewline.client import Client
from crewline.errors import CrewlineError, InvalidInput

__all__ = [
    "EVENTS",
    "Fallback",
    "PermissionPrompt",
    "decision_json",
    "mask_secrets",
    "parse_prompt",
    "question_text",
    "relay",
]

EVENTS = ("PermissionRequest", "PreToolUse")
ALLOW, DENY = "Allow", "Deny"
MASK = "••••"
MAX_VALUE = 300
MAX_INPUT = 1500

Fallback = Literal["deny", "ask"]


@dataclass(frozen=True, kw_only=True, slots=True)
class PermissionPrompt:
    """The part of a hook event the human needs to decide on."""

    event: str
    tool: str
    tool_input: Mapping[str, Any]
    cwd: str | None = None


def parse_prompt(text: str) -> PermissionPrompt:
    """The prompt in Claude Code's hook input, or InvalidInput naming what is wrong."""
    try:
        data = json.loads(text)
    except ValueError:
        raise InvalidInput("stdin is not JSON", code="malformed_json") from None
    if not isinstance(data, dict):
        raise InvalidInput("stdin is not a JSON object", code="invalid_type")
    event = data.get("hook_event_name")
    if event not in EVENTS:
        raise InvalidInput(
            f"hook_event_name is {event!r}; this hook handles {' and '.join(EVENTS)}",
            code="unsupported_hook_event",
            field="hook_event_name",
        )
    tool, tool_input = data.get("tool_name"), data.get("tool_input", {})
    if not isinstance(tool, str) or not tool:
        raise InvalidInput("tool_name must be a non-empty string", code="missing_field")
    if not isinstance(tool_input, dict):
        raise InvalidInput("tool_input must be an object", code="invalid_type")
    cwd = data.get("cwd")
    return PermissionPrompt(
        event=event, tool=tool, tool_input=tool_input, cwd=cwd if isinstance(cwd, str) else None
    )


# --- what the human sees ----------------------------------------------------------------------

_SECRET_NAME = (
    r"(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|client[_-]?secret|credentials?)"
)
_PATTERNS = (
    # Authorization headers and bearer tokens, whatever the quoting.
    (re.compile(r"(?i)(authorization\s*[:=]\s*)(?:\"[^\"]*\"|'[^']*'|[^\n'\"]+)"), rf"\1{MASK}"),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"), rf"\1 {MASK}"),
    # Credentials inside URLs.
    (re.compile(r"(://[^/\s:@]+:)[^@\s/]+@"), rf"\1{MASK}@"),
    # Key = value and "key": "value" where the key names a secret.
    (
        re.compile(
            rf"(?i)([\"']?[\w.-]*{_SECRET_NAME}[\w.-]*[\"']?\s*[:=]\s*)(\"[^\"]*\"|'[^']*'|\S+)"
        ),
        rf"\1{MASK}",
    ),
    # --password x, --token=x, -p x style flags.
    (re.compile(rf"(?i)(--?[\w-]*{_SECRET_NAME}[\w-]*[= ])(\S+)"), rf"\1{MASK}"),
    # Environment assignments: NAME=value before a command or after export.
    (re.compile(r"\b([A-Z][A-Z0-9_]*=)(\"[^\"]*\"|'[^']*'|\S+)"), rf"\1{MASK}"),
    # Token shapes worth catching wherever they stand.
    (
        re.compile(
            r"\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}"
            r"|AKIA[0-9A-Z]{16}|crw_[so]_[A-Za-z0-9_-]{20,}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})"
        ),
        MASK,
    ),
)
_SECRET_KEY = re.compile(rf"(?i){_SECRET_NAME}")


def mask_secrets(text: str) -> str:
    """``text`` with tokens, keys, passwords, Authorization headers and env values masked."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def question_text(prompt: PermissionPrompt, *, agent: str = "Claude Code") -> str:
    """The dialog's words: the tool, the reason given, and the input, masked and shortened."""
    lines = [f"{agent} asks to use {prompt.tool}."]
    reason = prompt.tool_input.get("description")
    if isinstance(reason, str) and reason.strip():
        lines.append(f"Reason given: {_shorten(mask_secrets(reason.strip()), MAX_VALUE)}")
    shown: list[str] = []
    for key, value in prompt.tool_input.items():
        if key == "description":
            continue
        if _SECRET_KEY.search(key):
            rendered = MASK
        else:
            raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            rendered = _shorten(mask_secrets(raw), MAX_VALUE)
        shown.append(f"{key}: {rendered}")
    if shown:
        lines.append(_shorten("\n".join(shown), MAX_INPUT))
    if prompt.cwd:
        lines.append(f"In {_shorten(prompt.cwd, 200)}")
    return "\n".join(lines)


# --- the decision -----------------------------------------------------------------------------


def decision_json(prompt: PermissionPrompt, verdict: str, reason: str) -> dict[str, Any] | None:
    """What to print for ``verdict`` (allow, deny or ask); None means print nothing, which
    leaves a PermissionRequest to Claude Code's own dialog."""
    if prompt.event == "PreToolUse":
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": verdict,
                "permissionDecisionReason": reason,
            }
        }
    if verdict == "ask":
        return None
    decided: dict[str, Any] = {"behavior": verdict}
    if verdict == "deny":
        decided["message"] = reason
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decided}}


async def relay(
    client: Client, prompt: PermissionPrompt, *, timeout: float, fallback: Fallback = "deny"
) -> dict[str, Any] | None:
    """Raise the dialog, wait up to ``timeout`` seconds, and return the decision to print."""
    try:
        asked = await client.ask(question_text(prompt), options=[ALLOW, DENY], dialog=True)
        settled = await client.wait_settled(question_id=asked.question_id, timeout=timeout)
    except CrewlineError as error:
        reason = f"crewline could not relay the prompt ({error.code}): {error.message}"
        return decision_json(prompt, fallback, reason)
    if settled is None:
        outcome = "left to Claude Code's own prompt" if fallback == "ask" else "denied"
        reason = f"Nobody answered on crewline within {timeout:g} s, so it was {outcome}."
        # The note keeps the thread truthful about the card left unanswered; the decision
        # stands whether or not it could be posted.
        with contextlib.suppress(CrewlineError):
            await client.post(f"The permission prompt for {prompt.tool} timed out: {outcome}.")
        return decision_json(prompt, fallback, reason)
    answer = str(settled.body.get("answer", ""))
    if answer == ALLOW:
        return decision_json(prompt, "allow", "Allowed by the human on crewline.")
    return decision_json(
        prompt, "deny", f"Denied by the human on crewline (answer: {_shorten(answer, 200)})."
    )
