"""The window's tour (Help → Tour, and once on the first run): where things are, in six steps.

Each step rings what it explains when it is shown: the sidebar, the current connection's Explore tabs, its Log tab
and its pending-requests indicator (with no connection open, the tab area, where they will be), then the Go menu
(the command palette) and the View menu (theme and font size). The overlay is ``widgets/tour.Tour``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QMainWindow, QTabBar, QWidget

from inspector.ui.widgets.tour import Anchor, TourStep

if TYPE_CHECKING:
    from inspector.ui.window.main_window import MainWindow

__all__ = ["menu_title", "window_tour_steps"]


def menu_title(window: QMainWindow, name: str) -> Anchor:
    """The title of the menu bar's menu called ``name`` ("View" for "&View"), else the whole menu bar."""
    bar = window.menuBar()
    for action in bar.actions():
        if action.text().replace("&", "") == name:
            rect = bar.actionGeometry(action)
            if not rect.isEmpty():
                return bar, rect
    return bar


def _inner_tab(window: MainWindow, *labels: str) -> Anchor:
    """The current connection's inner tabs with these labels (the first to the last of them), else the tab area."""
    tab = window.current_tab()
    if tab is None:
        return window.stack
    bar: QTabBar = tab.inner_tabs.tabBar()
    rects = [bar.tabRect(i) for i in range(bar.count()) if tab.inner_tabs.tabText(i).replace("&", "") in labels]
    if not rects:
        return tab.inner_tabs
    united = QRect(rects[0])
    for rect in rects[1:]:
        united = united.united(rect)
    return bar, united


def _requests(window: MainWindow) -> QWidget:
    tab = window.current_tab()
    if tab is None:
        return window.stack
    return tab.requests_indicator if tab.requests_indicator.isVisible() else tab.header


def window_tour_steps(window: MainWindow) -> list[TourStep]:
    return [
        TourStep(
            "Connections and profiles",
            "Saved servers are listed here. <b>Connect</b> (or a double-click) opens one in a tab of its own; "
            "<b>New</b> and <b>Import…</b> add more. A profile keeps the command or URL, headers, roots and "
            "timeouts; its secrets go to the keyring.",
            lambda: window.profiles,
        ),
        TourStep(
            "Explore",
            "Each connection's tab has <b>Tools</b>, <b>Resources</b>, <b>Prompts</b> and <b>Utilities</b>: "
            "forms made from the server's schemas, results shown as what they are (text, JSON, images, audio).",
            lambda: _inner_tab(window, "Tools", "Resources", "Prompts", "Utilities", "Tasks"),
        ),
        TourStep(
            "The message log",
            "<b>Log</b> records every message both ways, with timings and the protocol problems found "
            "(diagnostics). Search it, filter it, export it; recordings can be opened again later.",
            lambda: _inner_tab(window, "Log"),
        ),
        TourStep(
            "Server requests",
            "When the server asks for something (sampling, elicitation, a URL to open), the tab's header says "
            "so here: answer it, or let the auto-reply do.",
            lambda: _requests(window),
        ),
        TourStep(
            "Command palette",
            "Press <b>Ctrl+K</b> (or Ctrl+Shift+P) to reach every action, and every tool, resource and prompt of "
            "the current connection, by name. <b>Help → Keyboard shortcuts</b> lists the rest.",
            lambda: menu_title(window, "Go"),
        ),
        TourStep(
            "Settings and theme",
            "<b>View</b> picks the light or dark theme (following the system by default) and the font size. "
            "Take this tour again from <b>Help → Tour</b>.",
            lambda: menu_title(window, "View"),
        ),
    ]
