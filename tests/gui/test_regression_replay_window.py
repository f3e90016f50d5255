""" "Replay against…" in the window: from a tab's log and from the offline viewer, progress, cancel, the results
table and the side-by-side diff of a changed answer (the in-memory demo, standard and changed builds)."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import Any

from guikit import AsyncRunner, connect_tab, demo_profile, finish, misbehaving_profile
from pixels import colours_in, nearest, saved_grab
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtWidgets import QFileDialog, QPlainTextEdit
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.demo.in_memory import demo_transport
from inspector.regression.outcome import Outcome
from inspector.ui.connection.controller import ConnectionSettings
from inspector.ui.regression.replay_dialog import ReplayDialog
from inspector.ui.regression.replay_diff import MARK_COLOURS
from inspector.ui.regression.replay_model import OUTCOME_TONES
from inspector.ui.regression.replay_runner import ReplayTarget
from inspector.ui.widgets.style import tones
from inspector.ui.window.main_window import MainWindow


def _dialogs(window: MainWindow) -> list[ReplayDialog]:
    return [d for d in window.findChildren(ReplayDialog) if d.isVisible()]


def _recorded_tab(window: MainWindow, runner: AsyncRunner, *calls: tuple[str, dict[str, Any]]) -> Any:
    tab = connect_tab(window, runner)
    conn = tab.controller.connection
    assert conn is not None
    for name, arguments in calls:
        finish(runner, asyncio.ensure_future(conn.call_tool(name, arguments)))
    return tab


def _run(runner: AsyncRunner, dialog: ReplayDialog) -> None:
    dialog.run_button.click()
    assert dialog.cancel_button.isEnabled()
    runner.wait_until(lambda: dialog.report is not None, timeout=60)


def test_replay_against_the_current_connection_from_the_log(
    make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    window = make_window()
    tab = _recorded_tab(window, qasync_loop, ("add", {"a": 1, "b": 2}), ("echo", {"message": "hi"}))
    assert tab.log.replay_action.isEnabled()
    tab.log.replay_action.trigger()
    (dialog,) = _dialogs(window)
    assert dialog.recording == str(tab.controller.recording.path)
    assert dialog.target_box.itemText(0).endswith("(current connection)")
    _run(qasync_loop, dialog)
    report = dialog.report
    assert report is not None
    assert report.passed, [(r.label, r.outcome, r.error, r.diff) for r in report.results]
    assert report.recorded_era == report.target_era == "modern"  # the built-in demo: both eras, auto picks 2026-07-28
    labels = [r.label for r in dialog.model.results()]
    assert "tools/call add" in labels and "tools/call echo" in labels and "tools/list" in labels
    assert dialog.model.counts()[Outcome.CHANGED] == dialog.model.counts()[Outcome.FAILED] == 0
    assert dialog.progress.value() == dialog.progress.maximum() == len(report.results)
    assert f"{len(report.results) - report.count(Outcome.SKIPPED)} same" in dialog.counts.text()
    assert not dialog.cancel_button.isEnabled() and dialog.run_button.isEnabled()
    qtmodeltester.check(dialog.model)  # type: ignore[no-untyped-call]


def test_changed_build_shows_the_differences_side_by_side(
    make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    window = make_window()
    tab = _recorded_tab(window, qasync_loop, ("add", {"a": 1, "b": 2}), ("echo", {"message": "hi"}))
    tab.controller.recording.flush()
    changed = ConnectionSettings("changed demo", partial(demo_transport, "legacy", variant="changed"))
    dialog = ReplayDialog(str(tab.controller.recording.path), [ReplayTarget("changed demo", changed)], window)
    dialog.open()
    _run(qasync_loop, dialog)
    qtmodeltester.check(dialog.model)  # type: ignore[no-untyped-call]
    results = {r.label: (row, r) for row, r in enumerate(dialog.model.results())}
    assert dialog.report is not None and not dialog.report.passed
    row, add = results["tools/call add"]
    assert add.outcome is Outcome.CHANGED
    assert results["tools/call echo"][1].outcome in (Outcome.FAILED, Outcome.CHANGED)
    assert results["tools/list"][1].outcome is Outcome.CHANGED
    assert "changed" in dialog.counts.text() and "0 changed" not in dialog.counts.text()
    dialog.table.selectRow(row)
    view = dialog.diff
    assert view.result is add
    assert [view.differences.item(i).text() for i in range(view.differences.count())] == [
        '$.result.content[0].text: "3" → "1 + 2 = 3"'
    ]
    left = view.recorded.text.toPlainText().splitlines()
    right = view.now.text.toPlainText().splitlines()
    assert [left[n].strip().rstrip(",") for n in view.recorded.marked] == ['"text": "3"']
    assert [right[n].strip().rstrip(",") for n in view.now.marked] == ['"text": "1 + 2 = 3"']
    assert len(view.recorded.text.extraSelections()) == len(view.now.text.extraSelections()) == 1
    dialog.close()


def test_replay_from_the_offline_viewer_and_cancel(make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot) -> None:
    window = make_window()
    tab = _recorded_tab(window, qasync_loop, ("add", {"a": 1, "b": 2}), ("slow", {"seconds": 3, "steps": 3}))
    path = str(tab.controller.recording.path)
    tab.controller.recording.flush()
    chooser = window.ask_open_recording()
    chooser.fileSelected.emit(path)
    (viewer,) = chooser.opened  # type: ignore[attr-defined]
    assert viewer.panel.replay_action in viewer.menuBar().actions()[0].menu().actions()
    viewer.panel.replay_action.trigger()
    (dialog,) = _dialogs(window)
    assert dialog.recording == path
    dialog.run_button.click()
    qasync_loop.wait_until(lambda: any(r.label == "tools/call add" for r in dialog.model.results()), timeout=60)
    started = time.monotonic()
    assert dialog.runner.running
    dialog.cancel_button.click()
    qasync_loop.wait_until(lambda: not dialog.runner.running, timeout=10)
    assert time.monotonic() - started < 2.5
    assert dialog.status.text().startswith("Cancelled after")
    assert dialog.report is None
    assert all(r.label != "tools/call slow" for r in dialog.model.results())
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()
    viewer.close()


def test_targets_are_the_current_connection_then_saved_profiles(
    make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot, store: Any
) -> None:
    saved = misbehaving_profile("Saved server")
    store.create(saved)
    window = make_window()
    tab = _recorded_tab(window, qasync_loop)
    tab.log.replay_action.trigger()
    (dialog,) = _dialogs(window)
    labels = [dialog.target_box.itemText(i) for i in range(dialog.target_box.count())]
    assert labels[0] == f"{tab.title} (current connection)"
    assert "Saved server" in labels
    assert labels.count(tab.title) == 0  # the demo is offered once, as the current connection
    assert dialog.targets[labels.index("Saved server")].settings.label
    dialog.close()


def test_file_menu_replays_a_chosen_recording(make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot) -> None:
    window = make_window()
    tab = _recorded_tab(window, qasync_loop, ("add", {"a": 1, "b": 2}))
    path = str(tab.controller.recording.path)
    file_menu = window.menuBar().actions()[0].menu()
    assert window.replay_recording_action in file_menu.actions()
    window.replay_recording_action.trigger()
    choosers = [d for d in window.findChildren(QFileDialog) if d.isVisible()]
    assert len(choosers) == 1
    choosers[0].fileSelected.emit(path)
    (dialog,) = _dialogs(window)
    assert dialog.recording == path
    _run(qasync_loop, dialog)
    assert dialog.report is not None and dialog.report.passed
    assert any(r.label == "tools/call add" and r.outcome is Outcome.SAME for r in dialog.model.results())
    choosers[0].close()


def test_replay_of_a_handshake_era_session(
    make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot, store: Any, qtmodeltester: ModelTester
) -> None:
    legacy = store.create(demo_profile("Legacy demo", "legacy"))
    window = make_window()
    tab = connect_tab(window, qasync_loop, legacy.id)
    conn = tab.controller.connection
    assert conn is not None
    finish(qasync_loop, asyncio.ensure_future(conn.call_tool("add", {"a": 1, "b": 2})))
    tab.log.replay_action.trigger()
    (dialog,) = _dialogs(window)
    _run(qasync_loop, dialog)
    report = dialog.report
    assert report is not None
    assert report.recorded_era == report.target_era == "handshake"
    assert report.passed, [(r.label, r.outcome, r.error, r.diff) for r in report.results]
    assert any(r.label == "tools/call add" for r in report.results)
    qtmodeltester.check(dialog.model)  # type: ignore[no-untyped-call]


def test_screenshot_of_a_changed_answer(
    make_window: Any, qasync_loop: AsyncRunner, qtbot: QtBot, tmp_path: Any
) -> None:
    """What the dialog draws: the changed line tinted on both sides (red-ish recorded, green-ish now), the other
    lines not, and an outcome written in its colour in the table."""
    window = make_window()
    tab = _recorded_tab(window, qasync_loop, ("add", {"a": 1, "b": 2}))
    tab.controller.recording.flush()
    changed = ConnectionSettings("changed demo", partial(demo_transport, "legacy", variant="changed"))
    dialog = ReplayDialog(str(tab.controller.recording.path), [ReplayTarget("changed demo", changed)], window)
    dialog.open()
    qtbot.waitExposed(dialog)
    _run(qasync_loop, dialog)
    row = next(i for i, r in enumerate(dialog.model.results()) if r.label == "tools/call add")
    dialog.table.selectRow(row)
    qtbot.wait(50)
    image, scale = saved_grab(dialog, tmp_path / "replay_changed.png")
    assert len(colours_in(image, image.rect(), step=4)) > 50, "the screenshot is (nearly) uniform"

    def line_rect(edit: QPlainTextEdit, number: int) -> QRect:
        rect = edit.cursorRect(QTextCursor(edit.document().findBlockByNumber(number)))
        top_left = edit.viewport().mapTo(dialog, QPoint(0, rect.top()))
        width = edit.viewport().width()
        return QRect(round(top_left.x() * scale), round(top_left.y() * scale), round(width * scale),
                     round(rect.height() * scale))  # fmt: skip

    for side, key in ((dialog.diff.recorded, "old"), (dialog.diff.now, "new")):
        mark = QColor(getattr(tones(), MARK_COLOURS[key]))
        (marked,) = side.marked
        assert nearest(colours_in(image, line_rect(side.text, marked)), mark) <= 8
        assert nearest(colours_in(image, line_rect(side.text, 0)), mark) > 8  # the first line is not marked
    listing = next(i for i, r in enumerate(dialog.model.results()) if r.label == "tools/list")
    assert dialog.model.results()[listing].outcome is Outcome.CHANGED and listing != row  # not the selected row
    cell = dialog.table.visualRect(dialog.model.index(listing, 2))
    top_left = dialog.table.viewport().mapTo(dialog, cell.topLeft())
    outcome = QRect(round(top_left.x() * scale), round(top_left.y() * scale), round(cell.width() * scale),
                    round(cell.height() * scale))  # fmt: skip
    colour = QColor(getattr(tones(), OUTCOME_TONES[Outcome.CHANGED]))
    assert nearest(colours_in(image, outcome), colour) <= 40  # the text is antialiased
    dialog.close()
