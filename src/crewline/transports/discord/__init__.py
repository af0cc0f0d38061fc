"""The Discord transport: a private thread per member under one crew channel of a server.

``render`` holds the pure functions (what a message says, within Discord's limits),
``client`` the thin discord.py client (intents, the button template, the commands),
``transport`` the Transport port over it, ``settings`` the configuration.
"""

from crewline.transports.discord.settings import DiscordSettings, settings_from
from crewline.transports.discord.transport import DiscordTransport, build

__all__ = ["DiscordSettings", "DiscordTransport", "build", "settings_from"]
