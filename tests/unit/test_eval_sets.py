"""The concierge's eval sets: the development sets and the frozen, held-out test sets."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from crewline.policy.eval_file import CATEGORIES, load_eval

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "evals" / "concierge"


# Each held-out set and the sha256 it was committed with. A held-out set is never edited.
HELD_OUT = {
    "test.yaml": "2e1d50b392afe0773ae0b134b1a0f6fcde9a3522dc54f097f2de8ce7291303cf",
    "test-2.yaml": "283e326fe80dea34b60e080649e73870369c38841e9ae1e6a289c9cc5bbc2203",
}


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_a_held_out_set_is_the_file_whose_hash_the_docs_give(name: str) -> None:
    """The held-out sets are frozen: each one's sha256 is the one docs/concierge.md publishes.
    A change to the file (or to the hash) fails here."""
    written = re.findall(r"\b[0-9a-f]{64}\b", (ROOT / "docs" / "concierge.md").read_text())
    digest = hashlib.sha256((SETS / name).read_bytes()).hexdigest()
    assert digest == HELD_OUT[name]
    assert digest in written


def test_every_set_loads_and_every_question_names_its_category() -> None:
    """Every file passes the strict loader, and every question carries one of SPEC §4's
    categories (which the loader checks against ``expect``)."""
    names = sorted(path.name for path in SETS.glob("*.yaml"))
    assert set(HELD_OUT) | {"dev.yaml"} <= set(names)
    for name in names:
        loaded = load_eval(SETS / name)
        assert {q.category for q in loaded.questions} <= set(CATEGORIES), name
        assert all(q.category for q in loaded.questions), name
