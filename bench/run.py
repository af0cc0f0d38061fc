"""Run every benchmark, each in its own process, then render the report.

``python -m bench.run [--quick] [--only NAME ...] [--runs N]``: each benchmark module runs
as ``python -m bench.<name>`` in a fresh interpreter with a fresh scratch directory, and
writes ``bench/results/<name>.json``; its output goes to ``bench/results/<name>.log``.
Then ``bench/results/REPORT.md`` and its PNG plots are rendered from every result file.
The run's own record (which benchmarks ran, how long each took, the sizes) is kept in
``bench/results/run-quick.json`` or ``run-full.json``, so the report can tell how long the
full sizes take even after a quick run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import BENCHMARKS, RESULTS, machine
from bench.report import render

__all__ = ["BENCHMARKS", "main"]

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = {"quick": 600.0, "full": 4 * 3600.0}


def run_one(name: str, *, quick: bool, runs: int | None) -> dict[str, Any]:
    """Run one benchmark module in a fresh interpreter; what happened to it."""
    out = RESULTS / f"{name}.json"
    out.unlink(missing_ok=True)  # a failed run must not leave an older result standing
    scratch = Path(tempfile.mkdtemp(prefix=f"crewline-bench-{name}-"))
    command = [sys.executable, "-m", f"bench.{name}", "--out", str(out), "--data-dir", str(scratch)]
    if quick:
        command.append("--quick")
    if runs is not None:
        command += ["--runs", str(runs)]
    log = RESULTS / f"{name}.log"
    print(f"== {name}", flush=True)
    started = time.perf_counter()
    try:
        with log.open("w") as sink:
            completed = subprocess.run(
                command,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT["quick" if quick else "full"],
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                check=False,
            )
        status = "ok" if completed.returncode == 0 and out.exists() else "failed"
        code: int | None = completed.returncode
    except subprocess.TimeoutExpired:
        status, code = "timed out", None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.perf_counter() - started
    summary = [line for line in log.read_text().splitlines() if line.startswith(f"{name}:")]
    print("\n".join(summary) or log.read_text()[-2000:], flush=True)
    print(f"-- {name}: {status} in {seconds:.1f} s", flush=True)
    sizes = json.loads(out.read_text())["sizes"] if out.exists() else None
    return {"status": status, "exit_code": code, "seconds": round(seconds, 1), "sizes": sizes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run")
    parser.add_argument("--quick", action="store_true", help="small sizes (a few minutes)")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, metavar="NAME")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (≥ 3)")
    args = parser.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    mode = "quick" if args.quick else "full"
    chosen = args.only or list(BENCHMARKS)
    started = time.perf_counter()
    record: dict[str, Any] = {
        "mode": mode,
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "benchmarks": {},
    }
    for name in chosen:
        record["benchmarks"][name] = run_one(name, quick=args.quick, runs=args.runs)
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["complete"] = chosen == list(BENCHMARKS)
    (RESULTS / f"run-{mode}.json").write_text(json.dumps(record, indent=2) + "\n")
    report = render(RESULTS)
    failed = [n for n, r in record["benchmarks"].items() if r["status"] != "ok"]
    print(f"== {len(chosen)} benchmarks in {record['seconds']:.0f} s; report: {report}")
    if failed:
        print(f"== failed: {', '.join(failed)} (see bench/results/<name>.log)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
