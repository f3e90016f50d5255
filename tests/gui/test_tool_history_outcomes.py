"""Tool history rows show the date, the outcome (ok / isError / the JSON-RPC error code) and the duration besides
the arguments; entries of an older history file (no outcome) still show; the model passes qtmodeltester."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from pytestqt.qtbot import QtBot

from inspector.store.history import ArgumentHistory, HistoryEntry
from inspector.ui.explore.catalog.model import HistoryModel, outcome_icon
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.viewers import ResultState


def _run(qtbot: QtBot, runner: AsyncRunner, page: ToolPage, arguments: dict[str, Any]) -> ResultState:
    runner.wait_until(lambda: page._form is not None, timeout=5)
    page.form.set_value(arguments)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.running, page.validation_label.text()
    runner.wait_until(lambda: not page.running, timeout=30)
    return page.result_view.state()


def _rows(page: ToolPage) -> list[str]:
    model = page.history_pane.model
    return [str(model.data(model.index(row, 0))) for row in range(model.rowCount())]


def test_history_rows_show_date_outcome_and_duration(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    today = datetime.datetime.now().strftime("%b %d")

    echo = tool_page(tab, "echo")
    assert _run(qtbot, qasync_loop, echo, {"message": "hello"}) is ResultState.SUCCESS
    (row,) = _rows(echo)
    assert row.startswith(today) and "  ·  ok · " in row and " ms" in row and '"hello"' in row

    failing = tool_page(tab, "business_error")
    assert _run(qtbot, qasync_loop, failing, {"reason": "Insufficient funds"}) is ResultState.TOOL_ERROR
    assert "  ·  isError · " in _rows(failing)[0]

    protocol = tool_page(tab, "protocol_error")
    assert _run(qtbot, qasync_loop, protocol, {"code": -32602, "message": "nope"}) is ResultState.PROTOCOL_ERROR
    (row,) = _rows(protocol)
    assert "error -32602 · " in row
    tooltip = str(
        protocol.history_pane.model.data(protocol.history_pane.model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    )
    assert "error -32602" in tooltip and datetime.date.today().isoformat() in tooltip

    # kept on disk with the outcome, next to the arguments
    saved = json.loads(tab.tools.history.path.read_text(encoding="utf-8"))["tools"]
    assert saved["business_error"][0]["outcome"] == "isError"
    assert saved["echo"][0]["duration"] >= 0 and saved["echo"][0]["arguments"] == {"message": "hello"}
    assert tab.tools.history.entries("protocol_error")[0].outcome == "error -32602"


def test_old_entries_without_outcome_and_the_model(qtbot: QtBot, qtmodeltester: Any, tmp_path: Path) -> None:
    history = ArgumentHistory("srv", tmp_path)
    history.path.parent.mkdir(parents=True, exist_ok=True)
    old = {"version": 1, "server": "srv", "tools": {"t": [{"at": 1700000000.0, "arguments": {"a": 1}}]}}
    history.path.write_text(json.dumps(old), encoding="utf-8")
    history = ArgumentHistory("srv", tmp_path)
    fresh = history.record("t", {"a": 2})
    history.set_outcome("t", fresh, "timed out", 60.0)
    model = HistoryModel()
    model.set_entries([*history.entries("t"), HistoryEntry({"b": 1}, 1700000001.0, outcome="failed")])
    qtmodeltester.check(model)
    rows = [str(model.data(model.index(row, 0))) for row in range(model.rowCount())]
    assert "timed out · 1 min 00 s" in rows[0]
    assert rows[1].startswith(datetime.datetime.fromtimestamp(1700000000.0).strftime("%b %d %H:%M:%S"))
    assert "no outcome recorded" in rows[1] and '{"a": 1}' in rows[1]
    assert "  ·  failed" in rows[2]
    # the outcome is marked by an icon of the set (resources/icons/ui), in the outcome's tone: no glyph
    assert [outcome_icon(model.entry(row).outcome) for row in range(3)] == [  # type: ignore[union-attr]
        ("clock", "warning"),
        None,
        ("warning", "error"),
    ]
    assert outcome_icon("ok") == ("check", "ok") and outcome_icon("error -32602") == ("warning", "error")
    icon = model.data(model.index(0, 0), Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert model.data(model.index(1, 0), Qt.ItemDataRole.DecorationRole) is None
    assert not any(mark in row for row in rows for mark in "✓✗⚠⊘⏱")
    assert model.data(model.index(2, 0), Qt.ItemDataRole.ForegroundRole) is not None
    assert model.data(model.index(1, 0), Qt.ItemDataRole.ForegroundRole) is None
