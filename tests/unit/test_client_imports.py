"""The Python client stays light: it loads without the web framework or the store."""

from __future__ import annotations

import subprocess
import sys


def test_the_client_imports_without_the_web_framework() -> None:
    """crewline.client loads neither FastAPI nor Starlette nor the SQLite driver."""
    code = (
        "import sys, crewline.client; "
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'fastapi', 'starlette', 'aiosqlite', 'uvicorn'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert "crewline" not in result.stderr
    assert result.stdout.strip() == "[]"
