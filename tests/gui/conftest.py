"""GUI test set-up: per-test config/data dirs, a qasync loop on pytest-qt's QApplication, Qt warnings fail,
the demo server in this process, and the fixtures every GUI test file may use (their types and the shared
helpers are in ``guikit.py``).

``qasync_loop`` installs one ``qasync.QEventLoop`` marked as already running: asyncio callbacks then run
whenever Qt processes events (``qtbot.waitUntil``, ``qtbot.waitSignal``), exactly as in the app, where
Qt's loop is the asyncio loop. ``AsyncRunner.run(coro, timeout)`` drives a coroutine to completion.

The window's built-in "Demo server" profile, and saved profiles that run ``python -m inspector.demo`` over
stdio, run the demo **in this process** (``MemoryTransport``, no subprocess); a test about the demo's process
marks itself ``@pytest.mark.demo_process``. Other profiles (misbehaving servers, server-everything) are real
processes.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("guikit")

import shiboken6  # noqa: E402
from guikit import (  # noqa: E402
    ALL_CAPS,
    TARGET,
    AsyncRunner,
    MakeController,
    MakeWindow,
    Misbehaving,
    ServerSpec,
    fill_mixed,
    misbehaving_profile,
    transport_factory,
    wait_settled,
)
from PySide6.QtCore import QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402

from inspector.demo.eras import DEFAULT_ERA, ERAS  # noqa: E402
from inspector.demo.in_memory import demo_transport  # noqa: E402
from inspector.store.profiles import Profile, ProfileStore  # noqa: E402
from inspector.store.recording import Recording  # noqa: E402
from inspector.transports.base import Transport  # noqa: E402
from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState  # noqa: E402
from inspector.ui.log import LogPanel  # noqa: E402
from inspector.ui.widgets.theme import restore_look  # noqa: E402
from inspector.ui.window import profile_bridge  # noqa: E402
from inspector.ui.window.app import finish_event_loop, new_event_loop  # noqa: E402
from inspector.ui.window.main_window import MainWindow  # noqa: E402
from inspector.ui.window.settings import UiSettings  # noqa: E402

GUI_DIR = Path(__file__).resolve().parent

# The offscreen platform cannot size native windows; Qt says so on every top-level resize. Not our bug.
QT_NOISE = (r"This plugin does not support propagateSizeHints\(\)",)
# The demo runs in this process: the SDK flags its use of logging, sampling and roots (deprecated in
# 2026-07-28, shown by the demo on purpose) with this warning, which the demo's own process ignores too.
SDK_DEPRECATION = "ignore::mcp.shared.exceptions.MCPDeprecationWarning"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "demo_process: the window's Demo server profile runs the demo as a process (not in memory)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every GUI test fails on a Qt warning (pytest-qt's qt_log_level_fail, set per item)."""
    for item in items:
        if GUI_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(*QT_NOISE))
            item.add_marker(pytest.mark.filterwarnings(SDK_DEPRECATION))


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
        runner.run(finish_event_loop(), timeout=10)  # open async generators closed on the loop, hooks removed
        # Not loop.stop(): that calls QApplication.exit(), which (with no exec() running) leaves Qt's
        # "quit now" flag set and makes every later nested event loop (qtbot.wait*) return at once.
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        # (qasync connected aboutToQuit to this loop; not disconnected: PySide6 6.12's disconnect() leaks)
        asyncio.events._set_running_loop(None)
        loop.close()
        # collect the closed loop's Qt timers here, on the GUI thread (not later on a helper thread)
        gc.collect()
        asyncio.set_event_loop(None)


@pytest.fixture(autouse=True)
def _restore_the_look() -> Iterator[None]:
    """Each test starts with the application's own look: a window applies its saved theme and font size to the
    whole (shared) application."""
    yield
    restore_look()


@pytest.fixture(autouse=True)
def _collect_on_gui_thread() -> Iterator[None]:
    """Collect garbage on the GUI thread after each test (torn down after ``qasync_loop`` and ``qtbot``).

    A closed qasync loop is garbage in reference cycles, and its timer object (a QObject with live Qt timers)
    must be destroyed on the GUI thread; left to the cyclic collector it may die on a background thread
    (the child watcher, the recording's checkpointer), which Qt reports and can crash on.
    """
    yield
    gc.collect()


