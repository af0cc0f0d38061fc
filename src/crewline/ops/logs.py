"""Logging set-up: one logger per module, text for people or JSON lines for collectors.

Secrets never reach a log line: keys and tokens are only ever printed by the commands that
issue them, and the transports log platform errors without their request bodies.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

__all__ = ["JsonFormatter", "configure_logging"]


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the exception if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str = "INFO", *, json_lines: bool = False) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter()
        if json_lines
        else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # The SDKs' own request logs would repeat every platform call at INFO.
    for noisy in ("httpx", "apscheduler", "uvicorn.error"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
