"""ToolResultView against real demo-server results: schema checks, isError vs protocol errors, progress, cancel."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError
from pytestqt.qtbot import QtBot

from inspector.content.text import format_duration
from inspector.demo.server import build_server
from inspector.ui.viewers import ContentListView, JsonTreeView, ResultState, TextView, ToolResultView
from inspector.ui.widgets.banner import Banner

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("propagateSizeHints"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def _dump(model: Any) -> dict[str, Any]:
    return dict(model.model_dump(by_alias=True, mode="json", exclude_none=True))


async def _fetch() -> dict[str, Any]:
    """Real results from the demo server (in-process, official SDK client), as the JSON dicts the wire carried."""
    out: dict[str, Any] = {}
    async with Client(build_server(clock_interval=60)) as client:

        async def keep_invalid(name: str, result: types.CallToolResult) -> None:
            """The SDK would raise on bad_structured's result; the inspector must see it, so skip that check."""

        client.session.validate_tool_result = keep_invalid  # type: ignore[method-assign]
        listed = await client.list_tools()
        out["schemas"] = {tool.name: tool.output_schema for tool in listed.tools}
        for name, arguments in [
            ("bad_structured", {}),
            ("get_weather", {"city": "Lagos"}),
            ("add", {"a": 2, "b": 3}),
            ("business_error", {}),
            ("mixed_content", {}),
        ]:
            out[name] = _dump(await client.call_tool(name, arguments))
        try:
            await client.call_tool("protocol_error", {"code": -32602, "message": "Bad arguments"})
        except MCPError as exc:
            out["protocol_error"] = _dump(exc.error)
    return out


