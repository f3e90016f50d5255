"""Profiles through the UI: CRUD with the dialog, reordering, secrets kept off disk, import, export, notices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import keyring
import keyring.backends.null
import pytest
from guikit import MakeWindow
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from inspector.store.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.store.secrets import SERVICE_NAME
from inspector.ui.profiles.panel import ProfileListModel

SECRET = "sk-live-9f8e7d6c5b4a-do-not-leak"


def _profile(name: str, command: str = "uvx", secret: str | None = None) -> Profile:
    env = [EnvVar("UNITS", "metric")]
    if secret is not None:
        env.append(EnvVar("API_KEY", secret, secret=True))
    return Profile(name=name, stdio=StdioSettings(command=command, args=[f"{name}-mcp"], env=env))


def _names(store: ProfileStore) -> list[str]:
    return [p.name for p in store.list_profiles()]


def _files_containing(roots: list[Path], needle: str) -> list[Path]:
    found = []
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and needle.encode() in path.read_bytes():
                found.append(path)
    return found


def test_model_is_a_valid_qt_model(qtmodeltester: Any, store: ProfileStore) -> None:
    for name in ("alpha", "beta", "gamma"):
        store.create(_profile(name))
    model = ProfileListModel(store)
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    assert model.data(model.index(1, 0)) == "beta"
    assert "beta-mcp" in model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    # a drag-and-drop move (what QListView's InternalMove does) reorders the store
    assert model.moveRows(QModelIndex(), 0, 1, QModelIndex(), 3)
    assert _names(store) == ["beta", "gamma", "alpha"]
    assert model.moveRows(QModelIndex(), 2, 1, QModelIndex(), 0)
    assert _names(store) == ["alpha", "beta", "gamma"]
    assert not model.moveRows(QModelIndex(), 1, 1, QModelIndex(), 1)  # onto itself
    qtmodeltester.check(model)
    assert _names(ProfileStore()) == ["alpha", "beta", "gamma"]  # saved


def test_create_edit_duplicate_delete_through_the_ui(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, qtmodeltester: Any
) -> None:
    window = make_window()
    panel = window.profiles
    assert panel.empty_hint.isVisible() and not panel.view.isVisible()
    assert not panel.edit_button.isEnabled() and not panel.connect_button.isEnabled()

    # create: fill the dialog and click its Save button
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    dialog = panel.dialog
    assert dialog is not None and dialog.isVisible() and not dialog.editing
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)  # empty: refused with a message
    assert dialog.isVisible() and dialog.error_label.isVisible()
    assert "name" in dialog.error_label.text()
    dialog.name_edit.setText("weather")
    dialog.command_edit.setText("uvx")
    dialog.args_edit.setText("weather-mcp --units 'metric system'")
    dialog.cwd_edit.setText("/tmp")
    qtbot.mouseClick(dialog.add_env_button, Qt.MouseButton.LeftButton)
    dialog.env_table.name_edit(0).setText("API_KEY")
    dialog.env_table.value_edit(0).setText(SECRET)
    dialog.env_table.secret_box(0).setChecked(True)
    assert dialog.env_table.value_edit(0).echoMode() == dialog.env_table.value_edit(0).EchoMode.Password
    dialog.request_timeout.setValue(5)
    dialog.max_total_timeout.setValue(0)
    dialog.version_combo.setCurrentIndex(dialog.version_combo.findData("2025-06-18"))
    dialog.elicitation_url_check.setChecked(False)
    dialog.roots_table.add_root("file:///tmp/project", "project")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()

    [saved] = store.list_profiles()
    assert saved.name == "weather"
    assert saved.stdio.args == ["weather-mcp", "--units", "metric system"]
    assert saved.stdio.cwd == "/tmp"
    assert saved.stdio.env == [EnvVar("API_KEY", None, secret=True)]
    assert saved.timeouts.request == 5 and saved.timeouts.max_total is None
    assert saved.protocol_version == "2025-06-18"
    assert not saved.capabilities.elicitation_url and saved.capabilities.elicitation_form
    assert [(r.uri, r.name) for r in saved.roots] == [("file:///tmp/project", "project")]
    assert store.resolve_secrets(saved).stdio.env[0].value == SECRET
    assert panel.selected_id() == saved.id and panel.view.isVisible()
    qtmodeltester.check(panel.model)

    # edit: the secret is not loaded into the editor; leaving it empty keeps it
    qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
    editor = panel.dialog
    assert editor is not None and editor is not dialog and editor.editing
    assert editor.env_table.value_edit(0).text() == ""
    assert "keyring" in editor.env_table.value_edit(0).placeholderText()
    assert editor.name_edit.text() == "weather"
    editor.name_edit.setText("weather (local)")
    qtbot.mouseClick(editor.ok_button, Qt.MouseButton.LeftButton)
    [edited] = store.list_profiles()
    assert edited.name == "weather (local)" and edited.id == saved.id
    assert store.resolve_secrets(edited).stdio.env[0].value == SECRET
    assert panel.model.data(panel.model.index(0, 0)) == "weather (local)"

    # duplicate: right after the original, secrets copied
    qtbot.mouseClick(panel.duplicate_button, Qt.MouseButton.LeftButton)
    assert _names(store) == ["weather (local)", "weather (local) (copy)"]
    copy = store.list_profiles()[1]
    assert panel.selected_id() == copy.id
    assert store.resolve_secrets(copy).stdio.env[0].value == SECRET

    # delete (after confirming): the profile and its secrets go
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    box = panel.confirm_box
    assert box is not None and box.isVisible()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    assert _names(store) == ["weather (local)"]
    assert keyring.get_password(SERVICE_NAME, f"profile/{copy.id}/env/API_KEY") is None
    # cancelling the confirmation keeps it
    panel.select(edited.id)
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    box = panel.confirm_box
    assert box is not None
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert _names(store) == ["weather (local)"]
    qtmodeltester.check(panel.model)


def test_cancel_leaves_the_store_alone(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    window = make_window()
    dialog = window.profiles.new_profile()
    dialog.name_edit.setText("nope")
    dialog.command_edit.setText("true")
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert len(store) == 0


def test_reorder_with_the_buttons(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    for name in ("one", "two", "three"):
        store.create(_profile(name))
    window = make_window()
    panel = window.profiles
    panel.select(store.list_profiles()[0].id)
    assert not panel.up_button.isEnabled() and panel.down_button.isEnabled()
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    assert _names(store) == ["two", "one", "three"]
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    assert _names(store) == ["two", "three", "one"]
    assert panel.up_button.isEnabled() and not panel.down_button.isEnabled()
    qtbot.mouseClick(panel.up_button, Qt.MouseButton.LeftButton)
    assert _names(store) == ["two", "one", "three"]
    assert panel.model.data(panel.view.currentIndex()) == "one"
    assert _names(ProfileStore()) == ["two", "one", "three"]


def test_secrets_never_reach_disk(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, dirs: dict[str, Path], memory_keyring: Any
) -> None:
    window = make_window()
    dialog = window.profiles.new_profile()
    dialog.name_edit.setText("secretive")
    dialog.command_edit.setText("uvx")
    dialog.args_edit.setText("secretive-mcp")
    row = dialog.env_table.add_row()
    dialog.env_table.name_edit(row).setText("GITHUB_TOKEN")
    dialog.env_table.value_edit(row).setText(SECRET)
    dialog.env_table.secret_box(row).setChecked(True)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    window.profiles.export_to(dirs["config"] / "export.json", all_profiles=True)
    window.save_state()

    assert SECRET in memory_keyring.passwords.values()
    files = [p for root in dirs.values() for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "profiles.json" for p in files)
    assert _files_containing(list(dirs.values()), SECRET) == []


def test_import_a_claude_file(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, tmp_path: Path, dirs: dict[str, Path]
) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "github": {
                        "command": "npx",
                        "args": ["-y", "@modelcontextprotocol/server-github"],
                        "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": SECRET},
                    },
                    "time": {"command": "uvx", "args": ["mcp-server-time"]},
                    "broken": {"command": 42},
                }
            }
        )
    )
    window = make_window()
    dialog = window.open_import_dialog()
    assert dialog.isVisible() and not dialog.import_button.isEnabled()
    dialog.path_edit.setText(str(config))
    qtbot.mouseClick(dialog.load_button, Qt.MouseButton.LeftButton)
    assert dialog.preview.topLevelItemCount() == 2
    assert "Claude Desktop" in dialog.source_label.text()
    assert dialog.error_label.isVisible() and "broken" in dialog.error_label.text()
    time_item = dialog.entry_item("time")
    assert time_item is not None and "mcp-server-time" in time_item.text(1)
    time_item.setCheckState(0, Qt.CheckState.Unchecked)
    assert dialog.import_button.text() == "Import 1"
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()

    [imported] = store.list_profiles()
    assert imported.name == "github" and imported.stdio.command == "npx"
    assert imported.stdio.env[0].secret and imported.stdio.env[0].value is None
    assert store.resolve_secrets(imported).stdio.env[0].value == SECRET
    assert window.profiles.selected_id() == imported.id
    assert _files_containing(list(dirs.values()), SECRET) == []


def test_import_a_malformed_file_says_where(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    bad = tmp_path / "mcp.json"
    bad.write_text('{\n  "mcpServers": {\n    "x": {"command": "a",, }\n  }\n}\n')
    dialog = make_window().open_import_dialog()
    dialog.load_path(bad)
    assert dialog.preview.topLevelItemCount() == 0
    assert dialog.error_label.isVisible()
    text = dialog.error_label.text()
    assert "could not be read" in text and "line 3" in text and "column" in text
    assert not dialog.import_button.isEnabled()
    dialog.load_path(tmp_path / "missing.json")
    assert "not found" in dialog.error_label.text()
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_export_one_or_all(make_window: MakeWindow, store: ProfileStore, tmp_path: Path) -> None:
    first = store.create(_profile("first", secret=SECRET))
    store.create(_profile("second"))
    window = make_window()
    window.profiles.select(first.id)
    assert window.profiles.export_to(tmp_path / "one.json", all_profiles=False)
    one = json.loads((tmp_path / "one.json").read_text())
    assert list(one["mcpServers"]) == ["first"]
    assert one["mcpServers"]["first"]["env"] == {"UNITS": "metric"}
    assert one["_omittedSecrets"] == {"first": {"env": ["API_KEY"]}}
    assert window.profiles.export_to(tmp_path / "all.json", all_profiles=True)
    everything = json.loads((tmp_path / "all.json").read_text())
    assert list(everything["mcpServers"]) == ["first", "second"]
    assert SECRET not in (tmp_path / "all.json").read_text()
    dialog = window.profiles.ask_export(all_profiles=True)
    assert dialog is not None and dialog.isVisible()
    dialog.reject()


def test_corrupt_profiles_file_is_reported(make_window: MakeWindow, dirs: dict[str, Path]) -> None:
    dirs["config"].mkdir(parents=True, exist_ok=True)
    (dirs["config"] / "profiles.json").write_text('{"version": 1, "profiles": [')
    store = ProfileStore()
    assert store.load_warnings
    window = make_window(store)
    assert window.banner.isVisible()
    assert "not valid JSON" in window.banner.text()
    assert list(dirs["config"].glob("profiles.json.corrupt-*"))
    window.profiles.model.create(_profile("fresh"))
    assert [p.name for p in ProfileStore().list_profiles()] == ["fresh"]


def test_no_keyring_means_a_visible_session_only_notice(qtbot: QtBot, make_window: MakeWindow) -> None:
    keyring.set_keyring(keyring.backends.null.Keyring())
    window = make_window(ProfileStore())
    qtbot.waitUntil(window.keyring_label.isVisible, timeout=5000)  # said once the window is painted
    assert "session only" in window.keyring_label.text()
    assert window.banner.isVisible() and "session only" in window.banner.text()


def test_keyring_present_means_no_notice(make_window: MakeWindow) -> None:
    window = make_window()
    assert not window.keyring_label.isVisible()
    assert not window.banner.isVisible()


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_remote_profiles_without_a_url_cannot_connect(
    make_window: MakeWindow, store: ProfileStore, transport: str
) -> None:
    profile = store.create(Profile(name="remote", transport=transport))  # type: ignore[arg-type]
    window = make_window()
    assert window.connect_profile(profile.id) is None
    assert window.last_error is not None and "no server URL" in window.last_error
    assert window.tabs.count() == 0


def test_roots_folder_and_sampling_auto_reply_are_saved(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = make_window()
    dialog = window.profiles.new_profile()
    dialog.name_edit.setText("with roots")
    dialog.command_edit.setText("uvx")
    assert not dialog.auto_reply_text.isEnabled()
    dialog.auto_reply_check.setChecked(True)
    assert dialog.auto_reply_text.isEnabled()
    dialog.auto_reply_text.setText("canned answer")
    picker = dialog.choose_root_folder()  # non-blocking: open(), never exec()
    picker.fileSelected.emit(str(tmp_path))
    picker.reject()
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    (saved,) = [p for p in store.list_profiles() if p.name == "with roots"]
    assert [(r.uri, r.name) for r in saved.roots] == [(tmp_path.resolve().as_uri(), tmp_path.name)]
    assert (saved.sampling_auto_reply.enabled, saved.sampling_auto_reply.text) == (True, "canned answer")
