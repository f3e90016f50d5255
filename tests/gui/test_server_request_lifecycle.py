"""Issue 14 §5.3 and §5.4: server-request dialogs end cleanly. The URL dialog closes on Cancel/Decline (one
answer); the request timeout is held while a person answers (the progress pane says it waits for you); and a
server that gives up on its own closes the dialog with a visible notice."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from guikit import (
    AsyncRunner,
    MakeController,
    MakeWindow,
    finish,
    make_handlers,
    misbehaving_command,
    result_text,
    start_call,
    track_closing,
    wait_dialog,
    wire_rows,
)
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.server_requests import ElicitationDialog, SamplingDialog, UrlElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.viewers import ResultState
from inspector.ui.viewers.progress_panel import WAITING_FOR_YOU


class Browser:
    def __init__(self) -> None:
        self.opened: list[str] = []

    def __call__(self, url: str) -> bool:
        self.opened.append(url)
        return True


def answers_sent(controller: Any) -> list[Any]:
    """Our answers to the server's elicitation/create requests, as recorded."""
    rows = wire_rows(controller, "response", "out", "elicitation/create")
    return [json.loads(row.raw).get("result") for row in rows]


@pytest.mark.parametrize("action", ["cancel", "decline"])
def test_url_dialog_closes_on_cancel_and_decline_answering_once(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path, action: str
) -> None:
    browser = Browser()
    handlers = make_handlers(tmp_path, opener=browser)
    closed = track_closing(handlers)
    controller = make_controller(misbehaving_command("url-elicitation"), handlers=handlers)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    dialog: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    button = dialog.cancel_button if action == "cancel" else dialog.decline_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    # the dialog is gone at once (before the server even answers the call)
    qtbot.waitUntil(lambda: closed == [(None, True)], timeout=5000)
    qasync_loop.wait_until(lambda: handlers.current is None and handlers.pending == 0, timeout=10)
    expected = f'url elicitation answer: result {{"action": "{action}"}}'
    assert result_text(finish(qasync_loop, task)) == expected
    assert answers_sent(controller) == [{"action": action}]  # exactly one answer went to the server
    assert browser.opened == []


def test_url_dialog_after_accept_keeps_a_working_close_button(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path, opener=Browser())
    closed = track_closing(handlers)
    controller = make_controller(misbehaving_command("url-elicitation"), handlers=handlers)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    dialog: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    assert result_text(finish(qasync_loop, task)) == 'url elicitation answer: result {"action": "accept"}'
    assert dialog.isVisible() and dialog.close_button.isVisible()  # it waits for the completion notification
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(closed) == 1, timeout=5000)
    assert answers_sent(controller) == [{"action": "accept"}]


def test_a_server_that_gives_up_closes_the_dialog_with_a_notice(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    closed = track_closing(handlers)
    withdrawn: list[str] = []
    handlers.requestWithdrawn.connect(withdrawn.append)
    controller = make_controller(misbehaving_command("sampling-then-cancel"), handlers=handlers)
    opened: list[object] = []
    handlers.dialogOpened.connect(opened.append)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    assert result_text(finish(qasync_loop, task)).endswith("withdrawn")
    qasync_loop.wait_until(lambda: closed == [("the request is gone", False)], timeout=10)
    assert len(opened) == 1 and isinstance(opened[0], SamplingDialog)
    notice = handlers.notice
    assert notice is not None and notice.isVisible()
    assert "The server cancelled its sampling request" in notice.text() and "nothing was sent" in notice.text()
    assert withdrawn == [notice.text()]
    # nothing was answered to it
    assert wire_rows(controller, "response", "out", "sampling/createMessage") == []
    notice.close()
    qtbot.waitUntil(lambda: handlers.notice is None, timeout=5000)


def test_a_connection_ending_is_not_reported_as_the_server_giving_up(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    withdrawn: list[str] = []
    handlers.requestWithdrawn.connect(withdrawn.append)
    controller = make_controller(handlers=handlers)
    start_call(qasync_loop, controller, "elicit_form")
    wait_dialog(qasync_loop, handlers, ElicitationDialog)
    qasync_loop.run(controller.aclose(), timeout=30)
    qtbot.waitUntil(lambda: len(withdrawn) == 1, timeout=10000)
    assert "the connection ended" in withdrawn[0]
    assert handlers.notice is None


def test_the_timeout_waits_while_you_answer(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    """A 1 s request timeout, an answer after 2.5 s: the call succeeds, and meanwhile the pane says it waits
    for you (not for the server)."""
    profile = store.create(
        Profile(
            name="demo, 1 s timeout",
            stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]),
            timeouts=TimeoutSettings(request=30),
            protocol_era="legacy",  # server requests mid-call (2026-07-28 asks for input between rounds)
        )
    )
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    # connected (the server took its time starting): from now on every request has 1 s
    store.update(replace(profile, timeouts=TimeoutSettings(request=1.0)))
    window.refresh_tab(profile.id)
    qasync_loop.wait_until(lambda: tab.tools.browser.model.total() > 0, timeout=20)
    tab.inner_tabs.setCurrentWidget(tab.tools)
    page = tab.tools.select_tool("elicit_form")
    assert page is not None
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    page.update_timeout()
    assert page.timeout_label.text().startswith("Timeout 1 s")
    handlers = tab.controller.connection.handlers  # type: ignore[union-attr]
    assert isinstance(handlers, GuiRequestHandlers)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    label = page.result_view.progress_label
    qtbot.waitUntil(lambda: label.text() == WAITING_FOR_YOU, timeout=5000)
    asked = time.monotonic()
    qasync_loop.wait_until(lambda: time.monotonic() - asked > 2.5, timeout=10)
    assert page.running and dialog.isVisible()  # 2.5 s > the 1 s timeout: still waiting for the answer
    assert label.text() == WAITING_FOR_YOU
    qtbot.mouseClick(dialog.decline_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=15)
    assert page.result_view.state() is ResultState.SUCCESS
    result = page.result_view.result
    assert result is not None and json.loads(result["content"][0]["text"]) == {"action": "decline"}
    assert not page.result_view.running_panel.waiting_for_person
