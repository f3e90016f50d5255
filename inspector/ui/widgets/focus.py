"""Keyboard focus helpers: ``tab_focus_while_shown(tabs)`` for a ``QTabWidget`` whose tab bar hides itself.

A tab widget forwards its focus to its tab bar. With ``setTabBarAutoHide(True)`` and a single tab the bar is hidden,
yet Qt still picks the tab widget as the next stop for Tab and then cannot focus the hidden bar: the focus stays where
it was, a keyboard trap. The helper takes the bar out of the Tab chain while it is hidden and puts it back when shown.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QTabBar, QTabWidget

__all__ = ["tab_focus_while_shown"]


class _FollowShown(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QTabBar) and event.type() in (QEvent.Type.Show, QEvent.Type.Hide):
            shown = event.type() == QEvent.Type.Show
            watched.setFocusPolicy(Qt.FocusPolicy.TabFocus if shown else Qt.FocusPolicy.NoFocus)
        return False


def tab_focus_while_shown(tabs: QTabWidget) -> None:
    """Tab reaches ``tabs``' bar only while it is shown (see the module docstring)."""
    bar = tabs.tabBar()
    bar.setFocusPolicy(Qt.FocusPolicy.TabFocus if bar.isVisibleTo(tabs) else Qt.FocusPolicy.NoFocus)
    bar.installEventFilter(_FollowShown(bar))
