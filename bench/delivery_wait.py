"""The escalate reply's wait for delivery: escalations/s with agents waiting, against the same
agents asking not to wait (``wait_for_delivery: false``), same server, same run.

Subject: ``bench.api_escalate``'s load (50 agents, each its own member's session on one
keep-alive connection, back to back) with the default body: each reply waits up to
``DELIVERY_WAIT`` for the platform to accept its card, so that ``delivery`` can say
``delivered``. Baseline: the same load on the same server with ``wait_for_delivery: false``
(each card ``queued`` at once), on members of its own (a member's backlog is bounded). The
two loads alternate which goes first from run to run; the outbox is drained after each.

Also: the server loop's CPU per escalation for each (from the first request to the last
card delivered), each load's time to drain its outbox after the last reply (the delivery
work a load leaves for later is not in its escalations/s), and escalations/s counted to
the last card delivered (the load's time plus that drain).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench.api_escalate import AGENTS, BODY, ESCALATE, _on_cpu, _rate
from bench.common import Options, figure, parse_options, scratch, write_result
from bench.serving import add_members, helper_process, serving
from crewline.limits import MAX_PENDING

NAME = "delivery_wait"
NOT_WAITING = {**BODY, "wait_for_delivery": False}


async def one_run(options: Options, per_agent: int, *, waiting_first: bool) -> dict[str, float]:
    keys_each = -(-per_agent // MAX_PENDING)
    with scratch(options, "wait") as directory:
        async with serving(directory, concierge=None) as crewline:

            async def load(body: dict[str, Any], prefix: str) -> dict[str, float]:
                made = await add_members(
                    crewline.store, AGENTS * keys_each, prefix=prefix, transports=["memory"]
                )
                keys = [m.key for m in made]
                spec = {
                    "url": crewline.url,
                    "method": "POST",
                    "path": ESCALATE,
                    "body": body,
                    "per_key": MAX_PENDING,
                    "workers": [
                        {"keys": keys[n * keys_each : (n + 1) * keys_each], "count": per_agent}
                        for n in range(AGENTS)
                    ],
                }
                drained: list[float] = []

                async def run_and_drain() -> dict[str, Any]:
                    result = await helper_process("loadgen", spec, timeout=600)
                    ended = time.perf_counter()
                    await crewline.outboxes["memory"].wait_idle(timeout=300)
                    drained.append(time.perf_counter() - ended)
                    return result

                result, cpu = await _on_cpu(run_and_drain())
                rate, p50, _ = _rate(result)
                return {
                    "per_s": rate,
                    "to_cards_per_s": result["requests"] / (result["elapsed"] + drained[0]),
                    "p50": p50,
                    "cpu_us": 1e6 * cpu / result["requests"],
                    "drain_s": drained[0],
                }

            order: list[tuple[str, dict[str, Any]]] = [
                ("waiting", BODY),
                ("not_waiting", NOT_WAITING),
            ]
            if not waiting_first:
                order.reverse()
            found = {name: await load(body, name.replace("_", "-")) for name, body in order}
    return {f"{name}_{key}": value for name, run in found.items() for key, value in run.items()}


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_agent = options.size(30, 100, smoke=2)
    runs = [
        await one_run(options, per_agent, waiting_first=n % 2 == 0) for n in range(options.runs)
    ]

    def col(key: str, scale: float = 1.0) -> list[float]:
        return [r[key] * scale for r in runs]

    not_waiting = "same load and server, agents sending wait_for_delivery: false"
    # (name, what, unit, column, scale, higher is better): waiting, against not waiting.
    rows = [
        ("escalations_per_s", f"escalations/s over HTTP, {AGENTS} agents waiting for delivery"
         " (the default)", "req/s", "per_s", 1, True),
        ("escalations_to_cards_per_s", "escalations/s counted to the last card delivered"
         " (load + outbox drain), waiting", "req/s", "to_cards_per_s", 1, True),
        ("escalate_p50_ms", "escalate latency p50, waiting for delivery", "ms", "p50", 1000,
         False),
        ("escalate_server_cpu_us", "server loop-thread CPU per escalation waiting for"
         " delivery, to its delivered card", "us", "cpu_us", 1, False),
        ("drain_s", "seconds to drain the outbox after the last reply, waiting for delivery",
         "s", "drain_s", 1, False),
    ]  # fmt: skip
    figures = [
        figure(
            name,
            what,
            unit,
            col(f"waiting_{column}", scale),
            higher_is_better=higher,
            baseline=col(f"not_waiting_{column}", scale),
            baseline_label=not_waiting,
        )
        for name, what, unit, column, scale, higher in rows
    ]
    write_result(
        options,
        title="The escalate reply's wait for delivery: waiting vs not, same server",
        sizes={"agents": AGENTS, "escalations_per_agent": per_agent, "loads_per_run": 2},
        baseline=(
            "the same 50 agents on the same server (fresh members) sending"
            " wait_for_delivery: false, in the same run; which load goes first alternates"
        ),
        figures=figures,
        started=started,
        notes=[
            "Server (SQLite, the memory transport) and load generator are separate processes"
            " on the same cores; closed loop (each agent sends its next request when the"
            " previous one answered).",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=5)))
