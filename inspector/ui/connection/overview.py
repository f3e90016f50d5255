"""The server overview: who the server says it is, what both sides declared, the era in use and why (with the
opening result and the 2026-07-28 result cache: ``connection/era_view.py``), and its instructions.

Nothing here touches the network: icons are shown only from ``data:`` URIs (a remote icon gets a
placeholder), links open in the browser only for http/https, and the markdown view loads no
external resources.
"""

from __future__ import annotations

import html
import json
from typing import Any, Final

from PySide6.QtCore import QRectF, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import ServerInfo
from inspector.content.media import decode_data_uri
from inspector.ui.connection.controller import ConnectionController
from inspector.ui.connection.era_view import EraSection
from inspector.ui.widgets.desktop import is_web_url, open_web_url
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font

__all__ = ["OverviewPanel"]

ICON_SIZE: Final = 64
MAX_ICON_BYTES: Final = 2 * 1024 * 1024
_MISSING: Final = object()


def _placeholder(letter: str, size: int, color: QColor) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(color)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawRoundedRect(QRectF(0, 0, size, size), size / 6, size / 6)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.5))
    painter.setFont(font)
    painter.setPen(QColor(tones().highlight_text))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, (letter or "?")[:1].upper())
    painter.end()
    return pixmap


def _icon_pixmap(icons: Any, dark: bool) -> tuple[QPixmap | None, str]:
    """The best decodable data: icon, and a note on what was not shown."""
    if not isinstance(icons, list):
        return None, ""
    candidates = [i for i in icons if isinstance(i, dict) and isinstance(i.get("src"), str)]
    wanted = "dark" if dark else "light"
    candidates.sort(key=lambda i: (i.get("theme") not in (None, wanted), i.get("mimeType") != "image/svg+xml"))
    remote = False
    for icon in candidates:
        src: str = icon["src"]
        decoded = decode_data_uri(src)
        if decoded is None:
            remote = remote or is_web_url(src)
            continue
        mime, data = decoded
        if len(data) > MAX_ICON_BYTES:
            continue
        image = QImage()
        if image.loadFromData(data, "SVG" if "svg" in mime else None) and not image.isNull():
            keep, smooth = Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            scaled = image.scaled(QSize(ICON_SIZE, ICON_SIZE), keep, smooth)
            return QPixmap.fromImage(scaled), ""
    return None, "remote icons are not fetched" if remote else ""


def _cell(value: Any) -> str:
    if value is _MISSING:
        return "—"
    if isinstance(value, dict):
        return "✓ declared"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def _fill(parent: QTreeWidget | QTreeWidgetItem, server: Any, client: Any) -> None:
    keys: list[str] = []
    for side in (server, client):
        if isinstance(side, dict):
            keys += [k for k in side if k not in keys]
    for key in keys:
        s = server.get(key, _MISSING) if isinstance(server, dict) else _MISSING
        c = client.get(key, _MISSING) if isinstance(client, dict) else _MISSING
        item = QTreeWidgetItem([key, _cell(s), _cell(c)])
        for column, value in ((1, s), (2, c)):
            if value is _MISSING:
                item.setForeground(column, QColor(tones().muted))
        if isinstance(parent, QTreeWidget):
            parent.addTopLevelItem(item)
        else:
            parent.addChild(item)
        if isinstance(s, dict) or isinstance(c, dict):
            _fill(item, s, c)


class _InstructionsView(QTextBrowser):
    """Markdown, with no external resources loaded and only web links opened."""

    def loadResource(self, kind: int, name: QUrl | str, /) -> Any:
        text = name.toString() if isinstance(name, QUrl) else name
        if text.startswith("data:"):
            decoded = decode_data_uri(text)
            if decoded is not None and len(decoded[1]) <= MAX_ICON_BYTES:
                image = QImage()
                if image.loadFromData(decoded[1]):
                    return image
        return None


