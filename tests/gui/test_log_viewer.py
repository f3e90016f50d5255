"""Offline review of a saved recording, and export as JSON lines (non-modal dialogs, reader thread)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from guikit import TARGET, fill_mixed, wait_settled
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMainWindow
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import RecordFilter, Recording
from inspector.ui.log import LogPanel, open_recording_dialog, open_recording_window, recording_actions


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    with Recording.create(tmp_path, label="saved session", target=TARGET) as rec:
        seqs = fill_mixed(rec)
        return rec.path, seqs


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_offline_window_shows_a_saved_recording(qtbot: QtBot, saved: tuple[Path, dict[str, int]]) -> None:
    path, seqs = saved
    window = open_recording_window(path)
    qtbot.addWidget(window)
    assert window.recording.readonly and window.isVisible()
    assert "saved session" in window.windowTitle() and TARGET in window.target_label.text()
    panel = window.panel
    assert panel.model.rowCount() == len(seqs)
    assert panel.view.verticalScrollBar().value() == 0  # a saved recording opens at its start
    panel.search("hello")
    wait_settled(qtbot, panel.model)
    assert panel.model.rowCount() == len(window.recording.search("hello")) == 2
    assert panel.select_seq(seqs["call"])
    qtbot.waitUntil(lambda: panel.detail.mode == "text")
    assert panel.model.partner == seqs["call_resp"]
    with qtbot.waitSignal(window.destroyed, timeout=5000):
        window.close()
    assert window_closed_recording(path)


def window_closed_recording(path: Path) -> bool:
    # the window closed its read-only recording: the file can be opened and written again
    with Recording(path) as rec:
        return rec.count() > 0


def test_export_jsonl_from_the_dialog(qtbot: QtBot, tmp_path: Path, saved: tuple[Path, dict[str, int]]) -> None:
    path, seqs = saved
    window = open_recording_window(path)
    qtbot.addWidget(window)
    panel = window.panel
    dialog = panel.export_jsonl_dialog()
    # shown with open(): window-modal, the event loop keeps running (no exec())
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    assert dialog.windowModality() == Qt.WindowModality.WindowModal
    target = tmp_path / "out.jsonl"
    with qtbot.waitSignal(panel.exportFinished, timeout=10000) as blocker:
        dialog.fileSelected.emit(str(target))
    assert blocker.args == [str(target), len(seqs)]
    rows = read_jsonl(target)
    assert [r["seq"] for r in rows] == list(range(1, len(seqs) + 1))
    call = rows[seqs["call"] - 1]
    assert call["kind"] == "request" and call["message"]["params"]["name"] == "echo"  # type: ignore[index]
    # only the rows shown
    panel.filter_bar.set_kinds(["error"])
    wait_settled(qtbot, panel.model)
    filtered = tmp_path / "errors.jsonl"
    dialog = panel.export_jsonl_dialog(filtered=True)
    assert dialog is not None
    with qtbot.waitSignal(panel.exportFinished, timeout=10000) as blocker:
        dialog.fileSelected.emit(str(filtered))
    assert blocker.args == [str(filtered), 1] and read_jsonl(filtered)[0]["seq"] == seqs["read_err"]
    window.close()


def test_export_from_a_live_panel_includes_unflushed_rows(qtbot: QtBot, tmp_path: Path) -> None:
    rec = Recording.create(tmp_path, label="live", flush_rows=10_000, flush_interval=3600)
    fill_mixed(rec)
    panel = LogPanel(rec)
    qtbot.addWidget(panel)
    rec.record_message(_ping())
    assert rec.pending == 1
    target = tmp_path / "live.jsonl"
    with qtbot.waitSignal(panel.exportFinished, timeout=10000) as blocker:
        panel.export_jsonl(str(target))
    assert blocker.args[1] == rec.count() and read_jsonl(target)[-1]["method"] == "ping"
    with qtbot.waitSignal(panel.exportFinished, timeout=10000) as blocker:
        panel.export_jsonl(str(tmp_path / "missing-dir" / "x.jsonl"), RecordFilter(kinds=["request"]))
    assert isinstance(blocker.args[1], str)  # the error message
    panel.release()
    rec.close()


def _ping() -> WireMessage:
    return WireMessage(Direction.OUT, b'{"jsonrpc":"2.0","id":99,"method":"ping"}', Kind.REQUEST, method="ping", id=99)


def test_open_recording_dialog_and_file_menu_actions(
    qtbot: QtBot, tmp_path: Path, saved: tuple[Path, dict[str, int]]
) -> None:
    path, _ = saved
    main = QMainWindow()
    qtbot.addWidget(main)
    actions = recording_actions(main)
    assert [a.text() for a in actions] == ["Open Recording…"]
    dialog = open_recording_dialog(main)
    dialog.fileSelected.emit(str(path))
    opened = dialog.opened  # type: ignore[attr-defined]
    assert len(opened) == 1 and opened[0].panel.model.rowCount() > 0
    opened[0].close()
    not_a_recording = tmp_path / "notes.txt"
    not_a_recording.write_text("hello")
    dialog = open_recording_dialog(main)
    dialog.fileSelected.emit(str(not_a_recording))
    assert dialog.opened == [] and "Cannot open" in main.statusBar().currentMessage()  # type: ignore[attr-defined]
    panel = LogPanel(None)
    qtbot.addWidget(panel)
    assert [a.text() for a in recording_actions(main, panel)] == ["Open Recording…", "Export as JSON Lines…"]
    assert panel.export_jsonl_dialog() is None
