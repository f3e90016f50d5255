"""ResourceContentsView / ResourceContentView / HexView / DiffView: viewers by mimeType, hex dump, update diffs."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from inspector.content.diff import DiffLineKind
from inspector.content.mime import ViewerKind
from inspector.demo.media import make_png, make_wav
from inspector.ui.viewers import (
    AudioView,
    DiffView,
    HexView,
    ImageView,
    ResourceContentsView,
    ResourceContentView,
    TextMode,
    TextView,
)
from inspector.ui.viewers.text_widgets import FitTextBrowser
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import LIGHT

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def contents_view(qtbot: QtBot, contents: Any) -> ResourceContentsView:
    view = ResourceContentsView()
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.set_contents(contents)
    view.show()
    qtbot.waitExposed(view)
    return view


def only_viewer(qtbot: QtBot, entry: dict[str, Any]) -> ResourceContentView:
    viewer = ResourceContentView(entry)
    qtbot.addWidget(viewer)
    viewer.resize(800, 600)
    viewer.show()
    qtbot.waitExposed(viewer)
    return viewer


def test_plain_text(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://clock", "mimeType": "text/plain", "text": "12:00:01"})
    assert viewer.viewer_kind is ViewerKind.TEXT
    assert isinstance(viewer.viewer, TextView) and viewer.viewer.mode() is TextMode.PLAIN
    assert viewer.viewer.displayed_text() == "12:00:01"


def test_json_is_a_tree_with_pretty_text(qtbot: QtBot) -> None:
    data = {"user": "ada", "roles": ["admin", "dev"], "settings": {"theme": "dark"}}
    viewer = only_viewer(
        qtbot, {"uri": "demo://users/ada/profile", "mimeType": "application/json", "text": json.dumps(data)}
    )
    assert viewer.viewer_kind is ViewerKind.JSON
    text_view = viewer.viewer
    assert isinstance(text_view, TextView) and text_view.mode() is TextMode.TREE
    assert text_view.current_widget().model().rowCount() == 3  # type: ignore[attr-defined]
    text_view.set_mode(TextMode.JSON)
    assert json.loads(text_view.displayed_text()) == data and "\n  " in text_view.displayed_text()


def test_invalid_json_falls_back_to_text_with_a_note(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://broken.json", "mimeType": "application/json", "text": "{oops"})
    assert viewer.viewer_kind is ViewerKind.TEXT
    assert any("not valid JSON" in note for note in viewer.notes)


def test_markdown_is_rendered(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://docs/readme", "mimeType": "text/markdown", "text": "# Demo\n\n*hi*"})
    assert viewer.viewer_kind is ViewerKind.MARKDOWN
    assert isinstance(viewer.viewer, TextView) and viewer.viewer.mode() is TextMode.MARKDOWN
    page = viewer.viewer.current_widget()
    assert isinstance(page, FitTextBrowser) and page.toPlainText().startswith("Demo")


def test_image_blob_is_previewed(qtbot: QtBot) -> None:
    viewer = only_viewer(
        qtbot, {"uri": "demo://images/logo.png", "mimeType": "image/png", "blob": b64(make_png(32, 32))}
    )
    assert viewer.viewer_kind is ViewerKind.IMAGE
    assert isinstance(viewer.viewer, ImageView) and viewer.viewer.image_size().width() == 32


def test_svg_text_is_an_image(qtbot: QtBot) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
    viewer = only_viewer(qtbot, {"uri": "demo://icon.svg", "mimeType": "image/svg+xml", "text": svg})
    assert viewer.viewer_kind is ViewerKind.IMAGE and isinstance(viewer.viewer, ImageView)


def test_audio_blob(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://sounds/a.wav", "mimeType": "audio/wav", "blob": b64(make_wav())})
    assert viewer.viewer_kind is ViewerKind.AUDIO and isinstance(viewer.viewer, AudioView)


def test_binary_blob_is_a_hex_view_with_size_and_save(qtbot: QtBot, tmp_path: Path, monkeypatch: Any) -> None:
    data = bytes(range(256)) * 600  # 150 KiB: more than the first page
    viewer = only_viewer(
        qtbot, {"uri": "demo://files/data.bin", "mimeType": "application/octet-stream", "blob": b64(data)}
    )
    hex_view = viewer.viewer
    assert viewer.viewer_kind is ViewerKind.BINARY and isinstance(hex_view, HexView)
    lines = hex_view.text().splitlines()
    assert lines[0] == "00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|"
    assert lines[4].endswith("|@ABCDEFGHIJKLMNO|")
    assert len(lines) == 64 * 1024 // 16 and hex_view.shown_bytes() == 64 * 1024
    assert "showing the first 64 KiB of 150 KiB (153,600 bytes)" in hex_view.info_label.text()
    hex_view.more_button.click()
    hex_view.more_button.click()
    assert hex_view.shown_bytes() == len(data) and not hex_view.more_button.isVisibleTo(hex_view)
    assert hex_view.text().splitlines()[-1].startswith(f"{len(data) - 16:08x}")
    target = tmp_path / "data.bin"
    asked: list[str] = []

    def fake_dialog(parent: Any, title: str, start: str, filters: str) -> tuple[str, str]:
        asked.append(start)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_dialog)
    hex_view.save_button.click()
    assert target.read_bytes() == data and asked[0].endswith("data.bin")


def test_textual_blob_is_decoded(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://notes.txt", "mimeType": "text/plain", "blob": b64("héllo".encode())})
    assert isinstance(viewer.viewer, TextView) and viewer.viewer.displayed_text() == "héllo"
    assert any("base64 blob" in note for note in viewer.notes)


def test_invalid_blob_is_an_error(qtbot: QtBot) -> None:
    viewer = only_viewer(qtbot, {"uri": "demo://x", "mimeType": "image/png", "blob": "@@@"})
    assert isinstance(viewer.viewer, Banner) and viewer.viewer.tone == "error"


def test_header_shows_uri_mime_size_and_annotations(qtbot: QtBot) -> None:
    entry = {
        "uri": "demo://docs/readme",
        "mimeType": "text/markdown",
        "text": "abc",
        "annotations": {"audience": ["user"], "priority": 0.2, "lastModified": "2025-06-01T10:00:00Z"},
    }
    viewer = only_viewer(qtbot, entry)
    texts = [label.text() for label in viewer.header.findChildren(type(viewer.header.children()[1]))]
    for expected in (
        "demo://docs/readme",
        "text/markdown",
        "3 B",
        "for user",
        "priority 0.2",
        "modified 2025-06-01T10:00:00Z",
    ):
        assert expected in texts


def test_several_contents_get_tabs(qtbot: QtBot) -> None:
    view = contents_view(
        qtbot,
        [
            {"uri": "demo://a.txt", "mimeType": "text/plain", "text": "a"},
            {"uri": "demo://b.json", "mimeType": "application/json", "text": "[1]"},
        ],
    )
    assert view.tabs.count() == 2 and [view.tabs.tabText(i) for i in range(2)] == ["a.txt", "b.json"]
    assert [v.viewer_kind for v in view.viewers()] == [ViewerKind.TEXT, ViewerKind.JSON]
    view.set_contents({"contents": []})
    assert view.tabs.count() == 0 and view.empty_label.text() == "The resource has no contents"
    view.set_contents({"contents": "nope"})
    assert view.problem_banner is not None


def test_update_diff_colours_added_and_removed_lines(qtbot: QtBot) -> None:
    view = contents_view(qtbot, [{"uri": "demo://clock", "mimeType": "text/plain", "text": "tick 2"}])
    diff_view = view.show_update_diff("header\ntick 1\nfooter\n", "header\ntick 2\nfooter\nextra\n")
    assert isinstance(diff_view, DiffView)
    assert view.tabs.currentWidget() is diff_view
    assert view.tabs.tabText(view.tabs.currentIndex()) == "Changes (+2 \N{MINUS SIGN}1)"
    assert (diff_view.diff.added, diff_view.diff.removed) == (2, 1)
    lines = diff_view.editor.toPlainText().splitlines()
    assert "-tick 1" in lines and "+tick 2" in lines and "+extra" in lines
    colours = dict(diff_view.line_colors())
    kinds = {number: line.kind for number, line in enumerate(diff_view.diff.lines)}
    added = [n for n, kind in kinds.items() if kind is DiffLineKind.ADDED]
    removed = [n for n, kind in kinds.items() if kind is DiffLineKind.REMOVED]
    assert all(colours[n] == LIGHT.added_bg for n in added)
    assert all(colours[n] == LIGHT.removed_bg for n in removed)
    context = [n for n, kind in kinds.items() if kind is DiffLineKind.CONTEXT]
    assert context and not any(n in colours for n in context)
    again = view.show_update_diff("same", "same")
    assert again is diff_view and diff_view.summary() == "no changes"
    assert "identical" in diff_view.note_label.text()
