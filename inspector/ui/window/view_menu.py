"""View → Theme (System / Light / Dark) and View → Font size (larger / smaller / reset), saved with the window.

``ViewMenu(window, settings)`` applies the saved choices to the application's ``ThemeManager`` when it is made,
and saves each change in the window's ``UiSettings`` (written at once: a theme is chosen rarely, and a crash
should not lose it).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from inspector.ui.widgets.theme import ThemeManager, ThemeMode, theme_manager
from inspector.ui.window.settings import UiSettings

__all__ = ["THEME_TITLES", "ViewMenu"]

THEME_TITLES: Final = {ThemeMode.SYSTEM: "&System", ThemeMode.LIGHT: "&Light", ThemeMode.DARK: "&Dark"}


class ViewMenu(QObject):
    """The View menu's theme and font-size actions (see the module docstring)."""

    def __init__(self, window: QMainWindow, settings: UiSettings) -> None:
        super().__init__(window)
        self.settings = settings
        self.theme: ThemeManager = theme_manager()
        self.menu = QMenu("&View", window)
        self.theme_menu = self.menu.addMenu("&Theme")
        self.theme_group = QActionGroup(self)
        self.theme_group.setExclusive(True)
        self.theme_actions: dict[ThemeMode, QAction] = {}
        for mode, title in THEME_TITLES.items():
            action = QAction(title, window)
            action.setCheckable(True)
            action.setData(mode.value)
            action.setToolTip(
                "Follow the system's light or dark setting" if mode is ThemeMode.SYSTEM else f"Always {mode.value}"
            )
            action.triggered.connect(lambda _checked=False, m=mode: self.set_mode(m))
            self.theme_group.addAction(action)
            self.theme_menu.addAction(action)
            self.theme_actions[mode] = action
        self.font_menu = self.menu.addMenu("&Font size")
        self.bigger_action = self._font_action(window, "&Larger", ("Ctrl+=", "Ctrl++"), +1)
        self.smaller_action = self._font_action(window, "&Smaller", ("Ctrl+-",), -1)
        self.reset_font_action = self._font_action(window, "&Reset", ("Ctrl+0",), None)
        self.theme.configure(settings.theme_mode, settings.font_delta)
        self._show_choice()

    def _font_action(self, window: QMainWindow, title: str, keys: tuple[str, ...], step: int | None) -> QAction:
        action = QAction(title, window)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.triggered.connect(lambda _checked=False: self.change_font(step))
        window.addAction(action)  # the shortcut works with the menu closed, wherever the focus is in the window
        self.font_menu.addAction(action)
        return action

    # -- the choices ---------------------------------------------------------------------------------------------

    def set_mode(self, mode: ThemeMode | str) -> None:
        self.theme.set_mode(mode)
        self.settings.theme_mode = self.theme.mode.value
        self.settings.sync()
        self._show_choice()

    def change_font(self, step: int | None) -> None:
        """One point larger (+1) or smaller (-1), or back to the platform's size (None)."""
        self.theme.set_font_delta(0 if step is None else self.theme.font_delta + step)
        self.settings.font_delta = self.theme.font_delta
        self.settings.sync()
        self._show_choice()

    def _show_choice(self) -> None:
        self.theme_actions[self.theme.mode].setChecked(True)
        self.reset_font_action.setEnabled(self.theme.font_delta != 0)
