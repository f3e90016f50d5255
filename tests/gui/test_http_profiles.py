"""HTTP/SSE profiles in the GUI: the editor's remote fields, connecting over HTTP, the Authorization view,
and the built-in HTTP demo profile."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from demowire import demo_http
from guikit import AsyncRunner, MakeWindow
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from inspector.auth import AuthStep, AuthStepKind, HttpExchange, StepStatus
from inspector.demo.http_transport import DemoHttpTransport
from inspector.store.profiles import AuthSettings, Header, HttpSettings, Profile, ProfileStore
from inspector.ui.connection.auth_view import AuthStepFeed, AuthView
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.window.profile_bridge import (
    DEMO_HTTP_PROFILE_ID,
    HttpTransportFactory,
    ProfileNotConnectable,
    connection_settings,
)

SECRET = "hdr-9f8e7d6c5b4a-do-not-leak"
TOKEN = "bearer-1a2b3c4d5e-do-not-leak"


def _files_containing(roots: list[Path], needle: str) -> list[Path]:
    return [
        path
        for root in roots
        if root.exists()
        for path in root.rglob("*")
        if path.is_file() and needle.encode() in path.read_bytes()
    ]


@pytest.fixture
def demo_http_url() -> Iterator[str]:
    """The demo server over Streamable HTTP on 127.0.0.1 (terminated after the test)."""
    with demo_http() as url:
        yield url


def test_dialog_enables_http_fields_and_keeps_secrets_off_disk(
    qtbot: QtBot, make_window: MakeWindow, store: ProfileStore, dirs: dict[str, Path], memory_keyring: Any
) -> None:
    window = make_window()
    dialog = window.profiles.new_profile()
    assert dialog is not None
    assert not dialog.http_group.isEnabled() and dialog.stdio_group.isEnabled()
    model = dialog.transport_combo.model()
    assert all(model.flags(model.index(row, 0)) & Qt.ItemFlag.ItemIsEnabled for row in range(3))

    dialog.transport_combo.setCurrentIndex(dialog.transport_combo.findData("http"))
    assert dialog.http_group.isEnabled() and dialog.url_edit.isEnabled()
    assert dialog.http_group.isVisibleTo(dialog) and not dialog.stdio_group.isVisibleTo(dialog)
    dialog.name_edit.setText("remote")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)  # no URL: refused
    assert dialog.isVisible() and "URL" in dialog.error_label.text()

    dialog.url_edit.setText("https://mcp.example.com/mcp")
    qtbot.mouseClick(dialog.add_header_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.add_header_button, Qt.MouseButton.LeftButton)
    dialog.header_table.name_edit(0).setText("X-Api-Key")
    dialog.header_table.value_edit(0).setText(SECRET)
    dialog.header_table.secret_box(0).setChecked(True)
    assert dialog.header_table.value_edit(0).echoMode() == dialog.header_table.value_edit(0).EchoMode.Password
    dialog.header_table.name_edit(1).setText("X-Plain")
    dialog.header_table.value_edit(1).setText("visible")
    dialog.auth_mode_combo.setCurrentIndex(dialog.auth_mode_combo.findData("bearer"))
    assert dialog.auth_stack.currentIndex() == 1
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)  # no token: refused
    assert dialog.isVisible() and "bearer token" in dialog.error_label.text()
    dialog.bearer_token_edit.setText(TOKEN)
    assert dialog.bearer_token_edit.echoMode() == dialog.bearer_token_edit.EchoMode.Password
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()

    [saved] = store.list_profiles()
    assert saved.transport == "http" and saved.http.url == "https://mcp.example.com/mcp"
    assert saved.http.headers == [Header("X-Api-Key", None, secret=True), Header("X-Plain", "visible")]
    assert saved.auth.mode == "bearer" and saved.auth.bearer_token is None
    resolved = store.resolve_secrets(saved)
    assert resolved.http.headers[0].value == SECRET and resolved.auth.bearer_token == TOKEN
    assert SECRET in memory_keyring.passwords.values() and TOKEN in memory_keyring.passwords.values()
    assert _files_containing(list(dirs.values()), SECRET) == []
    assert _files_containing(list(dirs.values()), TOKEN) == []

    # editing: secrets are not loaded; empty fields keep them; OAuth fields round-trip
    window.profiles.select(saved.id)
    editor = window.profiles.edit_selected()
    assert editor is not None and editor.http_group.isEnabled()
    assert editor.header_table.value_edit(0).text() == "" and editor.bearer_token_edit.text() == ""
    assert "keyring" in editor.bearer_token_edit.placeholderText()
    editor.auth_mode_combo.setCurrentIndex(editor.auth_mode_combo.findData("oauth"))
    editor.client_id_edit.setText("my-client")
    editor.cimd_url_edit.setText("https://client.example.com/meta.json")
    editor.scopes_edit.setText("read  write")
    qtbot.mouseClick(editor.ok_button, Qt.MouseButton.LeftButton)
    assert not editor.isVisible()
    edited = store.resolve_secrets(store.get(saved.id))
    assert edited.http.headers[0].value == SECRET
    assert edited.auth.mode == "oauth" and edited.auth.client_id == "my-client"
    assert edited.auth.cimd_url == "https://client.example.com/meta.json" and edited.auth.scopes == ["read", "write"]
    assert _files_containing(list(dirs.values()), SECRET) == []


def test_bridge_checks_remote_profiles() -> None:
    with pytest.raises(ProfileNotConnectable, match="no server URL"):
        connection_settings(Profile(name="r", transport="http"))
    with pytest.raises(ProfileNotConnectable, match="bearer token"):
        connection_settings(
            Profile(name="r", transport="sse", http=HttpSettings(url="http://h/sse"), auth=AuthSettings(mode="bearer"))
        )
    settings = connection_settings(
        Profile(name="r", transport="sse", http=HttpSettings(url="http://h/sse", headers=[Header("X-K", "v", True)]))
    )
    factory = settings.transport_factory
    assert isinstance(factory, HttpTransportFactory) and factory.auth_feed is None
    assert factory.secret_headers == ["X-K"] and factory.headers == {"X-K": "v"}
    assert type(factory()).__name__ == "LegacySseTransport"


def test_controller_connects_over_http_and_lists_tools(
    qtbot: QtBot, qasync_loop: AsyncRunner, store: ProfileStore, demo_http_url: str
) -> None:
    profile = store.create(
        Profile(
            name="demo over http",
            transport="http",
            http=HttpSettings(url=demo_http_url, headers=[Header("X-Test-Secret", SECRET, secret=True)]),
        )
    )
    settings = connection_settings(store.resolve_secrets(store.get(profile.id)))
    controller = ConnectionController(settings)
    try:
        controller.start()
        qasync_loop.wait_state(controller, ConnectionState.CONNECTED, ConnectionState.FAILED, timeout=30)
        assert controller.state is ConnectionState.CONNECTED, controller.failure
        assert controller.connection is not None
        result = qasync_loop.run(controller.connection.list_tools())
        assert result["tools"], "the demo server has tools"
    finally:
        qasync_loop.run(controller.aclose())
    assert controller.status_text() == "Disconnected"


def _item(parent: QTreeWidget | QTreeWidgetItem | None, row: int) -> QTreeWidgetItem:
    assert parent is not None
    item = parent.topLevelItem(row) if isinstance(parent, QTreeWidget) else parent.child(row)
    assert item is not None
    return item


def _steps() -> list[AuthStep]:
    exchange = HttpExchange(
        "GET",
        "https://as.example.com/.well-known/oauth-authorization-server",
        200,
        request_headers=(("Authorization", "Bearer ••••"), ("Accept", "application/json")),
        response_headers=(("content-type", "application/json"),),
        elapsed=0.012,
    )
    return [
        AuthStep(0, AuthStepKind.CHALLENGE, StepStatus.INFO, "401 from the MCP server"),
        AuthStep(
            1,
            AuthStepKind.DISCOVERY,
            StepStatus.OK,
            "found the authorization server",
            (exchange,),
            {"issuer": "https://as.example.com"},
        ),
        AuthStep(2, AuthStepKind.TOKEN, StepStatus.RUNNING, "exchanging the code"),
    ]


def test_auth_view_shows_steps_and_clears_stored_authorization(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    view = AuthView("https://mcp.example.com/mcp")
    qtbot.addWidget(view)
    view.show_steps(_steps())
    tree = view.step_tree
    assert tree.topLevelItemCount() == 3
    assert [_item(tree, i).text(1) for i in range(3)] == ["challenge", "discovery", "token"]
    assert _item(tree, 2).text(2) == "running"

    # a changed step comes again with its index: its row is replaced
    view.show_step(AuthStep(2, AuthStepKind.TOKEN, StepStatus.FAILED, "token request", error="invalid_grant"))
    assert tree.topLevelItemCount() == 3
    assert _item(tree, 2).text(2) == "failed" and "invalid_grant" in _item(tree, 2).text(3)

    tree.setCurrentItem(_item(tree, 1))
    assert view.exchange_tree.topLevelItemCount() == 1
    row = _item(view.exchange_tree, 0)
    assert (row.text(0), row.text(2)) == ("GET", "200")
    assert row.text(1).endswith("/.well-known/oauth-authorization-server")
    authorization = _item(_item(row, 0), 0)
    assert (authorization.text(0), authorization.text(1)) == ("Authorization", "Bearer ••••")
    assert "issuer: https://as.example.com" in view.detail_label.text()

    calls: list[str] = []
    monkeypatch.setattr("inspector.auth.clear_stored_authorization", lambda url, **kw: calls.append(url))
    with qtbot.waitSignal(view.cleared):
        qtbot.mouseClick(view.clear_button, Qt.MouseButton.LeftButton)
    assert calls == ["https://mcp.example.com/mcp"]
    assert "cleared" in view.status_label.text()


def test_oauth_profiles_get_an_authorization_tab_fed_by_the_flow(make_window: MakeWindow, store: ProfileStore) -> None:
    oauth = store.create(
        Profile(
            name="oauth",
            transport="http",
            http=HttpSettings(url="http://127.0.0.1:9/mcp"),
            auth=AuthSettings(mode="oauth", client_id="cid", scopes=["read"]),
        )
    )
    plain = store.create(Profile(name="plain", transport="http", http=HttpSettings(url="http://127.0.0.1:9/mcp")))
    window = make_window()
    plain_tab = window.open_tab(plain.id)
    assert plain_tab is not None and plain_tab.auth_view is None
    tab = window.open_tab(oauth.id)
    assert tab is not None and tab.auth_view is not None
    titles = [tab.inner_tabs.tabText(i) for i in range(tab.inner_tabs.count())]
    assert "Authorization" in titles
    feed = tab.controller.settings.transport_factory.auth_feed  # type: ignore[attr-defined]
    assert isinstance(feed, AuthStepFeed) and feed.server_url == "http://127.0.0.1:9/mcp"
    first = feed.next_generation()
    for step in _steps():
        first(step)
    assert tab.auth_view.step_tree.topLevelItemCount() == 3
    second = feed.next_generation()  # a new attempt starts a new list
    second(AuthStep(0, AuthStepKind.DISCOVERY, StepStatus.RUNNING, "discovering"))
    assert tab.auth_view.step_tree.topLevelItemCount() == 1


def test_demo_http_action_connects_and_stops_the_server_with_the_tab(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    window.demo_http_action.trigger()
    tab = window.tab_for(DEMO_HTTP_PROFILE_ID)
    assert tab is not None and window.tabs.tabText(window.tabs.indexOf(tab)) == "Demo server (HTTP)"
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED, timeout=40)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    connection = tab.controller.connection
    assert connection is not None
    transport = connection.transport
    assert isinstance(transport, DemoHttpTransport) and transport.process is not None
    assert transport.url is not None and transport.url.startswith("http://127.0.0.1:")
    result = qasync_loop.run(connection.list_tools())
    assert result["tools"]
    window.close_tab(window.tabs.indexOf(tab))
    qasync_loop.wait_until(lambda: transport.process is not None and transport.process.returncode is not None, 20)
