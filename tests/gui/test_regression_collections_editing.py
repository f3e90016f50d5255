"""The Collections panel edits its calls: rename in place (a clash refused), the request (bad JSON refused),
duplicate, move in the run order (buttons and Ctrl+Up / Ctrl+Down), a saved file read back in that order, and New /
Open asking before unsaved changes are dropped. Real widgets, the in-memory demo server, real files."""

from __future__ import annotations

from pathlib import Path

from guikit import AsyncRunner, MakeController
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.regression.assertions import assertion_from_json
from inspector.regression.collection import load_collection
from inspector.ui.regression.collections_panel import CollectionsPanel

CTRL = Qt.KeyboardModifier.ControlModifier
ECHO = "tools/call echo"
ADD = "tools/call add"
HELLO = "resources/read demo://text/hello"


def _panel(qtbot: QtBot, make_controller: MakeController) -> CollectionsPanel:
    panel = CollectionsPanel(make_controller(era="modern"))
    qtbot.addWidget(panel)
    panel.resize(1100, 640)
    panel.show()
    qtbot.waitExposed(panel)
    panel.add_call("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
    panel.add_call("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})
    panel.add_call("resources/read", {"uri": "demo://text/hello"})
    return panel


def _names(panel: CollectionsPanel) -> list[str]:
    model = panel.calls_model
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def _editor(panel: CollectionsPanel, qtbot: QtBot) -> QLineEdit:
    found: list[QLineEdit] = []

    def open_editor() -> bool:
        found[:] = [e for e in panel.calls_view.viewport().findChildren(QLineEdit) if e.isVisible()]
        return bool(found)

    qtbot.waitUntil(open_editor, timeout=3000)
    return found[0]


def test_calls_are_renamed_in_place_keeping_their_result(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_controller: MakeController,
    qtmodeltester: ModelTester,
    tmp_path: Path,
) -> None:
    panel = _panel(qtbot, make_controller)
    assert panel.run_all()
    qasync_loop.wait_until(lambda: not panel.running, timeout=30)
    assert panel.save_file(tmp_path / "three.collection.json")
    assert not panel.dirty and "•" not in panel.title_label.text()

    # F2 in the table edits the selected call's name in place (from whichever cell is current); Enter renames
    panel.select_row(1)
    view = panel.calls_view
    view.setFocus()
    view.setCurrentIndex(panel.calls_model.index(1, 2))
    qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = _editor(panel, qtbot)
    assert editor.text() == ADD and editor.accessibleName() == "New name of the call"
    editor.selectAll()
    qtbot.keyClicks(editor, "sum of two")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on the next turn of the event loop
    qtbot.waitUntil(lambda: _names(panel) == [ECHO, "sum of two", HELLO], timeout=3000)
    selected = panel.selected_call()
    assert selected is not None and selected.name == "sum of two"  # the selection followed
    assert panel.dirty and "•" in panel.title_label.text()
    assert "Renamed 'tools/call add' to 'sum of two'" in panel.status_label.text()
    # the last run's report stays with it: in the table and on its assertions
    assert panel.calls_model.index(1, 3).data() == "PASS"
    assert panel.assertions_model.index(0, 1).data() == "PASS"

    # "Rename…" edits in place too; a name another call has is refused, the old name kept
    qtbot.mouseClick(panel.rename_button, Qt.MouseButton.LeftButton)
    editor = _editor(panel, qtbot)
    editor.setText(ECHO)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Cannot rename" in panel.status_label.text(), timeout=3000)
    assert _names(panel) == [ECHO, "sum of two", HELLO]
    assert "Cannot rename 'sum of two': another call is named 'tools/call echo' already" in panel.status_label.text()
    assert "the name stays 'sum of two'" in panel.status_label.text()
    # an empty name too
    assert not panel.rename_call("sum of two", "   ")
    assert "non-empty name" in panel.status_label.text() and _names(panel)[1] == "sum of two"
    qtmodeltester.check(panel.calls_model)  # type: ignore[no-untyped-call]


def test_the_request_changes_only_on_a_valid_apply(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    panel = _panel(qtbot, make_controller)
    panel.select_row(1)
    before = panel.collection
    qtbot.mouseClick(panel.edit_request_button, Qt.MouseButton.LeftButton)
    dialog = panel.request_box
    assert dialog is not None and dialog.isVisible()
    assert dialog.method_combo.currentText() == "tools/call"
    assert '"a": 1' in dialog.params_edit.toPlainText()

    # not JSON: refused with the parse error and where it is (the cursor put there), the call unchanged
    dialog.params_edit.setPlainText('{"name": "add",\n "arguments": {"a": 2 "b": 5}}')
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert dialog.problem_label.text() == "params: not JSON: Expecting ',' delimiter at line 2 column 23"
    cursor = dialog.params_edit.textCursor()
    assert (cursor.blockNumber(), cursor.positionInBlock()) == (1, 22)
    assert panel.collection == before
    # JSON that is not an object
    dialog.params_edit.setPlainText("[2, 5]")
    dialog.accept()
    assert dialog.isVisible() and "a JSON object {...}, not a list" in dialog.problem_label.text()
    # an object a file could not hold for this method
    dialog.method_combo.setCurrentText("resources/read")
    dialog.params_edit.setPlainText('{"uri": 3}')
    dialog.accept()
    assert dialog.isVisible() and dialog.problem_label.text() == "params.uri: resources/read needs a string 'uri'"
    assert panel.collection == before

    # a valid one is applied; the run sends it
    dialog.method_combo.setCurrentText("tools/call")
    dialog.params_edit.setPlainText('{"name": "add", "arguments": {"a": 2, "b": 5}}')
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and panel.request_box is None
    saved = panel.collection.call(ADD)
    assert saved.params == {"name": "add", "arguments": {"a": 2, "b": 5}}
    assert panel.dirty and '"b": 5' in panel.detail.toPlainText()
    assert [call.name for call in panel.collection.calls] == [ECHO, ADD, HELLO]
    panel.add_assertion(assertion_from_json({"kind": "equals", "path": "$.content[0].text", "value": "7"}))
    assert panel.run_selected()
    qasync_loop.wait_until(lambda: not panel.running, timeout=30)
    assert panel.calls_model.index(1, 3).data() == "PASS"

    # Cancel leaves it alone
    dialog = panel.request_dialog()
    assert dialog is not None
    dialog.params_edit.setPlainText("{}")
    dialog.reject()
    assert panel.collection.call(ADD).params == {"name": "add", "arguments": {"a": 2, "b": 5}}


def test_duplicate_and_move_are_saved_in_the_run_order(
    qtbot: QtBot, make_controller: MakeController, qtmodeltester: ModelTester, tmp_path: Path
) -> None:
    panel = _panel(qtbot, make_controller)
    panel.select_row(0)
    assert not panel.move_up_button.isEnabled() and panel.move_down_button.isEnabled()
    qtbot.mouseClick(panel.duplicate_button, Qt.MouseButton.LeftButton)
    assert _names(panel) == [ECHO, f"{ECHO} (copy)", ADD, HELLO]
    copy = panel.selected_call()
    assert copy is not None and copy.name == f"{ECHO} (copy)"
    assert (copy.method, copy.params, copy.assertions) == (
        "tools/call",
        {"name": "echo", "arguments": {"message": "hi"}},
        panel.collection.call(ECHO).assertions,
    )

    # Ctrl+Down / Ctrl+Up in the table move the selected call; the selection goes with it
    view = panel.calls_view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Down, CTRL)
    qtbot.keyClick(view, Qt.Key.Key_Down, CTRL)
    assert _names(panel) == [ECHO, ADD, HELLO, f"{ECHO} (copy)"]
    assert not panel.move_down_button.isEnabled() and panel.move_up_button.isEnabled()
    assert not panel.move_selected(1)  # already last
    qtbot.keyClick(view, Qt.Key.Key_Up, CTRL)
    assert _names(panel) == [ECHO, ADD, f"{ECHO} (copy)", HELLO]
    # the buttons too
    panel.select_row(0)
    qtbot.mouseClick(panel.move_down_button, Qt.MouseButton.LeftButton)
    assert _names(panel) == [ADD, ECHO, f"{ECHO} (copy)", HELLO]
    selected = panel.selected_call()
    assert selected is not None and selected.name == ECHO
    qtbot.mouseClick(panel.move_up_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.move_down_button, Qt.MouseButton.LeftButton)
    assert panel.rename_call(f"{ECHO} (copy)", "echo again")
    order = [ADD, ECHO, "echo again", HELLO]
    assert _names(panel) == order
    qtmodeltester.check(panel.calls_model)  # type: ignore[no-untyped-call]

    # saved and read back: the order is the run order, the names are kept
    target = tmp_path / "edited.collection.json"
    assert panel.save_file(target) and not panel.dirty
    assert [saved.name for saved in load_collection(target).calls] == order
    panel.new_collection()
    assert panel.open_file(target)
    assert _names(panel) == order
    assert panel.collection.call("echo again").params == {"name": "echo", "arguments": {"message": "hi"}}


def test_new_and_open_ask_before_dropping_unsaved_changes(
    qtbot: QtBot, make_controller: MakeController, tmp_path: Path
) -> None:
    panel = _panel(qtbot, make_controller)
    assert panel.dirty and panel.title_label.text().startswith("<b>• ")

    # Cancel keeps the collection as it is
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    box = panel.unsaved_box
    assert box is not None and box.isVisible() and "unsaved changes" in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert panel.unsaved_box is None
    assert _names(panel) == [ECHO, ADD, HELLO] and panel.dirty
    qtbot.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)  # Open asks the same first
    box = panel.unsaved_box
    assert box is not None and box.isVisible()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert _names(panel) == [ECHO, ADD, HELLO] and panel.dirty

    # Discard drops it
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    box = panel.unsaved_box
    assert box is not None
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Discard), Qt.MouseButton.LeftButton)
    assert _names(panel) == [] and not panel.dirty and "•" not in panel.title_label.text()
    # nothing unsaved: New asks nothing
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    assert panel.unsaved_box is None

    # Save writes the file first, then starts the new collection
    target = tmp_path / "kept.collection.json"
    panel.add_call("tools/call", {"name": "echo", "arguments": {"message": "one"}})
    assert panel.save_file(target)
    panel.add_call("tools/call", {"name": "echo", "arguments": {"message": "two"}})
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    box = panel.unsaved_box
    assert box is not None
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert [saved.name for saved in load_collection(target).calls] == [ECHO, f"{ECHO} (2)"]
    assert _names(panel) == [] and panel.path is None and not panel.dirty


def test_new_collection_controls_are_named_and_explained(qtbot: QtBot, make_controller: MakeController) -> None:
    panel = _panel(qtbot, make_controller)
    panel.select_row(1)
    buttons = (
        panel.rename_button,
        panel.edit_request_button,
        panel.duplicate_button,
        panel.move_up_button,
        panel.move_down_button,
    )
    for button in buttons:
        assert button.isEnabled() and button.accessibleName() and button.toolTip(), button.text()
    dialog = panel.request_dialog()
    assert dialog is not None
    fields: tuple[QWidget, ...] = (dialog.method_combo, dialog.params_edit, dialog.apply_button)
    for field in fields:
        assert field.accessibleName() and field.toolTip(), type(field).__name__
    dialog.reject()
