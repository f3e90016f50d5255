"""The notifications view: every server notification (standard and unknown) with time, method and payload;
counts per method; filters; a model that passes qtmodeltester."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from guikit import AsyncRunner, MakeController, make_handlers, misbehaving_command, start_call
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.content.notifications import NotificationLog
from inspector.protocol.events import NotificationReceived
from inspector.ui.connection.notifications import NotificationModel, NotificationsView
from inspector.ui.server_requests import UrlElicitationDialog


def _event(method: str, params: Any = None) -> NotificationReceived:
    return NotificationReceived(method, params)


@pytest.mark.parametrize(("method", "text"), [(None, ""), ("notifications/message", ""), (None, "step 2")])
def test_qtmodeltester(qtmodeltester: ModelTester, method: str | None, text: str) -> None:
    log = NotificationLog()
    model = NotificationModel(log)
    for i in range(5):
        log.append("notifications/progress", {"progressToken": 1, "progress": i, "message": f"step {i}"})
        log.append("notifications/message", {"level": "info", "data": f"line {i}"})
    log.append("vendor/thing", None)
    model.set_filter(method, text)
    qtmodeltester.check(model, force_py=True)  # type: ignore[no-untyped-call]
    # the tester stays connected: appends, filter changes and clearing are checked as they happen
    log.append("notifications/message", {"level": "debug", "data": "more step 2"})
    model.refresh()
    model.set_filter(None, "")
    assert model.rowCount() == 12
    log.clear()
    model.refresh()
    assert model.rowCount() == 0


def test_counts_filter_and_payload(qtbot: QtBot) -> None:
    view = NotificationsView()
    qtbot.addWidget(view)
    view.add(_event("notifications/progress", {"progressToken": "t", "progress": 1, "total": 3}))
    view.add(_event("notifications/message", {"level": "warning", "logger": "db", "data": "disk almost full"}))
    view.add(_event("notifications/message", {"level": "info", "data": "hello"}))
    view.add(_event("x-vendor/ping"))
    view.flush()
    assert view.counts() == {"notifications/progress": 1, "notifications/message": 2, "x-vendor/ping": 1}
    assert [view.methods.item(i).text() for i in range(view.methods.count())] == [  # type: ignore[union-attr]
        "All notifications  (4)",
        "notifications/message  (2)",
        "notifications/progress  (1)",
        "x-vendor/ping  (1)",
    ]
    assert view.model.rowCount() == 4 and view.count_label.text() == "4 notifications"
    unknown = view.model.index(3, 1)
    assert view.model.data(unknown) == "x-vendor/ping"
    assert view.model.data(unknown, Qt.ItemDataRole.FontRole).italic()
    view.select_method("notifications/message")
    assert view.model.rowCount() == 2 and view.count_label.text() == "2 of 4"
    view.search.setText("disk")
    assert view.model.rowCount() == 1
    view.table.selectRow(0)
    detail = view.detail.toPlainText()
    assert "notifications/message" in detail and '"data": "disk almost full"' in detail
    view.search.clear()
    view.select_method(None)
    assert view.model.rowCount() == 4
    view.clear_button.click()
    assert view.model.rowCount() == 0 and view.counts() == {}


def test_every_notification_of_a_live_demo_session(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    controller = make_controller(handlers=make_handlers(tmp_path))
    view = NotificationsView()
    controller.notificationReceived.connect(view.add)  # as ConnectionTab._wire does
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.show()
    conn = controller.connection
    assert conn is not None
    qasync_loop.run(conn.call_tool("log_levels", {"message": "from the test"}))
    qasync_loop.run(conn.call_tool("slow", {"seconds": 0.3, "steps": 3}))
    qasync_loop.run(conn.call_tool("toggle_tool", {}))
    qasync_loop.wait_until(lambda: sum(view.counts().values()) >= 14)
    view.flush()
    counts = view.counts()
    assert counts["notifications/message"] == 8
    assert counts["notifications/progress"] == 3
    for kind in ("tools", "prompts", "resources"):
        assert counts[f"notifications/{kind}/list_changed"] == 1
    view.select_method("notifications/progress")
    view.table.selectRow(2)
    payload = view.detail.toPlainText()
    assert '"message": "step 3/3"' in payload
    view.select_method(None)
    view.table.selectRow(0)
    view.grab().save("/tmp/notifications_view.png")


def test_unknown_cancelled_and_elicitation_complete(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path, opener=lambda url: True)
    controller = make_controller(
        misbehaving_command("unknown-notification,sampling-then-cancel,url-elicitation"), handlers=handlers
    )
    view = NotificationsView()
    controller.notificationReceived.connect(view.add)  # as ConnectionTab._wire does
    qtbot.addWidget(view)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    # the sampling request is withdrawn by the server; then the URL elicitation comes
    qasync_loop.wait_until(
        lambda: handlers.current is not None and isinstance(handlers.current.dialog, UrlElicitationDialog)
    )
    dialog = handlers.current.dialog  # type: ignore[union-attr]
    assert isinstance(dialog, UrlElicitationDialog)
    dialog.open_button.click()
    qasync_loop.wait_until(task.done)
    qasync_loop.wait_until(lambda: "notifications/elicitation/complete" in view.counts())
    dialog.close()
    view.flush()
    counts = view.counts()
    assert counts["notifications/vendor/custom"] == 1
    assert counts["notifications/cancelled"] == 1
    view.select_method("notifications/cancelled")
    view.table.selectRow(0)
    assert json.loads(view.detail.toPlainText().split("\n\n", 1)[1]) == {
        "requestId": "srv-1",
        "reason": "the server changed its mind",
    }
    view.select_method("notifications/vendor/custom")
    view.table.selectRow(0)
    assert "not a notification the MCP specification defines" in view.detail.toPlainText()
