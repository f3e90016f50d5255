"""The Tasks panel's update lines: an update with protocol findings is marked by the warning icon of the UI's set
(resources/icons/ui), not by a glyph in its text; the other lines carry no icon."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.client.tasks import TaskUpdate
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.ui.explore.common.task_book import TaskOutcome
from inspector.ui.explore.tasks.panel import TasksPanel


def test_update_with_findings_has_the_warning_icon(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    panel: TasksPanel = tab.explore.tasks
    slow = tool_page(tab, "task_slow")
    qtbot.waitUntil(lambda: slow.run_button.isEnabled())
    slow.form.set_value({"seconds": 0.2, "steps": 1})
    if not slow.task_toggle.isChecked():
        slow.task_toggle.click()
    qtbot.mouseClick(slow.run_button, Qt.MouseButton.LeftButton)
    book = panel.book
    qasync_loop.wait_until(lambda: book.records and book.records[0].outcome is TaskOutcome.COMPLETED, timeout=20)
    (record,) = book.records
    tab.inner_tabs.setCurrentWidget(panel)
    panel.select(record)
    clean = panel.updates_list.count()
    assert clean >= 1 and all(panel.updates_list.item(i).icon().isNull() for i in range(clean))

    finding = Diagnostic(DiagnosticCode.INVALID_JSON, "statusMessage is not a string")
    record.updates.append(TaskUpdate(task=record.updates[-1].task, source="tasks/get", diagnostics=(finding,)))
    book.taskChanged.emit(record)
    assert panel.updates_list.count() == clean + 1
    last = panel.updates_list.item(clean)
    assert "1 finding: statusMessage is not a string" in last.text() and "\u26a0" not in last.text()
    assert not last.icon().isNull()
    assert all(panel.updates_list.item(i).icon().isNull() for i in range(clean))
