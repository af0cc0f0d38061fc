"""Settings: small named values crewline keeps (the concierge's policy, among others)."""

from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["SettingsReads", "SettingsTx"]


class SettingsTx(ABC):
    """Settings written and read in a transaction."""

    @abstractmethod
    def set_setting(self, key: str, value: str, *, announce: bool = False) -> None:
        """Insert or replace a setting. ``announce``: once this commits, tell every process
        that watches the setting (``Coordination.on_setting_changed``: replicas on
        PostgreSQL, this one included), so that none has to read it to notice."""

    @abstractmethod
    def setting(self, key: str) -> str | None:
        """The value kept under ``key``, as this transaction sees it; None if none is kept."""


class SettingsReads(ABC):
    """Settings as committed."""

    @abstractmethod
    async def setting(self, key: str) -> str | None:
        """The setting's value, or None."""
