"""The Tools panel against the real demo server (and server-everything): every demo tool called through its
form, validation before sending, progress and Cancel, list_changed refresh, argument history, timeouts from the
profile, malformed tool lists, gating, and the item models under qtmodeltester."""

from __future__ import annotations

import base64
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import nodetools
import pytest
from guikit import AsyncRunner, MakeWindow, Misbehaving, connect_tab, tool_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.content.blocks import BlockKind
from inspector.content.catalog import filter_entries, parse_tools, tool_badges
from inspector.store.history import ArgumentHistory
from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings
from inspector.store.recording.query import RecordFilter
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.explore.catalog.model import CatalogModel, HistoryModel
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.profile_bridge import connection_settings, demo_profile

SCREENSHOT = Path("/tmp/tools_panel.png")
SQUARE_SVG = (
    "data:image/svg+xml;base64,"
    + base64.b64encode(
        b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'
    ).decode()
)


# -- helpers ---------------------------------------------------------------------------------------------


def run(qtbot: QtBot, runner: AsyncRunner, page: ToolPage, arguments: Any = None, timeout: float = 30) -> ResultState:
    if arguments is not None:
        page.form.set_value(arguments)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.running, page.validation_label.text()
    assert page.result_view.state() is ResultState.RUNNING
    runner.wait_until(lambda: not page.running, timeout=timeout)
    return page.result_view.state()


def block_kinds(page: ToolPage) -> list[BlockKind]:
    view = page.result_view.content_view
    assert view is not None
    return [block.kind for block in view.block_views()]


def texts(page: ToolPage) -> str:
    result = page.result_view.result
    assert result is not None
    return " ".join(b.get("text", "") for b in result.get("content", []) if isinstance(b, dict))


def sent(tab: ConnectionTab, method: str) -> list[dict[str, Any]]:
    """Outgoing messages of ``method`` in the session's recording."""
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    rows = recording.rows(RecordFilter(directions=["out"], methods=[method]), 0, 100_000)
    return [json.loads(row.raw) for row in rows]


# -- plain logic (no server) -----------------------------------------------------------------------------


def test_badges_from_annotations() -> None:
    texts_of = lambda a: [b.text for b in tool_badges(a)]  # noqa: E731
    assert texts_of({"readOnlyHint": True, "destructiveHint": True, "idempotentHint": True}) == [
        "read-only",
        "idempotent",
    ]
    assert texts_of({"destructiveHint": True, "openWorldHint": True}) == ["destructive", "open world"]
    assert texts_of({"readOnlyHint": False, "destructiveHint": False}) == []
    assert texts_of(None) == [] and texts_of("junk") == []


def test_malformed_tools_are_listed_with_their_problems() -> None:
    entries = parse_tools(
        [
            {"description": "no name"},
            {"name": "schema-not-object", "inputSchema": "nope"},
            {"name": 42, "inputSchema": {"type": "object"}},
            {"name": "ok", "inputSchema": {"type": "object"}, "outputSchema": 3},
            "not a tool",
        ]
    )
    assert [e.name for e in entries] == ["", "schema-not-object", "42", "ok"]
    assert all(e.problems for e in entries)
    assert all(e.input_schema == {"type": "object"} for e in entries)
    assert "malformed" in [b.text for b in entries[1].badges]
    assert parse_tools("nope") == []


def test_filter_matches_every_word_in_name_title_or_description() -> None:
    entries = parse_tools(
        [
            {"name": "get_weather", "title": "Get weather", "description": "Forecast for a city", "inputSchema": {}},
            {"name": "echo", "description": "Return the message", "inputSchema": {}},
            {"name": "add", "title": "Add numbers", "inputSchema": {}},
        ]
    )
    assert filter_entries(entries, "") == [0, 1, 2]
    assert filter_entries(entries, "WEATHER city") == [0]
    assert filter_entries(entries, "message") == [1]
    assert filter_entries(entries, "add num") == [2]
    assert filter_entries(entries, "zzz") == []


