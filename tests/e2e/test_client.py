"""crewline.client against a real crewline: every verb typed, refusals as crewline's errors,
and an event stream that resumes from its cursor, reconnects, and never repeats."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from crewline.client import Client, Event, SyncClient
from crewline.config import Config
from crewline.errors import Conflict, InvalidInput, NotFound, Unauthenticated
from tests.bounds import WAIT
from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def config(config: Config) -> Config:
    """A fixed port, so a restarted crewline is found where the client left it."""
    return replace(config, port=free_port())


class _RefusalsSeen(httpx.AsyncHTTPTransport):
    """The real transport, noting when a connection was refused."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.ConnectError:
            self.refused.set()
            raise


async def _card(crew: Crew, count: int = 1) -> Any:
    harness = crew.harness
    await harness.wait_until(lambda: len(harness.cards("radar")) >= count)
    return harness.cards("radar")[count - 1]


async def _take(stream: Any, count: int, *, timeout: float = 15) -> list[Event]:
    taken: list[Event] = []
    async with asyncio.timeout(timeout):
        async for event in stream:
            taken.append(event)
            if len(taken) == count:
                break
    return taken


async def test_escalate_is_typed_and_its_answer_arrives_as_an_event(crew: Crew) -> None:
    """escalate returns a typed receipt at once; the owner's press comes back from events()."""
    key = await crew.add_member()
    async with Client(key, url=crew.url) as client:
        escalated = await client.escalate("Ship?", options=["yes", "no"], goal="release")
        assert escalated.state == "pending" and escalated.routed_to["member"] == "radar"
        await crew.harness.press("radar", await _card(crew), 0)
        [event] = await _take(client.events(wait=5), 1)
    assert event.kind == "escalation_answered"
    assert (event.body["escalation_id"], event.body["answer"]) == (escalated.escalation_id, "yes")


async def test_escalate_may_answer_without_waiting_for_the_card(crew: Crew) -> None:
    """wait_for_delivery=False: queued, said so, and the card is shown all the same."""
    key = await crew.add_member()
    async with Client(key, url=crew.url) as client:
        escalated = await client.escalate("Ship?", wait_for_delivery=False)
    assert escalated.delivery == {crew.harness.name: "queued"}
    assert "not waited for, as you asked" in (escalated.note or "")
    await crew.delivered()
    assert [c for c in crew.harness.cards("radar") if "Ship?" in c.text]


async def test_send_post_ask_and_default_applied_round_trip(crew: Crew) -> None:
    """Each remaining verb reaches the server and answers with its typed result."""
    radar = await crew.add_member()
    await crew.add_member("hawk", "Hawk")
    async with Client(radar, url=crew.url) as client:
        sent = await client.send("hawk", "status?")
        posted = await client.post("done with the build")
        asked = await client.ask("Pick one", options=["a", "b"], dialog=True)
        escalated = await client.escalate("Rotate?", deadline="PT5M", default_action="rotate")
        with pytest.raises(Conflict) as early:
            await client.default_applied(escalated.escalation_id)
        crew.clock.advance(timedelta(minutes=6))
        await crew.crewline.windows.rearm()
        [closed] = await _take(client.events(wait=5), 1)
        record = await client.default_applied(escalated.escalation_id)
    assert (sent.member, posted.conversation) == ("hawk", "radar")
    assert asked.state == "waiting" and asked.question_id
    assert early.value.code == "not_defaulted"
    assert closed.kind == "window_closed" and record.default_applied is True
    rows = [r.text for r in await crew.crewline.store.live_rows("hawk")]
    assert rows == ["status?"]


async def test_an_escalation_is_read_retracted_and_retried_idempotently(crew: Crew) -> None:
    """escalation() reads the record, retract() withdraws it, and a retried escalate with
    the same idempotency key returns the first answer without a second record."""
    key = await crew.add_member()
    async with Client(key, url=crew.url) as client:
        first = await client.escalate("Ship?", options=["yes"], idempotency_key="ship-1")
        again = await client.escalate("Ship?", options=["yes"], idempotency_key="ship-1")
        read = await client.escalation(first.escalation_id)
        withdrawn = await client.retract(first.escalation_id)
        with pytest.raises(Conflict) as reused:
            await client.escalate("Other", idempotency_key="ship-1")
        settled = await client.wait_settled(escalation_id=first.escalation_id, timeout=WAIT)
    assert again.escalation_id == first.escalation_id
    assert (read.state, read.options) == ("pending", ["yes"])
    assert withdrawn.state == "retracted"
    assert reused.value.code == "idempotency_key_reused"
    assert settled is not None and settled.kind == "escalation_retracted"
    assert len((await crew.conversation())["escalations"]) == 1


