"""What every benchmark shares: its arguments, the machine, statistics, and the result file.

A benchmark measures its subject and a baseline in the same run, several runs in a row,
and reports each figure as median, min and max over the runs with the per-run ratio to the
baseline: on a shared, noisy machine, ratios of same-run pairs are what can be compared.
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
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "BENCHMARKS",
    "RESULTS",
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


@dataclass(frozen=True, kw_only=True, slots=True)
class Options:
    """How one benchmark was asked to run."""

    name: str
    quick: bool
    runs: int
    out: Path
    data_dir: Path
    extra: argparse.Namespace

    def size(self, quick: int, full: int) -> int:
        return quick if self.quick else full


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
    """``python -m bench.<name> [--quick] [--runs N] [--out FILE] [--data-dir DIR]``."""
    parser = argparse.ArgumentParser(prog=f"python -m bench.{name}")
    parser.add_argument("--quick", action="store_true", help="the small sizes, for development")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (at least 3)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{name}.json")
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="scratch directory (default: a fresh one)"
    )
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args(argv)
    runs = args.runs or (runs_quick if args.quick else runs_full)
    if runs < 3:
        parser.error("--runs must be at least 3: one run is an anecdote, not a median")
    data_dir = args.data_dir
    if data_dir is None:  # run alone: a scratch directory of our own, removed at exit
        data_dir = Path(tempfile.mkdtemp(prefix=f"crewline-bench-{name}-"))
        atexit.register(shutil.rmtree, data_dir, ignore_errors=True)
    return Options(
        name=name, quick=args.quick, runs=runs, out=args.out, data_dir=data_dir, extra=args
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
    result = {
        "benchmark": options.name,
        "title": title,
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
