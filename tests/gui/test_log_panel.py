"""LogPanel: filter bar, table, pairing and jump, follow-tail, diagnostics only, screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest
from guikit import fill_mixed, first_item, notification, shown_seqs, wait_settled
from pixels import colours_in, distance, nearest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Kind
from inspector.store.recording import RecordFilter, Recording
from inspector.ui.log import LogPanel
from inspector.ui.log.filters import KIND_LABELS, SEARCH_DEBOUNCE_MS
from inspector.ui.log.model import Column
from inspector.ui.log.palette import SEVERITY_COLOURS, kind_colours
from inspector.ui.widgets.style import is_dark

Mixed = tuple[Recording, dict[str, int]]


def expect(rec: Recording, f: RecordFilter) -> list[int]:
    return [r.seq for r in rec.rows(f, 0, 10_000)]


def test_shows_every_row_with_counts(log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    assert log_panel.model.rowCount() == len(seqs)
    assert log_panel.filter_bar.count_label.text() == f"{len(seqs)} messages"
    assert log_panel.splitter.count() == 2 and log_panel.splitter.widget(1) is log_panel.detail


def test_kind_filter_from_the_menu(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, _ = log_mixed
    for kind, action in log_panel.filter_bar.kind_actions.items():
        if kind not in ("error", "invalid"):
            action.setChecked(False)
    wait_settled(qtbot, log_panel.model)
    f = RecordFilter(kinds=["error", "invalid"])
    assert shown_seqs(log_panel.model) == expect(rec, f)
    assert log_panel.filter_bar.kinds_button.text() == "2 kinds"
    assert log_panel.filter_bar.count_label.text() == f"2 of {rec.count()}"
    log_panel.filter_bar.all_kinds_action.trigger()
    wait_settled(qtbot, log_panel.model)
    assert log_panel.model.rowCount() == rec.count() and log_panel.model.arithmetic
    assert log_panel.filter_bar.kinds_button.text() == "All kinds" and len(KIND_LABELS) == len(Kind)


def test_direction_and_method_filters(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, _ = log_mixed
    log_panel.filter_bar.direction_combo.setCurrentIndex(log_panel.filter_bar.direction_combo.findData("out"))
    wait_settled(qtbot, log_panel.model)
    assert shown_seqs(log_panel.model) == expect(rec, RecordFilter(directions=["out"]))
    log_panel.filter_bar.method_combo.reload()
    methods = [log_panel.filter_bar.method_combo.itemText(i) for i in range(log_panel.filter_bar.method_combo.count())]
    assert methods[0] == "All methods" and methods[1:] == rec.methods()
    log_panel.filter_bar.method_combo.setCurrentText("tools/call")
    wait_settled(qtbot, log_panel.model)
    assert shown_seqs(log_panel.model) == expect(rec, RecordFilter(directions=["out"], methods=["tools/call"]))
    log_panel.filter_bar.reset()
    wait_settled(qtbot, log_panel.model)
    assert log_panel.model.rowCount() == rec.count()


def test_search_is_debounced_and_uses_the_recording(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, _ = log_mixed
    QTest.keyClicks(log_panel.filter_bar.search_edit, "hello")
    assert log_panel.model.filter.text is None  # not yet: debounced
    qtbot.waitUntil(lambda: log_panel.model.filter.text == "hello", timeout=SEARCH_DEBOUNCE_MS * 8)
    wait_settled(qtbot, log_panel.model)
    assert shown_seqs(log_panel.model) == [r.seq for r in rec.rows(RecordFilter(text="hello"))] != []
    assert log_panel.filter_bar.count_label.text() == f"{log_panel.model.rowCount()} of {rec.count()}"
    log_panel.search("Resource not found")
    wait_settled(qtbot, log_panel.model)
    assert shown_seqs(log_panel.model) == rec.search("Resource not found")


def test_diagnostics_only(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    rec, seqs = log_mixed
    log_panel.show_diagnostics_only()
    wait_settled(qtbot, log_panel.model)
    assert log_panel.filter_bar.diagnostics_button.isChecked() and log_panel.diagnostics_action.isChecked()
    assert shown_seqs(log_panel.model) == sorted([seqs["list_resp"], seqs["invalid"]])
    log_panel.show_diagnostics_only(False)
    wait_settled(qtbot, log_panel.model)
    assert log_panel.model.rowCount() == rec.count()


def test_request_response_pairing_and_jump(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    assert log_panel.select_seq(seqs["call"])
    qtbot.waitUntil(lambda: log_panel.detail.seq == seqs["call"])
    assert log_panel.model.partner == seqs["call_resp"]
    response_row = log_panel.model.row_of(seqs["call_resp"])
    assert response_row is not None
    assert log_panel.model.data(log_panel.model.index(response_row, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert log_panel.detail.jump_button.isVisible() and log_panel.detail.jump_button.text() == "Jump to response"
    log_panel.jump_action.trigger()
    assert log_panel.selected_seq() == seqs["call_resp"] and log_panel.model.partner == seqs["call"]
    assert log_panel.detail.jump_button.text() == "Jump to request"
    log_panel.detail.jump_button.click()
    assert log_panel.selected_seq() == seqs["call"]
    # string ids pair too, errors count as responses
    log_panel.select_seq(seqs["read_err"])
    assert log_panel.model.partner == seqs["read"]
    # a notification has no partner
    log_panel.select_seq(seqs["progress0"])
    assert log_panel.model.partner is None and not log_panel.detail.jump_button.isVisible()


def test_jump_reveals_a_row_hidden_by_the_filter(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    log_panel.filter_bar.set_kinds(["request"])
    wait_settled(qtbot, log_panel.model)
    assert log_panel.select_seq(seqs["call"])
    assert log_panel.model.row_of(seqs["call_resp"]) is None
    log_panel.jump_action.trigger()
    assert log_panel.model.filter.is_empty() and log_panel.selected_seq() == seqs["call_resp"]


def test_selection_survives_a_filter_change(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    _, seqs = log_mixed
    log_panel.select_seq(seqs["list_resp"])
    log_panel.show_diagnostics_only()
    wait_settled(qtbot, log_panel.model)
    qtbot.waitUntil(lambda: log_panel.selected_seq() == seqs["list_resp"])


def test_follow_tail_only_when_at_the_bottom(qtbot: QtBot, log_panel: LogPanel, log_recording: Recording) -> None:
    bar = log_panel.view.verticalScrollBar()
    resets: list[bool] = []
    log_panel.model.modelReset.connect(lambda: resets.append(True))

    def add(method: str, n: int) -> None:
        for i in range(n):
            log_recording.record_message(notification(method, {"progress": i}))
        log_panel.refresh()
        qtbot.waitUntil(lambda: log_panel.model.rowCount() == log_recording.count())

    add("notifications/progress", 200)
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    bar.setValue(0)
    add("notifications/progress", 50)
    assert bar.value() == 0  # the user scrolled up: stay there
    log_panel.view.scrollToBottom()  # the user goes back to the end (End key)
    add("notifications/message", 1)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    last = log_panel.model.rowCount() - 1
    assert log_panel.model.data(log_panel.model.index(last, Column.METHOD)) == "notifications/message"
    assert not resets  # appends never reset the model


def test_refresh_is_throttled_during_a_flood(
    qtbot: QtBot, log_panel: LogPanel, log_recording: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    model_refresh = log_panel.model.refresh

    def counted(*, wait: bool = False) -> None:
        calls.append(log_panel.model.rowCount())
        model_refresh(wait=wait)

    monkeypatch.setattr(log_panel.model, "refresh", counted)
    log_panel.refresh()  # after a quiet spell: applied at once
    assert len(calls) == 1
    for i in range(20):
        log_recording.record_message(notification("notifications/progress", {"progress": i}))
        log_panel.refresh()
    assert len(calls) == 1  # folded into one update a little later
    qtbot.waitUntil(lambda: log_panel.model.rowCount() == log_recording.count(), timeout=2000)
    assert len(calls) == 2
    # selecting a row newer than the last update brings it in right away
    log_recording.record_message(notification("notifications/message", {"data": "new"}))
    log_panel.refresh()
    assert log_panel.select_seq(log_recording.last_seq)


def test_set_recording_swaps_the_log(qtbot: QtBot, log_panel: LogPanel, tmp_path: Path) -> None:
    other = Recording.create(tmp_path / "other", label="other")
    other.record_message(notification("notifications/message", {"data": "only row"}))
    log_panel.set_recording(other)
    assert log_panel.model.rowCount() == 1 and log_panel.detail.seq is None
    log_panel.select_seq(1)
    qtbot.waitUntil(lambda: log_panel.detail.mode == "text")
    log_panel.release()
    other.close()


def test_screenshot(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed, tmp_path: Path) -> None:
    """What the panel draws: the selected row in the highlight with its text in the highlighted-text colour, its
    partner request tinted, each kind in its own colour, the diagnostics badge red, the detail pane filled."""
    _, seqs = log_mixed
    log_panel.select_seq(seqs["list_resp"])
    qtbot.waitUntil(lambda: log_panel.detail.mode == "text")
    log_panel.detail.diagnostics.setCurrentItem(first_item(log_panel.detail.diagnostics))
    qtbot.waitUntil(lambda: log_panel.model.partner == seqs["list"])
    qtbot.wait(50)
    path = tmp_path / "log_panel.png"
    assert log_panel.grab().save(str(path))
    image = QImage(str(path))
    scale = log_panel.grab().devicePixelRatio()
    assert (image.width(), image.height()) == (round(log_panel.width() * scale), round(log_panel.height() * scale))
    assert len(colours_in(image, image.rect())) > 50, "the screenshot is (nearly) uniform"

    model, view = log_panel.model, log_panel.view
    viewport = view.viewport()

    def cell(name: str, column: Column | None = None) -> QRect:
        row = model.row_of(seqs[name])
        assert row is not None
        rect = view.visualRect(model.index(row, 0 if column is None else column))
        if column is None:  # the whole visible row
            rect = QRect(0, rect.top(), viewport.width(), rect.height())
        top_left = viewport.mapTo(log_panel, rect.topLeft())
        return QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(rect.width() * scale),
            round(rect.height() * scale),
        )

    palette = view.palette()
    group = QPalette.ColorGroup.Active if view.isActiveWindow() else QPalette.ColorGroup.Inactive
    base = palette.color(group, QPalette.ColorRole.Base)
    highlight = palette.color(group, QPalette.ColorRole.Highlight)
    highlighted_text = palette.color(group, QPalette.ColorRole.HighlightedText)

    selected = colours_in(image, cell("list_resp"))
    dominant, count = selected.most_common(1)[0]
    assert distance(dominant, highlight) <= 2 and count > selected.total() * 0.6, "the selected row is not highlighted"
    method = colours_in(image, cell("list_resp", Column.METHOD))
    assert nearest(method, highlighted_text) <= 8, "the selected row's text is not in the highlighted-text colour"
    assert nearest(selected, QColor(SEVERITY_COLOURS["violation"])) <= 24, "no red diagnostics badge"

    # The partner request's row: its background (a row of the same parity) tinted toward the highlight.
    partner_row, plain_row = model.row_of(seqs["list"]), model.row_of(seqs["init_resp"])
    assert partner_row is not None and plain_row is not None and (partner_row - plain_row) % 2 == 0
    partner = colours_in(image, cell("list")).most_common(1)[0][0]
    plain = colours_in(image, cell("init_resp")).most_common(1)[0][0]
    assert distance(plain, base) <= 16, "a plain row is not drawn on the base colour"
    shares = [
        (tinted - under) / (toward - under)
        for tinted, under, toward in zip(partner, plain, highlight.getRgb()[:3], strict=True)
        if abs(toward - under) > 40
    ]
    assert shares and all(0.1 < share < 0.9 for share in shares), f"the partner row is not tinted: {partner}"
    assert max(shares) - min(shares) < 0.05, f"the partner tint is not the highlight's: {partner}"

    colours = kind_colours(is_dark())
    kinds = {"read_err": "error", "call": "request", "call_resp": "response", "log": "notification"}
    for name, kind in kinds.items():
        drawn = colours_in(image, cell(name, Column.KIND))
        assert nearest(drawn, colours[kind]) <= 24, f"{name}: its kind is not drawn in the {kind} colour"
        for other in set(kinds.values()) - {kind}:
            assert nearest(drawn, colours[other]) > 24, f"{name}: drawn in the {other} colour"

    detail = log_panel.detail
    corner = detail.mapTo(log_panel, detail.rect().topLeft())
    below = QRect(
        round(corner.x() * scale),
        round(corner.y() * scale),
        round(detail.width() * scale),
        round(detail.height() * scale),
    )
    assert len(colours_in(image, below)) > 20, "the detail pane is empty"


def test_many_rows_are_fine(qtbot: QtBot, log_recording: Recording) -> None:
    fill_mixed(log_recording)
    for i in range(20_000):
        log_recording.record_message(notification("notifications/progress", {"progress": i, "token": f"t{i}"}))
    widget = LogPanel(log_recording)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitUntil(lambda: widget.view.verticalScrollBar().value() == widget.view.verticalScrollBar().maximum())
    widget.search("t19999")
    wait_settled(qtbot, widget.model)
    assert widget.model.rowCount() == 1
    widget.filter_bar.set_kinds(["notification"])
    wait_settled(qtbot, widget.model)
    assert widget.model.rowCount() == 1
    widget.filter_bar.reset()
    wait_settled(qtbot, widget.model)
    assert widget.model.rowCount() == log_recording.count()
    widget.release()


def test_state_round_trip(qtbot: QtBot, log_panel: LogPanel) -> None:
    log_panel.splitter.setSizes([200, 400])
    log_panel.view.horizontalHeader().resizeSection(Column.METHOD, 333)
    state = log_panel.save_state()
    log_panel.splitter.setSizes([500, 100])
    log_panel.view.horizontalHeader().resizeSection(Column.METHOD, 100)
    assert log_panel.restore_state(state)
    assert log_panel.view.horizontalHeader().sectionSize(Column.METHOD) == 333
    assert log_panel.splitter.sizes()[0] < log_panel.splitter.sizes()[1]
    assert not log_panel.restore_state(b"junk")


def test_cells_are_painted_from_the_model(qtbot: QtBot, log_panel: LogPanel, log_mixed: Mixed) -> None:
    """The table's delegate draws what the model says: paint_cell agrees with data(), and the painted
    backgrounds show the selection, the partner's tint and alternate rows."""
    model = log_panel.model
    roles = (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.BackgroundRole)
    for row in range(model.rowCount()):
        for column in Column:
            cell = model.paint_cell(row, column)
            assert cell is not None
            text, foreground, font, alignment, background = cell
            index = model.index(row, column)
            assert text == index.data(Qt.ItemDataRole.DisplayRole)
            assert [foreground, font, background] == [index.data(role) for role in roles]
            assert alignment == index.data(Qt.ItemDataRole.TextAlignmentRole).value
    _, seqs = log_mixed
    assert log_panel.select_seq(seqs["call"])
    qtbot.waitUntil(lambda: model.partner == seqs["call_resp"])
    view = log_panel.view
    view.resize(1200, 600)
    image = view.viewport().grab().toImage()

    def background(seq: int) -> QColor:  # the empty Latency cell of a request, the Diag cell otherwise
        row = model.row_of(seq)
        assert row is not None
        rect = view.visualRect(model.index(row, Column.LATENCY))
        return image.pixelColor(rect.left() + 3, rect.center().y())

    palette = view.palette()
    groups = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
    highlights = {palette.color(group, QPalette.ColorRole.Highlight).rgb() for group in groups}
    assert background(seqs["call"]).rgb() in highlights
    plain = {background(seqs[name]).rgb() for name in ("note", "init", "stderr", "init_resp")}
    assert len(plain) == 2  # base and alternate rows
    assert background(seqs["call_resp"]).rgb() not in plain | highlights  # the partner's tint
