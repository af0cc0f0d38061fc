"""Replicas: escalations/s and CPU per escalation with 1 and 2 replicas on one PostgreSQL,
and what the per-member lock costs a commit.

Subject 1: 50 agents escalate over HTTP (a message and two options), split evenly over two
crewline replicas on one PostgreSQL database, each replica serving its own port with the
memory transport; the cards go out through the outboxes (lanes leased between replicas)
while the load runs. Baseline: the same load on one replica, same database server, same
run. Each replica is a server process of its own, as replicas run in production; CPU is
the replicas' processes' user + system time, summed (their event loops and PostgreSQL
worker threads; neither the benchmark's process, the load generators nor the PostgreSQL
server's own processes are counted), from the first request until every outbox is empty
(counted in the database from the benchmark's process), per escalation.

A second baseline separates what splitting the load costs from what coordinating costs:
one replica serving 25 agents, the share each of the two replicas serves (its group
commits as small, its event loop and threads as often idle between requests). What two
replicas cost above it is their coordination (leases, polls) and a second process's
fixed cost.

Subject 2: transactions/s of a one-event write through PostgresStore with 100 concurrent
callers over 50 members when each transaction first takes the member's lock
(``Tx.serialize``, an advisory transaction lock); baseline: the same writes without it. Also
the CPU per commit of each (this process's, every thread: the store's writers; and the
PostgreSQL server's), which a shared machine disturbs less than the rate. The two halves
run in turn, the first of them alternating from run to run, so that neither always meets
a fresh database.

Subject 3: how long a single-connection transport's lease takes to move when its holder
dies (it stops renewing and never releases): from the holder's last renewal to the
standby's start of the transport, with a 1 s lease (the default is 10 s; the time scales
with it). Baseline: the lease's time to live, the least it can take.

The replicas share the machine's cores (and its PostgreSQL): the figures show what
coordination costs, not what a second machine would add.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from typing import Any

from bench.common import Options, Target, figure, parse_options, scratch, write_result
from bench.serving import ServerProcess, add_members, helper_process, server_process
from bench.store_commit import Cpu, fresh_database, pg_server, postmaster_of
from crewline.limits import MAX_PENDING
from crewline.replication.replicas import holder_tag
from crewline.replication.transport_lease import TransportLease
from crewline.store import Store, Tx
from crewline.store.postgres import PostgresStore
from crewline.store.postgres_coordination import PostgresCoordination

NAME = "replicas"
AGENTS = 50
SHARE = AGENTS // 2  # the agents each of two replicas serves
CALLERS = 100
LEASE_TTL = 1.0
DRAIN_LOOK = 0.02  # seconds between two counts of the outboxes' entries
ESCALATE = "/api/session-control/escalate"
BODY = {"message": "Merge the dependency bump? CI is green.", "options": ["yes", "no"]}


async def drained(store: Store, *, timeout: float) -> None:
    """Until no entry is left in any outbox, counted in the database every ``DRAIN_LOOK``
    seconds. An outbox's own ``wait_idle`` is no harness for replicas: it wakes every lane
    of its replica after each call sent, so each replica would try the other's lanes over
    and over while the tail drains, and that would be counted as the escalations' cost."""
    async with asyncio.timeout(timeout):
        while True:  # nothing in this process hears of the replicas' sends: look
            if await store.outbox_size() == 0:
                return
            await asyncio.sleep(DRAIN_LOOK)


def _cpu(replicas: list[ServerProcess]) -> float:
    """The replicas' processes' CPU so far, summed."""
    return sum(replica.cpu() for replica in replicas)


