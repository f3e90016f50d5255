"""The Collections tab: "Save to collection" from the Tools, Prompts and Resources pages and the log, then the
panel that edits assertions, runs the calls against the connection (in-memory demo) and saves the file."""

from __future__ import annotations

import json
from pathlib import Path

from guikit import AsyncRunner, MakeController, MakeWindow, connect_tab, prompt_page, tool_page, wire_rows
from pixels import saved_grab
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.client.handlers import HeadlessHandlers
from inspector.demo.in_memory import demo_transport
from inspector.regression.assertions import assertion_from_json, outcome
from inspector.regression.collection import load_collection
from inspector.ui.regression.collections_panel import CollectionsPanel
from inspector.ui.widgets.style import tones

DEMO_COLLECTION = Path(__file__).resolve().parents[2] / "docs" / "collections" / "demo.collection.json"


def test_save_to_collection_from_every_page_and_the_log(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, qtmodeltester: ModelTester
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    collections = tab.collections
    assert tab.inner_tabs.indexOf(collections) >= 0
    assert tab.inner_tabs.tabText(tab.inner_tabs.indexOf(collections)) == "Collections"

    page = tool_page(tab, "echo")
    qasync_loop.wait_until(lambda: page.form is not None)
    page.form.set_value({"message": "saved from the page"})
    qtbot.mouseClick(page.save_call_button, Qt.MouseButton.LeftButton)
    saved = collections.collection.calls[-1]
    assert (saved.name, saved.method) == ("tools/call echo", "tools/call")
    assert saved.params == {"name": "echo", "arguments": {"message": "saved from the page"}}
    assert saved.assertions == (outcome("ok"),)
    assert collections.dirty and "unsaved changes" in collections.title_label.text()

    tab.inner_tabs.setCurrentWidget(tab.prompts)
    qasync_loop.wait_until(lambda: tab.prompts.browser.model.total() > 0, timeout=20)
    prompt = prompt_page(tab, "greeting")
    prompt.set_values({"name": "Ada"})
    qtbot.mouseClick(prompt.save_call_button, Qt.MouseButton.LeftButton)
    saved = collections.collection.calls[-1]
    assert (saved.name, saved.method) == ("prompts/get greeting", "prompts/get")
    assert saved.params == {"name": "greeting", "arguments": {"name": "Ada"}}

    resources = tab.resources
    tab.inner_tabs.setCurrentWidget(resources)
    qasync_loop.wait_until(lambda: resources.resources_model.rowCount() > 0, timeout=20)
    assert not resources.save_to_collection()  # nothing chosen yet: nothing saved, said so
    assert "Nothing to save" in resources.status_label.text()
    assert resources.resources_page.select_uri("demo://text/hello")
    qasync_loop.wait_until(lambda: resources.current_uri == "demo://text/hello", timeout=15)
    qtbot.mouseClick(resources.detail.save_call_button, Qt.MouseButton.LeftButton)
    saved = collections.collection.calls[-1]
    assert (saved.name, saved.params) == ("resources/read demo://text/hello", {"uri": "demo://text/hello"})

    # the log: a request row we sent (its _meta left out); a response row is not a call
    tab.inner_tabs.setCurrentWidget(tab.tools)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    request = wire_rows(tab.controller, "request", "out", "tools/call")[-1]
    answer = wire_rows(tab.controller, "response", "in", "tools/call")[-1]
    log = tab.log
    tab.inner_tabs.setCurrentWidget(log)
    log.refresh()
    for seq, expected in ((answer.seq, False), (request.seq, True)):
        qasync_loop.wait_until(lambda s=seq: log.select_seq(s), timeout=10)
        qasync_loop.wait_until(lambda s=seq: log.detail.row is not None and log.detail.row.seq == s, timeout=10)
        assert (log.saved_call() is not None) is expected
    log.save_call_action.trigger()
    saved = collections.collection.calls[-1]
    assert saved.name == "tools/call echo (2)"
    assert saved.params == {"name": "echo", "arguments": {"message": "saved from the page"}}
    assert [call.name for call in collections.collection.calls] == [
        "tools/call echo",
        "prompts/get greeting",
        "resources/read demo://text/hello",
        "tools/call echo (2)",
    ]
    qtmodeltester.check(collections.calls_model)  # type: ignore[no-untyped-call]

    # and they all run against this connection
    assert collections.run_all()
    qasync_loop.wait_until(lambda: not collections.running, timeout=30)
    results = [collections.calls_model.index(row, 3).data() for row in range(4)]
    assert results == ["PASS"] * 4
    assert "4 calls passed, 0 failed" in collections.status_label.text()


def test_the_panel_edits_runs_and_saves(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, qtmodeltester: ModelTester, tmp_path: Path
) -> None:
    # headless answers to the server's elicitation (the demo's ask_twice asks in both rounds)
    panel = CollectionsPanel(make_controller(era="modern", handlers=HeadlessHandlers()))
    qtbot.addWidget(panel)
    panel.resize(1100, 700)
    panel.show()
    assert panel.open_file(DEMO_COLLECTION)
    names = [call["name"] for call in json.loads(DEMO_COLLECTION.read_text(encoding="utf-8"))["calls"]]
    assert panel.calls_model.rowCount() == len(names)
    assert not panel.dirty and "demo smoke" in panel.title_label.text()
    qtmodeltester.check(panel.calls_model)  # type: ignore[no-untyped-call]

    reports: list[object] = []
    panel.runFinished.connect(reports.append)
    qtbot.mouseClick(panel.run_all_button, Qt.MouseButton.LeftButton)
    assert not panel.run_all_button.isEnabled()  # while it runs
    qasync_loop.wait_until(lambda: not panel.running, timeout=60)
    assert len(reports) == 1
    assert [panel.calls_model.index(row, 3).data() for row in range(len(names))] == ["PASS"] * len(names)

    # edit the expected text of "add": the run fails, showing the failing assertion and the actual value
    panel.select_row(names.index("add sums two numbers"))
    model = panel.assertions_model
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data() == '$.content[0].text equals "3"')
    assert model.index(row, 1).data() == "PASS" and model.index(row, 2).data() == '"3"'
    panel.assertions_view.selectionModel().setCurrentIndex(
        model.index(row, 0), panel.assertions_view.selectionModel().SelectionFlag.ClearAndSelect
    )
    assert panel.edit_assertion_button.isEnabled()
    dialog = panel.edit_assertion_dialog()
    assert dialog is not None and dialog.kind() == "equals" and dialog.path_edit.text() == "$.content[0].text"
    dialog.value_edit.setText('"three"')
    dialog.accept()
    assert panel.dirty
    assert model.index(row, 0).data() == '$.content[0].text equals "three"'
    assert model.index(row, 1).data() == ""  # not run since the edit
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not panel.running, timeout=30)
    result = panel.calls_model.index(names.index("add sums two numbers"), 3).data()
    assert result == 'FAIL: $.content[0].text equals "three": $.content[0].text is "3"'
    assert model.index(row, 1).data() == 'FAIL: $.content[0].text is "3"'
    assert model.index(row, 2).data() == '"3"'
    assert "failing: " in panel.detail.toPlainText()
    qtmodeltester.check(model)  # type: ignore[no-untyped-call]

    # add: a bad field keeps the dialog open with the problem; a good one is added
    before = model.rowCount()
    dialog = panel.add_assertion_dialog()
    assert dialog is not None
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("latency"))
    dialog.max_ms_edit.setText("soon")
    dialog.accept()
    assert dialog.isVisible() and "max_ms" in dialog.problem_label.text()
    dialog.max_ms_edit.setText("60000")
    dialog.accept()
    assert model.rowCount() == before + 1
    assert model.index(before, 0).data() == "latency under 60000 ms"
    # remove it again
    panel.assertions_view.selectionModel().setCurrentIndex(
        model.index(before, 0), panel.assertions_view.selectionModel().SelectionFlag.ClearAndSelect
    )
    qtbot.mouseClick(panel.remove_assertion_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == before

    # save, and read back what was saved
    target = tmp_path / "edited.collection.json"
    assert panel.save_file(target)
    assert not panel.dirty
    reread = load_collection(target)
    assert [call.name for call in reread.calls] == names
    edited = reread.call("add sums two numbers")
    assert {"kind": "equals", "path": "$.content[0].text", "value": "three"} in [a.to_json() for a in edited.assertions]
    assert panel.open_file(target) and panel.calls_model.rowCount() == len(names)

    # an unreadable file is refused with the reason; the collection shown stays
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 9}', encoding="utf-8")
    assert not panel.open_file(bad)
    assert "version" in panel.status_label.text() and panel.calls_model.rowCount() == len(names)


