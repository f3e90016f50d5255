"""The Resources panel against real servers: the bundled demo (fast clock), misbehaving.py, mcp-server-time and
server-everything. Lists, reads by mimeType, templates with completion, subscriptions with diffs, list_changed,
reconnects and capability gating."""

from __future__ import annotations

import dataclasses
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

import nodetools
import pytest
from guikit import MISBEHAVING, AsyncRunner, MakeController
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.content.mime import ViewerKind
from inspector.content.subscriptions import SubscriptionState
from inspector.demo.in_memory import demo_transport
from inspector.protocol.events import NotificationReceived
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.explore.common.gating import NOT_CONNECTED
from inspector.ui.explore.resources.panel import ResourcesPanel

DEMO = partial(demo_transport, clock_interval=0.3)
"""The demo in this process, with a fast clock."""
# QCompleter opens its popup as the user types; the offscreen platform cannot raise it or grab the keyboard.
# (pytest-qt reads only the closest qt_log_ignore marker, so conftest's pattern is repeated here.)
POPUP_NOISE = pytest.mark.qt_log_ignore(
    r"This plugin does not support propagateSizeHints\(\)",
    r"This plugin does not support raise\(\)",
    "This plugin does not support grabbing the keyboard",
)


def _wired(panel: ResourcesPanel) -> ResourcesPanel:
    """Follow the controller as ``ConnectionTab._wire`` makes every Explore panel do."""
    c = panel.controller
    c.stateChanged.connect(panel.on_state)
    c.notificationReceived.connect(panel.on_notification)
    panel.on_state(c.state)
    return panel


