"""Soak: steady load on every transport, 20 % platform faults, bounded; and a leak it catches.

``crewline serve`` runs as a subprocess, three times at once: against loopback Slack,
Telegram (long polling) and Discord; against the local inbox and Telegram by webhook
(through a relay standing in for the public URL); and the first again over a crewline that
leaks. Each fake fails one message call in five (seeded). Four agents escalate steadily (one
every 2 s in all) with one-second veto windows, so the scheduler closes every one; an agent
long-polls its event stream; on Telegram the owner types in the member's topic every few
seconds, so updates arrive (pushed to the webhook, or fetched) all along.

Every 2 s the test samples the server's resident memory and open file descriptors
(``/proc``), the outbox depth (``/metrics``), the event-stream lag (how long after its
window ended the reader heard it closed) and the CPU wait: how long the server's and the
test's threads were ready to run but waited for a CPU (``/proc/PID/task/*/schedstat``).
The judgement (``problems``):

- memory, descriptors and the lag beyond the CPU wait: after a 10-s warm-up, the
  least-squares trend over the samples may rise by at most 10 % of the series' mean (never
  less than a small floor), plus twice the trend's standard error (the samples' own noise);
- the lag is judged beyond the CPU wait of its sample and the one before (the longest a
  closing heard then can have been on its way): a neighbour that takes the CPUs half-way
  through a run delays every closing after it, a step the trend would read as the server
  falling behind. On an idle machine the wait is about 0 and the lag is judged whole;
- the outbox is not judged by its instantaneous depth (a burst of faults late in a run
  leaves a backlog that is the pace at work, not a leak: 1, 0, 0, 31, 33 entries in one
  clean run): when the load stops it must drain to empty, by progress, not by a deadline:
  its depth must keep reaching new lows, never ``STALL`` seconds without one. A backlog
  drained slowly because three servers share two loaded cores is still drained; outbox
  work that is never sent (a leak, a platform failing every call) stops shrinking and fails
  within ``STALL`` of its last progress, however long the drain took until then.

Every window closes once. The leaking crewline (a start-up hook that keeps ``LEAK_MIB`` MiB
and ``LEAK_FDS`` descriptors every ``LEAK_EVERY`` seconds, the load's pace of escalations)
must fail the judgement on both series: the proof that a leak that size cannot pass.
Samples go to ``artifacts/soak-<name>.csv`` and ``.svg``.

Size: 36 s of load per soak in ``make test`` and ``make reliability`` (the three at once,
about a minute of one worker's time with start and drain), 10 minutes with
``CREWLINE_RELIABILITY=full`` (the issue's bound).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import os
import random
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.bounds import WAIT
from tests.fakes.chaos import FaultPlan
from tests.fakes.discord import FakeDiscord
from tests.fakes.slack import FakeSlack
from tests.fakes.telegram import FakeTelegram
from tests.harnesses.telegram import WEBHOOK_SECRET, WebhookRelay
from tests.serving import CREWLINE, crewline_serve

FULL = os.environ.get("CREWLINE_RELIABILITY") == "full"
DURATION = 600.0 if FULL else 36.0
EVERY = 2.0
WARM_UP = 10.0
# Samples after the warm-up a trend is judged on; the load goes on past DURATION until they
# are taken (a sample's reads are slow on a loaded machine: 8 in 36 s at load 20).
STEADY_SAMPLES = 10
STALL = WAIT  # seconds the draining outbox may go without shrinking to a new low
SEED = int(os.environ.get("CREWLINE_RELIABILITY_SEED") or random.SystemRandom().randrange(2**32))
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
# What may grow over the run: 10 % of the series' mean, and never less than this floor
# (a tenth of a second of lag is not a trend, nor are the few more connections a server
# slowed by a neighbour holds open: fds rose by up to 3.3 in a clean run at load 13).
FLOOR = {"rss_mib": 2.0, "fds": 5.0, "late_s": 0.5}
SERIES = ("rss_mib", "fds", "outbox", "lag_s", "waited_s")

# Kept by the leaking crewline every LEAK_EVERY seconds: what a leak per escalation keeps at
# the load's pace (one escalation every 2 s), but paced by the clock in a thread of the
# server, not by the escalations a loaded machine lets through. Kept per escalation, the
# proof's series stepped as unevenly as the load: at a load above 20 (a CI run beside an
# eval and five venv installs) 2 descriptors per escalation rose 21.5 against 21.1 allowed
# (the noise term 16) and 4 MiB per escalation was not seen at all. The judgement allows
# about 10 % of the mean (~14 MiB, 3 fds) plus the noise over the 26 s judged.
LEAK_MIB = 4
LEAK_FDS = 2
LEAK_EVERY = 2.0
LEAK_MAX = 300  # a backstop: a soak that runs long on a slow machine keeps 1.2 GiB at most
# Started in the server (PYTHONPATH): a thread that keeps and opens, from the metrics' start.
LEAK = f"""\
import os
import threading
import time

