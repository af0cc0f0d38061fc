"""Every benchmark still runs: each at its smoke size (tiny counts, one run), in a process
of its own as ``bench.run`` runs them, writing its result outside ``bench/results/``.

Nothing here judges a figure: the machine is shared and the sizes are tiny. What fails is
a benchmark that no longer runs against today's crewline (an API it calls changed, a rule
it breaks, a size it never got), so none rots unseen until someone runs ``make bench``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bench.common import (
    BENCHMARKS,
    ON_POSTGRES,
    OTHER_BENCHMARKS,
    RESULTS,
    Options,
    parse_options,
    write_result,
)

ROOT = Path(__file__).resolve().parents[2]
# Only how long a hung benchmark takes to report: each needs seconds (docs/performance.md).
RUN_TIMEOUT = 240.0
RESULT_KEYS = {
    "benchmark",
    "title",
    "scale",
    "quick",
    "runs",
    "sizes",
    "baseline",
    "figures",
    "notes",
    "skipped",
    "machine",
    "measured_at",
    "wall_seconds",
}
FIGURE_KEYS = {
    "key",
    "label",
    "unit",
    "higher_is_better",
    "median",
    "min",
    "max",
    "samples",
    "baseline",
    "ratio",
    "target",
    "meets_target",
}


def _smoke(name: str, tmp_path: Path, postgres: str | None) -> dict[str, Any]:
    out, scratch = tmp_path / f"{name}.json", tmp_path / "scratch"
    scratch.mkdir()
    command = [sys.executable, "-m", f"bench.{name}", "--smoke", "--out", str(out)]
    command += ["--data-dir", str(scratch)]
    if postgres is not None:
        command += ["--postgres", postgres]
    done = subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"bench.{name} failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}"
    assert out.exists(), f"bench.{name} wrote no result"
    result: dict[str, Any] = json.loads(out.read_text())
    return result


@pytest.mark.timeout(RUN_TIMEOUT + 60)
@pytest.mark.parametrize("name", BENCHMARKS + OTHER_BENCHMARKS)
def test_each_benchmark_runs_at_its_smoke_size(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """It exits 0 with a result of every key, at the smoke size, each figure from its one
    run. The PostgreSQL benchmarks use the suite's throwaway cluster. The suite does not
    install LangGraph (the ``peer`` extra): then ``peer_langgraph`` measures crewline's side
    alone, and with it both sides."""
    postgres = request.getfixturevalue("postgres_server") if name in ON_POSTGRES else None
    result = _smoke(name, tmp_path, postgres)
    assert result.keys() >= RESULT_KEYS
    assert (result["benchmark"], result["scale"], result["runs"]) == (name, "smoke", 1)
    assert result["skipped"] is None
    figures = {figure["key"]: figure for figure in result["figures"]}
    assert figures, "a smoke run still measures its figures"
    for key, figure in figures.items():
        assert figure.keys() >= FIGURE_KEYS, key
        assert len(figure["samples"]) == 1, key
    if name == "peer_langgraph":
        assert {"agents1.decisions_per_s", "agents2.decisions_per_s"} <= figures.keys()
        peer = importlib.util.find_spec("langgraph") is not None
        assert all((f["baseline"] is not None) == peer for f in figures.values())


def test_every_benchmark_module_is_listed() -> None:
    """A benchmark module (one that writes a result) is run by bench.run or listed as one
    run alone, so the smoke test above covers it."""
    modules = {
        path.stem
        for path in (ROOT / "bench").glob("*.py")
        if path.stem != "common" and "write_result(" in path.read_text()
    }
    assert modules == set(BENCHMARKS + OTHER_BENCHMARKS)


def _options(tmp_path: Path, *argv: str) -> Options:
    return parse_options("toy", argv=["--data-dir", str(tmp_path), *argv])


def test_a_benchmark_without_a_smoke_size_fails_at_the_smoke_size(tmp_path: Path) -> None:
    """Every size comes from Options.size, which asks for the smoke size too; a benchmark
    that asked it for none would run at full size in the suite, so its smoke run fails."""
    options = _options(tmp_path, "--smoke", "--out", str(tmp_path / "toy.json"))
    assert options.size(300, 2000, smoke=3) == 3
    unsized = _options(tmp_path, "--smoke", "--out", str(tmp_path / "toy.json"))
    with pytest.raises(RuntimeError, match="no smoke size"):
        write_result(unsized, title="toy", sizes={}, figures=[], started=0.0)
    assert not (tmp_path / "toy.json").exists()


def test_a_smoke_result_never_goes_to_the_results(tmp_path: Path) -> None:
    """Smoke figures mean nothing: they go to a scratch file, never into bench/results/;
    and only a smoke run may use a given (not durable) PostgreSQL server."""
    default = _options(tmp_path, "--smoke")
    assert not default.out.resolve().is_relative_to(RESULTS)
    default.out.parent.rmdir()  # the fresh directory it would have been written to
    with pytest.raises(SystemExit):
        _options(tmp_path, "--smoke", "--out", str(RESULTS / "toy.json"))
    with pytest.raises(SystemExit):
        _options(tmp_path, "--quick", "--postgres", "postgresql://localhost/x")
