"""The Telegram transport: a topic (or a reply chain) per member, inline-keyboard cards.

``build(config)`` reads ``[telegram]`` and the ``TELEGRAM_*`` environment variables; see
docs/telegram.md for the bot's setup.
"""

from __future__ import annotations

import os

# python-telegram-bot 22 reports time periods (a 429's retry_after) as timedelta only when
# opted in; otherwise reading them warns that ints are deprecated. crewline opts in.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from typing import TYPE_CHECKING

from crewline.transports.telegram.settings import TelegramSettings, settings_from
from crewline.transports.telegram.transport import TelegramTransport

if TYPE_CHECKING:
    from crewline.config import Config

__all__ = ["TelegramSettings", "TelegramTransport", "build"]


def build(config: Config) -> TelegramTransport:
    """The Telegram transport of a served crewline, from its section and the environment."""
    return TelegramTransport(settings_from(config.section("telegram"), os.environ))
