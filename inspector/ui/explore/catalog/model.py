"""Thin Qt adapters for the explore panels: the tool/prompt list model with its row delegate, and the argument
history model. The logic (parsing, badges, filtering, history) lives in the Qt-free ``inspector.content.catalog``
and ``inspector.store.history``; these classes only present it.

Icons are drawn from ``data:`` URIs only (nothing is fetched), decoded on first paint and cached.
"""

from __future__ import annotations

import datetime
from typing import Any, Final

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from inspector.content.catalog import CatalogEntry, describe_hints, filter_entries
from inspector.store.history import HistoryEntry
from inspector.ui.explore.common.icons import entry_icon
from inspector.ui.widgets.style import Tones, tones

__all__ = ["ENTRY_ROLE", "NAME_ROLE", "CatalogDelegate", "CatalogModel", "HistoryModel", "entry_icon"]

ENTRY_ROLE: Final = Qt.ItemDataRole.UserRole + 1
NAME_ROLE: Final = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


class CatalogModel(QAbstractListModel):
    """The visible (filtered) entries of a tool or prompt list."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[CatalogEntry] = []
        self._visible: list[int] = []
        self._filter = ""

    # -- plain state in ----------------------------------------------------------------------------------

    def set_entries(self, entries: list[CatalogEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self._visible = filter_entries(self._entries, self._filter)
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        if text == self._filter:
            return
        self.beginResetModel()
        self._filter = text
        self._visible = filter_entries(self._entries, text)
        self.endResetModel()

    # -- reading -----------------------------------------------------------------------------------------

    @property
    def filter_text(self) -> str:
        return self._filter

    def entries(self) -> list[CatalogEntry]:
        return list(self._entries)

    def total(self) -> int:
        return len(self._entries)

    def entry(self, row: int) -> CatalogEntry | None:
        return self._entries[self._visible[row]] if 0 <= row < len(self._visible) else None

    def find(self, name: str) -> CatalogEntry | None:
        return next((e for e in self._entries if e.name == name), None)

    def row_of(self, name: str) -> int:
        """The visible row of the entry called ``name`` (-1 when filtered out or absent)."""
        for row, i in enumerate(self._visible):
            if self._entries[i].name == name:
                return row
        return -1

    # -- Qt ----------------------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._visible)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.model() is not self:
            return None
        entry = self.entry(index.row())
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.label
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(entry)
        if role == Qt.ItemDataRole.DecorationRole:
            return entry_icon(entry, 24)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{entry.label}: {entry.description}" if entry.description else entry.label
        if role == ENTRY_ROLE:
            return entry
        if role == NAME_ROLE:
            return entry.name
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


def _tooltip(entry: CatalogEntry) -> str:
    lines = [entry.label if entry.label == entry.name else f"{entry.label}  ({entry.name})"]
    if entry.description:
        lines += ["", entry.description[:600] + ("…" if len(entry.description) > 600 else "")]
    if entry.kind == "tool":
        lines += ["", describe_hints(entry.raw.get("annotations"))]
    if entry.problems:
        lines += ["", "Problems: " + "; ".join(entry.problems)]
    return "\n".join(lines)


def _badge_colors(t: Tones, kind: str) -> tuple[str, str, str]:
    return {
        "error": (t.error_fg, t.error_bg, t.error_border),
        "warning": (t.warning_fg, t.warning_bg, t.warning_border),
        "ok": (t.ok_fg, t.ok_bg, t.ok_border),
        "info": (t.info_fg, t.info_bg, t.info_border),
    }.get(kind, (t.muted, t.badge_bg, t.card_border))


class CatalogDelegate(QStyledItemDelegate):
    """Two-line rows: icon, bold title (and the name when different); below, the description elided before the
    badges. Every row has the same height, so long lists lay out in constant time."""

    ICON = 24
    PAD = 8

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        metrics = QFontMetrics(option.font)
        return QSize(200, metrics.height() * 2 + self.PAD * 2 + 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        entry = index.data(ENTRY_ROLE)
        if not isinstance(entry, CatalogEntry):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        opt.icon = QIcon()
        widget: QWidget | None = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = opt.rect
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        t = tones()
        palette: QPalette = opt.palette
        text_color = palette.color(QPalette.ColorRole.HighlightedText) if selected else QColor(t.text)
        muted = text_color if selected else QColor(t.muted)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        left = rect.left() + self.PAD
        icon = entry_icon(entry, self.ICON)
        icon_rect = QRect(left, rect.top() + (rect.height() - self.ICON) // 2, self.ICON, self.ICON)
        if icon is not None:
            painter.drawPixmap(icon_rect, icon)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(t.badge_bg))
            painter.drawRoundedRect(icon_rect, 6, 6)
            painter.setPen(QColor(t.muted))
            letter = QFont(opt.font)
            letter.setBold(True)
            painter.setFont(letter)
            painter.drawText(icon_rect, Qt.AlignmentFlag.AlignCenter, (entry.label[:1] or "?").upper())
        left = icon_rect.right() + self.PAD + 2
        right = rect.right() - self.PAD
        base: QFont = opt.font
        line_h = QFontMetrics(base).height()
        top = rect.top() + self.PAD
        bold = QFont(base)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(text_color)
        bold_metrics = QFontMetrics(bold)
        title = bold_metrics.elidedText(entry.label or "(unnamed)", Qt.TextElideMode.ElideRight, max(0, right - left))
        painter.drawText(QRect(left, top, right - left, line_h), Qt.AlignmentFlag.AlignVCenter, title)
        used = bold_metrics.horizontalAdvance(title)
        if entry.title and entry.title != entry.name and left + used + 40 < right:
            mono = QFont(base)
            mono.setFamily("monospace")
            mono.setStyleHint(QFont.StyleHint.Monospace)
            mono.setPointSizeF(max(6.0, base.pointSizeF() - 1))
            painter.setFont(mono)
            painter.setPen(muted)
            name_left = left + used + 8
            name = QFontMetrics(mono).elidedText(entry.name, Qt.TextElideMode.ElideRight, right - name_left)
            painter.drawText(QRect(name_left, top, right - name_left, line_h), Qt.AlignmentFlag.AlignVCenter, name)
        second = top + line_h + 2
        desc_right = self._paint_badges(painter, entry, base, left, right, second, line_h, t)
        painter.setFont(base)
        painter.setPen(muted)
        first_line = entry.description.strip().splitlines()[0] if entry.description.strip() else ""
        if entry.problems and not first_line:
            first_line = "⚠ " + "; ".join(entry.problems)
        width = max(0, desc_right - left)
        desc = QFontMetrics(base).elidedText(first_line or "(no description)", Qt.TextElideMode.ElideRight, width)
        painter.drawText(QRect(left, second, width, line_h), Qt.AlignmentFlag.AlignVCenter, desc)
        painter.restore()

    @staticmethod
    def _paint_badges(
        painter: QPainter, entry: CatalogEntry, base: QFont, left: int, right: int, top: int, line_h: int, t: Tones
    ) -> int:
        """Draw the badges right-aligned on the second line, in at most half of the row's width; returns the x
        where the description must stop."""
        small = QFont(base)
        small.setPointSizeF(max(6.0, base.pointSizeF() - 2))
        metrics = QFontMetrics(small)
        painter.setFont(small)
        limit = right - (right - left) // 2
        x = right
        for badge in reversed(entry.badges):
            width = metrics.horizontalAdvance(badge.text) + 12
            if x - width < limit:
                break
            box = QRect(x - width, top + (line_h - metrics.height() - 2) // 2, width, metrics.height() + 2)
            fg, bg, border = _badge_colors(t, badge.kind)
            painter.setPen(QColor(border))
            painter.setBrush(QColor(bg))
            painter.drawRoundedRect(box, 7, 7)
            painter.setPen(QColor(fg))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, badge.text)
            x -= width + 4
        return x - 6 if x != right else right


class HistoryModel(QAbstractListModel):
    """One tool's past argument sets, newest first: time and a one-line summary."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[HistoryEntry] = []

    def set_entries(self, entries: list[HistoryEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self.endResetModel()

    def entry(self, row: int) -> HistoryEntry | None:
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.model() is not self:
            return None
        entry = self.entry(index.row())
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{when(entry.at)}   {entry.summary(200)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [when(entry.at, full=True), entry.summary(2000)]
            if entry.omitted:
                lines.append("Not kept (sensitive): " + ", ".join(entry.omitted))
            if not entry.persisted:
                lines.append("Too large to save: kept for this session only")
            return "\n".join(lines)
        if role == ENTRY_ROLE:
            return entry
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


def when(at: float, *, full: bool = False) -> str:
    """``12:01:03`` today, ``Mar 4 12:01`` before (full: ISO date and time)."""
    moment = datetime.datetime.fromtimestamp(at)
    if full:
        return moment.strftime("%Y-%m-%d %H:%M:%S")
    if moment.date() == datetime.date.today():
        return moment.strftime("%H:%M:%S")
    return moment.strftime("%b %d %H:%M")
