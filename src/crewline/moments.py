"""Times a message names, shown in each reader's own zone where the surface can do it.

The core writes a time in words with its zone ("Sep 6, 09:42 UTC": true on every surface, and
the fallback Slack requires) and lists the moments it wrote in ``OutboundMessage.times``. A
transport whose platform can show a time in the reader's zone (Slack's date token, Discord's
timestamp markup, the inbox's browser) swaps those words for its own markup after drawing
the text; one that cannot (Telegram) leaves the words, zone named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, tzinfo

__all__ = ["in_words", "localize"]


def in_words(moment: datetime, zone: tzinfo = UTC) -> str:
    """'Sep 6, 09:42 UTC': a clock time with its zone, in words a person reads at a glance."""
    local = moment.astimezone(zone)
    return f"{local:%b} {local.day}, {local:%H:%M} {local.tzname() or 'UTC'}"


def localize(text: str, times: Iterable[datetime], native: Callable[[datetime], str]) -> str:
    """``text`` (already drawn for the platform) with each moment's UTC words replaced by
    ``native(moment)``. The words are letters, digits, ``,`` and ``:``, which no drawing
    escapes, so they are found as the core wrote them."""
    for moment in dict.fromkeys(times):
        text = text.replace(in_words(moment), native(moment))
    return text
