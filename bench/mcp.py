"""MCP: ``session_escalate`` over streamable HTTP at ``/mcp`` with 50 agents, against the
HTTP API's escalate on the same server in the same run.

Subject: 50 agents, each a member's own session, call the ``session_escalate`` tool back to
back as JSON-RPC ``tools/call`` POSTs to ``/mcp`` from ``bench.loadgen`` — the same minimal
keep-alive client as the baseline, so the ratio is the server's MCP path (bearer check, the
SDK's stateless streamable-HTTP handling, argument validation) against its HTTP route, over
the same operation. Every call's result is checked afterwards: the escalations must all be
in the store.

Baseline (same run, same server): the same number of escalations from 50 agents through
``POST /api/session-control/escalate``, right before and right after the MCP load,
averaged.

Also, without a target: the server loop thread's CPU per call, from the load's first request
to its cards delivered, MCP against the HTTP escalate (CPU time moves less than calls/s on a
shared machine, so it shows a cut of the MCP path that the rate cannot); and the same calls
made with the official SDK's client
(``bench.mcp_load``, one ``mcp.Client`` per agent in one process), which is what an agent
really runs; its own cost is part of that round trip. Every load drains the outbox before
the next starts, and each uses members of its own (a member holds at most 50 open
escalations).
"""

from __future__ import annotations

import asyncio
import resource
import time
from typing import Any

from bench.common import Options, Target, figure, parse_options, percentile, scratch, write_result
from bench.serving import add_members, helper_process, serving

NAME = "mcp"
AGENTS = 50
ARGUMENTS = {
    "message": "Merge the dependency bump? CI is green on all 3 targets.",
    "options": ["yes", "no"],
}
# A tools/call of MCP's 2026-07-28 revision, the one the SDK's client speaks: one
# self-contained POST, its routing in the headers, no session to set up first.
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {
        "name": "session_escalate",
        "arguments": ARGUMENTS,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "bench.loadgen", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    },
}
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "session_escalate",
}


# This thread runs the server's event loop; elsewhere than Linux, the whole process.
_LOOP_THREAD = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)


def _loop_cpu() -> float:
    used = resource.getrusage(_LOOP_THREAD)
    return used.ru_utime + used.ru_stime


def _rate(load: dict[str, Any], ok: str = "200") -> tuple[float, float, float]:
    done = int(load["statuses"].get(ok, 0))
    if done != load["requests"]:
        raise RuntimeError(f"not every call succeeded: {load['statuses']}")
    latencies = load["latencies"]
    return done / load["elapsed"], percentile(latencies, 50), percentile(latencies, 99)