@pytest.fixture
def demo_panel(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> ResourcesPanel:
    panel = _wired(ResourcesPanel(make_controller(DEMO, "demo")))
    qtbot.addWidget(panel)
    panel.resize(1200, 760)
    panel.show()
    qasync_loop.wait_until(lambda: panel.resources_model.rowCount() >= 6 and panel.templates_model.rowCount() >= 4)
    return panel


def _select(panel: ResourcesPanel, uri: str, *, template: bool = False) -> None:
    page = panel.templates_page if template else panel.resources_page
    panel.list_tabs.setCurrentWidget(page)
    assert page.select_uri(uri), f"{uri} is not listed"


def _read(qasync_loop: AsyncRunner, panel: ResourcesPanel, uri: str) -> ViewerKind:
    _select(panel, uri)
    qasync_loop.wait_until(
        lambda: panel.current_uri == uri and [v.uri for v in panel.contents_view.viewers()] == [uri], timeout=15
    )
    viewers = panel.contents_view.viewers()
    return viewers[0].viewer_kind


def test_lists_reads_by_mime_type_and_annotations(
    qasync_loop: AsyncRunner, demo_panel: ResourcesPanel, qtmodeltester: ModelTester
) -> None:
    panel = demo_panel
    uris = {panel.resources_model.entry(r)["uri"] for r in range(panel.resources_model.rowCount())}  # type: ignore[index]
    assert {"demo://text/hello", "demo://data/config.json", "demo://clock"} <= uris
    assert panel.list_tabs.tabText(0) == f"Resources ({panel.resources_model.rowCount()})"
    assert panel.list_tabs.tabText(1) == "Templates (4)"
    assert "resources" in panel.counts_label.text() and "templates" in panel.counts_label.text()
    for model in (panel.resources_model, panel.templates_model, panel.resources_page.proxy, panel.subscriptions.model):
        qtmodeltester.check(model)

    assert _read(qasync_loop, panel, "demo://text/hello") is ViewerKind.TEXT
    assert "Hello, MCP Inspector!" in panel.contents_view.viewers()[0].viewer.text()  # type: ignore[attr-defined]
    badges = panel.header.badge_texts()
    assert "for user" in badges and "priority 0.2" in badges and "modified 2025-06-18T12:00:00Z" in badges
    assert "text/plain" in badges
    assert panel.status_label.text().startswith("Read in ")

    assert _read(qasync_loop, panel, "demo://data/config.json") is ViewerKind.JSON
    assert "for assistant" in panel.header.badge_texts()
    assert _read(qasync_loop, panel, "demo://docs/readme") is ViewerKind.MARKDOWN
    assert _read(qasync_loop, panel, "demo://images/logo.png") is ViewerKind.IMAGE
    assert _read(qasync_loop, panel, "demo://audio/beep.wav") in (ViewerKind.AUDIO, ViewerKind.BINARY)

    # a resource link clicked elsewhere (Explore's open_resource hook), listed or not
    panel.open_resource("demo://users/alan/profile")
    qasync_loop.wait_until(lambda: [v.uri for v in panel.contents_view.viewers()] == ["demo://users/alan/profile"])
    assert panel.header.uri_label.text() == "demo://users/alan/profile"
    panel.open_resource("demo://text/hello")
    qasync_loop.wait_until(lambda: [v.uri for v in panel.contents_view.viewers()] == ["demo://text/hello"])
    assert panel.header.title_label.text() == "Hello (plain text)"

    # search filters the (virtual) list
    panel.resources_page.search.setText("clock")
    assert panel.resources_page.proxy.rowCount() == 1
    panel.resources_page.search.clear()


@POPUP_NOISE
def test_template_form_completion_and_read(
    qtbot: QtBot, qasync_loop: AsyncRunner, demo_panel: ResourcesPanel, qtmodeltester: ModelTester
) -> None:
    panel = demo_panel
    _select(panel, "demo://users/{user_id}/profile", template=True)
    form = panel.template_form
    assert form.isVisible() and list(form.fields) == ["user_id"]
    assert form.preview_label.text() == "demo://users/{user_id}/profile"
    assert not form.read_button.isEnabled()
    assert not panel.subscribe_button.isEnabled()

    conn = panel.controller.connection
    assert conn is not None
    calls: list[tuple[Any, ...]] = []
    real_complete = conn.complete

    async def spy(ref: dict[str, Any], argument: dict[str, str], context: dict[str, Any] | None = None) -> Any:
        calls.append((ref, argument, context))
        return await real_complete(ref, argument, context)

    conn.complete = spy  # type: ignore[method-assign]
    edit = form.fields["user_id"].edit
    qtbot.keyClicks(edit, "a")  # (no focus: the offscreen platform warns when a completion popup opens)
    qasync_loop.wait_until(lambda: form.suggestions("user_id") == ["ada", "alan"], timeout=10)
    assert calls[-1][0] == {"type": "ref/resource", "uri": "demo://users/{user_id}/profile"}
    assert calls[-1][1] == {"name": "user_id", "value": "a"}
    assert "2 suggestions for user_id" in form.status_label.text()
    qtbot.keyClicks(edit, "d")
    qasync_loop.wait_until(lambda: form.suggestions("user_id") == ["ada"], timeout=10)
    assert len(calls) == 2  # debounced: one request per pause, not per key
    qtbot.keyClicks(edit, "a")
    assert form.preview_label.text() == "demo://users/ada/profile"
    assert form.read_button.isEnabled()
    qtbot.mouseClick(form.read_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: panel.current_uri == "demo://users/ada/profile" and panel.contents_view.viewers())
    viewer = panel.contents_view.viewers()[0]
    assert viewer.viewer_kind is ViewerKind.JSON
    assert "Ada Lovelace" in viewer.viewer.text()  # type: ignore[attr-defined]
    assert panel.subscribe_button.isEnabled()  # a read template URI can be subscribed

    # {?q,limit}: the context of a completion carries the other filled arguments; empty ones are omitted
    _select(panel, "demo://search{?q,limit}", template=True)
    assert list(form.fields) == ["q", "limit"]
    assert form.preview_label.text() == "demo://search" and form.read_button.isEnabled()
    form.set_value("limit", "5")
    form.fields["q"].edit.setText("insp")
    form.request_completion("q")
    qasync_loop.wait_until(lambda: form.fields["q"].completions == 1, timeout=10)
    assert calls[-1][2] == {"arguments": {"limit": "5"}}
    assert form.suggestions("q") == ["inspect", "inspector"]
    assert form.preview_label.text() == "demo://search?q=insp&limit=5"
    qtmodeltester.check(form.fields["q"].model)

    # {+path} keeps slashes
    _select(panel, "demo://files/{+path}", template=True)
    form.set_value("path", "notes/todo.txt")
    assert form.uri() == "demo://files/notes/todo.txt"
    form.read_button.click()
    qasync_loop.wait_until(lambda: panel.current_uri == "demo://files/notes/todo.txt" and panel.contents_view.viewers())
    assert "inspect it" in panel.contents_view.viewers()[0].viewer.text()  # type: ignore[attr-defined]

    # a read error is shown, not raised
    _select(panel, "demo://colors/{name}.png", template=True)
    form.set_value("name", "no-such-colour")
    form.read_button.click()
    qasync_loop.wait_until(lambda: panel.error_banner.isVisible(), timeout=10)
    assert "-32002" in panel.error_banner.line_labels[0].text()


def test_subscribe_receives_updates_with_diffs_then_unsubscribe(
    qtbot: QtBot, qasync_loop: AsyncRunner, demo_panel: ResourcesPanel, qtmodeltester: ModelTester, tmp_path: Path
) -> None:
    panel = demo_panel
    updates: list[str] = []

    def on_notification(event: NotificationReceived) -> None:
        if event.method == "notifications/resources/updated":
            updates.append(str((event.params or {}).get("uri")))

    panel.controller.notificationReceived.connect(on_notification)
    assert _read(qasync_loop, panel, "demo://clock") is ViewerKind.TEXT
    assert panel.subscribe_button.isEnabled() and panel.subscribe_button.text() == "Subscribe"
    qtbot.mouseClick(panel.subscribe_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: panel.book.get("demo://clock") is not None)
    sub = panel.book.get("demo://clock")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.state is SubscriptionState.ACTIVE, timeout=10)
    assert panel.subscribe_button.isChecked() and panel.subscribe_button.text() == "Unsubscribe"
    qasync_loop.wait_until(lambda: sub.update_count >= 2 and panel.updates_shown >= 2, timeout=15)
    qtmodeltester.check(panel.subscriptions.model)

    model = panel.subscriptions.model
    assert model.rowCount() == 1
    assert model.index(0, 0).data() == "demo://clock"
    assert model.index(0, 1).data() == "active"
    assert int(model.index(0, 2).data()) >= 2
    assert model.index(0, 3).data() != "—"
    diff = panel.contents_view.diff_view
    assert diff is not None and diff.diff.added >= 1 and diff.diff.removed >= 1
    assert "tick=" in diff.editor.toPlainText()
    assert panel.contents_view.tabs.currentWidget() is diff
    assert panel.status_label.text().startswith("Update ")

    # the update diff is also there after looking at something else
    _read(qasync_loop, panel, "demo://text/hello")
    panel.subscriptions.select("demo://clock")
    panel.subscriptions.show_button.click()
    assert panel.current_uri == "demo://clock" and panel.contents_view.diff_view is not None

    # a screenshot with a template form, a read result and the subscriptions view
    _select(panel, "demo://users/{user_id}/profile", template=True)
    panel.template_form.set_value("user_id", "grace")
    panel.template_form.read_button.click()
    qasync_loop.wait_until(lambda: panel.current_uri == "demo://users/grace/profile" and panel.contents_view.viewers())
    qtbot.wait(150)
    shot = panel.grab()
    assert shot.save(str(tmp_path / "resources_panel.png"))
    target = os.environ.get("MCP_INSPECTOR_RESOURCES_SCREENSHOT")
    if target:
        assert shot.save(target)

    # unsubscribe from the Subscriptions view: the row goes, and so do the notifications
    panel.subscriptions.select("demo://clock")
    panel.subscriptions.unsubscribe_button.click()
    qasync_loop.wait_until(lambda: len(panel.book) == 0, timeout=10)
    assert model.rowCount() == 0
    qtbot.wait(400)  # a notification may have been on its way while unsubscribing
    seen = len(updates)
    qtbot.wait(1000)  # > 3 clock ticks
    assert len(updates) == seen


