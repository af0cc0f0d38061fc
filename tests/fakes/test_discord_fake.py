"""The Discord fake, proven with the real discord.py client over loopback sockets."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import warnings
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

import aiohttp
import pytest

from tests.fakes.discord import (
    GATEWAY_PATH,
    RESUME_GATEWAY_PATH,
    Dispatch,
    FakeDiscord,
    point_discord_py_at,
)

with warnings.catch_warnings():
    # discord.py's voice support imports the stdlib audioop module, deprecated since Python
    # 3.11; the import happens at collection, before pytest's own filters could be scoped.
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

ESCALATION_TEMPLATE = r"esc:(?P<id>\w+):(?P<n>\d+)"
WAIT_SECONDS = 5.0


class Seen:
    """Client-side events in arrival order, with a bounded wait instead of sleeps."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self._changed = asyncio.Event()

    def add(self, name: str, value: Any = None) -> None:
        self.events.append((name, value))
        self._changed.set()
        self._changed = asyncio.Event()

    def of(self, name: str) -> list[Any]:
        return [value for event, value in self.events if event == name]

    async def wait(self, name: str, where: Callable[[Any], bool] = lambda _: True) -> Any:
        """The first `name` event matching `where`, waiting at most WAIT_SECONDS."""
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                for value in self.of(name):
                    if where(value):
                        return value
                await self._changed.wait()


class EscalationButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ESCALATION_TEMPLATE
):
    """One answer button of an escalation card, routed by its custom_id after any restart."""

    def __init__(self, escalation_id: str, choice: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Option {choice}",
                custom_id=f"esc:{escalation_id}:{choice}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.escalation_id = escalation_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EscalationButton:
        return cls(match["id"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"Answered {self.escalation_id}: option {self.choice}", view=None
        )


class CrewClient(discord.Client):
    """A plain discord.Client with the intents crewline needs, recording what it sees."""

    def __init__(self, *, dynamic_items: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.message_content = True
        # guild_ready_timeout: on_ready waits this long after the last GUILD_CREATE (2 s default).
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.seen = Seen()
        self._dynamic_items = dynamic_items

    async def setup_hook(self) -> None:
        if self._dynamic_items:
            self.add_dynamic_items(EscalationButton)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every re-IDENTIFY (Discord's identify limit); not here.
        return None

    async def on_ready(self) -> None:
        self.seen.add("ready")

    async def on_resumed(self) -> None:
        self.seen.add("resumed")

    async def on_message(self, message: discord.Message) -> None:
        self.seen.add("message", message)

    async def on_message_edit(self, before: discord.Message, after: discord.Message) -> None:
        self.seen.add("edit", after)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.seen.add("raw_edit", payload)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake with fast heartbeats, discord.py pointed at it."""
    async with FakeDiscord(heartbeat_interval_ms=250) as server:
        with point_discord_py_at(server):
            yield server


@contextlib.asynccontextmanager
async def running(client: CrewClient, fake: FakeDiscord) -> AsyncIterator[CrewClient]:
    """Start the client, wait for on_ready, and always close it and await its task."""
    task = asyncio.create_task(client.start(fake.token))
    ready = asyncio.create_task(client.seen.wait("ready"))
    try:
        # `ready` gives up after WAIT_SECONDS, so this wait is bounded too.
        done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # re-raise why the client stopped
            raise AssertionError("client stopped before on_ready")
        ready.result()
        yield client
    finally:
        ready.cancel()
        await client.close()
        await asyncio.wait_for(task, 5)


async def test_client_connects_and_posts_a_view_into_a_private_thread(fake: FakeDiscord) -> None:
    """A real Client identifies, caches the guild, opens a private thread and posts a card."""
    client = CrewClient()
    async with running(client, fake):
        assert fake.identifies == 1
        assert fake.gateway_connections[0].startswith(GATEWAY_PATH)
        assert "v=10" in fake.gateway_connections[0]
        # discord.py asks for zstd-stream when the zstandard package is importable.
        assert re.search(r"compress=(zlib|zstd)-stream", fake.gateway_connections[0])
        channel = client.get_channel(fake.crew_channel_id)
        assert isinstance(channel, discord.TextChannel)
        assert channel.guild.me is not None
        assert fake.threads == []

        thread = await channel.create_thread(
            name="agent-1", type=discord.ChannelType.private_thread
        )
        await thread.add_user(discord.Object(fake.owner.id))
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Approve", custom_id="esc:e1:0"))
        sent = await thread.send("Approve the deploy?", view=view)

    assert fake.channel(thread.id)["type"] == 12
    assert fake.thread_member_ids(thread.id) == {fake.bot_user.id, fake.owner.id}
    stored = fake.message(sent.id)
    assert stored["channel_id"] == str(thread.id)
    assert stored["components"][0]["components"][0]["custom_id"] == "esc:e1:0"
    assert [c.status for c in fake.calls_to("POST", rf"/channels/{thread.id}/messages")] == [200]


async def test_on_message_receives_a_human_message(fake: FakeDiscord) -> None:
    """A human's MESSAGE_CREATE reaches on_message with its content and author."""
    client = CrewClient()
    async with running(client, fake):
        assert client.seen.of("message") == []
        sent = await fake.send_message(fake.crew_channel_id, "status please")
        message = await client.seen.wait("message", lambda m: m.id == sent.id)

    assert message.content == "status please"
    assert message.author.id == fake.owner.id
    assert message.channel.id == fake.crew_channel_id


async def test_dynamic_item_press_after_restart_is_answered_with_update_message(
    fake: FakeDiscord,
) -> None:
    """A DynamicItem registered at start handles a press on a card posted before the restart."""
    first = CrewClient()
    async with running(first, fake):
        channel = first.get_channel(fake.crew_channel_id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View(timeout=None)
        view.add_item(EscalationButton("e7", 0))
        view.add_item(EscalationButton("e7", 1))
        card = await channel.send("Which option?", view=view)
    assert len(fake.message(card.id)["components"][0]["components"]) == 2
    assert fake.interaction_callbacks == []

    second = CrewClient(dynamic_items=True)
    async with running(second, fake):
        press = await fake.press_button(card.id, "esc:e7:1")
        callback = await fake.wait_for_callback(press.id)

    assert callback.type == 7
    assert callback.status == 200
    assert callback.data["content"] == "Answered e7: option 1"
    assert callback.data["components"] == []
    assert fake.message(card.id)["content"] == "Answered e7: option 1"
    assert fake.message(card.id)["components"] == []


async def test_raw_message_edit_fires_for_an_uncached_message(fake: FakeDiscord) -> None:
    """MESSAGE_UPDATE of a message older than the session fires only on_raw_message_edit."""
    before_start = await fake.send_message(fake.crew_channel_id, "draft")
    client = CrewClient()
    async with running(client, fake):
        assert discord.utils.get(client.cached_messages, id=before_start.id) is None
        await fake.edit_message(fake.crew_channel_id, before_start.id, "final")
        payload = await client.seen.wait("raw_edit", lambda p: p.message_id == before_start.id)
        # Events are handled in order: once this one arrives, any on_message_edit would have.
        barrier = await fake.send_message(fake.crew_channel_id, "barrier")
        await client.seen.wait("message", lambda m: m.id == barrier.id)

    assert payload.data["content"] == "final"
    assert payload.cached_message is None
    assert client.seen.of("edit") == []


async def test_dropped_connection_resumes_and_replays_the_missed_dispatch_once(
    fake: FakeDiscord,
) -> None:
    """After a drop the client RESUMEs on resume_gateway_url and gets the gap exactly once."""
    client = CrewClient()
    async with running(client, fake):
        assert (fake.resumes, fake.replayed) == (0, [])
        with fake.gateway_paused():
            await fake.drop_connection(code=4000)
            missed = await fake.send_message(fake.crew_channel_id, "sent while you were away")
        await fake.wait_for_resume()
        await client.seen.wait("resumed")
        await client.seen.wait("message", lambda m: m.id == missed.id)
        barrier = await fake.send_message(fake.crew_channel_id, "after resume")
        await client.seen.wait("message", lambda m: m.id == barrier.id)

    assert fake.identifies == 1
    assert fake.gateway_connections[-1].startswith(RESUME_GATEWAY_PATH)
    assert [f["d"]["id"] for f in fake.replayed] == [str(missed.id)]
    received = [m.id for m in client.seen.of("message")]
    assert received.count(missed.id) == 1
    assert received.count(barrier.id) == 1


async def test_abrupt_drop_and_reconnect_request_both_resume(fake: FakeDiscord) -> None:
    """A close without a frame (1006) and an op 7 RECONNECT each end in a RESUME, no IDENTIFY."""
    client = CrewClient()
    async with running(client, fake):
        assert fake.resumes == 0
        await fake.drop_connection(code=None)
        await fake.wait_for_resume(count=1)
        await fake.request_reconnect()
        await fake.wait_for_resume(count=2)
        probe = await fake.send_message(fake.crew_channel_id, "still there?")
        await client.seen.wait("message", lambda m: m.id == probe.id)

    assert fake.identifies == 1
    assert len(client.seen.of("ready")) == 1


async def test_redelivered_dispatch_reaches_the_client_again(fake: FakeDiscord) -> None:
    """`redeliver` sends the same message id twice, which a transport has to deduplicate."""
    client = CrewClient()
    async with running(client, fake):
        sent = await fake.send_message(fake.crew_channel_id, "once, really")
        await client.seen.wait("message", lambda m: m.id == sent.id)
        await fake.redeliver(sent)
        await client.seen.wait("message", lambda _: len(client.seen.of("message")) == 2)

    assert [m.id for m in client.seen.of("message")] == [sent.id, sent.id]


async def test_invalidated_session_identifies_afresh(fake: FakeDiscord) -> None:
    """INVALID_SESSION (not resumable) makes the client IDENTIFY again and become ready."""
    client = CrewClient()
    async with running(client, fake):
        assert len(client.seen.of("ready")) == 1
        await fake.invalidate_session()
        await fake.wait_for_ready(count=2)
        await client.seen.wait("ready", lambda _: len(client.seen.of("ready")) == 2)

    assert fake.resumes == 0
    assert fake.gateway_connections[-1].startswith(GATEWAY_PATH)


async def test_rate_limited_message_create_is_waited_out(fake: FakeDiscord) -> None:
    """A 429 on message create is slept through by discord.py, then the message is posted."""
    fake.set_message_rate_limit(1, 0.3, channel_id=fake.crew_channel_id, advertise=False)
    client = CrewClient()
    async with running(client, fake):
        channel = client.get_channel(fake.crew_channel_id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("first")
        assert fake.rate_limit_hits == 0
        started = time.monotonic()
        second = await channel.send("second")
        waited = time.monotonic() - started

    assert fake.rate_limit_hits == 1
    statuses = [
        c.status for c in fake.calls_to("POST", rf"/channels/{fake.crew_channel_id}/messages")
    ]
    assert statuses == [200, 429, 200]
    assert waited >= 0.2
    assert fake.message(second.id)["content"] == "second"


async def test_refuse_answers_503_until_lifted(fake: FakeDiscord) -> None:
    """``refuse`` fails the matching calls with 503 (others pass) until it is lifted."""
    lift = fake.refuse("POST", rf"/channels/{fake.crew_channel_id}/threads")
    client = CrewClient()
    async with running(client, fake):
        channel = client.get_channel(fake.crew_channel_id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.DiscordServerError):
            await channel.create_thread(name="refused")
        await channel.send("passes")
        lift()
        await channel.create_thread(name="created")

    statuses = [
        c.status for c in fake.calls_to("POST", rf"/channels/{fake.crew_channel_id}/threads")
    ]
    assert statuses == [503, 201]
    assert [t["name"] for t in fake.threads] == ["created"]


async def test_slash_command_group_answers_ephemerally(fake: FakeDiscord) -> None:
    """A synced /concierge answer command runs with its option and answers with flag 64."""
    client = CrewClient()
    answered: list[str] = []
    concierge = app_commands.Group(name="concierge", description="Talk to the concierge")

    @concierge.command(name="answer", description="Answer the open escalation")
    async def answer(
        interaction: discord.Interaction, policy: Literal["routine", "urgent"]
    ) -> None:
        answered.append(policy)
        await interaction.response.send_message(f"Policy: {policy}", ephemeral=True)

    guild = discord.Object(fake.guild_id)
    client.tree.add_command(concierge, guild=guild)
    async with running(client, fake):
        assert fake.commands(fake.guild_id) == []
        await client.tree.sync(guild=guild)
        assert [c["name"] for c in fake.commands(fake.guild_id)] == ["concierge"]
        run = await fake.run_command("concierge answer", {"policy": "routine"})
        callback = await fake.wait_for_callback(run.id)

    assert answered == ["routine"]
    assert callback.type == 4
    assert callback.ephemeral
    assert callback.data["content"] == "Policy: routine"
    assert fake.messages(fake.crew_channel_id) == []


async def test_rest_answers_like_discord(fake: FakeDiscord) -> None:
    """Errors, validation and double acknowledgements come back as Discord's JSON bodies."""
    auth = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{fake.crew_channel_id}/messages"
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/users/@me", headers=auth) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
        async with http.get(f"{fake.api_base}/nope", headers=auth) as resp:
            assert (resp.status, await resp.json()) == (
                404,
                {"message": "404: Not Found", "code": 0},
            )
        async with http.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bot x"}
        ) as resp:
            assert resp.status == 401
        too_long = {**button, "custom_id": "x" * 101}
        body = {"content": "hi", "components": [{"type": 1, "components": [too_long]}]}
        async with http.post(messages, json=body, headers=auth) as resp:
            error = await resp.json()
            assert resp.status == 400
            assert error["code"] == 50035
            assert "custom_id" in error["errors"]["components"]["0"]["components"]["0"]
        body = {"content": "card", "components": [{"type": 1, "components": [button]}]}
        async with http.post(messages, json=body, headers=auth) as resp:
            card = await resp.json()
        press: Dispatch = await fake.press_button(card, "go")
        callback_url = f"{fake.api_base}/interactions/{press.id}/{press.data['token']}/callback"
        async with http.post(callback_url, json={"type": 6}) as resp:
            assert resp.status == 204
        async with http.post(callback_url, json={"type": 6}) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060

    assert [c.status for c in fake.interaction_callbacks] == [200, 400]


async def test_an_enforced_nonce_returns_the_first_message(fake: FakeDiscord) -> None:
    """`enforce_nonce` (what discord.py sends with a nonce) makes a repeat return the first
    message and create none; without it, or with another nonce, a new message is made."""
    auth = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{fake.crew_channel_id}/messages"
    async with aiohttp.ClientSession() as http:

        async def post(body: dict[str, Any]) -> str:
            async with http.post(messages, json=body, headers=auth) as resp:
                assert resp.status == 200
                return str((await resp.json())["id"])

        first = await post({"content": "card", "nonce": "k1", "enforce_nonce": True})
        again = await post({"content": "card", "nonce": "k1", "enforce_nonce": True})
        loose = await post({"content": "card", "nonce": "k1"})
        other = await post({"content": "card", "nonce": "k2", "enforce_nonce": True})

    assert again == first
    assert len({first, loose, other}) == 3
    assert len(fake.messages(fake.crew_channel_id)) == 3


async def test_an_identify_beside_a_connected_session_is_counted(fake: FakeDiscord) -> None:
    """Two clients of one bot connected at once are two sessions (each gets every event):
    the second IDENTIFY is counted as overlapping; one after the first closed is not."""
    first, second, third = CrewClient(), CrewClient(), CrewClient()
    async with running(first, fake), running(second, fake):
        await fake.wait_for_ready(count=2)
        assert fake.overlapping_identifies == 1
    await fake.wait_until(lambda: fake.connected_sessions == 0, what="both closed")
    async with running(third, fake):
        await fake.wait_for_ready(count=3)
    assert fake.overlapping_identifies == 1


async def test_an_archived_thread_is_left_out_of_a_new_session_and_reopened_by_a_send(
    fake: FakeDiscord,
) -> None:
    """As Discord does: a client connecting after a thread was archived is not given it (the
    active threads only); the bot archives one of its threads with Modify Channel; a message
    sent into an archived thread unarchives it."""
    first = CrewClient()
    async with running(first, fake):
        channel = first.get_channel(fake.crew_channel_id)
        assert isinstance(channel, discord.TextChannel)
        kept = await channel.create_thread(name="kept", type=discord.ChannelType.private_thread)
        idle = await channel.create_thread(name="idle", type=discord.ChannelType.private_thread)
        await first.http.edit_channel(kept.id, archived=True)
        await fake.archive_thread(idle.id)
    assert [t["thread_metadata"]["archived"] for t in fake.threads] == [True, True]
    later = CrewClient()
    async with running(later, fake):
        guild = later.get_guild(fake.guild_id)
        assert guild is not None and list(guild.threads) == []
        await later.get_partial_messageable(idle.id).send("back")
    assert fake.channel(idle.id)["thread_metadata"]["archived"] is False
