"""Click to agent event: how long from a human's button press to the agent reading it.

crewline serves its real HTTP API with one transport. Setup: every member raises
escalations (in-process, not timed) until the clicks have their cards, delivered through
the transport's outbox. Then the human presses one card's first button every 1/rate
seconds — open loop: a press never waits for the one before — while each member's agent,
in a separate process (``bench.listener``), long-polls ``GET /api/session/events``.

Figures: press → ``escalation_answered`` in the agent's hands, p50/p99 (target p99 ≤ 5 ms
at 100 clicks/s on the memory transport, issue 29); press → the transport's receipt (the
core judged and committed the click); baseline (same run, same load, same client
process): a ``GET /healthz`` round trip sent at the same rate on its own connection.

Transports: ``--transport NAME`` (repeatable) picks the harnesses of ``tests/harness.py``
— the same table the end-to-end suites run over, where each platform registers its
harness (and its loopback fake) from ``tests/harnesses/<name>.py``. ``DEFAULT_TRANSPORTS``
is what ``bench.run`` measures; adding a platform there is the whole change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.common import Options, Target, figure, parse_options, percentile, scratch, write_result
from bench.serving import ROOT, add_members, serving
from crewline.bot.escalations import EscalationRequest

if TYPE_CHECKING:
    from tests.harness import Harness, Shown

NAME = "click_latency"
# The transports bench.run measures. A platform joins by its harness name once its harness
# and fake are in tests/harnesses/ (e.g. "slack", "telegram", "discord").
DEFAULT_TRANSPORTS: tuple[str, ...] = ("memory",)
RATE = 100.0  # clicks per second
CARDS_PER_MEMBER = 30  # below the backlog ceiling of 50


def harnesses() -> dict[str, Callable[[], Harness]]:
    """Every registered harness by transport name (imported late: it loads the fakes)."""
    from tests.harness import HARNESSES

    return HARNESSES


def _cards(harness: Harness, slugs: list[str]) -> dict[str, tuple[str, Shown]]:
    """escalation id -> (member, card) for every card shown with buttons."""
    found: dict[str, tuple[str, Shown]] = {}
    for slug in slugs:
        for shown in harness.cards(slug):
            for payload in shown.payloads:
                if payload.startswith("e:"):
                    found.setdefault(payload.split(":")[1], (slug, shown))
    return found


async def one_run(options: Options, transport: str, clicks: int) -> dict[str, float]:
    members = -(-clicks // CARDS_PER_MEMBER)
    with scratch(options, f"click-{transport}") as directory:
        made = harnesses()[transport]()
        async with (
            made.running() as harness,
            serving(directory, transports=[harness.transport()]) as crewline,
        ):
            serving_at = getattr(harness, "serving", None)
            if callable(serving_at):  # a webhook harness relays to where crewline serves
                serving_at(crewline.url)
            created = await add_members(
                crewline.store,
                members,
                prefix="clk",
                owner=harness.owner,
                transports=[harness.name],
            )
            escalations: list[str] = []
            for index in range(clicks):
                session = created[index % members].session
                receipt = await crewline.bot.escalations.escalate(
                    session,
                    EscalationRequest(message=f"Decision {index}: go?", options=("go", "wait")),
                )
                escalations.append(receipt.escalation.id)
            await crewline.outboxes[harness.name].wait_idle(timeout=600)
            slugs = [f"clk{n}" for n in range(members)]
            cards = _cards(harness, slugs)
            missing = [e for e in escalations if e not in cards]
            if missing:
                raise RuntimeError(f"{len(missing)} cards were not shown on {transport}")
            spec = {
                "url": crewline.url,
                "keys": [c.key for c in created],
                "expect": clicks,
                "timeout": 60 + clicks / RATE,
                "ping_rate": RATE,
            }
            spec_file = directory / "listener.json"
            spec_file.write_text(json.dumps(spec))
            listener = await _start_listener(spec_file)
            try:
                await _wait_listening(crewline, len(created))
                pressed, receipts = await _press_all(harness, escalations, cards)
                result = await _finish_listener(listener, timeout=60 + clicks / RATE)
            finally:
                if listener.returncode is None:
                    listener.kill()
                    await listener.wait()
    arrived: dict[str, float] = result["events"]
    lost = [e for e in escalations if e not in arrived]
    if lost:
        raise RuntimeError(f"{len(lost)} of {clicks} answers never reached their agent")
    to_event = [arrived[e] - pressed[e] for e in escalations]
    to_receipt = [receipts[e] - pressed[e] for e in escalations]
    span = max(pressed.values()) - min(pressed.values())
    return {
        "event_p50": percentile(to_event, 50),
        "event_p99": percentile(to_event, 99),
        "receipt_p50": percentile(to_receipt, 50),
        "receipt_p99": percentile(to_receipt, 99),
        "ping_p50": percentile(result["pings"], 50),
        "ping_p99": percentile(result["pings"], 99),
        "click_rate": (clicks - 1) / span if span > 0 else float("nan"),
    }


async def _start_listener(spec_file: Path) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.listener",
        str(spec_file),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    async with asyncio.timeout(60):
        line = await process.stdout.readline()
    if line.strip() != b"ready":
        err = await process.stderr.read() if process.stderr else b""
        raise RuntimeError(f"the listener did not start: {line!r} {err.decode()[-2000:]}")
    return process


async def _wait_listening(crewline: Any, sessions: int) -> None:
    """Wait (bounded) until every agent's long poll is parked in the event feed, so the
    first presses do not measure the listener's own start-up."""
    feed = crewline.hub.feed
    async with asyncio.timeout(30):
        while len(feed._signals) < sessions:  # noqa: ASYNC110 - the feed offers no hook
            await asyncio.sleep(0.01)


