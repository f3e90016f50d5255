"""Fixtures and helpers for the message-log GUI tests (loaded with ``pytest_plugins = ["conftest_log"]``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import Recording
from inspector.transports.base import StderrLine, TransportNote
from inspector.ui.log import LogPanel
from inspector.ui.log.model import LogTableModel

TARGET = "python -m inspector.demo --flag 'two words'"
SCHEMA_PATH = "$.result.tools[1].inputSchema"

# Qt warnings fail the tests; the offscreen platform's note about window size hints is harmless.
QT_LOG_MARKS = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("propagateSizeHints"),
]


def frame(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def request(id_: int | str, method: str, params: Any = None, direction: Direction = Direction.OUT) -> WireMessage:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        body["params"] = params
    return WireMessage(direction, frame(body), Kind.REQUEST, method=method, id=id_)


def response(id_: int | str, result: Any, method: str, latency: float = 0.01, **kw: Any) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "id": id_, "result": result})
    return WireMessage(Direction.IN, raw, Kind.RESPONSE, method=method, id=id_, latency=latency, **kw)


def notification(method: str, params: Any, direction: Direction = Direction.IN) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "method": method, "params": params})
    return WireMessage(direction, raw, Kind.NOTIFICATION, method=method)


def fill_mixed(rec: Recording) -> dict[str, int]:
    """A session with every kind of row; returns the seqs of the interesting ones by name."""
    seqs: dict[str, int] = {}

    def add(name: str, msg: WireMessage | None = None, event: Any = None) -> None:
        if msg is not None:
            rec.record_message(msg)
        else:
            rec.record_transport(event)
        seqs[name] = rec.last_seq

    add("note", event=TransportNote("started: python -m inspector.demo (pid 4242)"))
    add("init", request(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}))
    add("stderr", event=StderrLine("INFO demo server starting"))
    add("init_resp", response(0, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}, "initialize"))
    add("initialized", WireMessage(Direction.OUT, frame({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                                   Kind.NOTIFICATION, method="notifications/initialized"))  # fmt: skip
    add("list", request(1, "tools/list"))
    diags = [
        Diagnostic(DiagnosticCode.SCHEMA, "tools/list result: Input should be a valid dictionary", path=SCHEMA_PATH),
        Diagnostic(DiagnosticCode.UNKNOWN_KEYS, "unexpected member", Severity.WARNING, path="$.result"),
    ]
    tools = [
        {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
        {"name": "add", "inputSchema": "oops"},
    ]
    add("list_resp", response(1, {"tools": tools}, "tools/list", diagnostics=diags))
    add("call", request(2, "tools/call", {"name": "echo", "arguments": {"message": "hello world"}}))
    for i in range(3):
        add(f"progress{i}", notification("notifications/progress", {"progressToken": 2, "progress": i, "total": 3}))
    add("call_resp", response(2, {"content": [{"type": "text", "text": "hello world"}]}, "tools/call", 0.25))
    add("read", request("abc", "resources/read", {"uri": "demo://missing"}))
    error = frame({"jsonrpc": "2.0", "id": "abc", "error": {"code": -32002, "message": "Resource not found"}})
    add("read_err", WireMessage(Direction.IN, error, Kind.ERROR, method="resources/read", id="abc", latency=0.002))
    invalid_diag = [Diagnostic(DiagnosticCode.INVALID_JSON, "Expecting value", raw=b'{"jsonrpc"')]
    truncated = b'{"jsonrpc":"2.0","id":9,"result":'
    add("invalid", WireMessage(Direction.IN, truncated, Kind.INVALID, diagnostics=invalid_diag))
    add("log", notification("notifications/message", {"level": "info", "data": "tool echo called"}))
    add("sampling", request(7, "sampling/createMessage", {"messages": []}, direction=Direction.IN))
    rec.flush()
    return seqs


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


def wait_settled(qtbot: QtBot, model: LogTableModel, timeout: int = 10000) -> None:
    """Wait until the model's (filtered) row list holds everything recorded."""
    qtbot.waitUntil(lambda: model.settled, timeout=timeout)


def first_item(tree: QTreeWidget) -> QTreeWidgetItem:
    item = tree.topLevelItem(0)
    assert item is not None
    return item


def shown_seqs(model: LogTableModel) -> list[int]:
    return [s for s in (model.seq_at(r) for r in range(model.rowCount())) if s is not None]
