"""Where ``Client.events()`` keeps its cursor between runs: a file, or your own callback."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from crewline.errors import InvalidInput

__all__ = ["CursorFile", "CursorSink"]

CursorSink = Callable[[int], Awaitable[None] | None]
"""Called with each new cursor, before the event it belongs to is handed over."""


class CursorFile:
    """A cursor in a small text file, replaced atomically so a crash never leaves half a number."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def load(self, default: int = 0) -> int:
        try:
            text = self.path.read_text().strip()
        except FileNotFoundError:
            return default
        if not text.isdigit():
            raise InvalidInput(
                f"{self.path} does not hold a cursor (a whole number ≥ 0)", code="invalid_cursor"
            )
        return int(text)

    def save(self, cursor: int) -> None:
        partial = self.path.with_name(f".{self.path.name}.partial")
        partial.write_text(f"{cursor}\n")
        os.replace(partial, self.path)
