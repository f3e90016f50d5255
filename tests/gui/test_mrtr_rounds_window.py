"""Multi-round-trip requests (2026-07-28) in the window: the demo's MRTR tool and prompt answered through the
elicitation dialogs, each saying which round of which request it answers, and the tool and prompt pages saying
"round 2 of …, waiting for you" while a dialog is open and "round 2 sent" once it was answered; in memory and
over stdio (``--era modern``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, prompt_page, tool_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.mrtr import MAX_INPUT_ROUNDS
from inspector.protocol.versions import Era
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.transports.memory import MemoryTransport
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.controller import ConnectionController
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.viewers import ResultState

MODERN_DEMO = ["-m", "inspector.demo", "--era", "modern"]


def _modern_tab(runner: AsyncRunner, make_window: MakeWindow, store: ProfileStore, show: str = "tools") -> object:
    profile = store.create(Profile(name="modern demo", stdio=StdioSettings(command=sys.executable, args=MODERN_DEMO)))
    window = make_window()
    tab = connect_tab(window, runner, profile.id, show=show)  # type: ignore[arg-type]
    conn = tab.controller.connection
    assert conn is not None and conn.server is not None and conn.server.era is Era.MODERN
    return tab


def _handlers(controller: ConnectionController) -> GuiRequestHandlers:
    handlers = controller.settings.handlers
    assert isinstance(handlers, GuiRequestHandlers)
    return handlers


def _dialog(runner: AsyncRunner, handlers: GuiRequestHandlers, after: object = None) -> ElicitationDialog:
    """The elicitation dialog shown now (another than ``after``)."""

    def shown() -> bool:
        current = handlers.current
        dialog = current.dialog if current is not None else None
        return isinstance(dialog, ElicitationDialog) and dialog.isVisible() and dialog is not after

    runner.wait_until(shown, timeout=20)
    assert handlers.current is not None and isinstance(handlers.current.dialog, ElicitationDialog)
    return handlers.current.dialog


def _status(page: ToolPage) -> str:
    return page.result_view.running_panel.progress_label.text()


def _ask_twice(qtbot: QtBot, runner: AsyncRunner, tab: object) -> None:
    """Run ask_twice from its page and answer both rounds, checking what the dialogs and the page say."""
    page = tool_page(tab, "ask_twice")  # type: ignore[arg-type]
    handlers = _handlers(page_controller(tab))
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    first = _dialog(runner, handlers)
    assert first.round_label is not None
    assert first.round_label.text().startswith(
        f"Round 2 of a multi-round tools/call of ask_twice (at most {MAX_INPUT_ROUNDS} rounds)"
    )
    assert "input '" in first.round_label.text()  # the inputRequests key it answers
    runner.wait_until(lambda: "waiting for you" in _status(page), timeout=10)
    assert _status(page).startswith(f"Round 2 of at most {MAX_INPUT_ROUNDS} (tools/call ask_twice), waiting for you")
    assert "elicitation/create" in _status(page)
    assert first.form is not None
    first.form.set_value({"name": "Ada"})
    qtbot.mouseClick(first.accept_button, Qt.MouseButton.LeftButton)

    second = _dialog(runner, handlers, after=first)
    assert second.round_label is not None and second.round_label.text().startswith(
        "Round 3 of a multi-round tools/call"
    )
    runner.wait_until(lambda: _status(page).startswith("Round 3 of at most"), timeout=10)
    assert second.form is not None
    second.form.set_value({"correct": True})
    qtbot.mouseClick(second.accept_button, Qt.MouseButton.LeftButton)
    runner.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    result = page.result_view.result
    assert result is not None
    body = json.loads(result["content"][0]["text"])
    assert body == {"name": "Ada", "confirmation": {"action": "accept", "data": {"correct": True}}}


def page_controller(tab: object) -> ConnectionController:
    controller = getattr(tab, "controller", None)
    assert isinstance(controller, ConnectionController)
    return controller


def test_ask_twice_in_memory_names_each_round(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store)
    conn = page_controller(tab).connection
    assert conn is not None and isinstance(conn.transport, MemoryTransport)
    _ask_twice(qtbot, qasync_loop, tab)


@pytest.mark.demo_process
def test_ask_twice_over_stdio_modern(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store)
    conn = page_controller(tab).connection
    assert conn is not None and isinstance(conn.transport, StdioTransport)
    _ask_twice(qtbot, qasync_loop, tab)


def test_a_round_sent_says_so_until_the_server_answers(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    """After the person answered, the page says the round was sent (the demo answers at once, so the
    panel is checked through the note it was given, not timing)."""
    tab = _modern_tab(qasync_loop, make_window, store)
    page = tool_page(tab, "ask_twice")  # type: ignore[arg-type]
    handlers = _handlers(page_controller(tab))
    seen: list[str] = []
    panel = page.result_view.running_panel
    original = panel.set_round

    def spy(note: object) -> None:
        original(note)  # type: ignore[arg-type]
        seen.append(panel.progress_label.text())

    panel.set_round = spy  # type: ignore[method-assign]
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    first = _dialog(qasync_loop, handlers)
    assert first.form is not None
    first.form.set_value({"name": "Grace"})
    qtbot.mouseClick(first.accept_button, Qt.MouseButton.LeftButton)
    second = _dialog(qasync_loop, handlers, after=first)
    qtbot.mouseClick(second.decline_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert any(text.startswith("Round 2 sent (tools/call ask_twice): waiting for the server") for text in seen), seen
    assert any(text.startswith("Round 3 sent") for text in seen), seen


def test_greet_me_prompt_says_which_round_waits_for_you(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store, show="prompts")
    page = prompt_page(tab, "greet_me")  # type: ignore[arg-type]
    handlers = _handlers(page_controller(tab))
    qtbot.mouseClick(page.get_button, Qt.MouseButton.LeftButton)
    dialog = _dialog(qasync_loop, handlers)
    assert dialog.round_label is not None
    assert dialog.round_label.text().startswith("Round 2 of a multi-round prompts/get of greet_me")
    assert "input 'name'" in dialog.round_label.text()
    qasync_loop.wait_until(lambda: "waiting for you" in page.status_label.text(), timeout=10)
    assert page.status_label.text().startswith(f"Round 2 of at most {MAX_INPUT_ROUNDS} (prompts/get greet_me)")
    assert dialog.form is not None
    dialog.form.set_value({"name": "Linus"})
    qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result is not None
    assert "greeting for Linus" in json.dumps(page.result)
    assert "message" in page.status_label.text()  # "1 message · …", the round text replaced


ENDLESS = Path(__file__).resolve().parent.parent / "servers" / "endless_input.py"


def _endless_tab(runner: AsyncRunner, make_window: MakeWindow, store: ProfileStore, show: str) -> object:
    profile = store.create(
        Profile(
            name="endless input",
            stdio=StdioSettings(command=sys.executable, args=[str(ENDLESS)]),
            protocol_era="modern",
        )
    )
    tab = connect_tab(make_window(), runner, profile.id, show=show)  # type: ignore[arg-type]
    conn = page_controller(tab).connection
    assert conn is not None and conn.server is not None and conn.server.era is Era.MODERN
    return tab


def test_a_tool_whose_server_keeps_asking_ends_with_the_round_limit_in_words(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _endless_tab(qasync_loop, make_window, store, "tools")
    page = tool_page(tab, "loop")  # type: ignore[arg-type]
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=30)
    banner = page.failure_banner
    assert banner is not None
    assert banner.text().startswith(f"The server kept asking for input: gave up after {MAX_INPUT_ROUNDS} rounds")
    text = banner.text()
    assert "tools/call loop was answered input_required in every one of its" in text
    assert f"at most {MAX_INPUT_ROUNDS} rounds" in text and "Traceback" not in text
    assert "tools/call: tools/call" not in text  # the method is said once
    assert page.outcome() == "failed"


def test_a_prompt_whose_server_keeps_asking_ends_with_the_round_limit_in_words(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _endless_tab(qasync_loop, make_window, store, "prompts")
    page = prompt_page(tab, "loop_prompt")  # type: ignore[arg-type]
    qtbot.mouseClick(page.get_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=30)
    assert page.error_banner is not None
    assert page.error_banner.text().startswith("The server kept asking for input: gave up after")
    assert "prompts/get loop_prompt" in page.error_banner.text()
    assert page.status_label.text() == "Failed"


def test_rounds_of_two_requests_queue_like_server_requests(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    """A tool's round and a prompt's round asked at once: one dialog at a time, the other counted as pending
    in the tab's indicator and on the open dialog; each dialog names its own request."""
    tab = _modern_tab(qasync_loop, make_window, store)
    handlers = _handlers(page_controller(tab))
    indicator = tab.requests_indicator  # type: ignore[attr-defined]
    tool = tool_page(tab, "ask_all_at_once")  # type: ignore[arg-type]
    qtbot.mouseClick(tool.run_button, Qt.MouseButton.LeftButton)
    first = _dialog(qasync_loop, handlers)
    prompts = tab.prompts  # type: ignore[attr-defined]
    qasync_loop.wait_until(lambda: prompts.browser.model.total() > 0, timeout=20)
    prompt = prompt_page(tab, "greet_me")  # type: ignore[arg-type]
    assert prompt.get()
    qasync_loop.wait_until(lambda: handlers.pending == 2, timeout=20)
    assert indicator.pending_button.text() == "2 pending" and not indicator.pending_button.isHidden()
    assert first.queue_label.text() == "1 more waiting"
    assert first.round_label is not None and "tools/call of ask_all_at_once" in first.round_label.text()
    assert first.form is not None
    first.form.set_value({"color": "green"})
    qtbot.mouseClick(first.accept_button, Qt.MouseButton.LeftButton)
    # the prompt's round was asked first among those still waiting: its dialog comes next, in arrival order
    second = _dialog(qasync_loop, handlers, after=first)
    assert second.round_label is not None and "prompts/get of greet_me" in second.round_label.text()
    assert second.form is not None
    second.form.set_value({"name": "Barbara"})
    qtbot.mouseClick(second.accept_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not prompt.running, timeout=20)
    assert prompt.result is not None and "Barbara" in json.dumps(prompt.result)

    # then the tool's sampling input of the same round, in the sampling dialog, which names the round too
    def sampling_shown() -> bool:
        current = handlers.current
        return current is not None and current.kind == "sampling" and current.dialog is not None

    qasync_loop.wait_until(sampling_shown, timeout=20)
    assert handlers.current is not None and handlers.current.dialog is not None
    sampling = handlers.current.dialog
    assert sampling.round_label is not None
    assert sampling.round_label.text().startswith("Round 2 of a multi-round tools/call of ask_all_at_once")
    assert "sampling/createMessage" in _status(tool)
