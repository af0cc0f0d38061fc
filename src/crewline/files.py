"""Files crewline creates that hold what others must not read: private from the start.

The database holds the owner's conversations and the hashes of every key; the local
inbox's journal holds the messages it showed. Each is created ``0600`` in a data directory
created ``0700``, whatever the umask, so there is no moment in which another user of the
machine could open them. Files and directories that already exist are left as they are
(an operator may have chosen their modes); ``crewline doctor`` reports loose ones.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["create_private_file", "private_directory"]

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


def private_directory(path: Path) -> None:
    """Create ``path`` (and missing parents) readable by this user only, if it is missing."""
    if path.is_dir():
        return
    path.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    path.chmod(DIRECTORY_MODE)  # mkdir's mode is filtered by the umask


def create_private_file(path: Path) -> None:
    """Create an empty ``path`` readable by this user only, if it is missing (SQLite then
    gives its -wal and -shm files the same mode)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)
    path.chmod(FILE_MODE)
