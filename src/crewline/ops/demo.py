"""``crewline demo``: the local inbox with a small crew that behaves like real agents.

crewline serves the local inbox on 127.0.0.1 from a data directory of its own; four demo
members (owned by ``local:owner``, the inbox's human) then work through the public
agents' API over HTTP — exactly what a real agent does, with its own session key:

- **Radar** escalates a migration with a deadline, a default and options, and then a
  second request of the same goal whose veto window closes within two minutes;
- **Scout** posts a finding;
- **Atlas** starts a *worker*, whose escalation lands in Atlas's thread;
- **Quill** asks a blocking question and waits for it.

Each one reads its event stream and says what it will do with every answer, reply, edit
and closed window it receives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import tempfile
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

from crewline import crew
from crewline.config import Config
from crewline.errors import CannotListen
from crewline.models import CallerKind
from crewline.serving_lock import ServingLock
from crewline.store.sqlite import SqliteStore
from crewline.tasks import cancel_and_wait

__all__ = ["DEMO_OWNER", "DEMO_PORT", "DemoAgent", "enlist", "open_browser", "run_demo"]

log = logging.getLogger(__name__)

DEMO_OWNER = "local:owner"  # the local inbox's human (LocalTransport's default user)
DEMO_PORT = 8765
EVENT_WAIT = 2.0  # long-poll seconds: short, so stopping the demo is never held up


@dataclass(frozen=True, kw_only=True, slots=True)
class DemoMember:
    slug: str
    name: str


CREW = (
    DemoMember(slug="radar", name="Radar"),
    DemoMember(slug="scout", name="Scout"),
    DemoMember(slug="atlas", name="Atlas"),
    DemoMember(slug="quill", name="Quill"),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Keys:
    """The demo's session keys: each member's own, and Atlas's worker's."""

    members: Mapping[str, str]
    worker: str
    sessions: tuple[str, ...]  # every demo session's id


async def enlist(data_dir: Path) -> Keys:
    """Add the demo members and Atlas's worker, as ``crewline member add`` would."""
    async with SqliteStore.in_directory(data_dir) as store:
        existing = {m.slug for m in await store.members()}
        taken = sorted(existing & {m.slug for m in CREW})
        if taken:
            raise DemoRefused(
                f"{data_dir} already has a member named {taken[0]!r}: the demo needs a data "
                "directory of its own (leave out --data-dir for a fresh one)"
            )
        members, sessions = {}, []
        for member in CREW:
            created = await crew.add_member(
                store,
                slug=member.slug,
                name=member.name,
                owners=[DEMO_OWNER],
                transports=["local"],
            )
            members[member.slug] = created.key
            sessions.append(created.session.id)
        worker = await crew.add_session(store, kind=CallerKind.WORKER, member="atlas")
        sessions.append(worker.session.id)
    return Keys(members=members, worker=worker.key, sessions=tuple(sessions))


class DemoRefused(Exception):
    """The demo cannot run where it was asked to."""


# --- one agent, speaking the public API ----------------------------------------------------------


