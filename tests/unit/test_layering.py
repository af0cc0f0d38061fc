"""The core imports no chat SDK, no web framework and no database driver."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = (
    "aiosqlite",
    "sqlite3",
    "fastapi",
    "starlette",
    "uvicorn",
    "slack_bolt",
    "slack_sdk",
    "telegram",
    "discord",
    "aiohttp",
    "httpx",
    "apscheduler",
)


def test_the_core_and_policy_import_no_sdk_framework_or_driver() -> None:
    """Importing crewline.bot and crewline.policy loads none of the adapters' libraries."""
    probe = (
        "import sys, crewline.bot, crewline.policy\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_probe_would_notice_a_forbidden_import() -> None:
    """The check above can fail: importing the SQLite store does load its driver."""
    probe = "import sys, crewline.store.sqlite\nprint('aiosqlite' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"
