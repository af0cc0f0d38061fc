"""Fork from the owner's API and from a message action on each transport (SPEC §5 fork).

The scene is ``m1 h1 m2 h2 m3``; forking from ``m2`` makes a new member ``radar-b`` whose
conversation is ``m1 h1 m2`` and crewline's note, with ``radar`` untouched, exactly as
``/fork radar-b`` used on ``m2`` does.
"""

from __future__ import annotations

import pytest

from crewline.transports.discord.client import FORK_FROM_HERE
from crewline.transports.slack.payloads import FORK_SHORTCUT, split_ref
from crewline.transports.telegram.refs import TopicThread, parse_message_ref
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.local import LocalHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness

UNCHANGED = ["m1", "h1", "m2", "h2", "m3"]


async def _ref(s: Scene, transport: str, text: str) -> str:
    shown = await s.crew.crewline.store.platform_message(transport, f"row:{s.rows[text].id}")
    assert shown is not None
    return shown.message_ref


async def _forked_from_m2(s: Scene) -> None:
    """radar-b holds radar's rows up to m2 and the note; radar is untouched."""
    store = s.crew.crewline.store
    copied = [r.text for r in await store.live_rows("radar-b")]
    assert copied[:3] == ["m1", "h1", "m2"] and len(copied) == 4, copied
    assert copied[3].startswith("Forked from Radar: 3 messages copied.")
    assert await s.live() == UNCHANGED


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_the_owner_forks_through_the_api(crew: Crew) -> None:
    """POST /api/members/radar/forks: 200 with the new member; a taken slug is 409, a bad
    one 400, a session key 403; none of these writes anything."""
    s = await scene(crew, stateless=True)
    body = {"slug": "radar-b", "row_id": s.rows["m2"].id}
    response = await crew.call(s.token, "POST", "/api/members/radar/forks", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["member"] == "radar-b" and response.json()["copied"] == 3
    await _forked_from_m2(s)
    refusals = [
        (s.token, body, 409, "member_exists"),
        (s.token, {"slug": "Not A Slug"}, 400, "invalid_member_slug"),
        (s.token, {"slug": "radar-c", "row_id": "0" * 16}, 404, "unknown_row"),
        (s.key, {"slug": "radar-c"}, 403, "owner_token_required"),
    ]
    for key, sent, status, code in refusals:
        refused = await crew.call(key, "POST", "/api/members/radar/forks", json=sent)
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), sent
    assert sorted(m.slug for m in await crew.crewline.store.members()) == ["radar", "radar-b"]


@pytest.mark.parametrize("harness", ["memory"], indirect=True)
async def test_fork_as_a_message_action_in_memory(crew: Crew) -> None:
    """/fork radar-b used on m2 (a message action) copies up to m2."""
    s = await scene(crew, stateless=True)
    memory = crew.harness.transport()
    from crewline.transports.memory import MemoryTransport

    assert isinstance(memory, MemoryTransport)
    receipt = await memory.command(
        "alice", "fork", "radar-b", member="radar", message_ref=await _ref(s, "memory", "m2")
    )
    assert receipt.accepted, receipt
    await _forked_from_m2(s)


@pytest.mark.parametrize("harness", ["local"], indirect=True)
async def test_fork_from_here_in_the_local_inbox(crew: Crew, harness: LocalHarness) -> None:
    """The inbox's Fork from here on m2, with the slug the owner typed."""
    s = await scene(crew, stateless=True)
    answer = await harness.post(
        "/inbox/fork",
        {"thread": "radar", "message": await _ref(s, "local", "m2"), "slug": "radar-b"},
    )
    assert answer["accepted"], answer
    await _forked_from_m2(s)