@dataclass(kw_only=True, slots=True)
class DemoAgent:
    """An agent process: its session key, an HTTP client, and its event cursor."""

    name: str
    client: httpx.AsyncClient
    cursor: int = 0
    plans: dict[str, Mapping[str, str]] = field(default_factory=dict)  # escalation → plan

    async def call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = await self.client.request(method, path, **kwargs)
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    async def say(self, text: str) -> None:
        await self.call("POST", "/api/session/messages", json={"text": text})

    async def escalate(self, *, plans: Mapping[str, str], **body: Any) -> str:
        """Escalate; ``plans`` says what the agent will do for each option."""
        result = await self.call("POST", "/api/session-control/escalate", json=body)
        escalation_id = str(result["escalation_id"])
        self.plans[escalation_id] = plans
        return escalation_id

    async def ask(self, question: str, options: list[str]) -> str:
        result = await self.call(
            "POST", "/api/session-control/ask", json={"question": question, "options": options}
        )
        return str(result["question_id"])

    async def events(self) -> AsyncIterator[dict[str, Any]]:
        """The session's event stream, long-polled, resuming from the last cursor."""
        while True:
            page = await self.call(
                "GET", "/api/session/events", params={"after": self.cursor, "wait": EVENT_WAIT}
            )
            for event in page["events"]:
                self.cursor = event["cursor"]
                yield event

    async def react(self, event: dict[str, Any]) -> None:
        """Say what this agent will do about an event, as a real agent would."""
        kind, body = event["kind"], event["body"]
        if kind == "escalation_answered":
            plans = self.plans.get(body["escalation_id"], {})
            answer = str(body["answer"])
            who = "the concierge" if body.get("by") == "concierge" else "you"
            plan = plans.get(answer) or f"I'll go with “{answer}” and report back."
            await self.say(f"Thanks, {who} answered “{answer}”. {plan}")
        elif kind == "window_closed":
            default = body.get("default_action")
            if body.get("state") == "defaulted" and default:
                await self.say(f"No reply by the deadline, so I'm doing what I said: {default}.")
                await self.call(
                    "POST",
                    f"/api/session-control/escalations/{body['escalation_id']}/default-applied",
                )
            else:
                await self.say("The window closed with no reply; I'll leave this open for now.")
        elif kind == "question_answered":
            await self.say(f"Got it: {body['answer']}. Carrying on with that.")
        elif kind == "human_message":
            await self.say(f"Noted: “{body['text']}”. I'll take it into account.")
        elif kind == "context_boundary" and body.get("discard"):
            # The demo agents keep no context of their own: letting go of it is immediate.
            await self.call("POST", f"/api/session/boundaries/{body['boundary_id']}/ack")

    async def listen(self) -> None:
        async for event in self.events():
            try:
                await self.react(event)
            except httpx.HTTPError as error:
                log.warning("demo %s could not react to %s: %s", self.name, event["kind"], error)


# --- the crew's script ---------------------------------------------------------------------------


async def radar(agent: DemoAgent) -> None:
    await agent.say("Morning. The orders-table migration is ready; one decision before tonight.")
    await agent.escalate(
        message=(
            "The **orders** migration locks writes for about 4 minutes. "
            "Run it tonight at 02:00 UTC?"
        ),
        deadline="PT15M",
        default_action="run it tonight at 02:00 UTC as planned",
        options=["Run tonight", "Postpone a week", "Cancel it"],
        goal="db-migration",
        plans={
            "Run tonight": "Running it at 02:00 UTC; I'll post the timings afterwards.",
            "Postpone a week": "Moved to next Tuesday, 02:00 UTC; I've told the on-call.",
            "Cancel it": "Cancelled. The table stays as it is; I'll close the ticket.",
        },
    )
    await agent.escalate(
        message="The read replica's credentials expire on Friday. Rotate them in the same window?",
        deadline="PT2M",
        default_action="rotate them in tonight's window",
        options=["Rotate too", "Keep separate"],
        goal="db-migration",
        plans={
            "Rotate too": "Adding the rotation to tonight's run book.",
            "Keep separate": "I'll schedule the rotation on its own for Thursday.",
        },
    )
    await agent.listen()


async def scout(agent: DemoAgent) -> None:
    await agent.say(
        "Finding: p95 latency of `/search` rose from 120 ms to 480 ms after Tuesday's deploy. "
        "The new `title_trgm` index is never used: the query lowercases the column first. "
        "Fix drafted in `reports/search-latency.md`."
    )
    await agent.listen()


async def atlas(agent: DemoAgent, worker: DemoAgent) -> None:
    await agent.say("I started a worker, **refactor/auth-7**, on the login refactor.")
    await worker.escalate(
        message=(
            "refactor/auth-7: `legacy_login()` has two callers with no tests. Refactor them anyway?"
        ),
        options=["Refactor now", "Write tests first"],
        goal="auth-refactor",
        plans={
            "Refactor now": "refactor/auth-7 is refactoring both callers now.",
            "Write tests first": "refactor/auth-7 is writing the tests first, then refactoring.",
        },
    )
    await asyncio.gather(agent.listen(), worker.listen())


