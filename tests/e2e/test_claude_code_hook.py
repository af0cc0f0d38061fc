"""``crewline hook claude-code`` fed recorded Claude Code hook inputs, run as Claude Code
runs it (a subprocess, JSON on stdin, the decision JSON on stdout), against a real crewline
whose dialog card the human presses on the platform."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewline.bot.cards import parse_payload
from crewline.models import RowRole
from tests.driver import Crew
from tests.e2e.agent_cli import Ran, finish, run, start
from tests.harness import Shown

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "claude_code"


def recorded(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


async def _dialog(crew: Crew, tool: str) -> Shown:
    harness = crew.harness
    marker = f"Claude Code asks to use {tool}."

    def shown() -> list[Shown]:
        return [m for m in harness.messages("radar") if marker in m.text and m.buttons]

    await harness.wait_until(lambda: bool(shown()))
    return shown()[0]


async def _hook(crew: Crew, key: str, fixture: str, *options: str) -> Any:
    return await start(
        "hook", "claude-code", *options, key=key, url=crew.url, stdin=True
    ), recorded(fixture)


def _decision(ran: Ran) -> dict[str, Any]:
    assert ran.code == 0, ran.err
    decided: dict[str, Any] = json.loads(ran.out)["hookSpecificOutput"]
    return decided


async def test_an_allow_press_allows_the_permission_request(crew: Crew) -> None:
    """Over every transport: the dialog shows tool, reason and input; Allow → allow."""
    key = await crew.add_member()
    process, stdin = await _hook(crew, key, "permission_request_bash.json", "--timeout", "60")
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    dialog = await _dialog(crew, "Bash")
    assert "Reason given: Clean the build directory and rebuild" in dialog.text
    assert "rm -rf build/ && npm run build" in dialog.text
    assert list(dialog.buttons[:2]) == ["Allow", "Deny"]
    await crew.harness.press("radar", dialog, 0)
    decided = _decision(await finish(process))
    assert decided == {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_a_deny_press_denies_the_tool_call(crew: Crew) -> None:
    """PreToolUse: Deny → permissionDecision deny with a reason naming the human."""
    key = await crew.add_member()
    process = await start("hook", "claude-code", key=key, url=crew.url, stdin=True)
    assert process.stdin is not None
    process.stdin.write(recorded("pre_tool_use_write.json"))
    process.stdin.close()
    dialog = await _dialog(crew, "Write")
    assert "file_path: /home/dev/shop/.github/workflows/release.yml" in dialog.text
    await crew.harness.press("radar", dialog, 1)
    decided = _decision(await finish(process))
    assert (decided["hookEventName"], decided["permissionDecision"]) == ("PreToolUse", "deny")
    assert "Denied by the human" in decided["permissionDecisionReason"]
    question = await crew.crewline.store.question(_question_id(crew, dialog))
    assert question is not None and question.dialog


def _question_id(crew: Crew, dialog: Shown) -> str:
    press = parse_payload(dialog.payloads[0])
    assert press is not None and press.kind == "q"
    return press.record_id


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_secrets_in_the_input_never_reach_the_chat(crew: Crew) -> None:
    """Tokens, the Authorization header, URL passwords and env values are masked."""
    key = await crew.add_member()
    process = await start("hook", "claude-code", key=key, url=crew.url, stdin=True)
    assert process.stdin is not None
    process.stdin.write(recorded("pre_tool_use_bash_secrets.json"))
    process.stdin.close()
    dialog = await _dialog(crew, "Bash")
    for secret in ("npm_9f8e7d6c5b4a3f2e1d0c", "sk-live-0123456789abcdefghij", "hunter2", "s3cret"):
        assert secret not in dialog.text
    assert "NPM_TOKEN=••••" in dialog.text and "Authorization: ••••" in dialog.text
    await crew.harness.press("radar", dialog, 0)
    assert _decision(await finish(process))["permissionDecision"] == "allow"


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_with_nobody_answering_it_denies_and_says_so(crew: Crew) -> None:
    """After --timeout the tool is denied with a reason saying nobody answered; the thread
    is told the prompt timed out."""
    key = await crew.add_member()
    ran = await run(
        "hook",
        "claude-code",
        "--timeout",
        "0.5",
        key=key,
        url=crew.url,
        stdin=recorded("pre_tool_use_write.json"),
    )
    decided = _decision(ran)
    assert decided["permissionDecision"] == "deny"
    assert "Nobody answered on crewline within 0.5 s" in decided["permissionDecisionReason"]
    rows = await crew.crewline.store.live_rows("radar")
    assert rows[-1].text == "The permission prompt for Write timed out: denied."


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_the_timeout_can_fall_back_to_claude_codes_own_prompt(crew: Crew) -> None:
    """--fallback ask: a PermissionRequest prints no decision, so Claude Code asks itself."""
    key = await crew.add_member()
    ran = await run(
        "hook",
        "claude-code",
        "--timeout",
        "0.5",
        "--fallback",
        "ask",
        key=key,
        url=crew.url,
        stdin=recorded("permission_request_bash.json"),
    )
    assert (ran.code, ran.out) == (0, ""), ran.err
    rows = await crew.crewline.store.live_rows("radar")
    assert (
        rows[-1].text
        == "The permission prompt for Bash timed out: left to Claude Code's own prompt."
    )


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
@pytest.mark.parametrize("missing", ["key", "server"])
async def test_without_crewline_it_still_decides_and_says_why(crew: Crew, missing: str) -> None:
    """No session key, or nothing listening at the URL: deny (or, with --fallback ask, leave
    it to Claude Code) at once, with a reason naming crewline; never an empty answer."""
    key = await crew.add_member()
    nowhere = "http://127.0.0.1:1"  # nothing listens there
    given, url = (None, crew.url) if missing == "key" else (key, nowhere)
    stdin = recorded("pre_tool_use_write.json")
    denied = _decision(await run("hook", "claude-code", key=given, url=url, stdin=stdin))
    deferred = _decision(
        await run("hook", "claude-code", "--fallback", "ask", key=given, url=url, stdin=stdin)
    )
    assert (denied["permissionDecision"], deferred["permissionDecision"]) == ("deny", "ask")
    assert "crewline could not relay the prompt" in denied["permissionDecisionReason"]
    assert await crew.crewline.store.live_rows("radar") == []


@pytest.mark.parametrize("harness", ["telegram"], indirect=True)
async def test_a_press_by_someone_else_decides_nothing(crew: Crew) -> None:
    """On Telegram, a stranger's Allow is refused; the owner's Deny then decides."""
    key = await crew.add_member()
    process = await start("hook", "claude-code", key=key, url=crew.url, stdin=True)
    assert process.stdin is not None
    process.stdin.write(recorded("permission_request_bash.json"))
    process.stdin.close()
    dialog = await _dialog(crew, "Bash")
    notice = await crew.harness.press("radar", dialog, 0, user=crew.harness.stranger)
    assert notice is not None and "owner" in notice
    question = await crew.crewline.store.question(_question_id(crew, dialog))
    assert question is not None and question.state.value == "waiting"
    await crew.harness.press("radar", dialog, 1)
    decided = _decision(await finish(process))
    assert decided["decision"]["behavior"] == "deny"


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        (b"{not json", "stdin is not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (recorded("post_tool_use.json"), "hook_event_name is 'PostToolUse'"),
        (b'{"hook_event_name": "PreToolUse", "tool_input": {}}', "tool_name"),
    ],
)
async def test_malformed_input_exits_non_zero_and_decides_nothing(
    crew: Crew, stdin: bytes, says: str
) -> None:
    """Exit 1, the reason on stderr, nothing on stdout, no card raised."""
    key = await crew.add_member()
    ran = await run("hook", "claude-code", key=key, url=crew.url, stdin=stdin)
    assert (ran.code, ran.out) == (1, "")
    assert says in ran.err and "no decision made" in ran.err
    rows = await crew.crewline.store.live_rows("radar")
    assert [r for r in rows if r.role is RowRole.QUESTION] == []
