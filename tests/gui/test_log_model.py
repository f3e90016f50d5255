"""LogTableModel: a virtualized table over a Recording (blocks, filters, appends, pairing tint)."""

from __future__ import annotations

from pathlib import Path

import pytest
from guikit import fill_mixed, notification, request, response, shown_seqs, wait_settled
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording
from inspector.store.recording.rows import PublicRowSource, SqlRowSource
from inspector.transports.base import HttpExchange
from inspector.ui.log.model import BLOCK, MAX_BLOCKS, Column, LogTableModel, SeqRole, SeverityRole


def test_rows_and_cells(qtbot: QtBot, log_mixed: tuple[Recording, dict[str, int]]) -> None:
    rec, seqs = log_mixed
    model = LogTableModel(rec)
    assert not model.building and model.arithmetic
    assert model.rowCount() == rec.count() == len(seqs)
    assert model.columnCount() == len(Column)

    def cell(name: str, column: Column, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = model.row_of(seqs[name])
        assert row is not None
        return model.data(model.index(row, column), role)

    assert cell("init", Column.KIND) == "request"
    assert cell("init", Column.DIRECTION) == "→"
    assert cell("init_resp", Column.DIRECTION) == "←"
    assert cell("note", Column.KIND) == "transport event"
    assert cell("stderr", Column.KIND) == "stderr"
    assert cell("stderr", Column.SUMMARY) == "INFO demo server starting"
    assert cell("read", Column.ID) == '"abc"'  # string ids are quoted, numbers are not
    assert cell("call", Column.ID) == "2"
    assert cell("call_resp", Column.LATENCY) == "250.0 ms"
    assert cell("call", Column.LATENCY) == ""
    assert cell("call", Column.METHOD) == "tools/call"
    assert cell("read_err", Column.KIND) == "error"
    assert cell("invalid", Column.KIND) == "invalid"
    assert cell("list_resp", Column.DIAGNOSTICS) == "2"
    assert cell("list_resp", Column.DIAGNOSTICS, SeverityRole) == "violation"
    assert cell("call", Column.DIAGNOSTICS) == ""
    assert cell("call", Column.SIZE) == f"{rec.get(seqs['call']).size} B"  # type: ignore[union-attr]
    assert cell("call", Column.SUMMARY) == '"params":{"name":"echo","arguments":{"message":"hello world"}}'
    assert cell("call", Column.TIME, SeqRole) == seqs["call"]
    assert model.seq_at(0) == 1 and model.row_of(1) == 0 and model.row_of(10_000) is None
    model.close()


@pytest.mark.parametrize("f", [RecordFilter(), RecordFilter(kinds=["request", "response"])], ids=["all", "filtered"])
def test_qtmodeltester(
    qtbot: QtBot, qtmodeltester: ModelTester, log_mixed: tuple[Recording, dict[str, int]], f: RecordFilter
) -> None:
    rec, _ = log_mixed
    model = LogTableModel(rec)
    model.set_filter(f)
    wait_settled(qtbot, model)
    qtmodeltester.check(model, force_py=True)  # type: ignore[no-untyped-call]
    # appends while the tester watches the signals
    rec.record_message(request(50, "tools/call", {"name": "echo"}))
    rec.record_message(response(50, {"content": []}, "tools/call"))
    model.refresh()
    wait_settled(qtbot, model)
    assert model.rowCount() == rec.count(f)
    model.close()


@pytest.mark.parametrize(
    "f",
    [
        RecordFilter(kinds=["notification"]),
        RecordFilter(kinds=["error", "invalid"]),
        RecordFilter(directions=["out"]),
        RecordFilter(directions=["in"]),
        RecordFilter(methods=["tools/call"]),
        RecordFilter(diagnostics_only=True),
        RecordFilter(text="hello"),
        RecordFilter(text="hello", kinds=["response"]),
        RecordFilter(text="tools/ca"),
        RecordFilter(kinds=[]),
    ],
    ids=repr,
)
def test_filters_match_the_recording(
    qtbot: QtBot, log_mixed: tuple[Recording, dict[str, int]], f: RecordFilter
) -> None:
    rec, _ = log_mixed
    model = LogTableModel(rec)
    model.set_filter(f)
    wait_settled(qtbot, model)
    expected = [r.seq for r in rec.rows(f, 0, 1000)]
    assert shown_seqs(model) == expected
    assert model.rowCount() == rec.count(f)
    for row, seq in enumerate(expected):
        assert model.data(model.index(row, Column.TIME), SeqRole) == seq
    model.close()


def test_refresh_appends_without_reset(qtbot: QtBot, log_recording: Recording) -> None:
    fill_mixed(log_recording)
    model = LogTableModel(log_recording)
    resets: list[bool] = []
    inserted: list[tuple[int, int]] = []
    model.modelReset.connect(lambda: resets.append(True))
    model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
    before = model.rowCount()
    for i in range(5):
        log_recording.record_message(notification("notifications/progress", {"progress": i}))
    model.refresh()
    wait_settled(qtbot, model)  # the recording's writer commits them in one transaction
    assert model.rowCount() == before + 5
    assert inserted == [(before, before + 4)] and not resets
    # filtered: the seq array is extended from where the last scan stopped
    model.set_filter(RecordFilter(kinds=["notification"]))
    wait_settled(qtbot, model)
    resets.clear()
    inserted.clear()
    n = model.rowCount()
    log_recording.record_message(notification("notifications/message", {"data": "x"}))
    log_recording.record_message(request(99, "ping"))
    model.refresh()
    wait_settled(qtbot, model)
    assert model.rowCount() == n + 1 and inserted == [(n, n)] and not resets
    assert model.seq_at(n) == log_recording.last_seq - 1
    model.close()


def test_only_visible_blocks_are_materialized(qtbot: QtBot, log_recording: Recording) -> None:
    for i in range(BLOCK * (MAX_BLOCKS + 10)):
        log_recording.record_message(notification("notifications/progress", {"progress": i}))
    model = LogTableModel(log_recording)
    assert model.rowCount() == BLOCK * (MAX_BLOCKS + 10)
    for row in range(0, model.rowCount(), BLOCK):
        assert model.data(model.index(row, Column.TIME), SeqRole) == row + 1
    assert len(model._blocks) == MAX_BLOCKS  # an LRU of blocks, never a row object per message
    last = model.rowCount() - 1
    assert model.data(model.index(last, Column.METHOD)) == "notifications/progress"
    model.close()


def test_partner_tint(qtbot: QtBot, log_mixed: tuple[Recording, dict[str, int]]) -> None:
    rec, seqs = log_mixed
    model = LogTableModel(rec)
    changed: list[int] = []
    model.dataChanged.connect(lambda top, _bottom, _roles: changed.append(top.row()))
    model.set_partner(seqs["call_resp"])
    row = model.row_of(seqs["call_resp"])
    assert row is not None and changed == [row]
    assert model.data(model.index(row, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert model.data(model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is None
    model.close()


def test_row_sources_agree(log_mixed: tuple[Recording, dict[str, int]]) -> None:
    rec, _ = log_mixed
    direct = SqlRowSource(rec.path)
    public = PublicRowSource(rec)
    try:
        assert direct.cells_range(1, 100) == public.cells_range(1, 100)
        picks = [2, 3, 4, 9, 12]
        assert direct.cells_for(picks) == public.cells_for(picks)
        f = RecordFilter(kinds=["request"], directions=["out"])
        assert [list(c) for c in direct.seq_chunks(f, 0, rec.last_seq, 3)] == [
            list(c) for c in public.seq_chunks(f, 0, rec.last_seq, 3)
        ]
        assert list(direct.restrict(f, range(1, 30))) == list(public.restrict(f, list(range(1, 30))))
        for seq in range(1, rec.last_seq + 2):  # whole rows (payload read through blob I/O) as the API gives them
            assert direct.record(seq) == public.record(seq) == rec.get(seq)
    finally:
        direct.close()


def test_in_memory_recording_uses_the_public_api(qtbot: QtBot) -> None:
    rec = Recording(":memory:")
    fill_mixed(rec)
    model = LogTableModel(rec)
    assert isinstance(model.source, PublicRowSource) and model.worker is not None and not model.worker.threaded
    assert model.rowCount() == rec.count()
    model.set_filter(RecordFilter(kinds=["request"], text="hello"))
    wait_settled(qtbot, model)
    assert shown_seqs(model) == [r.seq for r in rec.rows(RecordFilter(kinds=["request"], text="hello"))]
    model.close()
    rec.close()


def test_readonly_recording_sees_rows_added_by_the_writer(qtbot: QtBot, tmp_path: Path) -> None:
    writer = Recording.create(tmp_path, label="live")
    fill_mixed(writer)
    reader = Recording.open(writer.path)
    model = LogTableModel(reader)
    n = model.rowCount()
    writer.record_message(request(77, "ping", direction=Direction.OUT))
    writer.flush()
    model.refresh()
    assert model.rowCount() == n + 1
    assert model.data(model.index(n, Column.KIND)) == Kind.REQUEST.value
    model.close()
    reader.close()
    writer.close()


def test_http_exchange_rows(qtbot: QtBot, log_recording: Recording) -> None:
    exchange = HttpExchange("POST", "https://example.com/mcp", 202, elapsed=0.0123, carried_ids=(1,))
    log_recording.record_transport(exchange)
    model = LogTableModel(log_recording)
    assert model.data(model.index(0, Column.KIND)) == "http exchange"
    assert model.data(model.index(0, Column.SUMMARY)) == "POST https://example.com/mcp → 202 (12.3 ms)"
    model.set_filter(RecordFilter(kinds=["http"]))
    wait_settled(qtbot, model)
    assert model.rowCount() == 1
    model.close()
