"""StderrConsole: batched appends, follow-tail, counter, copy and clear."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication, QTextCursor
from pytestqt.qtbot import QtBot

from inspector.ui.connection.stderr_console import StderrConsole

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def console(qtbot: QtBot) -> StderrConsole:
    widget = StderrConsole()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.show()
    return widget


def test_lines_are_batched(qtbot: QtBot, console: StderrConsole) -> None:
    appended: list[int] = []
    console.text.document().blockCountChanged.connect(appended.append)
    for i in range(1000):
        console.append_line(f"line {i}\n")
    assert console.line_count == 1000 and console.text.toPlainText() == ""  # not yet: one batch per tick
    qtbot.waitUntil(lambda: console.text.blockCount() == 1000)
    assert len(appended) == 1  # one appendPlainText for the whole batch
    assert console.text.toPlainText().splitlines()[-1] == "line 999"
    assert console.count_label.text() == "1,000 lines"


def test_follows_the_end_only_when_there(qtbot: QtBot, console: StderrConsole) -> None:
    bar = console.text.verticalScrollBar()
    for i in range(300):
        console.append_line(f"line {i}")
    console.flush()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    bar.setValue(0)
    for i in range(100):
        console.append_line(f"more {i}")
    console.flush()
    assert bar.value() == 0


def test_copy_and_clear(qtbot: QtBot, console: StderrConsole) -> None:
    for line in ("alpha", "beta", "gamma"):
        console.append_line(line)
    assert console.copy() == "alpha\nbeta\ngamma" == QGuiApplication.clipboard().text()
    cursor = console.text.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.movePosition(QTextCursor.MoveOperation.Down, QTextCursor.MoveMode.KeepAnchor)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfLine, QTextCursor.MoveMode.KeepAnchor)
    console.text.setTextCursor(cursor)
    console.copy_button.click()
    assert QGuiApplication.clipboard().text() == "alpha\nbeta"
    with qtbot.waitSignal(console.lineCountChanged) as blocker:
        console.clear_button.click()
    assert blocker.args == [0] and console.text.toPlainText() == "" and console.count_label.text() == "0 lines"


def test_keeps_the_last_lines_and_wraps_on_demand(qtbot: QtBot) -> None:
    console = StderrConsole(max_lines=50)
    qtbot.addWidget(console)
    for i in range(120):
        console.append_line(f"line {i}")
    console.flush()
    assert console.text.blockCount() == 50 and console.line_count == 120
    assert console.text.toPlainText().splitlines()[0] == "line 70"
    console.wrap_button.setChecked(True)
    assert console.text.lineWrapMode() == console.text.LineWrapMode.WidgetWidth
