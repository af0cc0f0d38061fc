"""docs/security.md names the tests that hold each promise: every one it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"


def _named() -> list[tuple[str, str | None]]:
    """Each (file, test) the page names; ``::name`` belongs to the file named before it."""
    found: list[tuple[str, str | None]] = []
    last = ""
    for line in DOC.read_text().splitlines():
        for match in re.finditer(r"`(tests/[\w/.]+?)(?:::(\w+))?`|`::(\w+)`", line):
            path, name, tail = match.groups()
            if path is not None:
                last = path
                found.append((path, name))
            else:
                found.append((last, tail))
    return found


def test_every_test_the_security_page_names_exists() -> None:
    named = _named()
    assert len(named) > 20, "precondition: the page names its tests"
    missing = []
    for path, name in named:
        target = ROOT / path
        if not target.exists():
            missing.append(path)
            continue
        if name is None:
            continue
        tree = ast.parse(target.read_text())
        names = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        if name not in names:
            missing.append(f"{path}::{name}")
    assert missing == []
