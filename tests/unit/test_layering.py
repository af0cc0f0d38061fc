"""The layering: the core imports no chat SDK, no web framework and no database driver; no
module of crewline takes part in an import cycle; the core names no feature; the top level
holds only the foundation modules and the packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import crewline

FORBIDDEN = (
    "aiosqlite",
    "sqlite3",
    "fastapi",
    "starlette",
    "uvicorn",
    "slack_bolt",
    "slack_sdk",
    "telegram",
    "discord",
    "aiohttp",
    "httpx",
    "apscheduler",
)
SRC = Path(crewline.__file__).resolve().parent.parent
FEATURES = ("escalations", "questions", "boundaries", "concierge")
# The top level of crewline: values, settings, the error tree and small helpers every layer
# may use, beside the packages (docs/architecture.md, "Layout"). A module added at the top
# belongs in a package, or on this list with the reason it is shared.
FOUNDATION = frozenset(
    {
        "__init__",
        "__main__",
        "config",
        "config_schema",
        "crew",
        "errors",
        "files",
        "kept_alive",  # requests on kept-alive connections: the client's and the pusher's
        "keys",
        "launchers",
        "limits",
        "models",
        "moments",
        "serving_lock",
        "tasks",
        "testing",
    }
)
PACKAGES = frozenset(
    {
        "api",
        "app",
        "bot",
        "brains",
        "client",
        "ops",
        "policy",
        "push",
        "replication",
        "store",
        "transports",
    }
)


def test_the_core_and_policy_import_no_sdk_framework_or_driver() -> None:
    """Importing the core, its features and crewline.policy loads none of the adapters'
    libraries."""
    probe = (
        "import sys, crewline.bot, crewline.policy, crewline.app.assembly\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_probe_would_notice_a_forbidden_import() -> None:
    """The check above can fail: importing the SQLite store does load its driver."""
    probe = "import sys, crewline.store.sqlite\nprint('aiosqlite' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"


# --- import cycles ---------------------------------------------------------------------------


def module_imports(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (under ``root``) -> the modules of ``package`` it imports.

    Every import statement counts, wherever it stands: at the top, inside a function (a
    cycle put off until call time is still a cycle), and under ``if TYPE_CHECKING:`` (a
    module that needs another's types depends on it; hiding the import from the
    interpreter hides the cycle, not the dependency). ``from pkg import name`` names the
    module ``pkg.name`` when there is one, else ``pkg`` itself (its ``__init__``). Importing
    ``pkg.mod`` does not count as importing ``pkg``: a package's ``__init__`` gathering its
    modules into one surface is not a dependency of theirs on it.
    """
    modules: dict[str, tuple[Path, bool]] = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {known(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name if is_package else name.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        here = here.rpartition(".")[0]
                    base = f"{here}.{base}" if base else here
                for alias in node.names:
                    found.add(
                        f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else known(base)
                    )
        graph[name] = {m for m in found if m is not None and m != name}
    return graph


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (each an import cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, iteratively: the import graph is deep enough to matter.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return cycles


def test_no_module_of_crewline_is_in_an_import_cycle() -> None:
    """No group of crewline's modules imports each other round, not even for type hints."""
    graph = module_imports(SRC, "crewline")
    assert len(graph) > 100  # the walk found the source tree
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    """The check above can fail: a -> b -> c -> a (c's import only for type hints, b's
    inside a function) is found, and d, which only imports a, is not part of it."""
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("from toy.a import A\n")
    (package / "a.py").write_text("from toy import b\n\nA = 1\n")
    (package / "b.py").write_text("def f():\n    from toy.c import C\n    return C\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from toy.a import A\nC = 2\n"
    )
    (package / "d.py").write_text("from . import a\n")
    graph = module_imports(tmp_path, "toy")
    assert graph["toy.d"] == {"toy.a"}
    assert import_cycles(graph) == [["toy.a", "toy.b", "toy.c"]]


# --- the core names no feature ---------------------------------------------------------------


def _feature_of(module: str) -> str | None:
    """The feature a module of bot/ belongs to (None: the core)."""
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["crewline", "bot"]:
        return None
    return parts[2] if parts[2] in FEATURES else None


def test_the_core_imports_no_feature() -> None:
    """The modules of bot/ outside the features import none of them: the core reaches a
    feature only through what the feature registered with it."""
    graph = module_imports(SRC, "crewline")
    core = [name for name in graph if name.startswith("crewline.bot.") and not _feature_of(name)]
    assert {"crewline.bot.hub", "crewline.bot.ports", "crewline.bot.changes"} <= set(core)
    named = {name: sorted(m for m in graph[name] if _feature_of(m)) for name in core}
    assert {name: found for name, found in named.items() if found} == {}


# --- the top level ---------------------------------------------------------------------------


def top_level(package: Path) -> tuple[set[str], set[str]]:
    """The modules (by stem) and the packages directly inside ``package``."""
    modules = {path.stem for path in package.glob("*.py")}
    packages = {path.name for path in package.iterdir() if (path / "__init__.py").is_file()}
    return modules, packages


def test_the_top_level_holds_only_the_foundation_and_the_packages() -> None:
    """The layout cannot silently regrow: a module added at the top of crewline, or a
    package not in the layout, fails here until it is placed (and the layout redrawn)."""
    modules, packages = top_level(SRC / "crewline")
    assert (sorted(modules - FOUNDATION), sorted(FOUNDATION - modules)) == ([], [])
    assert (sorted(packages - PACKAGES), sorted(PACKAGES - packages)) == ([], [])


def test_the_top_level_check_would_notice_a_stray_module(tmp_path: Path) -> None:
    """The check above can fail: a flat module beside the packages is seen as one."""
    package = tmp_path / "toy"
    (package / "app").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "app" / "__init__.py").write_text("")
    (package / "server.py").write_text("")
    (package / "notes").mkdir()  # a folder without __init__.py is not a package
    assert top_level(package) == ({"__init__", "server"}, {"app"})
