"""The concierge's two eval sets: the development set and the frozen, held-out test set."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from crewline.policy.eval_file import CATEGORIES, load_eval

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "evals" / "concierge"


def test_the_held_out_set_is_the_file_whose_hash_the_docs_give() -> None:
    """test.yaml is frozen: its sha256 is the one docs/concierge.md publishes. A change to the
    file (or to the hash) fails here; the held-out set is never edited."""
    written = re.findall(r"\b[0-9a-f]{64}\b", (ROOT / "docs" / "concierge.md").read_text())
    digest = hashlib.sha256((SETS / "test.yaml").read_bytes()).hexdigest()
    assert digest == "2e1d50b392afe0773ae0b134b1a0f6fcde9a3522dc54f097f2de8ce7291303cf"
    assert digest in written


def test_every_set_loads_and_every_question_names_its_category() -> None:
    """Every file passes the strict loader, and every question carries one of SPEC §4's
    categories (which the loader checks against ``expect``)."""
    for name in ("dev.yaml", "dev-adversarial.yaml", "dev-adversarial-2.yaml", "test.yaml"):
        loaded = load_eval(SETS / name)
        assert {q.category for q in loaded.questions} <= set(CATEGORIES), name
        assert all(q.category for q in loaded.questions), name
