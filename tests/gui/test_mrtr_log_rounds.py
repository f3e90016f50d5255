"""The log groups the rounds of a multi-round-trip request (2026-07-28): any row of one shows every round in the
detail pane (collapsible, with the requestState sizes and the inputs of each round), other rows show no group;
and a screenshot of an MRTR round's dialog, checked for what it draws."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from guikit import ALL_CAPS, AsyncRunner, MakeController, wait_settled
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.client.handlers import HeadlessHandlers, RequestInfo
from inspector.protocol.mrtr import MAX_INPUT_ROUNDS
from inspector.protocol.sizes import format_size
from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording
from inspector.ui.log import LogPanel
from inspector.ui.log.detail import DetailPane
from inspector.ui.log.model import Column
from inspector.ui.log.rounds import RoundColumn, RoundsModel, SeqRole
from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.widgets.style import tones


def _ask_twice_recording(runner: AsyncRunner, make_controller: MakeController) -> Recording:
    controller = make_controller(era="modern", handlers=HeadlessHandlers(), capabilities=ALL_CAPS)
    conn = controller.connection
    assert conn is not None
    runner.run(conn.call_tool("ask_twice", {}))
    runner.run(conn.call_tool("add", {"a": 1, "b": 2}))
    recording = controller.recording
    assert recording is not None
    recording.flush()
    return recording


def _requests(recording: Recording, method: str) -> list[int]:
    rows = recording.rows(RecordFilter(kinds=[Kind.REQUEST], directions=[Direction.OUT], methods=[method]), 0, 100)
    return [row.seq for row in rows]


def test_any_row_of_a_multi_round_request_shows_all_its_rounds(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, qtmodeltester: ModelTester
) -> None:
    recording = _ask_twice_recording(qasync_loop, make_controller)
    calls = _requests(recording, "tools/call")
    assert len(calls) == 4  # ask_twice in three rounds, then add in one
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.set_context(recording, None, None)
    pane.show()

    pane.show_seq(calls[1])  # round 2's request
    view = pane.rounds
    assert view.isVisible()
    model = view.model
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    texts = [[model.index(r, c).data() for c in RoundColumn] for r in range(model.rowCount())]
    assert [t[0] for t in texts] == ["Round 1", "Round 2", "Round 3"]
    assert texts[0][1] == f"#{calls[0]} → #{recording.logical_request(calls[0]).rounds[0].response_seq}"  # type: ignore[union-attr]
    assert texts[0][3].startswith("input_required, 1 input asked")
    assert texts[2][3].startswith("complete, 1 input sent")
    # the state the server sealed and the client echoed: sizes shown, equal between an answer and the next round
    for before, after in zip(model.rounds, model.rounds[1:], strict=False):
        assert before.asked_state is not None and before.asked_state == after.echoed_state
        assert f"new {format_size(before.asked_state)}" in texts[before.round - 1][2]
        assert texts[after.round - 1][2].startswith(f"echoed {format_size(before.asked_state)}")
    assert model.rounds[0].echoed_state is None and texts[0][2].startswith("new ")
    # the inputs of each round, under it: round 2 sent the name and was asked for the confirmation
    second = model.index(1, 0)
    assert model.rowCount(second) == 2
    children = [[model.index(r, c, second).data() for c in RoundColumn] for r in range(2)]
    assert children[0][0].startswith("sent '") and children[0][3] == "elicitation/create: action accept, 1 field"
    assert children[1][0].startswith("asked '") and children[1][3].startswith("elicitation/create: You said your name")
    assert view.tree.isExpanded(second) and not view.tree.isExpanded(model.index(0, 0))  # this row's round is open
    assert "tools/call in 3 rounds" in view.title.text() and "this message is round 2" in view.title.text()

    # activating an input selects its message in the log (through the pane's jump)
    with qtbot.waitSignal(pane.jumpRequested) as jumped:
        view.tree.activated.emit(model.index(1, 0, second))
    answer = recording.get(jumped.args[0])
    assert answer is not None and answer.kind is Kind.RESPONSE
    assert json.loads(answer.raw)["result"]["resultType"] == "input_required"

    # collapsible: the rounds fold and unfold
    view.tree.collapse(second)
    assert not view.tree.isExpanded(second)
    view.tree.expandAll()
    assert all(view.tree.isExpanded(model.index(r, 0)) for r in range(3))

    # the final answer belongs to the group too; a one-round request has none
    final = recording.logical_request(calls[0])
    assert final is not None and final.final_response_seq is not None
    pane.show_seq(final.final_response_seq)
    assert view.isVisible() and "this message is round 3" in view.title.text()
    pane.show_seq(calls[3])
    assert not view.isVisible() and model.rowCount() == 0
    pane.show_seq(None)
    assert not view.isVisible()


def test_the_rounds_model_holds_no_row_without_rounds(qtmodeltester: ModelTester) -> None:
    model = RoundsModel()
    qtmodeltester.check(model)
    assert model.rowCount() == 0 and model.index(0, 0) == QModelIndex()
    assert model.data(QModelIndex(), SeqRole) is None


def _colours(image: QImage, rect: QRect) -> Counter[int]:
    found: Counter[int] = Counter()
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            found[image.pixel(x, y)] += 1
    return found


def test_screenshot_of_an_mrtr_round_dialog(qtbot: QtBot, tmp_path: Path) -> None:
    """The dialog of a round draws the round line in the accent colour under the question, in its header."""
    info = RequestInfo(7, "elicitation/create", "elicitation/create", (), "name", "tools/call", 2, "ask_twice")
    params = {
        "mode": "form",
        "message": "What is your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
    }
    dialog = ElicitationDialog(params, info=info, label="modern demo")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    label = dialog.round_label
    assert label is not None and label.isVisible()
    assert label.text() == (
        f"Round 2 of a multi-round tools/call of ask_twice (at most {MAX_INPUT_ROUNDS} rounds): the server needs "
        "this answer, input 'name', before it goes on"
    )
    assert dialog.header.isAncestorOf(label)
    assert label.geometry().top() > dialog.question_label.geometry().top()
    grabbed = dialog.grab()
    path = tmp_path / "mrtr_round_dialog.png"
    assert grabbed.save(str(path))
    image = QImage(str(path))
    scale = grabbed.devicePixelRatio()
    top_left = label.mapTo(dialog, label.rect().topLeft())
    rect = QRect(
        round(top_left.x() * scale),
        round(top_left.y() * scale),
        round(label.width() * scale),
        round(label.height() * scale),
    )
    colours = _colours(image, rect)
    accent = QColor(tones(dialog).accent)

    def near(pixel: int) -> bool:
        c = QColor(pixel)
        return abs(c.red() - accent.red()) + abs(c.green() - accent.green()) + abs(c.blue() - accent.blue()) < 60

    drawn = sum(count for pixel, count in colours.items() if near(pixel))
    assert drawn > 40, "the round line is not drawn in the accent colour"
    # a handshake-era server request has no round line
    plain = ElicitationDialog(params, info=RequestInfo(8, "elicitation/create", "elicitation/create"), label="x")
    qtbot.addWidget(plain)
    assert plain.round_label is None
    assert Qt.TextFormat.PlainText == label.textFormat()


def test_the_table_tints_the_group_and_folds_its_rounds(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, qtmodeltester: ModelTester
) -> None:
    recording = _ask_twice_recording(qasync_loop, make_controller)
    calls = _requests(recording, "tools/call")
    logical = recording.logical_request(calls[0])
    assert logical is not None and len(logical.rounds) == 3
    members = {seq for r in logical.rounds for seq in (r.request_seq, r.response_seq) if seq is not None}
    assert len(members) == 6
    panel = LogPanel(recording)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    qtbot.waitExposed(panel)
    wait_settled(qtbot, panel.model)
    model, view = panel.model, panel.view
    qtmodeltester.check(model)

    def background(seq: int) -> object:
        row = model.row_of(seq)
        assert row is not None
        return model.index(row, int(Column.METHOD)).data(Qt.ItemDataRole.BackgroundRole)

    assert panel.select_seq(calls[1])  # round 2's request
    qtbot.waitUntil(lambda: panel.detail.rounds.isVisible())
    assert model.group == frozenset(members)
    partner = model.partner
    assert partner is not None and partner in members
    tinted = {seq for seq in members - {partner} if background(seq) is not None}
    assert tinted == members - {partner}
    assert background(calls[3]) is None  # add, a request of one round, is not in the group

    # folding hides the group's rows but its first request and the selected row; unfolding shows them again
    qtbot.mouseClick(panel.detail.rounds.fold_button, Qt.MouseButton.LeftButton)
    hidden = {seq for seq in members if view.isRowHidden(model.row_of(seq) or 0)}
    assert hidden == members - {calls[0], calls[1]}
    assert panel.folded == frozenset(hidden)
    qtbot.mouseClick(panel.detail.rounds.fold_button, Qt.MouseButton.LeftButton)
    assert not any(view.isRowHidden(model.row_of(seq) or 0) for seq in members)
    assert panel.folded == frozenset()

    # folded, then a row outside the group selected: the group unfolds and loses its tint
    qtbot.mouseClick(panel.detail.rounds.fold_button, Qt.MouseButton.LeftButton)
    assert panel.folded
    assert panel.select_seq(calls[3])
    qtbot.waitUntil(lambda: not panel.detail.rounds.isVisible())
    assert panel.folded == frozenset() and model.group == frozenset()
    assert not any(view.isRowHidden(model.row_of(seq) or 0) for seq in members)
    assert not panel.detail.rounds.fold_button.isChecked()
    panel.release()
