"""Running the ``crewline`` command in the test's own process: what it changes of the
process's logging (``configure_logging``) is put back afterwards, so a later test's logs
are not sent to a stream of this one."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

_NOISY = ("httpx", "apscheduler", "uvicorn.error")


@pytest.fixture(autouse=True)
def logging_kept() -> Iterator[None]:
    """The root logger's handlers and the levels the command sets, as they were."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in _NOISY}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, was in levels.items():
        logging.getLogger(name).setLevel(was)
