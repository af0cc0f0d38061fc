"""Run every benchmark, each in its own process, then render the report.

``python -m bench.run [--quick | --smoke] [--only NAME ...] [--runs N]``: each benchmark
module runs as ``python -m bench.<name>`` in a fresh interpreter with a fresh scratch
directory, and writes ``bench/results/<name>.json``; its output goes to
``bench/results/<name>.log``. Then ``bench/results/REPORT.md`` and its PNG plots are
rendered from every result file. The run's own record (which benchmarks ran, how long each
took in wall and CPU time, the sizes) is kept in ``bench/results/run-quick.json`` or
``run-full.json``, so the report can tell how long the full sizes take even after a quick
run.

``--smoke`` runs every benchmark (those bench.run leaves out too) at its smoke size, as the
test suite does: results, logs and the record go to a scratch directory, never to
``bench/results/``, and no report is rendered (smoke figures mean nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import BENCHMARKS, OTHER_BENCHMARKS, RESULTS, machine
from bench.report import render

__all__ = ["BENCHMARKS", "main"]

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = {"smoke": 300.0, "quick": 600.0, "full": 4 * 3600.0}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(name: str, *, mode: str, runs: int | None, results: Path = RESULTS) -> dict[str, Any]:
    """Run one benchmark module in a fresh interpreter; what happened to it. Its CPU time is
    its process tree's (its helpers' included; not a PostgreSQL server's it started)."""
    out = results / f"{name}.json"
    out.unlink(missing_ok=True)  # a failed run must not leave an older result standing
    scratch = Path(tempfile.mkdtemp(prefix=f"crewline-bench-{name}-"))
    command = [sys.executable, "-m", f"bench.{name}", "--out", str(out), "--data-dir", str(scratch)]
    if mode != "full":
        command.append(f"--{mode}")
    if runs is not None:
        command += ["--runs", str(runs)]
    log = results / f"{name}.log"
    print(f"== {name}", flush=True)
    started, cpu_before = time.perf_counter(), _children_cpu()
    try:
        with log.open("w") as sink:
            completed = subprocess.run(
                command,
                cwd=ROOT,
                stdout=sink,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT[mode],
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                check=False,
            )
        status = "ok" if completed.returncode == 0 and out.exists() else "failed"
        code: int | None = completed.returncode
    except subprocess.TimeoutExpired:
        status, code = "timed out", None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu_before
    summary = [line for line in log.read_text().splitlines() if line.startswith(f"{name}:")]
    print("\n".join(summary) or log.read_text()[-2000:], flush=True)
    print(f"-- {name}: {status} in {seconds:.1f} s ({cpu:.1f} s of CPU)", flush=True)
    sizes = json.loads(out.read_text())["sizes"] if out.exists() else None
    return {
        "status": status,
        "exit_code": code,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "sizes": sizes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run")
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--quick", action="store_true", help="small sizes (a few minutes)")
    scale.add_argument(
        "--smoke", action="store_true", help="tiny sizes: does each still run? (no report)"
    )
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS + OTHER_BENCHMARKS, metavar="NAME")
    parser.add_argument("--runs", type=int, default=None, help="runs per figure (≥ 3)")
    args = parser.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    if args.smoke:
        return smoke(args.only or list(BENCHMARKS + OTHER_BENCHMARKS))
    RESULTS.mkdir(parents=True, exist_ok=True)
    chosen = args.only or list(BENCHMARKS)
    started = time.perf_counter()
    record: dict[str, Any] = {
        "mode": mode,
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "benchmarks": {},
    }
    for name in chosen:
        record["benchmarks"][name] = run_one(name, mode=mode, runs=args.runs)
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["complete"] = chosen == list(BENCHMARKS)
    (RESULTS / f"run-{mode}.json").write_text(json.dumps(record, indent=2) + "\n")
    report = render(RESULTS)
    failed = [n for n, r in record["benchmarks"].items() if r["status"] != "ok"]
    print(f"== {len(chosen)} benchmarks in {record['seconds']:.0f} s; report: {report}")
    if failed:
        print(f"== failed: {', '.join(failed)} (see bench/results/<name>.log)")
    return 1 if failed else 0


def smoke(chosen: list[str]) -> int:
    """Each benchmark at its smoke size; results and logs in a scratch directory."""
    results = Path(tempfile.mkdtemp(prefix="crewline-bench-smoke-"))
    ran = {name: run_one(name, mode="smoke", runs=None, results=results) for name in chosen}
    (results / "run-smoke.json").write_text(json.dumps(ran, indent=2) + "\n")
    failed = [n for n, r in ran.items() if r["status"] != "ok"]
    wall = sum(r["seconds"] for r in ran.values())
    cpu = sum(r["cpu_seconds"] for r in ran.values())
    print(f"== {len(chosen)} benchmarks at smoke size: {wall:.0f} s, {cpu:.0f} s of CPU")
    print(f"== results and logs: {results}")
    if failed:
        print(f"== failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
