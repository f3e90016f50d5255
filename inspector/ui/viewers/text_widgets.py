"""Text widgets that size themselves to their content (up to a cap) and never load anything from outside.

``FitTextBrowser`` renders rich text / markdown; remote images, local files and any other external resource are
replaced by a placeholder (only ``data:`` images embedded in the text itself are decoded). Links are not
followed: the owner receives ``anchorClicked`` and decides. ``FitPlainTextEdit`` is the fast widget for large
plain text.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt, QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QSizePolicy, QTextBrowser, QWidget

from inspector.content.blocks import InvalidBase64Error, decode_base64
from inspector.ui.widgets.style import tones

__all__ = ["FitPlainTextEdit", "FitTextBrowser", "placeholder_image"]

_MIN_HEIGHT = 30
_DEFAULT_MAX = 420


def placeholder_image(text: str = "image not loaded", size: QSize | None = None) -> QImage:
    """A neutral box standing in for an image that is not fetched (remote) or cannot be shown."""
    size = size or QSize(180, 60)
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    t = tones()
    image.fill(QColor(t.alt_base))
    painter = QPainter(image)
    painter.setPen(QPen(QColor(t.card_border), 1, Qt.PenStyle.DashLine))
    painter.drawRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1))
    painter.setPen(QColor(t.muted))
    painter.drawText(QRectF(0, 0, size.width(), size.height()), Qt.AlignmentFlag.AlignCenter, f"[ {text} ]")
    painter.end()
    return image


def _data_url_image(url: QUrl) -> QImage | None:
    """Decode a ``data:image/...;base64,`` URL; None for anything else or undecodable data."""
    raw = url.toString()
    if not raw.startswith("data:image/") or ";base64," not in raw[:100]:
        return None
    try:
        data = decode_base64(raw.split(",", 1)[1])
    except InvalidBase64Error:
        return None
    image = QImage.fromData(data)
    return None if image.isNull() else image


class FitTextBrowser(QTextBrowser):
    """A read-only rich-text view. With ``fit`` it is as tall as its document, at most ``max_height`` pixels."""

    def __init__(self, parent: QWidget | None = None, *, fit: bool = True, max_height: int = _DEFAULT_MAX) -> None:
        super().__init__(parent)
        self._fit = fit
        self._max_height = max_height
        self._refitting = False
        self.blocked_resources: list[str] = []
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextBrowserInteraction | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        if fit:
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            self.document().documentLayout().documentSizeChanged.connect(self.refit)

    def loadResource(self, type: int, name: QUrl | str) -> Any:
        """Never fetch: embedded data: images are decoded, everything else becomes a placeholder."""
        name = name if isinstance(name, QUrl) else QUrl(name)
        if type == QTextDocument.ResourceType.ImageResource.value:
            image = _data_url_image(name)
            if image is not None:
                return image
            self.blocked_resources.append(name.toString())
            return placeholder_image("remote image not loaded" if name.scheme() in ("http", "https") else "image")
        self.blocked_resources.append(name.toString())
        return None

    def refit(self) -> None:
        if not self._fit or self._refitting:
            return
        self._refitting = True
        try:
            document = self.document()
            document.setTextWidth(self.viewport().width())
            margins = self.contentsMargins()
            content = math.ceil(document.size().height()) + 2 + margins.top() + margins.bottom() + 2 * self.frameWidth()
            scrollbar = self.horizontalScrollBar()
            if scrollbar.isVisible():
                content += scrollbar.height()
            self.setFixedHeight(max(_MIN_HEIGHT, min(content, self._max_height)))
        finally:
            self._refitting = False

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.refit()


class FitPlainTextEdit(QPlainTextEdit):
    """A read-only plain-text view (fast on large text). With ``fit`` it is as tall as its lines, up to a cap."""

    def __init__(self, parent: QWidget | None = None, *, fit: bool = True, max_height: int = _DEFAULT_MAX) -> None:
        super().__init__(parent)
        self._fit = fit
        self._max_height = max_height
        self._refitting = False
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        if fit:
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.document().documentLayout().documentSizeChanged.connect(self.refit)

    def refit(self) -> None:
        if not self._fit or self._refitting:
            return
        self._refitting = True
        try:
            self._apply_fit()
        finally:
            self._refitting = False

    def _apply_fit(self) -> None:
        document = self.document()
        lines = document.documentLayout().documentSize().height()  # in lines for a plain-text layout
        margins = self.contentsMargins()
        content = int(lines * self.fontMetrics().lineSpacing() + 2 * document.documentMargin())
        content += margins.top() + margins.bottom() + 2 * self.frameWidth() + 2
        scrollbar = self.horizontalScrollBar()
        if scrollbar.isVisible():
            content += scrollbar.height()
        self.setFixedHeight(max(_MIN_HEIGHT, min(content, self._max_height)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.refit()
