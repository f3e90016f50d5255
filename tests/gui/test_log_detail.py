"""The detail pane: pretty JSON coloured on screen only, the lazy tree for big payloads, copy actions,
diagnostics highlighting their JSON path, and the "Open full" viewer."""

from __future__ import annotations

import json
from typing import Any

from guikit import SCHEMA_PATH, TARGET, first_item, request, response
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import Recording
from inspector.ui.log import LogPanel
from inspector.ui.log.detail import TEXT_LIMIT
from inspector.ui.log.payload_viewer import PayloadViewer

Mixed = tuple[Recording, dict[str, int]]


def big_result() -> dict[str, Any]:
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"], "ok": i % 2 == 0, "score": None} for i in range(4000)]
    return {"items": items, "blob": ["x" * 100] * 1000, "tail": "end"}


def select(qtbot: QtBot, log_panel: LogPanel, seq: int, mode: str = "text") -> None:
    assert log_panel.select_seq(seq)
    qtbot.waitUntil(lambda: log_panel.detail.seq == seq and log_panel.detail.mode == mode, timeout=10000)


def test_pretty_json_is_highlighted_on_screen_only(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, seqs = log_mixed
    select(qtbot, log_panel, seqs["list_resp"])
    payload = json.loads(rec.get(seqs["list_resp"]).raw)  # type: ignore[union-attr]
    assert log_panel.detail.text.toPlainText() == json.dumps(payload, indent=2, ensure_ascii=False)
    qtbot.waitUntil(lambda: log_panel.detail.highlighter.highlighted_blocks > 0)
    first = log_panel.detail.text.document().firstBlock()
    assert first.layout().formats() == [] or first.text() == "{"
    key_line = log_panel.detail.text.document().findBlockByNumber(1)
    assert [f.length for f in key_line.layout().formats()][:1] == [len('"jsonrpc"')]
    assert "tools/list" in log_panel.detail.header.text() and "latency" in log_panel.detail.header.text()


def test_a_long_payload_colours_only_visible_lines(qtbot: QtBot, log_panel: LogPanel, log_recording: Recording) -> None:
    result = {"rows": [{"n": i, "text": f"row {i}"} for i in range(2500)]}
    log_recording.record_message(response(300, result, "tools/call"))
    log_panel.refresh()
    select(qtbot, log_panel, log_recording.last_seq)
    detail = log_panel.detail
    blocks = detail.text.blockCount()
    assert blocks > 10_000
    qtbot.waitUntil(lambda: detail.highlighter.highlighted_blocks > 0)
    assert detail.highlighter.highlighted_blocks < 200  # a screenful, not 10,000 lines
    detail.text.verticalScrollBar().setValue(detail.text.verticalScrollBar().maximum())
    done = detail.highlighter.highlighted_blocks
    qtbot.waitUntil(lambda: detail.highlighter.highlighted_blocks > done)
    assert detail.highlighter.highlighted_blocks < 400


def test_copy_json_and_copy_text(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, seqs = log_mixed
    select(qtbot, log_panel, seqs["call"])
    log_panel.detail.copy_json_button.click()
    expected = json.dumps(json.loads(rec.get(seqs["call"]).raw), indent=2, ensure_ascii=False)  # type: ignore[union-attr]
    assert QGuiApplication.clipboard().text() == expected
    select(qtbot, log_panel, seqs["stderr"])
    assert log_panel.detail.copy_json_button.text() == "Copy text" and not log_panel.detail.copy_cli_button.isEnabled()
    log_panel.detail.copy_json()
    assert QGuiApplication.clipboard().text() == "INFO demo server starting"
    select(qtbot, log_panel, seqs["invalid"])
    assert log_panel.detail.text.toPlainText() == '{"jsonrpc":"2.0","id":9,"result":'
    assert log_panel.detail.copy_json() == '{"jsonrpc":"2.0","id":9,"result":'


def test_copy_as_cli_command(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    select(qtbot, log_panel, seqs["call"])
    assert log_panel.detail.copy_cli_button.isEnabled()
    log_panel.detail.copy_cli_button.click()
    expected = (
        "mcp-inspect --cli --method tools/call --tool-name echo --tool-arg 'message=hello world' "
        "-- python -m inspector.demo --flag 'two words'"
    )
    assert QGuiApplication.clipboard().text() == expected
    assert TARGET in log_panel.detail.copy_cli_command().text.replace("'two words'", "'two words'")  # type: ignore[union-attr]
    select(qtbot, log_panel, seqs["read"])
    command = log_panel.detail.copy_cli_command()
    assert command is not None and command.exact
    assert (
        QGuiApplication.clipboard()
        .text()
        .startswith("mcp-inspect --cli --method resources/read --uri demo://missing --")
    )
    select(qtbot, log_panel, seqs["sampling"])  # sent by the server: only the closest command
    command = log_panel.detail.copy_cli_command()
    assert command is not None and not command.exact and "server" in log_panel.detail.note.text()
    select(qtbot, log_panel, seqs["call_resp"])
    assert not log_panel.detail.copy_cli_button.isEnabled() and log_panel.detail.copy_cli_command() is None


def test_diagnostic_highlights_its_path_in_the_text(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    select(qtbot, log_panel, seqs["list_resp"])
    diagnostics = log_panel.detail.diagnostics
    assert diagnostics.isVisible() and diagnostics.topLevelItemCount() == 2
    assert first_item(diagnostics).text(3) == SCHEMA_PATH
    diagnostics.setCurrentItem(first_item(diagnostics))
    marked = [s.cursor.block().text() for s in log_panel.detail.text.extraSelections()]  # type: ignore[attr-defined]
    assert marked == ['        "inputSchema": "oops"']
    assert log_panel.detail.text.textCursor().block().text() == marked[0]
    # a path to a member that does not exist highlights its object
    assert log_panel.detail.highlight_path("$.result.tools[1].missing") == ("result", "tools", 1)
    marked = [s.cursor.block().text() for s in log_panel.detail.text.extraSelections()]  # type: ignore[attr-defined]
    assert marked[0].strip() == "{" and marked[-1].strip() == "}" and len(marked) == 4


def test_large_payload_uses_the_lazy_tree(qtbot: QtBot, log_panel: LogPanel, log_recording: Recording) -> None:
    log_recording.record_message(request(400, "tools/call", {"name": "dump"}))
    diag = [Diagnostic(DiagnosticCode.SCHEMA, "tail must be a number", path="$.result.tail")]
    log_recording.record_message(response(400, big_result(), "tools/call", diagnostics=diag))
    log_panel.refresh()
    seq = log_recording.last_seq
    assert log_recording.get(seq).size > TEXT_LIMIT  # type: ignore[union-attr]
    select(qtbot, log_panel, seq, mode="tree")
    model = log_panel.detail.tree_model
    assert model is not None
    top = log_panel.detail.tree.rootIndex()
    assert [model.index(r, 0, top).data() for r in range(model.rowCount(top))] == ["jsonrpc", "id", "result"]
    qtbot.waitUntil(lambda: model.doc.scan_done, timeout=20000)
    log_panel.detail.diagnostics.setCurrentItem(first_item(log_panel.detail.diagnostics))
    current = log_panel.detail.tree.currentIndex()
    assert current.isValid() and model.node(current).path() == ("result", "tail")
    assert current.siblingAtColumn(1).data() == '"end"'
    copied = log_panel.detail.copy_json()
    assert json.loads(copied)["result"]["tail"] == "end"
    viewer = log_panel.detail.open_full()
    assert isinstance(viewer, PayloadViewer) and viewer.tree_view is not None
    qtbot.addWidget(viewer)
    qtbot.waitUntil(lambda: viewer.text_complete, timeout=20000)
    assert json.loads(viewer.text_view.toPlainText()) == json.loads(log_recording.get(seq).raw)  # type: ignore[union-attr]
    viewer.close()


def test_open_full_for_a_small_payload(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    select(qtbot, log_panel, seqs["call"])
    viewer = log_panel.detail.open_full()
    assert viewer is not None
    qtbot.addWidget(viewer)
    qtbot.waitUntil(lambda: viewer.text_complete)
    assert viewer.text_view.toPlainText() == log_panel.detail.text.toPlainText()
    viewer.close()


def test_long_lines_of_a_non_json_payload_are_broken(
    qtbot: QtBot, log_panel: LogPanel, log_recording: Recording
) -> None:
    raw = b'{"jsonrpc":"2.0","result":"' + b"x" * 10_000
    log_recording.record_message(WireMessage(Direction.IN, raw, Kind.INVALID))
    log_panel.refresh()
    select(qtbot, log_panel, log_recording.last_seq)
    lines = log_panel.detail.text.toPlainText().split("\n")
    assert len(lines) == 3 and max(map(len, lines)) <= 4000
    assert "broken for display" in log_panel.detail.note.text()
    assert log_panel.detail.copy_json() == raw.decode()
