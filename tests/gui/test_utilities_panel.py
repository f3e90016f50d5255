"""The Utilities panel against real servers: ping with round-trip times, logging/setLevel honoured by the demo's
``log_levels`` tool, the server-log view (level filter, search, detail, clear) and its behaviour with 100k
entries, capability gating (mcp-server-time declares no logging) and a reconnect re-applying the level."""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Any

from guikit import MISBEHAVING, AsyncRunner, MakeController
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.content.utilities import LOG_LEVELS, parse_log_message
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.gating import NOT_CONNECTED
from inspector.ui.explore.utilities.panel import UtilitiesPanel
from inspector.ui.explore.utilities.server_log import LogColumn, ServerLogModel, ServerLogView
from inspector.ui.viewers import JsonView, TextView


def _panel(qtbot: QtBot, controller: ConnectionController) -> UtilitiesPanel:
    panel = UtilitiesPanel(controller)
    # follow the controller as ConnectionTab._wire makes every Explore panel do
    controller.stateChanged.connect(panel.on_state)
    controller.notificationReceived.connect(panel.on_notification)
    panel.on_state(controller.state)
    qtbot.addWidget(panel)
    panel.resize(1100, 700)
    panel.show()
    return panel


def test_ping_shows_round_trip_times(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    panel = _panel(qtbot, make_controller(label="demo"))
    assert panel.ping_button.isEnabled() and panel.rtt_label.text() == "—"
    for expected in (1, 2, 3):
        qtbot.mouseClick(panel.ping_button, Qt.MouseButton.LeftButton)
        qasync_loop.wait_until(lambda n=expected: len(panel.history.samples) == n, timeout=10)  # type: ignore[misc]
        qasync_loop.wait_until(panel.ping_button.isEnabled)
    assert panel.rtt_label.text().endswith(("ms", " s"))
    assert panel.history_list.count() == 3 and "ms" in panel.history_list.item(0).text()
    assert panel.stats_label.text().startswith("min ") and "3 pings" in panel.stats_label.text()
    assert all(s.rtt is not None and 0 < s.rtt < 5 for s in panel.history.samples)


def test_logging_level_and_server_log(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_controller: MakeController,
    qtmodeltester: ModelTester,
    tmp_path: Path,
) -> None:
    controller = make_controller(label="demo")
    panel = _panel(qtbot, controller)
    log = panel.server_log
    assert panel.level_combo.isEnabled() and "logging/setLevel" in panel.level_combo.toolTip()
    conn = controller.connection
    assert conn is not None

    # everything at debug
    panel.set_level("debug")
    qasync_loop.wait_until(lambda: panel.applied_level == "debug", timeout=10)
    qasync_loop.run(conn.call_tool("log_levels", {"message": "first"}))
    qasync_loop.wait_until(lambda: len(log.model.entries) == 8 and log.model.pending == 0, timeout=10)
    assert log.shown_levels() == list(LOG_LEVELS)

    # the user picks "warning" in the combo: logging/setLevel, then only warning and above arrive
    panel.level_combo.activated.emit(LOG_LEVELS.index("warning"))
    qasync_loop.wait_until(lambda: panel.applied_level == "warning", timeout=10)
    assert "Level set to warning" in panel.level_status.text()
    qasync_loop.run(conn.call_tool("log_levels", {"message": "second"}))
    qasync_loop.wait_until(lambda: len(log.model.entries) == 13 and log.model.pending == 0, timeout=10)
    second = [e for e in log.model.entries if "second" in e.text]
    assert [e.level for e in second] == ["warning", "error", "critical", "alert", "emergency"]
    assert {e.logger for e in second} == {"inspector-demo.levels"}
    qtmodeltester.check(log.model)

    # table cells: time, level (coloured), logger, data summary
    model = log.model
    last = model.rowCount() - 1
    assert model.index(last, LogColumn.LEVEL).data() == "emergency"
    assert model.index(last, LogColumn.LEVEL).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(last, LogColumn.LOGGER).data() == "inspector-demo.levels"
    assert "second" in model.index(last, LogColumn.DATA).data()
    assert model.index(last, LogColumn.TIME).data().count(":") == 2

    # level filter (view side)
    log.level_filter.setCurrentIndex(log.level_filter.findText("error"))
    assert log.shown_levels() == ["error", "critical", "alert", "emergency"] * 2
    assert log.count_label.text() == "8 of 13 shown"
    qtmodeltester.check(log.model)
    # search (debounced)
    log.search.setText("CRITICAL")
    qasync_loop.wait_until(lambda: log.shown_levels() == ["critical", "critical"], timeout=5)
    log.search.clear()
    log.apply_filter()
    log.level_filter.setCurrentIndex(0)
    assert model.rowCount() == 13

    # detail: data pretty-printed (objects as JSON, strings as text)
    structured = next(r for r in range(model.rowCount()) if isinstance(model.entry_at(r).data, dict))  # type: ignore[union-attr]
    log.table.selectRow(structured)
    assert isinstance(log.detail_viewer, JsonView)
    assert '"level":' in log.detail_viewer.displayed_text() and "\n" in log.detail_viewer.displayed_text()
    plain = next(r for r in range(model.rowCount()) if isinstance(model.entry_at(r).data, str))  # type: ignore[union-attr]
    log.table.selectRow(plain)
    assert isinstance(log.detail_viewer, TextView) and "first" in log.detail_viewer.text()

    qtbot.mouseClick(panel.ping_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: len(panel.history.samples) == 1, timeout=10)
    log.table.selectRow(structured)
    qtbot.wait(100)
    shot = panel.grab()
    assert shot.save(str(tmp_path / "utilities_panel.png"))
    target = os.environ.get("MCP_INSPECTOR_UTILITIES_SCREENSHOT")
    if target:
        assert shot.save(target)

    log.clear_button.click()
    assert model.rowCount() == 0 and log.count_label.text() == "0 entries"


def test_level_is_applied_again_after_a_reconnect(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    controller = make_controller(label="demo")
    panel = _panel(qtbot, controller)
    panel.set_level("error")
    qasync_loop.wait_until(lambda: panel.applied_level == "error", timeout=10)
    controller.reconnect()
    qasync_loop.wait_until(lambda: panel.applied_level is None, timeout=10)
    assert not panel.ping_button.isEnabled() and panel.ping_button.toolTip() == NOT_CONNECTED
    qasync_loop.wait_state(controller, ConnectionState.CONNECTED)
    qasync_loop.wait_until(lambda: panel.applied_level == "error", timeout=10)
    conn = controller.connection
    assert conn is not None
    qasync_loop.run(conn.call_tool("log_levels", {"message": "after reconnect"}))
    log = panel.server_log
    qasync_loop.wait_until(lambda: log.model.rowCount() == 4, timeout=10)
    assert log.shown_levels() == ["error", "critical", "alert", "emergency"]


def test_gating_without_logging(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    panel = _panel(qtbot, make_controller([sys.executable, "-m", "mcp_server_time"], "time"))
    assert not panel.level_combo.isEnabled()
    assert "'logging'" in panel.level_combo.toolTip()
    assert "did not declare" in panel.level_status.text()
    assert panel.server_log.note_label.isVisible()
    qtbot.mouseClick(panel.ping_button, Qt.MouseButton.LeftButton)  # ping needs no capability
    qasync_loop.wait_until(lambda: len(panel.history.samples) == 1, timeout=10)
    assert panel.history.samples[0].rtt is not None


def test_a_flood_of_log_messages_stays_responsive(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    """misbehaving.py --mode flood sends 20,000 notifications/message before answering tools/call."""
    controller = make_controller([sys.executable, str(MISBEHAVING), "--mode", "flood", "--count", "20000"], "flood")
    panel = _panel(qtbot, controller)
    conn = controller.connection
    assert conn is not None
    ticks: list[float] = []
    timer_start = time.perf_counter()

    async def heartbeat() -> None:
        while True:
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.02)

    beat = qasync_loop.loop.create_task(heartbeat())
    qasync_loop.run(conn.call_tool("t", {"text": "go"}), timeout=120)
    model = panel.server_log.model
    qasync_loop.wait_until(lambda: len(model.entries) == 20000 and model.pending == 0, timeout=60)
    beat.cancel()
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 5, f"the loop hardly ran in {time.perf_counter() - timer_start:.1f}s"
    assert max(gaps) < 1.0, f"the event loop stalled for {max(gaps):.2f}s"
    assert model.rowCount() == 20000


def test_server_log_model_with_100k_entries(qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    view = ServerLogView()
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.show()
    model = view.model
    inserts: list[int] = []
    model.rowsInserted.connect(lambda _p, first, last: inserts.append(last - first + 1))
    started = time.perf_counter()
    for i in range(100_000):
        level = LOG_LEVELS[i % len(LOG_LEVELS)]
        data: Any = f"message {i}" if i % 2 else {"i": i, "text": f"structured {i}"}
        view.add(parse_log_message({"level": level, "logger": f"bench.{i % 7}", "data": data}, model.next_seq()))
    qtbot.waitUntil(lambda: model.pending == 0, timeout=5000)
    assert model.rowCount() == 100_000
    assert len(inserts) <= 5, "appends are coalesced into a few insertions"
    assert time.perf_counter() - started < 10
    # filtering 100k entries is quick
    started = time.perf_counter()
    view.level_filter.setCurrentIndex(view.level_filter.findText("emergency"))
    assert model.rowCount() == 12_500
    view.search.setText("structured 99")
    view.apply_filter()
    assert time.perf_counter() - started < 2.0
    assert all("structured 99" in (e.text if e else "") for e in map(model.entry_at, range(model.rowCount())))
    view.search.clear()
    view.apply_filter()
    view.level_filter.setCurrentIndex(0)
    qtbot.wait(10)
    small = ServerLogModel()
    for i in range(50):
        small.append(parse_log_message({"level": "bogus" if i == 3 else "info", "data": i}, small.next_seq()))
    small.flush()
    assert small.index(3, LogColumn.LEVEL).data() == "bogus"
    # the problem is marked by the warning icon of the UI's set (no glyph), and explained in the tooltip
    marked = small.index(3, LogColumn.LEVEL).data(Qt.ItemDataRole.DecorationRole)
    assert isinstance(marked, QIcon) and not marked.isNull()
    assert small.index(2, LogColumn.LEVEL).data(Qt.ItemDataRole.DecorationRole) is None
    assert "Problem: " in small.index(3, LogColumn.LEVEL).data(Qt.ItemDataRole.ToolTipRole)
    qtmodeltester.check(small)
