"""The command palette (Ctrl+K / Ctrl+Shift+P): opened by both keys, filtered and ranked, runs actions (also ones
added to the window later), opens the current connection's tools, prompts, resources and templates by name,
refuses disabled actions; its model passes qtmodeltester."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow, activate, connect_tab
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.keyboard import PANEL_MODIFIER
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.palette import CommandPalette

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _press_palette(qtbot: QtBot, window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> CommandPalette:
    activate(qtbot, window)
    target = QApplication.focusWidget() or window
    qtbot.keyClick(target, key, modifiers)
    palette = window.keyboard.palette
    assert palette is not None
    qtbot.waitUntil(palette.isVisible, timeout=3000)
    qtbot.waitUntil(palette.search.hasFocus, timeout=3000)
    return palette


def _type(qtbot: QtBot, palette: CommandPalette, text: str) -> None:
    palette.search.clear()
    qtbot.keyClicks(palette.search, text)


def test_both_shortcuts_open_it_and_esc_closes(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    window.profiles.setFocus()
    for key, modifiers in ((Qt.Key.Key_K, CTRL), (Qt.Key.Key_P, CTRL | SHIFT)):
        palette = _press_palette(qtbot, window, key, modifiers)
        assert palette.model.rowCount() > 10  # the window's actions
        qtbot.keyClick(palette.search, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda p=palette: not p.isVisible(), timeout=3000)


def test_filtering_ranks_and_enter_runs_the_action(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    everything = palette.model.rowCount()
    _type(qtbot, palette, "kbd shortcuts")  # letters apart still match
    assert 0 < palette.model.rowCount() < everything
    first = palette.current_entry()
    assert first is not None and first.title == "Keyboard shortcuts…", [e.title for e in palette.model.entries()]
    assert first.kind == "Action" and first.shortcut and first.group == "Help"
    _type(qtbot, palette, "reconnect")
    top = palette.model.entry(0)
    assert (
        top is not None and top.title == "Reconnect" and top.shortcut == window.reconnect_action.shortcut().toString()
    )
    qtbot.keyClick(palette.search, Qt.Key.Key_Down)  # arrows move the current row
    qtbot.keyClick(palette.search, Qt.Key.Key_Up)
    assert palette.current_row() == 0
    _type(qtbot, palette, "keyboard shortcuts")
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert not palette.isVisible()
    qtbot.waitUntil(lambda: window.keyboard.shortcuts_dialog is not None, timeout=3000)
    dialog = window.keyboard.shortcuts_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=3000)
    dialog.close()
    _type(qtbot, palette, "zzqxj nothing")
    assert palette.model.rowCount() == 0 and "Nothing matches" in palette.note.text()


def test_actions_added_later_are_found_and_the_model_is_sound(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    fired: list[bool] = []
    late = QAction("Frobnicate the widgets", window)
    late.triggered.connect(lambda: fired.append(True))
    window.menuBar().actions()[0].menu().addAction(late)  # type: ignore[union-attr]  # (File)
    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    ModelTester(None).check(palette.model)  # type: ignore[arg-type]
    _type(qtbot, palette, "frobnicate")
    entry = palette.current_entry()
    assert entry is not None and entry.title == "Frobnicate the widgets" and entry.group == "File"
    ModelTester(None).check(palette.model)  # type: ignore[arg-type]
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: fired == [True], timeout=3000)


def test_disabled_actions_are_shown_but_refused(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    fired: list[bool] = []
    run = window.keyboard.run_action
    run.triggered.connect(lambda: fired.append(True))
    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    assert not run.isEnabled()  # no connection tab
    _type(qtbot, palette, "run call the tool")
    row = next(r for r, e in enumerate(palette.model.entries()) if e.action is run)
    entry = palette.model.entry(row)
    assert entry is not None and not entry.enabled
    index = palette.model.index(row, 0)
    grey = QGuiApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert palette.model.data(index, Qt.ItemDataRole.ForegroundRole).color() == grey  # drawn greyed out
    assert "(disabled)" in palette.model.data(index, Qt.ItemDataRole.AccessibleTextRole)
    palette.view.setCurrentIndex(index)
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert palette.current_entry() is entry
    assert palette.isVisible() and "disabled" in palette.note.text()
    qtbot.wait(50)
    assert fired == []


def test_tools_prompts_resources_and_templates_by_name(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    qasync_loop.wait_until(lambda: tab.prompts.browser.model.total() > 0, timeout=20)
    qasync_loop.wait_until(lambda: tab.resources.resources_model.rowCount() > 0, timeout=20)
    tab.inner_tabs.setCurrentWidget(tab.overview)

    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    kinds = {e.kind for e in palette.model.entries()}
    assert {"Action", "Tool", "Prompt", "Resource", "Template", "Panel"} <= kinds
    _type(qtbot, palette, "echo")
    entry = palette.current_entry()
    assert entry is not None and entry.kind == "Tool" and "echo" in f"{entry.title} {entry.detail}".lower()
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.inner_tabs.currentWidget() is tab.tools, timeout=3000)
    page = tab.tools.current_page()
    assert page is not None and page.entry.name == "echo"

    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    _type(qtbot, palette, "greeting prompt")
    entry = palette.current_entry()
    assert entry is not None and entry.kind == "Prompt"
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.inner_tabs.currentWidget() is tab.prompts, timeout=3000)
    prompt = tab.prompts.current_page()
    assert prompt is not None and prompt.entry.name == "greeting"

    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    _type(qtbot, palette, "readme resource")
    entry = palette.current_entry()
    assert entry is not None and entry.kind == "Resource" and entry.detail == "demo://docs/readme"
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.resources.current_uri == "demo://docs/readme", timeout=5000)
    assert tab.inner_tabs.currentWidget() is tab.resources
    selected = tab.resources.resources_page.selected_entry()
    assert selected is not None and selected.get("uri") == "demo://docs/readme"

    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    _type(qtbot, palette, "user profile template")
    entry = palette.current_entry()
    assert entry is not None and entry.kind == "Template", [(e.title, e.kind) for e in palette.model.entries()]
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    panel = tab.resources
    qtbot.waitUntil(lambda: panel.list_tabs.currentWidget() is panel.templates_page, timeout=3000)
    template = panel.templates_page.selected_entry()
    assert template is not None and template.get("uriTemplate") == "demo://users/{user_id}/profile"

    palette = _press_palette(qtbot, window, Qt.Key.Key_K, CTRL)
    _type(qtbot, palette, "show log")
    entry = palette.current_entry()
    assert entry is not None and entry.kind == "Panel"
    alt_7 = QKeySequence(f"{PANEL_MODIFIER}+7").toString(QKeySequence.SequenceFormat.NativeText)
    assert entry.shortcut == alt_7  # Go → Panel → Log's keys; that action is not listed twice
    assert not [e for e in palette.model.entries() if e.kind == "Action" and e.title == "Log"]
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.inner_tabs.currentWidget() is tab.log, timeout=3000)
    assert tab.controller.state is ConnectionState.CONNECTED
