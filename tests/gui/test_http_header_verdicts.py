"""Issue 15 item 4 in the window: the log's HTTP exchange view checks each request's Mcp-* headers against its body
(the demo over Streamable HTTP, ``--era modern``; a profile header that breaks a rule), with a screenshot of a
verdict checked for what it draws."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from demowire import demo_http
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wait_settled
from pixels import saved_grab
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Kind
from inspector.store.profiles import Header, HttpSettings, Profile, ProfileStore
from inspector.store.recording import RecordFilter
from inspector.ui.log import LogPanel
from inspector.ui.viewers import ResultState
from inspector.ui.widgets.theme_colours import LIGHT
from inspector.ui.window.connection_tab import ConnectionTab

FAIL = QColor(LIGHT.error_fg)  # the light theme's (the window follows the system: light when it says nothing)
PASS = QColor(LIGHT.ok_fg)


@pytest.fixture(scope="module")
def modern_demo() -> Iterator[str]:
    with demo_http("--era", "modern") as url:
        yield url


def open_tab(
    make_window: MakeWindow, store: ProfileStore, runner: AsyncRunner, url: str, **http: object
) -> ConnectionTab:
    profile = store.create(
        Profile(name="demo over http", transport="http", http=HttpSettings(url=url, **http), protocol_era="modern")  # type: ignore[arg-type]
    )
    window = make_window(store)
    return connect_tab(window, runner, profile.id)


def call_route_query(qtbot: QtBot, runner: AsyncRunner, tab: ConnectionTab) -> None:
    page = tool_page(tab, "route_query")
    page.form.set_value({"region": "eu wést", "priority": 3, "query": "SELECT 2"})
    assert page.run()
    runner.wait_until(lambda: not page.running, timeout=30)
    assert page.result_view.state() is ResultState.SUCCESS


def request_seq(tab: ConnectionTab, method: str) -> int:
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    rows = recording.rows(RecordFilter(kinds=[Kind.REQUEST.value], directions=["out"], methods=[method]), 0, 100)
    assert rows, method
    return rows[-1].seq


def show_in_log(qtbot: QtBot, tab: ConnectionTab, seq: int) -> LogPanel:
    log = tab.log
    tab.inner_tabs.setCurrentWidget(log)
    log.refresh()
    wait_settled(qtbot, log.model)
    assert log.select_seq(seq)
    qtbot.waitUntil(lambda: log.detail.seq == seq and log.detail.mode == "text", timeout=10000)
    return log


def test_the_headers_of_a_call_over_http_pass_each_rule(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    modern_demo: str,
) -> None:
    tab = open_tab(make_window, store, qasync_loop, modern_demo)
    call_route_query(qtbot, qasync_loop, tab)
    seq = request_seq(tab, "tools/call")
    log = show_in_log(qtbot, tab, seq)
    verdicts = log.detail.http_headers.verdicts
    assert log.detail.http_headers.isVisible()
    assert [(v.header, v.status) for v in verdicts] == [
        ("MCP-Protocol-Version", "pass"),
        ("Mcp-Method", "pass"),
        ("Mcp-Name", "pass"),
        ("Mcp-Param-Region", "pass"),
        ("Mcp-Param-Priority", "pass"),
        ("Mcp-Param-Verbose", "pass"),
    ]
    found = {v.header: v for v in verdicts}
    assert found["Mcp-Param-Region"].sent is not None and found["Mcp-Param-Region"].sent.startswith("=?base64?")
    assert found["Mcp-Param-Region"].rule == "matches arguments.region (Base64-encoded)"
    assert found["Mcp-Param-Priority"].sent == "3"
    assert found["Mcp-Param-Verbose"].sent is None and found["Mcp-Param-Verbose"].rule.startswith("omitted")
    assert "6 passes" in log.detail.http_headers.title.text() and "failure" not in log.detail.http_headers.title.text()

    # the HTTP exchange row of that POST shows the same check
    recording = tab.controller.recording
    assert recording is not None
    exchanges = recording.exchanges_for(seq)
    assert exchanges
    show_in_log(qtbot, tab, exchanges[0])
    assert [(v.header, v.status) for v in log.detail.http_headers.verdicts] == [(v.header, v.status) for v in verdicts]
    # a row that is not an HTTP request shows none
    notes = recording.rows(RecordFilter(kinds=[Kind.TRANSPORT.value]), 0, 1)
    show_seq = notes[0].seq
    log.select_seq(show_seq)
    qtbot.waitUntil(lambda: log.detail.seq == show_seq and log.detail.row is not None)
    assert not log.detail.http_headers.isVisible() and log.detail.http_headers.verdicts == []


def test_a_header_that_breaks_a_rule_fails_with_the_rule_in_words_and_is_drawn_red(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    modern_demo: str,
    tmp_path: Path,
) -> None:
    # a profile header "Mcp-Name" rides on every request: tools/call replaces it with its own, tools/list keeps it
    tab = open_tab(make_window, store, qasync_loop, modern_demo, headers=[Header("Mcp-Name", "wrong")])
    call_route_query(qtbot, qasync_loop, tab)
    log = show_in_log(qtbot, tab, request_seq(tab, "tools/list"))
    view = log.detail.http_headers
    found = {v.header: v for v in view.verdicts}
    assert found["MCP-Protocol-Version"].status == "pass" and found["Mcp-Method"].status == "pass"
    assert found["Mcp-Name"].status == "fail"
    assert found["Mcp-Name"].sent == "wrong"
    assert found["Mcp-Name"].rule.startswith("tools/list carries no Mcp-Name (only ")
    assert "1 failure" in view.title.text()
    item = view.tree.topLevelItem([v.header for v in view.verdicts].index("Mcp-Name"))
    assert item is not None and item.text(0) == "✗ fail" and item.text(4) == found["Mcp-Name"].rule
    assert "tools/list carries no Mcp-Name" in item.toolTip(2)

    # the screenshot: the failing row's verdict and rule in red, a passing row's verdict in green
    log.resize(1300, 800)
    qtbot.wait(50)
    image, scale = saved_grab(view, tmp_path / "header_verdict.png")
    passing = view.tree.topLevelItem(0)
    assert passing is not None and passing.text(0) == "✓ pass"
    fail_verdict = _cell(view, item, 0, scale)
    fail_rule = _cell(view, item, 4, scale)
    pass_verdict = _cell(view, passing, 0, scale)
    assert _near(image, fail_verdict, FAIL) > 5, "the failing verdict is not drawn red"
    assert _near(image, fail_rule, FAIL) > 5, "the failed rule is not drawn red"
    assert _near(image, pass_verdict, PASS) > 5, "the passing verdict is not drawn green"
    assert _near(image, pass_verdict, FAIL) == 0 and _near(image, fail_verdict, PASS) == 0
    assert _near(image, _cell(view, passing, 4, scale), FAIL) == 0, "a passing rule is drawn red"

    # on tools/call the client's own Mcp-Name replaced the profile's: that request passes
    show_in_log(qtbot, tab, request_seq(tab, "tools/call"))
    assert {v.header: v.status for v in log.detail.http_headers.verdicts}["Mcp-Name"] == "pass"


def _cell(view: object, item: object, column: int, scale: float) -> QRect:
    from inspector.ui.log.http_headers import HttpHeaderVerdicts

    assert isinstance(view, HttpHeaderVerdicts)
    tree = view.tree
    rect = tree.visualItemRect(item)  # type: ignore[arg-type]
    left = tree.header().sectionPosition(column)
    width = tree.header().sectionSize(column)
    top_left = tree.viewport().mapTo(view, rect.topLeft())
    return QRect(
        round((top_left.x() + left) * scale),
        round(top_left.y() * scale),
        round(width * scale),
        round(rect.height() * scale),
    )


def _near(image: QImage, rect: QRect, colour: QColor, tolerance: int = 40) -> int:
    count = 0
    for y in range(max(0, rect.top()), min(image.height(), rect.bottom() + 1)):
        for x in range(max(0, rect.left()), min(image.width(), rect.right() + 1)):
            pixel = image.pixelColor(x, y)
            if (
                abs(pixel.red() - colour.red())
                + abs(pixel.green() - colour.green())
                + abs(pixel.blue() - colour.blue())
                <= tolerance
            ):
                count += 1
    return count


@pytest.fixture(scope="module")
def both_demo() -> Iterator[str]:
    with demo_http("--era", "both") as url:
        yield url


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_the_demo_speaking_both_eras_the_invalid_tool_and_the_handshake_headers(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    both_demo: str,
    era: str,
) -> None:
    """2026-07-28: bad_header_tool is listed struck through and route_query's headers are judged; 2025-11-25: the
    tool is an ordinary one and only the negotiated MCP-Protocol-Version travels, shown without a verdict."""
    profile = store.create(
        Profile(name="both", transport="http", http=HttpSettings(url=both_demo), protocol_era=era)  # type: ignore[arg-type]
    )
    tab = connect_tab(make_window(store), qasync_loop, profile.id)
    bad = tab.tools.browser.model.find("bad_header_tool")
    assert bad is not None
    assert bool(bad.unavailable) is (era == "modern")
    assert tool_page(tab, "bad_header_tool").run_button.isEnabled() is (era == "legacy")
    call_route_query(qtbot, qasync_loop, tab)
    log = show_in_log(qtbot, tab, request_seq(tab, "tools/call"))
    verdicts = {v.header: v for v in log.detail.http_headers.verdicts}
    if era == "modern":
        assert set(verdicts) >= {"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-Region"}
        assert all(v.status == "pass" for v in verdicts.values()), verdicts
    else:
        assert list(verdicts) == ["MCP-Protocol-Version"]
        assert (
            verdicts["MCP-Protocol-Version"].status == "info" and verdicts["MCP-Protocol-Version"].sent == "2025-11-25"
        )
        assert log.detail.http_headers.title.text().endswith(": 1 note (nothing to check against)")
