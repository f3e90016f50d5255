"""The overview's era section after the connection ends: what it showed stays, its actions are off at once (not at
the section's next one-second tick)."""

from __future__ import annotations

import sys

from guikit import AsyncRunner, MakeWindow, connect_tab
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionState


def test_refresh_bypassing_the_cache_is_off_as_soon_as_the_connection_closes(
    make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore, qtbot: QtBot
) -> None:
    profile = store.create(
        Profile(
            name="demo modern",
            stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo", "--era", "modern"]),
        )
    )
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    section = tab.overview.era_section
    assert section.refresh_button.isEnabled()
    assert section.cache_tree.topLevelItemCount() > 0
    with qtbot.waitSignal(tab.stateChanged, timeout=10000, check_params_cb=lambda s: s is ConnectionState.CLOSED):
        tab.disconnect_button.click()
    assert not section.refresh_button.isEnabled()  # at once, within the state change
    assert section.cache_tree.topLevelItemCount() > 0  # what was cached stays listed, frozen
