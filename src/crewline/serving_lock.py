"""One server per SQLite data directory: the lock a running crewline holds, and who holds it.

``crewline serve`` and ``crewline demo`` hold an ``flock`` on ``crewline.lock`` in the data
directory for as long as they serve. On SQLite it is exclusive: a second server on the same
directory would write the same database with its own caches, timers and outbox, so it is
refused at once, naming the first by the PID and URL that holder wrote into the file. On a
shared PostgreSQL, replicas may share a directory, and the lock is shared.
``crewline restore`` takes the lock exclusively, so it refuses while any server runs, and a
server refuses to start while a restore holds it.

The kernel drops an ``flock`` with its holder's last descriptor, however the holder ends (a
SIGKILL included): a killed server leaves nothing to clean up, and the next one takes the
lock at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from crewline.errors import AlreadyServing, Conflict, Unavailable
from crewline.files import private_directory

__all__ = ["LOCK_NAME", "Holder", "ServingLock", "holder_of", "restore_lock"]

LOCK_NAME = "crewline.lock"
_SERVE = "serve"
_RESTORE = "restore"


@dataclass(frozen=True, kw_only=True, slots=True)
class Holder:
    """Who holds the lock, as the holder wrote it: a server (with its URL once it listens)
    or a restore."""

    role: str
    pid: int | None = None
    url: str | None = None

    def describe(self) -> str:
        """'PID 4242, http://127.0.0.1:8765', or as much of it as is known."""
        known = [f"PID {self.pid}" if self.pid is not None else "", self.url or ""]
        return ", ".join(part for part in known if part) or "its PID not written yet"


def holder_of(data_dir: Path) -> Holder | None:
    """What the lock file says about its holder (None: nothing written, or unreadable)."""
    try:
        text = (data_dir / LOCK_NAME).read_text(encoding="utf-8")
        found = json.loads(text) if text.strip() else None
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("role"), str):
        return None
    pid, url = found.get("pid"), found.get("url")
    return Holder(
        role=found["role"],
        pid=pid if isinstance(pid, int) else None,
        url=url if isinstance(url, str) else None,
    )


class ServingLock:
    """Held by a running server (``with ServingLock(data_dir) as lock``); ``exclusive``:
    one server per directory (SQLite), else shared among replicas (PostgreSQL).

    Raises AlreadyServing (``data_dir_in_use``) when another server holds the directory,
    and Unavailable (``restore_in_progress``) while a restore does.
    """

    def __init__(self, data_dir: Path, *, exclusive: bool = True) -> None:
        self.data_dir = data_dir
        self.exclusive = exclusive
        self._fd: int | None = None

    def __enter__(self) -> ServingLock:
        fd = _open(self.data_dir)
        kind = fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._refusal() from None
        self._fd = fd
        self._write(Holder(role=_SERVE, pid=os.getpid()))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if self.exclusive:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # what it said is no longer true
        os.close(fd)  # closing the descriptor releases the lock

    def announce(self, url: str) -> None:
        """Write the URL this server listens on, for the next one to name."""
        self._write(Holder(role=_SERVE, pid=os.getpid(), url=url))

    def _write(self, holder: Holder) -> None:
        if self._fd is None or not self.exclusive:
            return  # shared holders would overwrite each other: they write nothing
        _overwrite(self._fd, holder)

    def _refusal(self) -> Exception:
        holder = holder_of(self.data_dir)
        if holder is not None and holder.role == _RESTORE:
            return Unavailable(
                f"a restore into {self.data_dir} is in progress; start crewline when it is done",
                code="restore_in_progress",
            )
        who = (
            f"crewline is already serving from {self.data_dir} ({holder.describe()})"
            if holder is not None
            else f"another crewline process holds {self.data_dir / LOCK_NAME}"
        )
        return AlreadyServing(
            f"{who}: one server per data directory. Stop it first, or give this one a data"
            " directory of its own (--data-dir)",
            data_dir=str(self.data_dir),
            pid=holder.pid if holder is not None else None,
            url=holder.url if holder is not None else None,
        )


@contextlib.contextmanager
def restore_lock(data_dir: Path) -> Iterator[None]:
    """Held by a restore: exclusive, without waiting. Raises Conflict (``database_in_use``)
    naming the server that holds the directory."""
    fd = _open(data_dir)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = holder_of(data_dir)
            running = f" ({holder.describe()})" if holder is not None else ""
            raise Conflict(
                f"crewline is serving from {data_dir}{running}; stop it before restoring",
                code="database_in_use",
            ) from None
        _overwrite(fd, Holder(role=_RESTORE, pid=os.getpid()))
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)


def _open(data_dir: Path) -> int:
    private_directory(data_dir)
    return os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)


def _overwrite(fd: int, holder: Holder) -> None:
    record = {"role": holder.role, "pid": holder.pid, "url": holder.url}
    data = (json.dumps(record) + "\n").encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)
