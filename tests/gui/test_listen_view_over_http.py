"""Issue 15 item 3 over Streamable HTTP: the demo as a real HTTP process (``--era modern``) in a window tab. The
Resources panel's Subscribe joins a ``subscriptions/listen`` stream (a long-lived POST whose SSE answer carries the
updates), updates arrive, the Listen stream view shows both streams open; after Disconnect the last streams stay
on view, closed, and Reconnect listens again (new listen requests, the subscription restored, updates again).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from demowire import demo_http
from guikit import AsyncRunner, MakeWindow, connect_tab, streams_of, verdicts_of, wire_rows
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.client.listen import ListenState
from inspector.content.subscriptions import SubscriptionState
from inspector.protocol.versions import Era
from inspector.protocol.wire import Kind
from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.store.recording import RecordFilter
from inspector.transports.http import StreamableHttpTransport
from inspector.ui.connection.controller import ConnectionState, live_connection
from inspector.ui.explore.resources.subscriptions import ListenView, StreamColumn, Verdict
from inspector.ui.window.connection_tab import ConnectionTab

CLOCK = "demo://clock"


@pytest.fixture
def modern_demo() -> Iterator[str]:
    with demo_http("--era", "modern") as url:  # (its clock ticks every 0.3 s)
        yield url


def _all_open(view: ListenView) -> bool:
    streams = streams_of(view)
    return set(streams) == {"list changes", "resource updates"} and all(
        cells[StreamColumn.STATE] == ListenState.OPEN.value for cells in streams.values()
    )


def _listen_posts(tab: ConnectionTab) -> list[dict[str, Any]]:
    """The recorded HTTP exchanges (JSON summaries) of POSTs whose ``Mcp-Method`` header is subscriptions/listen."""
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    found = []
    for row in recording.rows(RecordFilter(kinds=[Kind.HTTP.value]), 0, 10_000):
        summary = json.loads(row.raw)
        headers = {str(k).lower(): v for k, v in _pairs(summary.get("request_headers"))}
        if summary.get("method") == "POST" and headers.get("mcp-method") == "subscriptions/listen":
            found.append(summary)
    return found


def _pairs(headers: Any) -> list[tuple[Any, Any]]:
    if isinstance(headers, dict):
        return list(headers.items())
    return [tuple(pair) for pair in headers or [] if isinstance(pair, list | tuple) and len(pair) == 2]


def test_subscribe_over_listen_over_http_and_relisten_after_reconnect(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    qtmodeltester: ModelTester,
    modern_demo: str,
) -> None:
    profile = store.create(Profile(name="demo over http", transport="http", http=HttpSettings(url=modern_demo)))
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    conn = live_connection(tab.controller)
    assert conn is not None and conn.era is Era.MODERN and isinstance(conn.transport, StreamableHttpTransport)
    panel = tab.resources
    tab.inner_tabs.setCurrentWidget(panel)
    view = panel.subscriptions.listen
    panel.subscriptions.tabs.setCurrentWidget(view)
    qasync_loop.wait_until(lambda: streams_of(view).get("list changes", [""] * 7)[StreamColumn.STATE] == "open")

    # Subscribe: the panel joins the listen stream (no resources/subscribe), updates arrive
    panel.open_resource(CLOCK)
    qasync_loop.wait_until(lambda: panel.last_result is not None)
    assert "subscriptions/listen" in panel.subscribe_button.toolTip()
    panel.subscribe(CLOCK)
    qasync_loop.wait_until(lambda: (s := panel.book.get(CLOCK)) is not None and s.state is SubscriptionState.ACTIVE)
    first = panel.book.get(CLOCK)
    assert first is not None
    qasync_loop.wait_until(lambda: first.update_count >= 2, timeout=15)
    qasync_loop.wait_until(lambda: _all_open(view))
    qasync_loop.wait_until(lambda: int(streams_of(view)["resource updates"][StreamColumn.NOTIFICATIONS]) >= 2)
    assert verdicts_of(view)[CLOCK] == Verdict.MATCHED.value
    assert "resource updates open" in view.state_label.text() and "list changes open" in view.state_label.text()
    assert wire_rows(tab.controller, "request", "out", "resources/subscribe") == []
    listens = wire_rows(tab.controller, "request", "out", "subscriptions/listen")
    assert len(listens) >= 2
    # each listen request travelled as a POST of its own, with the 2026-07-28 Mcp-Method header, answered by a stream
    posts = _listen_posts(tab)
    assert len(posts) >= len(listens), posts
    for post in posts:
        headers = dict(_pairs(post["request_headers"]))
        assert post["status"] == 200 and headers.get("mcp-protocol-version") == "2026-07-28", post
        assert dict(_pairs(post["response_headers"])).get("content-type", "").startswith("text/event-stream"), post
    qtmodeltester.check(view.streams_model)
    qtmodeltester.check(view.filters_model)

    # Disconnect: the last streams stay on view, closed; Re-listen is off
    tab.disconnect_button.click()
    qasync_loop.wait_state(tab.controller, ConnectionState.CLOSED)
    qasync_loop.wait_until(
        lambda: all(c[StreamColumn.STATE] == ListenState.CLOSED.value for c in streams_of(view).values()),
        timeout=10,
    )
    assert set(streams_of(view)) == {"list changes", "resource updates"}
    assert not view.relisten_button.isEnabled()

    # Reconnect: a new connection listens again (new requests), the subscription is restored, updates come again
    tab.reconnect_button.click()
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    again = live_connection(tab.controller)
    assert again is not None and again is not conn and again.era is Era.MODERN
    qasync_loop.wait_until(lambda: (s := panel.book.get(CLOCK)) is not None and s.state is SubscriptionState.ACTIVE)
    qasync_loop.wait_until(lambda: _all_open(view), timeout=15)
    assert view.listening is again.listening  # the view follows the new connection's streams, not the closed ones
    streams = again.listening.streams()
    assert {str(stream.id) for stream in streams} == {
        cells[StreamColumn.REQUEST] for cells in streams_of(view).values()
    }
    assert all(stream.state is ListenState.OPEN for stream in streams)
    qasync_loop.wait_until(lambda: verdicts_of(view).get(CLOCK) == Verdict.MATCHED.value)
    assert view.relisten_button.isEnabled()
    sub = panel.book.get(CLOCK)
    assert sub is not None
    count = sub.update_count
    qasync_loop.wait_until(lambda: sub.update_count >= count + 2, timeout=15)
    assert wire_rows(tab.controller, "request", "out", "resources/subscribe") == []

    # and the view's Re-listen, over HTTP, replaces both streams once more
    replaced = {purpose: cells[StreamColumn.REQUEST] for purpose, cells in streams_of(view).items()}
    view.relisten_button.click()
    qasync_loop.wait_until(
        lambda: _all_open(view) and all(streams_of(view)[p][StreamColumn.REQUEST] != r for p, r in replaced.items()),
        timeout=15,
    )
    count = sub.update_count
    qasync_loop.wait_until(lambda: sub.update_count >= count + 1, timeout=15)
    qasync_loop.run(tab.controller.aclose())  # the HTTP client's sockets closed on the loop, before the server
