"""Subscriptions over ``subscriptions/listen`` (2026-07-28) in the Resources panel: the Subscribe toggle joins the
listen stream, list changes come on the engine's list-changes stream, and the Subscriptions view's "Listen stream"
tab shows each stream's state, what was asked against what was acknowledged (a difference highlighted) and
re-listens. Against the in-memory demo (``--era modern`` and ``both``), the demo over stdio ``--era modern``, and
tests/servers/listen_misbehaving.py (an acknowledgement that differs, a stream the server ends)."""

from __future__ import annotations

import os
import sys
from functools import partial
from pathlib import Path

import pytest
from guikit import DEMO_COMMAND, AsyncRunner, MakeController, streams_of, verdicts_of, wire_rows
from pixels import colours_in, rgb_of
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QSplitter
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.client.listen import ListenState, Subscription
from inspector.content.subscriptions import SubscriptionState
from inspector.demo.eras import Era as DemoEra
from inspector.demo.in_memory import demo_transport
from inspector.protocol.envelope import SUBSCRIPTION_ID_KEY
from inspector.protocol.events import NotificationReceived
from inspector.protocol.versions import Era
from inspector.ui.connection.controller import live_connection
from inspector.ui.explore.resources.panel import ResourcesPanel
from inspector.ui.explore.resources.subscriptions import FilterColumn, StreamColumn, Verdict
from inspector.ui.widgets.style import tones

LISTEN_SERVER = Path(__file__).resolve().parent.parent / "servers" / "listen_misbehaving.py"


def _panel(qtbot: QtBot, runner: AsyncRunner, make: MakeController, server: object, era: str) -> ResourcesPanel:
    panel = ResourcesPanel(make(server, "listen", era=era))  # type: ignore[arg-type]
    c = panel.controller
    c.stateChanged.connect(panel.on_state)
    c.notificationReceived.connect(panel.on_notification)
    panel.on_state(c.state)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    runner.wait_until(lambda: panel.resources_model.rowCount() >= 2)
    return panel


def _subscribe(runner: AsyncRunner, panel: ResourcesPanel, uri: str, state: SubscriptionState) -> None:
    panel.subscribe(uri)
    runner.wait_until(lambda: (sub := panel.book.get(uri)) is not None and sub.state is state, timeout=15)


@pytest.mark.parametrize("demo_era", ["modern", "both"])
def test_subscribe_rides_on_listen_and_the_view_follows_it(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_controller: MakeController,
    qtmodeltester: ModelTester,
    demo_era: DemoEra,
) -> None:
    panel = _panel(qtbot, qasync_loop, make_controller, partial(demo_transport, demo_era, clock_interval=0.3), "auto")
    conn = live_connection(panel.controller)
    assert conn is not None and conn.era is Era.MODERN
    view = panel.subscriptions.listen

    def sent(method: str) -> int:
        return len(wire_rows(panel.controller, "request", "out", method))

    # before any subscription: the list-changes stream, open, everything acknowledged
    qasync_loop.wait_until(lambda: "list changes" in streams_of(view))
    assert streams_of(view)["list changes"][StreamColumn.STATE] == "open"
    assert set(verdicts_of(view).values()) == {Verdict.MATCHED.value}
    panel.open_resource("demo://clock")
    qasync_loop.wait_until(lambda: panel.last_result is not None)
    assert panel.subscribe_button.isEnabled() and "subscriptions/listen" in panel.subscribe_button.toolTip()

    _subscribe(qasync_loop, panel, "demo://clock", SubscriptionState.ACTIVE)
    assert sent("subscriptions/listen") >= 2 and sent("resources/subscribe") == 0
    qasync_loop.wait_until(lambda: "resource updates" in streams_of(view))
    qasync_loop.wait_until(lambda: int(streams_of(view)["resource updates"][StreamColumn.NOTIFICATIONS]) >= 2)
    sub = panel.book.get("demo://clock")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.update_count >= 2, timeout=15)
    assert verdicts_of(view)["demo://clock"] == Verdict.MATCHED.value

    # a resource the demo never updates: asked, not acknowledged; the subscription fails and the row stands out
    _subscribe(qasync_loop, panel, "demo://text/hello", SubscriptionState.FAILED)
    failed = panel.book.get("demo://text/hello")
    assert failed is not None and "did not acknowledge" in (failed.error or "")
    qasync_loop.wait_until(lambda: verdicts_of(view).get("demo://text/hello") == Verdict.REFUSED.value)
    model = view.filters_model
    row = next(r for r in range(model.rowCount()) if model.index(r, FilterColumn.FILTER).data() == "demo://text/hello")
    assert model.index(row, 0).data(Qt.ItemDataRole.BackgroundRole) == QColor(tones(None).warning_bg)
    assert model.index(row, 0).data(Qt.ItemDataRole.FontRole).bold()
    ok_row = next(r for r in range(model.rowCount()) if model.index(r, FilterColumn.FILTER).data() == "demo://clock")
    assert model.index(ok_row, 0).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "1 difference" in view.differences_label.text() and "demo://text/hello" in view.differences_label.text()
    qtmodeltester.check(view.streams_model)
    qtmodeltester.check(view.filters_model)

    # Re-listen: new listen requests, the same filters, updates keep coming
    before = {purpose: cells[StreamColumn.REQUEST] for purpose, cells in streams_of(view).items()}
    assert view.relisten_button.isEnabled()
    view.relisten_button.click()
    qasync_loop.wait_until(
        lambda: all(streams_of(view).get(p, [""] * 7)[StreamColumn.REQUEST] not in ("", r) for p, r in before.items()),
        timeout=15,
    )
    qasync_loop.wait_until(lambda: all(c[StreamColumn.STATE] == "open" for c in streams_of(view).values()))
    assert len(streams_of(view)) == 2, "the replaced streams left the view"
    assert sub.state is SubscriptionState.ACTIVE
    failed = panel.book.get("demo://text/hello")
    assert failed is not None and failed.state is SubscriptionState.FAILED
    count = sub.update_count
    qasync_loop.wait_until(lambda: sub.update_count >= count + 2, timeout=15)

    # unsubscribing everything closes the resource stream
    panel.unsubscribe("demo://clock")
    panel.unsubscribe("demo://text/hello")
    qasync_loop.wait_until(lambda: len(panel.book) == 0 and "resource updates" not in streams_of(view), timeout=15)
    assert sent("resources/unsubscribe") == 0


