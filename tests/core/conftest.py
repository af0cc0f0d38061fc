"""The core's rules (SPEC §1-5) in-process: the Hub and its features (``Bot``), the memory
transport and its outbox, the veto-window scheduler, on a SQLite store with the fake clock.
Nothing of crewline is mocked; no HTTP server and no platform fake is started, so a test
costs milliseconds where a full server costs seconds (tests/e2e keeps the seams)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.core.kit import Kit, running


@pytest.fixture
async def kit(tmp_path: Path) -> AsyncIterator[Kit]:
    async with running(tmp_path) as started:
        yield started