def test_subscriptions_survive_a_reconnect(qasync_loop: AsyncRunner, demo_panel: ResourcesPanel) -> None:
    panel = demo_panel
    _read(qasync_loop, panel, "demo://clock")
    panel.subscribe("demo://clock")
    sub = panel.book.get("demo://clock")
    assert sub is not None
    qasync_loop.wait_until(lambda: sub.update_count >= 1, timeout=10)
    panel.controller.reconnect()
    qasync_loop.wait_until(lambda: sub.state is SubscriptionState.STALE, timeout=10)
    assert not panel.subscribe_button.isEnabled()
    qasync_loop.wait_state(panel.controller, ConnectionState.CONNECTED)
    qasync_loop.wait_until(lambda: sub.state is SubscriptionState.ACTIVE, timeout=15)
    count = sub.update_count
    qasync_loop.wait_until(lambda: sub.update_count >= count + 2, timeout=15)
    assert panel.resources_model.rowCount() >= 6


def test_list_changed_refreshes_with_a_note(qasync_loop: AsyncRunner, demo_panel: ResourcesPanel) -> None:
    panel = demo_panel
    conn = panel.controller.connection
    assert conn is not None and panel.resources_model.row_of("demo://bonus") < 0
    assert not panel.note_banner.isVisible()
    before = panel.resources_model.rowCount()
    qasync_loop.run(conn.call_tool("toggle_tool", {"enabled": True}))
    qasync_loop.wait_until(lambda: panel.resources_model.row_of("demo://bonus") >= 0, timeout=10)
    assert panel.note_banner.isVisible() and "list_changed" in panel.note_banner.title_label.text()
    assert panel.resources_model.rowCount() == before + 1
    qasync_loop.run(conn.call_tool("toggle_tool", {"enabled": False}))
    qasync_loop.wait_until(lambda: panel.resources_model.row_of("demo://bonus") < 0, timeout=10)


