"""GUI test set-up: per-test config/data dirs, a qasync loop on pytest-qt's QApplication, Qt warnings fail.

``qasync_loop`` installs one ``qasync.QEventLoop`` marked as already running: asyncio callbacks then run
whenever Qt processes events (``qtbot.waitUntil``, ``qtbot.waitSignal``), exactly as in the app, where
Qt's loop is the asyncio loop. ``AsyncRunner.run(coro, timeout)`` drives a coroutine to completion.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState
from inspector.ui.window.app import new_event_loop
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.settings import UiSettings

T = TypeVar("T")


GUI_DIR = Path(__file__).resolve().parent
MISBEHAVING = GUI_DIR.parent / "servers" / "misbehaving.py"

# The offscreen platform cannot size native windows; Qt says so on every top-level resize. Not our bug.
QT_NOISE = (r"This plugin does not support propagateSizeHints\(\)",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every GUI test fails on a Qt warning (pytest-qt's qt_log_level_fail, set per item)."""
    for item in items:
        if GUI_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(*QT_NOISE))


@pytest.fixture(autouse=True)
def _own_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Each GUI test gets its own config and data dirs (profiles, window state, recordings)."""
    dirs = {"config": tmp_path / "config", "data": tmp_path / "data"}
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(dirs["config"]))
    monkeypatch.setenv("MCP_INSPECTOR_DATA_DIR", str(dirs["data"]))
    return dirs


@pytest.fixture
def dirs(_own_dirs: dict[str, Path]) -> dict[str, Path]:
    return _own_dirs


class AsyncRunner:
    """Runs coroutines on the test's qasync loop while Qt keeps processing events."""

    def __init__(self, loop: asyncio.AbstractEventLoop, qtbot: QtBot) -> None:
        self.loop = loop
        self.qtbot = qtbot

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        task = self.loop.create_task(coro)
        try:
            self.qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
        except Exception:
            task.cancel()
            raise
        return task.result()

    def wait_until(self, predicate: Any, timeout: float = 30.0) -> None:
        self.qtbot.waitUntil(lambda: bool(predicate()), timeout=int(timeout * 1000))

    def wait_state(self, controller: Any, *states: ConnectionState, timeout: float = 60.0) -> None:
        self.wait_until(lambda: controller.state in states, timeout)


@pytest.fixture
def qasync_loop(qapp: QApplication, qtbot: QtBot) -> Iterator[AsyncRunner]:
    loop = new_event_loop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    runner = AsyncRunner(loop, qtbot)
    try:
        yield runner
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=15000)
        # Not loop.stop(): that calls QApplication.exit(), which (with no exec() running) leaves Qt's
        # "quit now" flag set and makes every later nested event loop (qtbot.wait*) return at once.
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        # (qasync connected aboutToQuit to this loop; not disconnected: PySide6 6.12's disconnect() leaks)
        asyncio.events._set_running_loop(None)
        loop.close()
        # collect the closed loop's Qt timers here, on the GUI thread (not later on a helper thread)
        gc.collect()
        asyncio.set_event_loop(None)


@pytest.fixture
def make_controller(qasync_loop: AsyncRunner) -> Iterator[Callable[..., ConnectionController]]:
    """Connect a ConnectionController to ``argv`` over stdio (asserted connected); all are closed afterwards."""
    controllers: list[ConnectionController] = []

    def make(argv: list[str], label: str = "server") -> ConnectionController:
        # the handshake era: these fixtures test the window's handshake-era mechanics (the default, auto, would
        # speak 2026-07-28 to the demo); tests of the modern era say so themselves
        settings = ConnectionSettings(
            label=label, transport_factory=lambda: StdioTransport(argv[0], argv[1:]), protocol_era="legacy"
        )
        controller = ConnectionController(settings)
        controllers.append(controller)
        controller.start()
        qasync_loop.wait_state(controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
        assert controller.state is ConnectionState.CONNECTED, controller.failure
        return controller

    yield make
    for controller in controllers:
        qasync_loop.run(controller.aclose(), timeout=30)


@pytest.fixture
def store() -> ProfileStore:
    return ProfileStore()


@pytest.fixture
def ui_settings(dirs: dict[str, Path]) -> UiSettings:
    return UiSettings(dirs["config"] / "window-test.ini")


@pytest.fixture
def make_window(qtbot: QtBot, qasync_loop: AsyncRunner, store: ProfileStore, ui_settings: UiSettings) -> Iterator[Any]:
    """Builds MainWindows (shown); their connections are shut down and the windows deleted after the test."""
    windows: list[MainWindow] = []

    def make(profile_store: ProfileStore | None = None, settings: UiSettings | None = None) -> MainWindow:
        window = MainWindow(
            profile_store if profile_store is not None else store, settings if settings is not None else ui_settings
        )
        window.show()
        qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    # not qtbot.addWidget: pytest-qt would delete the windows before this teardown could close their connections
    for window in windows:
        qasync_loop.run(window.shutdown(), timeout=30)
        window.close()
        window.deleteLater()
    qtbot.wait(10)


def _misbehaving_profile(name: str, mode: str = "none", *, timeout: float = 30.0) -> Profile:
    return Profile(
        name=name,
        stdio=StdioSettings(command=sys.executable, args=[str(MISBEHAVING), "--mode", mode]),
        timeouts=TimeoutSettings(request=timeout),
    )


@pytest.fixture
def misbehaving() -> Callable[..., Profile]:
    """``misbehaving(name, mode="none", timeout=30.0)``: a profile running tests/servers/misbehaving.py."""
    return _misbehaving_profile