@pytest.mark.parametrize("harness", ["telegram"], indirect=True)
async def test_fork_sent_as_a_reply_on_telegram(crew: Crew, harness: TelegramHarness) -> None:
    """/fork radar-b sent as a reply to m2."""
    s = await scene(crew, stateless=True)
    chat, m2 = parse_message_ref(await _ref(s, "telegram", "m2"))
    where = harness.thread("radar")
    sent = await harness.fake.send_command(
        chat,
        "/fork radar-b",
        reply_to_message_id=m2,
        message_thread_id=where.topic_id if isinstance(where, TopicThread) else None,
    )
    receipt = await harness.handled(sent)
    assert receipt is not None and receipt.accepted, receipt
    await _forked_from_m2(s)


@pytest.mark.parametrize("harness", ["slack"], indirect=True)
async def test_the_fork_from_here_shortcut_on_slack(crew: Crew, harness: SlackHarness) -> None:
    """The message shortcut on m2 opens a modal for the slug; its submission forks; a
    stranger's submission is refused and creates nothing."""
    s = await scene(crew, stateless=True)
    m2 = split_ref(await _ref(s, "slack", "m2"))[1]
    shortcut = harness.fake.message_shortcut_payload(
        user_id=harness.owner, channel=harness.dm, message_ts=m2, callback_id=FORK_SHORTCUT
    )
    assert await harness.send_interaction(shortcut) == 200
    await harness.fake.wait_until(lambda: bool(harness.fake.modals))
    modal = harness.fake.modals[-1]
    stranger = harness.fake.view_submission_payload(
        user_id=harness.stranger, view=modal, value="radar-x"
    )
    assert await harness.send_interaction(stranger) == 200
    refused = await harness.receipt(f"view:{modal['id']}:{modal['hash']}")
    assert not refused.accepted and await crew.crewline.store.member("radar-x") is None
    submitted = harness.fake.view_submission_payload(
        user_id=harness.owner, view={**modal, "hash": "second"}, value="radar-b"
    )
    assert await harness.send_interaction(submitted) == 200
    receipt = await harness.receipt(f"view:{modal['id']}:second")
    assert receipt.accepted, receipt
    await _forked_from_m2(s)


@pytest.mark.parametrize("harness", ["discord"], indirect=True)
async def test_the_fork_from_here_command_on_discord(crew: Crew, harness: DiscordHarness) -> None:
    """The message command on m2 answers with a modal for the slug; its Submit forks."""
    s = await scene(crew, stateless=True)
    m2 = int(await _ref(s, "discord", "m2"))
    await harness.fake.run_message_command(
        FORK_FROM_HERE, m2, channel_id=harness.thread_id("radar")
    )
    await harness.fake.wait_until(lambda: bool(harness.fake.modals))
    modal = harness.fake.modals[-1]
    text_input = modal["components"][0]["components"][0]
    submitted = await harness.fake.submit_modal(modal, {text_input["custom_id"]: "radar-b"})
    receipt = await harness.receipt(str(submitted.id))
    assert receipt.accepted, receipt
    await _forked_from_m2(s)


@pytest.mark.parametrize("harness", ["discord"], indirect=True)
async def test_a_discord_fork_dialog_opened_before_a_restart_forks_after_it(
    crew: Crew, harness: DiscordHarness
) -> None:
    """The dialog's custom_id names the message: the process that receives its Submit after
    a restart forks from it though it never saw the dialog opened."""
    s = await scene(crew, stateless=True)
    m2 = int(await _ref(s, "discord", "m2"))
    await harness.fake.run_message_command(
        FORK_FROM_HERE, m2, channel_id=harness.thread_id("radar")
    )
    await harness.fake.wait_until(lambda: bool(harness.fake.modals))
    modal = harness.fake.modals[-1]
    await crew.restart()
    assert await crew.crewline.store.member("radar-b") is None
    text_input = modal["components"][0]["components"][0]
    submitted = await harness.fake.submit_modal(modal, {text_input["custom_id"]: "radar-b"})
    receipt = await harness.receipt(str(submitted.id))
    assert receipt.accepted, receipt
    await _forked_from_m2(s)
