"""The window with config / data dirs that cannot be written: it says so (banner, the tab's header, the status bar),
sessions record in memory and work, a connection that cannot start leaves no tab behind, and saving a profile
that cannot be written keeps the dialog open with what was typed and the profiles file as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from guikit import AsyncRunner, MakeController, MakeWindow, Misbehaving
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from unwritable import KINDS, read_only_mount, unwritable_dir

from inspector.store.canned_replies import CannedReplies, CannedReply
from inspector.store.history import ArgumentHistory
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.store.recording import MEMORY_ONLY, Recording, RecordingError
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.explore.tools.page import HistoryPane
from inspector.ui.server_requests.canned import CannedPicker
from inspector.ui.window.settings import UiSettings

DATA_KINDS = ("not-a-directory", "proc", "sysfs")
"""(``sysfs-existing`` is /sys itself: its ``recordings`` subdirectory fails like ``sysfs``.)"""


@pytest.mark.parametrize("kind", DATA_KINDS)
def test_an_unwritable_data_dir_is_said_and_the_session_records_in_memory(
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    make_window: MakeWindow,
    store: ProfileStore,
    misbehaving: Misbehaving,
    qasync_loop: AsyncRunner,
) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    monkeypatch.setenv("MCP_INSPECTOR_DATA_DIR", str(where))
    note = f"{MEMORY_ONLY}: cannot write {where / 'recordings'}: "
    profile = store.create(misbehaving("good server"))
    window = make_window()
    assert window.banner.isVisible() and "Recording kept in memory only: cannot write" in window.banner.text()

    tab = window.connect_profile(profile.id)
    assert tab is not None and window.tabs.count() == 1
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    recording = tab.controller.recording
    assert recording is not None and str(recording.path) == ":memory:"
    assert tab.controller.storage_note is not None and tab.controller.storage_note.startswith(note)
    assert tab.storage_label.isVisible() and "Recording kept in memory only: cannot write" in tab.storage_label.text()
    assert str(where / "recordings") in tab.storage_label.text()
    assert tab.storage_label.text().endswith(os.strerror(code))
    assert "in memory only" in window.statusBar().currentMessage()
    # the session works: the log shows the handshake from the in-memory recording
    qasync_loop.wait_until(lambda: tab.log.model.rowCount() >= 2)
    assert recording.count() >= 2


def test_an_unwritable_data_dir_with_a_plain_controller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_controller: MakeController
) -> None:
    where, _code = unwritable_dir("not-a-directory", tmp_path)
    monkeypatch.setenv("MCP_INSPECTOR_DATA_DIR", str(where))
    controller = make_controller(label="demo")
    assert controller.storage_note == f"{MEMORY_ONLY}: cannot write {where / 'recordings'}: Not a directory"
    assert controller.recording is not None and controller.recording.count() >= 2


def test_a_failing_recording_factory_falls_back_to_memory(
    make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving, qasync_loop: AsyncRunner
) -> None:
    def refuse(label: str, target: str) -> Recording:
        raise PermissionError(13, "Permission denied", "/x/y")

    profile = store.create(misbehaving("good server"))
    window = make_window()
    window._recording_factory = refuse
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED
    assert tab.controller.storage_note == f"{MEMORY_ONLY}: Permission denied: /x/y"
    assert tab.storage_label.isVisible()


def test_a_connection_that_cannot_start_leaves_no_tab_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
    make_window: MakeWindow,
    store: ProfileStore,
    misbehaving: Misbehaving,
    qtbot: QtBot,
) -> None:
    def refuse(label: str, target: str) -> Recording:
        raise PermissionError(13, "Permission denied", "/x/y")

    def no_memory(*args: object, **kwargs: object) -> Recording:
        raise RecordingError("cannot open :memory:: out of memory")

    monkeypatch.setattr(Recording, "in_memory", no_memory)
    profile = store.create(misbehaving("good server"))
    window = make_window()
    window._recording_factory = refuse
    assert window.connect_profile(profile.id) is None
    assert window.tabs.count() == 0 and window.stack.currentWidget() is window.welcome
    assert window.last_error is not None
    assert window.last_error.startswith("Could not connect good server: the session cannot be recorded:")
    assert "Permission denied: /x/y" in window.last_error
    assert any(box.isVisible() for box in window.findChildren(QMessageBox))  # shown without blocking the loop
    qtbot.wait(50)  # the discarded tab is closed in the background


@pytest.mark.parametrize("kind", KINDS)
def test_an_unwritable_config_dir_is_said_and_a_profile_save_keeps_the_dialog(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_window: MakeWindow, qtbot: QtBot
) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(where))
    store = ProfileStore()
    settings = UiSettings()
    window = make_window(store, settings)
    text = window.banner.text()
    assert window.banner.isVisible()
    assert f"Profile and settings changes kept in memory only: cannot write {where}: {os.strerror(code)}" in text

    qtbot.mouseClick(window.profiles.new_button, Qt.MouseButton.LeftButton)
    dialog = window.profiles.dialog
    assert dialog is not None
    dialog.name_edit.setText("weather")
    dialog.command_edit.setText("uvx")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.error_label.isVisible()  # nothing typed is lost
    assert f"The profile could not be saved: cannot write {where}: {os.strerror(code)}" in dialog.error_label.text()
    assert dialog.name_edit.text() == "weather" and len(store) == 0
    dialog.reject()
    settings.last_profile = "some-profile"
    assert settings.sync() == f"the window state could not be saved to {where / 'window.ini'}"


def test_a_read_only_config_dir_keeps_the_saved_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_window: MakeWindow, qtbot: QtBot
) -> None:
    seed = ProfileStore(tmp_path / "seed" / "profiles.json")
    saved = seed.create(Profile(name="weather", stdio=StdioSettings(command="uvx")))
    before = seed.path.read_bytes()
    with read_only_mount(tmp_path, {"profiles.json": before}) as config:
        monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(config))
        store = ProfileStore()
        window = make_window(store, UiSettings())
        assert "Read-only file system" in window.banner.text()
        editor = window.profiles.edit_selected() if window.profiles.select(saved.id) else None
        assert editor is not None
        editor.name_edit.setText("weather (edited)")
        qtbot.mouseClick(editor.ok_button, Qt.MouseButton.LeftButton)
        assert editor.isVisible() and "Read-only file system" in editor.error_label.text()
        editor.reject()
        assert [p.name for p in store] == ["weather"]
        assert (config / "profiles.json").read_bytes() == before


@pytest.mark.parametrize("kind", KINDS)
def test_canned_replies_that_cannot_be_saved_say_so(kind: str, tmp_path: Path, qtbot: QtBot) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    picker = CannedPicker(
        CannedReplies(where / "canned_replies.json"),
        lambda name: CannedReply(name=name, content={"type": "text", "text": "ok"}),
    )
    qtbot.addWidget(picker)
    picker.show()
    assert picker.save_as("always ok") is not None
    assert picker.note_label.isVisible()
    assert picker.note_label.text() == f"Kept for this session only: cannot write {where}: {os.strerror(code)}"
    assert picker.note_label.property("icon_name") == "warning"  # an icon of the set marks it, not a glyph
    assert picker.combo.findData("always ok") > 0  # usable for the rest of the session


@pytest.mark.parametrize("kind", KINDS)
def test_argument_history_that_cannot_be_saved_says_so(kind: str, tmp_path: Path, qtbot: QtBot) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    history = ArgumentHistory("server", where)
    pane = HistoryPane(history, "echo")
    qtbot.addWidget(pane)
    pane.show()
    assert not pane.save_note.isVisible()
    history.record("echo", {"text": "hi"})
    pane.reload()
    assert pane.model.rowCount() == 1 and pane.save_note.isVisible()
    assert pane.save_note.text() == (
        f"Argument history kept for this session only: cannot write {where}: {os.strerror(code)}"
    )
    assert pane.save_note.property("icon_name") == "warning"
