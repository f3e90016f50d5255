"""Elicitation dialogs against real servers: form mode (defaults, validation, the three actions), the
non-standard ``elicitation/request`` alias, URL mode with consent and completion, and -32042 explained."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nodetools
import pytest
from guikit import (
    AsyncRunner,
    MakeController,
    finish,
    make_handlers,
    misbehaving_command,
    result_json,
    result_text,
    save_screenshot,
    start_call,
    wait_dialog,
    wire_rows,
)
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from inspector.client.errors import RemoteError
from inspector.demo.tools_interactive import ELICIT_SCHEMA
from inspector.protocol.jsonrpc import URL_ELICITATION_REQUIRED
from inspector.ui.server_requests import (
    ElicitationDialog,
    UrlElicitationDialog,
    explain_url_elicitation_required,
    url_tracker_of,
)

DEFAULTS = {name: prop["default"] for name, prop in ELICIT_SCHEMA["properties"].items()}
URL = "https://auth.example.com/consent?client=misbehaving"


def click(qtbot: QtBot, button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


class Browser:
    """An injectable opener that records instead of starting a browser."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def __call__(self, url: str) -> bool:
        self.opened.append(url)
        return True


def test_defaults_reach_the_server_when_accepted_without_editing(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(qasync_loop, controller, "elicit_form", {"message": "Tell us a bit about yourself"})
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    assert dialog.message_label.text() == "Tell us a bit about yourself"
    assert dialog.nonstandard_banner is None
    assert dialog.form is not None and dialog.form.value() == DEFAULTS
    save_screenshot(dialog, "elicitation_dialog.png")
    click(qtbot, dialog.accept_button)
    assert result_json(finish(qasync_loop, task)) == {"action": "accept", "content": DEFAULTS}


def test_accept_validates_first(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(qasync_loop, controller, "elicit_form")
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    assert dialog.form is not None
    name = dialog.form.field("name")
    email = dialog.form.field("email")
    assert isinstance(name, QLineEdit) and isinstance(email, QLineEdit)
    name.clear()
    email.setText("not an e-mail")
    click(qtbot, dialog.accept_button)
    assert dialog.isVisible() and dialog.problem_label.isVisible()
    assert "problem" in dialog.problem_label.text()
    assert not task.done()
    name.setText("Grace Hopper")
    email.setText("grace@example.com")
    click(qtbot, dialog.accept_button)
    answer = result_json(finish(qasync_loop, task))
    assert answer["action"] == "accept"
    assert answer["content"] == {**DEFAULTS, "name": "Grace Hopper", "email": "grace@example.com"}


@pytest.mark.parametrize("button", ["decline_button", "cancel_button", "window"])
def test_decline_and_cancel(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path, button: str
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(qasync_loop, controller, "elicit_form")
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    if button == "window":
        dialog.close()  # dismissed: the spec's cancel
    else:
        click(qtbot, getattr(dialog, button))
    expected = "decline" if button == "decline_button" else "cancel"
    assert result_json(finish(qasync_loop, task)) == {"action": expected}


def test_the_non_standard_alias_is_answered_and_flagged(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(misbehaving_command("elicit-alias"), handlers=handlers)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    assert dialog.info is not None and dialog.info.non_standard and dialog.info.wire_method == "elicitation/request"
    assert dialog.nonstandard_banner is not None and dialog.nonstandard_banner.isVisible()
    assert "elicitation/request" in dialog.nonstandard_banner.title_label.text()
    assert dialog.method_badge.text() == "elicitation/request" and dialog.method_badge.property("tone") == "warning"
    assert any(d.code.value == "non-standard-method" for d in dialog.info.diagnostics)
    click(qtbot, dialog.accept_button)
    text = result_text(finish(qasync_loop, task))
    assert text == 'elicitation/request answer: result {"action": "accept", "content": {"name": "Grace"}}'
    inbound = wire_rows(controller, "request", "in", "elicitation/request")
    assert len(inbound) == 1 and inbound[0].diagnostics[0]["code"] == "non-standard-method"


def test_url_mode_opens_only_after_consent_and_tracks_completion(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    browser = Browser()
    handlers = make_handlers(tmp_path, opener=browser)
    controller = make_controller(misbehaving_command("url-elicitation"), handlers=handlers)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    dialog: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    card = dialog.cards[0]
    assert "auth.example.com" in card.host_label.text() and "<b" in card.url_label.text()
    assert card.elicitation_id == "el-1" and card.status == "not opened"
    assert browser.opened == []  # nothing opens by itself
    save_screenshot(dialog, "url_elicitation_dialog.png")
    click(qtbot, dialog.open_button)
    assert browser.opened == [URL]
    assert result_text(finish(qasync_loop, task)) == 'url elicitation answer: result {"action": "accept"}'
    # the dialog stays (non-modal) until the server says the person finished
    qasync_loop.wait_until(lambda: card.status == "completed")
    assert dialog.isVisible() and dialog.close_button.isVisible() and handlers.url_tracker.is_complete("el-1")
    assert dialog.windowModality() is Qt.WindowModality.NonModal
    click(qtbot, dialog.close_button)
    assert handlers.current is None and handlers.pending == 0


def test_url_mode_decline_opens_nothing(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    browser = Browser()
    handlers = make_handlers(tmp_path, opener=browser)
    controller = make_controller(misbehaving_command("url-elicitation"), handlers=handlers)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    dialog: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    click(qtbot, dialog.decline_button)
    assert result_text(finish(qasync_loop, task)) == 'url elicitation answer: result {"action": "decline"}'
    assert browser.opened == []


def test_only_http_links_are_opened(qtbot: QtBot, qasync_loop: AsyncRunner) -> None:
    browser = Browser()
    for url in ("file:///etc/passwd", "javascript:alert(1)", "https:///no-host"):
        dialog = UrlElicitationDialog(
            params={"mode": "url", "message": "m", "url": url, "elicitationId": "x"}, opener=browser
        )
        qtbot.addWidget(dialog)
        assert not dialog.open_button.isEnabled()
        assert dialog.cards[0].problem_banner is not None
        dialog.consent()
        assert browser.opened == [] and not dialog.decided


def test_url_elicitation_required_error_is_explained(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    browser = Browser()
    handlers = make_handlers(tmp_path, opener=browser)
    controller = make_controller(misbehaving_command("url-elicitation-required"), handlers=handlers)
    with pytest.raises(RemoteError) as failure:
        qasync_loop.run(controller.connection.call_tool("t", {"text": "x"}))  # type: ignore[union-attr]
    error = failure.value
    assert error.code == URL_ELICITATION_REQUIRED
    dialog = explain_url_elicitation_required(
        error.data, None, message=error.message, opener=browser, tracker=url_tracker_of(controller)
    )
    assert dialog.isVisible() and not dialog.request_mode and len(dialog.cards) == 1
    assert dialog.method_badge.text() == f"error {URL_ELICITATION_REQUIRED}"
    card = dialog.cards[0]
    assert card.open_button is not None
    save_screenshot(dialog, "url_elicitation_required.png")
    click(qtbot, card.open_button)
    assert browser.opened == [URL] and card.status == "waiting for the server"
    with qtbot.waitSignal(dialog.retryRequested, timeout=2000):
        click(qtbot, dialog.retry_button)  # the dialog closes (and deletes itself)


@pytest.mark.node
def test_server_everything_form_and_url_elicitation(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    command = nodetools.require_server_everything()
    browser = Browser()
    handlers = make_handlers(tmp_path, label="server-everything", opener=browser)
    controller = make_controller(command, handlers=handlers)
    # form mode: "name" is required and has no default; the defaults of the other fields go along
    task = start_call(qasync_loop, controller, "trigger-elicitation-request")
    dialog: ElicitationDialog = wait_dialog(qasync_loop, handlers, ElicitationDialog)
    assert dialog.form is not None
    click(qtbot, dialog.accept_button)
    assert dialog.isVisible() and dialog.problem_label.isVisible()  # name missing
    name = dialog.form.field("name")
    assert isinstance(name, QLineEdit)
    name.setText("Ada")
    click(qtbot, dialog.accept_button)
    text = result_text(finish(qasync_loop, task))
    assert "- Name: Ada" in text and "- Favorite Integer: 42" in text

    # URL mode, request path
    url = "https://example.com/verify"
    task = start_call(qasync_loop, controller, "trigger-url-elicitation", {"url": url})
    url_dialog: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    click(qtbot, url_dialog.open_button)
    assert browser.opened == [url] and "User completed the URL elicitation flow" in result_text(
        finish(qasync_loop, task)
    )
    url_dialog.close()

    # URL mode, error path (-32042), then the retry the dialog asks for succeeds through the request path
    args = {"url": url, "errorPath": True}
    with pytest.raises(RemoteError) as failure:
        qasync_loop.run(controller.connection.call_tool("trigger-url-elicitation", args))  # type: ignore[union-attr]
    assert failure.value.code == URL_ELICITATION_REQUIRED
    explained = explain_url_elicitation_required(failure.value.data, None, opener=browser)
    assert explained.cards and explained.cards[0].parts.host == "modelcontextprotocol.io"
    explained.close()
    retry = start_call(qasync_loop, controller, "trigger-url-elicitation", args)
    retried: UrlElicitationDialog = wait_dialog(qasync_loop, handlers, UrlElicitationDialog)
    click(qtbot, retried.decline_button)
    assert "declined" in result_text(finish(qasync_loop, retry))
    assert json.dumps(failure.value.data)  # the error data is plain JSON