class OverviewPanel(QWidget):
    diagnosticsRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stack = QStackedWidget()
        self.empty_label = QLabel("Not connected.")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setEnabled(False)
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(self._details())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    def _details(self) -> QWidget:
        page = QWidget()
        self.icon_label = QLabel()
        self.icon_label.setFixedSize(ICON_SIZE, ICON_SIZE)
        self.name_label = QLabel()
        follow_font(self.name_label, "server_name")
        self.name_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title_label = QLabel()
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.website_label = QLabel()
        self.website_label.setTextFormat(Qt.TextFormat.RichText)
        self.website_label.linkActivated.connect(open_web_url)
        names = QVBoxLayout()
        names.setSpacing(2)
        names.addWidget(self.name_label)
        names.addWidget(self.title_label)
        names.addWidget(self.website_label)
        names.addStretch(1)
        identity = QHBoxLayout()
        identity.setSpacing(12)
        identity.addWidget(self.icon_label, 0, Qt.AlignmentFlag.AlignTop)
        identity.addLayout(names, 1)

        self.version_label = QLabel()
        self.protocol_label = QLabel()
        self.elapsed_label = QLabel()
        self.diagnostics_label = QLabel()
        self.diagnostics_label.setTextFormat(Qt.TextFormat.RichText)
        self.diagnostics_label.linkActivated.connect(lambda _link: self.diagnosticsRequested.emit())
        facts = QFormLayout()
        facts.setHorizontalSpacing(16)
        facts.addRow("Server version:", self.version_label)
        facts.addRow("Protocol version:", self.protocol_label)
        facts.addRow("Connected in:", self.elapsed_label)
        facts.addRow("Diagnostics:", self.diagnostics_label)
        for label in (self.version_label, self.protocol_label, self.elapsed_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.capabilities_tree = QTreeWidget()
        self.capabilities_tree.setAccessibleName("Capabilities")
        self.capabilities_tree.setColumnCount(3)
        self.capabilities_tree.setHeaderLabels(["Capability", "Server declares", "Client declares"])
        self.capabilities_tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.capabilities_tree.header().setStretchLastSection(False)
        self.capabilities_tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.capabilities_tree.header().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.capabilities_tree.setAlternatingRowColors(True)
        caps_title = QLabel("<b>Capabilities</b>")

        self.instructions_view = _InstructionsView()
        self.instructions_view.setAccessibleName("Server instructions")
        self.instructions_view.setOpenLinks(False)
        self.instructions_view.anchorClicked.connect(lambda url: open_web_url(url.toString()))
        instr_title = QLabel("<b>Instructions</b>")
        self.era_section = EraSection()

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 6, 0)
        left_layout.addLayout(identity)
        left_layout.addSpacing(8)
        left_layout.addLayout(facts)
        left_layout.addSpacing(8)
        left_layout.addWidget(caps_title)
        left_layout.addWidget(self.capabilities_tree, 1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(6, 0, 0, 0)
        right_layout.addWidget(self.era_section)
        right_layout.addSpacing(8)
        right_layout.addWidget(instr_title)
        right_layout.addWidget(self.instructions_view, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("overviewSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(self.splitter)
        return page

    # -- content ---------------------------------------------------------------------------------

    def show_message(self, text: str) -> None:
        """Nothing to show yet (not connected, connecting, failed)."""
        self.empty_label.setText(text)
        self.stack.setCurrentIndex(0)
        self.era_section.clear()

    def show_server(
        self, server: ServerInfo, client_capabilities: dict[str, Any], controller: ConnectionController | None = None
    ) -> None:
        """Show ``server``; with its ``controller``, the era section also says why this era and lists the cache."""
        info = server.server_info if isinstance(server.server_info, dict) else {}
        name = str(info.get("name") or "(no name)")
        title = info.get("title")
        self.name_label.setText(name)
        self.title_label.setText(str(title) if title else "")
        self.title_label.setVisible(bool(title))
        website = info.get("websiteUrl")
        if isinstance(website, str) and website:
            safe = html.escape(website)
            if is_web_url(website):
                self.website_label.setText(f'<a href="{safe}">{safe}</a>')
                self.website_label.setToolTip("Open in the browser")
            else:
                self.website_label.setText(f"{safe} <i>(not a web address; not opened)</i>")
            self.website_label.show()
        else:
            self.website_label.hide()
        dark = self.palette().window().color().lightness() < 128
        pixmap, note = _icon_pixmap(info.get("icons"), dark)
        if pixmap is None:
            pixmap = _placeholder(name, ICON_SIZE, self.palette().highlight().color())
        self.icon_label.setPixmap(pixmap)
        self.icon_label.setToolTip(note)
        self.version_label.setText(str(info.get("version") or "—"))
        self.protocol_label.setText(server.protocol_version)
        self.elapsed_label.setText(f"{server.elapsed * 1000:.0f} ms")
        self.capabilities_tree.clear()
        _fill(self.capabilities_tree, server.capabilities, client_capabilities)
        self.capabilities_tree.expandAll()
        self.era_section.show_server(server, controller)
        if server.instructions:
            self.instructions_view.setMarkdown(server.instructions)
        else:
            self.instructions_view.setMarkdown("*The server gave no instructions.*")
        self.stack.setCurrentIndex(1)

    def set_diagnostic_count(self, count: int) -> None:
        if count:
            text = f"{count} protocol diagnostic{'s' if count != 1 else ''}"
            self.diagnostics_label.setText(f'<a href="#diagnostics">{text}</a> — show in the log')
        else:
            self.diagnostics_label.setText("none")
