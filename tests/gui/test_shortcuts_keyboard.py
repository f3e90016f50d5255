"""Keyboard-first use: the window's shortcuts do what they say (run, cancel, search the log, filter, panels, tabs,
disconnect), no two bindings that can be active together share a key (every panel of a connected tab shown in
turn, actions other parts add included), and Help → Keyboard shortcuts lists every action that has one,
generated from the actions (one added later appears), grouped and searchable."""

from __future__ import annotations

import sys

from guikit import AsyncRunner, MakeWindow, activate, connect_tab, tool_page, wire_rows
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.viewers import ResultState
from inspector.ui.window.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.MetaModifier if sys.platform == "darwin" else Qt.KeyboardModifier.AltModifier
Context = Qt.ShortcutContext


def _key(qtbot: QtBot, window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget() or window, key, modifiers)


def _live_bindings(window: MainWindow) -> list[tuple[str, set[str], Qt.ShortcutContext, QWidget]]:
    """(what, keys, context, scope widget) of every action and QShortcut that could fire now (its widget shown)."""
    found = []
    for action in window.findChildren(QAction):
        keys = {k.toString() for k in action.shortcuts() if not k.isEmpty()}
        if not keys or not action.isVisible():
            continue
        owners = [w for w in action.associatedObjects() if isinstance(w, QWidget) and w.isVisible()]
        parent = action.parent()
        if not owners and isinstance(parent, QWidget) and parent.isVisible():
            owners = [parent]
        for owner in owners:
            found.append((f"action {action.text()!r}", keys, action.shortcutContext(), owner))
    for shortcut in window.findChildren(QShortcut):
        keys = {k.toString() for k in shortcut.keys() if not k.isEmpty()}
        parent = shortcut.parent()
        if keys and shortcut.isEnabled() and isinstance(parent, QWidget) and parent.isVisible():
            found.append((f"shortcut of {type(parent).__name__}", keys, shortcut.context(), parent))
    return found


def _clashes(window: MainWindow) -> list[str]:
    window_wide = (Context.WindowShortcut, Context.ApplicationShortcut)
    bindings = _live_bindings(window)
    clashes = []
    for i, (what_a, keys_a, ctx_a, w_a) in enumerate(bindings):
        for what_b, keys_b, ctx_b, w_b in bindings[i + 1 :]:
            shared = keys_a & keys_b
            if not shared or what_a == what_b:
                continue
            together = (
                ctx_a in window_wide
                or ctx_b in window_wide
                or w_a is w_b
                or (ctx_a is Context.WidgetWithChildrenShortcut and w_a.isAncestorOf(w_b))
                or (ctx_b is Context.WidgetWithChildrenShortcut and w_b.isAncestorOf(w_a))
            )
            if together:
                clashes.append(f"{sorted(shared)}: {what_a} and {what_b}")
    return clashes


