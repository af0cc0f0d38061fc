"""The Slack transport: member threads in the owner's DM, Block Kit cards, slack-bolt inbound.

``blocks`` (drawing) and ``payloads`` (reading) are pure; ``SlackTransport`` is the thin
class around slack-sdk and slack-bolt. ``build`` makes one from ``[slack]`` and ``SLACK_*``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from crewline.transports.slack.settings import SlackSettings, settings_from
from crewline.transports.slack.transport import SlackTransport

if TYPE_CHECKING:
    from crewline.config import Config

__all__ = ["SlackSettings", "SlackTransport", "build"]


def build(config: Config) -> SlackTransport:
    """The Slack transport configured by ``[slack]`` and the environment (which wins)."""
    return SlackTransport(settings_from(config.section("slack"), os.environ))