from crewline.ops import metrics

_kept = []
_init = metrics.Metrics.__init__


def _leak():
    for _ in range({LEAK_MAX}):
        time.sleep({LEAK_EVERY})
        _kept.append(bytearray(b"x") * ({LEAK_MIB} << 20))
        _kept.extend(os.open(os.devnull, os.O_RDONLY) for _ in range({LEAK_FDS}))


def _leaking_init(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    threading.Thread(target=_leak, name="leak", daemon=True).start()


metrics.Metrics.__init__ = _leaking_init
"""


@dataclass(frozen=True, kw_only=True, slots=True)
class Sample:
    at: float
    rss_mib: float
    fds: float
    outbox: float
    lag_s: float
    waited_s: float = 0.0  # CPU wait of this sample's interval and the one before

    @property
    def late_s(self) -> float:
        """The lag beyond what waiting for a CPU explains: the server's own lateness."""
        return max(0.0, self.lag_s - self.waited_s)


@dataclass(kw_only=True)
class Soaked:
    samples: list[Sample] = field(default_factory=list)
    drained_in: float | None = None  # seconds the outbox took to empty once the load stopped
    left: float = 0.0  # entries still queued when it stopped shrinking (drained_in None)
    escalated: int = 0
    closings: list[str] = field(default_factory=list)
    faults: int = 0
    typed: int = 0
    stuck: list[str] = field(default_factory=list)  # the lanes' heads when it stopped draining


def _rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1)) / 1024


def _cpu_wait_s(server: int) -> float:
    """Seconds the server's threads and the test's event loop (the reader's) have been
    ready to run but waited for a CPU (the scheduler's run-queue wait, the second field of
    ``/proc/PID/task/TID/schedstat``), summed. A thread that ended takes its share with it:
    read differences, clipped at 0."""
    tasks = [*Path(f"/proc/{server}/task").iterdir(), Path(f"/proc/self/task/{os.getpid()}")]
    waited = 0
    for task in tasks:
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            waited += int((task / "schedstat").read_text().split()[1])
    return waited / 1e9


def _growth(values: list[float], times: list[float]) -> tuple[float, float]:
    """The least-squares trend's rise over the run, and twice its standard error: a rise
    within that is the samples' noise, not a trend a run this short can show."""
    n = len(values)
    mean_t, mean_v = sum(times) / n, sum(values) / n
    spread = sum((t - mean_t) ** 2 for t in times)
    slope = sum((t - mean_t) * (v - mean_v) for t, v in zip(times, values, strict=True)) / spread
    residuals = [v - mean_v - slope * (t - mean_t) for t, v in zip(times, values, strict=True)]
    stderr = (sum(r * r for r in residuals) / max(1, n - 2) / spread) ** 0.5
    span = times[-1] - times[0]
    return slope * span, 2 * stderr * span


def problems(soaked: Soaked) -> list[str]:
    """What the run shows wrong: a series that trends upward, an outbox that did not drain."""
    found: list[str] = []
    steady = [s for s in soaked.samples if s.at >= WARM_UP]
    assert len(steady) >= STEADY_SAMPLES, (
        f"precondition: enough samples for a trend ({len(steady)})"
    )
    times = [s.at for s in steady]
    for name, floor in FLOOR.items():  # lag: late_s, the part the CPU wait does not explain
        values = [getattr(s, name) for s in steady]
        rise, noise = _growth(values, times)
        allowed = max(floor, 0.10 * (sum(values) / len(values))) + noise
        if rise > allowed:
            found.append(f"{name} grows {rise:.1f} (allowed {allowed:.1f}): {values}")
    if soaked.drained_in is None:
        found.append(
            f"the outbox stopped draining: {soaked.left:.0f} entries left,"
            f" none fewer for {STALL:.0f} s" + "".join(f"; {head}" for head in soaked.stuck)
        )
    return found