def test_running_without_a_connection_says_so(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    controller = make_controller()
    panel = CollectionsPanel(controller)
    qtbot.addWidget(panel)
    panel.add_call("tools/call", {"name": "echo", "arguments": {"message": "x"}})
    qasync_loop.run(controller.aclose())
    assert not panel.run_all()
    assert panel.status_label.text() == "Not connected: connect to run the collection."


def test_the_changed_build_fails_in_the_panel(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    controller = make_controller(
        lambda: demo_transport("both", variant="changed"), era="modern", handlers=HeadlessHandlers()
    )
    panel = CollectionsPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.open_file(DEMO_COLLECTION)
    assert panel.run_all()
    qasync_loop.wait_until(lambda: not panel.running, timeout=60)
    model = panel.calls_model
    results = {model.index(row, 0).data(): model.index(row, 3).data() for row in range(model.rowCount())}
    assert results["echo returns its message"].startswith("FAIL: outcome is ok: the outcome: isError:")
    assert results["weather for Lagos"].startswith("FAIL: outcome is ok")
    assert results["add sums two numbers"] == 'FAIL: $.content[0].text equals "3": $.content[0].text is "1 + 2 = 3"'
    assert results["hello resource"] == "PASS"
    assert "4 failed" in panel.status_label.text()
    panel.select_row(model.row_of("add sums two numbers") or 0)
    actual = [panel.assertions_model.index(r, 2).data() for r in range(panel.assertions_model.rowCount())]
    assert '"1 + 2 = 3"' in actual


def test_screenshot_of_a_run_with_a_failure(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    """What the panel draws after a run: each result in the theme's pass or fail colour, the failing assertion's
    text in the table, the selected call's assertions below with their results."""
    panel = CollectionsPanel(make_controller(era="modern"))
    qtbot.addWidget(panel)
    panel.resize(1200, 640)
    panel.show()
    qtbot.waitExposed(panel)
    panel.add_call("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
    saved = panel.add_call("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})
    panel.add_assertion(assertion_from_json({"kind": "equals", "path": "$.structuredContent.sum", "value": 4}))
    assert panel.run_all()
    qasync_loop.wait_until(lambda: not panel.running, timeout=30)
    panel.calls_view.resizeColumnsToContents()
    panel.calls_view.clearSelection()  # a selected row is drawn in the highlight's colours instead
    qtbot.wait(50)
    image, scale = saved_grab(panel, tmp_path / "collections_panel.png")
    assert (image.width(), image.height()) == (round(panel.width() * scale), round(panel.height() * scale))

    view, model = panel.calls_view, panel.calls_model
    t = tones(panel)

    def colours(row: int) -> set[tuple[int, int, int]]:
        rect = view.visualRect(model.index(row, 3))
        top_left = view.viewport().mapTo(panel, rect.topLeft())
        found: set[tuple[int, int, int]] = set()
        for x in range(round(top_left.x() * scale), round((top_left.x() + rect.width()) * scale)):
            for y in range(round(top_left.y() * scale), round((top_left.y() + rect.height()) * scale)):
                c = image.pixelColor(x, y)
                found.add((c.red(), c.green(), c.blue()))
        return found

    def near(found: set[tuple[int, int, int]], colour: str) -> bool:
        want = QColor(colour)
        return any(abs(r - want.red()) + abs(g - want.green()) + abs(b - want.blue()) < 60 for r, g, b in found)

    echo_row, add_row = model.row_of("tools/call echo"), model.row_of(saved.name)
    assert echo_row is not None and add_row is not None
    assert model.index(echo_row, 3).data() == "PASS"
    assert model.index(add_row, 3).data() == "FAIL: $.structuredContent.sum equals 4: $.structuredContent.sum is 3.0"
    assert near(colours(echo_row), t.ok_fg) and not near(colours(echo_row), t.error_fg)
    assert near(colours(add_row), t.error_fg) and not near(colours(add_row), t.ok_fg)