async def one_run(options: Options, per_agent: int) -> dict[str, float]:
    with scratch(options, "mcp") as directory:
        async with serving(directory) as crewline:
            made = await add_members(
                crewline.store, 4 * AGENTS, prefix="agent", transports=["memory"]
            )
            keys = [m.key for m in made]
            batches = [keys[n * AGENTS : (n + 1) * AGENTS] for n in range(4)]

            async def load(batch: list[str], path: str, body: Any, **extra: Any) -> Any:
                """The load's result, with the loop's CPU per call (to its cards delivered)."""
                spec = {
                    "url": crewline.url,
                    "method": "POST",
                    "path": path,
                    "body": body,
                    "workers": [{"keys": [key], "count": per_agent} for key in batch],
                    **extra,
                }
                started = _loop_cpu()
                result = await helper_process("loadgen", spec, timeout=600)
                await crewline.outboxes["memory"].wait_idle(timeout=300)
                result["cpu_us"] = 1e6 * (_loop_cpu() - started) / max(1, result["requests"])
                return result

            first = await load(batches[0], "/api/session-control/escalate", ARGUMENTS)
            mcp = await load(batches[1], "/mcp", CALL, headers=MCP_HEADERS)
            before, subject = _rate(first), _rate(mcp)
            opened = 0
            for n in range(AGENTS, 2 * AGENTS):
                opened += len(await crewline.store.escalations(f"agent{n}"))
            if opened != AGENTS * per_agent:
                raise RuntimeError(f"{opened} escalations over MCP, not {AGENTS * per_agent}")
            sdk_spec = {
                "url": crewline.url,
                "keys": batches[2],
                "count": per_agent,
                "arguments": ARGUMENTS,
            }
            sdk = _rate(await helper_process("mcp_load", sdk_spec, timeout=900), "ok")
            await crewline.outboxes["memory"].wait_idle(timeout=300)
            last = await load(batches[3], "/api/session-control/escalate", ARGUMENTS)
            after = _rate(last)
    return {
        "mcp_cpu_us": mcp["cpu_us"],
        "http_cpu_us": (first["cpu_us"] + last["cpu_us"]) / 2,
        "mcp_per_s": subject[0],
        "mcp_p50": subject[1],
        "mcp_p99": subject[2],
        "sdk_per_s": sdk[0],
        "sdk_p50": sdk[1],
        "sdk_p99": sdk[2],
        "http_per_s": (before[0] + after[0]) / 2,
        "http_p50": (before[1] + after[1]) / 2,
        "http_p99": (before[2] + after[2]) / 2,
    }


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_agent = options.size(20, 50, smoke=1)
    runs = [await one_run(options, per_agent) for _ in range(options.runs)]

    def col(key: str, scale: float = 1.0) -> list[float]:
        return [r[key] * scale for r in runs]

    figures = [
        figure(
            "mcp_escalations_per_s",
            f"session_escalate calls/s over MCP streamable HTTP, {AGENTS} agents",
            "calls/s",
            col("mcp_per_s"),
            higher_is_better=True,
            baseline=col("http_per_s"),
            baseline_label=f"HTTP API escalations/s, same server, {AGENTS} agents",
            target=Target(kind="ratio_at_least", value=0.6),
        ),
        figure(
            "mcp_escalate_p50_ms",
            "session_escalate round trip p50 over MCP",
            "ms",
            col("mcp_p50", 1000),
            higher_is_better=False,
            baseline=col("http_p50", 1000),
            baseline_label="HTTP API escalate p50, same load",
        ),
        figure(
            "mcp_server_cpu_us",
            "server loop-thread CPU per session_escalate over MCP, from its request to its"
            " delivered cards",
            "us",
            col("mcp_cpu_us"),
            higher_is_better=False,
            baseline=col("http_cpu_us"),
            baseline_label="per HTTP API escalate, same server, same load",
            note="the first MCP load of a server also imports the MCP SDK (on another thread)",
        ),
        figure(
            "mcp_sdk_escalations_per_s",
            f"session_escalate calls/s with the SDK's own client, {AGENTS} agents",
            "calls/s",
            col("sdk_per_s"),
            higher_is_better=True,
            baseline=col("http_per_s"),
            baseline_label=f"HTTP API escalations/s, same server, {AGENTS} agents",
            note="the SDK's client shares the load process's core: its cost is measured too",
        ),
        figure(
            "mcp_sdk_escalate_p50_ms",
            "session_escalate round trip p50 with the SDK's own client",
            "ms",
            col("sdk_p50", 1000),
            higher_is_better=False,
            baseline=col("http_p50", 1000),
            baseline_label="HTTP API escalate p50, same load",
        ),
        figure(
            "mcp_escalate_p99_ms",
            "session_escalate round trip p99 over MCP",
            "ms",
            col("mcp_p99", 1000),
            higher_is_better=False,
            baseline=col("http_p99", 1000),
            baseline_label="HTTP API escalate p99, same load",
        ),
    ]
    write_result(
        options,
        title="MCP: session_escalate over streamable HTTP vs the HTTP API's escalate",
        sizes={"agents": AGENTS, "calls_per_agent": per_agent, "calls": AGENTS * per_agent},
        baseline=(
            "POST /api/session-control/escalate on the same server from 50 keep-alive"
            " connections (bench.loadgen), right before and right after the MCP load,"
            " averaged."
        ),
        figures=figures,
        started=started,
        notes=[
            "The MCP subject and the HTTP baseline use the same minimal client; the SDK"
            " figures run the official mcp.Client, one per agent in one process. All are"
            " closed loops on the same 2 cores as the server.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=5)))
