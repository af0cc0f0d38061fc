"""The local inbox's memory across restarts: its view records, one JSON object a line.

A chat platform keeps the messages it has shown; the local inbox is its own platform, so
it keeps them too, in ``local-inbox.jsonl`` beside crewline's database. crewline's store
stays the truth (it knows which message ref shows which row); this file only lets the
inbox draw again what it drew before a restart, and redraw those messages when the outbox
updates them. At open the file is replayed and rewritten compacted, so it holds one
snapshot plus the changes since the last start.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import IO

from crewline.files import create_private_file, private_directory
from crewline.transports.local.view import InboxView, Record

__all__ = ["Journal"]

log = logging.getLogger(__name__)


class Journal:
    """Appends view records to a file; :meth:`open` replays it into a fresh view."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def open(self) -> InboxView:
        """Replay the file into a new view, compact it, and start appending to it."""
        view = InboxView()
        if self.path.exists():
            self._replay(view)
        private_directory(self.path.parent)
        compacted = self.path.with_name(self.path.name + ".tmp")
        compacted.unlink(missing_ok=True)
        create_private_file(compacted)
        with compacted.open("w", encoding="utf-8") as out:
            for record in view.snapshot():
                out.write(_line(record))
            out.flush()
            os.fsync(out.fileno())
        compacted.replace(self.path)
        self._file = self.path.open("a", encoding="utf-8")
        return view

    def append(self, record: Record) -> None:
        """Write one record. A view record is a few hundred bytes and the file is local, so
        a buffered write plus flush (no fsync: the store, not this file, is the truth) is
        cheaper than a thread hop."""
        if self._file is not None:
            self._file.write(_line(record))
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None

    def _replay(self, view: InboxView) -> None:
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    view.apply(json.loads(line))
                except (ValueError, KeyError, TypeError) as error:
                    # A torn last line after a crash, or a hand edit: skip it, keep the rest.
                    log.warning("%s line %d skipped: %s", self.path, number, error)


def _line(record: Record) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
