"""The tool page after Run: the result is readable without dragging (the form takes what its few fields need, the
result the rest; an isError's text is on screen, not clipped), the split the user drags is kept across tools and
sessions; validation lists every problem, each one going to its field, and "Send anyway" sends what the form
holds (server authors test their own validation)."""

from __future__ import annotations

import json
from typing import Any

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QWidget
from pytestqt.qtbot import QtBot

from inspector.store.recording import RecordFilter
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.settings import UiSettings


def run(qtbot: QtBot, runner: AsyncRunner, page: ToolPage) -> ResultState:
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.running, page.validation_label.text()
    runner.wait_until(lambda: not page.running, timeout=30)
    return page.result_view.state()


def sent(tab: ConnectionTab, method: str) -> list[dict[str, Any]]:
    """Outgoing messages of ``method`` in the session's recording."""
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    rows = recording.rows(RecordFilter(directions=["out"], methods=[method]), 0, 100_000)
    return [json.loads(row.raw) for row in rows]


def _text_of(widget: QWidget) -> str:
    if isinstance(widget, QLabel):
        return widget.text()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return widget.toPlainText()
    return ""


def _showing(page: ToolPage, text: str) -> list[QWidget]:
    return [w for w in page.result_view.findChildren(QWidget) if text in _text_of(w) and w.isVisible()]


def _fully_on_screen(widget: QWidget, page: ToolPage) -> bool:
    """``widget`` lies inside the result's scrolled viewport (nothing cut off below or above)."""
    viewport = page.result_view.scroll_area.viewport()
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(QRect(top_left, widget.size()))


def _fitted_page(qtbot: QtBot, runner: AsyncRunner, tab: ConnectionTab, name: str) -> ToolPage:
    page = tool_page(tab, name)
    runner.wait_until(lambda: page._form is not None, timeout=5)
    qtbot.wait(50)  # the split is fitted once the page has its size
    return page


def test_the_error_of_a_one_field_tool_is_readable_without_dragging(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = _fitted_page(qtbot, qasync_loop, tab, "business_error")
    form_height, result_height = page.splitter.sizes()
    needed = max(page.fitting_height(), page.inputs_box.minimumSizeHint().height())
    assert form_height <= needed + 2  # no mostly empty form
    assert result_height >= 0.4 * (form_height + result_height)
    assert run(qtbot, qasync_loop, page) is ResultState.TOOL_ERROR
    qtbot.wait(50)
    form_height, result_height = page.splitter.sizes()
    assert form_height <= needed + 2 and result_height >= 0.4 * (form_height + result_height)
    texts = _showing(page, "Insufficient funds")
    assert texts, "the isError text is not shown"
    assert all(_fully_on_screen(w, page) for w in texts), page.splitter.sizes()
    assert _showing(page, "The tool reported an error")
    view = page.result_view
    assert view.scroll_area.viewport().height() >= view.body.sizeHint().height() * 0.9


def test_the_dragged_split_is_kept_across_tools_and_sessions(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, ui_settings: UiSettings
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    first = _fitted_page(qtbot, qasync_loop, tab, "business_error")
    total = sum(first.splitter.sizes())
    handle = first.splitter.handle(1)
    start = QPoint(handle.width() // 2, handle.height() // 2)
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, QPoint(start.x(), start.y() - 80))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=QPoint(start.x(), start.y() - 80))
    dragged = first.splitter.sizes()
    assert tab.tools.result_split.chosen, "dragging the handle was not remembered"
    assert abs(dragged[0] - (total - dragged[1])) <= 8

    second = _fitted_page(qtbot, qasync_loop, tab, "add")
    assert abs(second.splitter.sizes()[0] - dragged[0]) <= 2  # another tool opens with the chosen split
    assert abs(first.splitter.sizes()[0] - dragged[0]) <= 2

    tab.save_layout(ui_settings)
    assert ui_settings.splitter("tool_result") is not None
    later = make_window(settings=UiSettings(ui_settings.path))
    tab2 = connect_tab(later, qasync_loop)
    again = _fitted_page(qtbot, qasync_loop, tab2, "business_error")
    assert tab2.tools.result_split.chosen
    assert abs(again.splitter.sizes()[0] - dragged[0]) <= 2


def test_every_problem_is_listed_goes_to_its_field_and_send_anyway_sends(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = _fitted_page(qtbot, qasync_loop, tab, "create_event")
    calls_before = len(sent(tab, "tools/call"))
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert not page.running
    problems = [page.problems_list.item(i).text() for i in range(page.problems_list.count())]
    expected = page.form.errors()
    assert len(expected) >= 3 and len(problems) == len(expected)  # all of them, not just the first
    assert page.validation_label.text().startswith(f"Fix {len(expected)} problems before running")
    assert "(s)" not in page.validation_label.text()
    assert page.problems_list.isVisible() and page.send_anyway_button.isVisible()
    assert len(sent(tab, "tools/call")) == calls_before

    # clicking a problem of a field further down scrolls to it and focuses it
    row = max(range(len(problems)), key=lambda i: page.form.slot(_path(page, i)).y())  # type: ignore[union-attr]
    path = _path(page, row)
    page.form.scroll_area.verticalScrollBar().setValue(0)
    item = page.problems_list.item(row)
    qtbot.mouseClick(
        page.problems_list.viewport(), Qt.MouseButton.LeftButton, pos=page.problems_list.visualItemRect(item).center()
    )
    field = page.form.field(path)
    assert field is not None
    qtbot.waitUntil(lambda: field.hasFocus() or field.isAncestorOf(page.focusWidget() or page), timeout=2000)
    viewport = page.form.scroll_area.viewport()
    assert viewport.rect().intersects(QRect(field.mapTo(viewport, QPoint(0, 0)), field.size()))

    # Send anyway: the invalid arguments reach the server as they are
    arguments = page.form.value()
    qtbot.mouseClick(page.send_anyway_button, Qt.MouseButton.LeftButton)
    assert page.running
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    calls = sent(tab, "tools/call")
    assert len(calls) == calls_before + 1
    assert calls[-1]["params"]["arguments"] == json.loads(json.dumps(arguments))
    assert not page.problems_list.isVisible() and not page.send_anyway_button.isVisible()
    assert page.result_view.state() in (ResultState.TOOL_ERROR, ResultState.PROTOCOL_ERROR)


def test_one_problem_is_one_problem(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = _fitted_page(qtbot, qasync_loop, tab, "echo")
    page.form.set_value({})
    assert not page.run()
    assert page.validation_label.text().startswith("Fix 1 problem before running")
    assert page.problems_list.count() == 1


def _path(page: ToolPage, row: int) -> str:
    return str(page.problems_list.item(row).data(Qt.ItemDataRole.UserRole))
