"""ContentBlockView / ContentListView / TextView / ImageView / AudioView: every content type and its actions."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from inspector.content.blocks import BlockKind
from inspector.demo.media import make_png, make_wav
from inspector.ui.viewers import (
    AudioView,
    ContentListView,
    HexView,
    ImageView,
    JsonView,
    ResourceContentView,
    ResourceLinkView,
    TextMode,
    TextView,
)
from inspector.ui.viewers.text_widgets import FitPlainTextEdit, FitTextBrowser

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


PNG = make_png(40, 30)
WAV = make_wav(440, 200)
EVERY_BLOCK: list[dict[str, Any]] = [
    {"type": "text", "text": "**bold** text", "annotations": {"audience": ["user"], "priority": 1.0}},
    {"type": "image", "data": b64(PNG), "mimeType": "image/png"},
    {"type": "audio", "data": b64(WAV), "mimeType": "audio/wav"},
    {"type": "resource_link", "uri": "demo://docs/readme", "name": "readme", "mimeType": "text/markdown"},
    {"type": "resource", "resource": {"uri": "demo://text/hello", "mimeType": "text/plain", "text": "Hello!"}},
    {"type": "resource", "resource": {"uri": "demo://images/logo.png", "mimeType": "image/png", "blob": b64(PNG)}},
    {"type": "tool_use", "id": "call-1", "name": "get_weather", "input": {"city": "Lagos"}},
    {"type": "tool_result", "toolUseId": "call-1", "content": [{"type": "text", "text": "31 C"}], "isError": True},
    {"type": "hologram", "data": "…"},
]


def shown(view: ContentListView, qtbot: QtBot) -> ContentListView:
    qtbot.addWidget(view)
    view.resize(700, 900)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_every_content_type_gets_its_viewer(qtbot: QtBot) -> None:
    view = shown(ContentListView(EVERY_BLOCK), qtbot)
    cards = view.block_views()
    assert [card.kind for card in cards] == [
        BlockKind.TEXT, BlockKind.IMAGE, BlockKind.AUDIO, BlockKind.RESOURCE_LINK, BlockKind.RESOURCE,
        BlockKind.RESOURCE, BlockKind.TOOL_USE, BlockKind.TOOL_RESULT, BlockKind.UNKNOWN,
    ]  # fmt: skip
    bodies = [type(card.body) for card in cards]
    assert bodies[:6] == [TextView, ImageView, AudioView, ResourceLinkView, ResourceContentView, ResourceContentView]
    assert bodies[6] is JsonView
    assert all(card.property("blockKind") == card.kind.value for card in cards)


def test_annotations_are_badges(qtbot: QtBot) -> None:
    listing = shown(ContentListView(EVERY_BLOCK[:1]), qtbot)
    card = listing.block_views()[0]
    assert [badge.text() for badge in card.annotation_badges] == ["for user", "priority 1"]
    assert all(badge.property("tone") == "info" for badge in card.annotation_badges)


def test_unknown_type_is_pretty_json_with_a_warning(qtbot: QtBot) -> None:
    listing = shown(ContentListView([EVERY_BLOCK[-1]]), qtbot)
    card = listing.block_views()[0]
    assert card.kind is BlockKind.UNKNOWN and card.property("hasProblems") is True
    assert card.problem_banner is not None and card.problem_banner.tone == "warning"
    assert any(badge.text() == "unknown type" and badge.property("tone") == "warning" for badge in card.badges)
    assert isinstance(card.body, JsonView) and card.body.mode() is TextMode.JSON
    assert json.loads(card.body.displayed_text()) == EVERY_BLOCK[-1]


def test_malformed_known_block_is_flagged_and_shown_raw(qtbot: QtBot) -> None:
    listing = shown(ContentListView([{"type": "image", "data": "AAAA"}]), qtbot)
    card = listing.block_views()[0]
    assert card.kind is BlockKind.IMAGE and card.problems == ['missing required field "mimeType"']
    assert isinstance(card.body, JsonView)


def test_tool_use_and_tool_result_blocks(qtbot: QtBot) -> None:
    listing = shown(ContentListView(EVERY_BLOCK[6:8]), qtbot)
    cards = listing.block_views()
    use, result = cards
    assert isinstance(use.body, JsonView) and json.loads(use.body.text()) == {"city": "Lagos"}
    assert any("get_weather" in label.text() for label in use.header.findChildren(type(use.kind_label)))
    nested = result.body.findChild(ContentListView)
    assert nested is not None and nested.block_views()[0].kind is BlockKind.TEXT
    assert any(badge.text() == "isError" and badge.property("tone") == "error" for badge in result.badges)


def test_raw_toggle_shows_the_block_json(qtbot: QtBot) -> None:
    listing = shown(ContentListView(EVERY_BLOCK[1:2]), qtbot)
    card = listing.block_views()[0]
    card.raw_button.click()
    assert card.raw_view is not None and card.raw_view.isVisible() and not card.body.isVisible()
    assert json.loads(card.raw_view.text()) == EVERY_BLOCK[1]
    card.raw_button.click()
    assert card.body.isVisible() and not card.raw_view.isVisible()


def test_long_lists_are_revealed_in_batches(qtbot: QtBot) -> None:
    blocks = [{"type": "text", "text": f"block {i}"} for i in range(25)]
    view = shown(ContentListView(blocks, batch=10), qtbot)
    assert len(view.block_views()) == 10 and view.more_button.isVisible()
    view.more_button.click()
    view.more_button.click()
    assert len(view.block_views()) == 25 and not view.more_button.isVisible()
    view.set_content([])
    assert view.block_views() == [] and view.empty_label.isVisible()


# --- text -----------------------------------------------------------------------------------------------------


def test_markdown_toggle(qtbot: QtBot) -> None:
    view = TextView("# Title\n\nSome **bold** text")
    qtbot.addWidget(view)
    assert view.mode() is TextMode.PLAIN
    assert isinstance(view.current_widget(), FitPlainTextEdit)
    assert view.displayed_text().startswith("# Title")
    with qtbot.waitSignal(view.modeChanged, check_params_cb=lambda mode: mode == "markdown"):
        view.mode_buttons[TextMode.MARKDOWN].click()
    page = view.current_widget()
    assert isinstance(page, FitTextBrowser)
    assert page.toPlainText().startswith("Title") and "**" not in page.toPlainText()
    view.mode_buttons[TextMode.PLAIN].click()
    assert view.mode() is TextMode.PLAIN and view.displayed_text().startswith("# Title")


def test_json_text_is_pretty_printed_and_browsable_as_a_tree(qtbot: QtBot) -> None:
    view = TextView('{"a": 1, "b": [true, null]}')
    qtbot.addWidget(view)
    assert view.mode() is TextMode.JSON
    assert view.displayed_text() == '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}'
    view.set_mode(TextMode.TREE)
    assert view.current_widget().model().rowCount() == 2  # type: ignore[attr-defined]


def test_json_modes_are_disabled_for_non_json(qtbot: QtBot) -> None:
    view = TextView("not json")
    qtbot.addWidget(view)
    assert view.available_modes() == [TextMode.PLAIN, TextMode.MARKDOWN]
    view.set_mode(TextMode.JSON)
    assert view.mode() is TextMode.PLAIN


def test_http_links_are_emitted_and_other_schemes_blocked(qtbot: QtBot) -> None:
    view = TextView("[site](https://example.com/x) and [file](file:///etc/passwd)", mode=TextMode.MARKDOWN)
    qtbot.addWidget(view)
    browser = view.current_widget()
    assert isinstance(browser, FitTextBrowser) and not browser.openLinks() and not browser.openExternalLinks()
    with qtbot.waitSignal(view.openUrlRequested) as blocker:
        browser.anchorClicked.emit(QUrl("https://example.com/x"))
    assert blocker.args == ["https://example.com/x"]
    with qtbot.assertNotEmitted(view.openUrlRequested):
        browser.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert "Link not opened: file:///etc/passwd" in view.note()


def test_remote_images_in_markdown_are_never_fetched(qtbot: QtBot) -> None:
    data_uri = "data:image/png;base64," + b64(PNG)
    text = f"![remote](https://example.com/tracker.png) ![local](file:///etc/x.png) ![inline]({data_uri})"
    view = TextView(text, mode=TextMode.MARKDOWN)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    browser = view.current_widget()
    assert isinstance(browser, FitTextBrowser)
    assert "https://example.com/tracker.png" in browser.blocked_resources
    assert "file:///etc/x.png" in browser.blocked_resources
    assert not any(url.startswith("data:") for url in browser.blocked_resources)


def test_big_text_shows_a_preview_then_everything(qtbot: QtBot, tmp_path: Path, monkeypatch: Any) -> None:
    text = "\n".join(f"{i:08d} The quick brown fox" for i in range(5000))
    view = TextView(text, preview_limit=10_000)
    qtbot.addWidget(view)
    view.show()
    assert view.is_truncated() and view.truncation_banner.isVisible()
    assert len(view.displayed_text()) <= 10_000
    assert "of 144,999 characters" in view.truncation_banner.title_label.text()
    target = tmp_path / "big.txt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    assert view.save() == target and target.read_text(encoding="utf-8") == text
    view.show_all_button.click()
    assert not view.is_truncated() and not view.truncation_banner.isVisible()
    assert view.displayed_text() == text


def test_huge_json_is_not_parsed_until_asked(qtbot: QtBot) -> None:
    rows = ", ".join(f'{{"index": {i}}}' for i in range(200_000))
    text = f"[{rows}]"
    assert len(text) > 2_000_000
    view = TextView(text, preview_limit=50_000)
    qtbot.addWidget(view)
    assert view.mode() is TextMode.PLAIN and view.is_truncated()
    assert view.json_value() is None
    view.set_mode(TextMode.TREE)
    assert view.mode() is TextMode.TREE and len(view.json_value()) == 200_000


# --- image ----------------------------------------------------------------------------------------------------


def test_image_preview_and_zoom(qtbot: QtBot) -> None:
    view = ImageView(b64(PNG), "image/png")
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    assert view.is_valid() and (view.image_size().width(), view.image_size().height()) == (40, 30)
    assert view.info_text() == f"40 \N{MULTIPLICATION SIGN} 30 px · image/png · {len(PNG)} B"
    assert view.zoom() == 1.0
    view.zoom_in_button.click()
    assert view.zoom() == pytest.approx(1.25) and not view.is_fitted()
    assert view.canvas.pixmap().width() == 50
    view.zoom_out_button.click()
    view.zoom_out_button.click()
    assert view.zoom() == pytest.approx(0.8)
    view.actual_size_button.click()
    assert view.zoom() == 1.0
    view.fit_button.click()
    assert view.is_fitted() and view.zoom() > 1.0
    assert view.zoom_label.text() == f"{view.zoom() * 100:.0f}%"


def test_large_image_starts_scaled_down_to_fit(qtbot: QtBot) -> None:
    view = ImageView(b64(make_png(1200, 900)), "image/png", max_height=300)
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    qtbot.waitExposed(view)
    assert view.is_fitted() and view.zoom() < 1.0
    assert view.area.height() <= 300


def test_invalid_base64_image_shows_a_clear_error(qtbot: QtBot) -> None:
    view = ImageView("this is not base64!", "image/png")
    qtbot.addWidget(view)
    view.show()
    assert not view.is_valid()
    assert "not valid base64" in view.error_text()
    assert view.error_banner is not None and view.error_banner.isVisible() and view.error_banner.tone == "error"
    assert not view.area.isVisible() and not view.zoom_in_button.isEnabled()


def test_undecodable_image_bytes_show_an_error_naming_the_real_format(qtbot: QtBot) -> None:
    view = ImageView(b64(WAV), "image/png")
    qtbot.addWidget(view)
    assert not view.is_valid()
    assert "could not be decoded as an image" in view.error_text()
    assert "look like audio/wav" in view.error_text()


def test_image_block_with_mismatched_mime_type_warns(qtbot: QtBot) -> None:
    view = ImageView(b64(PNG), "image/jpeg")
    qtbot.addWidget(view)
    view.show()
    assert view.is_valid() and view.warning_label.isVisible()
    assert "look like image/png" in view.warning_label.text()


# --- audio ----------------------------------------------------------------------------------------------------


def test_audio_save(qtbot: QtBot, tmp_path: Path, monkeypatch: Any) -> None:
    view = AudioView(b64(WAV), "audio/wav")
    qtbot.addWidget(view)
    assert "mono · 8000 Hz · 16-bit · 0.20 s" in view.info_label.text()
    target = tmp_path / "clip.wav"
    asked: list[str] = []

    def fake_dialog(parent: Any, title: str, start: str, filters: str) -> tuple[str, str]:
        asked.append(start)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_dialog)
    view.save_button.click()
    assert target.read_bytes() == WAV
    assert asked and asked[0].endswith("audio.wav")
    assert str(target) in view.status_label.text()


def test_audio_save_cancelled_writes_nothing(qtbot: QtBot, monkeypatch: Any) -> None:
    view = AudioView(b64(WAV), "audio/wav")
    qtbot.addWidget(view)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: ("", ""))
    assert view.save() is None


def test_audio_open_with_system_player_is_a_signal(qtbot: QtBot) -> None:
    view = AudioView(b64(WAV), "audio/wav")
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.openFileRequested) as blocker:
        view.play_button.click()
    path = Path(blocker.args[0])
    try:
        assert path.suffix == ".wav" and path.read_bytes() == WAV
    finally:
        path.unlink()


def test_invalid_audio_disables_the_actions(qtbot: QtBot) -> None:
    view = AudioView("%%%", "audio/wav")
    qtbot.addWidget(view)
    assert not view.is_valid() and not view.play_button.isEnabled() and not view.save_button.isEnabled()
    assert view.error_banner is not None


def test_audio_signal_bubbles_up_from_a_list(qtbot: QtBot) -> None:
    view = shown(ContentListView(EVERY_BLOCK[2:3]), qtbot)
    audio = view.block_views()[0].body
    assert isinstance(audio, AudioView)
    with qtbot.waitSignal(view.openFileRequested) as blocker:
        audio.play_button.click()
    Path(blocker.args[0]).unlink()


# --- resource links -------------------------------------------------------------------------------------------


def test_resource_link_click_emits_read_request(qtbot: QtBot) -> None:
    view = shown(ContentListView(EVERY_BLOCK[3:4]), qtbot)
    link = view.block_views()[0].body
    assert isinstance(link, ResourceLinkView)
    assert link.title_label.text() == "readme"
    with qtbot.waitSignal(view.readResourceRequested) as blocker:
        link.read_button.click()
    assert blocker.args == ["demo://docs/readme"]
    with qtbot.waitSignal(view.readResourceRequested) as blocker:
        link.uri_label.linkActivated.emit("#read")
    assert blocker.args == ["demo://docs/readme"]


def test_resource_link_icons_only_from_data_uris(qtbot: QtBot) -> None:
    remote = ResourceLinkView({"uri": "a://b", "name": "b", "icons": [{"src": "https://example.com/i.png"}]})
    inline = ResourceLinkView({"uri": "a://b", "name": "b", "icons": [{"src": "data:image/png;base64," + b64(PNG)}]})
    for view in (remote, inline):
        qtbot.addWidget(view)
    assert inline.icon_label.pixmap().width() == 20
    assert remote.icon_label.pixmap().width() != 20  # the generic glyph, nothing fetched


# --- embedded resources ---------------------------------------------------------------------------------------


def test_embedded_text_and_blob_resources(qtbot: QtBot) -> None:
    view = shown(ContentListView(EVERY_BLOCK[4:6]), qtbot)
    text_card, blob_card = view.block_views()
    text_view = text_card.body
    assert isinstance(text_view, ResourceContentView) and isinstance(text_view.viewer, TextView)
    assert text_view.viewer.displayed_text() == "Hello!"
    blob_view = blob_card.body
    assert isinstance(blob_view, ResourceContentView) and isinstance(blob_view.viewer, ImageView)
    assert blob_view.viewer.image_size().width() == 40


def test_embedded_binary_blob_uses_the_hex_viewer(qtbot: QtBot) -> None:
    block = {
        "type": "resource",
        "resource": {"uri": "demo://x.bin", "mimeType": "application/zip", "blob": b64(b"PK\x03\x04rest")},
    }
    view = shown(ContentListView([block]), qtbot)
    body = view.block_views()[0].body
    assert isinstance(body, ResourceContentView) and isinstance(body.viewer, HexView)
    assert body.viewer.text().startswith("00000000  50 4b 03 04")
