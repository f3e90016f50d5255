"""TranscriptView with real prompts/get results from the demo server and sampling-shaped messages (tools too)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from pytestqt.qtbot import QtBot

from inspector.content.blocks import BlockKind
from inspector.demo.server import build_server
from inspector.ui.viewers import (
    AudioView,
    ContentListView,
    ImageView,
    JsonView,
    ResourceContentView,
    ResourceLinkView,
    TextView,
    TranscriptView,
)

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("propagateSizeHints"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

CODE = "def add(a, b):\n    return a + b\n"


async def _fetch_prompts() -> dict[str, Any]:
    """prompts/get results from the demo server (in-process, official SDK client) as wire JSON."""
    async with Client(build_server(clock_interval=60)) as client:
        review = await client.get_prompt("code_review", {"language": "python", "code": CODE, "focus": "naming"})
        media = await client.get_prompt("describe_media", {"color": "magenta"})
    dump = {"by_alias": True, "mode": "json", "exclude_none": True}
    return {"code_review": review.model_dump(**dump), "describe_media": media.model_dump(**dump)}  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def prompts() -> Iterator[dict[str, Any]]:
    yield anyio.run(_fetch_prompts)


def make_view(qtbot: QtBot, messages: Any, description: str | None = None) -> TranscriptView:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(820, 1000)
    view.set_messages(messages, description=description)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_code_review_prompt_as_a_transcript(qtbot: QtBot, prompts: dict[str, Any]) -> None:
    result = prompts["code_review"]
    view = make_view(qtbot, result["messages"], result.get("description"))
    bubbles = view.message_widgets()
    assert [bubble.role for bubble in bubbles] == ["user", "user", "assistant", "user", "user"]
    assert view.description_label is not None and "multi-message" in view.description_label.text()
    assert bubbles[0].role_label.text() == "User  ·  #1" and bubbles[2].role_label.text() == "Assistant  ·  #3"
    kinds = [[card.kind for card in bubble.block_views] for bubble in bubbles]
    assert kinds == [[BlockKind.TEXT], [BlockKind.RESOURCE], [BlockKind.TEXT], [BlockKind.IMAGE], [BlockKind.TEXT]]
    first = bubbles[0].block_views[0].body
    assert isinstance(first, TextView) and first.displayed_text() == "Please review this python code. Focus on naming."
    embedded = bubbles[1].block_views[0].body
    assert isinstance(embedded, ResourceContentView) and embedded.uri == "demo://snippets/review.py"
    assert isinstance(embedded.viewer, TextView) and embedded.viewer.text() == CODE
    assert [badge.text() for badge in bubbles[1].block_views[0].annotation_badges] == ["for assistant", "priority 1"]
    image = bubbles[3].block_views[0].body
    assert isinstance(image, ImageView) and image.is_valid()
    assert (image.image_size().width(), image.image_size().height()) == (96, 64)
    # user bubbles sit on the right, assistant bubbles on the left
    assert bubbles[0].bubble.geometry().right() > bubbles[2].bubble.geometry().right()
    assert bubbles[2].bubble.geometry().left() < bubbles[0].bubble.geometry().left()
    assert bubbles[0].property("role") == "user"
    qtbot.wait(100)
    view.grab().save("/tmp/transcript_view_code_review.png")


def test_describe_media_prompt_renders_every_content_type(qtbot: QtBot, prompts: dict[str, Any]) -> None:
    view = make_view(qtbot, prompts["describe_media"]["messages"])
    bodies = [bubble.block_views[0].body for bubble in view.message_widgets()]
    assert [type(body) for body in bodies] == [TextView, ImageView, AudioView, ResourceContentView, ResourceLinkView]
    embedded = bodies[3]
    assert isinstance(embedded, ResourceContentView) and isinstance(embedded.viewer, ImageView)
    link = bodies[4]
    assert isinstance(link, ResourceLinkView)
    with qtbot.waitSignal(view.readResourceRequested) as blocker:
        link.read_button.click()
    assert blocker.args == ["demo://docs/readme"]
    audio = bodies[2]
    assert isinstance(audio, AudioView)
    with qtbot.waitSignal(view.openFileRequested) as opened:
        audio.play_button.click()
    Path(opened.args[0]).unlink()
    qtbot.wait(100)
    view.grab().save("/tmp/transcript_view_media.png")


SAMPLING_WITH_TOOLS: list[dict[str, Any]] = [
    {"role": "user", "content": {"type": "text", "text": "What's the weather in Lagos?"}},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Lagos", "units": "metric"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "toolUseId": "toolu_1",
                "content": [{"type": "text", "text": "31.5 C, sunny"}],
                "structuredContent": {"temperature": 31.5, "conditions": "sunny"},
            }
        ],
    },
    {"role": "assistant", "content": {"type": "text", "text": "It is **31.5 °C** and sunny in Lagos."}},
]


def test_sampling_messages_with_tool_use_and_tool_result(qtbot: QtBot) -> None:
    view = make_view(qtbot, SAMPLING_WITH_TOOLS)
    bubbles = view.message_widgets()
    assert [len(bubble.block_views) for bubble in bubbles] == [1, 2, 1, 1]
    use = bubbles[1].block_views[1]
    assert use.kind is BlockKind.TOOL_USE and isinstance(use.body, JsonView)
    assert json.loads(use.body.text()) == {"city": "Lagos", "units": "metric"}
    header_text = " ".join(label.text() for label in use.header.findChildren(type(use.kind_label)))
    assert "get_weather" in header_text and "toolu_1" in header_text
    result = bubbles[2].block_views[0]
    assert result.kind is BlockKind.TOOL_RESULT
    nested = result.body.findChild(ContentListView)
    assert nested is not None and nested.block_views()[0].body.displayed_text() == "31.5 C, sunny"  # type: ignore[attr-defined]
    structured = [view for view in result.body.findChildren(JsonView) if view.json_value() is not None]
    assert structured and structured[0].json_value() == {"temperature": 31.5, "conditions": "sunny"}
    qtbot.wait(100)
    view.grab().save("/tmp/transcript_view_tools.png")


def test_malformed_messages_are_shown_with_their_problems(qtbot: QtBot) -> None:
    view = make_view(qtbot, [{"role": "system", "content": {"type": "text", "text": "x"}}, {"role": "user"}, 7])
    bubbles = view.message_widgets()
    assert len(bubbles) == 3
    assert all(bubble.message.problems for bubble in bubbles)
    view.set_messages([])
    assert view.message_widgets() == []
