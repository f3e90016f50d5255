"""What a new user hits in the first minutes (issue 14, section 5): the window's buttons and messages agree, the
sidebar follows the active tab, roots edited in a tab are kept with the profile, the header's Cancel stops a
running tool, the wording about secrets says where they go, the Ping box keeps its width, the logging level
shows "not set" until one is chosen, and quitting with live connections asks first."""

from __future__ import annotations

import json

import keyring.backends.fail
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wire_rows
from keyringkit import MemoryKeyring
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.store.profiles.sections import Root
from inspector.store.secrets import SecretStore
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.profiles.import_dialog import ImportDialog
from inspector.ui.viewers.tool_result import ResultState
from inspector.ui.window.profile_bridge import DEMO_PROFILE_ID


def _saved(store: ProfileStore, name: str) -> Profile:
    return store.create(Profile(name=name, stdio=StdioSettings(command="true")))


# -- 9: the button's words, the sidebar's selection ----------------------------------------------------------


def test_messages_name_the_button_as_it_reads(make_window: MakeWindow, qasync_loop: AsyncRunner) -> None:
    window = make_window()
    tab = window.open_tab(DEMO_PROFILE_ID)
    assert tab is not None and tab.controller.state is ConnectionState.IDLE
    assert tab.reconnect_button.text() == "Connect"
    assert "Press Connect" in tab.overview.empty_label.text()
    assert "Reconnect" not in tab.overview.empty_label.text()

    tab.connect_server()
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    tab.controller.stop()
    qasync_loop.wait_state(tab.controller, ConnectionState.CLOSED)
    assert tab.reconnect_button.text() == "Reconnect"
    assert "Reconnect starts the server again" in tab.detail_label.text()


def test_the_sidebar_follows_the_active_tab(make_window: MakeWindow, store: ProfileStore) -> None:
    first, second = _saved(store, "first"), _saved(store, "second")
    window = make_window()
    assert window.open_tab(first.id) is not None
    assert window.open_tab(second.id) is not None
    assert window.profiles.selected_id() == second.id
    window.tabs.setCurrentIndex(0)
    assert window.profiles.selected_id() == first.id
    asked: list[str] = []
    window.profiles.connectRequested.connect(asked.append)
    window.profiles.connect_button.click()
    assert asked == [first.id]  # the sidebar's Connect acts on the tab in view

    assert window.open_tab(DEMO_PROFILE_ID) is not None  # a built-in profile, not in the list: the highlight stays
    assert window.profiles.selected_id() == first.id
    window.tabs.setCurrentIndex(1)
    assert window.profiles.selected_id() == second.id


# -- 10: roots kept with the profile -------------------------------------------------------------------------


