"""Issue 15 item 1 over Streamable HTTP: the overview's era section against the demo as a real HTTP process
(``--era modern``, ``--era both``, and the handshake-only ``--era legacy`` an ``auto`` profile falls back from), and
against ``@modelcontextprotocol/server-everything`` over HTTP (a handshake-era server: the overview says why).

Each test starts its own server (a fresh port), so no earlier connection's ``server/discover`` answer is reused.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import nodetools
import pytest
from demowire import demo_http
from guikit import AsyncRunner, MakeWindow, connect_tab, wire_rows
from servers.http_misbehaving import Launched, free_port

from inspector.protocol.versions import Era
from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.transports.http import StreamableHttpTransport
from inspector.ui.connection.era_view import CACHE_HEADERS
from inspector.ui.window.connection_tab import ConnectionTab

MODERN_WHY = "Automatic: server/discover answered with 2026-07-28."
FALLBACK_WHY = "Automatic: fell back to the handshake (initialize) because server/discover "


def _open(make_window: MakeWindow, runner: AsyncRunner, store: ProfileStore, url: str, era: str) -> ConnectionTab:
    profile = store.create(
        Profile(name=f"over http ({era})", transport="http", http=HttpSettings(url=url), protocol_era=era)  # type: ignore[arg-type]
    )
    tab = connect_tab(make_window(), runner, profile.id)
    tab.inner_tabs.setCurrentWidget(tab.overview)
    conn = tab.controller.connection
    assert conn is not None and isinstance(conn.transport, StreamableHttpTransport)
    assert conn.transport.endpoint == url
    return tab


def _cache_rows(tab: ConnectionTab) -> dict[str, list[str]]:
    tree = tab.overview.era_section.cache_tree
    rows = {}
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        assert item is not None
        rows[item.text(0)] = [item.text(c) for c in range(len(CACHE_HEADERS))]
    return rows


def _assert_fallback(tab: ConnectionTab, because: str) -> str:
    """The overview shows the handshake era, auto's fallback and the reason the engine recorded (returned)."""
    section = tab.overview.era_section
    conn = tab.controller.connection
    assert conn is not None and conn.era is Era.HANDSHAKE
    reason = conn.opening.fallback
    assert reason is not None and because in reason, reason
    assert section.era_label.text() == "handshake era, 2025-11-25 (initialize)"
    assert section.era_label.property("tone") == "neutral"
    assert section.why_label.text() == f"{FALLBACK_WHY}{reason}."
    assert "server/discover" in section.why_label.toolTip() and "so initialize" in section.why_label.toolTip()
    assert section.supported_label.text().startswith("supportedVersions: —")
    assert section.result_toggle.text() == "initialize result"
    assert _cache_rows(tab) == {} and "not cached in the handshake era" in section.cache_status.text()
    assert not section.refresh_button.isEnabled()
    # what auto tried first is in the log: one server/discover, then initialize
    assert len(wire_rows(tab.controller, "request", "out", "server/discover")) == 1
    assert len(wire_rows(tab.controller, "request", "out", "initialize")) == 1
    return reason


@pytest.mark.parametrize("demo_era", ["modern", "both"])
def test_the_demo_over_http_speaks_2026_07_28_and_says_why(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, demo_era: str
) -> None:
    with demo_http("--era", demo_era) as url:
        tab = _open(make_window, qasync_loop, store, url, "auto")
        section = tab.overview.era_section
        conn = tab.controller.connection
        assert conn is not None and conn.era is Era.MODERN and conn.opening.fallback is None
        assert section.era_label.text() == "2026-07-28 (server/discover)"
        assert section.era_label.property("tone") == "info"
        assert section.why_label.text() == MODERN_WHY
        server = tab.controller.server
        assert server is not None
        supported = server.result["supportedVersions"]
        assert (
            "2026-07-28" in supported and section.supported_label.text() == f"supportedVersions: {', '.join(supported)}"
        )
        section.result_toggle.click()
        assert section.result_view.isVisibleTo(tab.overview) and section.result_view.json_model.value() == server.result
        rows = _cache_rows(tab)
        assert rows["server/discover"][2:4] == ["60000 (1 min)", "public"], rows
        assert section.refresh_button.isEnabled()
        assert wire_rows(tab.controller, "request", "out", "initialize") == []
        # the bypassing refresh works over HTTP too: server/discover is POSTed again
        sent = len(wire_rows(tab.controller, "request", "out", "server/discover"))
        section.refresh_button.click()
        qasync_loop.wait_until(
            lambda: not section.refreshing and "Asked the server again" in section.cache_status.text()
        )
        assert len(wire_rows(tab.controller, "request", "out", "server/discover")) == sent + 1
        qasync_loop.run(tab.controller.aclose())  # the HTTP client's sockets closed on the loop, before the server


def test_auto_against_a_handshake_only_http_server_falls_back_and_says_why(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    with demo_http("--era", "legacy") as url:
        tab = _open(make_window, qasync_loop, store, url, "auto")
        reason = _assert_fallback(tab, "was refused")
        assert "Method not found" in reason
        qasync_loop.run(tab.controller.aclose())


def test_a_forced_handshake_era_over_http_says_the_profile_forced_it(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    with demo_http("--era", "both") as url:
        tab = _open(make_window, qasync_loop, store, url, "legacy")
        section = tab.overview.era_section
        assert section.era_label.text() == "handshake era, 2025-11-25 (initialize)"
        assert section.why_label.text().startswith("Forced by the profile: the handshake era only")
        assert wire_rows(tab.controller, "request", "out", "server/discover") == []
        qasync_loop.run(tab.controller.aclose())


@pytest.fixture
def everything_http() -> Iterator[str]:
    """server-everything's Streamable HTTP endpoint on a free port (stopped after the test)."""
    cmd = nodetools.require_server_everything("streamableHttp")
    port = free_port()
    # server-everything listens on all interfaces; acceptable here because the test machine has no network.
    server = Launched(cmd, env={**os.environ, "PORT": str(port)})
    try:
        server.wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.stop()


@pytest.mark.node
def test_server_everything_over_http_is_a_handshake_era_server_and_the_overview_says_why(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, everything_http: str
) -> None:
    tab = _open(make_window, qasync_loop, store, everything_http, "auto")
    reason = _assert_fallback(tab, "could not be delivered")
    assert "HTTP 400" in reason, reason  # its answer to a POST outside a session, in words
    server = tab.controller.server
    assert server is not None and server.server_info.get("name") == "mcp-servers/everything"
    assert server.result.get("instructions")
    assert tab.overview.instructions_view.toPlainText().strip()
    qasync_loop.run(tab.controller.aclose())
