"""The Claude Code hook's pure parts: masking secrets, shortening, the decision JSON, and
the recorded inputs against the field names of Claude Code's hooks reference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewline.app.claude_code import (
    PermissionPrompt,
    decision_json,
    mask_secrets,
    parse_prompt,
    question_text,
)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("curl -H 'Authorization: Bearer abc.def.ghi123'", "abc.def.ghi123"),
        ('{"Authorization": "Basic dXNlcjpwYXNz"}', "dXNlcjpwYXNz"),
        ("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI"),
        ("DATABASE_URL=postgres://app:pa55@db/prod ./migrate", "pa55"),
        ("git clone https://bob:tok3n@github.com/x/y", "tok3n"),
        ("mysql --password=letmein -u root", "letmein"),
        ("login --token abcdef123456", "abcdef123456"),
        ('{"api_key": "k-123456"}', "k-123456"),
        ("echo sk-proj-abcdefghijklmnop1234", "sk-proj-abcdefghijklmnop1234"),
        (
            "gh auth login --with ghp_abcdefghijklmnopqrstuvwxyz12",
            "ghp_abcdefghijklmnopqrstuvwxyz12",
        ),
        (
            "CREWLINE key crw_s_abcdefghijklmnopqrstuvwxyz0123",
            "crw_s_abcdefghijklmnopqrstuvwxyz0123",
        ),
    ],
)
def test_secrets_are_masked(text: str, secret: str) -> None:
    """Each kind of secret disappears, and the mask shows where it was."""
    assert secret in text
    masked = mask_secrets(text)
    assert secret not in masked and "••••" in masked


def test_ordinary_commands_are_left_alone() -> None:
    """A command without secrets reads as it was."""
    command = "rm -rf build/ && npm run build -- --verbose"
    assert mask_secrets(command) == command


def test_long_input_is_shortened_and_secret_keys_hidden() -> None:
    """A long value ends with an ellipsis; a key that names a secret never shows its value."""
    prompt = PermissionPrompt(
        event="PreToolUse",
        tool="Write",
        tool_input={"file_path": "a.txt", "content": "x" * 5000, "password": "plain"},
    )
    text = question_text(prompt)
    assert len(text) < 800 and "…" in text
    assert "password: ••••" in text and "plain" not in text


def test_decisions_have_claude_codes_shapes() -> None:
    """PreToolUse speaks permissionDecision; PermissionRequest a decision.behavior; ask on
    a PermissionRequest prints nothing."""
    pre = PermissionPrompt(event="PreToolUse", tool="Bash", tool_input={})
    request = PermissionPrompt(event="PermissionRequest", tool="Bash", tool_input={})
    assert decision_json(pre, "ask", "r") == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "r",
        }
    }
    assert decision_json(request, "deny", "no") == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no"},
        }
    }
    assert decision_json(request, "ask", "r") is None


FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude_code"
COMMON = {"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name"}
# Each event's own fields, as Claude Code's hooks reference lists them (docs/agents/claude-code.md).
OWN = {
    "PreToolUse": {"tool_name", "tool_input", "tool_use_id"},
    "PermissionRequest": {"tool_name", "tool_input", "permission_suggestions"},
    "PostToolUse": {"tool_name", "tool_input", "tool_response", "tool_use_id"},
}


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_the_recorded_inputs_have_the_references_fields(fixture: str) -> None:
    """The recorded hook inputs the tests replay carry exactly the documented field names,
    and the two events the hook handles parse."""
    data = json.loads((FIXTURES / fixture).read_text())
    event = data["hook_event_name"]
    assert set(data) == COMMON | OWN[event], fixture
    if event in ("PreToolUse", "PermissionRequest"):
        prompt = parse_prompt(json.dumps(data))
        assert (prompt.event, prompt.tool, prompt.cwd) == (event, data["tool_name"], data["cwd"])
