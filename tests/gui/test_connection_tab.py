"""Connection tabs against real servers: the demo, a server hanging in initialize, a crashing server."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from guikit import MISBEHAVING, AsyncRunner, MakeWindow, Misbehaving
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.client.errors import ClientError
from inspector.store.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.profile_bridge import DEMO_PROFILE_ID


def _pid(tab: ConnectionTab) -> int | None:
    conn = tab.controller.connection
    assert conn is not None
    pid: int | None = getattr(conn.transport, "pid", None)
    return pid


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still "exists": look at its state
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _tree_rows(tab: ConnectionTab) -> dict[str, tuple[str, str]]:
    tree = tab.overview.capabilities_tree
    rows = {}
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        assert item is not None
        rows[item.text(0)] = (item.text(1), item.text(2))
    return rows


def test_connect_to_the_demo(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    # a few saved profiles, so the screenshot shows a sidebar in use
    for name, command, args in (
        ("GitHub", "npx", ["-y", "@modelcontextprotocol/server-github"]),
        ("Filesystem (~/projects)", "npx", ["-y", "@modelcontextprotocol/server-filesystem", "~/projects"]),
        ("Time", "uvx", ["mcp-server-time", "--local-timezone", "Europe/Paris"]),
    ):
        store.create(Profile(name=name, stdio=StdioSettings(command=command, args=args)))
    window = make_window()
    assert window.stack.currentWidget() is window.welcome
    qtbot.mouseClick(window.demo_button, Qt.MouseButton.LeftButton)
    tab = window.current_tab()
    assert tab is not None and tab.profile_id == DEMO_PROFILE_ID
    assert window.stack.currentWidget() is window.tabs
    # the window stays responsive while the demo server starts
    assert tab.controller.state is ConnectionState.CONNECTING
    assert tab.state_label.text() == "Connecting…" and tab.cancel_button.isEnabled()
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure

    assert tab.state_label.text() == "Connected"
    # the demo profile asks for auto: the demo answers server/discover, so the session is 2026-07-28
    assert "protocol 2026-07-28" in tab.detail_label.text() and " ms" in tab.detail_label.text()
    # the first listings may still be in flight (Cancel is enabled for them) until they are answered
    qtbot.waitUntil(lambda: not tab.cancel_button.isEnabled(), timeout=10000)
    assert tab.disconnect_button.isEnabled()
    overview = tab.overview
    assert overview.stack.currentIndex() == 1
    assert overview.name_label.text() == "inspector-demo"
    assert overview.title_label.text() == "Inspector Demo Server"
    assert "https://modelcontextprotocol.io" in overview.website_label.text()
    assert overview.protocol_label.text() == "2026-07-28"
    assert overview.version_label.text() not in ("", "—")
    assert not overview.icon_label.pixmap().isNull()
    rows = _tree_rows(tab)
    assert rows["tools"] == ("✓ declared", "—")
    assert rows["sampling"] == ("—", "✓ declared")
    assert rows["roots"][1] == "✓ declared"
    assert "Inspector demo server" in overview.instructions_view.toPlainText()
    assert overview.diagnostics_label.text() == "none"
    assert "Connected" in window.status_label.text()

    # the log fills from the recording
    recording = tab.controller.recording
    assert recording is not None
    qasync_loop.wait_until(lambda: recording.count() >= 3, timeout=10)
    conn = tab.controller.connection
    assert conn is not None
    result = qasync_loop.run(conn.call_tool("echo", {"message": "hello from the GUI test"}))
    assert "hello from the GUI test" in str(result)
    qasync_loop.wait_until(lambda: recording.count() >= 5, timeout=10)
    qasync_loop.wait_until(lambda: tab.log.model.rowCount() >= 5, timeout=10)

    # diagnostics link -> the Log tab
    overview.diagnosticsRequested.emit()
    assert tab.inner_tabs.currentWidget() is tab.log
    assert tab.log.filter_bar.diagnostics_button.isChecked()
    tab.log.show_diagnostics_only(False)

    # screenshot for the README: under the test's tmp dir, and where MCP_INSPECTOR_SCREENSHOT says
    tab.inner_tabs.setCurrentWidget(tab.overview)
    window.resize(1280, 800)
    qtbot.wait(100)
    shot = window.grab()
    assert shot.save(str(tmp_path / "main_window.png"))
    target = os.environ.get("MCP_INSPECTOR_SCREENSHOT")
    if target:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        assert shot.save(target)


def test_server_hanging_in_initialize_fails_within_the_timeout(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("hangs", "slow-init", timeout=1.0))
    window = make_window()
    started = time.monotonic()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.FAILED, timeout=15)
    elapsed = time.monotonic() - started
    assert 0.9 <= elapsed < 8, elapsed
    assert "initialize" in (tab.controller.failure or "")
    assert tab.state_label.text() == "Connection failed"
    assert "initialize" in tab.detail_label.text()
    assert tab.reconnect_button.isEnabled() and not tab.cancel_button.isEnabled()


def test_cancel_while_connecting(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("hangs", "slow-init", timeout=60.0))
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_until(lambda: tab.controller.connection is not None and _pid(tab) is not None, timeout=10)
    pid = _pid(tab)
    assert pid is not None
    qtbot.mouseClick(tab.cancel_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(tab.controller, ConnectionState.FAILED, timeout=10)
    assert tab.controller.failure == "cancelled"
    qasync_loop.wait_until(lambda: not _alive(pid), timeout=10)


def test_reconnect_while_connected_and_while_connecting(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("good"))
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    first, first_pid = tab.controller.connection, _pid(tab)
    assert first_pid is not None
    states: list[str] = []
    tab.controller.stateChanged.connect(lambda state: states.append(state))
    qtbot.mouseClick(tab.reconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: tab.controller.connection is not first, timeout=10)
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    assert states[:3] == ["closed", "connecting", "connected"]
    assert _pid(tab) != first_pid
    qasync_loop.wait_until(lambda: not _alive(first_pid), timeout=10)
    assert tab.overview.name_label.text() == "misbehaving"

    # Reconnect in the middle of connecting starts a fresh attempt
    tab.controller.reconnect()
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTING, timeout=10)
    qtbot.mouseClick(tab.reconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)


def test_server_exit_shows_exit_code_and_stderr(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("crashes", "crash"))
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    conn = tab.controller.connection
    assert conn is not None

    async def call() -> str:
        try:
            await conn.call_tool("t", {"text": "boom"})
        except ClientError as exc:
            return str(exc)
        return "no error"

    assert qasync_loop.run(call()) != "no error"
    qasync_loop.wait_state(tab.controller, ConnectionState.EXITED, timeout=10)
    assert tab.state_label.text() == "Server exited"
    assert "exit code 3" in tab.detail_label.text()
    assert tab.stderr_label.isVisibleTo(tab)
    assert "fatal: something broke" in tab.stderr_label.text()
    qasync_loop.wait_until(lambda: "fatal: something broke" in tab.stderr_console.text.toPlainText(), timeout=5)
    assert tab.reconnect_button.isEnabled() and not tab.disconnect_button.isEnabled()


def test_two_connections_at_once_and_closing_a_tab(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    one = store.create(misbehaving("one"))
    two = store.create(misbehaving("two"))
    window = make_window()
    first = window.connect_profile(one.id)
    second = window.connect_profile(two.id)
    assert first is not None and second is not None and first is not second
    assert window.tabs.count() == 2 and window.current_tab() is second
    for tab in (first, second):
        qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    pids = (_pid(first), _pid(second))
    assert None not in pids and pids[0] != pids[1]
    # connecting an open profile again focuses its tab
    assert window.connect_profile(one.id) is first
    assert window.tabs.count() == 2 and window.current_tab() is first

    window.close_tab(window.tabs.indexOf(first))
    assert window.tabs.count() == 1
    qasync_loop.wait_until(lambda: first.controller.state is ConnectionState.CLOSED, timeout=10)
    qasync_loop.wait_until(lambda: not _alive(pids[0] or 0), timeout=10)
    assert second.controller.state is ConnectionState.CONNECTED

    qtbot.mouseClick(second.disconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(second.controller, ConnectionState.CLOSED, timeout=10)
    assert second.state_label.text() == "Disconnected"
    window.close_tab(0)
    assert window.stack.currentWidget() is window.welcome
    qasync_loop.wait_until(lambda: not _alive(pids[1] or 0), timeout=10)


def test_shutdown_closes_connections_and_recordings(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("good"))
    hanging = store.create(misbehaving("hangs", "slow-init", timeout=60))
    window = make_window()
    tab = window.connect_profile(profile.id)
    stuck = window.connect_profile(hanging.id)
    assert tab is not None and stuck is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    qasync_loop.wait_until(lambda: stuck.controller.connection is not None and _pid(stuck) is not None, timeout=10)
    pids = [_pid(tab), _pid(stuck)]
    started = time.monotonic()
    qasync_loop.run(window.shutdown(), timeout=30)
    assert time.monotonic() - started < 10
    for t in (tab, stuck):
        assert t.controller.recording is not None and t.controller.recording.closed
    for pid in pids:
        assert pid is not None
        qasync_loop.wait_until(lambda pid=pid: not _alive(pid), timeout=10)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "javascript:alert(1)", "ftp://example.com/x", "http://"])
def test_only_web_links_are_opened(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.widgets import desktop as overview_panel

    opened: list[Any] = []
    monkeypatch.setattr(overview_panel.QDesktopServices, "openUrl", lambda u: opened.append(u) or True)
    assert not overview_panel.open_web_url(url)
    assert opened == []
    assert overview_panel.open_web_url("https://modelcontextprotocol.io")
    assert len(opened) == 1


def test_data_uri_decoding() -> None:
    from inspector.content.media import decode_data_uri

    assert decode_data_uri("data:image/svg+xml;base64,PHN2Zy8+") == ("image/svg+xml", b"<svg/>")
    assert decode_data_uri("data:text/plain,a%20b") == ("text/plain", b"a b")
    assert decode_data_uri("https://example.com/icon.png") is None


def test_diagnostics_count_links_to_the_log(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("chatty", "banner"))
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    assert tab.controller.diagnostic_count > 0
    label = tab.overview.diagnostics_label
    assert "protocol diagnostic" in label.text() and 'href="#diagnostics"' in label.text()
    label.linkActivated.emit("#diagnostics")
    assert tab.inner_tabs.currentWidget() is tab.log
    assert tab.log.filter_bar.diagnostics_button.isChecked()
    qasync_loop.wait_until(lambda: tab.log.model.rowCount() >= 1, timeout=10)


def test_secret_env_reaches_the_server_but_never_the_disk(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, dirs: dict[str, Path]
) -> None:
    secret = "sk-env-0123456789abcdef"
    script = (
        "import os, runpy, sys; sys.stderr.write('key=' + os.environ['API_KEY'] + '\\n'); sys.stderr.flush(); "
        f"sys.argv = [{str(MISBEHAVING)!r}]; runpy.run_path({str(MISBEHAVING)!r}, run_name='__main__')"
    )
    profile = store.create(
        Profile(
            name="secret env",
            stdio=StdioSettings(command=sys.executable, args=["-c", script], env=[EnvVar("API_KEY", secret, True)]),
        )
    )
    window = make_window()
    tab = window.connect_profile(profile.id)
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    # the server got the value (it printed it on stderr, which the console shows as it came)
    qasync_loop.wait_until(lambda: secret in tab.stderr_console.text.toPlainText(), timeout=10)
    recording = tab.controller.recording
    assert recording is not None
    qasync_loop.wait_until(lambda: recording.search("key") != [], timeout=10)
    qasync_loop.run(window.shutdown())
    window.save_state()
    leaked = [
        path
        for root in dirs.values()
        for path in root.rglob("*")
        if path.is_file() and secret.encode() in path.read_bytes()
    ]
    assert leaked == []


def test_overview_icons_and_links_stay_offline(qtbot: QtBot) -> None:
    from inspector.client.connection import ServerInfo
    from inspector.ui.connection.overview import OverviewPanel

    panel = OverviewPanel()
    qtbot.addWidget(panel)
    info = {
        "name": "remote-icons",
        "version": "1.0",
        "websiteUrl": "file:///etc/passwd",
        "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png"}],
    }
    server = ServerInfo("2025-06-18", info, {"tools": {}}, None, {}, 0.25)
    panel.show_server(server, {"roots": {"listChanged": True}})
    assert panel.icon_label.toolTip() == "remote icons are not fetched"
    assert not panel.icon_label.pixmap().isNull()  # the placeholder
    assert "<a " not in panel.website_label.text() and "not opened" in panel.website_label.text()
    assert panel.elapsed_label.text() == "250 ms" and panel.protocol_label.text() == "2025-06-18"
    assert "gave no instructions" in panel.instructions_view.toPlainText()
    panel.show_message("Not connected.")
    assert panel.stack.currentIndex() == 0