def test_roots_edited_in_a_tab_survive_a_restart(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    profile = _saved(store, "with roots")
    window = make_window()
    tab = window.open_tab(profile.id)
    assert tab is not None
    assert "saved with the profile" in tab.roots_panel.intro.text()
    tab.roots_panel.editor.add_root(Root(uri="file:///tmp/project", name="project"))
    qtbot.waitUntil(lambda: store.get(profile.id).roots != [], timeout=5000)  # applied after the edit's debounce

    again = ProfileStore()  # what the next start reads from disk
    assert again.get(profile.id).roots == [Root(uri="file:///tmp/project", name="project")]
    assert window.profiles.model.profiles()[0].roots == again.get(profile.id).roots  # the sidebar's copy too

    demo = window.open_tab(DEMO_PROFILE_ID)
    assert demo is not None
    assert "for this session only" in demo.roots_panel.intro.text()
    assert window.save_roots(DEMO_PROFILE_ID, [Root(uri="file:///x")]) is False


# -- 11: the header's Cancel ---------------------------------------------------------------------------------


def test_header_cancel_stops_a_running_tool(make_window: MakeWindow, qasync_loop: AsyncRunner) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    # connected, the first lists answered: nothing to cancel (the listen stream of 2026-07-28 does not count)
    qasync_loop.wait_until(lambda: not tab.cancel_button.isEnabled(), timeout=10)
    page = tool_page(tab, "slow")
    page.form.set_value({"seconds": 60, "steps": 60})
    assert page.run()
    # the tool's call (a list or completion still answering when it started may be counted for a moment)
    qasync_loop.wait_until(
        lambda: tab.cancel_button.isEnabled() and "1 request in flight" in tab.cancel_button.toolTip(), timeout=10
    )
    tab.cancel_button.click()
    qasync_loop.wait_until(lambda: page.result_view.state() is ResultState.CANCELLED, timeout=10)
    qasync_loop.wait_until(lambda: not tab.cancel_button.isEnabled(), timeout=10)
    (call,) = wire_rows(tab.controller, "request", "out", "tools/call")
    cancelled = [
        json.loads(row.raw)["params"]
        for row in wire_rows(tab.controller, "notification", "out", "notifications/cancelled")
    ]
    assert [c["requestId"] for c in cancelled if c["requestId"] == call.msg_id] == [call.msg_id]
    assert tab.controller.requests_in_flight() == []


# -- 17: where secrets go ------------------------------------------------------------------------------------


def test_secret_wording_follows_the_secret_store(qtbot: QtBot, make_window: MakeWindow) -> None:
    with_keyring = SecretStore(MemoryKeyring())
    without = SecretStore(keyring.backends.fail.Keyring())
    assert with_keyring.where == "the OS keyring" and "keyring" in with_keyring.stored_hint
    assert "memory" in without.where and "keyring" not in without.stored_hint

    dialog = ImportDialog(secrets=with_keyring)
    assert "go to the OS keyring" in dialog.intro.text()
    dialog.deleteLater()
    dialog = ImportDialog(secrets=without)
    assert "go to this session's memory only" in dialog.intro.text()
    dialog.deleteLater()

    store = ProfileStore(secrets=without)
    profile = _saved(store, "no keyring")
    window = make_window(store)
    notice = window.store.secrets.message
    assert notice is not None
    # the banner says there is no keyring (once the window is painted: loading the keyring need not delay it)...
    qtbot.waitUntil(lambda: notice in window.banner.text(), timeout=5000)
    assert window.keyring_label.isVisible()
    window.open_import_dialog()
    assert "the OS keyring" not in window.import_dialog.intro.text()  # ...and the import dialog agrees
    window.import_dialog.reject()
    assert window.profiles.select(profile.id)
    box = window.profiles.delete_selected()
    assert box is not None and "memory only" in box.text() and "the OS keyring" not in box.text()
    box.reject()


# -- 18: the Ping box and the logging level ------------------------------------------------------------------


def test_ping_box_keeps_its_width_and_the_level_is_not_set(
    qtbot: QtBot, make_window: MakeWindow, qasync_loop: AsyncRunner
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    panel = tab.utilities
    tab.inner_tabs.setCurrentWidget(panel)
    card = panel.rtt_label.parentWidget()
    assert card is not None
    qtbot.waitUntil(panel.ping_button.isEnabled, timeout=5000)
    before = (card.sizeHint().width(), card.minimumSizeHint().width(), panel.rtt_label.width())
    assert panel.level_combo.currentIndex() == -1 and panel.level_combo.currentText() == ""
    assert panel.level_combo.placeholderText() == "not set"

    panel.ping()
    qasync_loop.wait_until(lambda: panel.history_list.count() == 1, timeout=10)
    panel.ping()
    qasync_loop.wait_until(lambda: panel.history_list.count() == 2, timeout=10)
    qtbot.wait(20)
    assert panel.rtt_label.text().endswith(("ms", "s"))
    assert (card.sizeHint().width(), card.minimumSizeHint().width(), panel.rtt_label.width()) == before

    panel.set_level("warning")
    assert panel.level_combo.currentText() == "warning"


# -- 19: quitting asks while connections are live ------------------------------------------------------------


def test_quitting_with_a_live_connection_asks(make_window: MakeWindow, qasync_loop: AsyncRunner) -> None:
    window = make_window()
    closed: list[bool] = []
    window.closed.connect(lambda: closed.append(True))
    tab = connect_tab(window, qasync_loop)
    window.close()
    box = window.quit_box
    assert box is not None and box.isVisible() and window.isVisible()
    assert box.windowModality() is Qt.WindowModality.WindowModal and "Demo server" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert window.isVisible() and not closed
    assert tab.controller.state is ConnectionState.CONNECTED

    window.close()
    again = window.quit_box
    assert again is not None and again.isVisible()
    quit_button = again.button(QMessageBox.StandardButton.Yes)
    assert quit_button is not None and quit_button.text() == "Quit"
    quit_button.click()
    assert not window.isVisible() and closed == [True]


def test_quitting_with_nothing_connected_asks_nothing(make_window: MakeWindow, store: ProfileStore) -> None:
    window = make_window()
    assert window.open_tab(_saved(store, "idle").id) is not None  # a tab, but not connected
    closed: list[bool] = []
    window.closed.connect(lambda: closed.append(True))
    window.close()
    assert window.quit_box is None and not window.isVisible() and closed == [True]
