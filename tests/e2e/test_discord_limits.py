"""Discord's limits: the 3-second answer, rate limits, refused tokens and permissions, and
the start-up checks that name what to fix."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

from crewline.config import Config
from crewline.errors import ConfigError, PermanentTransportError
from crewline.models import Button, HumanEvent, Member, OutboundMessage, Receipt
from crewline.testing import FakeClock
from crewline.transports.discord import DiscordTransport
from crewline.transports.discord.render import nonce_for
from tests.bounds import WAIT
from tests.harnesses.discord import DiscordHarness, crew_on_discord

CARD = OutboundMessage(author="Radar", text="Ship?", kind="card")
RADAR = Member(slug="radar", name="Radar", owner=1, transports=("discord",))


@asynccontextmanager
async def _fake(**options: object) -> AsyncIterator[DiscordHarness]:
    harness = DiscordHarness(**options)
    async with harness.running():
        yield harness


@asynccontextmanager
async def _started(
    transport: DiscordTransport, sink: object = None
) -> AsyncIterator[DiscordTransport]:
    async def refuse(event: HumanEvent) -> Receipt:
        return Receipt(accepted=False, code="test", notice="refused by the test")

    await transport.start(sink or refuse)  # type: ignore[arg-type]
    try:
        yield transport
    finally:
        await transport.stop()


def _transport(harness: DiscordHarness, **options: object) -> DiscordTransport:
    made = harness.transport(**options)
    assert isinstance(made, DiscordTransport)
    return made


async def test_a_slow_answer_defers_the_press_and_then_tells_the_presser() -> None:
    """When the core takes longer than the transport allows, the press is deferred (inside
    Discord's 3 s) and the refusal follows as an ephemeral follow-up."""
    release = asyncio.Event()

    async def slow(event: HumanEvent) -> Receipt:
        await release.wait()
        return Receipt(accepted=False, code="already_settled", notice="Already settled.")

    async with (
        _fake() as harness,
        _started(_transport(harness, respond_within=0.05), slow) as transport,
    ):
        fake = harness.fake
        thread = await transport.open_thread(RADAR)
        card = OutboundMessage(
            author="Radar",
            text="Ship?",
            kind="card",
            buttons=(Button(label="yes", payload="e:0123456789abcdef:0"),),
        )
        ref = await transport.post(thread, card, key="row:slow", retry=False)
        press = await fake.press_button(int(ref), "e:0123456789abcdef:0")
        deferred = await fake.wait_for_callback(press.id)
        assert (deferred.type, deferred.status) == (6, 200)
        assert harness.receipts(str(press.id)) == []
        release.set()
        await harness.receipt(str(press.id))
        assert harness.notice(press) == "Already settled."
        assert len([c for c in fake.interaction_callbacks if c.interaction_id == press.id]) == 1


async def test_an_edit_press_answered_after_its_deferral_says_its_box_did_not_open() -> None:
    """A modal can only be a press's first response: the concierge's Edit answered after the
    deferral opens none, and the follow-up says so and shows the suggestion."""
    release = asyncio.Event()

    async def slow(event: HumanEvent) -> Receipt:
        await release.wait()
        return Receipt(
            accepted=True,
            notice="Edit the concierge's suggestion, then send it as your reply.",
            prefill="no, keep them",
            reply_to="0123456789abcdef",
        )

    async with (
        _fake() as harness,
        _started(_transport(harness, respond_within=0.05), slow) as transport,
    ):
        fake = harness.fake
        thread = await transport.open_thread(RADAR)
        edit = Button(label="Edit", payload="c:0123456789abcdef:edit")
        ref = await transport.post(thread, replace(CARD, buttons=(edit,)), key="row:e", retry=False)
        press = await fake.press_button(int(ref), edit.payload)
        deferred = await fake.wait_for_callback(press.id)
        assert (deferred.type, deferred.status) == (6, 200)
        release.set()
        await harness.receipt(str(press.id))
        assert fake.modals == []
        assert harness.notice(press) == (
            "The reply box could not open in time: press Edit again. The suggestion: no, keep them"
        )


async def test_a_slow_command_is_deferred_then_answered_ephemerally() -> None:
    """A command the core answers late shows Discord's 'thinking' state, then the answer."""
    release = asyncio.Event()

    async def slow(event: HumanEvent) -> Receipt:
        await release.wait()
        return Receipt(accepted=True, notice="Radar (radar): all clear")

    async with _fake() as harness, _started(_transport(harness, respond_within=0.05), slow):
        run = await harness.fake.run_command("roster")
        deferred = await harness.fake.wait_for_callback(run.id)
        assert (deferred.type, deferred.ephemeral) == (5, True)
        release.set()
        await harness.receipt(str(run.id))
        assert harness.notice(run) == "Radar (radar): all clear"


async def test_a_refused_token_stops_every_further_call() -> None:
    """After one 401 the transport raises at once: Discord bans clients that keep trying."""
    async with _fake() as harness, _started(_transport(harness)) as transport:
        thread = await transport.open_thread(RADAR)
        harness.fake.token = "revoked"
        for attempt in range(3):
            with pytest.raises(PermanentTransportError) as raised:
                await transport.post(thread, CARD, key=f"row:{attempt}", retry=False)
            assert raised.value.code == "discord_401"
        refused = [c for c in harness.fake.calls if c.status == 401]
        assert len(refused) == 1


async def test_a_forbidden_edit_is_permanent_and_sent_once() -> None:
    """A 403 (here: editing a human's message) is a permanent failure, not retried."""
    async with _fake() as harness, _started(_transport(harness)) as transport:
        thread = await transport.open_thread(RADAR)
        human = await harness.fake.send_message(int(thread), "mine")
        with pytest.raises(PermanentTransportError) as raised:
            await transport.update(thread, str(human.id), CARD)
        assert raised.value.code == "discord_403"
        patches = harness.fake.calls_to("PATCH", rf"/channels/{thread}/messages/{human.id}")
        assert [c.status for c in patches] == [403]


async def test_a_retried_post_is_not_posted_twice() -> None:
    """A post the outbox retries returns the first message; it carries the key's nonce so
    Discord itself deduplicates across processes for a few minutes."""
    async with _fake() as harness, _started(_transport(harness)) as transport:
        thread = await transport.open_thread(RADAR)
        first = await transport.post(thread, CARD, key="row:once", retry=False)
        again = await transport.post(thread, CARD, key="row:once", retry=True)
        assert again == first
        posts = harness.fake.calls_to("POST", rf"/channels/{thread}/messages")
        assert [(c.json["nonce"], c.json["enforce_nonce"]) for c in posts] == [
            (nonce_for("row:once"), True)
        ]


async def test_opening_a_thread_twice_finds_the_same_thread() -> None:
    """open_thread is idempotent, also for a new process that finds the thread by name."""
    async with _fake() as harness:
        async with _started(_transport(harness)) as transport:
            first = await transport.open_thread(RADAR)
            assert await transport.open_thread(RADAR) == first
        async with _started(_transport(harness)) as transport:
            assert await transport.open_thread(RADAR) == first
        assert len(harness.fake.threads) == 1


async def test_rate_limited_cards_all_land_in_order(config: Config, clock: FakeClock) -> None:
    """With Discord answering 429 past 2 messages until 0.3 s after its last 429, every row of
    two busy members lands, in order per thread, the waits done by discord.py and the outbox.

    The fake renews a spent budget only after a 429, so both threads meet the limit however
    slowly a loaded machine sends their six rows.
    """
    async with crew_on_discord(config, clock) as crew:
        harness = crew.harness
        assert isinstance(harness, DiscordHarness)
        harness.fake.set_message_rate_limit(2, 0.3, advertise=False, renew_after_429=True)
        keys = {slug: await crew.add_member(slug, slug.title()) for slug in ("radar", "probe")}
        for n in range(6):
            for key in keys.values():
                await crew.call(key, "POST", "/api/session/messages", json={"text": f"row {n}"})
        for slug in keys:
            await harness.wait_until(lambda s=slug: len(harness.messages(s)) == 6)
            assert [m.text.splitlines()[-1] for m in harness.messages(slug)] == [
                f"row {n}" for n in range(6)
            ]
        limited = {c.path for c in harness.fake.calls if c.status == 429}
        assert {f"/channels/{harness.thread_id(slug)}/messages" for slug in keys} <= limited


async def test_a_refused_token_fails_the_start_naming_the_setting() -> None:
    """A wrong DISCORD_BOT_TOKEN stops crewline at start with a ConfigError on that key."""
    async with _fake() as harness:
        wrong = DiscordTransport(replace(harness.settings(), bot_token="not-the-token"))
        with pytest.raises(ConfigError) as raised:
            await wrong.start(_never)
        assert raised.value.details["key"] == "discord.bot_token"
        assert [c.status for c in harness.fake.calls] == [401]


async def test_a_channel_outside_the_server_fails_the_start() -> None:
    """DISCORD_CHANNEL_ID must be a text channel the bot sees in DISCORD_GUILD_ID."""
    async with _fake() as harness:
        settings = harness.settings()
        wrong = DiscordTransport(replace(settings, channel_id=settings.channel_id + 1))
        with pytest.raises(ConfigError) as raised:
            await wrong.start(_never)
        assert raised.value.details["key"] == "discord.channel_id"


async def test_a_missing_message_content_intent_fails_the_start_with_the_fix() -> None:
    """Without the privileged intent enabled in the portal, start says how to turn it on."""
    async with _fake(privileged_intents=False) as harness:
        with pytest.raises(ConfigError) as raised:
            await _transport(harness).start(_never)
        assert raised.value.code == "discord_intents"
        assert "Message Content" in raised.value.message


async def _never(event: HumanEvent) -> Receipt:
    raise AssertionError(f"no event expected, got {event!r}")


async def test_events_of_one_thread_reach_the_core_one_at_a_time_in_gateway_order() -> None:
    """A press and then a typed reply in one thread are judged in that order (the reply waits
    for the press); another thread's events do not wait for them."""
    entered: list[str] = []
    arrived = asyncio.Condition()
    release = asyncio.Event()

    async def core(event: HumanEvent) -> Receipt:
        async with arrived:
            entered.append(event.event_id)
            arrived.notify_all()
        if len(entered) == 1:
            await release.wait()
        return Receipt(accepted=False, code="test")

    async def seen(count: int) -> None:
        async with asyncio.timeout(WAIT), arrived:
            await arrived.wait_for(lambda: len(entered) >= count)

    async with _fake() as harness, _started(_transport(harness), core) as transport:
        fake = harness.fake
        radar = await transport.open_thread(RADAR)
        probe = await transport.open_thread(Member(slug="probe", name="Probe", owner=1))
        card = OutboundMessage(
            author="Radar",
            text="Ship?",
            kind="card",
            buttons=(Button(label="yes", payload="e:0123456789abcdef:0"),),
        )
        ref = await transport.post(radar, card, key="row:order", retry=False)

        press = await fake.press_button(int(ref), "e:0123456789abcdef:0")
        typed = await fake.send_message(int(radar), "typed after the press")
        elsewhere = await fake.send_message(int(probe), "another thread")
        await seen(2)
        assert entered == [str(press.id), str(elsewhere.id)]
        release.set()
        await seen(3)
        assert entered == [str(press.id), str(elsewhere.id), str(typed.id)]
