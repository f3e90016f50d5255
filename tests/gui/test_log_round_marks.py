"""The log table's Method column marks the rows of a multi-round-trip request (2026-07-28): each round's request
and answer read "tools/call · round N"; rows of one-round requests and every other row are left as they were.
Also live: the first round's rows, shown before the retry was recorded, get their mark once it is. For a
recording with a file (the table's own SQLite reader) and one in memory (the public Recording API)."""

from __future__ import annotations

from pathlib import Path

import pytest
from guikit import ALL_CAPS, AsyncRunner, MakeController, request, response, wait_settled
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording
from inspector.ui.log import LogPanel
from inspector.ui.log.model import Column, LogTableModel


def _method(model: LogTableModel, seq: int) -> str:
    row = model.row_of(seq)
    assert row is not None
    return str(model.index(row, int(Column.METHOD)).data())


def _panel(qtbot: QtBot, recording: Recording) -> LogPanel:
    panel = LogPanel(recording)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    qtbot.waitExposed(panel)
    wait_settled(qtbot, panel.model)
    return panel


def test_each_round_of_ask_twice_is_marked_and_a_plain_call_is_not(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, qtmodeltester: ModelTester
) -> None:
    controller = make_controller(era="modern", handlers=HeadlessHandlers(), capabilities=ALL_CAPS)
    conn = controller.connection
    assert conn is not None
    qasync_loop.run(conn.call_tool("ask_twice", {}))
    qasync_loop.run(conn.call_tool("add", {"a": 1, "b": 2}))
    recording = controller.recording
    assert recording is not None
    recording.flush()
    out = RecordFilter(kinds=[Kind.REQUEST], directions=[Direction.OUT], methods=["tools/call"])
    calls = [row.seq for row in recording.rows(out, 0, 100)]
    assert len(calls) == 4
    logical = recording.logical_request(calls[0])
    assert logical is not None and len(logical.rounds) == 3
    panel = _panel(qtbot, recording)
    model = panel.model
    qtmodeltester.check(model)
    for r in logical.rounds:
        assert _method(model, r.request_seq) == f"tools/call · round {r.round}"
        assert r.response_seq is not None
        assert _method(model, r.response_seq) == f"tools/call · round {r.round}"
    plain = recording.logical_request(calls[3])
    assert plain is not None and not plain.multi_round
    assert _method(model, calls[3]) == "tools/call"
    assert plain.rounds[0].response_seq is not None
    assert _method(model, plain.rounds[0].response_seq) == "tools/call"
    discover = recording.rows(RecordFilter(methods=["server/discover"]), 0, 1)[0]
    assert _method(model, discover.seq) == "server/discover"


def _input_required() -> object:
    return {"resultType": "input_required", "inputRequests": {"a": {"method": "roots/list"}}, "requestState": "s"}


@pytest.mark.parametrize("on_disk", [True, False])
def test_the_first_round_is_marked_once_its_retry_is_recorded(qtbot: QtBot, tmp_path: Path, on_disk: bool) -> None:
    recording = Recording.create(tmp_path) if on_disk else Recording.in_memory("test")
    recording.record_message(request(1, "tools/call", {"name": "ask"}))
    recording.record_message(response(1, _input_required(), "tools/call"))
    recording.record_message(request(2, "tools/list"))
    recording.record_message(response(2, {"tools": []}, "tools/list"))
    recording.flush()
    panel = _panel(qtbot, recording)
    model = panel.model
    assert [_method(model, seq) for seq in (1, 2, 3, 4)] == ["tools/call", "tools/call", "tools/list", "tools/list"]

    retry = request(3, "tools/call", {"name": "ask", "inputResponses": {"a": {"roots": []}}, "requestState": "s"})
    retry.origin, retry.round = 1, 2
    recording.record_message(retry)
    recording.record_message(response(3, {"content": []}, "tools/call"))
    recording.flush()
    panel.refresh()
    qtbot.waitUntil(lambda: model.rowCount() == 6)
    assert _method(model, 5) == "tools/call · round 2"
    assert _method(model, 6) == "tools/call · round 2"
    qtbot.waitUntil(lambda: _method(model, 1) == "tools/call · round 1")
    assert _method(model, 2) == "tools/call · round 1"
    assert [_method(model, seq) for seq in (3, 4)] == ["tools/list", "tools/list"]
    recording.close()