async def escalation_run(
    options: Options, server: str, label: str, replicas: int, per_agent: int, *, agents: int
) -> dict[str, float]:
    database = fresh_database(server, label)
    keys_each = -(-per_agent // MAX_PENDING)
    with scratch(options, label) as directory:
        async with AsyncExitStack() as stack:
            # The benchmark's own look at the database (the members, the outboxes' counts),
            # from this process: the replicas' processes are what is measured.
            store = await stack.enter_async_context(PostgresStore(database, writers=0))
            created = await add_members(
                store, agents * keys_each, prefix="agent", transports=["memory"]
            )
            keys = [made.key for made in created]
            running = [
                # Each replica its own name, as docs/replicas.md asks of an operator, and
                # a process of its own, as each runs in production.
                await stack.enter_async_context(
                    server_process(
                        directory / f"r{n}",
                        database_url=database,
                        replica_id=f"bench-{label}-r{n}",
                    )
                )
                for n in range(replicas)
            ]
            await drained(store, timeout=60)  # the roster's redraws, before the load
            specs = [
                {
                    "url": replica.url,
                    "method": "POST",
                    "path": ESCALATE,
                    "body": BODY,
                    "per_key": MAX_PENDING,
                    "workers": [
                        {"keys": keys[n * keys_each : (n + 1) * keys_each], "count": per_agent}
                        for n in range(agents)
                        if n % replicas == index
                    ],
                }
                for index, replica in enumerate(running)
            ]
            cpu_before, started = _cpu(running), time.perf_counter()
            loads = await asyncio.gather(
                *[helper_process("loadgen", spec, timeout=600) for spec in specs]
            )
            await drained(store, timeout=300)
            cpu, elapsed = _cpu(running) - cpu_before, time.perf_counter() - started
    requests = sum(int(load["requests"]) for load in loads)
    ok = sum(int(load["statuses"].get("200", 0)) for load in loads)
    if ok != requests:
        raise RuntimeError(f"not every escalation answered 200: {[x['statuses'] for x in loads]}")
    return {
        "escalations_per_s": requests / max(float(load["elapsed"]) for load in loads),
        "cpu_us": 1e6 * cpu / requests,
        "delivered_per_s": requests / elapsed,
    }


async def lock_run(
    server: str, label: str, per_caller: int, *, locked_first: bool
) -> dict[str, float]:
    database = fresh_database(server, label)
    postmaster = postmaster_of(server)
    now = datetime.now(UTC)
    async with PostgresStore(database) as store:

        async def rate(serialized: bool) -> tuple[float, Cpu]:
            def write(member: str) -> Any:
                def transaction(tx: Tx) -> int:
                    if serialized:
                        tx.serialize(member)
                    return tx.add_event(f"session-{member}", "bench", {}, now)

                return transaction

            async def caller(n: int) -> None:
                for _ in range(per_caller):
                    await store.write(write(f"m{n % 50}"))

            commits = CALLERS * per_caller
            cpu_before, started = Cpu.now(postmaster), time.perf_counter()
            await asyncio.gather(*[caller(n) for n in range(CALLERS)])
            elapsed = time.perf_counter() - started
            return commits / elapsed, Cpu.now(postmaster).per_transaction_ms(cpu_before, commits)

        halves = {
            serialized: await rate(serialized) for serialized in (locked_first, not locked_first)
        }
    (plain, plain_cpu), (locked, locked_cpu) = halves[False], halves[True]
    return {
        "plain_per_s": plain,
        "locked_per_s": locked,
        "plain_cpu_us": 1000 * (plain_cpu.client + plain_cpu.server),
        "locked_cpu_us": 1000 * (locked_cpu.client + locked_cpu.server),
    }


async def takeover_run(server: str, label: str, trials: int) -> list[float]:
    """Seconds from a dead holder's last renewal to the standby starting the transport."""
    database = fresh_database(server, label)
    async with PostgresStore(database):
        pass  # the migrations
    taken: list[float] = []
    async with PostgresCoordination(database, holder_tag("standby")) as standby:
        for n in range(trials):
            async with PostgresCoordination(database, holder_tag("dead")) as dead:
                await dead.acquire(f"transport:t{n}", LEASE_TTL)
            died = time.perf_counter()
            started = asyncio.Event()

            async def start(started: asyncio.Event = started) -> None:
                started.set()

            async def stop() -> None:
                return None

            async with TransportLease(standby, f"t{n}", start=start, stop=stop, ttl=LEASE_TTL):
                async with asyncio.timeout(LEASE_TTL * 10):
                    await started.wait()
                taken.append(time.perf_counter() - died)
    return taken


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def main(options: Options) -> None:
    started = time.perf_counter()
    per_agent = options.size(20, 60, smoke=1)
    per_caller = options.size(20, 60, smoke=2)
    trials = options.size(10, 30, smoke=1)
    one: list[dict[str, float]] = []
    two: list[dict[str, float]] = []
    half: list[dict[str, float]] = []  # one replica, each replica's share of the agents
    locks: list[dict[str, float]] = []
    takeovers: list[list[float]] = []
    with pg_server(options) as server:
        for run in range(options.runs):
            # The set-ups run in turn, the first one moving from run to run (as the lock's
            # halves alternate), so that a load rising or falling over a run is not always
            # met by one.
            setups = [("one", 1, AGENTS, one), ("two", 2, AGENTS, two), ("half", 1, SHARE, half)]
            for name, replicas, agents, rows in setups[run % 3 :] + setups[: run % 3]:
                rows.append(
                    await escalation_run(
                        options, server, f"{name}{run}", replicas, per_agent, agents=agents
                    )
                )
            locks.append(
                await lock_run(server, f"lock{run}", per_caller, locked_first=run % 2 == 1)
            )
            takeovers.append(await takeover_run(server, f"lease{run}", trials))

    def col(rows: list[dict[str, float]], key: str) -> list[float]:
        return [r[key] for r in rows]

    figures = [
        figure(
            "escalations_per_s_2_replicas",
            f"escalations/s over HTTP, {AGENTS} agents split over 2 replicas",
            "req/s",
            col(two, "escalations_per_s"),
            higher_is_better=True,
            baseline=col(one, "escalations_per_s"),
            baseline_label="the same load on 1 replica, same database server",
        ),
        figure(
            "cpu_per_escalation_2_replicas_us",
            "process CPU per escalation (request to delivered card), 2 replicas",
            "us",
            col(two, "cpu_us"),
            higher_is_better=False,
            baseline=col(one, "cpu_us"),
            baseline_label="process CPU per escalation, 1 replica",
            target=Target(kind="ratio_at_most", value=1.2),
        ),
        figure(
            "cpu_per_escalation_2_replicas_vs_same_share_us",
            "process CPU per escalation, 2 replicas (each serving 25 of the 50 agents)",
            "us",
            col(two, "cpu_us"),
            higher_is_better=False,
            baseline=col(half, "cpu_us"),
            baseline_label=f"1 replica serving {SHARE} agents (each replica's share)",
        ),
        figure(
            "member_locked_commits_per_s",
            f"one-event commits/s with the member's lock, {CALLERS} callers over 50 members",
            "tx/s",
            col(locks, "locked_per_s"),
            higher_is_better=True,
            baseline=col(locks, "plain_per_s"),
            baseline_label="the same commits without the lock, same store",
        ),
        figure(
            "member_locked_cpu_per_commit_us",
            "CPU per one-event commit with the member's lock (this process and PostgreSQL's)",
            "us",
            col(locks, "locked_cpu_us"),
            higher_is_better=False,
            baseline=col(locks, "plain_cpu_us"),
            baseline_label="the same commits without the lock, same store",
        ),
        figure(
            "lease_takeover_p99_s",
            "lease takeover after its holder died (p99 of each run's trials), 1 s lease",
            "s",
            [_p99(run) for run in takeovers],
            higher_is_better=False,
            baseline=[LEASE_TTL for _ in takeovers],
            baseline_label="the lease's time to live",
            target=Target(kind="ratio_at_most", value=1.5),
        ),
    ]
    write_result(
        options,
        title="Replicas: 1 vs 2 replicas on one PostgreSQL; the member lock's cost",
        sizes={
            "agents": AGENTS,
            "escalations_per_agent": per_agent,
            "lock_callers": CALLERS,
            "commits_per_caller": per_caller,
            "takeover_trials_per_run": trials,
        },
        baseline="1 replica (escalations); the same commits without the lock (member lock).",
        figures=figures,
        started=started,
        notes=[
            "Each replica runs in a server process of its own on a local PostgreSQL cluster"
            " with fsync on; CPU is the replicas' processes' summed; load generators are"
            " separate processes, one per replica.",
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_options(NAME, runs_quick=3, runs_full=3)))
