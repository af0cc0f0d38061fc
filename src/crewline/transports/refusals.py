"""How often a transport records a request it refused (a forged signature, a wrong secret).

Each refusal is worth a SEL record, but a flood of forgeries must not flood the log: one
record per kind of refusal per ``AUDIT_EVERY`` seconds, counting the others in the next.
The window is read on crewline's clock (the Hub's), so it follows the time crewline keeps,
and a test that moves its clock moves the window too.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

__all__ = ["AUDIT_EVERY", "RefusalThrottle"]

AUDIT_EVERY = 1.0  # seconds between two SEL records of one kind of refusal


class RefusalThrottle:
    """Which refusals are recorded: the first of a kind, then the first once ``AUDIT_EVERY``
    seconds of ``now`` have passed since that kind's last record."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self._now = now
        self._recorded_at: dict[str, datetime] = {}
        self._unrecorded: dict[str, int] = {}

    def admit(self, code: str) -> int | None:
        """None: this refusal is only counted. Else record it, with the number of refusals
        of its kind left unrecorded since the last record.

        A clock set back (the wall clock is crewline's) ends the window rather than
        stretching it: a record too many, never a silence until the clock catches up.
        """
        now = self._now()
        last = self._recorded_at.get(code)
        if last is not None and 0.0 <= (now - last).total_seconds() < AUDIT_EVERY:
            self._unrecorded[code] = self._unrecorded.get(code, 0) + 1
            return None
        self._recorded_at[code] = now
        return self._unrecorded.pop(code, 0)
