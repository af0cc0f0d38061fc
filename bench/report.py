"""Rendering ``bench/results/REPORT.md`` and its PNG plots from the result files.

``python -m bench.report`` re-renders from whatever ``bench/results/*.json`` holds; the
runner calls :func:`render` after each run. Every number in the report comes from a result
file; nothing is typed in by hand.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import NullFormatter

from bench.common import BENCHMARKS

__all__ = ["render"]


def _load(results: Path) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    found = {p.stem: json.loads(p.read_text()) for p in results.glob("*.json")}
    runs = {k.removeprefix("run-"): v for k, v in found.items() if k.startswith("run-")}
    benchmarks = [found[name] for name in BENCHMARKS if name in found]
    return benchmarks, runs


def _num(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def _spread(stats: dict[str, Any] | None, unit: str = "") -> str:
    if not stats:
        return "-"
    suffix = f" {unit}" if unit else ""
    return f"{_num(stats['median'])}{suffix} ({_num(stats['min'])}-{_num(stats['max'])})"


def _met(fig: dict[str, Any]) -> str:
    if fig["target"] is None:
        return ""
    verdict = {True: "yes", False: "**no**", None: "-"}[fig["meets_target"]]
    return f"{fig['target']['text']}: {verdict}"


def _table(benchmark: dict[str, Any]) -> list[str]:
    lines = [
        "| figure | median (min-max) | same-run baseline | ratio (min-max) | target |",
        "|---|---|---|---|---|",
    ]
    for fig in benchmark["figures"]:
        base = fig["baseline"]
        baseline = f"{_spread(base, fig['unit'])} — {base['label']}" if base else "-"
        ratio = _spread(fig["ratio"]) + "x" if fig["ratio"] else "-"
        lines.append(
            f"| {fig['label']} | {_spread(fig, fig['unit'])} | {baseline} | {ratio} | {_met(fig)} |"
        )
    return lines


def _plot_benchmark(benchmark: dict[str, Any], path: Path) -> None:
    # A figure that is zero in every run with nothing to compare (a loss count) says all
    # it has to say in the table.
    figures = [f for f in benchmark["figures"] if f["baseline"] or f["max"] != 0]
    if not figures:
        return
    columns = 3 if len(figures) > 4 else max(1, len(figures))
    rows = math.ceil(len(figures) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.0 * rows), squeeze=False)
    for ax in axes.flat[len(figures) :]:
        ax.set_visible(False)
    for ax, item in zip(axes.flat, figures, strict=False):
        bars = [("crewline", item)]
        if item["baseline"]:
            bars.append(("baseline", item["baseline"]))
        names = [b[0] for b in bars]
        medians = [b[1]["median"] for b in bars]
        low = [b[1]["median"] - b[1]["min"] for b in bars]
        high = [b[1]["max"] - b[1]["median"] for b in bars]
        ax.bar(
            names, medians, yerr=[low, high], capsize=6, color=["#2b6cb0", "#a0aec0"][: len(bars)]
        )
        target = item["target"]
        if target and target["kind"] in ("at_most", "at_least"):
            ax.axhline(target["value"], color="#c53030", linestyle="--", linewidth=1)
        elif target and item["baseline"] and target["kind"].startswith("ratio"):
            ax.axhline(
                target["value"] * item["baseline"]["median"],
                color="#c53030",
                linestyle="--",
                linewidth=1,
            )
        ax.set_title(_wrap(item["label"]), fontsize=8)
        ax.set_ylabel(item["unit"], fontsize=8)
        ax.tick_params(labelsize=8)
    fig.suptitle(benchmark["title"], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _plot_summary(benchmarks: list[dict[str, Any]], path: Path) -> None:
    """Every figure with a ratio: median and min-max, log scale, with its target."""
    items = [
        (f"{b['benchmark']}: {f['label']}", f)
        for b in benchmarks
        for f in b["figures"]
        if f["ratio"] and f["ratio"]["min"] > 0
    ]
    if not items:
        return
    low = min(item["ratio"]["min"] for _, item in items)
    high = max(item["ratio"]["max"] for _, item in items)
    fig, ax = plt.subplots(figsize=(12, 0.34 * len(items) + 1.2))
    for row, (_, item) in enumerate(items):
        ratio = item["ratio"]
        met = item["meets_target"]
        color = {True: "#2f855a", False: "#c53030", None: "#2b6cb0"}[met]
        ax.plot([ratio["min"], ratio["max"]], [row, row], color=color, linewidth=2)
        ax.plot(ratio["median"], row, "o", color=color)
        target = item["target"]
        if target and target["kind"].startswith("ratio"):
            ax.plot(target["value"], row, "|", color="black", markersize=12)
    ax.axvline(1.0, color="#718096", linewidth=0.8)
    ax.set_xscale("log")
    ticks = [t for t in (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50) if low / 2 <= t <= high * 2]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}x" for t in ticks])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(range(len(items)))
    ax.set_yticklabels([_wrap(name, 60) for name, _ in items], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("ratio to the same-run baseline (median, min-max; | = target)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _wrap(text: str, width: int = 44) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join(lines)


def _runs_section(runs: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["## Run times", ""]
    for mode in ("quick", "full"):
        run = runs.get(mode)
        if run is None:
            lines.append(f"- `{mode}`: no {mode} run recorded yet.")
            continue
        whole = "all benchmarks" if run.get("complete") else "some benchmarks"
        lines.append(
            f"- `{mode}` ({whole}), {run['started_at']}: **{run['seconds'] / 60:.1f} min** in all"
            f" (load average at start {', '.join(f'{x:.1f}' for x in run['machine']['loadavg'])})."
        )
        for name, item in run["benchmarks"].items():
            sizes = ", ".join(f"{k}={v}" for k, v in (item.get("sizes") or {}).items())
            lines.append(f"  - {name}: {item['status']}, {item['seconds']:.0f} s — {sizes}")
    return [*lines, ""]


def render(results: Path) -> Path:
    """Write REPORT.md and the PNGs into ``results``; returns the report's path."""
    benchmarks, runs = _load(results)
    lines = ["# crewline performance report", ""]
    if benchmarks:
        machine = benchmarks[0]["machine"]
        modes = sorted({"quick" if b["quick"] else "full" for b in benchmarks})
        lines += [
            f"Generated by `python -m bench.run` from `bench/results/*.json` (sizes:"
            f" {' and '.join(modes)}). Machine: {machine['cores']} cores, Python"
            f" {machine['python']}, SQLite {machine['sqlite']}, {machine['platform']}.",
            "",
            "The machine is shared (other engineers' test suites run beside the benchmarks), so"
            " absolute numbers move from run to run: every figure is the median of several"
            " runs with its min-max, next to a baseline measured in the same run, and the"
            " ratio is computed run by run. Compare ratios, not absolute times.",
            "",
            "## Summary",
            "",
            "![ratios to the same-run baselines](summary.png)",
            "",
            "| benchmark | figure | median (min-max) | ratio to baseline | target |",
            "|---|---|---|---|---|",
        ]
        for benchmark in benchmarks:
            for fig in benchmark["figures"]:
                ratio = _spread(fig["ratio"]) + "x" if fig["ratio"] else "-"
                lines.append(
                    f"| {benchmark['benchmark']} | {fig['label']} |"
                    f" {_spread(fig, fig['unit'])} | {ratio} | {_met(fig)} |"
                )
            if benchmark.get("skipped"):
                lines.append(
                    f"| {benchmark['benchmark']} | skipped: {benchmark['skipped']} | | | |"
                )
        lines.append("")
        _plot_summary(benchmarks, results / "summary.png")
    lines += _runs_section(runs)
    for benchmark in benchmarks:
        name = benchmark["benchmark"]
        mode = "quick" if benchmark["quick"] else "full"
        sizes = ", ".join(f"{k}={v}" for k, v in benchmark["sizes"].items())
        lines += [
            f"## {benchmark['title']}",
            "",
            f"`python -m bench.{name}{' --quick' if benchmark['quick'] else ''}` — {mode} sizes,"
            f" {benchmark['runs']} runs, measured {benchmark['measured_at']} in"
            f" {benchmark['wall_seconds']:.0f} s (load average"
            f" {', '.join(f'{x:.1f}' for x in benchmark['machine']['loadavg'])}).",
            "",
            f"Sizes: {sizes}.",
            "",
        ]
        if benchmark.get("baseline"):
            lines += [f"Baseline: {benchmark['baseline']}", ""]
        if benchmark.get("skipped"):
            lines += [f"Skipped: {benchmark['skipped']}", ""]
            continue
        lines += _table(benchmark)
        lines.append("")
        for note in benchmark.get("notes", []):
            lines.append(f"- {note}")
        (results / f"{name}.png").unlink(missing_ok=True)
        _plot_benchmark(benchmark, results / f"{name}.png")
        if (results / f"{name}.png").exists():
            lines += ["", f"![{name}]({name}.png)", ""]
    report = results / "REPORT.md"
    report.write_text("\n".join(lines).rstrip() + "\n")
    return report


if __name__ == "__main__":
    from bench.common import RESULTS

    print(render(RESULTS))