def test_no_two_live_bindings_share_a_key_on_any_panel(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    assert _clashes(window) == []  # the empty window
    tab = connect_tab(window, qasync_loop)
    tool_page(tab, "echo")
    qasync_loop.wait_until(lambda: tab.prompts.browser.model.total() > 0, timeout=20)
    tab.prompts.select_prompt("greeting")
    seen_keys: set[str] = set()
    for index in range(tab.inner_tabs.count()):
        if not tab.inner_tabs.isTabEnabled(index):
            continue
        tab.inner_tabs.setCurrentIndex(index)
        qtbot.wait(10)
        assert _clashes(window) == [], tab.inner_tabs.tabText(index)
        seen_keys |= {k for _w, keys, _c, _o in _live_bindings(window) for k in keys}
    assert {"Ctrl+K", "Ctrl+Shift+P", "F5", "Ctrl+Shift+F", "Ctrl+Tab"} <= seen_keys  # the check sees ours
    late = QAction("Late clash", window)
    late.setShortcut(QKeySequence("Ctrl+K"))
    window.addAction(late)
    assert any("Late clash" in clash for clash in _clashes(window))  # ... and would see a clash


def test_panel_filter_log_run_cancel_and_disconnect_keys(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    activate(qtbot, window)
    tab.inner_tabs.setCurrentWidget(tab.overview)
    _key(qtbot, window, Qt.Key.Key_2, ALT)  # Alt+2: Tools
    assert tab.inner_tabs.currentWidget() is tab.tools
    _key(qtbot, window, Qt.Key.Key_L, CTRL)  # Ctrl+L: the list's filter
    qtbot.waitUntil(tab.tools.browser.filter_edit.hasFocus, timeout=2000)
    _key(qtbot, window, Qt.Key.Key_PageDown, CTRL)  # next panel
    assert tab.inner_tabs.currentIndex() == tab.inner_tabs.indexOf(tab.tools) + 1
    _key(qtbot, window, Qt.Key.Key_PageUp, CTRL)
    assert tab.inner_tabs.currentWidget() is tab.tools

    page = tool_page(tab, "echo")
    qasync_loop.wait_until(lambda: page.form.field("message") is not None, timeout=5)
    field = page.form.field("message")
    assert isinstance(field, QLineEdit)
    field.setText("sent with F5")
    tab.tools.browser.view.setFocus()  # F5 works from the list, not only on the page
    _key(qtbot, window, Qt.Key.Key_F5, Qt.KeyboardModifier.NoModifier)
    assert page.running
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    assert "sent with F5" in str(page.result_view.result)

    slow = tool_page(tab, "slow")
    qasync_loop.wait_until(lambda: slow.form.field("seconds") is not None, timeout=5)
    slow.form.set_value({"seconds": 60, "steps": 60})
    assert slow.run()

    def calling() -> bool:  # the tool's call is sent and alone in flight (a listing may still be answering)
        conn = tab.controller.connection
        ids = tab.controller.requests_in_flight()
        if conn is None or len(ids) != 1:
            return False
        entry = conn.session.pending.get(ids[0])
        return entry is not None and entry.method == "tools/call" and tab.cancel_button.isEnabled()

    qasync_loop.wait_until(calling, timeout=30)
    _key(qtbot, window, Qt.Key.Key_Period, CTRL)  # Ctrl+.: cancel what is in flight
    qasync_loop.wait_until(lambda: slow.result_view.state() is ResultState.CANCELLED, timeout=30)

    _key(qtbot, window, Qt.Key.Key_3, ALT)  # Alt+3: Resources; Ctrl+L its filter; F5 reads the selection
    resources = tab.resources
    assert tab.inner_tabs.currentWidget() is resources
    qasync_loop.wait_until(lambda: resources.resources_model.rowCount() > 0, timeout=20)
    _key(qtbot, window, Qt.Key.Key_L, CTRL)
    qtbot.waitUntil(resources.resources_page.search.hasFocus, timeout=2000)
    assert resources.resources_page.select_uri("demo://text/hello")  # selecting reads it once

    def reads() -> int:
        return len(wire_rows(tab.controller, "request", "out", "resources/read"))

    qasync_loop.wait_until(lambda: reads() == 1 and resources.read_button.isEnabled(), timeout=30)
    _key(qtbot, window, Qt.Key.Key_F5, Qt.KeyboardModifier.NoModifier)  # ... and F5 again
    qasync_loop.wait_until(lambda: reads() == 2, timeout=30)

    _key(qtbot, window, Qt.Key.Key_F, CTRL | SHIFT)  # search the log
    assert tab.inner_tabs.currentWidget() is tab.log
    qtbot.waitUntil(tab.log.filter_bar.search_edit.hasFocus, timeout=2000)

    _key(qtbot, window, Qt.Key.Key_D, CTRL | SHIFT)  # disconnect
    qasync_loop.wait_state(tab.controller, ConnectionState.CLOSED, timeout=20)


def test_tab_keys_switch_connection_tabs(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    other = Profile(name="Second", stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]))
    other = store.create(other)
    window = make_window()
    first = window.connect_demo()
    second = window.open_tab(other.id)
    assert first is not None and second is not None and window.tabs.count() == 2
    activate(qtbot, window)
    assert window.tabs.currentWidget() is second
    _key(qtbot, window, Qt.Key.Key_1, CTRL)
    assert window.tabs.currentWidget() is first
    _key(qtbot, window, Qt.Key.Key_2, CTRL)
    assert window.tabs.currentWidget() is second
    _key(qtbot, window, Qt.Key.Key_Tab, CTRL)  # next tab, wrapping around
    assert window.tabs.currentWidget() is first
    _key(qtbot, window, Qt.Key.Key_Backtab, CTRL | SHIFT)  # previous tab
    assert window.tabs.currentWidget() is second
    assert window.keyboard.tab_actions[1].text().endswith("Second")


def test_the_shortcuts_dialog_is_generated_grouped_and_searchable(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    late = QAction("Compare with the baseline…", window)
    late.setShortcut(QKeySequence("Ctrl+Alt+B"))
    window.menuBar().actions()[1].menu().addAction(late)  # type: ignore[union-attr]  # (Connection)
    activate(qtbot, window)
    _key(qtbot, window, Qt.Key.Key_Slash, CTRL)  # Help → Keyboard shortcuts
    dialog = window.keyboard.shortcuts_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=3000)
    rows = dialog.rows()
    keyed = [a for a in window.findChildren(QAction) if a in {f.action for f in dialog.found}]
    assert len(keyed) == len(dialog.found)
    assert len(rows) == len(dialog.found) + len(dialog.found_shortcuts)
    assert ("Connection", "Compare with the baseline…", QKeySequence("Ctrl+Alt+B").toString(
        QKeySequence.SequenceFormat.NativeText)) in rows  # fmt: skip
    assert ("Connection", "Reconnect", "Ctrl+R") in rows
    assert ("Go", "Command palette…", "Ctrl+K, Ctrl+Shift+P") in rows
    assert all(shortcut for _group, _text, shortcut in rows)
    groups = [group for group, _text, _shortcut in rows]
    assert groups.index("File") < groups.index("Connection") < groups.index("Help")  # menus, in their order
    for action in window.findChildren(QAction):  # every menu action with a shortcut is listed
        if action.shortcut().isEmpty() or not action.associatedObjects() or not action.isVisible():
            continue
        assert any(text == action.text().replace("&", "") for _g, text, _s in rows), action.text()
    qtbot.keyClicks(dialog.search, "baseline")
    assert dialog.rows() == [("Connection", "Compare with the baseline…", rows[[r[1] for r in rows].index(
        "Compare with the baseline…")][2])]  # fmt: skip
    assert dialog.count_label.text() == "1 shortcut"
    dialog.search.clear()
    qtbot.keyClicks(dialog.search, "ctrl+shift+p")  # keys are searched too
    assert [r[1] for r in dialog.rows()] == ["Command palette…"]
    dialog.close()


def test_the_shortcuts_dialog_lists_the_panels_own_shortcuts(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    tool_page(tab, "echo")
    tool_page(tab, "add")  # two pages, one binding: listed once
    dialog = window.keyboard.show_shortcuts()
    rows = dialog.rows()
    ctrl_enter = QKeySequence("Ctrl+Return").toString(QKeySequence.SequenceFormat.NativeText)
    runs = [r for r in rows if r[1] == "Run the tool (on its page)"]
    assert len(runs) == 1 and runs[0][0] == "Tools" and ctrl_enter in runs[0][2]
    finds = [r for r in rows if r[1] == "Search the log (in the log)"]
    assert len(finds) == 1 and finds[0][0] == "Log"
    dialog.close()
