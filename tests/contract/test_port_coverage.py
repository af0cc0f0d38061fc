"""Every method of the Store port says its contract and is exercised by the contract suite
(through the port, on every store): a method added without both fails here."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from crewline.store import Store, Tx

_SUITE = "\n".join(p.read_text() for p in sorted(Path(__file__).parent.glob("test_store*.py")))
_METHODS = [(cls, name) for cls in (Tx, Store) for name in sorted(cls.__abstractmethods__)]


@pytest.mark.parametrize(("port", "name"), _METHODS, ids=[f"{c.__name__}.{n}" for c, n in _METHODS])
def test_every_port_method_has_a_docstring_and_a_contract_test(port: type, name: str) -> None:
    """A docstring on the port's method, and a call of it in the contract suite: on a
    transaction (``tx.name(``) for Tx, on an open store for Store."""
    assert inspect.getdoc(getattr(port, name)), f"{port.__name__}.{name} has no docstring"
    if name in ("__aenter__", "__aexit__"):
        assert "async with open_store(" in (Path(__file__).parent / "conftest.py").read_text()
        return
    receiver = r"\btx" if port is Tx else r"\b(?:store|again|opened)"
    assert re.search(rf"{receiver}\.{name}\(", _SUITE), (
        f"{port.__name__}.{name} is not called in tests/contract/test_store*.py"
    )