async def quill(agent: DemoAgent) -> None:
    await agent.say("The docs site draft is ready; I'm blocked on one question before publishing.")
    await agent.ask(
        "Which license should the docs site use?", ["CC BY 4.0", "MIT", "Same as the code"]
    )
    await agent.listen()


async def play(url: str, keys: Keys) -> None:
    """Run the demo crew against crewline at ``url`` until cancelled."""
    async with contextlib.AsyncExitStack() as stack:

        async def agent(name: str, key: str) -> DemoAgent:
            client = await stack.enter_async_context(
                httpx.AsyncClient(
                    base_url=url,
                    headers={"Authorization": f"Bearer {key}"},
                    timeout=EVENT_WAIT + 15,
                )
            )
            return DemoAgent(name=name, client=client)

        members = {slug: await agent(slug, key) for slug, key in keys.members.items()}
        worker = await agent("refactor/auth-7", keys.worker)
        scripts: list[Awaitable[None]] = [
            scout(members["scout"]),
            radar(members["radar"]),
            atlas(members["atlas"], worker),
            quill(members["quill"]),
        ]
        await asyncio.gather(*scripts)


async def _play_logged(url: str, keys: Keys) -> None:
    try:
        await play(url, keys)
    except Exception:
        log.exception("the demo crew stopped; the inbox keeps running")


def _print(line: str) -> None:
    print(line, flush=True)


# --- the command ---------------------------------------------------------------------------------


def browser_available(env: Mapping[str, str] | None = None) -> bool:
    """A graphical browser can be opened: not under CI, and on Linux only with a display
    (a console browser would take over the terminal the demo prints to)."""
    env = os.environ if env is None else env
    if env.get("CI", "").lower() not in ("", "0", "false"):
        return False
    if sys.platform.startswith("linux"):
        return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    return True


async def open_browser(url: str) -> None:
    with contextlib.suppress(webbrowser.Error, OSError):
        await asyncio.to_thread(webbrowser.open, url, 2)


async def run_demo(
    config: Config,
    *,
    data_dir: Path | None,
    host: str | None,
    port: int | None,
    browser: bool,
    until: Callable[[], Coroutine[Any, Any, None]],
    out: Callable[[str], None] | None = None,
) -> int:
    """Serve the local inbox with the demo crew until ``until()`` returns."""
    from crewline.app.server import Crewline

    out = out or _print
    with contextlib.ExitStack() as cleanup:
        if data_dir is None:
            data_dir = Path(
                cleanup.enter_context(tempfile.TemporaryDirectory(prefix="crewline-demo-"))
            )
            where = f"{data_dir} (removed when the demo stops)"
        else:
            where = str(data_dir)
        # Taken before the crew is written: a directory another crewline serves is refused
        # untouched (AlreadyServing), and no server can start on it while the demo runs.
        lock = cleanup.enter_context(ServingLock(data_dir))
        try:
            keys = await enlist(data_dir)
        except DemoRefused as refused:
            out(f"crewline demo: {refused}")
            return 2
        config = replace(
            config,
            data_dir=data_dir,
            host=host or "127.0.0.1",
            port=DEMO_PORT if port is None else port,
            transports=("local",),
            sections={},
        )
        try:
            running = Crewline(config, serving_lock=lock)
            await running.__aenter__()
        except CannotListen as error:
            if port is not None:
                raise
            log.info("port %d is taken (%s); the demo takes a free one", DEMO_PORT, error)
            running = Crewline(replace(config, port=0), serving_lock=lock)
            await running.__aenter__()
        stop = asyncio.create_task(until(), name="demo-until")
        await asyncio.sleep(0)  # let it install its signal handlers before the URL is out
        try:
            url = running.url + "/"
            out(f"crewline demo: the local inbox is at {url}")
            out(f"  data: {where}; press Ctrl-C to stop")
            if browser and browser_available():
                await open_browser(url)
            crew_task = asyncio.create_task(_play_logged(running.url, keys), name="demo-crew")
            try:
                await stop
            finally:
                await cancel_and_wait(crew_task)
                # The crew's last long-polls would hold the server's shutdown for their
                # full wait: end them now.
                running.hub.feed.notify(keys.sessions)
        finally:
            stop.cancel()
            await running.__aexit__(None, None, None)
    return 0