@pytest.fixture(scope="module")
def demo() -> Iterator[dict[str, Any]]:
    yield anyio.run(_fetch)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_view(qtbot: QtBot, name: str = "tool", clock: FakeClock | None = None) -> ToolResultView:
    view = ToolResultView(name, clock=clock or FakeClock())
    qtbot.addWidget(view)
    view.resize(820, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_structured_content_mismatch_is_flagged(qtbot: QtBot, demo: dict[str, Any]) -> None:
    view = make_view(qtbot, "bad_structured")
    view.set_result(demo["bad_structured"], demo["schemas"]["bad_structured"], duration=0.042)
    assert view.state() is ResultState.SUCCESS  # the call worked; its output is what is wrong
    assert [(issue.path, issue.message) for issue in view.schema_issues()] == [
        ("$.temperature", "'hot' is not of type 'number'"),
        ("$.unit", "required property is missing"),
        ("$.units", "unexpected property (additionalProperties is false)"),
    ]
    banner = view.schema_banner
    assert banner is not None and banner.isVisibleTo(view) and banner.tone == "error"
    assert "does not match the tool's outputSchema (3 problems)" in banner.title_label.text()
    assert banner.lines() == [
        "• $.temperature: 'hot' is not of type 'number'",
        "• $.unit: required property is missing",
        "• $.units: unexpected property (additionalProperties is false)",
    ]
    assert view.schema_ok_label is None
    tree = view.structured_view
    assert isinstance(tree, JsonTreeView)
    assert set(tree.json_model.error_paths()) == {"$.temperature", "$.unit", "$.units"}
    qtbot.wait(100)
    view.grab().save("/tmp/tool_result_view_schema_mismatch.png")


def test_valid_structured_content_is_not_flagged(qtbot: QtBot, demo: dict[str, Any]) -> None:
    view = make_view(qtbot, "get_weather")
    view.set_result(demo["get_weather"], demo["schemas"]["get_weather"])
    assert view.schema_issues() == [] and view.schema_banner is None
    assert view.schema_ok_label is not None and "matches the outputSchema" in view.schema_ok_label.text()
    assert view.structured_view is not None
    assert view.structured_view.json_model.value() == demo["get_weather"]["structuredContent"]
    add = make_view(qtbot, "add")
    add.set_result(demo["add"], demo["schemas"]["add"])
    assert add.schema_issues() == [] and add.structured_view is not None


def test_missing_structured_content_is_flagged(qtbot: QtBot, demo: dict[str, Any]) -> None:
    view = make_view(qtbot)
    result = {key: value for key, value in demo["get_weather"].items() if key != "structuredContent"}
    view.set_result(result, demo["schemas"]["get_weather"])
    assert [issue.path for issue in view.schema_issues()] == ["structuredContent"]
    assert view.schema_banner is not None and "missing" in view.schema_banner.lines()[0]


def test_tool_error_and_protocol_error_look_different(qtbot: QtBot, demo: dict[str, Any]) -> None:
    tool_error = make_view(qtbot, "business_error")
    tool_error.set_result(demo["business_error"])
    error = demo["protocol_error"]
    protocol = make_view(qtbot, "protocol_error")
    protocol.set_protocol_error(error["code"], error["message"], error.get("data"))

    assert tool_error.state() is ResultState.TOOL_ERROR
    assert protocol.state() is ResultState.PROTOCOL_ERROR
    assert tool_error.frame.property("resultState") == "tool-error"
    assert protocol.frame.property("resultState") == "protocol-error"
    assert tool_error.title_label.text().endswith("Tool error")
    assert protocol.title_label.text().endswith("Protocol error")
    assert tool_error.is_error_badge.isVisibleTo(tool_error) and not protocol.is_error_badge.isVisibleTo(protocol)
    # the tool's own failure still shows its content; the protocol error shows code, name, message and data
    assert tool_error.content_view is not None
    assert tool_error.content_view.block_views()[0].body.displayed_text() == "Payment declined: Insufficient funds"
    assert protocol.content_view is None
    banner = protocol.protocol_error_banner
    assert banner is not None and banner.title_label.text() == "JSON-RPC error -32602 · Invalid params"
    assert banner.lines()[0] == "Bad arguments"
    assert protocol.result is not None and protocol.result["data"] == {
        "tool": "protocol_error",
        "hint": "this is deliberate",
    }
    # and they look different on screen: different frame and header colours
    tool_header = tool_error.header.grab().toImage().pixelColor(40, 10)
    protocol_header = protocol.header.grab().toImage().pixelColor(40, 10)
    assert tool_header.name() == "#ffebe9" and protocol_header.name() == "#fff8c5"


def test_running_progress_and_cancel(qtbot: QtBot) -> None:
    clock = FakeClock()
    view = make_view(qtbot, "slow", clock)
    view.set_running()
    assert view.state() is ResultState.RUNNING and view.running_panel.isVisible()
    assert (view.progress_bar.minimum(), view.progress_bar.maximum()) == (0, 0)  # busy until a total is known
    assert view.elapsed_label.text() == "0 ms"
    clock.now += 2.5
    qtbot.waitUntil(lambda: view.elapsed_label.text() == "2.5 s", timeout=2000)

    view.set_progress(3, 10, "Step 3 of 10")
    assert (view.progress_bar.maximum(), view.progress_bar.value()) == (1000, 300)
    assert view.progress_label.text() == "3 / 10 (30%) — Step 3 of 10"
    view.set_progress(7, None, "still going")
    assert view.progress_bar.maximum() == 0
    assert view.progress_label.text() == "Progress: 7 — still going"

    with qtbot.waitSignal(view.cancelRequested):
        view.cancel_button.click()
    assert not view.cancel_button.isEnabled() and view.cancel_button.text() == "Cancelling…"
    clock.now += 0.5
    view.set_cancelled("notifications/cancelled sent")
    assert view.state() is ResultState.CANCELLED and not view.running_panel.isVisible()
    assert view.duration() == pytest.approx(3.0)
    assert view.duration_label.text() == "Cancelled after 3.0 s"


def test_duration_is_shown_when_done(qtbot: QtBot, demo: dict[str, Any]) -> None:
    clock = FakeClock()
    view = make_view(qtbot, "add", clock)
    view.set_running(started_at=clock.now)
    clock.now += 1.25
    view.set_result(demo["add"], demo["schemas"]["add"])
    assert view.duration() == pytest.approx(1.25)
    assert view.duration_label.text() == f"Completed in {format_duration(1.25)}"
    assert not view.running_panel.isVisible()
    view.set_protocol_error(-32001, "Request timed out", duration=30.0)
    assert view.duration_label.text() == "Failed after 30.0 s"
    assert view.protocol_error_banner is not None
    assert view.protocol_error_banner.title_label.text() == "JSON-RPC error -32001 · Request timeout"


def test_every_content_type_in_a_result_and_signals_bubble(qtbot: QtBot, demo: dict[str, Any]) -> None:
    view = make_view(qtbot, "mixed_content")
    view.set_result(demo["mixed_content"])
    assert isinstance(view.content_view, ContentListView)
    kinds = [card.kind.value for card in view.content_view.block_views()]
    assert kinds == ["text", "text", "image", "audio", "resource_link", "resource"]
    link = view.content_view.block_views()[4].body
    with qtbot.waitSignal(view.readResourceRequested) as blocker:
        link.read_button.click()  # type: ignore[attr-defined]
    assert blocker.args == ["demo://clock"]
    qtbot.wait(100)
    view.grab().save("/tmp/tool_result_view_mixed.png")


def test_raw_json_toggle_and_clear(qtbot: QtBot, demo: dict[str, Any]) -> None:
    view = make_view(qtbot, "add")
    view.set_result(demo["add"])
    view.raw_button.click()
    assert view.raw_view is not None and view.raw_view.isVisibleTo(view) and not view.scroll_area.isVisibleTo(view)
    assert '"structuredContent"' in view.raw_view.text()
    view.raw_button.click()
    assert view.raw_view is None and view.scroll_area.isVisibleTo(view)
    view.clear()
    assert view.state() is ResultState.EMPTY and view.result is None and view.content_view is None


def test_result_without_content_array_is_flagged(qtbot: QtBot) -> None:
    view = make_view(qtbot)
    view.set_result({"structuredContent": {"a": 1}})
    banners = [banner.title_label.text() for banner in view.body.findChildren(Banner)]
    assert view.state() is ResultState.SUCCESS
    assert any('no "content" array' in text for text in banners)


def test_a_50_mb_text_result_renders_without_stalling(qtbot: QtBot) -> None:
    line = "The quick brown fox jumps over the lazy dog. "
    text = "\n".join(f"{i:08d} {line}" for i in range(50 * 1024 * 1024 // (len(line) + 10)))
    minified = "[" + ", ".join(f'{{"index": {i}, "ok": true}}' for i in range(2_000_000)) + "]"
    assert len(text) > 50_000_000 and len(minified) > 40_000_000
    view = make_view(qtbot, "large_result")
    for payload in (text, minified):
        started = time.perf_counter()
        view.set_result({"content": [{"type": "text", "text": payload}]})
        qtbot.wait(1)
        elapsed = time.perf_counter() - started
        assert elapsed < 3.0, f"rendering took {elapsed:.2f} s"
        assert view.content_view is not None
        text_view = view.content_view.block_views()[0].body
        assert isinstance(text_view, TextView)
        assert text_view.is_truncated() and len(text_view.displayed_text()) <= 1_000_000
        assert text_view.text() is payload  # nothing copied or re-encoded: save/copy use the original
