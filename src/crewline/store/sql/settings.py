"""Settings in SQL: small named values."""

from __future__ import annotations

from crewline.store.ports.settings import SettingsReads, SettingsTx
from crewline.store.sql.parts import ReadPart, TxPart

__all__ = ["SETTING_KEY", "SqlSettingsReads", "SqlSettingsTx"]

SETTING_KEY = "setting:"  # what changed, told to every replica: the setting under this key
_SETTING = "SELECT value FROM settings WHERE key = ?"


class SqlSettingsTx(TxPart, SettingsTx):
    def set_setting(self, key: str, value: str, *, announce: bool = False) -> None:
        self._s.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        if announce:
            self._s.notify(SETTING_KEY + key)

    def setting(self, key: str) -> str | None:
        r = self._one(_SETTING, (key,))
        return None if r is None else str(r[0])


class SqlSettingsReads(ReadPart, SettingsReads):
    async def setting(self, key: str) -> str | None:
        rows = await self._fetch(_SETTING, (key,), lookup=True)
        return str(rows[0][0]) if rows else None
