"""The window's own state between runs (QSettings in an INI file next to the profiles).

What is kept: the main window's geometry and dock/toolbar state, the splitter positions (sidebar,
overview, log), the open tabs (profile ids, in order, and the current one), the last selected
profile and whether the first-run tour was shown. Nothing here is ever a secret. The file lives in the config dir, so
``MCP_INSPECTOR_CONFIG_DIR`` (set by the tests) moves it too; ``path`` overrides it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from PySide6.QtCore import QByteArray, QSettings

from inspector.store.paths import config_dir

__all__ = ["SETTINGS_FILENAME", "UiSettings"]

SETTINGS_FILENAME: Final = "window.ini"


class UiSettings:
    """Typed access to the persisted window state."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / SETTINGS_FILENAME
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)

    # -- raw helpers -----------------------------------------------------------------------------

    def _bytes(self, key: str) -> QByteArray | None:
        value = self._qs.value(key)
        if isinstance(value, QByteArray) and not value.isEmpty():
            return value
        return None

    def _set_bytes(self, key: str, value: QByteArray) -> None:
        self._qs.setValue(key, value)

    def _str(self, key: str) -> str | None:
        value = self._qs.value(key)
        return value if isinstance(value, str) and value else None

    # -- window ------------------------------------------------------------------------------------

    @property
    def geometry(self) -> QByteArray | None:
        return self._bytes("window/geometry")

    @geometry.setter
    def geometry(self, value: QByteArray) -> None:
        self._set_bytes("window/geometry", value)

    @property
    def window_state(self) -> QByteArray | None:
        return self._bytes("window/state")

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._set_bytes("window/state", value)

    def splitter(self, name: str) -> QByteArray | None:
        """A saved ``QSplitter.saveState()`` (``name``: sidebar, overview, log)."""
        return self._bytes(f"splitters/{name}")

    def set_splitter(self, name: str, state: QByteArray) -> None:
        self._set_bytes(f"splitters/{name}", state)

    # -- tabs and profiles -----------------------------------------------------------------------

    @property
    def open_tabs(self) -> list[str]:
        """Profile ids of the open connection tabs, in tab order."""
        text = self._str("tabs/open")
        if text is None:
            return []
        try:
            data = json.loads(text)
        except ValueError:
            return []
        return [item for item in data if isinstance(item, str)] if isinstance(data, list) else []

    @open_tabs.setter
    def open_tabs(self, ids: list[str]) -> None:
        # JSON text: an INI list with one element would read back as a plain string
        self._qs.setValue("tabs/open", json.dumps(list(ids)))

    @property
    def current_tab(self) -> int:
        value = self._qs.value("tabs/current", -1)
        try:
            return int(str(value))
        except ValueError:
            return -1

    @current_tab.setter
    def current_tab(self, index: int) -> None:
        self._qs.setValue("tabs/current", index)

    @property
    def last_profile(self) -> str | None:
        return self._str("profiles/last")

    @last_profile.setter
    def last_profile(self, profile_id: str | None) -> None:
        if profile_id:
            self._qs.setValue("profiles/last", profile_id)
        else:
            self._qs.remove("profiles/last")

    # -- look ------------------------------------------------------------------------------------------------

    @property
    def theme_mode(self) -> str:
        """View → Theme: "system" (follow the system's light/dark), "light" or "dark"."""
        value = self._str("look/theme")
        return value if value in ("system", "light", "dark") else "system"

    @theme_mode.setter
    def theme_mode(self, mode: str) -> None:
        self._qs.setValue("look/theme", mode)

    @property
    def font_delta(self) -> int:
        """View → Font size: points above (or below) the platform's font size."""
        try:
            return int(str(self._qs.value("look/font_delta", 0)))
        except ValueError:
            return 0

    @font_delta.setter
    def font_delta(self, delta: int) -> None:
        self._qs.setValue("look/font_delta", int(delta))

    # -- first run ---------------------------------------------------------------------------------

    @property
    def tour_seen(self) -> bool:
        """The first-run tour was shown (walked or dismissed): it is not offered at start-up again (Help → Tour)."""
        return str(self._qs.value("first_run/tour_seen", "false")).lower() == "true"

    @tour_seen.setter
    def tour_seen(self, seen: bool) -> None:
        self._qs.setValue("first_run/tour_seen", "true" if seen else "false")

    def sync(self) -> str | None:
        """Write to disk now; why that failed (the config dir cannot be written...), or None."""
        self._qs.sync()
        if self._qs.status() is QSettings.Status.AccessError:
            return f"the window state could not be saved to {self.path}"
        return None
