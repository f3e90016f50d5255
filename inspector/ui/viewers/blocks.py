"""``ContentBlockView`` and ``ContentListView``: MCP content blocks rendered by type, as cards.

Every block gets a header (type, details, annotation badges, a "Raw" toggle showing the block's JSON) and a
body: text (plain / markdown / JSON), image, audio, resource link, embedded resource, tool use, tool result, or
pretty JSON with a warning for unknown types. Actions leave as signals: ``readResourceRequested(uri)``,
``openUrlRequested(url)`` (http/https only) and ``openFileRequested(path)`` (a temp file for the system player).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from inspector.content.blocks import BlockKind, annotation_badges, block_problems, classify_block
from inspector.ui.viewers.audio_view import AudioView
from inspector.ui.viewers.image_view import ImageView
from inspector.ui.viewers.link_view import ResourceLinkView
from inspector.ui.viewers.resource_view import ResourceContentView
from inspector.ui.viewers.text_view import JsonView, TextMode, TextView
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import badge_label, badge_row, clear_layout, hbox, section_label
from inspector.ui.widgets.theme import small_font_size, themed_style

__all__ = ["ContentBlockView", "ContentListView", "forward_content_signals"]

_TITLES = {
    BlockKind.TEXT: "Text",
    BlockKind.IMAGE: "Image",
    BlockKind.AUDIO: "Audio",
    BlockKind.RESOURCE_LINK: "Resource link",
    BlockKind.RESOURCE: "Embedded resource",
    BlockKind.TOOL_USE: "Tool use",
    BlockKind.TOOL_RESULT: "Tool result",
    BlockKind.UNKNOWN: "Unknown content",
}


@runtime_checkable
class ReadsResources(Protocol):
    """A view with a "read this resource" action (``readResourceRequested(uri)``)."""

    @property
    def readResourceRequested(self) -> SignalInstance: ...


@runtime_checkable
class OpensUrls(Protocol):
    """A view with an "open this web page" action (``openUrlRequested(url)``)."""

    @property
    def openUrlRequested(self) -> SignalInstance: ...


@runtime_checkable
class OpensFiles(Protocol):
    """A view with an "open this file in the system's player" action (``openFileRequested(path)``)."""

    @property
    def openFileRequested(self) -> SignalInstance: ...


def forward_content_signals(source: QWidget, target: QWidget) -> None:
    """Connect each content action ``source`` offers to the same action of ``target`` (both must offer it)."""
    if isinstance(source, ReadsResources) and isinstance(target, ReadsResources):
        source.readResourceRequested.connect(target.readResourceRequested)
    if isinstance(source, OpensUrls) and isinstance(target, OpensUrls):
        source.openUrlRequested.connect(target.openUrlRequested)
    if isinstance(source, OpensFiles) and isinstance(target, OpensFiles):
        source.openFileRequested.connect(target.openFileRequested)


class ContentBlockView(QFrame):
    """One content block as a card. ``kind`` is its BlockKind, ``body`` the widget that renders it."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(
        self,
        block: Any,
        *,
        fit: bool = True,
        show_kind: bool = True,
        framed: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.block = block
        self.kind = classify_block(block)
        self.problems = block_problems(block)
        self._fit = fit
        self.setObjectName("contentCard")
        self.setProperty("blockKind", self.kind.value)
        self.setProperty("hasProblems", bool(self.problems))
        framed = framed or bool(self.problems)
        self.setProperty("framed", framed)
        if framed:
            themed_style(
                self,
                lambda t: (
                    f"QFrame#contentCard {{ background: {t.card_bg}; border: 1px solid"
                    f" {t.warning_border if self.problems else t.card_border}; border-radius: 6px; }}"
                ),
            )
        else:
            self.setStyleSheet(
                "QFrame#contentCard { background: transparent; border: none; }"
                " QFrame#contentCard QPlainTextEdit, QFrame#contentCard QTextBrowser { background: transparent; }"
            )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(*((10, 6, 10, 8) if framed else (0, 0, 0, 0)))
        layout.setSpacing(6)
        self.header = QWidget(self)
        self._header_row = hbox(self.header, spacing=6)
        layout.addWidget(self.header)
        self.badges: list[QLabel] = []
        self.kind_label = QLabel(_TITLES[self.kind], self.header)
        themed_style(self.kind_label, lambda t: f"color: {t.muted}; font-weight: 600; font-size: {small_font_size()};")
        self.kind_label.setVisible(show_kind or bool(self.problems))
        self._header_row.addWidget(self.kind_label)
        if self.problems:
            self.problem_banner: Banner | None = Banner(
                "warning",
                "Malformed content block" if self.kind is not BlockKind.UNKNOWN else "Unknown content type",
                self.problems,
                self,
            )
            layout.addWidget(self.problem_banner)
            self._add_badge(
                badge_label(
                    "unknown type" if self.kind is BlockKind.UNKNOWN else "malformed",
                    "warning",
                    "; ".join(self.problems),
                    self.header,
                )
            )
        else:
            self.problem_banner = None
        self.body = self._build_body()
        self._header_row.addStretch(1)
        if isinstance(self.body, TextView):
            self._header_row.addWidget(self.body.toolbar)
        self.raw_button = QToolButton(self.header)
        self.raw_button.setText("{ }")
        self.raw_button.setToolTip("Show the block's raw JSON")
        self.raw_button.setCheckable(True)
        self.raw_button.setAutoRaise(True)
        self.raw_button.toggled.connect(self.set_raw_visible)
        self._header_row.addWidget(self.raw_button)
        self.annotation_badges: list[QLabel] = []
        if isinstance(block, dict) and annotation_badges(block.get("annotations")):
            row_widget = QWidget(self)
            row = hbox(row_widget, spacing=4)
            self.annotation_badges = badge_row(annotation_badges(block.get("annotations")), row_widget)
            for badge in self.annotation_badges:
                row.addWidget(badge)
            row.addStretch(1)
            layout.addWidget(row_widget)
        layout.addWidget(self.body)
        self.raw_view: JsonView | None = None
        self.header.setVisible(show_kind or bool(self.badges) or isinstance(self.body, TextView) or bool(self.problems))

    def set_raw_visible(self, visible: bool) -> None:
        """Show the block's JSON instead of its rendering (and back)."""
        if visible and self.raw_view is None:
            self.raw_view = JsonView(self.block, mode=TextMode.JSON, fit=self._fit, parent=self)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.addWidget(self.raw_view)
        if self.raw_view is not None:
            self.raw_view.setVisible(visible)
        self.body.setVisible(not visible)
        if self.raw_button.isChecked() != visible:
            self.raw_button.setChecked(visible)

    def _add_badge(self, badge: QLabel) -> None:
        self.badges.append(badge)
        self._header_row.addWidget(badge)

    def _detail(self, text: str) -> None:
        label = QLabel(text, self.header)
        themed_style(label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self._header_row.addWidget(label)

    def _build_body(self) -> QWidget:
        block = self.block
        kind = self.kind if not self.problems else BlockKind.UNKNOWN
        body: QWidget
        if kind is BlockKind.TEXT:
            body = TextView(block["text"], fit=self._fit, embed_toolbar=False, parent=self)
        elif kind in (BlockKind.IMAGE, BlockKind.AUDIO):
            mime = str(block.get("mimeType", ""))
            self._detail(mime)
            if kind is BlockKind.IMAGE:
                body = ImageView(block["data"], mime, fit=self._fit, parent=self)
            else:
                body = AudioView(block["data"], mime, parent=self)
        elif kind is BlockKind.RESOURCE_LINK:
            body = ResourceLinkView(block, self)
        elif kind is BlockKind.RESOURCE:
            body = ResourceContentView(block["resource"], fit=self._fit, parent=self)
        elif kind is BlockKind.TOOL_USE:
            self._detail(f"{block['name']}  ·  id {block['id']}")
            body = JsonView(block["input"], mode=TextMode.JSON, fit=self._fit, parent=self)
        elif kind is BlockKind.TOOL_RESULT:
            body = self._tool_result_body(block)
        else:
            body = JsonView(block, mode=TextMode.JSON, fit=self._fit, parent=self)
        forward_content_signals(body, self)
        return body

    def _tool_result_body(self, block: dict[str, Any]) -> QWidget:
        self._detail(f"for tool use {block['toolUseId']}")
        if block.get("isError") is True:
            self._add_badge(badge_label("isError", "error", "The tool use failed", self.header))
        body = QWidget(self)
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        nested = ContentListView(block["content"], fit=self._fit, parent=body)
        forward_content_signals(nested, self)
        column.addWidget(nested)
        if block.get("structuredContent") is not None:
            column.addWidget(section_label("structuredContent", body))
            column.addWidget(JsonView(block["structuredContent"], fit=self._fit, parent=body))
        return body


class ContentListView(QWidget):
    """A column of ContentBlockViews; very long lists are revealed ``batch`` blocks at a time."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(
        self,
        blocks: Any = None,
        *,
        fit: bool = True,
        show_kind: bool = True,
        batch: int = 100,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._fit = fit
        self._show_kind = show_kind
        self._batch = batch
        self._blocks: list[Any] = []
        self._views: list[ContentBlockView] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self._column = QVBoxLayout()
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(6)
        outer.addLayout(self._column)
        self.more_button = QPushButton(self)
        self.more_button.clicked.connect(self.show_more)
        self.more_button.hide()
        outer.addWidget(self.more_button)
        self.empty_label = QLabel("No content blocks", self)
        themed_style(self.empty_label, lambda t: f"color: {t.muted}; font-style: italic;")
        self.empty_label.hide()
        outer.addWidget(self.empty_label)
        if blocks is not None:
            self.set_content(blocks)

    def set_content(self, blocks: Any) -> None:
        """Show ``blocks`` (a list; a single block is accepted too)."""
        self.clear()
        self._blocks = list(blocks) if isinstance(blocks, list) else [blocks]
        self.empty_label.setVisible(not self._blocks)
        self.show_more()

    def show_more(self) -> None:
        start = len(self._views)
        for block in self._blocks[start : start + self._batch]:
            view = ContentBlockView(block, fit=self._fit, show_kind=self._show_kind, parent=self)
            forward_content_signals(view, self)
            self._views.append(view)
            self._column.addWidget(view)
        remaining = len(self._blocks) - len(self._views)
        self.more_button.setText(f"Show {min(remaining, self._batch)} more of {remaining} remaining blocks")
        self.more_button.setVisible(remaining > 0)

    def block_views(self) -> list[ContentBlockView]:
        return list(self._views)

    def block_count(self) -> int:
        return len(self._blocks)

    def clear(self) -> None:
        clear_layout(self._column)
        self._views.clear()
        self._blocks = []
        self.more_button.hide()