async def drain(
    depth: Callable[[], Awaitable[float]],
    *,
    stall: float = STALL,
    now: Callable[[], float] = time.monotonic,
    pause: Callable[[], Awaitable[object]] = lambda: asyncio.sleep(0.5),
) -> tuple[float | None, float]:
    """Seconds the outbox took to empty from now, judged by progress: None (and the
    entries left) once ``stall`` seconds passed without its depth reaching a new low.

    New lows, not any fall: an outbox whose depth only goes up and down (entries sent and
    queued again) is not draining. So the bound scales with the backlog and the rate its
    entries are sent at on this machine, and a stuck outbox still fails."""
    started = now()
    low, since = await depth(), started
    while low > 0:
        if now() - since >= stall:
            return None, low
        await pause()  # polling /metrics: no event says an entry was sent
        current = await depth()
        if current < low:
            low, since = current, now()
    return now() - started, 0.0


async def _outbox_depth(client: httpx.AsyncClient) -> float:
    text = (await client.get("/metrics")).text
    return sum(
        float(m.group(1))
        for m in re.finditer(r"^crewline_outbox_pending\{[^}]*\} (\S+)$", text, re.M)
    )


def _write(name: str, samples: list[Sample]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / f"soak-{name}.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["seconds", *SERIES])
        for s in samples:
            writer.writerow(
                [f"{s.at:.1f}", f"{s.rss_mib:.2f}", s.fds, s.outbox, f"{s.lag_s:.3f}",
                 f"{s.waited_s:.3f}"]
            )  # fmt: skip
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib comes with the bench extra; the CSV stands alone
        return
    figure, axes = plt.subplots(len(SERIES), 1, sharex=True, figsize=(7, 9))
    for axis, series in zip(axes, SERIES, strict=True):
        axis.plot([s.at for s in samples], [getattr(s, series) for s in samples], marker=".")
        axis.set_ylabel(series)
        axis.set_ylim(bottom=0)
    axes[-1].set_xlabel("seconds")
    figure.suptitle(f"crewline soak ({name}), 20 % faults, seed {SEED}")
    figure.savefig(ARTIFACTS / f"soak-{name}.svg")
    plt.close(figure)


@contextlib.asynccontextmanager
async def _platforms(webhook: bool) -> AsyncIterator[dict[str, Any]]:
    """The fakes of one soak, each failing one message call in five."""
    async with contextlib.AsyncExitStack() as stack:
        telegram = await stack.enter_async_context(FakeTelegram(has_topics_enabled=True))
        fakes: dict[str, Any] = {"telegram": telegram}
        plans = [(telegram, ("sendMessage", "editMessageText"))]
        if webhook:
            fakes["relay"] = await stack.enter_async_context(WebhookRelay())
        else:
            fakes["slack"] = await stack.enter_async_context(FakeSlack())
            fakes["discord"] = await stack.enter_async_context(FakeDiscord())
            plans += [
                (fakes["slack"], ("chat.postMessage", "chat.update")),
                (fakes["discord"], ("POST messages", "PATCH messages")),
            ]
        for n, (fake, methods) in enumerate(plans):
            fake.faults = FaultPlan(
                rate=0.2, seed=SEED + n, kinds=("500", "429", "reset"), methods=methods
            )
        yield fakes


def _environment(tmp_path: Path, fakes: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The server's environment and the member's owners and transports."""
    telegram = fakes["telegram"]
    toml = "[telegram]\nper_chat_interval = 0.0\nglobal_per_second = 0.0\npoll_timeout = 2.0\n"
    env = {
        **os.environ,
        "CREWLINE_DATA_DIR": str(tmp_path),
        "CREWLINE_LOG_LEVEL": "ERROR",
        "TELEGRAM_BOT_TOKEN": telegram.token,
        "TELEGRAM_API_URL": telegram.base_url,
    }
    binding = ["--owner", f"telegram:{telegram.owner.id}", "--transport", "telegram"]
    if "relay" in fakes:
        env |= {
            "CREWLINE_TRANSPORTS": "local,telegram",
            "TELEGRAM_WEBHOOK_URL": fakes["relay"].url,
            "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
        }
        binding += ["--owner", "local:owner", "--transport", "local"]
    else:
        slack, discord = fakes["slack"], fakes["discord"]
        toml += "[slack]\npost_interval = 0.02\n"
        env |= {
            "CREWLINE_TRANSPORTS": "slack,telegram,discord",
            "SLACK_BOT_TOKEN": slack.bot_token,
            "SLACK_SIGNING_SECRET": slack.signing_secret,
            "SLACK_API_URL": slack.api_url,
            "DISCORD_BOT_TOKEN": discord.token,
            "DISCORD_GUILD_ID": str(discord.guild_id),
            "DISCORD_CHANNEL_ID": str(discord.crew_channel_id),
            "DISCORD_API_URL": discord.api_base,
            "DISCORD_GATEWAY_URL": discord.gateway_url,
        }
        binding += ["--owner", f"slack:{slack.owner_user_id}", "--transport", "slack"]
        binding += ["--owner", f"discord:{discord.owner.id}", "--transport", "discord"]
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "crewline.toml").write_text(toml)
    return env, binding


async def _soak(name: str, tmp_path: Path, *, webhook: bool, leak: bool = False) -> Soaked:
    """Run one soak for DURATION, then let the outbox drain; what it measured."""
    soaked = Soaked()
    async with _platforms(webhook) as fakes:
        env, binding = _environment(tmp_path, fakes)
        if leak:
            hook = tmp_path / "leak"
            hook.mkdir()
            (hook / "sitecustomize.py").write_text(LEAK)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), env.get("PYTHONPATH")]))
        added = await asyncio.create_subprocess_exec(
            *CREWLINE, "member", "add", "soak", "--name", "Soak", *binding,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await added.communicate()
        assert added.returncode == 0, err.decode()
        key = out.decode().splitlines()[-1]
        async with (
            crewline_serve(env=env) as (process, url),
            httpx.AsyncClient(
                base_url=url,
                timeout=30,
                headers={"Authorization": f"Bearer {key}"},
                # A connection per request: a pool that grows with the requests' overlap
                # (more of it when the machine is slow) is a trend in the server's fds.
                limits=httpx.Limits(max_keepalive_connections=0),
            ) as client,
        ):
            if "relay" in fakes:
                fakes["relay"].upstream = url
            await _load(soaked, fakes["telegram"], client, process.pid)
            if soaked.drained_in is None:  # what each lane waits on, for the report
                soaked.stuck = _heads(tmp_path / "crewline.db")
        soaked.faults = sum(
            fake.faults.injected.total() for fake in fakes.values() if hasattr(fake, "faults")
        )
    _write(name, soaked.samples)
    return soaked


def _heads(database: Path) -> list[str]:
    """Each outbox lane's head in the server's database: its op, attempts, wait and error."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT transport, lane, op, attempts, not_before, last_error,"
            " (SELECT count(*) FROM outbox AS o WHERE o.transport = h.transport"
            " AND o.lane = h.lane) FROM outbox AS h WHERE id IN"
            " (SELECT min(id) FROM outbox GROUP BY transport, lane)"
        ).fetchall()
    now = time.time()
    return [
        f"{transport}/{lane}: {count} queued, head {op} after {attempts} attempts,"
        f" due in {max(0.0, not_before - now):.0f} s, last error {error!r}"
        for transport, lane, op, attempts, not_before, error, count in rows
    ]


async def _load(
    soaked: Soaked, telegram: FakeTelegram, client: httpx.AsyncClient, pid: int
) -> None:
    lags: list[float] = []
    acknowledged: dict[str, float] = {}
    stop = asyncio.Event()

    async def agent(n: int) -> None:
        # Staggered, so the load is steady (an escalation every 2 s), not a burst of four
        # every 8 s that a short run's trend could read by where its bursts fall.
        if await _pause(stop, 2.0 * n):
            return
        while not stop.is_set():
            answer = await client.post(
                "/api/session-control/escalate",
                json={"message": "soak", "deadline": "PT1S", "default_action": "go"},
            )
            assert answer.status_code == 200, answer.text
            acknowledged[answer.json()["escalation_id"]] = time.monotonic()
            soaked.escalated += 1
            await _pause(stop, 8.0)  # the load: one every 2 s in all, within the pace

    async def reader() -> None:
        cursor = 0
        while not stop.is_set():
            got = await client.get("/api/session/events", params={"after": cursor, "wait": 2})
            for event in got.json()["events"]:
                cursor = event["cursor"]
                raised = acknowledged.pop(event["body"].get("escalation_id"), None)
                if event["kind"] == "window_closed" and raised is not None:
                    # Heard this long after its one-second window ended.
                    lags.append(max(0.0, time.monotonic() - raised - 1.0))
                    soaked.closings.append(event["body"]["escalation_id"])

    async def owner() -> None:
        """The owner types in the member's topic (an update, pushed or fetched)."""
        while not await _pause(stop, 5.0):
            topics = telegram.chat(telegram.owner).topics
            if topics:
                topic = next(iter(topics))
                await telegram.send_text(telegram.owner, "noted", message_thread_id=topic)
                soaked.typed += 1

    tasks = [asyncio.create_task(agent(n)) for n in range(4)]
    tasks += [asyncio.create_task(reader()), asyncio.create_task(owner())]
    started = time.monotonic()
    read, before = _cpu_wait_s(pid), 0.0  # before: the last interval's wait

    def steady() -> int:
        return sum(sample.at >= WARM_UP for sample in soaked.samples)

    while time.monotonic() - started < DURATION or steady() < STEADY_SAMPLES:
        await asyncio.sleep(EVERY)  # the sampling period itself
        window, lags[:] = list(lags), []
        total = _cpu_wait_s(pid)
        waited, read = max(0.0, total - read), total
        soaked.samples.append(
            Sample(
                at=round(time.monotonic() - started, 1),
                rss_mib=_rss_mib(pid),
                fds=float(len(os.listdir(f"/proc/{pid}/fd"))),
                outbox=await _outbox_depth(client),
                lag_s=max(window, default=0.0),
                waited_s=waited + before,
            )
        )
        before = waited
        for task in tasks:
            if task.done():
                task.result()  # a task's failure fails the soak at once
    stop.set()
    await asyncio.gather(*tasks)
    soaked.drained_in, soaked.left = await drain(partial(_outbox_depth, client))


async def _pause(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds`` or until the load stops, whichever is first; whether it stopped."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


def _preconditions(soaked: Soaked) -> None:
    assert soaked.escalated >= DURATION / 4, f"precondition: steady load ({soaked.escalated})"
    heard = len(soaked.closings)
    assert heard >= soaked.escalated / 2, f"precondition: the reader heard {heard}"
    assert soaked.faults > 0, "precondition: faults were injected"
    assert soaked.typed > 0, "precondition: the owner typed on Telegram"


@pytest.mark.slow
@pytest.mark.timeout(DURATION + 600)  # a backstop: the drain is bounded by its progress
async def test_memory_descriptors_outbox_and_lag_stay_flat_under_faults_and_a_leak_fails(
    tmp_path: Path,
) -> None:
    """Bounded steady load with faults on every transport: nothing trends upward, the
    outbox drains, every window closes once. The same soak over a crewline that keeps
    ``LEAK_MIB`` MiB and ``LEAK_FDS`` descriptors every ``LEAK_EVERY`` s, run beside them: the
    judgement names both series (so a real leak of that size cannot pass). The three run at
    once: a soak is its duration, and the suite's other tests run meanwhile on the other
    worker."""
    async with asyncio.TaskGroup() as soaks:
        clean = [
            soaks.create_task(_soak(name, tmp_path / name, webhook=webhook))
            for name, webhook in (
                ("slack-telegram-discord", False),
                ("local-telegram-webhook", True),
            )
        ]
        leaking = soaks.create_task(
            _soak("leaking", tmp_path / "leaking", webhook=False, leak=True)
        )
    for name, soak in zip(("slack-telegram-discord", "local-telegram-webhook"), clean, strict=True):
        soaked = soak.result()
        _preconditions(soaked)
        assert len(set(soaked.closings)) == len(soaked.closings), f"{name}: a window closed twice"
        assert problems(soaked) == [], f"{name}, seed {SEED}"
    _preconditions(leaking.result())
    found = problems(leaking.result())
    assert any(p.startswith("rss_mib grows") for p in found), found
    assert any(p.startswith("fds grows") for p in found), found


def test_a_late_backlog_that_drains_is_no_trend() -> None:
    """The clean run that once failed (outbox 1, 0, 0, 31, 33 at its last samples) passes
    now: its outbox drained; the same run whose outbox never drained does not."""
    flat = [Sample(at=t, rss_mib=113.0, fds=24.0, outbox=0.0, lag_s=0.0) for t in range(10, 60, 2)]
    late = [*flat[:-5], *(Sample(at=s.at, rss_mib=113.0, fds=24.0, outbox=o, lag_s=0.0)
                          for s, o in zip(flat[-5:], (1, 0, 0, 31, 33), strict=True))]  # fmt: skip
    assert problems(Soaked(samples=late, drained_in=4.5)) == []
    assert problems(Soaked(samples=late, drained_in=None, left=33)) == [
        f"the outbox stopped draining: 33 entries left, none fewer for {STALL:.0f} s"
    ]


class _Ticks:
    """A clock that moves only by the drain's pauses: the judgement, run in no time."""

    def __init__(self, depths: list[float], *, every: float) -> None:
        self.depths, self.every, self.at = iter(depths), every, 0.0

    async def depth(self) -> float:
        return next(self.depths)

    def now(self) -> float:
        return self.at

    async def pause(self) -> None:
        self.at += self.every


async def test_a_slow_drain_passes_and_an_outbox_that_stops_shrinking_fails() -> None:
    """A backlog of 40 sent one entry every 30 s (a starved server: 20 minutes, far past
    any fixed deadline) drains; an outbox stuck at 5, or going up and down without ever
    getting lower, fails ``STALL`` seconds after its last progress."""
    slow = [float(n) for n in range(40, -1, -1) for _ in range(60)]
    ticks = _Ticks(slow, every=0.5)
    drained, left = await drain(ticks.depth, now=ticks.now, pause=ticks.pause)
    assert (drained, left) == (40 * 60 * 0.5, 0.0)
    stuck = _Ticks([9.0, 7.0, 5.0, *[5.0] * 1000], every=0.5)
    assert await drain(stuck.depth, now=stuck.now, pause=stuck.pause) == (None, 5.0)
    assert stuck.at == 1.0 + STALL  # its last progress, then STALL without any
    churning = _Ticks([6.0, 4.0, *[5.0, 4.0, 6.0] * 1000], every=0.5)
    assert await drain(churning.depth, now=churning.now, pause=churning.pause) == (None, 4.0)


def test_a_lag_the_cpu_wait_explains_is_no_trend() -> None:
    """A neighbour taking the CPUs half-way through a run: every closing after it is heard
    1.5 s later. With the servers' and the test's CPU wait as long as that, no trend; the
    same step with no CPU wait (the server itself falling behind) is one."""
    times = range(10, 36, 2)
    starved = [
        Sample(at=t, rss_mib=113.0, fds=24.0, outbox=0.0, lag_s=0.1 + 1.5 * (t > 22),
               waited_s=0.02 + 1.6 * (t > 22))
        for t in times
    ]  # fmt: skip
    assert problems(Soaked(samples=starved, drained_in=0.0)) == []
    behind = [Sample(at=s.at, rss_mib=113.0, fds=24.0, outbox=0.0, lag_s=s.lag_s) for s in starved]
    assert [p.split(" ")[:2] for p in problems(Soaked(samples=behind, drained_in=0.0))] == [
        ["late_s", "grows"]
    ]
