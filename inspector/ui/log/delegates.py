"""Painting helpers for the log table: the diagnostics badge."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from inspector.ui.log.model import SeverityRole
from inspector.ui.log.palette import severity_colour

__all__ = ["BadgeDelegate"]


class BadgeDelegate(QStyledItemDelegate):
    """Draws the diagnostics count as a rounded pill coloured by the worst severity."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not text:
            super().paint(painter, option, index)
            return
        # background and selection as usual, without the text
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # type: ignore[attr-defined]
        style = opt.widget.style() if opt.widget is not None else None  # type: ignore[attr-defined]
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)  # type: ignore[attr-defined]
        colour = severity_colour(index.data(SeverityRole))
        metrics = option.fontMetrics  # type: ignore[attr-defined]
        rect = option.rect  # type: ignore[attr-defined]
        width = max(metrics.horizontalAdvance(str(text)) + 12, rect.height() - 6)
        height = rect.height() - 6
        pill = QRectF(rect.center().x() - width / 2 + 0.5, rect.top() + 3.5, width, height)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setPen(QColor("white"))
        font = painter.font()
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, str(text))
        painter.restore()
