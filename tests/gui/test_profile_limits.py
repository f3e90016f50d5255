"""The profile editor's limits table: every limit listed with its default, overrides saved, bad values refused,
and a saved override reaching the transport the profile builds."""

from __future__ import annotations

from typing import Any

from guikit import MakeWindow
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.limits import DEFAULT_LIMITS, Limits, MiB
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.window.profile_bridge import connection_settings


def _set(dialog: Any, name: str, text: str) -> None:
    row = list(Limits.names()).index(name)
    dialog.limits_table.item(row, 1).setText(text)


def test_limits_table_lists_every_limit_and_saves_overrides(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore
) -> None:
    window = make_window()
    dialog = window.profiles.new_profile()
    assert dialog is not None
    table = dialog.limits_table
    assert table.rowCount() == len(Limits.names())
    assert [table.item(row, 0).text() for row in range(table.rowCount())] == list(Limits.names())
    assert table.item(0, 2).text() == "256 MiB" and table.item(0, 0).toolTip()
    assert table.overrides() == {}

    dialog.name_edit.setText("bounded")
    dialog.command_edit.setText("python")
    _set(dialog, "message_bytes", "lots")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "Limits" in dialog.error_label.text() and "message_bytes" in dialog.error_label.text()
    _set(dialog, "message_bytes", "64 MiB")
    _set(dialog, "reconnects_per_minute", str(DEFAULT_LIMITS.reconnects_per_minute))  # the default: no override
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()

    [saved] = store.list_profiles()
    assert saved.limits == {"message_bytes": 64 * MiB}
    transport = connection_settings(saved).transport_factory()
    assert transport.limits.message_bytes == 64 * MiB
    assert transport.limits.sse_line_bytes == DEFAULT_LIMITS.sse_line_bytes


def test_editing_shows_the_saved_overrides(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    store.create(Profile(name="p", stdio=StdioSettings(command="python"), limits={"stderr_line_bytes": 4096}))
    window = make_window()
    [profile] = store.list_profiles()
    assert window.profiles.select(profile.id)
    dialog = window.profiles.edit_selected()
    assert dialog is not None
    row = list(Limits.names()).index("stderr_line_bytes")
    assert dialog.limits_table.item(row, 1).text() == "4 KiB"
    assert dialog.limits_table.overrides() == {"stderr_line_bytes": 4096}
    dialog.close()
