"""Painting the log table: every cell drawn directly, and the diagnostics badge.

Qt's own item painting asks the model for seven roles per cell and lays the text out through the style;
with the table following a flood's tail every update repaints every visible cell, and that path was most of
the window's busiest moments. ``CellDelegate`` asks the model once per cell (``LogTableModel.paint_cell``)
and draws the item's background (selection, the partner tint; the table paints alternate rows) and the elided
text itself.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from inspector.ui.log.model import LogTableModel, SeverityRole
from inspector.ui.log.palette import severity_colour
from inspector.ui.widgets.style import tones

__all__ = ["BadgeDelegate", "CellDelegate"]

_Index = QModelIndex | QPersistentModelIndex
# Plain ints: Python's enum operators would cost more than the drawing.
_SELECTED = QStyle.StateFlag.State_Selected.value
_ACTIVE = QStyle.StateFlag.State_Active.value
_ELIDE = Qt.TextElideMode.ElideRight
_ACTIVE_GROUP = QPalette.ColorGroup.Active
_INACTIVE_GROUP = QPalette.ColorGroup.Inactive
_HIGHLIGHT = QPalette.ColorRole.Highlight
_HIGHLIGHTED_TEXT = QPalette.ColorRole.HighlightedText
_TEXT = QPalette.ColorRole.Text


class CellDelegate(QStyledItemDelegate):
    """Draws a log table cell in one pass: its background, then its text in its colour, font and alignment."""

    def __init__(self, model: LogTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        style = parent.style() if parent is not None else None
        self._margin = (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) if style is not None else 2) + 1

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        cell = self._model.paint_cell(index.row(), index.column())
        if cell is None:
            super().paint(painter, option, index)
            return
        text, foreground, font, alignment, background = cell
        rect = option.rect  # type: ignore[attr-defined]
        state = option.state.value  # type: ignore[attr-defined]
        palette = option.palette  # type: ignore[attr-defined]
        group = _ACTIVE_GROUP if state & _ACTIVE else _INACTIVE_GROUP
        selected = state & _SELECTED
        if selected:
            painter.fillRect(rect, palette.brush(group, _HIGHLIGHT))
        elif background is not None:
            painter.fillRect(rect, background)
        # (alternate rows are painted by the table itself, before its delegates)
        if not text:
            return
        painter.save()
        if font is not None:
            painter.setFont(font)
        if selected:
            painter.setPen(palette.color(group, _HIGHLIGHTED_TEXT))
        else:
            painter.setPen(foreground if foreground is not None else palette.color(group, _TEXT))
        box = rect.adjusted(self._margin, 0, -self._margin, 0)
        painter.drawText(box, alignment, painter.fontMetrics().elidedText(text, _ELIDE, box.width()))
        painter.restore()


class BadgeDelegate(CellDelegate):
    """Draws the diagnostics count as a rounded pill coloured by the worst severity."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
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
        painter.setPen(QColor(tones().on_state))
        font = painter.font()
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, str(text))
        painter.restore()
