""" "Compare with…" and "Save snapshot…" in the window: the in-memory demo (standard) against its deliberately
changed build, as another live connection, as a saved snapshot file and as the tab's own recording; the changes
table (kind colours, counts, filter) and the two sides of the selected change."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, finish
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.demo.in_memory import demo_transport
from inspector.regression.changes import ChangeKind
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.transports.base import Transport
from inspector.ui.regression.compare_model import CHANGE_ROLE
from inspector.ui.regression.compare_sources import FILE_CHOICE
from inspector.ui.regression.compare_view import CompareDialog
from inspector.ui.widgets.style import tones
from inspector.ui.window import profile_bridge
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow

CHANGED_ARGS = ["-m", "inspector.demo", "--variant", "changed"]


@pytest.fixture
def changed_demo(monkeypatch: pytest.MonkeyPatch, store: ProfileStore) -> str:
    """A saved profile running the changed demo build, connected in memory (as the standard demo is)."""
    of_profile = profile_bridge._transport_factory

    def factory(profile: Profile) -> Callable[[], Transport]:
        if profile.transport == "stdio" and list(profile.stdio.args) == CHANGED_ARGS:
            return partial(demo_transport, variant="changed")
        return of_profile(profile)

    monkeypatch.setattr(profile_bridge, "_transport_factory", factory)
    profile = store.create(Profile(name="changed demo", stdio=StdioSettings(command=sys.executable, args=CHANGED_ARGS)))
    return profile.id


def _two_tabs(window: MainWindow, runner: AsyncRunner, changed_id: str) -> tuple[ConnectionTab, ConnectionTab]:
    standard = connect_tab(window, runner)
    changed = connect_tab(window, runner, changed_id)
    assert window.current_tab() is changed
    return standard, changed


def _dialog(window: MainWindow, runner: AsyncRunner) -> CompareDialog:
    task = window.compare.task
    assert task is not None
    finish(runner, task, timeout=60)
    assert window.compare.dialogs, "no compare view opened"
    return window.compare.dialogs[-1]


def _check_demo_changes(dialog: CompareDialog, qtmodeltester: ModelTester) -> None:
    qtmodeltester.check(dialog.model)  # type: ignore[no-untyped-call]
    qtmodeltester.check(dialog.proxy)  # type: ignore[no-untyped-call]
    counts = dialog.model.counts()
    assert counts[ChangeKind.BREAKING] == 5, [(c.path, c.reason) for c in dialog.changes]
    assert counts[ChangeKind.COMPATIBLE] >= 3 and counts[ChangeKind.COSMETIC] >= 2
    assert dialog.badges[ChangeKind.BREAKING].text() == "5"
    assert dialog.badges[ChangeKind.BREAKING].property("tone") == "error"
    assert dialog.verdict.text().startswith("5 breaking of")
    paths = {c.path for c in dialog.changes if c.kind is ChangeKind.BREAKING}
    assert '$.tools["echo"]' in paths and '$.tools["get_weather"].inputSchema.required' in paths
    # the kind column is coloured per kind with the theme's tones
    model = dialog.model
    for row in range(model.rowCount()):
        change = model.change_at(row)
        assert change is not None
        brush = model.data(model.index(row, 0), 9)  # ForegroundRole
        if change.kind is ChangeKind.BREAKING:
            assert brush.color().name() == tones().error_fg.lower()
        if change.kind is ChangeKind.COMPATIBLE:
            assert brush.color().name() == tones().ok_fg.lower()
    # the kind filter
    dialog.filters[ChangeKind.COMPATIBLE].setChecked(False)
    dialog.filters[ChangeKind.COSMETIC].setChecked(False)
    visible = dialog.visible_changes()
    assert len(visible) == 5 and {c.kind for c in visible} == {ChangeKind.BREAKING}
    qtmodeltester.check(dialog.proxy)  # type: ignore[no-untyped-call]
    dialog.filters[ChangeKind.COSMETIC].setChecked(True)
    assert len(dialog.visible_changes()) == 5 + counts[ChangeKind.COSMETIC]
    dialog.filters[ChangeKind.COMPATIBLE].setChecked(True)
    assert len(dialog.visible_changes()) == len(dialog.changes)
    # the selected change's two sides: get_weather's input schemas
    assert dialog.select_path('$.tools["get_weather"].inputSchema.required')
    selected = dialog.selected_change()
    assert selected is not None and selected.reason == 'required argument "country" added'
    assert dialog.old_side.subject.text() == 'tools["get_weather"].inputSchema'
    assert "country" not in dialog.old_side.value["properties"]
    assert "country" in dialog.new_side.value["required"]
    assert dialog.old_side.tree.json_model.rowCount() > 0 and dialog.new_side.tree.json_model.rowCount() > 0
    assert 'required argument "country" added' in dialog.reason.text()
    # a removed tool: nothing on the new side
    assert dialog.select_path('$.tools["echo"]')
    assert dialog.old_side.value["name"] == "echo"
    assert dialog.new_side.value is None and "not on this side" in dialog.new_side.subject.text()


def test_compare_with_another_live_connection(
    make_window: MakeWindow, qasync_loop: AsyncRunner, qtbot: QtBot, qtmodeltester: ModelTester, changed_demo: str
) -> None:
    window = make_window()
    standard, _changed = _two_tabs(window, qasync_loop, changed_demo)
    assert window.compare_action.isEnabled() and window.save_snapshot_action.isEnabled()
    window.compare_action.trigger()
    chooser = window.compare.chooser
    assert chooser is not None and chooser.isVisible()
    assert chooser.live_labels == [standard.title]
    assert chooser.choices.item(1).text() == FILE_CHOICE
    chooser.choices.setCurrentRow(0)
    chooser.accept()
    dialog = _dialog(window, qasync_loop)
    assert dialog.isVisible()
    assert dialog.old_side.title.text() == f"Old: {standard.title}"
    _check_demo_changes(dialog, qtmodeltester)


def test_save_snapshot_then_compare_with_the_file_and_with_a_recording(
    make_window: MakeWindow,
    qasync_loop: AsyncRunner,
    qtbot: QtBot,
    qtmodeltester: ModelTester,
    changed_demo: str,
    tmp_path: Path,
) -> None:
    window = make_window()
    standard, changed = _two_tabs(window, qasync_loop, changed_demo)
    window.tabs.setCurrentWidget(standard)
    save = window.compare.ask_save_snapshot()
    assert save is not None and save.isVisible()
    path = tmp_path / "standard.snapshot.json"
    save.fileSelected.emit(str(path))
    finish(qasync_loop, window.compare.task, timeout=60)  # type: ignore[arg-type]
    assert window.compare.saved == [path]
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    assert snapshot["format"] == "mcp-inspect/surface-snapshot"
    assert "echo" in {tool["name"] for tool in snapshot["tools"]}
    save.close()

    window.tabs.setCurrentWidget(changed)
    window.compare_action.trigger()
    chooser = window.compare.chooser
    assert chooser is not None
    chooser.choices.setCurrentRow(len(chooser.live_labels))  # the file choice
    chooser.accept()
    assert chooser.file_dialog is not None and chooser.file_dialog.isVisible()
    chooser.file_dialog.fileSelected.emit(str(path))
    chooser.file_dialog.close()
    dialog = _dialog(window, qasync_loop)
    assert dialog.old_side.title.text() == "Old: standard.snapshot.json"
    _check_demo_changes(dialog, qtmodeltester)
    dialog.close()

    recording = standard.controller.recording
    assert recording is not None
    recording.flush()
    window.compare.compare_file(changed, str(recording.path))
    from_recording = _dialog(window, qasync_loop)
    breaking = {c.path for c in from_recording.changes if c.kind is ChangeKind.BREAKING}
    assert '$.tools["echo"]' in breaking
    assert '$.tools["get_weather"].inputSchema.required' in breaking
    assert from_recording.proxy.index(0, 0).data(CHANGE_ROLE).kind is ChangeKind.BREAKING


def test_same_surface_and_unreadable_file(
    make_window: MakeWindow, qasync_loop: AsyncRunner, qtbot: QtBot, tmp_path: Path, monkeypatch: Any
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    errors: list[str] = []
    monkeypatch.setattr(window.compare, "_show_error", errors.append)
    path = tmp_path / "same.json"
    finish(qasync_loop, window.compare.save_snapshot(tab, str(path)), timeout=60)
    window.compare.compare_file(tab, str(path))
    dialog = _dialog(window, qasync_loop)
    assert dialog.changes == [] and dialog.model.rowCount() == 0
    assert dialog.verdict.text() == "No changes: the two surfaces are the same."
    bogus = tmp_path / "bogus.json"
    bogus.write_text("{}", encoding="utf-8")
    finish(qasync_loop, window.compare.compare_file(tab, str(bogus)), timeout=60)
    assert len(errors) == 1 and "not a surface snapshot" in errors[0]


def test_screenshot(qasync_loop: AsyncRunner, qtbot: QtBot, tmp_path: Path) -> None:
    """What the view draws: each kind's name in its tone's colour, the breaking badge on the error background, the
    selected row highlighted, and both sides' schemas filled in."""
    from pixels import colours_in, nearest, saved_grab
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor

    from inspector.client.connection import Connection
    from inspector.regression.snapshot import take_snapshot
    from inspector.ui.widgets.style import tone_colors

    async def snap(variant: str) -> dict[str, Any]:
        async with Connection(demo_transport("legacy", variant=variant), protocol_era="legacy") as conn:
            return await take_snapshot(conn)

    old, new = qasync_loop.run(snap("standard")), qasync_loop.run(snap("changed"))
    dialog = CompareDialog(old, new, "standard", "changed")
    qtbot.addWidget(dialog)
    dialog.resize(1200, 760)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.select_path('$.tools["large_result"].inputSchema.properties.shape.enum')
    qtbot.wait(50)
    image, scale = saved_grab(dialog, tmp_path / "compare.png")
    assert len(colours_in(image, image.rect(), step=3)) > 50, "the screenshot is (nearly) uniform"

    def on_image(widget: Any, rect: QRect) -> QRect:
        top_left = widget.mapTo(dialog, rect.topLeft())
        return QRect(round(top_left.x() * scale), round(top_left.y() * scale),
                     round(rect.width() * scale), round(rect.height() * scale))  # fmt: skip

    t = tones()
    viewport = dialog.table.viewport()
    model = dialog.proxy
    first_by_kind: dict[ChangeKind, int] = {}
    for row in range(model.rowCount()):
        first_by_kind.setdefault(model.index(row, 0).data(CHANGE_ROLE).kind, row)
    selected_row = dialog.table.selectionModel().selectedRows()[0].row()
    for kind, tone in ((ChangeKind.BREAKING, "error"), (ChangeKind.COMPATIBLE, "ok")):
        row = first_by_kind[kind]
        assert row != selected_row
        drawn = colours_in(image, on_image(viewport, dialog.table.visualRect(model.index(row, 0))))
        assert nearest(drawn, QColor(tone_colors(t, tone)[0])) <= 24, f"{kind}: not drawn in the {tone} colour"
        other = "ok" if tone == "error" else "error"
        assert nearest(drawn, QColor(tone_colors(t, other)[0])) > 24, f"{kind}: drawn in the {other} colour"
    selected = colours_in(image, on_image(viewport, dialog.table.visualRect(model.index(selected_row, 2))))
    highlight = dialog.table.palette().color(
        dialog.table.palette().currentColorGroup(), dialog.table.palette().ColorRole.Highlight
    )
    assert nearest(selected, highlight) <= 4, "the selected change is not highlighted"
    badge = dialog.badges[ChangeKind.BREAKING]
    drawn = colours_in(image, on_image(badge, badge.rect()))
    assert nearest(drawn, QColor(tone_colors(t, "error")[1])) <= 8, "the breaking count is not on the error background"
    for side in (dialog.old_side, dialog.new_side):
        tree = side.tree
        assert tree.json_model.rowCount() > 0
        drawn = colours_in(image, on_image(tree.viewport(), tree.viewport().rect()), step=2)
        assert len(drawn) > 10, "a side's schema tree is empty"
    assert dialog.old_side.value["properties"]["shape"]["enum"] == ["text", "json"]
    assert dialog.new_side.value["properties"]["shape"]["enum"] == ["text"]