async def _press_all(
    harness: Harness, escalations: list[str], cards: dict[str, tuple[str, Shown]]
) -> tuple[dict[str, float], dict[str, float]]:
    pressed: dict[str, float] = {}
    receipts: dict[str, float] = {}

    async def press(escalation_id: str) -> None:
        member, shown = cards[escalation_id]
        pressed[escalation_id] = time.monotonic()
        await harness.press(member, shown, 0)
        receipts[escalation_id] = time.monotonic()

    tasks = []
    start = time.monotonic()
    for index, escalation_id in enumerate(escalations):
        delay = start + index / RATE - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(press(escalation_id)))
    await asyncio.gather(*tasks)
    return pressed, receipts


async def _finish_listener(process: asyncio.subprocess.Process, *, timeout: float) -> Any:
    async with asyncio.timeout(timeout):
        out, err = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"the listener failed: {err.decode()[-2000:]}")
    return json.loads(out.decode().strip().splitlines()[-1])


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--transport",
        action="append",
        default=None,
        help=f"a harness name from tests/harness.py (repeatable; default: {DEFAULT_TRANSPORTS})",
    )


async def main(options: Options) -> None:
    started = time.perf_counter()
    transports = tuple(options.extra.transport or DEFAULT_TRANSPORTS)
    unknown = [t for t in transports if t not in harnesses()]
    if unknown:
        raise SystemExit(f"no harness named {unknown}; known: {sorted(harnesses())}")
    clicks = options.size(300, 2000, smoke=20)
    figures: list[dict[str, Any]] = []
    for transport in transports:
        runs = [await one_run(options, transport, clicks) for _ in range(options.runs)]

        def col(key: str, scale: float = 1000.0) -> list[float]:
            return [r[key] * scale for r in runs]  # noqa: B023 - used at once

        ping = f"GET /healthz round trip at {RATE:g}/s, same run, same load"
        figures += [
            figure(
                f"{transport}.click_to_event_p99_ms",
                f"{transport}: press → agent event, p99",
                "ms",
                col("event_p99"),
                higher_is_better=False,
                baseline=col("ping_p99"),
                baseline_label=f"{ping}, p99",
                target=Target(kind="at_most", value=5.0) if transport == "memory" else None,
            ),
            figure(
                f"{transport}.click_to_event_p50_ms",
                f"{transport}: press → agent event, p50",
                "ms",
                col("event_p50"),
                higher_is_better=False,
                baseline=col("ping_p50"),
                baseline_label=f"{ping}, p50",
            ),
            figure(
                f"{transport}.press_to_receipt_p99_ms",
                f"{transport}: press → receipt (click judged and committed), p99",
                "ms",
                col("receipt_p99"),
                higher_is_better=False,
            ),
            figure(
                f"{transport}.press_to_receipt_p50_ms",
                f"{transport}: press → receipt, p50",
                "ms",
                col("receipt_p50"),
                higher_is_better=False,
            ),
            figure(
                f"{transport}.click_rate",
                f"{transport}: clicks sent per second (asked: {RATE:g})",
                "clicks/s",
                col("click_rate", 1.0),
                higher_is_better=True,
            ),
        ]
    write_result(
        options,
        title="Click to agent event latency at 100 clicks/s",
        sizes={
            "transports": list(transports),
            "clicks_per_run": clicks,
            "rate_per_s": RATE,
            "members": -(-clicks // CARDS_PER_MEMBER),
        },
        baseline=(
            "GET /healthz round trip on its own keep-alive connection, sent at the same rate"
            " from the agents' process during the same clicks: the HTTP floor under the same"
            " load."
        ),
        figures=figures,
        started=started,
        notes=[
            "The human's presses run in crewline's process (as a platform's webhook would),"
            " the agents in another; both stamp the system-wide monotonic clock.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, add_arguments=_arguments)))
