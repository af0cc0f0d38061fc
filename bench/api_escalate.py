"""API: escalations per second over HTTP with 50 concurrent agents, against ``/healthz``.

Subject: 50 agents, each a member's own session on one keep-alive connection, POST
``/api/session-control/escalate`` (a message and two options) back to back; every call is
the whole verb — authentication, validation, the member's actor, the durable transaction —
and the cards go out through the memory transport's outbox while the load runs.

Baseline (same run, same server, same client process and concurrency): ``GET /healthz``,
which passes through the same uvicorn + FastAPI stack and does no work, measured right
before and right after the escalations (after the outbox drained) and averaged. The load
comes from a separate process (``bench.loadgen``) so the client does not share the
server's core.

Also: the CPU time of the server's event-loop thread per request (user + system time
across the load, over the requests answered), for an escalation — from its request until
its cards are delivered — against a ``/healthz``. The loop thread is what the GIL holds
the server to (SQLite's fsyncs and scans run on other threads), so the inverse of this
ratio is about the most the throughput ratio can reach.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import Any

from bench.common import Options, Target, figure, parse_options, percentile, scratch, write_result
from bench.serving import add_members, helper_process, serving
from bench.store_commit import fresh_database, pg_server
from crewline.limits import MAX_PENDING

NAME = "api_escalate"
AGENTS = 50
ESCALATE = "/api/session-control/escalate"
BODY = {
    "message": "Merge the dependency bump? CI is green on all 3 targets.",
    "options": ["yes", "no"],
}


def _rate(load: dict[str, Any], expected_status: int = 200) -> tuple[float, float, float]:
    ok = int(load["statuses"].get(str(expected_status), 0))
    if ok != load["requests"]:
        raise RuntimeError(f"not every request answered {expected_status}: {load['statuses']}")
    latencies = load["latencies"]
    return ok / load["elapsed"], percentile(latencies, 50), percentile(latencies, 99)


# This thread runs the server's event loop; elsewhere than Linux, the whole process.
_LOOP_THREAD = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)


async def _on_cpu(load: Awaitable[dict[str, Any]]) -> tuple[dict[str, Any], float]:
    """``load``'s result and the CPU seconds the server's loop thread spent meanwhile."""
    before = resource.getrusage(_LOOP_THREAD)
    result = await load
    after = resource.getrusage(_LOOP_THREAD)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, spent


async def one_run(
    options: Options,
    per_agent: int,
    health_per_agent: int,
    *,
    concierge: str | None = "never",
    database_url: str | None = None,
    during_escalations: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
) -> dict[str, float]:
    """``during_escalations``: entered around the escalation phase alone (``bench.loop_parts``
    counts there)."""
    keys_each = -(-per_agent // MAX_PENDING)
    with scratch(options, "api") as directory:
        async with serving(directory, concierge=concierge, database_url=database_url) as crewline:
            created = await add_members(
                crewline.store, AGENTS * keys_each, prefix="agent", transports=["memory"]
            )
            keys = [made.key for made in created]
            health_spec = {
                "url": crewline.url,
                "method": "GET",
                "path": "/healthz",
                "workers": [{"count": health_per_agent} for _ in range(AGENTS)],
            }
            escalate_spec = {
                "url": crewline.url,
                "method": "POST",
                "path": ESCALATE,
                "body": BODY,
                "per_key": MAX_PENDING,
                "workers": [
                    {"keys": keys[n * keys_each : (n + 1) * keys_each], "count": per_agent}
                    for n in range(AGENTS)
                ],
            }
            health_load, health_cpu = await _on_cpu(
                helper_process("loadgen", health_spec, timeout=300)
            )
            before = _rate(health_load)

            async def escalate_and_deliver() -> dict[str, Any]:
                load = await helper_process("loadgen", escalate_spec, timeout=600)
                await crewline.bot.concierge.idle()
                await crewline.outboxes["memory"].wait_idle(timeout=300)
                return load

            with during_escalations():
                escalate_load, escalate_cpu = await _on_cpu(escalate_and_deliver())
            subject = _rate(escalate_load)
            after = _rate(await helper_process("loadgen", health_spec, timeout=300))
    return {
        "escalate_cpu_us": 1e6 * escalate_cpu / escalate_load["requests"],
        "healthz_cpu_us": 1e6 * health_cpu / health_load["requests"],
        "escalations_per_s": subject[0],
        "escalate_p50": subject[1],
        "escalate_p99": subject[2],
        "healthz_per_s": (before[0] + after[0]) / 2,
        "healthz_p50": (before[1] + after[1]) / 2,
        "healthz_p99": (before[2] + after[2]) / 2,
    }


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_agent = options.size(30, 100, smoke=2)
    health_per_agent = options.size(40, 200, smoke=2)
    runs = [await one_run(options, per_agent, health_per_agent) for _ in range(options.runs)]
    pg_runs: list[dict[str, float]] = []
    with pg_server(options) as server:  # the same load on PostgresStore, same run
        for run in range(options.runs):
            database = fresh_database(server, f"api{run}")
            pg_runs.append(
                await one_run(options, per_agent, health_per_agent, database_url=database)
            )

    def col(key: str, scale: float = 1.0, *, of: list[dict[str, float]] = runs) -> list[float]:
        return [r[key] * scale for r in of]

    figures = [
        figure(
            "escalations_per_s",
            f"escalations/s over HTTP, {AGENTS} concurrent agents",
            "req/s",
            col("escalations_per_s"),
            higher_is_better=True,
            baseline=col("healthz_per_s"),
            baseline_label=f"GET /healthz/s, same server, {AGENTS} concurrent clients",
            target=Target(kind="ratio_at_least", value=0.3),  # issue 29
        ),
        figure(
            "postgres_escalations_per_s",
            f"escalations/s over HTTP on PostgresStore, {AGENTS} concurrent agents",
            "req/s",
            col("escalations_per_s", of=pg_runs),
            higher_is_better=True,
            baseline=col("healthz_per_s", of=pg_runs),
            baseline_label=f"GET /healthz/s, same server, {AGENTS} concurrent clients",
        ),
        figure(
            "postgres_escalate_p50_ms",
            "escalate latency p50 on PostgresStore",
            "ms",
            col("escalate_p50", 1000, of=pg_runs),
            higher_is_better=False,
            baseline=col("healthz_p50", 1000, of=pg_runs),
            baseline_label="GET /healthz latency p50, same load",
        ),
        figure(
            "escalate_server_cpu_us",
            "server loop-thread CPU per escalation, from its request to its delivered cards",
            "us",
            col("escalate_cpu_us"),
            higher_is_better=False,
            baseline=col("healthz_cpu_us"),
            baseline_label="server loop-thread CPU per GET /healthz, same server",
            target=Target(kind="ratio_at_most", value=3.0),  # issue 29
        ),
        figure(
            "escalate_p50_ms",
            "escalate latency p50",
            "ms",
            col("escalate_p50", 1000),
            higher_is_better=False,
            baseline=col("healthz_p50", 1000),
            baseline_label="GET /healthz latency p50, same load",
        ),
        figure(
            "escalate_p99_ms",
            "escalate latency p99",
            "ms",
            col("escalate_p99", 1000),
            higher_is_better=False,
            baseline=col("healthz_p99", 1000),
            baseline_label="GET /healthz latency p99, same load",
        ),
    ]
    write_result(
        options,
        title="API: HTTP escalations/s vs the same server's /healthz",
        sizes={
            "agents": AGENTS,
            "escalations_per_agent": per_agent,
            "escalations": AGENTS * per_agent,
            "healthz_requests_each_side": AGENTS * health_per_agent,
        },
        baseline=(
            "GET /healthz on the same server, same client process, same 50 keep-alive"
            " connections, right before and right after the escalations (outbox drained),"
            " averaged."
        ),
        figures=figures,
        started=started,
        notes=[
            "postgres_* figures: the same load with the server on PostgresStore (a local"
            " PostgreSQL cluster started for the run, fsync on)."
            " Server and load generator are separate processes on the same 2 cores; latency is"
            " measured in the client, per request, closed loop (each agent sends its next"
            " request when the previous one answered).",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=5)))
