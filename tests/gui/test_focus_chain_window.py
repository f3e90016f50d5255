"""Every control of the connected main window is reachable with the keyboard: real Tab presses walk the focus chain
(through the Tools panel with a rich tool form shown, the Resources panel, the Log) and reach every visible, enabled,
focusable widget, each with a non-empty accessible name (what a screen reader says), without focus being trapped
(Tab always moves on and comes back round; Shift+Tab goes back). The schema form's fields are named by their
label and JSON path and described by the schema's description."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow, activate, connect_active, tool_page
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget
from pytestqt.qtbot import QtBot

from inspector.ui.window.main_window import MainWindow

MAX_STEPS = 800
INNER_STOPS = 12
"""Tab presses a widget may keep for itself (its links, its cells) before the focus must move on."""


def _name(widget: QWidget) -> str:
    face = QAccessible.queryAccessibleInterface(widget)
    return (face.text(QAccessible.Text.Name) if face is not None else widget.accessibleName()).strip()


def _focusable(window: MainWindow) -> list[QWidget]:
    """The widgets Tab should reach: shown, enabled, taking Tab focus, not forwarding it to another widget."""
    return [
        w
        for w in window.findChildren(QWidget)
        if w.isVisible()
        and w.isEnabled()
        and w.focusPolicy() & Qt.FocusPolicy.TabFocus
        and w.focusProxy() is None
        and w.window() is window
    ]


def _label(widget: QWidget) -> str:
    return f"{type(widget).__name__}({widget.objectName() or _name(widget) or widget.toolTip()[:40]!r})"


def _walk(qtbot: QtBot, start: QWidget, key: Qt.Key = Qt.Key.Key_Tab) -> list[QWidget]:
    """Press ``key`` until the focus is back on ``start``; the widgets focused on the way (failing on a trap)."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus, timeout=3000)
    seen: list[QWidget] = [start]
    current = start
    for _ in range(MAX_STEPS):
        focused: QWidget | None = current
        for _press in range(INNER_STOPS):  # a text's links, an editable table's cells: Tab moves inside first
            qtbot.keyClick(current, key)
            focused = QApplication.focusWidget()
            if focused is not current:
                break
        assert focused is not None, f"focus lost after {_label(current)}"
        assert focused is not current, f"Tab is trapped in {_label(current)}"
        if focused is start:
            return seen
        seen.append(focused)
        current = focused
    raise AssertionError(f"Tab never came back to {_label(start)}: {[_label(w) for w in seen[-12:]]}")


def _check(qtbot: QtBot, window: MainWindow, start: QWidget, where: str = "") -> list[QWidget]:
    reached = _walk(qtbot, start)
    reached_ids = {id(w) for w in reached}
    missed = [_label(w) for w in _focusable(window) if id(w) not in reached_ids]
    assert missed == [], f"{where}: not reachable with Tab: {missed}"
    unnamed = [_label(w) for w in reached if not _name(w)]
    assert unnamed == [], f"{where}: no accessible name: {unnamed}"
    iconic = [w for w in reached if isinstance(w, QAbstractButton) and not any(c.isalnum() for c in w.text())]
    untold = [_label(w) for w in iconic if not w.toolTip().strip() or not w.accessibleName().strip()]
    assert untold == [], f"{where}: icon-only buttons without an explicit name and a tooltip: {untold}"
    return reached


def test_tab_reaches_every_control_of_the_tools_panel_and_a_rich_form(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window, tab = connect_active(qtbot, qasync_loop, make_window)
    page = tool_page(tab, "create_event")
    qasync_loop.wait_until(lambda: page.form.field("title") is not None, timeout=5)
    page.form.editor("attendees").add_item()  # type: ignore[union-attr]  # (an array item's fields too)
    qtbot.wait(20)
    reached = _check(qtbot, window, tab.tools.browser.filter_edit)
    assert page.form.field("title") in reached
    title = page.form.field("title")
    assert title is not None and "title" in title.accessibleName().lower()
    assert title.accessibleDescription() == "Event title"
    email = page.form.field("organizer_email")
    assert email is not None and email.accessibleName() and "e-mail" in email.accessibleDescription()
    item = page.form.field("attendees[0].name") or next(
        (w for w in reached if "attendees[0]" in w.accessibleName()), None
    )
    assert item is not None and "attendees[0]" in item.accessibleName()
    back = _walk(qtbot, tab.tools.browser.filter_edit, Qt.Key.Key_Backtab)  # Shift+Tab: the same ring backwards
    assert {id(w) for w in back} == {id(w) for w in reached}


def test_tab_reaches_every_control_of_the_resources_and_log_panels(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window, tab = connect_active(qtbot, qasync_loop, make_window)
    tab.inner_tabs.setCurrentWidget(tab.resources)
    qasync_loop.wait_until(lambda: tab.resources.resources_model.rowCount() > 0, timeout=20)
    _check(qtbot, window, tab.resources.resources_page.search)
    tab.inner_tabs.setCurrentWidget(tab.log)
    qtbot.wait(50)
    _check(qtbot, window, tab.log.filter_bar.search_edit)


def test_tab_reaches_every_control_of_every_panel(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window, tab = connect_active(qtbot, qasync_loop, make_window)
    tabs = tab.inner_tabs
    walked = []
    for index in range(tabs.count()):
        if not tabs.isTabEnabled(index):
            continue
        tabs.setCurrentIndex(index)
        qtbot.wait(30)
        walked.append(tabs.tabText(index))
        _check(qtbot, window, tabs.tabBar(), walked[-1])
    assert len(walked) >= 8, walked


def test_tab_reaches_every_control_of_the_window_before_any_connection(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    activate(qtbot, window)
    start = window.demo_button
    assert start.isVisible()
    _check(qtbot, window, start, "empty window")
