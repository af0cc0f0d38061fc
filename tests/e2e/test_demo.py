"""`crewline demo`, started as the README's first command starts it, shows its crew.

The demo runs as a subprocess (`python -m crewline demo`, which is what `make demo` runs, on
a free port and without opening a browser). The tests read the page's own JSON and wait on
its live channel, as the page itself does.
"""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.bounds import HTTP_TIMEOUT, WAIT

DEMO_MEMBERS = ["Atlas", "Quill", "Radar", "Scout"]
URL = re.compile(r"https?://\S+")
Snapshot = dict[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class Demo:
    process: subprocess.Popen[str]
    url: str
    started: float  # time.monotonic() when the command was run


def start_demo(data_dir: Path, *, python: Sequence[str] = ("-m", "crewline")) -> Demo:
    """Run `crewline demo` and wait (at most 30 s) for the URL it prints; ``python``: how
    the interpreter runs the command."""
    started = time.monotonic()
    process = subprocess.Popen(
        [
            sys.executable,
            *python,
            "demo",
            "--data-dir",
            str(data_dir),
            "--port",
            "0",
            "--no-browser",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CI": "1"},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    while (left := started + 30 - time.monotonic()) > 0:
        try:
            found = URL.search(lines.get(timeout=left))
        except queue.Empty:
            break
        if found:
            return Demo(process=process, url=found[0].rstrip("/"), started=started)
    process.kill()
    _, err = process.communicate(timeout=10)
    pytest.fail(f"crewline demo printed no URL within 30 s; stderr:\n{err}")


def stop_demo(demo: Demo) -> str:
    """Ctrl-C, as a person stops it; returns its stderr."""
    demo.process.send_signal(signal.SIGINT)
    try:  # a failure detector only: a clean stop takes a second or two, more under load
        _, err = demo.process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        demo.process.kill()
        _, err = demo.process.communicate(timeout=5)
    return err


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    """A demo of the test's own: one test answers a card another counts on being open, so a
    demo shared by the module made them pass or fail by the order they ran in."""
    running = start_demo(tmp_path / "demo")
    yield running
    stop_demo(running)


class Page:
    """What a browser tab on the inbox reads: the JSON views, and the live channel."""

    def __init__(self, client: httpx.AsyncClient, live: ClientConnection, csrf: str) -> None:
        self.client = client
        self.live = live
        self.csrf = csrf

    async def snapshot(self) -> Snapshot:
        state = (await self.client.get("/inbox/state")).json()
        threads = {
            m["slug"]: (await self.client.get(f"/inbox/threads/{m['slug']}")).json()["messages"]
            for m in state["members"]
        }
        return {"state": state, "threads": threads}

    async def until(self, condition: Callable[[Snapshot], bool], *, timeout: float) -> Snapshot:
        """Re-read the page after each live change until ``condition`` holds (bounded)."""
        snapshot: Snapshot = {}
        try:
            async with asyncio.timeout(timeout):
                while not condition(snapshot := await self.snapshot()):
                    await self.live.recv()
        except TimeoutError:
            pytest.fail(f"the page did not get there within {timeout:.0f} s: {snapshot}")
        return snapshot


@asynccontextmanager
async def open_page(url: str) -> AsyncIterator[Page]:
    async with httpx.AsyncClient(
        base_url=url, timeout=HTTP_TIMEOUT, headers={"Origin": url}
    ) as client:
        opened = await client.get("/")
        assert opened.status_code == 200 and "crewline inbox" in opened.text
        csrf = (await client.get("/inbox/state")).json()["csrf"]
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        live_url = "ws" + url.removeprefix("http") + "/inbox/live"
        async with connect(live_url, origin=url, additional_headers={"Cookie": cookie}) as live:
            yield Page(client, live, csrf)


def _crew_shown(snapshot: Snapshot) -> bool:
    threads = snapshot["threads"]
    cards = {slug: [m for m in shown if m["buttons"]] for slug, shown in threads.items()}
    return (
        sorted(m["name"] for m in snapshot["state"]["members"]) == DEMO_MEMBERS
        and len(cards.get("radar", [])) == 2
        and bool(cards.get("atlas"))
        and bool(cards.get("quill"))
        and bool(threads.get("scout"))
        and any("2 requests about db-migration" in b["body"] for b in snapshot["state"]["bells"])
    )


async def test_the_demo_shows_its_crew_within_30_seconds(demo: Demo) -> None:
    """Within 30 s of the command the page shows the four members, Radar's two cards with
    their buttons and veto line (stacked in one bell), the worker's card in Atlas's thread,
    Quill's question and Scout's finding."""
    async with open_page(demo.url) as page:
        shown = await page.until(_crew_shown, timeout=demo.started + 30 - time.monotonic())
    threads = shown["threads"]
    radar = [m for m in threads["radar"] if m["kind"] == "card"]
    labels = [b["label"] for b in radar[0]["buttons"]]
    assert labels[:3] == ["Run tonight", "Postpone a week", "Cancel it"]
    # The concierge's suggestion buttons follow once it has judged the card.
    assert labels[3:] in ([], ["Send suggestion", "Edit", "Dismiss"])
    assert radar[0]["deadline"] is not None and "Unless you reply by" in radar[0]["text"]
    assert any("refactor/auth-7" in m["text"] for m in threads["atlas"] if m["kind"] == "card")
    assert [m["kind"] for m in threads["quill"]].count("question") == 1
    assert any("Finding:" in m["text"] for m in threads["scout"])
    assert demo.process.poll() is None


async def test_a_demo_member_reacts_to_the_answer_it_receives(demo: Demo) -> None:
    """Answering Radar's card makes Radar say, in its thread, what it will do."""
    async with open_page(demo.url) as page:
        shown = await page.until(_crew_shown, timeout=WAIT)
        card = next(
            m for m in shown["threads"]["radar"] if m["kind"] == "card" and "orders" in m["text"]
        )
        assert card["buttons"][1]["label"] == "Postpone a week"
        answered = await page.client.post(
            "/inbox/click",
            json={"thread": "radar", "payload": card["buttons"][1]["payload"]},
            headers={"X-Crewline-CSRF": page.csrf},
        )
        assert answered.json()["accepted"] is True
        reacted = await page.until(
            lambda s: any("Moved to next Tuesday" in m["text"] for m in s["threads"]["radar"]),
            timeout=WAIT,
        )
    texts = [m["text"] for m in reacted["threads"]["radar"]]
    assert any("Answered: Postpone a week — by you" in text for text in texts)


def test_the_demo_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    """Ctrl-C ends the demo promptly, with status 0, keeping the directory it was given.

    Promptly, not by the clock: status 0 says its own signal handler ended it (an unhandled
    Ctrl-C exits 130, and stop_demo's kill after its generous wait -9); and nothing is logged
    at WARNING or above, so the HTTP server did not wait out its graceful-shutdown timeout
    (uvicorn says "timeout graceful shutdown exceeded" at ERROR when it does)."""
    running = start_demo(tmp_path)
    err = stop_demo(running)
    assert running.process.returncode == 0, err
    assert "Traceback" not in err
    assert "graceful shutdown exceeded" not in err
    assert not re.search(r"\b(WARNING|ERROR|CRITICAL)\b", err), err
    assert (tmp_path / "crewline.db").exists()


# What the extras (slack, telegram, discord, postgresql, dev, bench) bring, by import name;
# websockets and yaml are not here: uvicorn[standard] and crewline itself need them.
EXTRA_MODULES = (
    "slack_bolt", "slack_sdk", "aiohttp", "telegram", "discord", "psycopg", "psycopg_pool",
    "pytest", "_pytest", "xdist", "hypothesis", "schemathesis", "jsonschema", "playwright",
    "tornado", "matplotlib", "mypy", "ruff", "pre_commit",
)  # fmt: skip
REFUSE_EXTRAS = f"""
import importlib.abc, runpy, sys

class Refused(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {EXTRA_MODULES!r}:
            raise ModuleNotFoundError(name + " comes with an extra; make demo installs none")

sys.meta_path.insert(0, Refused())
"""
WITHOUT_EXTRAS = (
    REFUSE_EXTRAS + 'sys.argv[0] = "crewline"\nrunpy.run_module("crewline", run_name="__main__")\n'
)


def test_the_demo_runs_on_crewline_alone(tmp_path: Path) -> None:
    """What make demo installs is enough: with every extra's modules made unimportable the
    demo starts, serves its crew and stops cleanly."""
    slack = subprocess.run(
        [sys.executable, "-c", REFUSE_EXTRAS + "import crewline.transports.slack"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert slack.returncode == 1 and "comes with an extra" in slack.stderr  # it can refuse
    running = start_demo(tmp_path, python=("-c", WITHOUT_EXTRAS))
    try:
        members = httpx.get(f"{running.url}/readyz", timeout=HTTP_TIMEOUT)
        assert members.status_code == 200, members.text
    finally:
        err = stop_demo(running)
    assert running.process.returncode == 0, err
    assert "comes with an extra" not in err and "Traceback" not in err, err