def _in_memory_demo(profile: Profile) -> Callable[[], Transport] | None:
    """The in-memory twin of a profile that runs the bundled demo over stdio (None: any other profile).

    The built-in Demo server profile, and saved profiles whose command is exactly this interpreter with
    ``-m inspector.demo`` and at most ``--era`` / ``--clock-interval`` (no environment variables)."""
    if profile.id == profile_bridge.DEMO_PROFILE_ID:
        return demo_transport
    stdio = profile.stdio
    if profile.transport != "stdio" or stdio.command != sys.executable or stdio.env or stdio.cwd:
        return None
    args = list(stdio.args)
    if args[:2] != ["-m", "inspector.demo"] or len(args) % 2:
        return None
    options = dict(zip(args[2::2], args[3::2], strict=True))
    era = options.pop("--era", DEFAULT_ERA)
    clock = options.pop("--clock-interval", "2.0")
    if options or era not in ERAS:
        return None
    return partial(demo_transport, era, clock_interval=float(clock))


@pytest.fixture(autouse=True)
def _demo_in_memory(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Profiles that run the bundled demo connect to it in this process (unless the test is ``demo_process``)."""
    if request.node.get_closest_marker("demo_process") is not None:
        return
    of_profile = profile_bridge._transport_factory

    def factory(profile: Profile) -> Callable[[], Transport]:
        in_memory = _in_memory_demo(profile)
        return in_memory if in_memory is not None else of_profile(profile)

    monkeypatch.setattr(profile_bridge, "_transport_factory", factory)


@pytest.fixture
def make_controller(qasync_loop: AsyncRunner, qtbot: QtBot) -> Iterator[MakeController]:
    """ConnectionControllers connected (asserted) to a server (see ``guikit.MakeController``); all are closed
    and deleted after the test."""
    controllers: list[ConnectionController] = []

    def make(
        server: ServerSpec = None,
        label: str = "Demo server",
        *,
        handlers: Any = None,
        capabilities: dict[str, Any] | None = None,
        settings: ConnectionSettings | None = None,
        era: str = "legacy",
    ) -> ConnectionController:
        if settings is None:
            if capabilities is None:
                capabilities = ALL_CAPS if handlers is not None else {}
            # the handshake era by default: these tests are about the window's mechanics in it (the default,
            # auto, would speak 2026-07-28 to the demo); tests of the modern era say so themselves
            settings = ConnectionSettings(
                label=label,
                transport_factory=transport_factory(server),
                capabilities=capabilities,
                handlers=handlers,
                protocol_era=era,
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
    qtbot.wait(20)
    # Delete the controllers (and their handlers) here, on the GUI thread: left to Python's cyclic garbage
    # collector they could be destroyed on whatever thread allocates next (a QTimer must not be).
    for controller in controllers:
        handlers = controller.settings.handlers
        if isinstance(handlers, QObject) and handlers.parent() is None:
            handlers.setParent(controller)
        shiboken6.delete(controller)


@pytest.fixture
def store() -> ProfileStore:
    return ProfileStore()


@pytest.fixture
def ui_settings(dirs: dict[str, Path]) -> UiSettings:
    return UiSettings(dirs["config"] / "window-test.ini")


@pytest.fixture
def make_window(
    qtbot: QtBot, qasync_loop: AsyncRunner, store: ProfileStore, ui_settings: UiSettings
) -> Iterator[MakeWindow]:
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


@pytest.fixture
def misbehaving() -> Misbehaving:
    """``misbehaving(name, mode="none", timeout=30.0)``: a profile running tests/servers/misbehaving.py."""
    return misbehaving_profile


# -- the message log ---------------------------------------------------------------------------------------


@pytest.fixture
def log_recording(tmp_path: Path) -> Iterator[Recording]:
    rec = Recording.create(tmp_path, label="gui-test", target=TARGET)
    yield rec
    rec.close()


@pytest.fixture
def log_mixed(log_recording: Recording) -> tuple[Recording, dict[str, int]]:
    return log_recording, fill_mixed(log_recording)


@pytest.fixture
def log_panel(qtbot: QtBot, log_mixed: tuple[Recording, dict[str, int]]) -> Iterator[LogPanel]:
    rec, _ = log_mixed
    widget = LogPanel(rec)
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    qtbot.waitExposed(widget)
    wait_settled(qtbot, widget.model)
    yield widget
    widget.release()