def test_list_changes_come_on_the_listen_stream(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    panel = _panel(qtbot, qasync_loop, make_controller, partial(demo_transport, "modern"), "modern")
    conn = live_connection(panel.controller)
    assert conn is not None and conn.change_listen is not None
    changes_id = conn.change_listen.id
    seen: list[NotificationReceived] = []
    panel.controller.notificationReceived.connect(seen.append)
    qasync_loop.run(conn.call_tool("toggle_tool", {}))
    qasync_loop.wait_until(lambda: any(e.method == "notifications/tools/list_changed" for e in seen))
    event = next(e for e in seen if e.method == "notifications/tools/list_changed")
    assert (event.params or {}).get("_meta", {}).get(SUBSCRIPTION_ID_KEY) == changes_id
    view = panel.subscriptions.listen
    qasync_loop.wait_until(lambda: int(streams_of(view)["list changes"][StreamColumn.NOTIFICATIONS]) >= 1)


def test_handshake_era_keeps_resources_subscribe(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    panel = _panel(qtbot, qasync_loop, make_controller, partial(demo_transport, "both", clock_interval=0.3), "legacy")
    view = panel.subscriptions.listen
    assert view.streams_model.rowCount() == 0 and not view.relisten_button.isEnabled()
    assert "Handshake era" in view.state_label.text()
    panel.open_resource("demo://clock")
    qasync_loop.wait_until(lambda: panel.last_result is not None)
    assert panel.subscribe_button.isEnabled() and "(resources/subscribe)" in panel.subscribe_button.toolTip()
    _subscribe(qasync_loop, panel, "demo://clock", SubscriptionState.ACTIVE)
    sub = panel.book.get("demo://clock")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.update_count >= 1, timeout=15)
    assert view.streams_model.rowCount() == 0


def test_demo_over_stdio_modern(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    panel = _panel(qtbot, qasync_loop, make_controller, [*DEMO_COMMAND, "--era", "modern"], "auto")
    view = panel.subscriptions.listen
    _subscribe(qasync_loop, panel, "demo://clock", SubscriptionState.ACTIVE)
    qasync_loop.wait_until(lambda: set(streams_of(view)) == {"list changes", "resource updates"})
    assert all(cells[StreamColumn.STATE] == "open" for cells in streams_of(view).values())
    sub = panel.book.get("demo://clock")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.update_count >= 1, timeout=20)  # the demo's clock ticks every 2 s


def test_differences_highlighted_relistening_shown_and_drawn(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, qtmodeltester: ModelTester, tmp_path: Path
) -> None:
    command = [sys.executable, str(LISTEN_SERVER), "--mode", "ack-less,ack-more,end-once,updates"]
    panel = _panel(qtbot, qasync_loop, make_controller, command, "auto")
    conn = live_connection(panel.controller)
    assert conn is not None
    states: list[tuple[str, ListenState]] = []

    def heard(sub: Subscription) -> None:
        if not states or states[-1] != (str(sub.id), sub.state):
            states.append((str(sub.id), sub.state))

    conn.listening.watch(heard)
    view = panel.subscriptions.listen
    panel.subscriptions.tabs.setCurrentWidget(view)
    # the server ends the first stream (the list changes): the engine listens again, and the view says so
    qasync_loop.wait_until(lambda: streams_of(view).get("list changes", [""] * 7)[StreamColumn.RELISTENED] == "1")
    qasync_loop.wait_until(lambda: streams_of(view)["list changes"][StreamColumn.STATE] == "open")
    assert (
        "listening again after: the server ended the subscription"
        in streams_of(view)["list changes"][StreamColumn.DETAIL]
    )
    assert ListenState.RELISTENING in [s for _, s in states]

    _subscribe(qasync_loop, panel, "keep://a", SubscriptionState.ACTIVE)
    _subscribe(qasync_loop, panel, "drop://b", SubscriptionState.FAILED)
    qasync_loop.wait_until(lambda: "extra://unasked" in verdicts_of(view))
    verdicts = verdicts_of(view)
    assert verdicts["keep://a"] == Verdict.MATCHED.value
    assert verdicts["drop://b"] == Verdict.REFUSED.value
    assert verdicts["extra://unasked"] == Verdict.UNASKED.value
    assert verdicts["resourcesListChanged (resources/list_changed)"] == Verdict.REFUSED.value
    assert verdicts["promptsListChanged (prompts/list_changed)"] in (Verdict.UNASKED.value, Verdict.MATCHED.value)
    differences = view.filters_model.differences()
    assert {(d.purpose, d.label, d.verdict) for d in differences} == {
        ("list changes", "resourcesListChanged (resources/list_changed)", Verdict.REFUSED),
        ("resource updates", "drop://b", Verdict.REFUSED),
        ("resource updates", "extra://unasked", Verdict.UNASKED),
        ("resource updates", "promptsListChanged (prompts/list_changed)", Verdict.UNASKED),
    }
    assert view.differences_label.text().startswith("4 differences")
    sub = panel.book.get("keep://a")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.update_count >= 2, timeout=15)
    qtmodeltester.check(view.streams_model)
    qtmodeltester.check(view.filters_model)

    # the screenshot: the difference rows are drawn on the warning background, the others are not
    left = panel.subscriptions.parentWidget()
    assert isinstance(left, QSplitter)
    left.setSizes([150, 650])
    panel.splitter.setSizes([720, 480])
    view.filters_table.clearSelection()
    qtbot.wait(100)
    assert view.filters_table.viewport().height() >= view.filters_model.rowCount() * 20
    shot = view.grab()
    path = tmp_path / "listen_view.png"
    assert shot.save(str(path))
    target = os.environ.get("MCP_INSPECTOR_LISTEN_SCREENSHOT")
    if target:
        assert shot.save(target)
    image = QImage(str(path))
    scale = shot.devicePixelRatio()
    assert len(colours_in(image, image.rect(), step=2)) > 20, "the screenshot is (nearly) uniform"
    table, model = view.filters_table, view.filters_model
    viewport = table.viewport()

    def row_rect(label: str) -> QRect:
        row = next(r for r in range(model.rowCount()) if model.index(r, FilterColumn.FILTER).data() == label)
        rect = table.visualRect(model.index(row, FilterColumn.FILTER))
        rect = QRect(0, rect.top(), viewport.width(), rect.height())
        top_left = viewport.mapTo(view, rect.topLeft())
        drawn = QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(rect.width() * scale),
            round(rect.height() * scale),
        )
        assert image.rect().contains(drawn), f"{label} is not fully on screen"
        return drawn

    warning = rgb_of(QColor(tones(view).warning_bg))
    for label in ("drop://b", "extra://unasked"):
        dominant, _ = colours_in(image, row_rect(label), step=2).most_common(1)[0]
        assert dominant == warning, f"{label}: {dominant} != {warning}"
        assert len(colours_in(image, row_rect(label), step=2)) > 3, f"{label}: no text drawn"
    dominant, _ = colours_in(image, row_rect("keep://a"), step=2).most_common(1)[0]
    assert dominant != warning
