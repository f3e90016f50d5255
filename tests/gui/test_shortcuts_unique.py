"""No two of the main window's actions or shortcuts share a key sequence where both could fire (Qt calls that an
"Ambiguous shortcut overload" and runs neither), with a connection tab open and the Tools / Prompts pages shown;
Ctrl+Enter (Return or the keypad's Enter) on a tool page runs the tool, on a prompt page gets the prompt."""

from __future__ import annotations

from dataclasses import dataclass

from guikit import AsyncRunner, MakeWindow, connect_active, prompt_page, tool_page
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from inspector.ui.viewers import ResultState
from inspector.ui.window.main_window import MainWindow

Context = Qt.ShortcutContext


@dataclass(frozen=True)
class Binding:
    what: str
    keys: tuple[str, ...]
    context: Qt.ShortcutContext
    scopes: tuple[QWidget, ...]
    """The widgets the binding's context is relative to (its window for window/application shortcuts)."""


def _bindings(window: MainWindow) -> list[Binding]:
    found: list[Binding] = []
    for action in window.findChildren(QAction):
        keys = tuple(k.toString() for k in action.shortcuts() if not k.isEmpty())
        if not keys:
            continue
        widgets = tuple(w for w in action.associatedObjects() if isinstance(w, QWidget))
        found.append(Binding(f"action {action.text()!r}", keys, action.shortcutContext(), widgets or (window,)))
    for shortcut in window.findChildren(QShortcut):
        keys = tuple(k.toString() for k in shortcut.keys() if not k.isEmpty())
        parent = shortcut.parent()
        if keys and isinstance(parent, QWidget):
            found.append(Binding(f"shortcut of {type(parent).__name__}", keys, shortcut.context(), (parent,)))
    return found


def _within(widget: QWidget, ancestor: QWidget) -> bool:
    node: QWidget | None = widget
    while node is not None:
        if node is ancestor:
            return True
        node = node.parentWidget()
    return False


def _overlap(a: Binding, b: Binding) -> bool:
    """Some focus widget puts both bindings in context."""
    window_wide = (Context.WindowShortcut, Context.ApplicationShortcut)
    if a.context in window_wide or b.context in window_wide:
        return True
    for wa in a.scopes:
        for wb in b.scopes:
            if wa is wb:
                return True
            if a.context is Context.WidgetWithChildrenShortcut and _within(wb, wa):
                return True
            if b.context is Context.WidgetWithChildrenShortcut and _within(wa, wb):
                return True
    return False


def _clashes(window: MainWindow) -> list[str]:
    bindings = _bindings(window)
    clashes = []
    for i, a in enumerate(bindings):
        for b in bindings[i + 1 :]:
            shared = set(a.keys) & set(b.keys)
            if shared and _overlap(a, b):
                clashes.append(f"{sorted(shared)}: {a.what} and {b.what}")
    return clashes


def test_the_window_binds_ctrl_return_once_per_context(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window, tab = connect_active(qtbot, qasync_loop, make_window)
    tool_page(tab, "echo")
    bindings = _bindings(window)
    assert any("Connect selected profile" in b.what for b in bindings)  # the enumeration sees the menu actions
    assert any(b.what.startswith("shortcut of ToolPage") for b in bindings)  # ... and the pages' shortcuts
    assert _clashes(window) == []
    tab.inner_tabs.setCurrentWidget(tab.prompts)
    qasync_loop.wait_until(lambda: tab.prompts.browser.model.total() > 0, timeout=20)
    assert prompt_page(tab, "greeting").isVisible()
    assert _clashes(window) == []
    connect_keys = window.connect_action.shortcut().toString()
    assert connect_keys and QKeySequence("Ctrl+Return").toString() != connect_keys


def test_ctrl_return_and_ctrl_enter_run_the_tool(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    _window, tab = connect_active(qtbot, qasync_loop, make_window)
    page = tool_page(tab, "echo")
    qasync_loop.wait_until(lambda: page.form.field("message") is not None, timeout=5)
    field = page.form.field("message")
    assert isinstance(field, QLineEdit)
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        field.setFocus()
        qtbot.waitUntil(field.hasFocus, timeout=2000)
        field.setText(f"sent with {key.name}")
        qtbot.keyClick(field, key, Qt.KeyboardModifier.ControlModifier)
        assert page.running, page.validation_label.text()
        qasync_loop.wait_until(lambda: not page.running, timeout=20)
        assert page.result_view.state() is ResultState.SUCCESS
        assert page.result_view.result is not None
        assert f"sent with {key.name}" in str(page.result_view.result.get("content"))
    assert tab.controller.state.value == "connected"  # the connect action did not fire instead