@POPUP_NOISE
def test_gating_without_subscribe_or_completions(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController
) -> None:
    controller = make_controller([sys.executable, str(MISBEHAVING)], "misbehaving")
    panel = _wired(ResourcesPanel(controller))
    qtbot.addWidget(panel)
    panel.show()
    qasync_loop.wait_until(lambda: "0 resources" in panel.counts_label.text(), timeout=10)
    assert not panel.gate_banner.isVisible() and panel.refresh_button.isEnabled()
    # a template the server might list: fields without autocomplete, and why
    panel.templates_model.set_entries([{"uriTemplate": "misc://items/{id}", "name": "item"}])
    _select(panel, "misc://items/{id}", template=True)
    edit = panel.template_form.fields["id"].edit
    assert "'completions'" in edit.toolTip()
    assert "No autocomplete" in panel.template_form.status_label.text()
    qtbot.keyClicks(edit, "x")
    qtbot.wait(400)
    assert panel.template_form.suggestions("id") == []
    panel.current_uri = "misc://items/x"
    panel._update_actions()
    assert not panel.subscribe_button.isEnabled()
    assert "'resources.subscribe'" in panel.subscribe_button.toolTip()

    # after a disconnect everything is disabled, with the reason
    qasync_loop.run(controller.close_connection())
    assert not panel.refresh_button.isEnabled() and panel.refresh_button.toolTip() == NOT_CONNECTED
    assert panel.gate_banner.isVisible()


def test_gating_without_resources(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    controller = make_controller([sys.executable, "-m", "mcp_server_time"], "time")
    assert controller.server is not None
    # mcp-server-time declares an (empty) resources capability; take it away as a server without it would
    capabilities = {k: v for k, v in controller.server.capabilities.items() if k != "resources"}
    controller.server = dataclasses.replace(controller.server, capabilities=capabilities)
    panel = _wired(ResourcesPanel(controller))
    qtbot.addWidget(panel)
    panel.show()
    assert panel.gate_banner.isVisible() and "'resources'" in panel.gate_banner.title_label.text()
    assert not panel.refresh_button.isEnabled() and "'resources'" in panel.refresh_button.toolTip()
    assert not panel.resources_page.isEnabled() and not panel.read_button.isEnabled()
    assert "'resources'" in panel.read_button.toolTip()
    panel.refresh()  # a no-op: nothing is sent
    qtbot.wait(100)
    assert len(panel.tasks) == 0 and panel.resources_model.rowCount() == 0


@pytest.mark.node
def test_server_everything_templates(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    controller = make_controller(nodetools.require_server_everything(), "everything")
    panel = _wired(ResourcesPanel(controller))
    qtbot.addWidget(panel)
    panel.show()
    template = "demo://resource/dynamic/text/{resourceId}"
    qasync_loop.wait_until(lambda: panel.templates_model.row_of(template) >= 0, timeout=20)
    assert panel.resources_model.rowCount() > 0
    _select(panel, template, template=True)
    form = panel.template_form
    form.fields["resourceId"].edit.setText("3")
    form.request_completion("resourceId")
    qasync_loop.wait_until(lambda: form.fields["resourceId"].completions == 1, timeout=10)
    assert form.suggestions("resourceId") == ["3"]
    form.read_button.click()
    uri = "demo://resource/dynamic/text/3"
    qasync_loop.wait_until(lambda: panel.current_uri == uri and panel.contents_view.viewers(), timeout=10)
    assert "Resource 3" in panel.contents_view.viewers()[0].viewer.text()  # type: ignore[attr-defined]
