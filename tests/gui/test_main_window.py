"""The main window: state restored across runs, tabs opened from the menus, closing while connecting."""

from __future__ import annotations

from typing import Any

from guikit import AsyncRunner, MakeWindow
from PySide6.QtCore import QSize, Qt
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.profile_bridge import DEMO_PROFILE_ID
from inspector.ui.window.settings import UiSettings


def _menu_texts(window: MainWindow) -> dict[str, list[str]]:
    menus = {}
    for action in window.menuBar().actions():
        menu = action.menu()
        if menu is not None:
            menus[action.text().replace("&", "")] = [a.text().replace("&", "") for a in menu.actions() if a.text()]
    return menus


def test_geometry_and_sidebar_are_restored(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, ui_settings: UiSettings
) -> None:
    # (the offscreen screen is 800x800: a larger geometry would be clamped to it on restore)
    window = make_window()
    window.resize(720, 540)
    window.splitter.setSizes([250, 470])
    qtbot.wait(10)
    sidebar = window.splitter.sizes()
    window.close()
    again = make_window(store, UiSettings(ui_settings.path))
    again.restore_state()
    qtbot.wait(10)
    assert again.size() == QSize(720, 540)
    assert again.splitter.sizes() == sidebar


def test_tabs_and_selection_are_restored_in_a_new_window(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, ui_settings: UiSettings
) -> None:
    first_profile = store.create(Profile(name="first", stdio=StdioSettings(command="true")))
    second_profile = store.create(Profile(name="second", stdio=StdioSettings(command="true")))
    window = make_window()
    assert window.open_tab(first_profile.id) is not None
    demo = window.open_tab(DEMO_PROFILE_ID)
    assert demo is not None
    demo.overview.splitter.setSizes([300, 500])
    window.tabs.setCurrentIndex(1)
    window.profiles.select(second_profile.id)
    qtbot.wait(10)
    overview = demo.overview.splitter.sizes()
    window.close()  # saves the state
    assert ui_settings.open_tabs == [first_profile.id, DEMO_PROFILE_ID]

    again = make_window(store, UiSettings(ui_settings.path))
    again.restore_state()
    qtbot.wait(10)
    assert [t.profile_id for t in again.connection_tabs()] == [first_profile.id, DEMO_PROFILE_ID]
    assert again.tabs.currentIndex() == 1
    assert again.profiles.selected_id() == second_profile.id
    restored_demo = again.tab_for(DEMO_PROFILE_ID)
    assert restored_demo is not None
    assert restored_demo.overview.splitter.sizes() == overview
    # restored tabs wait to be connected
    for tab in again.connection_tabs():
        assert tab.controller.state is ConnectionState.IDLE
        assert tab.reconnect_button.text() == "Connect"


def test_restore_skips_profiles_that_are_gone(make_window: MakeWindow, ui_settings: UiSettings) -> None:
    ui_settings.open_tabs = ["no-such-profile"]
    ui_settings.current_tab = 3
    ui_settings.last_profile = "also-gone"
    window = make_window()
    window.restore_state()
    assert window.tabs.count() == 0
    assert window.stack.currentWidget() is window.welcome
    assert window.profiles.selected_id() is None


def test_menus_and_closing_a_tab_while_it_connects(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Any
) -> None:
    profile = store.create(misbehaving("hangs", "slow-init", timeout=60))
    window = make_window()
    menus = _menu_texts(window)
    assert "Export selected profile…" in menus["File"] and "Export all profiles…" in menus["File"]
    assert "Open recording…" in menus["File"] and "Import servers…" in menus["File"]
    assert "Reconnect" in menus["Connection"] and "Disconnect" in menus["Connection"]

    window.new_action.trigger()
    assert window.profiles.dialog is not None and window.profiles.dialog.isVisible()
    window.profiles.dialog.reject()

    tab = window.open_tab(profile.id)
    assert tab is not None
    qtbot.mouseClick(tab.reconnect_button, Qt.MouseButton.LeftButton)  # "Connect" on a fresh tab
    assert tab.controller.state is ConnectionState.CONNECTING
    assert window.disconnect_action.isEnabled()
    qasync_loop.wait_until(lambda: tab.controller.connection is not None, timeout=10)
    window.close_tab_action.trigger()
    assert window.tabs.count() == 0 and window.stack.currentWidget() is window.welcome
    qasync_loop.wait_until(lambda: tab.controller.recording is not None and tab.controller.recording.closed, 15)
    assert tab.controller.state in (ConnectionState.CLOSED, ConnectionState.FAILED)


def test_file_dialogs_open_without_blocking(make_window: MakeWindow, store: ProfileStore) -> None:
    store.create(Profile(name="x", stdio=StdioSettings(command="true")))
    window = make_window()
    assert window.profiles.ask_export(all_profiles=False) is None  # nothing selected
    assert window.last_error is not None and "Select" in window.last_error
    recording_dialog = window.ask_open_recording()
    assert recording_dialog.isVisible()
    recording_dialog.reject()
    assert window.ask_export_log() is None  # no tab
    window.show_about()


def test_editing_a_profile_updates_its_open_tab(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    profile = store.create(Profile(name="before", stdio=StdioSettings(command="true", args=["one"])))
    window = make_window()
    tab = window.open_tab(profile.id)
    assert tab is not None and window.tabs.tabText(0) == "before"
    window.profiles.select(profile.id)
    dialog = window.profiles.edit_selected()
    assert dialog is not None
    dialog.name_edit.setText("after")
    dialog.args_edit.setText("two three")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert window.tabs.tabText(0) == "after"
    assert tab.controller.settings.label == "after"
    assert tab.controller.settings.transport_factory().describe() == "true two three"