def test_models_pass_qtmodeltester(qtbot: QtBot, qtmodeltester: Any, tmp_path: Path) -> None:
    model = CatalogModel()
    icon = [{"src": SQUARE_SVG, "mimeType": "image/svg+xml"}]
    raw = [
        {"name": f"tool_{i}", "title": f"Tool {i}", "description": "d", "inputSchema": {}, "icons": icon,
         "annotations": {"readOnlyHint": i % 2 == 0}}
        for i in range(30)
    ]  # fmt: skip
    model.set_entries(parse_tools(raw))
    qtmodeltester.check(model)
    model.set_filter("tool_1")
    assert model.rowCount() == 11
    qtmodeltester.check(model)
    assert model.data(model.index(0, 0), Qt.ItemDataRole.DecorationRole) is not None
    assert "readOnlyHint" in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)

    history = ArgumentHistory("k", tmp_path)
    for i in range(5):
        history.record("echo", {"message": str(i)})
    hmodel = HistoryModel()
    hmodel.set_entries(history.entries("echo"))
    qtmodeltester.check(hmodel)
    assert '{"message": "4"}' in hmodel.data(hmodel.index(0, 0))


# -- against the demo server -----------------------------------------------------------------------------


def test_list_badges_icons_and_filter(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    browser = tab.tools.browser
    names = {e.name for e in browser.model.entries()}
    assert {"echo", "add", "get_weather", "create_event", "slow", "toggle_tool"} <= names
    echo = browser.model.find("echo")
    assert echo is not None and echo.title == "Echo"
    assert [b.text for b in echo.badges] == ["read-only", "idempotent"]
    weather = browser.model.find("get_weather")
    assert weather is not None and "open world" in [b.text for b in weather.badges]
    assert weather.output_schema is not None
    row = browser.model.row_of("echo")
    assert browser.model.data(browser.model.index(row, 0), Qt.ItemDataRole.DecorationRole) is not None  # data: icon
    assert browser.count_label.text() == f"{len(names)} tools"

    qtbot.keyClicks(browser.filter_edit, "weather")
    qasync_loop.wait_until(lambda: browser.model.rowCount() == 1, timeout=5)
    assert browser.count_label.text() == f"1 of {len(names)} tools"
    qtbot.keyClick(browser.filter_edit, Qt.Key.Key_Down)
    page = tab.tools.current_page()
    assert page is not None and page.entry.name == "get_weather"
    assert page.header.title_label.text() == "Get weather"
    assert page.header.description_label.text().startswith("Made-up but deterministic weather")
    assert [b.text() for b in page.header.badges] == ["read-only", "open world"]
    # selecting a tool hidden by the filter clears the filter
    assert tab.tools.select_tool("echo") is not None
    assert browser.filter_edit.text() == ""


def test_each_demo_tool_through_its_form(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    echo = tool_page(tab, "echo")
    assert run(qtbot, qasync_loop, echo, {"message": "hello from the form"}) is ResultState.SUCCESS
    assert texts(echo) == "hello from the form"
    assert block_kinds(echo) == [BlockKind.TEXT]

    add = tool_page(tab, "add")
    assert run(qtbot, qasync_loop, add, {"a": 2, "b": 3.5}) is ResultState.SUCCESS
    assert add.result_view.result is not None and add.result_view.result["structuredContent"] == {"sum": 5.5}

    weather = tool_page(tab, "get_weather")
    assert weather.form.value() == {"units": "metric"}  # the default is pre-filled
    assert run(qtbot, qasync_loop, weather, {"city": "Lagos", "units": "imperial"}) is ResultState.SUCCESS
    assert weather.result_view.structured_view is not None
    assert weather.result_view.schema_ok_label is not None and weather.result_view.schema_issues() == []

    bad = tool_page(tab, "bad_structured")
    assert run(qtbot, qasync_loop, bad, {}) is ResultState.SUCCESS
    assert bad.result_view.schema_banner is not None
    assert "outputSchema" in bad.result_view.title_label.text()
    assert {issue.path for issue in bad.result_view.schema_issues()} >= {"$.temperature"}

    failing = tool_page(tab, "business_error")
    assert run(qtbot, qasync_loop, failing, {"reason": "No money"}) is ResultState.TOOL_ERROR
    assert failing.result_view.is_error_badge.isVisibleTo(failing.result_view)
    assert "No money" in texts(failing)

    broken = tool_page(tab, "protocol_error")
    assert run(qtbot, qasync_loop, broken, {"code": -32042, "message": "nope"}) is ResultState.PROTOCOL_ERROR
    banner = broken.result_view.protocol_error_banner
    assert banner is not None and "-32042" in banner.title_label.text() and "nope" in banner.lines()[0]

    expected = {
        "get_image": BlockKind.IMAGE,
        "get_audio": BlockKind.AUDIO,
        "get_resource_link": BlockKind.RESOURCE_LINK,
        "get_embedded_resource": BlockKind.RESOURCE,
    }
    for name, kind in expected.items():
        page = tool_page(tab, name)
        assert run(qtbot, qasync_loop, page, page.form.value()) is ResultState.SUCCESS, name
        assert kind in block_kinds(page), (name, block_kinds(page))

    # a resource link in a result reads the resource: the Resources tab comes forward and shows it
    link_page = tool_page(tab, "get_resource_link")
    link_page.readResourceRequested.emit("demo://docs/readme")
    resources = tab.explore.resources
    assert tab.explore.tabs is not None and tab.explore.tabs.currentWidget() is resources
    assert resources.current_uri == "demo://docs/readme"
    qasync_loop.wait_until(lambda: bool(resources.contents_view.viewers()), timeout=10)


def test_create_event_rich_form_validates_before_sending(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "create_event")
    defaults = page.form.value()
    assert defaults["capacity"] == 20 and defaults["priority"] == "normal" and defaults["tags"] == ["demo"]
    assert defaults["send_invites"] is True and defaults["visibility"] == "internal"
    # Run with the required fields empty: errors shown, nothing sent
    calls_before = len(sent(tab, "tools/call"))
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert not page.running
    assert page.validation_label.isVisibleTo(page) and "before running" in page.validation_label.text()
    assert page.result_view.state() is ResultState.EMPTY
    assert len(sent(tab, "tools/call")) == calls_before

    arguments = {
        **defaults,
        "title": "Design review",
        "date": "2026-03-04",
        "starts_at": "2026-03-04T10:00:00Z",
        "organizer_email": "ada@example.com",
        "location": {"kind": "venue", "name": "Room B", "address": {"street": "Main St 1", "city": "Delft",
                                                                       "country": "NL"}},
        "attendees": [{"name": "Grace", "email": "grace@example.com", "role": "required", "plus_ones": 1}],
        "duration_hours": 1.5,
        "tags": ["demo", "design"],
        "channels": ["email", "slack"],
    }  # fmt: skip
    page.form.set_value(arguments)
    assert page.form.errors() == []
    assert run(qtbot, qasync_loop, page) is ResultState.SUCCESS, page.result_view.result
    created = json.loads(texts(page))
    assert created["created"] is True and created["event"]["title"] == "Design review"
    assert created["event"]["attendees"][0]["plus_ones"] == 1
    assert created["event"]["channels"] == ["email", "slack"]
    assert len(sent(tab, "tools/call")) == calls_before + 1

    # the screenshot of the panel with a rich form and a result
    window.resize(1440, 900)
    window.splitter.setSizes([230, 1210])
    page.splitter.setSizes([520, 380])
    qtbot.wait(150)
    shot = window.grab()
    assert shot.save(str(SCREENSHOT))


def test_slow_tool_shows_progress_and_cancel_reaches_the_server(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "slow")
    page.form.set_value({"seconds": 30, "steps": 60})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    view = page.result_view
    assert view.state() is ResultState.RUNNING and view.cancel_button.isVisibleTo(view)
    qasync_loop.wait_until(lambda: view.progress_bar.maximum() > 0 and view.progress_bar.value() > 0, timeout=15)
    assert "step" in view.progress_label.text()
    assert not page.run_button.isEnabled()
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=10)
    assert view.state() is ResultState.CANCELLED
    assert page.run_button.isEnabled()
    cancelled = sent(tab, "notifications/cancelled")
    assert cancelled and cancelled[-1]["params"]["reason"]
    # the demo server reports on stderr that its handler was cancelled
    qasync_loop.wait_until(lambda: "slow cancelled after" in tab.stderr_console.text.toPlainText(), timeout=10)


def test_list_changed_refreshes_with_a_note(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    panel = tab.tools
    assert panel.browser.model.find("bonus_tool") is None
    toggle = tool_page(tab, "toggle_tool")
    with qtbot.waitSignal(panel.refreshed, timeout=15000, check_params_cb=lambda why: why == "changed"):
        assert run(qtbot, qasync_loop, toggle, {"enabled": True}) is ResultState.SUCCESS
    assert panel.browser.model.find("bonus_tool") is not None
    note = panel.browser.note_label
    assert note.isVisibleTo(panel) and note.text().startswith("Tool list changed — refreshed ")
    # the page of the selected tool survived the refresh (same definition), with its result
    assert panel.current_page() is toggle and toggle.result_view.state() is ResultState.SUCCESS
    bonus = tool_page(tab, "bonus_tool")
    assert run(qtbot, qasync_loop, bonus, {"text": "abc"}) is ResultState.SUCCESS
    assert "cba" in texts(bonus)
    tool_page(tab, "toggle_tool")
    with qtbot.waitSignal(panel.refreshed, timeout=15000, check_params_cb=lambda why: why == "changed"):
        assert run(qtbot, qasync_loop, toggle, {"enabled": False}) is ResultState.SUCCESS
    assert panel.browser.model.find("bonus_tool") is None and "bonus_tool" not in panel.pages


def test_history_recall_and_rerun_persist_per_server_and_tool(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, dirs: dict[str, Path]
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "echo")
    for message in ("first", "second"):
        assert run(qtbot, qasync_loop, page, {"message": message}) is ResultState.SUCCESS
    pane = page.history_pane
    assert pane.model.rowCount() == 2
    assert page.inputs.tabText(page.inputs.indexOf(pane)) == "History (2)"
    assert pane.selected() is not None and pane.selected().arguments == {"message": "second"}  # type: ignore[union-attr]
    pane.select(1)
    qtbot.mouseClick(pane.recall_button, Qt.MouseButton.LeftButton)
    assert page.form.value() == {"message": "first"}
    assert page.inputs.currentWidget() is page.form_box
    page.form.set_value({"message": "edited"})
    page.inputs.setCurrentWidget(pane)
    pane.select(1)
    qtbot.mouseClick(pane.rerun_button, Qt.MouseButton.LeftButton)
    assert page.running
    qasync_loop.wait_until(lambda: not page.running, timeout=15)
    assert texts(page) == "first"
    assert [e.arguments["message"] for e in pane.history.entries("echo")] == ["first", "second"]
    # persisted in the config dir, per server (the profile id) and tool
    files = list((dirs["config"] / "history").glob("*.json"))
    assert len(files) == 1 and '"first"' in files[0].read_text()
    assert ArgumentHistory(tab.profile_id).entries("echo")[0].arguments == {"message": "first"}
    assert ArgumentHistory("another-profile").entries("echo") == []
    # a new tab (after closing this one) finds the history again
    window.close_tab(window.tabs.indexOf(tab))
    tab2 = connect_tab(window, qasync_loop)
    page2 = tool_page(tab2, "echo")
    assert page2.history_pane.model.rowCount() == 2


def test_per_call_timeout_comes_from_the_profile(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    profile = store.create(
        Profile(
            name="demo",
            stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]),
            timeouts=TimeoutSettings(request=45),
        )
    )
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    page = tool_page(tab, "slow")
    assert page.timeout_label.text().startswith("Timeout 45 s")
    # the profile is edited while connected: the next call uses its new timeout
    store.update(replace(profile, timeouts=TimeoutSettings(request=1.5)))
    window.refresh_tab(profile.id)
    assert run(qtbot, qasync_loop, page, {"seconds": 10, "steps": 1}, timeout=15) is ResultState.CANCELLED
    assert page.timeout_label.text().startswith("Timeout 1.5 s")
    assert sent(tab, "notifications/cancelled")
    duration = page.result_view.duration()
    assert duration is not None and 1.2 < duration < 6


def test_malformed_tool_list_and_disconnect(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("bad tools", "invalid-tools-list"))
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    entries = tab.tools.browser.model.entries()
    assert len(entries) == 4 and all(e.problems for e in entries)
    page = tool_page(tab, "schema-not-object")
    assert page.header.problems_banner is not None
    assert page.run_button.isEnabled()
    qtbot.mouseClick(tab.disconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(tab.controller, ConnectionState.CLOSED, timeout=10)
    assert not page.run_button.isEnabled() and "Not connected" in page.run_button.toolTip()
    assert "last connection" in tab.tools.browser.note_label.text()


def test_tools_of_server_everything(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow,
                                    store: ProfileStore) -> None:  # fmt: skip
    command = nodetools.require_server_everything()
    profile = store.create(Profile(name="everything", stdio=StdioSettings(command=command[0], args=command[1:])))
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    echo = tool_page(tab, "echo")
    assert run(qtbot, qasync_loop, echo, {"message": "hi"}) is ResultState.SUCCESS
    assert texts(echo) == "Echo: hi"
    structured = tool_page(tab, "get-structured-content")
    assert run(qtbot, qasync_loop, structured, {"location": "Chicago"}) is ResultState.SUCCESS
    assert structured.result_view.schema_ok_label is not None


def test_prompts_and_resources_tabs_gated_when_not_declared(
    qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    fast = Path(__file__).resolve().parents[2] / "bench" / "fast_server.py"
    profile = store.create(Profile(name="tools only", stdio=StdioSettings(command=sys.executable, args=[str(fast)])))
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id)
    tabs = tab.inner_tabs
    for panel, capability in ((tab.prompts, "prompts"), (tab.resources, "resources")):
        index = tabs.indexOf(panel)
        assert not tabs.isTabEnabled(index)
        assert tabs.tabToolTip(index) == f"The server did not declare the '{capability}' capability"
    assert tabs.isTabEnabled(tabs.indexOf(tab.tools)) and tabs.isTabEnabled(tabs.indexOf(tab.utilities))
    assert not tab.prompts.browser.isEnabled()
    assert "'prompts'" in tab.prompts.browser.toolTip()
    assert "did not declare the 'prompts' capability" in tab.prompts.placeholder.text()
    # reconnecting to a server that declares everything re-enables the tabs
    demo = connection_settings(demo_profile()).transport_factory
    tab.use_settings(replace(tab.controller.settings, transport_factory=demo))
    tab.reconnect()
    qasync_loop.wait_until(lambda: tab.controller.state is ConnectionState.CONNECTING, timeout=10)
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, timeout=60)
    assert all(tabs.isTabEnabled(i) for i in range(tabs.count()))
    qasync_loop.wait_until(lambda: tab.prompts.browser.model.total() > 0, timeout=20)
    assert tab.prompts.browser.isEnabled()


@pytest.mark.parametrize("count", [2000])
def test_many_tools_filter_fast(qtbot: QtBot, count: int) -> None:
    import time

    from inspector.ui.explore.catalog.list_browser import ListBrowser

    browser = ListBrowser("tool")
    qtbot.addWidget(browser)
    browser.resize(320, 700)
    browser.show()
    raw = [{"name": f"tool_{i:04d}", "description": f"Tool number {i}", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": bool(i % 2)}} for i in range(count)]  # fmt: skip
    started = time.perf_counter()
    browser.set_entries(parse_tools(raw))
    qtbot.wait(1)
    browser.filter_edit.setText("number 19")
    browser.apply_filter()
    elapsed = time.perf_counter() - started
    assert browser.model.rowCount() == sum(1 for i in range(count) if "19" in f"tool_{i:04d} {i}")
    assert elapsed < 1.0
