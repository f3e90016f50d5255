"""``TranscriptView``: chat messages (prompts/get and sampling ``messages``) as a transcript of bubbles.

User messages sit on the right in tinted bubbles, assistant messages on the left; each bubble renders its
content blocks with the content views (text, image, audio, resources, resource links, tool_use, tool_result).
Malformed messages are shown with their problems rather than dropped.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from inspector.content.transcript import TranscriptMessage, normalize_messages, role_label
from inspector.ui.viewers.blocks import ContentBlockView, forward_content_signals
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import Tones, clear_layout, hbox
from inspector.ui.widgets.theme import small_font_size, themed_style

__all__ = ["MessageBubble", "TranscriptView"]


class MessageBubble(QFrame):
    """One message: role label and avatar above a bubble holding its blocks. ``role`` is the raw role."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(self, message: TranscriptMessage, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message = message
        self.role = message.role
        self.setObjectName("messageRow")
        self.setProperty("role", message.role)
        user = message.is_user

        def build(t: Tones) -> str:
            background = t.user_bubble if user else t.assistant_bubble
            border = t.warning_border if message.problems else t.user_border if user else t.assistant_border
            small = small_font_size()
            return (
                f"QFrame#bubble {{ background: {background}; border: 1px solid {border}; border-radius: 10px; }}"
                f" QLabel#avatar {{ background: {t.primary if user else t.muted}; color: {t.on_accent};"
                f" border-radius: 11px; font-weight: 700; font-size: {small}; }}"
                f" QLabel#roleLabel {{ color: {t.muted}; font-weight: 600; font-size: {small}; }}"
            )

        themed_style(self, build)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(3)
        caption = hbox(spacing=6)
        avatar = QLabel(role_label(message.role)[:1].upper() or "?", self)
        avatar.setObjectName("avatar")
        avatar.setFixedSize(22, 22)
        avatar.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.role_label = QLabel(f"{role_label(message.role)}  ·  #{index + 1}", self)
        self.role_label.setObjectName("roleLabel")
        if user:
            caption.addStretch(1)
            caption.addWidget(self.role_label)
            caption.addWidget(avatar)
        else:
            caption.addWidget(avatar)
            caption.addWidget(self.role_label)
            caption.addStretch(1)
        outer.addLayout(caption)

        self.bubble = QFrame(self)
        self.bubble.setObjectName("bubble")
        inner = QVBoxLayout(self.bubble)
        inner.setContentsMargins(10, 8, 10, 8)
        inner.setSpacing(6)
        if message.problems:
            inner.addWidget(Banner("warning", "Malformed message", message.problems, self.bubble))
        self.block_views: list[ContentBlockView] = []
        for block in message.blocks:
            plain = _is_plain_text(block)
            view = ContentBlockView(block, show_kind=not plain, framed=not plain, parent=self.bubble)
            forward_content_signals(view, self)
            self.block_views.append(view)
            inner.addWidget(view)
        if not message.blocks:
            empty = QLabel("(no content)", self.bubble)
            themed_style(empty, lambda t: f"color: {t.muted}; font-style: italic;")
            inner.addWidget(empty)
        row = hbox(spacing=0)
        if user:
            row.addStretch(1)
            row.addWidget(self.bubble, 6)
        else:
            row.addWidget(self.bubble, 6)
            row.addStretch(1)
        outer.addLayout(row)


def _is_plain_text(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and not block.get("annotations")


class TranscriptView(QScrollArea):
    """A scrollable chat transcript. ``set_messages(messages, description=...)`` replaces what is shown."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(self, messages: Any = None, *, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.container = QWidget()
        self.container.setObjectName("transcript")
        self._column = QVBoxLayout(self.container)
        self._column.setContentsMargins(12, 12, 12, 12)
        self._column.setSpacing(14)
        self.setWidget(self.container)
        self._bubbles: list[MessageBubble] = []
        self.description_label: QLabel | None = None
        self.set_messages(messages if messages is not None else [])

    def set_messages(self, messages: Any, *, description: str | None = None) -> None:
        """Show ``messages`` (each ``{"role", "content"}``; content one block or a list), after ``description``."""
        clear_layout(self._column)
        self._bubbles = []
        self.description_label = None
        if description:
            self.description_label = QLabel(description, self.container)
            self.description_label.setWordWrap(True)
            self.description_label.setTextFormat(Qt.TextFormat.PlainText)
            themed_style(
                self.description_label,
                lambda t: (
                    f"color: {t.muted}; font-style: italic; padding: 6px 8px; border-left: 3px solid {t.card_border};"
                ),
            )
            self._column.addWidget(self.description_label)
        normalized = normalize_messages(messages)
        for index, message in enumerate(normalized):
            bubble = MessageBubble(message, index, self.container)
            forward_content_signals(bubble, self)
            self._bubbles.append(bubble)
            self._column.addWidget(bubble)
        if not normalized:
            empty = QLabel("No messages", self.container)
            empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
            themed_style(empty, lambda t: f"color: {t.muted};")
            self._column.addWidget(empty)
        self._column.addStretch(1)

    def message_widgets(self) -> list[MessageBubble]:
        return list(self._bubbles)

    def clear(self) -> None:
        self.set_messages([])
