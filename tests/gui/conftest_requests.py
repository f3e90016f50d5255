"""Fixtures for the server-request GUI tests (loaded with ``pytest_plugins = ["conftest_requests"]``).

``live(handlers, capabilities=ALL_CAPS, command=DEMO)`` connects a ConnectionController whose settings use the
given handlers (normally ``GuiRequestHandlers``) to a real server and closes it after the test.
``start_call(runner, controller, tool, args)`` calls a tool as a task, so the test can drive the dialog meanwhile.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from inspector.store.canned_replies import CannedReplies
from inspector.store.recording import RecordFilter
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState
from inspector.ui.server_requests import GuiRequestHandlers

DEMO = [sys.executable, "-m", "inspector.demo"]
MISBEHAVING = Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py"
ALL_CAPS: dict[str, Any] = {"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": True}}
SCREENSHOTS = Path("/tmp")

Live = Callable[..., ConnectionController]


def misbehaving(mode: str) -> list[str]:
    return [sys.executable, str(MISBEHAVING), "--mode", mode]


def make_handlers(tmp_path: Path, **kwargs: Any) -> GuiRequestHandlers:
    kwargs.setdefault("label", "Demo server")
    kwargs.setdefault("capabilities", ALL_CAPS)
    kwargs.setdefault("canned", CannedReplies(tmp_path / "canned.json"))
    return GuiRequestHandlers(**kwargs)


@pytest.fixture(autouse=True)
def _collect_on_gui_thread() -> Iterator[None]:
    """Collect garbage on the GUI thread after each test (torn down after ``qasync_loop``).

    A closed qasync loop is garbage in reference cycles, and its timer object (a QObject with live Qt timers)
    must be destroyed on the GUI thread; left to the cyclic collector it may die on a background thread
    (the child watcher, the recording's checkpointer), which Qt reports and can crash on.
    """
    yield
    gc.collect()


@pytest.fixture
def live(qasync_loop: Any, qtbot: QtBot) -> Iterator[Live]:
    controllers: list[ConnectionController] = []

    def connect(
        handlers: Any = None,
        capabilities: dict[str, Any] | None = None,
        command: list[str] | None = None,
        settings: ConnectionSettings | None = None,
    ) -> ConnectionController:
        argv = command or DEMO
        if settings is None:
            settings = ConnectionSettings(
                label="Demo server",
                transport_factory=lambda: StdioTransport(argv[0], argv[1:]),
                capabilities=ALL_CAPS if capabilities is None else capabilities,
                handlers=handlers,
                protocol_era="legacy",  # server requests mid-call: the handshake era's mechanics (see conftest.py)
            )
        controller = ConnectionController(settings)
        controllers.append(controller)
        controller.start()
        qasync_loop.wait_state(controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
        assert controller.state is ConnectionState.CONNECTED, controller.failure
        return controller

    yield connect
    for controller in controllers:
        qasync_loop.run(controller.aclose(), timeout=30)
    qtbot.wait(20)
    # Delete the controllers (and their handlers) here, on the GUI thread: left to Python's cyclic garbage
    # collector they could be destroyed on whatever thread allocates next (a QTimer must not be).
    for controller in controllers:
        handlers = controller.settings.handlers
        if isinstance(handlers, QObject) and handlers.parent() is None:
            handlers.setParent(controller)
        shiboken6.delete(controller)


def start_call(
    runner: Any, controller: ConnectionController, tool: str, arguments: dict[str, Any] | None = None
) -> asyncio.Task[Any]:
    conn = controller.connection
    assert conn is not None
    return runner.loop.create_task(conn.call_tool(tool, arguments or {}))


def wait_dialog(runner: Any, handlers: GuiRequestHandlers, kind: type[QDialog], timeout: float = 30.0) -> Any:
    """The dialog the handlers show now (waits until one of ``kind`` is visible)."""

    def shown() -> bool:
        current = handlers.current
        return current is not None and isinstance(current.dialog, kind) and current.dialog.isVisible()

    runner.wait_until(shown, timeout)
    assert handlers.current is not None
    return handlers.current.dialog


def track_closing(handlers: GuiRequestHandlers) -> list[tuple[str | None, bool]]:
    """(withdrawn reason, decided) of every dialog the handlers open, recorded when it closes
    (the dialogs are deleted afterwards, so tests must not touch them any more)."""
    closed: list[tuple[str | None, bool]] = []

    def opened(dialog: Any) -> None:
        dialog.finished.connect(lambda _code, d=dialog: closed.append((d.withdrawn, d.decided)))

    handlers.dialogOpened.connect(opened)
    return closed


def finish(runner: Any, task: asyncio.Task[Any], timeout: float = 30.0) -> Any:
    runner.wait_until(task.done, timeout)
    return task.result()


def result_text(result: Any) -> str:
    content = result.get("content") or []
    return "\n".join(block.get("text", "") for block in content if isinstance(block, dict))


def result_json(result: Any) -> Any:
    return json.loads(result["content"][0]["text"])


def wire_rows(controller: ConnectionController, kind: str, direction: str, method: str | None = None) -> list[Any]:
    recording = controller.recording
    assert recording is not None
    recording.flush()
    f = RecordFilter(kinds=[kind], directions=[direction], methods=[method] if method else None)
    return recording.rows(f, 0, 1000)


def save_screenshot(dialog: QDialog, name: str) -> Path:
    path = SCREENSHOTS / name
    assert dialog.grab().save(str(path)), path
    return path
