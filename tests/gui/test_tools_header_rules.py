"""Issue 15 item 4 on the Tools panel (2026-07-28 over HTTP, tests/servers/header_mismatch_http.py): a tool the
client drops for an invalid ``x-mcp-header`` is listed struck through with the reason and cannot be run;
-32020 / -32021 / -32022 are explained with their data, -32020 with a "Retry after re-listing" that lists again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot
from servers.header_mismatch_http import HeaderMismatchServer

from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.ui.explore.catalog.model import CatalogDelegate
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab


@pytest.fixture
def server() -> Iterator[HeaderMismatchServer]:
    with HeaderMismatchServer() as running:
        yield running


@pytest.fixture
def tab(
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    server: HeaderMismatchServer,
) -> ConnectionTab:
    profile = store.create(
        Profile(name="header rules", transport="http", http=HttpSettings(url=server.url()), protocol_era="modern")
    )
    return connect_tab(make_window(store), qasync_loop, profile.id)


def run_page(qtbot: QtBot, runner: AsyncRunner, page: ToolPage) -> ResultState:
    assert page.run(), page.validation_label.text()
    runner.wait_until(lambda: not page.running, timeout=30)
    return page.result_view.state()


def test_a_dropped_tool_is_listed_struck_through_with_the_reason_and_cannot_be_run(
    qtbot: QtBot, tab: ConnectionTab, server: HeaderMismatchServer, qtmodeltester: ModelTester
) -> None:
    # (qtmodeltester after the tab: it lets go of the model before the window is deleted)
    model = tab.tools.browser.model
    qtmodeltester.check(model, force_py=True)  # type: ignore[no-untyped-call]
    names = [entry.name for entry in model.entries()]
    assert names == ["route", "needs_cap", "old_version", "echo", "broken"]  # the dropped one listed last
    broken = model.find("broken")
    assert broken is not None
    assert broken.unavailable.startswith("dropped by the client: invalid x-mcp-header annotation: property 'score'")
    assert 'type "number", which is not permitted' in broken.unavailable
    index = model.index(model.row_of("broken"), 0)
    font = model.data(index, Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.strikeOut()
    assert f"Cannot be run: {broken.unavailable}" in model.data(index, Qt.ItemDataRole.ToolTipRole)
    echo = model.index(model.row_of("echo"), 0)
    assert model.data(echo, Qt.ItemDataRole.FontRole) is None  # the others are drawn as usual
    view = tab.tools.browser.view
    delegate = view.itemDelegate()
    assert isinstance(delegate, CatalogDelegate)
    layout = delegate.row_layout(broken, view.visualRect(index), view.font())
    assert layout.description.startswith("dropped by the client")  # the reason replaces the description line
    assert layout.mark == ("error", "error") and layout.mark_rect is not None  # marked by the error icon
    assert layout.mark_rect.right() < layout.description_rect.left() and layout.mark_rect.left() >= 0
    plain = model.find("echo")
    assert plain is not None and delegate.row_layout(plain, view.visualRect(echo), view.font()).mark is None

    page = tool_page(tab, "broken")
    assert not page.run_button.isEnabled()
    assert page.run_button.toolTip() == f"Cannot be run: {broken.unavailable}"
    assert page.dropped_banner is not None and page.dropped_banner.isVisible()
    assert broken.unavailable in page.dropped_banner.text()
    assert not page.run()  # nothing is sent
    qtbot.wait(50)
    assert server.methods().count("tools/call") == 0
    assert tool_page(tab, "echo").run_button.isEnabled()


def test_header_mismatch_is_explained_and_retried_after_re_listing(
    qtbot: QtBot, qasync_loop: AsyncRunner, tab: ConnectionTab, server: HeaderMismatchServer
) -> None:
    page = tool_page(tab, "route")
    page.form.set_value({"region": "eu"})
    assert run_page(qtbot, qasync_loop, page) is ResultState.PROTOCOL_ERROR
    view = page.result_view
    banner = view.protocol_error_banner
    assert banner is not None
    text = banner.text()
    assert "JSON-RPC error -32020" in text
    assert (
        "What it means: The server found the request's Mcp-* HTTP headers missing, malformed or not matching the body"
        in text
    )
    assert view.result is not None and view.result["data"]["header"] == "Mcp-Param-Region"  # the data is shown
    button = view.retry_relisting_button
    assert button is not None and button.isVisible() and button.text() == "Retry after re-listing"
    lists, calls = server.list_count, server.methods().count("tools/call")
    assert calls == 2  # the client itself listed again and retried once already
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: server.methods().count("tools/call") == calls + 2 and not page.running)
    assert server.list_count >= lists + 2  # the button's own listing, then the client's before its retry
    assert page.result_view.state() is ResultState.PROTOCOL_ERROR


@pytest.mark.parametrize(
    ("tool", "meaning"),
    [
        (
            "needs_cap",
            "What it means: The server requires the client capability elicitation.form, which this request did not"
            " declare.",
        ),
        (
            "old_version",
            "What it means: The server does not support protocol version 2026-07-28; it supports 2025-11-25.",
        ),
    ],
)
def test_capability_and_version_refusals_are_explained_from_their_data(
    qtbot: QtBot, qasync_loop: AsyncRunner, tab: ConnectionTab, tool: str, meaning: str
) -> None:
    page = tool_page(tab, tool)
    assert run_page(qtbot, qasync_loop, page) is ResultState.PROTOCOL_ERROR
    banner = page.result_view.protocol_error_banner
    assert banner is not None and meaning in banner.lines()
    assert page.result_view.retry_relisting_button is None  # re-listing would not help
