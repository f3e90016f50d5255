"""``MarkLabel``: a QLabel with one of the UI's icons before its text (a warning, an error, ...), in place of a glyph.

It stays a QLabel (``text()``, ``setText``, word wrap, style sheets, show/hide all as before); the icon is painted
in a left margin of its own, at the first line of text, and repainted in the theme's colours when the theme
changes. ``set_mark(None)`` removes it. The ``icon_name`` and ``tone`` properties say which icon is shown.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QLabel, QWidget

from inspector.ui.widgets.resources import ui_pixmap
from inspector.ui.widgets.theme import follow_theme
from inspector.ui.widgets.theme_colours import Tones

__all__ = ["MARK_GAP", "MarkLabel"]

MARK_GAP: Final = 5
"""Pixels between the icon and the text."""


class MarkLabel(QLabel):
    def __init__(
        self, text: str = "", mark: str | None = "warning", tone: str = "warning", parent: QWidget | None = None
    ) -> None:
        super().__init__(text, parent)
        self._pixmap: QPixmap | None = None
        self._mark: tuple[str, str] | None = None
        self._dark = False
        follow_theme(self, self._repaint_mark)
        self.set_mark(mark, tone)

    def set_mark(self, mark: str | None, tone: str = "warning") -> None:
        self._mark = (mark, tone) if mark else None
        self.setProperty("icon_name", mark or "")
        self.setProperty("tone", tone if mark else "")
        self._load()

    def _repaint_mark(self, t: Tones) -> None:
        self._dark = t.dark
        self._load()

    def _size(self) -> int:
        return max(12, min(20, self.fontMetrics().height()))

    def _load(self) -> None:
        size = self._size()
        if self._mark is None:
            self._pixmap = None
            self.setContentsMargins(0, 0, 0, 0)
        else:
            name, tone = self._mark
            self._pixmap = ui_pixmap(name, size, tone=tone, dark=self._dark, ratio=self.devicePixelRatioF())
            self.setContentsMargins(size + MARK_GAP, 0, 0, 0)
        self.update()

    def mark_rect(self) -> QRect | None:
        """Where the icon is painted (None: no icon)."""
        if self._pixmap is None:
            return None
        size = self._size()
        inner = self.contentsRect()
        line = self.fontMetrics().height()
        flags = int(self.alignment().value) | (int(Qt.TextFlag.TextWordWrap.value) if self.wordWrap() else 0)
        text_height = self.fontMetrics().boundingRect(inner, flags, self.text()).height() if self.text() else line
        top = inner.top()
        if self.alignment() & Qt.AlignmentFlag.AlignVCenter:
            top += max(0, (inner.height() - text_height) // 2)
        elif self.alignment() & Qt.AlignmentFlag.AlignBottom:
            top += max(0, inner.height() - text_height)
        x = 0
        if not self.wordWrap() and self.alignment() & (Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignHCenter):
            text_width = min(self.fontMetrics().horizontalAdvance(self.text()), inner.width())
            free = inner.width() - text_width
            start = inner.left() + (free if self.alignment() & Qt.AlignmentFlag.AlignRight else free // 2)
            x = max(0, start - MARK_GAP - size)  # right before the text, wherever the alignment puts it
        return QRect(x, top + max(0, (line - size) // 2), size, size)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        rect = self.mark_rect()
        if rect is not None and self._pixmap is not None:
            painter = QPainter(self)
            painter.drawPixmap(rect, self._pixmap)
            painter.end()
