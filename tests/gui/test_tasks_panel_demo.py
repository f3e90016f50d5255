"""Issue 15 item 5 against the bundled demo (in memory): "Run as task" on the Tools page and the Tasks panel, in
both task flavours (2025-11-25 ``params.task`` + ``tasks/result``; the 2026-07-28 extension, declared for that
call only), the task's input request answered in the usual dialog, cancel, ``tasks/list``, required task support,
and tasks surviving panel switches and staying listed once finished.

The demo's task tools: ``task_slow`` (optional), ``task_needs_input`` (required; asks for an approval),
``task_cancellable`` (required; counts until cancelled)."""

from __future__ import annotations

import json
import sys
from functools import partial
from typing import Any

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wait_dialog, wire_rows
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.envelope import CLIENT_CAPABILITIES_KEY
from inspector.protocol.tasks import TASKS_EXTENSION
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.explore.common.task_book import TaskOutcome, TaskRecord
from inspector.ui.explore.tasks.model import COLUMNS, TaskTableModel
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.server_requests import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab


def _demo_tab(
    make_window: MakeWindow, store: ProfileStore, runner: AsyncRunner, *, server_era: str, client_era: str
) -> ConnectionTab:
    profile = store.create(
        Profile(
            name=f"demo {server_era} / {client_era}",
            stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo", "--era", server_era]),
            protocol_era=client_era,  # type: ignore[arg-type]
        )
    )
    window = make_window()
    return connect_tab(window, runner, profile.id)


def _cell(tab: ConnectionTab, record: TaskRecord, column: str) -> Any:
    model = tab.explore.tasks.model
    return model.index(model.row_of(record), COLUMNS.index(column)).data()


def _run_as_task(qtbot: QtBot, page: ToolPage, arguments: dict[str, Any]) -> None:
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    page.form.set_value(arguments)
    if page.task_toggle.isEnabled() and not page.task_toggle.isChecked():
        page.task_toggle.click()
    assert page.task_toggle.wanted
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)


def _sent_params(tab: ConnectionTab, method: str) -> list[dict[str, Any]]:
    return [json.loads(row.raw).get("params") or {} for row in wire_rows(tab.controller, "request", "out", method)]


