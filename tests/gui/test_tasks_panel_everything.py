"""Issue 15 item 5 against ``@modelcontextprotocol/server-everything`` (2025-11-25 tasks), once over stdio and once
over Streamable HTTP: its ``simulate-research-query`` declares ``execution.taskSupport: "required"`` (the toggle is
on and fixed), runs four one-second stages reported as status messages, asks for a clarification in the usual
elicitation dialog when ``ambiguous``, and declares ``tasks.list`` and ``tasks.cancel``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import nodetools
import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wait_dialog, wire_rows
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from servers.http_misbehaving import Launched, free_port

from inspector.store.profiles import HttpSettings, Profile, ProfileStore, StdioSettings
from inspector.ui.explore.common.task_book import TaskOutcome
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.server_requests import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab

pytestmark = pytest.mark.node

TOOL = "simulate-research-query"


@pytest.fixture
def everything_http() -> Iterator[str]:
    """server-everything's Streamable HTTP endpoint on a free port (stopped after the test)."""
    cmd = nodetools.require_server_everything("streamableHttp")
    port = free_port()
    # server-everything listens on all interfaces; acceptable here because the test machine has no network.
    server = Launched(cmd, env={**os.environ, "PORT": str(port)})
    try:
        server.wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.stop()


def _research_page(tab: ConnectionTab, qtbot: QtBot, arguments: dict[str, Any]) -> ToolPage:
    page = tool_page(tab, TOOL)
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    toggle = page.task_toggle
    assert toggle.isVisibleTo(page) and toggle.isChecked() and not toggle.isEnabled()  # required: always a task
    page.form.set_value(arguments)
    return page


def test_over_stdio_the_clarification_is_asked_in_the_dialog_and_the_report_shown(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    cmd = nodetools.require_server_everything("stdio")
    profile = store.create(
        Profile(
            name="server-everything (stdio)",
            stdio=StdioSettings(command=cmd[0], args=cmd[1:]),
            protocol_era="legacy",
        )
    )
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    assert tab.controller.server is not None and tab.controller.server.protocol_version == "2025-11-25"
    page = _research_page(tab, qtbot, {"topic": "python", "ambiguous": True})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    handlers = tab.controller.connection.handlers  # type: ignore[union-attr]
    assert isinstance(handlers, GuiRequestHandlers)
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog, timeout=30)
    record = tab.explore.tasks.book.records[-1]
    assert record.tool == TOOL and record.task_id is not None
    assert dialog.form is not None
    dialog.form.set_value({"interpretation": "programming"})
    assert dialog.accept_request()
    qasync_loop.wait_until(lambda: not page.running, timeout=40)
    assert page.result_view.state() is ResultState.SUCCESS, page.result_view.result
    assert page.result_view.result is not None
    assert page.result_view.result["content"][0]["text"].startswith("# Research Report: python (programming)")
    assert record.outcome is TaskOutcome.COMPLETED
    seen = [u.task.status for u in record.updates]
    assert "input_required" in seen and seen[-1] == "completed"
    assert {"Gathering sources...", "Analyzing content..."} <= {u.task.status_message for u in record.updates}
    # the Tasks panel shows the same result; tasks/list (declared) lists the task once
    panel = tab.explore.tasks
    tab.inner_tabs.setCurrentWidget(panel)
    panel.select(record)
    assert panel.result_view.state() is ResultState.SUCCESS
    assert panel.result_view.result == page.result_view.result
    assert panel.refresh()
    qasync_loop.wait_until(lambda: "tasks/list: the server lists" in panel.status_label.text(), timeout=15)
    assert [r for r in panel.book.records if r.task_id == record.task_id] == [record]


def test_over_http_a_task_cancelled_from_the_tool_page_is_cancelled_at_the_server(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    everything_http: str,
) -> None:
    profile = store.create(
        Profile(
            name="server-everything (HTTP)",
            transport="http",
            http=HttpSettings(url=everything_http),
            protocol_era="legacy",
        )
    )
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    page = _research_page(tab, qtbot, {"topic": "cancel me"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    book = tab.explore.tasks.book
    qasync_loop.wait_until(lambda: book.records and book.records[-1].task_id is not None, timeout=20)
    record = book.records[-1]
    qasync_loop.wait_until(lambda: record.state is not None and record.state.status_message is not None, timeout=20)
    qtbot.mouseClick(page.result_view.cancel_button, Qt.MouseButton.LeftButton)  # the page's Cancel
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.CANCELLED
    assert record.outcome is TaskOutcome.CANCELLED
    cancels = wire_rows(tab.controller, "request", "out", "tasks/cancel")
    assert len(cancels) == 1 and record.task_id in cancels[0].raw
    # the server says so too: tasks/list reports it cancelled
    panel = tab.explore.tasks
    assert panel.refresh()
    qasync_loop.wait_until(lambda: "tasks/list: the server lists" in panel.status_label.text(), timeout=15)
    assert record.state is not None and record.state.status == "cancelled"
