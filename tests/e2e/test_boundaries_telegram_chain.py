"""/rewind N on Telegram without topics: each member's messages are a reply chain in the
owner's chat, so the command says whose conversation it rewinds by replying into the chain
or by naming the member."""

from __future__ import annotations

from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.telegram.refs import ReplyThread, parse_message_ref
from tests.e2e.boundary_scene import Scene, scene
from tests.harnesses.telegram import TelegramHarness, telegram_crew

REWOUND_3 = "Rewound: 3 messages left Radar's conversation."


async def _chain(s: Scene, harness: TelegramHarness) -> tuple[int, int]:
    """The owner's chat and the message id of m3, the member's last message in its chain."""
    assert isinstance(harness.thread("radar"), ReplyThread)
    shown = await s.crew.crewline.store.platform_message("telegram", f"row:{s.rows['m3'].id}")
    assert shown is not None
    return parse_message_ref(shown.message_ref)


async def test_rewind_n_sent_as_a_reply_into_the_chain(config: Config, clock: FakeClock) -> None:
    """/rewind 2 replying to any message of radar's chain continues from the owner's
    second-to-last message there (the reply names the member, not the row)."""
    async with telegram_crew(config, clock, has_topics_enabled=False) as (harness, crew):
        s = await scene(crew, stateless=True)
        chat, m3 = await _chain(s, harness)
        sent = await harness.fake.send_command(chat, "/rewind 2", reply_to_message_id=m3)
        receipt = await harness.handled(sent)
        assert receipt is not None and receipt.accepted, receipt
        assert receipt.notice == REWOUND_3
        assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()


async def test_rewind_n_naming_the_member_at_the_chat_root(
    config: Config, clock: FakeClock
) -> None:
    """/rewind 2 at the root names no member and is refused with how to name one, changing
    nothing; /rewind radar 2 rewinds radar's conversation."""
    async with telegram_crew(config, clock, has_topics_enabled=False) as (harness, crew):
        s = await scene(crew, stateless=True)
        chat, _ = await _chain(s, harness)
        unnamed = await harness.handled(await harness.fake.send_command(chat, "/rewind 2"))
        assert unnamed is not None and unnamed.code == "not_in_thread", unnamed
        assert unnamed.notice is not None and "/rewind <member> [N]" in unnamed.notice
        assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]
        named = await harness.handled(await harness.fake.send_command(chat, "/rewind radar 2"))
        assert named is not None and named.accepted, named
        assert named.notice == REWOUND_3
        assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()