def test_legacy_run_as_task_lists_the_task_with_its_result_and_stays_after_switching(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _demo_tab(make_window, store, qasync_loop, server_era="both", client_era="legacy")
    assert tab.controller.server is not None and tab.controller.server.protocol_version == "2025-11-25"
    panel = tab.explore.tasks
    assert tab.inner_tabs.tabText(tab.inner_tabs.indexOf(panel)) == "Tasks"
    assert panel.empty_label.isVisibleTo(panel)

    # the toggle as the tool's execution.taskSupport says: optional -> free, required -> on and fixed, none -> hidden
    slow = tool_page(tab, "task_slow")
    assert slow.task_toggle.isVisibleTo(slow) and slow.task_toggle.isEnabled() and not slow.task_toggle.isChecked()
    required = tool_page(tab, "task_cancellable")
    toggle = required.task_toggle
    assert toggle.isVisibleTo(required) and toggle.isChecked() and not toggle.isEnabled()
    assert "requires a task" in toggle.toolTip()
    plain = tool_page(tab, "echo")
    assert not plain.task_toggle.isVisibleTo(plain)

    slow = tool_page(tab, "task_slow")
    _run_as_task(qtbot, slow, {"seconds": 0.8, "steps": 4})
    qasync_loop.wait_until(lambda: len(panel.book.records) == 1, timeout=10)
    record = panel.book.records[0]
    # switch panels while it runs: the task goes on and ends listed
    tab.inner_tabs.setCurrentWidget(tab.explore.prompts)
    qasync_loop.wait_until(lambda: not slow.running, timeout=20)
    assert slow.result_view.state() is ResultState.SUCCESS
    assert slow.result_view.result is not None
    assert slow.result_view.result["content"][0]["text"] == "Finished 4 steps in about 0.8s"
    assert record.outcome is TaskOutcome.COMPLETED and record.tool == "task_slow"
    assert record.task_id is not None and record.state is not None and record.state.status == "completed"
    # what went over the wire: the call asked for a task, then polled / fetched it
    calls = [p for p in _sent_params(tab, "tools/call") if p.get("name") == "task_slow"]
    assert calls and "task" in calls[-1]
    assert _sent_params(tab, "tasks/result") == [{"taskId": record.task_id}]

    tab.inner_tabs.setCurrentWidget(panel)
    assert panel.model.rowCount() == 1 and not panel.empty_label.isVisibleTo(panel)
    assert _cell(tab, record, "Tool") == "task_slow"
    assert _cell(tab, record, "Status") == "completed"
    assert _cell(tab, record, "Progress") == "100%"
    assert _cell(tab, record, "Poll").endswith("ms") or _cell(tab, record, "Poll").endswith(" s")
    assert _cell(tab, record, "Created") != "—" and _cell(tab, record, "Updated") != "—"
    assert _cell(tab, record, "Task") == record.task_id
    panel.select(record)
    assert panel.result_view.state() is ResultState.SUCCESS
    assert panel.result_view.result == slow.result_view.result  # the same result view as the direct call's
    assert any("working: step" in panel.updates_list.item(i).text() for i in range(panel.updates_list.count()))

    # tasks/list (declared by the demo in 2025-11-25): the task is there once, not twice
    assert panel.refresh_button.isEnabled()
    assert panel.refresh()
    qasync_loop.wait_until(lambda: "tasks/list: the server lists" in panel.status_label.text(), timeout=10)
    assert [r for r in panel.book.records if r.task_id == record.task_id] == [record]
    assert record.outcome is TaskOutcome.COMPLETED  # a finished task stays listed as it ended

    # ... for the session: a reconnect keeps it (and the new connection's tasks/list finds it again)
    states: list[ConnectionState] = []
    tab.controller.stateChanged.connect(states.append)
    qtbot.mouseClick(tab.reconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: states[-1:] == [ConnectionState.CONNECTED], timeout=30)
    assert ConnectionState.CONNECTING in states
    assert panel.book.records[0] is record and panel.model.rowCount() >= 1
    assert _cell(tab, record, "Status") == "completed"


def test_the_task_model_passes_qtmodeltester(
    qtbot: QtBot, qtmodeltester: Any, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    """Checked while rows are inserted and updated (a model of its own over the tab's book: it outlives the
    window, which the fixtures delete before the tester's clean-up)."""
    tab = _demo_tab(make_window, store, qasync_loop, server_era="both", client_era="legacy")
    model = TaskTableModel(tab.explore.tasks.book)
    qtmodeltester.check(model, force_py=True)
    for seconds in (0.4, 0.6):
        page = tool_page(tab, "task_slow")
        _run_as_task(qtbot, page, {"seconds": seconds, "steps": 2})
        qasync_loop.wait_until(partial(_done, page), timeout=20)
    assert model.rowCount() == 2
    assert [model.index(row, COLUMNS.index("Status")).data() for row in range(2)] == ["completed", "completed"]
    qtmodeltester.check(model, force_py=True)


def _done(page: ToolPage) -> bool:
    return not page.running


def test_legacy_input_request_is_answered_in_the_elicitation_dialog(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _demo_tab(make_window, store, qasync_loop, server_era="both", client_era="legacy")
    page = tool_page(tab, "task_needs_input")
    assert page.task_toggle.isChecked() and not page.task_toggle.isEnabled()  # required: always a task
    _run_as_task(qtbot, page, {"message": "Ship it?"})
    handlers = tab.controller.connection.handlers  # type: ignore[union-attr]
    assert isinstance(handlers, GuiRequestHandlers)
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    record = tab.explore.tasks.book.records[0]
    qasync_loop.wait_until(lambda: record.status == "input_required", timeout=10)
    assert _cell(tab, record, "Status") == "input required · waiting for you"  # the window follows this task
    assert dialog.form is not None
    dialog.form.set_value({"approve": True, "note": "go"})
    assert dialog.accept_request()
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    assert page.result_view.result is not None
    outcome = json.loads(page.result_view.result["content"][0]["text"])
    assert outcome["approved"] is True
    assert record.outcome is TaskOutcome.COMPLETED


def test_modern_run_as_task_declares_the_extension_for_that_call_only_and_cancels(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _demo_tab(make_window, store, qasync_loop, server_era="modern", client_era="modern")
    assert tab.controller.server is not None and tab.controller.server.protocol_version == "2026-07-28"
    panel = tab.explore.tasks
    assert not panel.refresh_button.isEnabled()
    assert "tasks/list does not exist in 2026-07-28" in panel.refresh_button.toolTip()

    # without the toggle the call does not declare the extension: the demo answers task_slow inline
    slow = tool_page(tab, "task_slow")
    qtbot.waitUntil(lambda: slow.run_button.isEnabled())
    assert slow.task_toggle.isVisibleTo(slow) and slow.task_toggle.isEnabled()
    assert "2026-07-28" in slow.task_toggle.toolTip()
    slow.form.set_value({"seconds": 0.2, "steps": 1})
    qtbot.mouseClick(slow.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not slow.running, timeout=20)
    assert slow.result_view.state() is ResultState.SUCCESS and panel.book.records == []

    page = tool_page(tab, "task_cancellable")
    _run_as_task(qtbot, page, {"seconds": 60})
    qasync_loop.wait_until(lambda: panel.book.records and panel.book.records[0].task_id is not None, timeout=10)
    record = panel.book.records[0]
    calls = [p for p in _sent_params(tab, "tools/call") if p.get("name") in ("task_slow", "task_cancellable")]
    declared = [TASKS_EXTENSION in (p["_meta"][CLIENT_CAPABILITIES_KEY].get("extensions") or {}) for p in calls]
    assert declared == [False, True]
    qasync_loop.wait_until(lambda: len(_sent_params(tab, "tasks/get")) >= 1, timeout=10)
    polls = _sent_params(tab, "tasks/get")
    assert all(TASKS_EXTENSION in p["_meta"][CLIENT_CAPABILITIES_KEY]["extensions"] for p in polls)

    tab.inner_tabs.setCurrentWidget(panel)
    panel.select(record)
    assert panel.result_view.state() is ResultState.RUNNING
    assert panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: record.outcome is TaskOutcome.CANCELLED, timeout=15)
    qasync_loop.wait_until(lambda: not page.running, timeout=15)
    assert page.result_view.state() is ResultState.CANCELLED
    assert panel.result_view.state() is ResultState.CANCELLED
    assert _sent_params(tab, "tasks/cancel")[0]["taskId"] == record.task_id
    assert _cell(tab, record, "Status").startswith("cancelled")
    assert not panel.cancel_button.isEnabled()


def test_modern_task_input_goes_through_the_dialog_and_tasks_update(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _demo_tab(make_window, store, qasync_loop, server_era="both", client_era="modern")
    page = tool_page(tab, "task_needs_input")
    _run_as_task(qtbot, page, {"message": "Deploy?"})
    handlers = tab.controller.connection.handlers  # type: ignore[union-attr]
    assert isinstance(handlers, GuiRequestHandlers)
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    assert dialog.form is not None
    dialog.form.set_value({"approve": False})
    assert dialog.accept_request()
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    assert page.result_view.result is not None
    assert json.loads(page.result_view.result["content"][0]["text"])["approved"] is False
    updates = _sent_params(tab, "tasks/update")
    assert len(updates) == 1 and set(updates[0]["inputResponses"]) == {"approval"}
    record = tab.explore.tasks.book.records[0]
    assert record.outcome is TaskOutcome.COMPLETED
    assert any(u.source == "tasks/update" for u in record.updates)
