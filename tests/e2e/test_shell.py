"""``crewline escalate / ask / send / post / events`` run as subprocesses against a real
crewline: what they print, and their exit status."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.driver import Crew
from tests.e2e.agent_cli import finish, run, start

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


async def _card(crew: Crew, text: str) -> Any:
    harness = crew.harness
    await harness.wait_until(
        lambda: any(text in m.text and m.buttons for m in harness.messages("radar"))
    )
    return next(m for m in harness.messages("radar") if text in m.text and m.buttons)


async def test_escalate_prints_the_id_alone(crew: Crew) -> None:
    """Without --wait it prints the escalation id and returns at once; --option and --goal
    reach the record."""
    key = await crew.add_member()
    ran = await run(
        "escalate", "Ship?", "--option", "yes", "--option", "no", "--goal", "release",
        key=key, url=crew.url,
    )  # fmt: skip
    assert ran.code == 0, ran.err
    record = await crew.crewline.store.escalation(ran.out.strip())
    assert record is not None
    assert (record.options, record.goal) == (("yes", "no"), "release")


async def test_ask_prints_the_id_and_dialog_makes_a_dialog(crew: Crew) -> None:
    """Without --wait ask prints the question id; --dialog makes it one only the human may
    answer."""
    key = await crew.add_member()
    plain = await run("ask", "Which port?", "--option", "80", key=key, url=crew.url)
    dialog = await run(
        "ask", "Deploy to prod?", "--option", "yes", "--dialog", key=key, url=crew.url
    )
    assert (plain.code, dialog.code) == (0, 0), plain.err + dialog.err
    questions = [await crew.crewline.store.question(r.out.strip()) for r in (plain, dialog)]
    assert [(q.options, q.dialog) for q in questions if q is not None] == [
        (("80",), False),
        (("yes",), True),
    ]


async def test_key_and_url_options_win_over_the_environment(crew: Crew) -> None:
    """--key with no key in the environment, --url over a $CREWLINE_URL nothing listens on."""
    key = await crew.add_member()
    nowhere = "http://127.0.0.1:1"
    refused = await run("post", "Hello", key=None, url=nowhere)
    assert refused.code == 2 and "(missing_key)" in refused.err  # the precondition
    ran = await run("post", "Hello", "--key", key, "--url", crew.url, key=None, url=nowhere)
    assert ran.code == 0, ran.err
    assert [r.text for r in await crew.crewline.store.live_rows("radar")] == ["Hello"]


async def test_escalate_wait_prints_the_answer_and_exits_0(crew: Crew) -> None:
    """--wait blocks the shell (not crewline) until the human presses, then prints it."""
    key = await crew.add_member()
    waiting = await start(
        "escalate", "Deploy?", "--option", "go", "--wait", "300", key=key, url=crew.url
    )
    await crew.harness.press("radar", await _card(crew, "Deploy?"), 0)
    ran = await finish(waiting)
    assert (ran.code, ran.out) == (0, "go\n"), ran.err


async def test_escalate_wait_exits_3_when_the_window_closes(crew: Crew) -> None:
    """A window that closes unanswered ends the wait with status 3."""
    key = await crew.add_member()
    waiting = await start(
        "escalate",
        "Rotate?",
        "--deadline",
        "PT30M",
        "--default",
        "rotate",
        "--wait",
        key=key,
        url=crew.url,
    )
    harness = crew.harness
    await harness.wait_until(lambda: any("Rotate?" in m.text for m in harness.cards("radar")))
    crew.clock.advance(timedelta(minutes=31))
    await crew.crewline.windows.rearm()
    ran = await finish(waiting)
    assert ran.code == 3 and "defaulted" in ran.err


async def test_escalate_wait_exits_4_when_nobody_answers_in_time(crew: Crew) -> None:
    """--wait SECONDS gives up after SECONDS with status 4; the record stays pending."""
    key = await crew.add_member()
    ran = await run("escalate", "Anyone?", "--wait", "0.5", key=key, url=crew.url)
    assert ran.code == 4 and "no answer" in ran.err
    escalation_id = ran.err.splitlines()[0]
    record = await crew.crewline.store.escalation(escalation_id)
    assert record is not None and record.is_pending


async def test_escalate_wait_exits_5_when_the_request_is_withdrawn(crew: Crew) -> None:
    """Retracting the escalation ends its --wait with status 5."""
    key = await crew.add_member()
    waiting = await start("escalate", "Deploy?", "--wait", "300", key=key, url=crew.url)
    harness = crew.harness
    await harness.wait_until(lambda: any("Deploy?" in m.text for m in harness.cards("radar")))
    [record] = (await crew.conversation())["escalations"]
    retracted = await crew.call(
        key, "POST", f"/api/session-control/escalations/{record['escalation_id']}/retract"
    )
    assert retracted.status_code == 200, retracted.text
    ran = await finish(waiting)
    assert (ran.code, ran.out) == (5, "") and "withdrawn" in ran.err


async def test_ask_wait_prints_the_answer(crew: Crew) -> None:
    """ask --wait returns the question's answer."""
    key = await crew.add_member()
    waiting = await start(
        "ask",
        "Pick a DB",
        "--option",
        "sqlite",
        "--option",
        "pg",
        "--wait",
        "300",
        key=key,
        url=crew.url,
    )
    await crew.harness.press("radar", await _card(crew, "Pick a DB"), 1)
    ran = await finish(waiting)
    assert (ran.code, ran.out) == (0, "pg\n"), ran.err


