"""``MarkdownLabel``: a server-written description (tool, prompt, resource) rendered as Markdown, safely.

Servers write Markdown in their descriptions; showing it raw buries the text in asterisks and backticks. The
text is rendered by Qt's own Markdown reader (``QTextDocument.setMarkdown``, GitHub dialect) with raw HTML
turned off, and nothing is ever loaded on the server's behalf: an image (``![alt](url)``) becomes a link
with its alt text, and ``loadResource`` answers nothing for any URL, local or remote. Links open only when
clicked, and only http/https ones, through ``inspector.ui.widgets.desktop.open_web_url``.

The widget reads like a word-wrapped label: no frame, no scroll bars, as tall as its text at its width
(``heightForWidth``), text selectable; ``text()`` is the rendered plain text.
"""

from __future__ import annotations

import re
from typing import Any, Final

from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget

from inspector.ui.widgets.desktop import open_web_url

__all__ = ["MarkdownLabel", "markdown_without_images"]

_IMAGE: Final = re.compile(r"!\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"\n]*\")?\s*\)")
_FEATURES: Final = QTextDocument.MarkdownFeature(
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value | QTextDocument.MarkdownFeature.MarkdownNoHTML.value
)


def markdown_without_images(text: str) -> str:
    """``text`` with every inline image turned into a link to it (``[Image: alt](url)``): nothing to fetch (and no
    emoji standing for an image: it would depend on the system's fonts)."""

    def link(match: re.Match[str]) -> str:
        alt = match.group(1).strip()
        label = f"Image: {alt}" if alt else "Image"
        url = match.group(2)
        return f"[{label}]({url})" if url else label

    return _IMAGE.sub(link, text)


class MarkdownLabel(QTextBrowser):
    """See the module docstring."""

    def __init__(self, markdown: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard  # Tab visits the links, Enter opens one
        )
        self.setAccessibleName("Description")
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.document().setDocumentMargin(0)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.opened: list[str] = []
        """The links the user clicked that were handed to the browser."""
        self.anchorClicked.connect(self._open)
        self.set_markdown(markdown)

    def set_markdown(self, markdown: str) -> None:
        self.document().setMarkdown(markdown_without_images(markdown), _FEATURES)
        self.updateGeometry()

    def text(self) -> str:
        """The rendered text, without markup."""
        return self.toPlainText()

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        """Nothing is loaded for the server's text: no images, no style sheets, from anywhere."""
        return None

    def _open(self, url: QUrl) -> None:
        if open_web_url(url.toString()):
            self.opened.append(url.toString())

    # -- sized like a word-wrapped label ----------------------------------------------------------------------

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        document = self.document().clone()
        document.setTextWidth(max(1, width - 2 * self.frameWidth()))
        height = int(document.size().height() + 0.999) + 2 * self.frameWidth()
        document.deleteLater()
        return height

    def sizeHint(self) -> QSize:
        width = self.width() if self.width() > 1 else 400
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(40, self.heightForWidth(max(self.width(), 40)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()
