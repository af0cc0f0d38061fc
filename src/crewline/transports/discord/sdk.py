"""discord.py, imported once for the transport's modules.

discord.py's voice support imports the standard library's ``audioop``, which Python 3.11 and
3.12 flag with a DeprecationWarning at import time. crewline never uses voice; the warning
is silenced for this one import only, so it cannot hide anything else (and test runs that
turn warnings into errors still load the SDK). For the same reason the first client's log
warnings that voice libraries are missing are turned off.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

__all__ = ["app_commands", "discord"]
