"""What every benchmark shares: its arguments, the machine, statistics, and the result file.

A benchmark measures its subject and a baseline in the same run, several runs in a row,
and reports each figure as median, min and max over the runs with the per-run ratio to the
baseline: on a shared, noisy machine, ratios of same-run pairs are what can be compared.

Every benchmark runs at three scales: full (``make bench``), ``--quick`` (``make
bench-quick``) and ``--smoke`` — tiny counts and one run, seconds in all, its figures judged
by nobody and its result written outside ``bench/results/``: what the test suite runs
(``tests/bench/``) so that no benchmark rots unseen. Each size a benchmark takes comes from
``Options.size``, which asks for all three.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "BENCHMARKS",
    "ON_POSTGRES",
    "OTHER_BENCHMARKS",
    "RESULTS",
    "SCALES",
    "Options",
    "Target",
    "figure",
    "machine",
    "parse_options",
    "percentile",
    "rss",
    "scratch",
    "summary",
    "write_result",
]

RESULTS = Path(__file__).resolve().parent / "results"
# Every benchmark module, in the order bench.run runs them and the report lists them.
BENCHMARKS = (
    "store_commit",
    "api_escalate",
    "mcp",
    "click_latency",
    "windows",
    "index_rebuild",
    "concierge",
    "outbox_rate_limits",
    "boundaries",
    "peer_langgraph",
    "webhook_push",
    "replicas",
)
# Benchmark modules bench.run leaves out (each is run alone); the smoke test runs them too.
OTHER_BENCHMARKS = ("delivery_wait", "loop_parts")
# The benchmarks that also measure PostgresStore. With ``--smoke --postgres URL`` they use
# that server (the test suite's throwaway cluster) instead of starting a cluster of their own.
ON_POSTGRES = frozenset({"store_commit", "api_escalate", "replicas"})
SCALES = ("smoke", "quick", "full")
T = TypeVar("T", int, float)


@dataclass(frozen=True, kw_only=True, slots=True)
class Options:
    """How one benchmark was asked to run; ``scale`` is one of SCALES."""

    name: str
    scale: str
    runs: int
    out: Path
    data_dir: Path
    extra: argparse.Namespace
    postgres: str | None = None  # a server to use instead of a cluster of its own (smoke)
    asked: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def quick(self) -> bool:
        return self.scale == "quick"

    @property
    def smoke(self) -> bool:
        return self.scale == "smoke"

    def size(self, quick: T, full: T, *, smoke: T) -> T:
        """This run's size of something. Every size names its smoke value too (tiny: seconds
        for the whole benchmark, since the smoke test only checks that it still runs)."""
        self.asked.append(self.scale)
        return {"smoke": smoke, "quick": quick, "full": full}[self.scale]


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """What a figure should reach: ``kind`` is ratio_at_least, ratio_at_most, at_most or
    at_least (the last two in the figure's own unit)."""

    kind: str
    value: float

    def met_by(self, median: float, ratio: float | None) -> bool | None:
        if self.kind == "ratio_at_least":
            return None if ratio is None else ratio >= self.value
        if self.kind == "ratio_at_most":
            return None if ratio is None else ratio <= self.value
        if self.kind == "at_most":
            return median <= self.value
        if self.kind == "at_least":
            return median >= self.value
        raise ValueError(f"unknown target kind {self.kind!r}")

    def describe(self, unit: str) -> str:
        return {
            "ratio_at_least": f"≥ {self.value:g}x baseline",
            "ratio_at_most": f"≤ {self.value:g}x baseline",
            "at_most": f"≤ {self.value:g} {unit}",
            "at_least": f"≥ {self.value:g} {unit}",
        }[self.kind]


def parse_options(
    name: str,
    *,
    runs_quick: int = 3,
    runs_full: int = 3,
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
    argv: Sequence[str] | None = None,
) -> Options:
    """``python -m bench.<name> [--quick | --smoke] [--runs N] [--out FILE] [--data-dir DIR]``."""
    parser = argparse.ArgumentParser(prog=f"python -m bench.{name}")
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--quick", action="store_true", help="the small sizes, for development")
    scale.add_argument(
        "--smoke",
        action="store_true",
        help="tiny sizes and one run: does it still run? (its figures mean nothing)",
    )
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (at least 3)")
    parser.add_argument(
        "--out", type=Path, default=None, help=f"the result file (default: {RESULTS}/{name}.json)"
    )
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="scratch directory (default: a fresh one)"
    )
    parser.add_argument(
        "--postgres",
        default=None,
        metavar="URL",
        help="with --smoke: a PostgreSQL server to use instead of starting a cluster",
    )
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args(argv)
    scale_name = "smoke" if args.smoke else "quick" if args.quick else "full"
    if args.smoke:
        runs = args.runs or 1  # a smoke run judges nothing: one run says it still runs
        if runs < 1:
            parser.error("--runs must be at least 1")
    else:
        runs = args.runs or (runs_quick if args.quick else runs_full)
        if runs < 3:
            parser.error("--runs must be at least 3: one run is an anecdote, not a median")
        if args.postgres is not None:
            parser.error("--postgres is for --smoke: measured figures need a durable cluster")
    data_dir = args.data_dir
    if data_dir is None:  # run alone: a scratch directory of our own, removed at exit
        data_dir = Path(tempfile.mkdtemp(prefix=f"crewline-bench-{name}-"))
        atexit.register(shutil.rmtree, data_dir, ignore_errors=True)
    out = args.out
    if out is None:
        if args.smoke:  # kept after the run, but never among the measured results
            out = Path(tempfile.mkdtemp(prefix="crewline-bench-smoke-")) / f"{name}.json"
        else:
            out = RESULTS / f"{name}.json"
    if args.smoke and out.resolve().is_relative_to(RESULTS):
        parser.error(f"a smoke result never goes to {RESULTS}: its figures mean nothing")
    return Options(
        name=name,
        scale=scale_name,
        runs=runs,
        out=out,
        data_dir=data_dir,
        extra=args,
        postgres=args.postgres,
    )


