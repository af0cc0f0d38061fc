"""The client's cursor file: replaced whole, and never guessed when unreadable."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.client import CursorFile
from crewline.errors import InvalidInput


def test_a_missing_file_starts_from_the_default_and_a_save_reads_back(tmp_path: Path) -> None:
    """No file yet → the default; after save, load gives the saved cursor."""
    cursor = CursorFile(tmp_path / "cursor")
    assert cursor.load(default=7) == 7
    cursor.save(42)
    assert cursor.load() == 42
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cursor"]


def test_a_file_that_holds_no_cursor_is_refused(tmp_path: Path) -> None:
    """Garbage is refused with invalid_cursor rather than read as 0 (which would repeat)."""
    path = tmp_path / "cursor"
    path.write_text("twelve\n")
    with pytest.raises(InvalidInput) as refused:
        CursorFile(path).load()
    assert refused.value.code == "invalid_cursor"