async def test_send_post_and_events_print_json_lines(crew: Crew, tmp_path: Path) -> None:
    """send and post print row ids; events prints one JSON object per line and saves the cursor."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    sent = await run("send", "radar", "status?", key=sender, url=crew.url)
    posted = await run("post", "build done", key=radar, url=crew.url)
    assert (sent.code, posted.code) == (0, 0), sent.err + posted.err
    cursor = tmp_path / "cursor"
    listed = await run("events", "--cursor-file", str(cursor), key=radar, url=crew.url)
    again = await run("events", "--cursor-file", str(cursor), key=radar, url=crew.url)
    [event] = [json.loads(line) for line in listed.out.splitlines()]
    assert (event["kind"], event["body"]["text"]) == ("message", "status?")
    assert again.out == "" and int(cursor.read_text()) == event["cursor"]
    rows = [r.text for r in await crew.crewline.store.live_rows("radar")]
    assert rows == ["status?", "build done"]


async def test_events_follow_prints_each_new_event(crew: Crew) -> None:
    """--follow keeps reading: an event sent after it started is printed."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    follower = await start("events", "--follow", key=radar, url=crew.url)
    try:
        await run("send", "radar", "late news", key=sender, url=crew.url)
        assert follower.stdout is not None
        async with asyncio.timeout(30):
            line = await follower.stdout.readline()
        assert json.loads(line)["body"]["text"] == "late news"
    finally:
        follower.terminate()
        await follower.wait()


async def test_refusals_exit_2_with_the_code_and_write_nothing(crew: Crew) -> None:
    """No key, a bad target, an unknown member: status 2 and the stable code on stderr."""
    key = await crew.add_member()
    no_key = await run("post", "hello", key=None, url=crew.url)
    bad_target = await run("send", "Not A Slug", "hi", key=key, url=crew.url)
    bad_deadline = await run("escalate", "x", "--deadline", "soon", key=key, url=crew.url)
    assert (no_key.code, "(missing_key)" in no_key.err) == (2, True)
    assert (bad_target.code, "(invalid_target)" in bad_target.err) == (2, True)
    assert (bad_deadline.code, "(invalid_deadline)" in bad_deadline.err) == (2, True)
    assert await crew.crewline.store.live_rows("radar") == []


async def test_default_applied_confirms_a_defaulted_window_as_mcp_does(
    crew: Crew, capsys: pytest.CaptureFixture[str]
) -> None:
    """default-applied ID (run in-process): refused with not_defaulted while the window is
    open and unknown_escalation for an id not the session's, as the MCP tool and the HTTP
    route refuse; after the window closed with its default, it confirms and the record
    says so."""
    from crewline.app.cli import main

    key = await crew.add_member()
    escalated = await crew.escalate(
        key, message="Rotate?", deadline="PT5M", default_action="rotate"
    )
    escalation_id = escalated["escalation_id"]

    async def applied(record_id: str) -> tuple[int, str, str]:
        code = await asyncio.to_thread(
            main, ["default-applied", record_id, "--key", key, "--url", crew.url]
        )
        said = capsys.readouterr()
        return code, said.out, said.err

    early = await applied(escalation_id)
    assert early[0] == 2 and early[2].endswith("(not_defaulted)\n"), early
    unknown = await applied("0000000000000000")
    assert unknown[0] == 2 and unknown[2].endswith("(unknown_escalation)\n"), unknown
    crew.clock.advance(timedelta(minutes=6))
    await crew.crewline.windows.rearm()
    await crew.wait_for_event(key, "window_closed")
    assert (await crew.crewline.store.escalation(escalation_id)).default_applied is False
    confirmed = await applied(escalation_id)
    assert confirmed == (0, f"escalation {escalation_id}: default applied (rotate)\n", "")
    record = await crew.crewline.store.escalation(escalation_id)
    assert record is not None and record.default_applied is True
