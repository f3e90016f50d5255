"""Issue 14 §5.14 and §5.5: a jump that clears the filters says so (and can restore them); an empty filtered log
says why and empties the detail pane."""

from __future__ import annotations

from guikit import wait_settled
from pytestqt.qtbot import QtBot

from inspector.store.recording import RecordFilter, Recording
from inspector.ui.log import LogPanel
from inspector.ui.log.filters import describe_filter

Mixed = tuple[Recording, dict[str, int]]


def test_jump_to_a_hidden_response_says_the_search_was_cleared(
    qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed
) -> None:
    _, seqs = log_mixed
    bar = log_panel.filter_bar
    assert bar.notice == "" and bar.restore_button.isHidden()
    log_panel.search("echo")  # the tools/call request names echo; its response does not
    wait_settled(qtbot, log_panel.model)
    assert log_panel.select_seq(seqs["call"])
    assert log_panel.model.row_of(seqs["call_resp"]) is None
    before = log_panel.model.filter
    log_panel.jump_action.trigger()
    assert log_panel.selected_seq() == seqs["call_resp"]
    assert log_panel.model.filter.is_empty() and bar.search_edit.text() == ""
    # ... and the bar says so, naming what was cleared, with a way back
    assert "Filters cleared to show row #" in bar.notice and 'search "echo"' in bar.notice
    assert bar.notice_label.isVisible() and bar.restore_button.isVisible()
    bar.restore_button.click()
    wait_settled(qtbot, log_panel.model)
    assert log_panel.model.filter == before and bar.search_edit.text() == "echo"
    assert bar.notice == "" and bar.restore_button.isHidden()


def test_the_notice_goes_away_when_the_person_filters_again(
    qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed
) -> None:
    _, seqs = log_mixed
    bar = log_panel.filter_bar
    bar.set_kinds(["request"])
    wait_settled(qtbot, log_panel.model)
    assert log_panel.select_seq(seqs["call"])
    log_panel.jump_action.trigger()
    assert "only requests" in bar.notice
    log_panel.show_diagnostics_only()
    assert bar.notice == ""


def test_a_jump_within_the_filtered_rows_clears_nothing(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    log_panel.search("tools")
    wait_settled(qtbot, log_panel.model)
    assert log_panel.model.row_of(seqs["list"]) is not None and log_panel.model.row_of(seqs["list_resp"]) is not None
    assert log_panel.select_seq(seqs["list"])
    log_panel.jump_action.trigger()
    assert log_panel.selected_seq() == seqs["list_resp"]
    assert log_panel.model.filter.text == "tools" and log_panel.filter_bar.notice == ""


def test_an_empty_filtered_log_says_so_and_clears_the_detail(
    qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed
) -> None:
    _, seqs = log_mixed
    assert log_panel.empty_text == ""
    assert log_panel.select_seq(seqs["call_resp"])
    qtbot.waitUntil(lambda: log_panel.detail.row is not None)
    assert log_panel.detail.row.seq == seqs["call_resp"]  # type: ignore[union-attr]
    cleared: list[object] = []
    log_panel.selectedSeqChanged.connect(cleared.append)
    log_panel.search("zzzznothingmatchesthis")
    wait_settled(qtbot, log_panel.model)
    qtbot.waitUntil(lambda: log_panel.empty_text != "")
    assert log_panel.model.rowCount() == 0
    assert "No messages match the filters" in log_panel.empty_text and log_panel.empty_label.isVisible()
    assert log_panel.detail.seq is None and log_panel.detail.row is None
    assert log_panel.detail.stack.currentWidget() is log_panel.detail.placeholder
    assert log_panel.detail.header.text() == ""
    assert cleared[-1] is None
    log_panel.filter_bar.reset()
    wait_settled(qtbot, log_panel.model)
    qtbot.waitUntil(lambda: log_panel.empty_text == "")
    assert log_panel.model.rowCount() == len(seqs) and not log_panel.empty_label.isVisible()


def test_an_empty_recording_says_no_messages_yet(qtbot: QtBot, log_recording: Recording) -> None:
    panel = LogPanel(log_recording)
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    qtbot.waitExposed(panel)
    wait_settled(qtbot, panel.model)
    qtbot.waitUntil(lambda: panel.empty_text != "")
    assert panel.empty_text == "No messages yet."
    assert log_recording.rows(RecordFilter(), 0, 10) == []
    panel.release()


def test_the_notice_names_every_filter_it_cleared() -> None:
    f = RecordFilter(kinds=["request", "error"], directions=["out"], methods=["tools/call"], text=" echo ")
    assert describe_filter(RecordFilter(diagnostics_only=True)) == "diagnostics only"
    assert describe_filter(f) == ('search "echo", only requests, errors, only client to server, method tools/call')
