"""Markdown in tool, prompt and resource descriptions is rendered (not shown raw), safely: raw HTML is text,
images are never loaded (from anywhere: a link to them instead), links open only when clicked, http/https only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QImage, QTextCursor, QTextDocument
from pytestqt.qtbot import QtBot

from inspector.content.catalog import parse_prompts, parse_tools
from inspector.ui.explore.common.support import EntryHeader
from inspector.ui.explore.resources.detail import ResourceHeader
from inspector.ui.widgets.markdown import MarkdownLabel, markdown_without_images

DESCRIPTION = (
    "Looks up **the weather** for a `city`.\n\n"
    "- one\n- two\n\n"
    "See [the docs](https://example.com/docs) or [a file](file:///etc/passwd).\n\n"
    "![tracker](http://127.0.0.1:9/pixel.png) <img src='http://127.0.0.1:9/x.png'> <b>bold?</b>"
)


def _images(document: QTextDocument) -> list[str]:
    found = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                found.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return found


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    urls: list[str] = []

    def record(url: QUrl) -> bool:
        urls.append(url.toString())
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(record))
    return urls


def _click(qtbot: QtBot, label: MarkdownLabel, text: str) -> None:
    cursor = label.document().find(text)
    assert not cursor.isNull(), text
    middle = QTextCursor(cursor)
    middle.setPosition((cursor.selectionStart() + cursor.selectionEnd()) // 2)
    point = label.cursorRect(middle).center()
    qtbot.mouseClick(label.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_a_tool_description_is_rendered_and_safe(qtbot: QtBot, opened: list[str], tmp_path: Path) -> None:
    picture = tmp_path / "local.png"
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    image.fill(QColor("red"))
    assert image.save(str(picture))
    markdown = DESCRIPTION + f"\n\n![local]({picture.as_uri()})"
    (entry,) = parse_tools([{"name": "weather", "description": markdown, "inputSchema": {"type": "object"}}])
    header = EntryHeader(entry)
    qtbot.addWidget(header)
    header.resize(600, 300)
    header.show()
    qtbot.waitExposed(header)
    label = header.description_label
    assert isinstance(label, MarkdownLabel)
    text = label.text()
    assert "the weather" in text and "**" not in text and "`" not in text  # rendered, not raw
    assert "<b>bold?</b>" in text and "<img src=" in text  # raw HTML is shown as text, never interpreted
    document = label.document()
    assert _images(document) == []  # nothing to load: neither the remote nor the local picture
    assert "tracker" in text and "local" in text  # the images' alt texts stay, as links
    assert label.loadResource(int(QTextDocument.ResourceType.ImageResource), QUrl(picture.as_uri())) is None
    assert label.height() >= label.heightForWidth(label.width()) - 2  # shown whole, like a label
    assert opened == []  # nothing opened by showing it

    _click(qtbot, label, "the docs")
    assert opened == ["https://example.com/docs"]
    _click(qtbot, label, "a file")
    assert opened == ["https://example.com/docs"]  # file: links are refused
    assert label.text() == text  # the browser did not navigate away


def test_prompt_and_resource_descriptions_render_markdown(qtbot: QtBot) -> None:
    (prompt,) = parse_prompts([{"name": "p", "description": "Use *this* prompt"}])
    header = EntryHeader(prompt)
    qtbot.addWidget(header)
    assert isinstance(header.description_label, MarkdownLabel)
    assert header.description_label.text() == "Use this prompt"
    resource = ResourceHeader()
    qtbot.addWidget(resource)
    resource.set_entry({"uri": "demo://x", "name": "x", "description": "A **bold** resource"})
    assert resource.description_label.text() == "A bold resource"


def test_images_become_links() -> None:
    assert markdown_without_images("a ![logo](http://h/x.png) b") == "a [Image: logo](http://h/x.png) b"
    assert markdown_without_images('![](<http://h/x.png> "t")') == "[Image](http://h/x.png)"
    assert markdown_without_images("no images [link](http://h)") == "no images [link](http://h)"
