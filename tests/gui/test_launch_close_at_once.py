"""Closing the window the moment the demo has connected: the tab ends ``closed``, not ``exited``.

The app runs its loop twice (until the window closes, then the shutdown). qasync's ``run_until_complete`` ends
with one more ``processEvents`` after the loop stopped; the task steps due then (the writer sending what the
closing window queued) ran with no running loop and the connection died of "RuntimeError: no running event
loop". ``app.run_until_complete`` keeps every step inside the running loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.app import main, new_event_loop, run_until_complete
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow


@pytest.mark.demo_process  # the real bootstrap: --demo starts the demo's process
@pytest.mark.parametrize("how", ["without_asking", "answering_the_question"])
def test_closing_right_after_the_demo_connects_closes_the_tab(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    seen: dict[str, Any] = {"states": []}
    connect_demo = MainWindow.connect_demo

    def connecting(window: MainWindow) -> ConnectionTab | None:
        tab = connect_demo(window)
        assert tab is not None
        seen["tab"], seen["window"] = tab, window

        def on_state(state: ConnectionState) -> None:
            seen["states"].append(state)
            if state is not ConnectionState.CONNECTED or len(seen["states"]) > 1:
                return
            if how == "without_asking":
                QTimer.singleShot(0, window.close_without_asking)
            else:
                window.close()  # a live connection: the window asks first
                box = window.quit_box
                assert box is not None
                QTimer.singleShot(0, box.accept)

        tab.controller.stateChanged.connect(on_state)
        return tab

    monkeypatch.setattr(MainWindow, "connect_demo", connecting)
    net = QTimer()
    net.setSingleShot(True)
    net.timeout.connect(lambda: [w.close_without_asking() for w in qapp.topLevelWidgets() if isinstance(w, MainWindow)])
    net.start(60_000)  # never hang the test run
    try:
        assert main(["--demo"]) == 0
    finally:
        net.stop()
    tab: ConnectionTab = seen["tab"]
    assert seen["states"][0] is ConnectionState.CONNECTED, seen["states"]
    assert tab.controller.failure is None, tab.controller.failure
    assert tab.controller.state is ConnectionState.CLOSED, seen["states"]
    seen["window"].deleteLater()


def test_every_step_runs_inside_the_running_loop(qapp: QApplication) -> None:
    """A step that becomes due as the first run ends runs in the next one, with the loop running."""
    loop = new_event_loop(qapp)
    asyncio.set_event_loop(loop)
    steps: list[asyncio.AbstractEventLoop | None] = []

    async def late() -> None:
        try:
            steps.append(asyncio.get_running_loop())
        except RuntimeError:
            steps.append(None)

    async def first() -> None:
        await asyncio.sleep(0)

    async def second() -> None:
        while not steps:
            await asyncio.sleep(0.01)

    try:
        task = loop.create_task(first())
        # called before the runner's own done callback (which stops the loop): the late task's first step is
        # queued right behind the stop
        task.add_done_callback(lambda _task: loop.create_task(late()))
        run_until_complete(loop, task)
        assert steps == []  # not run after the loop stopped
        run_until_complete(loop, asyncio.wait_for(second(), 5))
        assert steps == [loop]
    finally:
        loop.close()
        asyncio.set_event_loop(None)