async def test_refusals_raise_crewlines_errors_with_the_servers_codes(crew: Crew) -> None:
    """A bad key, an unknown member and a bad deadline each raise their branch and code."""
    key = await crew.add_member()
    async with Client("crw_s_not-a-key", url=crew.url) as stranger:
        with pytest.raises(Unauthenticated) as unknown_key:
            await stranger.post("hello")
    async with Client(key, url=crew.url) as client:
        with pytest.raises(NotFound) as nobody:
            await client.send("nobody", "hi")
        with pytest.raises(InvalidInput) as bad_deadline:
            await client.escalate("When?", deadline="tomorrow-ish")
        with pytest.raises(InvalidInput) as wrong_type:
            await client.escalate(5)  # type: ignore[arg-type]
    assert unknown_key.value.code == "invalid_key"
    assert nobody.value.code == "unknown_member"
    assert bad_deadline.value.code == "invalid_deadline"
    assert (wrong_type.value.code, wrong_type.value.details["field"]) == ("invalid_type", "message")
    assert await crew.crewline.store.live_rows("radar") == []


async def test_events_resume_from_the_cursor_file_and_never_repeat(
    crew: Crew, tmp_path: Path
) -> None:
    """A second iterator over the same cursor file starts after what the first handed over."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    cursor_file = tmp_path / "cursor"
    seen: list[int] = []
    async with Client(sender, url=crew.url) as other, Client(radar, url=crew.url) as client:
        for n in range(3):
            await other.send("radar", f"m{n}")
        first = await _take(client.events(cursor_file=cursor_file, on_cursor=seen.append), 2)
        await other.send("radar", "m3")
        rest = await _take(client.events(cursor_file=cursor_file, wait=5), 2)
    assert [e.body["text"] for e in first] == ["m0", "m1"]
    assert [e.body["text"] for e in rest] == ["m2", "m3"]
    assert seen == [e.cursor for e in first]
    assert int(cursor_file.read_text()) == rest[-1].cursor


async def test_events_reconnect_with_backoff_across_a_restart(crew: Crew) -> None:
    """With crewline down, the iterator waits and reconnects; the next event comes once."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    wire = _RefusalsSeen()
    url = crew.url
    async with Client(sender, url=url) as other, Client(radar, url=url, transport=wire) as client:
        await other.send("radar", "before")
        stream = client.events(wait=1, backoff=(0.05, 0.2))
        [before] = await _take(stream, 1)
        await crew.stop()
        reading = asyncio.create_task(_take(stream, 1))
        async with asyncio.timeout(WAIT):
            await wire.refused.wait()  # the iterator met the closed port before the restart
        await crew.start()
        await other.send("radar", "after")
        [after] = await reading
    assert (before.body["text"], after.body["text"]) == ("before", "after")
    assert after.cursor > before.cursor


async def test_the_sync_client_blocks_on_the_same_verbs(crew: Crew) -> None:
    """SyncClient escalates and reads events without an event loop of its own caller's."""
    key = await crew.add_member()

    def agent() -> tuple[str, list[str]]:
        with SyncClient(key, url=crew.url) as client:
            escalated = client.escalate("Proceed?", options=["go"])
            kinds = [e.kind for e in client.poll(after=0).events]
            return escalated.escalation_id, kinds

    escalation_id, kinds = await asyncio.to_thread(agent)
    assert kinds == []
    record = await crew.crewline.store.escalation(escalation_id)
    assert record is not None and record.is_pending


async def test_the_sync_clients_events_resume_from_the_cursor_file(
    crew: Crew, tmp_path: Path
) -> None:
    """SyncClient.events, left with a break as a script leaves it, saved its cursor: a second
    loop over the same file starts after what the first was handed."""
    radar = await crew.add_member()
    sender = await crew.add_session("plain")
    cursor_file = tmp_path / "cursor"
    async with Client(sender, url=crew.url) as other:
        for n in range(3):
            await other.send("radar", f"m{n}")

    def agent() -> tuple[list[str], list[str]]:
        first: list[str] = []
        rest: list[str] = []
        with SyncClient(radar, url=crew.url) as client:
            for event in client.events(cursor_file=cursor_file):
                first.append(event.body["text"])
                if len(first) == 2:
                    break
            for event in client.events(cursor_file=cursor_file):
                rest.append(event.body["text"])
                break
        return first, rest

    first, rest = await asyncio.to_thread(agent)
    assert (first, rest) == (["m0", "m1"], ["m2"])
    assert int(cursor_file.read_text()) == (await crew.events(radar))[-1]["cursor"]
