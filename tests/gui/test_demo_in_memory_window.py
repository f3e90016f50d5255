"""The GUI tests' demo server: in this process by default (the window's Demo server profile and
``make_controller()``), a real process when a test says ``demo_process`` or passes a command line."""

from __future__ import annotations

import sys

import pytest
from guikit import DEMO_COMMAND, AsyncRunner, MakeController, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.versions import Era
from inspector.store.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.transports.memory import MemoryTransport
from inspector.transports.stdio import StdioTransport
from inspector.ui.viewers import ResultState


def test_the_window_demo_runs_in_this_process(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    conn = tab.controller.connection
    assert conn is not None
    assert isinstance(conn.transport, MemoryTransport) and conn.transport.is_running
    assert conn.server is not None and conn.server.era is Era.MODERN  # the profile asks for auto
    page = tool_page(tab, "echo")
    page.form.set_value({"message": "through the window, in memory"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    # the server's stderr reaches the tab's console as a process's would
    slow = tool_page(tab, "slow")
    slow.form.set_value({"seconds": 20, "steps": 40})
    qtbot.mouseClick(slow.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: slow.result_view.progress_bar.value() > 0, timeout=15)
    qtbot.mouseClick(slow.result_view.cancel_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: "slow cancelled after" in tab.stderr_console.text.toPlainText(), timeout=10)
    transport = conn.transport
    qasync_loop.run(tab.controller.aclose())
    assert not transport.is_running


@pytest.mark.demo_process
def test_demo_process_marks_a_test_whose_demo_is_a_process(qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    conn = tab.controller.connection
    assert conn is not None
    assert isinstance(conn.transport, StdioTransport) and isinstance(conn.transport.pid, int)


def test_make_controller_speaks_either_era_to_either_demo(
    qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    in_memory = make_controller()
    modern = make_controller(era="auto")
    process = make_controller(DEMO_COMMAND)
    for controller, transport, era in (
        (in_memory, MemoryTransport, Era.HANDSHAKE),
        (modern, MemoryTransport, Era.MODERN),
        (process, StdioTransport, Era.HANDSHAKE),
    ):
        conn = controller.connection
        assert conn is not None and isinstance(conn.transport, transport)
        assert conn.server is not None and conn.server.era is era
        result = qasync_loop.run(conn.call_tool("add", {"a": 1, "b": 2}))
        assert result["structuredContent"] == {"sum": 3}


@pytest.mark.parametrize(
    ("args", "env", "in_memory", "era"),
    [
        (["-m", "inspector.demo", "--era", "legacy"], [], True, Era.HANDSHAKE),
        (["-m", "inspector.demo", "--era", "modern", "--clock-interval", "0.5"], [], True, Era.MODERN),
        (["-m", "inspector.demo"], [EnvVar(name="DEMO_FLAG", value="1")], False, Era.MODERN),
    ],
)
def test_saved_profiles_running_the_demo_run_it_in_memory(
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    args: list[str],
    env: list[EnvVar],
    in_memory: bool,
    era: Era,
) -> None:
    """Exactly the demo's command line runs in memory (with its --era); anything more (here: an environment
    variable the process would see) is a real process."""
    profile = store.create(Profile(name="my demo", stdio=StdioSettings(command=sys.executable, args=args, env=env)))
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    conn = tab.controller.connection
    assert conn is not None and conn.server is not None
    assert isinstance(conn.transport, MemoryTransport if in_memory else StdioTransport)
    assert conn.server.era is era