@contextmanager
def scratch(options: Options, label: str) -> Iterator[Path]:
    """A fresh directory under the benchmark's data dir, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=options.data_dir))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# statistics ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(samples: Sequence[float]) -> dict[str, Any]:
    return {
        "median": statistics.median(samples),
        "min": min(samples),
        "max": max(samples),
        "samples": list(samples),
    }


def figure(
    key: str,
    label: str,
    unit: str,
    samples: Sequence[float],
    *,
    higher_is_better: bool,
    baseline: Sequence[float] | None = None,
    baseline_label: str | None = None,
    target: Target | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """One figure: the subject's runs, the same runs' baseline, and the per-run ratios."""
    result: dict[str, Any] = {
        "key": key,
        "label": label,
        "unit": unit,
        "higher_is_better": higher_is_better,
        **summary(samples),
        "baseline": None,
        "ratio": None,
        "target": None,
        "meets_target": None,
    }
    ratio_median: float | None = None
    if baseline is not None:
        if len(baseline) != len(samples):
            raise ValueError(f"{key}: {len(samples)} samples but {len(baseline)} baselines")
        result["baseline"] = {"label": baseline_label, **summary(baseline)}
        ratios = [s / b for s, b in zip(samples, baseline, strict=True) if b]
        if ratios:
            result["ratio"] = summary(ratios)
            ratio_median = result["ratio"]["median"]
    if target is not None:
        result["target"] = {
            "kind": target.kind,
            "value": target.value,
            "text": target.describe(unit),
        }
        result["meets_target"] = target.met_by(result["median"], ratio_median)
    if note:
        result["note"] = note
    return result


# the machine --------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What the figures were measured on (the load average says how shared it was)."""
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "sqlite": sqlite3.sqlite_version,
        "loadavg": list(os.getloadavg()),
    }


def rss() -> dict[str, int]:
    """This process's resident memory now and at its peak, in KiB (Linux /proc)."""
    found: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return {"rss_kib": found.get("VmRSS", 0), "peak_rss_kib": found.get("VmHWM", 0)}


def write_result(
    options: Options,
    *,
    title: str,
    sizes: dict[str, Any],
    figures: list[dict[str, Any]],
    started: float,
    notes: Sequence[str] = (),
    baseline: str = "",
    skipped: str | None = None,
) -> dict[str, Any]:
    """Write ``bench/results/<name>.json`` and print a one-line summary per figure."""
    if options.smoke and not options.asked:
        # Its sizes are not the smoke sizes: it would run at full size in the test suite.
        raise RuntimeError(
            f"bench.{options.name} took none of its sizes from Options.size, so it has no"
            " smoke size: ask Options.size(quick, full, smoke=...) for each"
        )
    result = {
        "benchmark": options.name,
        "title": title,
        "scale": options.scale,
        "quick": options.quick,
        "runs": options.runs,
        "sizes": sizes,
        "baseline": baseline,
        "figures": figures,
        "notes": list(notes),
        "skipped": skipped,
        "machine": machine(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - started, 2),
    }
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(result, indent=2) + "\n")
    if skipped:
        print(f"{options.name}: skipped: {skipped}")
    for fig in figures:
        ratio = fig["ratio"]
        extra = f"  ratio {ratio['median']:.3g}x" if ratio else ""
        print(
            f"{options.name}: {fig['label']}: median {fig['median']:.4g} {fig['unit']}"
            f" (min {fig['min']:.4g}, max {fig['max']:.4g}){extra}",
            file=sys.stdout,
        )
    return result
