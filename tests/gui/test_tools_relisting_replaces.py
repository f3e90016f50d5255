"""Issue 15 item 4 in the window, over 2026-07-28 HTTP (tests/servers/refusals_http.py): listing the tools again
replaces what the client knew of them — a tool re-listed without its ``x-mcp-header`` annotation is called without
the old ``Mcp-Param-*`` header, a dropped tool the server no longer lists leaves the list — and a refused
listing is explained with its data."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from pytestqt.qtbot import QtBot
from servers.refusals_http import ROUTE, RefusalsServer

from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.ui.explore.tools.panel import ToolsPanel
from inspector.ui.window.connection_tab import ConnectionTab

PLAIN_ROUTE = {"name": "route", "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}


@pytest.fixture
def server() -> Iterator[RefusalsServer]:
    with RefusalsServer() as running:
        yield running


@pytest.fixture
def tab(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, server: RefusalsServer
) -> ConnectionTab:
    profile = store.create(
        Profile(name="relisting", transport="http", http=HttpSettings(url=server.url()), protocol_era="modern")
    )
    return connect_tab(make_window(store), qasync_loop, profile.id)


def call_route(runner: AsyncRunner, tab: ConnectionTab, server: RefusalsServer) -> dict[str, str]:
    page = tool_page(tab, "route")
    page.form.set_value({"region": "eu"})
    before = len(server.call_headers)
    assert page.run(), page.validation_label.text()
    runner.wait_until(lambda: not page.running and len(server.call_headers) == before + 1, timeout=30)
    return {k: v for k, v in server.call_headers[-1].items() if k.startswith("mcp-param-")}


def relist(qtbot: QtBot, panel: ToolsPanel) -> None:
    with qtbot.waitSignal(panel.refreshed, timeout=30000):
        panel.refresh()


def test_a_re_listing_replaces_annotations_and_dropped_tools(
    qtbot: QtBot, qasync_loop: AsyncRunner, tab: ConnectionTab, server: RefusalsServer
) -> None:
    model = tab.tools.browser.model
    broken = model.find("broken")
    assert broken is not None and broken.unavailable.startswith("dropped by the client")
    assert call_route(qasync_loop, tab, server) == {"mcp-param-region": "eu"}

    server.tools = [PLAIN_ROUTE]  # the annotation is gone, and so is the broken tool
    relist(qtbot, tab.tools)
    assert model.find("broken") is None
    assert [entry.name for entry in model.entries()] == ["route"]
    assert call_route(qasync_loop, tab, server) == {}  # no stale Mcp-Param-Region

    server.tools = [ROUTE]  # and back
    relist(qtbot, tab.tools)
    route = model.find("route")
    assert route is not None and route.raw == ROUTE
    assert call_route(qasync_loop, tab, server) == {"mcp-param-region": "eu"}


def test_a_refused_listing_is_explained(qasync_loop: AsyncRunner, tab: ConnectionTab, server: RefusalsServer) -> None:
    server.refuse_tools_list = True
    tab.tools.refresh()
    note = tab.tools.browser.note_label
    qasync_loop.wait_until(lambda: note.text().startswith("Could not list the tools"), timeout=30)
    assert note.text() == (
        "Could not list the tools: error -32021 (Missing required client capability): Roots needed"
        " — the server requires the client capability roots, which this request did not declare"
    )
