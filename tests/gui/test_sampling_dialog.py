"""Sampling dialogs against real servers: approve, reject, media, canned replies, the queue, auto-reply,
a request the server withdraws and one pending when the server dies."""

from __future__ import annotations

import base64
import json
import os
import signal
from pathlib import Path
from typing import Any

import nodetools
import pytest
from guikit import (
    DEMO_COMMAND,
    AsyncRunner,
    MakeController,
    finish,
    make_handlers,
    misbehaving_command,
    result_json,
    result_text,
    save_screenshot,
    start_call,
    track_closing,
    wait_dialog,
    wire_rows,
)
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from inspector.client.errors import ConnectionLost
from inspector.content.server_requests import REJECT_CODE, REJECT_MESSAGE
from inspector.store.canned_replies import CannedReplies, CannedReply
from inspector.store.profiles.sections import SamplingAutoReply
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.server_requests import RequestsIndicator, SamplingDialog


def click(qtbot: QtBot, button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_approve_shows_the_whole_request_and_sends_the_reply(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(
        qasync_loop,
        controller,
        "sample",
        {"prompt": "Write a haiku about lighthouses", "max_tokens": 64, "temperature": 0.4},
    )
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    # the request as the server sent it
    assert dialog.info is not None and dialog.info.method == "sampling/createMessage"
    assert dialog.system_prompt_label is not None
    assert dialog.system_prompt_label.text() == "You are a concise assistant."
    bubbles = dialog.transcript.message_widgets()
    assert [b.role for b in bubbles] == ["user"]
    view = dialog.params_view
    assert view.max_tokens_label.text() == "64" and view.temperature_label.text() == "0.4"
    assert [b.text() for b in view.hint_badges] == ["claude"]
    assert view.priority_bars["intelligence"].value() == 80 and view.priority_bars["speed"].value() == 50
    assert not view.priority_bars["cost"].isEnabled()
    assert view.metadata_view is not None and '"origin": "inspector-demo"' in view.metadata_view.toPlainText()
    assert dialog.reply.model_edit.text() == "claude"  # the first hint is suggested
    # other traffic keeps flowing while the dialog is open
    conn = controller.connection
    assert conn is not None
    echoed = qasync_loop.run(conn.call_tool("echo", {"message": "still alive"}), timeout=15)
    assert result_text(echoed) == "still alive"
    # an empty reply is refused with a reason, the dialog stays open
    click(qtbot, dialog.approve_button)
    assert dialog.isVisible() and "Write the reply text." in dialog.problem_label.text()
    dialog.reply.text_edit.setPlainText(
        "Beam sweeps the fog —\nships count the seconds of light.\nRocks stay where they are."
    )
    typed = dialog.reply.text_edit.toPlainText()
    dialog.reply.model_edit.setText("claude-test-1")
    dialog.reply.stop_combo.setCurrentText("maxTokens")
    save_screenshot(dialog, "sampling_dialog.png")
    click(qtbot, dialog.approve_button)
    answer = result_json(finish(qasync_loop, task))
    assert answer == {
        "role": "assistant",
        "content": {"type": "text", "text": typed},
        "model": "claude-test-1",
        "stopReason": "maxTokens",
    }
    qasync_loop.wait_until(lambda: handlers.current is None and handlers.pending == 0)


def test_reject_sends_an_error_the_server_can_read(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(qasync_loop, controller, "sample")
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    click(qtbot, dialog.reject_button)
    result = finish(qasync_loop, task)
    assert result["isError"] is True
    assert result_json(result) == {"client_error": {"code": REJECT_CODE, "message": REJECT_MESSAGE}}
    errors = wire_rows(controller, "error", "out")
    assert len(errors) == 1 and json.loads(errors[0].raw)["error"] == {"code": -1, "message": REJECT_MESSAGE}


def test_closing_the_window_rejects(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    task = start_call(qasync_loop, controller, "sample")
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    dialog.close()
    assert result_json(finish(qasync_loop, task))["client_error"]["code"] == REJECT_CODE


def test_image_reply_from_a_file_and_canned_replies(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    image = QImage(8, 6, QImage.Format.Format_RGB32)
    image.fill(QColor("#2e9d4f"))
    png = tmp_path / "dot.png"
    assert image.save(str(png))
    canned_path = tmp_path / "canned.json"
    handlers = make_handlers(tmp_path, canned=CannedReplies(canned_path))
    controller = make_controller(handlers=handlers)

    task = start_call(qasync_loop, controller, "sample")
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    assert not dialog.reply.kind_combo.model().item(3).isEnabled()  # type: ignore[attr-defined]  # no tools offered
    dialog.reply.set_kind("image")
    assert dialog.reply.load_file(str(tmp_path / "missing.png")) is not None
    assert dialog.reply.load_file(str(png)) is None
    assert "dot.png" in dialog.reply.file_label.text() and dialog.reply.preview.pixmap() is not None
    # save it for later, then send it
    saved = dialog.reply.canned.save_as("green dot")
    assert saved is not None and CannedReplies(canned_path).names() == ["green dot"]
    click(qtbot, dialog.approve_button)
    answer = result_json(finish(qasync_loop, task))
    assert answer["content"] == {
        "type": "image",
        "data": base64.b64encode(png.read_bytes()).decode(),
        "mimeType": "image/png",
    }

    # a text canned reply, saved and picked in the next request
    handlers.canned.put(
        CannedReply(
            name="ok", content={"type": "text", "text": "Canned OK"}, model="canned-model", stop_reason="endTurn"
        )
    )
    task = start_call(qasync_loop, controller, "sample")
    dialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    assert dialog.reply.canned.combo.count() == 3  # placeholder + 2 replies
    assert dialog.reply.canned.choose("ok") is not None
    assert dialog.reply.text_edit.toPlainText() == "Canned OK"
    click(qtbot, dialog.approve_button)
    answer = result_json(finish(qasync_loop, task))
    assert answer["content"] == {"type": "text", "text": "Canned OK"} and answer["model"] == "canned-model"


def test_two_concurrent_requests_queue_and_are_answered_in_order(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(handlers=handlers)
    indicator = RequestsIndicator(controller)
    qtbot.addWidget(indicator)
    indicator.show()
    first = start_call(qasync_loop, controller, "sample", {"prompt": "alpha"})
    second = start_call(qasync_loop, controller, "sample", {"prompt": "bravo"})
    dialog_one: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    qasync_loop.wait_until(lambda: handlers.pending == 2)
    assert indicator.pending_button.isVisible() and indicator.pending_button.text() == "2 pending"
    assert dialog_one.queue_label.isVisible() and dialog_one.queue_label.text() == "1 more waiting"
    waiting = handlers.queue[1]
    assert waiting.dialog is None  # one dialog at a time
    assert dialog_one.info is not None and waiting.info is not None
    assert dialog_one.info.id < waiting.info.id  # arrival order (the demo numbers its requests)
    prompt_one = dialog_one.request.messages[0]["content"]["text"]
    dialog_one.reply.text_edit.setPlainText(f"reply to {prompt_one}")
    click(qtbot, dialog_one.approve_button)

    qasync_loop.wait_until(lambda: handlers.current is not None and handlers.current.dialog is not dialog_one)
    dialog_two: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    assert dialog_two.info is not None and dialog_two.info.id == waiting.info.id
    assert indicator.pending_button.text() == "1 pending" and not dialog_two.queue_label.isVisible()
    prompt_two = dialog_two.request.messages[0]["content"]["text"]
    assert {prompt_one, prompt_two} == {"alpha", "bravo"}
    dialog_two.reply.text_edit.setPlainText(f"reply to {prompt_two}")
    click(qtbot, dialog_two.approve_button)

    answers = {"alpha": result_json(finish(qasync_loop, first)), "bravo": result_json(finish(qasync_loop, second))}
    for prompt, answer in answers.items():
        assert answer["content"]["text"] == f"reply to {prompt}"
    assert [kind for kind, _ in handlers.answered] == ["sampling", "sampling"]
    qasync_loop.wait_until(lambda: not indicator.pending_button.isVisible())


def test_auto_reply_answers_without_a_dialog_and_is_indicated(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    auto = SamplingAutoReply(enabled=True, text="Automatic answer for testing", model="auto-model")
    handlers = make_handlers(tmp_path, auto_reply=auto)
    controller = make_controller(handlers=handlers)
    indicator = RequestsIndicator(controller)
    qtbot.addWidget(indicator)
    indicator.show()
    assert indicator.auto_button.isChecked() and indicator.auto_button.text() == "Auto-reply ON"
    assert indicator.auto_button.property("tone") == "warning"
    opened: list[Any] = []
    handlers.dialogOpened.connect(opened.append)
    answer = result_json(qasync_loop.run(controller.connection.call_tool("sample", {}), timeout=30))  # type: ignore[union-attr]
    assert answer["content"]["text"] == "Automatic answer for testing" and answer["model"] == "auto-model"
    assert opened == [] and indicator.auto_button.text() == "Auto-reply ON · 1"
    # switched off from the indicator: the next request gets a dialog
    click(qtbot, indicator.auto_button)
    assert not handlers.auto_reply_active and indicator.auto_button.text() == "Auto-reply off"
    task = start_call(qasync_loop, controller, "sample")
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    click(qtbot, dialog.reject_button)
    assert finish(qasync_loop, task)["isError"] is True


def test_a_request_the_server_cancels_closes_its_dialog(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(misbehaving_command("sampling-then-cancel"), handlers=handlers)
    closed = track_closing(handlers)
    withdrawn: list[str] = []
    handlers.requestWithdrawn.connect(withdrawn.append)
    task = start_call(qasync_loop, controller, "t", {"text": "x"})
    assert result_text(finish(qasync_loop, task)) == "sampling request srv-1 withdrawn"
    qasync_loop.wait_until(lambda: handlers.pending == 0 and handlers.current is None and closed)
    assert closed == [("the request is gone", False)] and len(withdrawn) == 1
    # nothing was answered to the withdrawn request, and the connection carries on
    assert wire_rows(controller, "response", "out") == [] and wire_rows(controller, "error", "out") == []
    assert controller.state is ConnectionState.CONNECTED
    assert result_text(qasync_loop.run(controller.connection.call_tool("t", {"text": "y"}))) == (  # type: ignore[union-attr]
        "sampling request srv-2 withdrawn"
    )


def test_a_request_pending_when_the_server_dies_closes_its_dialog(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    handlers = make_handlers(tmp_path)
    controller = make_controller(DEMO_COMMAND, handlers=handlers)  # a process, to kill
    closed = track_closing(handlers)
    first = start_call(qasync_loop, controller, "sample", {"prompt": "one"})
    second = start_call(qasync_loop, controller, "sample", {"prompt": "two"})
    wait_dialog(qasync_loop, handlers, SamplingDialog)
    qasync_loop.wait_until(lambda: handlers.pending == 2)
    pid = getattr(controller.connection.transport, "pid", None)  # type: ignore[union-attr]
    assert isinstance(pid, int)
    os.kill(pid, signal.SIGKILL)
    qasync_loop.wait_state(controller, ConnectionState.EXITED)
    qasync_loop.wait_until(lambda: handlers.pending == 0 and handlers.current is None)
    assert closed == [("the request is gone", False)]  # the queued one never got a dialog
    for task in (first, second):
        qasync_loop.wait_until(task.done)
        assert isinstance(task.exception(), ConnectionLost)


@pytest.mark.node
def test_server_everything_sampling(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    command = nodetools.require_server_everything()
    handlers = make_handlers(tmp_path, label="server-everything")
    controller = make_controller(command, handlers=handlers)
    task = start_call(qasync_loop, controller, "trigger-sampling-request", {"prompt": "Say hello", "maxTokens": 20})
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    assert (
        dialog.system_prompt_label is not None and dialog.system_prompt_label.text() == "You are a helpful test server."
    )
    assert dialog.params_view.temperature_label.text() == "0.7"
    dialog.reply.text_edit.setPlainText("Hello from the inspector")
    click(qtbot, dialog.approve_button)
    text = result_text(finish(qasync_loop, task))
    assert "Hello from the inspector" in text and '"model": "' in text


def test_tool_use_and_audio_replies(qtbot: QtBot, tmp_path: Path) -> None:
    """Offered tools enable a tool_use reply (stop reason toolUse); audio comes from a file."""
    params = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Weather in Paris?"}}],
        "maxTokens": 100,
        "tools": [
            {
                "name": "get_weather",
                "description": "Current weather",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
            }
        ],
        "toolChoice": {"mode": "required"},
    }
    dialog = SamplingDialog(params, canned=CannedReplies(tmp_path / "canned.json"))
    qtbot.addWidget(dialog)
    outcomes: list[Any] = []
    dialog.answered.connect(outcomes.append)
    dialog.open()
    assert len(dialog.params_view.tool_cards) == 1
    assert dialog.params_view.tool_choice_label.text() == "toolChoice: required"
    dialog.reply.set_kind("tool_use")
    assert dialog.reply.stop_combo.currentText() == "toolUse"
    dialog.reply.tool_input_edit.setPlainText("{not json")
    click(qtbot, dialog.approve_button)
    assert outcomes == [] and "JSON object" in dialog.problem_label.text()
    dialog.reply.tool_input_edit.setPlainText('{"city": "Paris"}')
    dialog.reply.tool_id_edit.setText("toolu_test")
    click(qtbot, dialog.approve_button)
    assert outcomes == [
        {
            "role": "assistant",
            "content": {"type": "tool_use", "id": "toolu_test", "name": "get_weather", "input": {"city": "Paris"}},
            "model": "mcp-inspector-manual",
            "stopReason": "toolUse",
        }
    ]

    wav = tmp_path / "beep.wav"
    wav.write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt ")
    dialog = SamplingDialog({"messages": [], "maxTokens": 5}, canned=CannedReplies(tmp_path / "canned.json"))
    qtbot.addWidget(dialog)
    dialog.answered.connect(outcomes.append)
    dialog.open()
    dialog.reply.set_kind("audio")
    assert dialog.reply.load_file(str(wav)) is None
    click(qtbot, dialog.approve_button)
    content = outcomes[-1]["content"]
    assert content["type"] == "audio" and content["mimeType"] in ("audio/x-wav", "audio/wav")
    assert base64.b64decode(content["data"]) == wav.read_bytes()
