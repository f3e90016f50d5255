"""Issue 15 item 4 beyond the tool page: -32020 / -32021 / -32022 are explained with their data wherever a request
can get them — the prompt page, the resource read view, argument completion and Ping (a 2026-07-28
``server/discover``) — against a real 2026-07-28 HTTP server (tests/servers/refusals_http.py). "Retry after
re-listing" is offered only where listing again can help (a tools/call: see test_tools_header_rules.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, prompt_page
from pytestqt.qtbot import QtBot
from servers.refusals_http import RefusalsServer

from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.ui.viewers.error_banner import RemoteErrorBanner
from inspector.ui.window.connection_tab import ConnectionTab

MEANINGS = {
    "mismatch": "What it means: The server found the request's Mcp-* HTTP headers missing, malformed or not matching"
    " the body.",
    "needs_cap": "What it means: The server requires the client capability sampling, which this request did not"
    " declare.",
    "old_version": "What it means: The server does not support protocol version 2026-07-28; it supports 2025-11-25.",
}
DATA = {
    "mismatch": 'data: {"expected": "mismatch", "header": "Mcp-Name"}',
    "needs_cap": 'data: {"requiredCapabilities": {"sampling": {}}}',
    "old_version": 'data: {"requested": "2026-07-28", "supported": ["2025-11-25"]}',
}


@pytest.fixture
def server() -> Iterator[RefusalsServer]:
    with RefusalsServer() as running:
        yield running


@pytest.fixture
def tab(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, server: RefusalsServer
) -> ConnectionTab:
    profile = store.create(
        Profile(name="refusals", transport="http", http=HttpSettings(url=server.url()), protocol_era="modern")
    )
    return connect_tab(make_window(store), qasync_loop, profile.id, show="prompts")


@pytest.mark.parametrize("name", list(MEANINGS))
def test_the_prompt_page_explains_the_refusal_with_its_data(
    qasync_loop: AsyncRunner, tab: ConnectionTab, name: str
) -> None:
    page = prompt_page(tab, name)
    assert page.get()
    qasync_loop.wait_until(lambda: not page.running and page.error_banner is not None, timeout=30)
    banner = page.error_banner
    assert isinstance(banner, RemoteErrorBanner) and banner.isVisible()
    code = {"mismatch": -32020, "needs_cap": -32021, "old_version": -32022}[name]
    assert banner.title_label.text().startswith(f"JSON-RPC error {code} · ")
    lines = banner.lines()
    assert MEANINGS[name] in lines and DATA[name] in lines
    assert banner.retry_relisting_button is None  # re-listing prompts changes no header of prompts/get
    assert page.status_label.text() == "Failed"


@pytest.mark.parametrize("name", list(MEANINGS))
def test_the_resource_read_view_explains_the_refusal_with_its_data(
    qasync_loop: AsyncRunner, tab: ConnectionTab, name: str
) -> None:
    panel = tab.resources
    tab.inner_tabs.setCurrentWidget(panel)
    panel.read(f"test://{name}")
    qasync_loop.wait_until(lambda: panel.error_banner.isVisible(), timeout=30)
    text = panel.error_banner.text()
    assert text.startswith(f"Could not read test://{name}")
    assert MEANINGS[name] in text and DATA[name] in text
    panel.read("test://fine")  # a read that works clears it
    qasync_loop.wait_until(lambda: not panel.error_banner.isVisible(), timeout=30)


def test_completion_explains_the_refusal(qtbot: QtBot, tab: ConnectionTab) -> None:
    page = prompt_page(tab, "greet")
    completer = page.completers["who"]
    assert completer.enabled
    page.fields["who"].setText("A")
    with qtbot.waitSignal(completer.answered, timeout=10000):
        completer.request_now()
    assert completer.tone == "error"
    assert completer.status == (
        "completion of who failed: error -32021 (Missing required client capability): Roots needed"
        " — the server requires the client capability roots, which this request did not declare"
    )


def test_ping_explains_an_unsupported_version(
    qasync_loop: AsyncRunner, tab: ConnectionTab, server: RefusalsServer
) -> None:
    panel = tab.utilities
    tab.inner_tabs.setCurrentWidget(panel)
    server.refuse_discover = True  # 2026-07-28 has no ping: Ping measures a server/discover, refused now
    panel.ping()
    qasync_loop.wait_until(lambda: panel.rtt_label.text() == "failed", timeout=30)
    tip = panel.rtt_label.toolTip()
    assert "error -32022 (Unsupported protocol version)" in tip
    assert tip.endswith("the server does not support protocol version 2026-07-28; it supports 2025-11-25")
    assert panel.history_list.item(0).text().endswith(tip)
