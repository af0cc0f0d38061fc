"""Boundaries on Slack's loopback fake: /crew rewind, the message shortcut, native edits."""

from __future__ import annotations

import pytest

from crewline.transports.slack.payloads import REWIND_SHORTCUT, split_ref
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, edited_answer_heard, scene, typed_answer
from tests.harnesses.slack import SlackHarness

pytestmark = pytest.mark.parametrize("harness", ["slack"], indirect=True)


async def _ts(s: Scene, text: str) -> str:
    shown = await s.crew.crewline.store.platform_message("slack", f"row:{s.rows[text].id}")
    assert shown is not None
    return split_ref(shown.message_ref)[1]


async def _shortcut(harness: SlackHarness, ts: str, *, user: str) -> str:
    payload = harness.fake.message_shortcut_payload(
        user_id=user, channel=harness.dm, message_ts=ts, callback_id=REWIND_SHORTCUT
    )
    assert await harness.send_interaction(payload) == 200
    receipt = await harness.receipt(f"shortcut:{payload['trigger_id']}")
    assert receipt.notice
    return await harness._response_text(payload["response_url"])


def _text(harness: SlackHarness, ts: str) -> str:
    message = harness.fake._find(harness.fake._channels[harness.dm], ts)
    assert message is not None
    return str(message.get("text"))


async def test_crew_rewind_n_at_the_dm_root_marks_crewlines_rewound_messages(
    crew: Crew, harness: SlackHarness
) -> None:
    """/crew rewind radar 1: m3 is redrawn as rewound; the note appears in the thread."""
    s = await scene(crew, stateless=True)
    m3 = await _ts(s, "m3")
    assert "~" not in _text(harness, m3)
    answer = await harness.command("rewind", "radar", "1")
    assert answer == "Rewound: 1 message left Radar's conversation."
    await crew.delivered()
    assert _text(harness, m3) == "~m3~"  # struck through
    assert any(answer in m["text"] for m in harness.thread_messages("radar"))


async def test_the_rewind_to_here_shortcut(crew: Crew, harness: SlackHarness) -> None:
    """The message shortcut on m2 continues the conversation from m2."""
    s = await scene(crew, stateless=True)
    notice = await _shortcut(harness, await _ts(s, "m2"), user=harness.owner)
    assert notice.startswith("Rewound: 2 messages")
    assert (await s.live())[:3] == ["m1", "h1", "m2"] and "h2" not in await s.live()


async def test_a_native_edit_resends_and_a_metadata_change_starts_nothing(
    crew: Crew, harness: SlackHarness
) -> None:
    """message_changed with new text is edit-resend; with the same text it is nothing."""
    s = await scene(crew, stateless=True)
    h2 = await _ts(s, "h2")
    unfurl = harness.fake.message_changed(harness.dm, h2, "h2")  # an unfurl: same text
    await harness.send_event(unfurl)
    barrier = await harness.say("radar", "barrier")
    assert barrier is not None and barrier.accepted
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    s.rows = {r.text: r for r in await crew.crewline.store.live_rows("radar")}
    edit = harness.fake.message_changed(harness.dm, h2, "h2 edited")
    assert (await harness.receipt(await harness.send_event(edit))).accepted
    await harness.wait_until(
        lambda: any(m["text"].endswith("h2 edited") for m in harness.thread_messages("radar"))
    )
    live = await s.live()
    assert live[-1] == "h2 edited" and "h2" not in live and "barrier" not in live


async def test_someone_else_is_refused_privately(crew: Crew, harness: SlackHarness) -> None:
    """The shortcut used by another person changes nothing and says why, to them alone."""
    s = await scene(crew, stateless=True)
    notice = await _shortcut(harness, await _ts(s, "m2"), user=harness.stranger)
    assert "owner" in notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]


async def test_an_edited_answer_answers_again(crew: Crew, harness: SlackHarness) -> None:
    """8080 answered the card; message_changed to 9090: the card says 9090, and the agent
    reads the boundary, the reopening and the new answer, in that order."""
    typed = await typed_answer(crew)
    shown = await crew.crewline.store.platform_message("slack", f"row:{typed.row_id}")
    assert shown is not None
    edit = harness.fake.message_changed(harness.dm, split_ref(shown.message_ref)[1], "9090")
    assert (await harness.receipt(await harness.send_event(edit))).accepted
    await edited_answer_heard(crew, typed)
