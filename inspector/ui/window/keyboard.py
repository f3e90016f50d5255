"""Keyboard-first use of the main window: the command palette, the Go menu (panels and tabs), Run / Cancel / search
the log / filter the list, and Help → Keyboard shortcuts.

``KeyboardActions(window)`` adds the actions to the window's menus (a "Go" menu before Help; Run and Cancel in the
Connection menu) and wires them; every command acts on the current connection tab. The shortcuts:

* Ctrl+K / Ctrl+Shift+P — the command palette (``palette.CommandPalette``), over every action of the window and the
  current connection's tools, resources, templates, prompts and panels;
* F5 — run what the current panel shows (call the tool, get the prompt, read the resource); on a tool or prompt page
  Ctrl+Enter does the same; Ctrl+. — cancel the requests in flight (the header's Cancel);
* Ctrl+Shift+F — search the log; Ctrl+L — the current panel's filter field;
* Alt+1…9 — the panels (Overview, Tools, Resources, Prompts, Utilities, Tasks, Log, Stderr, Notifications; Ctrl on
  macOS, where Option types characters); Ctrl+PgDown / Ctrl+PgUp — next / previous panel; Ctrl+Shift+A — answer the
  server request that waits;
* Ctrl+Tab / Ctrl+Shift+Tab (the platform's next / previous child) and Ctrl+1…9 — connection tabs;
* Ctrl+/ — Help → Keyboard shortcuts (``shortcuts_dialog.ShortcutsDialog``, generated from the actions).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Final

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLineEdit, QMenu, QWidget

from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.palette import CommandPalette
from inspector.ui.window.palette_entries import action_entries, clean_text, connection_entries, shortcut_text
from inspector.ui.window.palette_targets import open_panel
from inspector.ui.window.shortcuts_dialog import ShortcutsDialog

if TYPE_CHECKING:
    from inspector.ui.window.main_window import MainWindow

__all__ = ["PANEL_KEYS", "PANEL_MODIFIER", "KeyboardActions"]

PANEL_MODIFIER: Final = "Meta" if sys.platform == "darwin" else "Alt"
PANEL_KEYS: Final = (
    "Overview",
    "Tools",
    "Resources",
    "Prompts",
    "Utilities",
    "Tasks",
    "Log",
    "Stderr",
    "Notifications",
)
"""The panels Alt+1…9 show, in that order (a tab that has no such panel ignores the key)."""


def _panel_named(tab: ConnectionTab, name: str) -> QWidget | None:
    tabs = tab.inner_tabs
    for index in range(tabs.count()):
        if clean_text(tabs.tabText(index)).split(" (")[0] == name:
            return tabs.widget(index)
    return None


class KeyboardActions:
    """The window's keyboard commands (see the module docstring); ``open_palette()`` / ``show_shortcuts()``."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.palette: CommandPalette | None = None
        self.shortcuts_dialog: ShortcutsDialog | None = None
        key = QKeySequence.StandardKey

        self.palette_action = self._action("Command &palette…", ["Ctrl+K", "Ctrl+Shift+P"], self.open_palette)
        self.run_action = self._action("&Run (call the tool, get the prompt, read the resource)", ["F5"], self.run)
        self.cancel_action = self._action("Ca&ncel the requests in flight", ["Ctrl+."], self.cancel)
        self.search_log_action = self._action("&Search the log", ["Ctrl+Shift+F"], self.search_log)
        self.filter_action = self._action("&Filter the list", ["Ctrl+L"], self.focus_filter)
        self.answer_action = self._action("&Answer the waiting server request", ["Ctrl+Shift+A"], self.answer_request)
        self.next_panel_action = self._action("Ne&xt panel", ["Ctrl+PgDown"], lambda: self.step_panel(1))
        self.previous_panel_action = self._action("Pre&vious panel", ["Ctrl+PgUp"], lambda: self.step_panel(-1))
        self.panel_actions = [
            self._action(name, [f"{PANEL_MODIFIER}+{n}"], partial(self.show_panel, name))
            for n, name in enumerate(PANEL_KEYS, start=1)
        ]
        self.next_tab_action = self._action(
            "&Next tab", QKeySequence.keyBindings(key.NextChild), lambda: self.step_tab(1)
        )
        self.previous_tab_action = self._action(
            "P&revious tab", QKeySequence.keyBindings(key.PreviousChild), lambda: self.step_tab(-1)
        )
        self.tab_actions = [
            self._action(f"Tab {n}", [f"Ctrl+{n}"], partial(self.show_tab, n - 1)) for n in range(1, 10)
        ]
        self.shortcuts_action = self._action("&Keyboard shortcuts…", ["Ctrl+/"], self.show_shortcuts)
        self._tab_bound = [
            self.run_action, self.cancel_action, self.search_log_action, self.filter_action, self.answer_action,
            self.next_panel_action, self.previous_panel_action, *self.panel_actions,
        ]  # fmt: skip
        self._build_menus()
        window.tabs.currentChanged.connect(self.update_enabled)
        self.update_enabled()

    def _action(self, text: str, keys: list[str] | list[QKeySequence], slot: Callable[[], object]) -> QAction:
        action = QAction(text, self.window)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(action)  # the shortcut works while the menu bar is hidden or closed
        return action

    def _build_menus(self) -> None:
        bar = self.window.menuBar()
        menus = {clean_text(a.text()): a for a in bar.actions()}
        connection = menus.get("Connection")
        if connection is not None and isinstance(connection.menu(), QMenu):
            menu = connection.menu()
            assert isinstance(menu, QMenu)
            menu.addSeparator()
            menu.addAction(self.run_action)
            menu.addAction(self.cancel_action)
            menu.addAction(self.answer_action)
        go = QMenu("&Go", self.window)
        go.addAction(self.palette_action)
        go.addSeparator()
        go.addAction(self.search_log_action)
        go.addAction(self.filter_action)
        go.addSeparator()
        panels = go.addMenu("&Panel")
        for action in self.panel_actions:
            panels.addAction(action)
        go.addAction(self.next_panel_action)
        go.addAction(self.previous_panel_action)
        go.addSeparator()
        tabs = go.addMenu("Connection &tab")
        for action in self.tab_actions:
            tabs.addAction(action)
        go.addAction(self.next_tab_action)
        go.addAction(self.previous_tab_action)
        help_action = menus.get("Help")
        if help_action is not None:
            bar.insertMenu(help_action, go)
            help_menu = help_action.menu()
            if isinstance(help_menu, QMenu):
                first = help_menu.actions()[0] if help_menu.actions() else None
                help_menu.insertAction(first, self.shortcuts_action)  # type: ignore[arg-type]
        else:
            bar.addMenu(go)
            bar.addMenu("&Help").addAction(self.shortcuts_action)

    # -- state -------------------------------------------------------------------------------------------------

    def update_enabled(self) -> None:
        tabs = self.window.tabs
        has_tab = self.window.current_tab() is not None
        for action in self._tab_bound:
            action.setEnabled(has_tab)
        self.next_tab_action.setEnabled(tabs.count() > 1)
        self.previous_tab_action.setEnabled(tabs.count() > 1)
        for n, action in enumerate(self.tab_actions):
            action.setEnabled(n < tabs.count())
            action.setVisible(n < max(1, tabs.count()))  # Tab 1 always (its key is listed), others while they exist
            action.setText(f"Tab {n + 1}: {tabs.tabText(n)}" if n < tabs.count() else f"Tab {n + 1}")

    # -- the palette and the shortcuts dialog ------------------------------------------------------------------

    def open_palette(self) -> CommandPalette:
        self.update_enabled()
        if self.palette is None:
            self.palette = CommandPalette(self.window)
        tab = self.window.current_tab()
        own = {id(self.palette_action)}
        if tab is not None:  # the tab's "Show <panel>" entries stand for Go → Panel (with its keys)
            own |= {id(action) for action in self.panel_actions}
        entries = action_entries(self.window, skip=own)
        if tab is not None:
            keys = {f"Show {action.text()}": shortcut_text(action) for action in self.panel_actions}
            for entry in connection_entries(tab):
                if entry.kind == "Panel":
                    entry.shortcut = keys.get(entry.title, "")
                entries.append(entry)
        self.palette.open_with(entries)
        return self.palette

    def show_shortcuts(self) -> ShortcutsDialog:
        self.update_enabled()
        dialog = self.shortcuts_dialog
        if dialog is None:
            dialog = self.shortcuts_dialog = ShortcutsDialog(self.window)
        dialog.reload()
        dialog.open()
        return dialog

    # -- commands ------------------------------------------------------------------------------------------------

    def run(self) -> bool:
        """Run what the current panel shows: call the tool, get the prompt, read the resource (or template)."""
        tab = self.window.current_tab()
        if tab is None:
            return False
        shown = tab.inner_tabs.currentWidget()
        if shown is tab.tools:
            tool = tab.tools.current_page()
            return tool.run() if tool is not None else False
        if shown is tab.prompts:
            prompt = tab.prompts.current_page()
            return prompt.get() if prompt is not None else False
        if shown is tab.resources:
            panel = tab.resources
            button = (
                panel.template_form.read_button
                if panel.list_tabs.currentWidget() is panel.templates_page
                else panel.read_button
            )
            if button.isEnabled() and button.isVisible():
                button.click()
                return True
        return False

    def cancel(self) -> None:
        tab = self.window.current_tab()
        if tab is not None and tab.cancel_button.isEnabled():
            tab.cancel()

    def search_log(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            tab.inner_tabs.setCurrentWidget(tab.log)
            tab.log.filter_bar.focus_search()

    def focus_filter(self) -> QLineEdit | None:
        """The current panel's filter field, focused (Tools, Prompts, Resources, Log)."""
        tab = self.window.current_tab()
        if tab is None:
            return None
        shown = tab.inner_tabs.currentWidget()
        edit: QLineEdit | None = None
        if shown is tab.tools or shown is tab.prompts:
            edit = (tab.tools if shown is tab.tools else tab.prompts).browser.filter_edit
        elif shown is tab.resources:
            panel = tab.resources
            listed = panel.list_tabs.currentWidget() is panel.resources_page
            edit = (panel.resources_page if listed else panel.templates_page).search
        elif shown is tab.log:
            edit = tab.log.filter_bar.search_edit
        if edit is not None and edit.isVisible():
            edit.setFocus()
            edit.selectAll()
            return edit
        return None

    def answer_request(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            tab.requests_indicator.show_current()

    def show_panel(self, name: str) -> None:
        tab = self.window.current_tab()
        panel = _panel_named(tab, name) if tab is not None else None
        if tab is not None and panel is not None and tab.inner_tabs.isTabEnabled(tab.inner_tabs.indexOf(panel)):
            open_panel(tab, panel)

    def step_panel(self, step: int) -> None:
        tab = self.window.current_tab()
        if tab is None:
            return
        tabs = tab.inner_tabs
        count = tabs.count()
        index = tabs.currentIndex()
        for _ in range(count):
            index = (index + step) % count
            widget = tabs.widget(index)
            if tabs.isTabEnabled(index) and widget is not None:
                open_panel(tab, widget)
                return

    def step_tab(self, step: int) -> None:
        tabs = self.window.tabs
        if tabs.count():
            tabs.setCurrentIndex((tabs.currentIndex() + step) % tabs.count())

    def show_tab(self, index: int) -> None:
        if 0 <= index < self.window.tabs.count():
            self.window.tabs.setCurrentIndex(index)
