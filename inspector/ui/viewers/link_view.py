"""``ResourceLinkView``: a resource_link block as a card; clicking it emits ``readResourceRequested(uri)``.

Icons are shown only when they are embedded ``data:`` URIs; remote icons are never fetched (a glyph stands in).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.content.blocks import InvalidBase64Error, decode_base64
from inspector.protocol.sizes import format_size
from inspector.ui.widgets.resources import set_label_icon
from inspector.ui.widgets.style import badge_label, hbox, tones
from inspector.ui.widgets.theme import themed_style

__all__ = ["ResourceLinkView", "icon_pixmap"]


def icon_pixmap(icons: Any, size: int = 20) -> QPixmap | None:
    """The first icon given as a ``data:`` URI, decoded and scaled; None when there is none (no fetching)."""
    if not isinstance(icons, list):
        return None
    for icon in icons:
        src = icon.get("src") if isinstance(icon, dict) else None
        if not isinstance(src, str) or not src.startswith("data:") or ";base64," not in src[:100]:
            continue
        try:
            data = decode_base64(src.split(",", 1)[1])
        except InvalidBase64Error:
            continue
        pixmap = QPixmap()
        if pixmap.loadFromData(data):
            return pixmap.scaled(
                size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
    return None


class ResourceLinkView(QWidget):
    """Title/name, uri, description, mimeType and size of a resource link, with a "Read resource" button."""

    readResourceRequested = Signal(str)

    def __init__(self, block: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.uri = str(block.get("uri", ""))
        t = tones(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        top = hbox(spacing=6)
        self.icon_label = QLabel(self)
        pixmap = icon_pixmap(block.get("icons"))
        if pixmap is not None:
            self.icon_label.setPixmap(pixmap)
        else:
            set_label_icon(self.icon_label, "link", "muted", 18)
        top.addWidget(self.icon_label)
        title = block.get("title") or block.get("name") or self.uri
        self.title_label = QLabel(str(title), self)
        self.title_label.setStyleSheet("font-weight: 600;")
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        top.addWidget(self.title_label)
        if block.get("title") and block.get("name"):
            name = QLabel(f"({block['name']})", self)
            themed_style(name, lambda t: f"color: {t.muted};")
            top.addWidget(name)
        mime = block.get("mimeType")
        if isinstance(mime, str):
            top.addWidget(badge_label(mime, "neutral", "mimeType", self))
        size = block.get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            top.addWidget(badge_label(format_size(size), "neutral", f"{size:,} bytes (declared)", self))
        top.addStretch(1)
        self.read_button = QPushButton("Read resource", self)
        self.read_button.setToolTip(f"resources/read {self.uri}")
        self.read_button.setEnabled(bool(self.uri))
        self.read_button.clicked.connect(self.request_read)
        top.addWidget(self.read_button)
        layout.addLayout(top)
        self.uri_label = QLabel(self)
        self.uri_label.setTextFormat(Qt.TextFormat.RichText)
        self.uri_label.setText(f'<a href="#read" style="color: {t.accent};">{_escape(self.uri)}</a>')
        self.uri_label.setToolTip("Click to read this resource")
        self.uri_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.uri_label.linkActivated.connect(lambda _href: self.request_read())
        layout.addWidget(self.uri_label)
        description = block.get("description")
        if isinstance(description, str) and description:
            self.description_label = QLabel(description, self)
            self.description_label.setWordWrap(True)
            self.description_label.setTextFormat(Qt.TextFormat.PlainText)
            themed_style(self.description_label, lambda t: f"color: {t.muted};")
            layout.addWidget(self.description_label)

    def request_read(self) -> None:
        if self.uri:
            self.readResourceRequested.emit(self.uri)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
