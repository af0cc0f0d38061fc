"""Three replicas on one PostgreSQL, SIGKILLed at random while agents escalate through
replica A and the owner answers through replicas B and C (the owner's reply API).

Each replica is a separate ``crewline serve --replica-id`` process; a killed one is
started again on a fresh port and its clients move there. Agents retry an escalation cut
off by a kill with the same Idempotency-Key, the owner retries an answer on the other
replica. After the kills every acknowledged escalation is answered exactly once (one
``escalation_answered`` event, one answering row), none is lost and none is duplicated.
The seed is logged (``CREWLINE_RELIABILITY_SEED`` replays it); 5 kills in CI, 20 with
``CREWLINE_RELIABILITY=full``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import signal
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from crewline import crew as crew_admin
from crewline.store.postgres import PostgresStore
from tests.serving import crewline_serve

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
KILLS = 20 if FULL else 5
OPS_BETWEEN_KILLS = 6  # answered escalations between two kills: kills follow progress
START_WITHIN = 60.0  # the bound on one replica's start (``crewline_serve``)
# The suite's 120-s timeout is a backstop for a hang, and this test's own waits each end on
# a stall (a start by START_WITHIN, an answer by 120 s without one). Its work is mostly the
# 3 + KILLS starts of a ``crewline serve`` process: 6-12 s each at a load of 17-20 (seed
# 2143369189: 58 of its 66 s), so at 20-25 a run that kept progressing spent its 120 s
# waiting for a restarted replica's first line. The backstop covers every start's bound.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(START_WITHIN * (KILLS + 3) + 120)]
SEED = int(os.environ.get("CREWLINE_RELIABILITY_SEED") or random.SystemRandom().randrange(2**32))
log = logging.getLogger(__name__)


class Replica:
    """One ``crewline serve`` process under a name; killed and started again on demand."""

    def __init__(self, name: str, data_dir: Path, database: str) -> None:
        self.name = name
        data_dir.mkdir(parents=True)
        (data_dir / "crewline.toml").write_text("transports = []\n")
        self.env = {
            **os.environ,
            "CREWLINE_DATA_DIR": str(data_dir),
            "CREWLINE_DATABASE_URL": database,
        }
        self.url = ""
        self.up = asyncio.Event()
        self._serving: contextlib.AbstractAsyncContextManager[tuple[object, str]] | None = None
        self._process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        serving = crewline_serve("--replica-id", self.name, env=self.env, start_within=START_WITHIN)
        process, self.url = await serving.__aenter__()
        self._serving, self._process = serving, process  # type: ignore[assignment]
        self.up.set()

    async def kill(self) -> None:
        self.up.clear()
        assert self._process is not None and self._serving is not None
        self._process.send_signal(signal.SIGKILL)
        await self._serving.__aexit__(None, None, None)

    async def stop(self) -> None:
        if self._serving is not None and self.up.is_set():
            await self.kill()


async def _post(replicas: list[Replica], path: str, body: dict[str, object],
                headers: dict[str, str]) -> dict[str, object]:  # fmt: skip
    """POST to the first of ``replicas`` that is up, moving on (and waiting for one to come
    back) whenever a kill cuts the request off; the response of the call that got through."""
    for turn in itertools.count():
        replica = replicas[turn % len(replicas)]
        async with asyncio.timeout(120):
            await replica.up.wait()
        try:
            async with httpx.AsyncClient(base_url=replica.url, timeout=30) as client:
                response = await client.post(path, json=body, headers=headers)
        except httpx.HTTPError:
            continue  # killed under us: the same call again, elsewhere or after the restart
        assert response.status_code == 200, response.text
        result: dict[str, object] = response.json()
        return result
    raise AssertionError("unreachable")


async def test_three_replicas_killed_at_random_lose_and_double_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    log.warning("replica kills: seed %d (CREWLINE_RELIABILITY_SEED to replay)", SEED)
    chance = random.Random(SEED)
    async with PostgresStore(postgres_url) as store:
        created = await crew_admin.add_member(
            store, slug="radar", name="Radar", owners=["api:1"], transports=[]
        )
        token = await crew_admin.issue_owner_token(store)
    a, b, c = (Replica(n, tmp_path / n, postgres_url) for n in "abc")
    replicas = [a, b, c]
    acked: list[str] = []
    answered: asyncio.Queue[str] = asyncio.Queue()
    stop = asyncio.Event()
    clock, t0 = time.monotonic, time.monotonic()  # when each kill came: a slow run's trace
    try:
        await asyncio.gather(*[r.start() for r in replicas])

        async def agent() -> None:
            agent_headers = {"Authorization": f"Bearer {created.key}"}
            for n in itertools.count():
                if stop.is_set():
                    return
                headers = agent_headers | {"Idempotency-Key": f"{SEED}-{n}"}
                body = {"message": f"decide {n}", "options": ["yes", "no"]}
                result = await _post([a], "/api/session-control/escalate", body, headers)
                record = str(result["escalation_id"])
                acked.append(record)
                owner = [b, c] if n % 2 else [c, b]  # the owner's replies through B and C
                reply = {"text": "yes", "escalation_id": record}
                await _post(owner, "/api/members/radar/reply", reply,
                            {"Authorization": f"Bearer {token}"})  # fmt: skip
                answered.put_nowait(record)

        traffic = asyncio.create_task(agent())
        for _ in range(KILLS):
            for _ in range(OPS_BETWEEN_KILLS):
                async with asyncio.timeout(120):
                    await answered.get()
            victim = chance.choice(replicas)
            log.warning("kill %s at %.0f s, %d answered", victim.name, clock() - t0, len(acked))
            await victim.kill()
            await victim.start()
        stop.set()
        async with asyncio.timeout(120):
            await traffic
    finally:
        await asyncio.gather(*[r.stop() for r in replicas])

    async with PostgresStore(postgres_url) as store:
        events = await store.events_after(created.session.id, 0, limit=100_000)
        records = await store.escalations("radar")
        rows = await store.live_rows("radar")
    assert len(acked) >= KILLS * OPS_BETWEEN_KILLS
    assert len(set(acked)) == len(acked)  # a retried escalation is the same record
    answers = Counter(e.body["escalation_id"] for e in events if e.kind == "escalation_answered")
    assert {r: answers[r] for r in acked} == dict.fromkeys(acked, 1)  # none lost, none twice
    assert sorted(r.id for r in records) == sorted(acked)  # no record the agents never got
    assert all(r.state.value == "answered" for r in records)
    answering = Counter(
        r.meta["escalation_id"]
        for r in rows
        if r.role.value == "human" and "escalation_id" in r.meta
    )
    assert all(count == 1 for count in answering.values()) and len(answering) == len(acked)
