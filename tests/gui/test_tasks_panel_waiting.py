"""Issue 15 item 5: a task whose status is ``input_required`` (the 2026-07-28 extension, and 2025-11-25) is
answered in the usual dialog, and while the dialog asks, the Tasks panel's Status says the task is waiting
for you; once answered it goes on to completed. Against the in-memory demo (``task_needs_input``)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wait_dialog
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.explore.common.task_book import TaskOutcome, TaskRecord
from inspector.ui.explore.tasks.model import COLUMNS
from inspector.ui.server_requests import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.window.connection_tab import ConnectionTab


def _cell(tab: ConnectionTab, record: TaskRecord, column: str) -> Any:
    model = tab.explore.tasks.model
    return model.index(model.row_of(record), COLUMNS.index(column)).data()


@pytest.mark.parametrize(("server_era", "client_era"), [("both", "modern"), ("legacy", "legacy")])
def test_an_input_required_task_waits_for_you_in_the_tasks_panel(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    server_era: str,
    client_era: str,
) -> None:
    args = ["-m", "inspector.demo", "--era", server_era]
    stdio = StdioSettings(command=sys.executable, args=args)
    profile = store.create(Profile(name=f"demo {server_era}", stdio=stdio, protocol_era=client_era))  # type: ignore[arg-type]
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    page = tool_page(tab, "task_needs_input")
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    page.form.set_value({"message": "Ship it?"})
    if page.task_toggle.isEnabled() and not page.task_toggle.isChecked():
        page.task_toggle.click()
    assert page.task_toggle.wanted
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    handlers = tab.controller.connection.handlers  # type: ignore[union-attr]
    assert isinstance(handlers, GuiRequestHandlers)
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    book = tab.explore.tasks.book
    assert len(book.records) == 1
    record = book.records[0]
    qasync_loop.wait_until(lambda: record.status == "input_required", timeout=10)
    assert _cell(tab, record, "Status") == "input required · waiting for you"
    assert dialog.form is not None
    dialog.form.set_value({"approve": True})
    assert dialog.accept_request()
    qasync_loop.wait_until(lambda: record.outcome is TaskOutcome.COMPLETED, timeout=20)
    assert _cell(tab, record, "Status") == "completed"
