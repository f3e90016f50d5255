"""Thin Qt adapters for the explore panels: the tool/prompt list model with its row delegate, and the argument
history model. The logic (parsing, badges, filtering, history) lives in the Qt-free ``inspector.content.catalog``
and ``inspector.store.history``; these classes only present it.

Icons are drawn from ``data:`` URIs only (nothing is fetched), decoded on first paint and cached.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
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
from inspector.content.text import format_duration
from inspector.store.history import HistoryEntry
from inspector.ui.explore.common.icons import entry_icon
from inspector.ui.widgets.resources import ui_icon, ui_pixmap
from inspector.ui.widgets.style import Tones, tones
from inspector.ui.widgets.theme import scaled_font

__all__ = ["ENTRY_ROLE", "NAME_ROLE", "CatalogDelegate", "CatalogModel", "HistoryModel", "RowLayout", "entry_icon"]

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
        if role == Qt.ItemDataRole.FontRole and entry.unavailable:
            struck = QFont()
            struck.setStrikeOut(True)
            return struck
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
    if entry.unavailable:
        lines += ["", f"Cannot be run: {entry.unavailable}"]
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


@dataclass(frozen=True, slots=True)
class RowLayout:
    """What one list row shows, and where (``CatalogDelegate.row_layout``)."""

    title: str
    """The entry's label (title, else name) as drawn; a title yields room to the name (down to ``MIN_TITLE``)."""
    title_rect: QRect
    name: str
    """The name in monospace after a title that differs from it ("" when there is no room or no need)."""
    name_rect: QRect
    badges: list[tuple[str, str, QRect]]
    """(text, kind, box) of the badges drawn on the first line, in the room the title and name leave."""
    hidden_badges: int
    """Badges that did not fit (drawn as one "+N" pill; the tooltip and the page's header list them all)."""
    description: str
    description_rect: QRect
    mark: tuple[str, str] | None = None
    """The UI icon (name, tone) drawn before the description: a problem's warning, an unavailable tool's error."""
    mark_rect: QRect | None = None


class CatalogDelegate(QStyledItemDelegate):
    """Two-line rows: icon, bold title (and the name when different), then the annotation badges in the room
    left on that line; below, the description over the full width. The name comes first (a title yields down to
    ``MIN_TITLE`` pixels), then the title, the badges last: badges that do not fit are dropped (counted in a "+N"
    pill) instead of eliding either. Every row has the same height, so long lists lay out in constant time."""

    ICON = 24
    PAD = 8
    BADGE_GAP = 4
    MIN_TITLE = 72
    """Pixels a title keeps when the name needs the rest of its line."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        metrics = QFontMetrics(option.font)
        return QSize(200, metrics.height() * 2 + self.PAD * 2 + 2)

    @staticmethod
    def badge_font(base: QFont) -> QFont:
        return scaled_font("tiny", base)

    def row_layout(self, entry: CatalogEntry, rect: QRect, base: QFont) -> RowLayout:
        """Lay out ``entry`` in a row of ``rect`` drawn in ``base`` (used by ``paint``; tests read it)."""
        left = rect.left() + self.PAD + self.ICON + self.PAD + 2
        right = rect.right() - self.PAD
        line_h = QFontMetrics(base).height()
        top = rect.top() + self.PAD
        bold = QFont(base)
        bold.setBold(True)
        bold_metrics = QFontMetrics(bold)
        room = max(0, right - left)
        label = entry.label or "(unnamed)"
        shows_name = bool(entry.title) and entry.title != entry.name
        mono = self.name_font(base)
        mono_metrics = QFontMetrics(mono)
        name_w = mono_metrics.horizontalAdvance(entry.name) if shows_name else 0
        title_room = room
        if shows_name and bold_metrics.horizontalAdvance(label) + 8 + name_w > room:
            # the name first: the title yields down to a readable stub, then the name is elided too
            title_room = max(min(bold_metrics.horizontalAdvance(label), self.MIN_TITLE), room - 8 - name_w)
        title = bold_metrics.elidedText(label, Qt.TextElideMode.ElideRight, title_room)
        used = bold_metrics.horizontalAdvance(title)
        title_rect = QRect(left, top, min(room, used + 2), line_h)
        x = left + used
        name, name_rect = "", QRect()
        if shows_name and x + 8 + 24 < right:
            name = mono_metrics.elidedText(entry.name, Qt.TextElideMode.ElideRight, right - x - 8)
            width = mono_metrics.horizontalAdvance(name)
            name_rect = QRect(x + 8, top, width + 2, line_h)
            x += 8 + width
        small_metrics = QFontMetrics(self.badge_font(base))
        box_h = small_metrics.height() + 2
        box_top = top + (line_h - box_h) // 2
        widths = [small_metrics.horizontalAdvance(b.text) + 12 for b in entry.badges]
        shown = len(widths)
        while shown:
            more = len(widths) - shown
            extra = small_metrics.horizontalAdvance(f"+{more}") + 12 + self.BADGE_GAP if more else 0
            if x + 10 + sum(widths[:shown]) + self.BADGE_GAP * (shown - 1) + extra <= right:
                break
            shown -= 1
        hidden = len(widths) - shown
        items: list[tuple[str, str, QRect]] = []
        bx = x + 10
        for badge, width in zip(entry.badges[:shown], widths[:shown], strict=True):
            items.append((badge.text, badge.kind, QRect(bx, box_top, width, box_h)))
            bx += width + self.BADGE_GAP
        if hidden:
            more_w = small_metrics.horizontalAdvance(f"+{hidden}") + 12
            if bx + more_w <= right:
                items.append((f"+{hidden}", "more", QRect(bx, box_top, more_w, box_h)))
        first_line = entry.description.strip().splitlines()[0] if entry.description.strip() else ""
        mark: tuple[str, str] | None = None
        if entry.problems and not first_line:
            first_line, mark = "; ".join(entry.problems), ("warning", "warning")
        if entry.unavailable:
            first_line, mark = entry.unavailable, ("error", "error")
        second = top + line_h + 2
        text_rect, mark_rect = QRect(left, second, room, line_h), None
        if mark is not None:  # the icon first, the text after it
            size = min(16, line_h)
            mark_rect = QRect(left, second + (line_h - size) // 2, size, size)
            text_rect = QRect(left + size + 4, second, max(0, room - size - 4), line_h)
        description = QFontMetrics(base).elidedText(
            first_line or "(no description)", Qt.TextElideMode.ElideRight, text_rect.width()
        )
        return RowLayout(title, title_rect, name, name_rect, items, hidden, description, text_rect, mark, mark_rect)

    @staticmethod
    def name_font(base: QFont) -> QFont:
        mono = scaled_font("fine", base)
        mono.setFamily("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        return mono

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
        base: QFont = opt.font
        row = self.row_layout(entry, rect, base)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        icon = entry_icon(entry, self.ICON)
        icon_rect = QRect(rect.left() + self.PAD, rect.top() + (rect.height() - self.ICON) // 2, self.ICON, self.ICON)
        if icon is not None:
            painter.drawPixmap(icon_rect, icon)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(t.badge_bg))
            painter.drawRoundedRect(icon_rect, 6, 6)
            painter.setPen(QColor(t.muted))
            letter = QFont(base)
            letter.setBold(True)
            painter.setFont(letter)
            painter.drawText(icon_rect, Qt.AlignmentFlag.AlignCenter, (entry.label[:1] or "?").upper())
        bold = QFont(base)
        bold.setBold(True)
        bold.setStrikeOut(bool(entry.unavailable))
        painter.setFont(bold)
        painter.setPen(text_color if not entry.unavailable or selected else QColor(t.muted))
        painter.drawText(row.title_rect, Qt.AlignmentFlag.AlignVCenter, row.title)
        if row.name:
            mono = self.name_font(base)
            mono.setStrikeOut(bool(entry.unavailable))
            painter.setFont(mono)
            painter.setPen(muted)
            painter.drawText(row.name_rect, Qt.AlignmentFlag.AlignVCenter, row.name)
        painter.setFont(self.badge_font(base))
        for text, kind, box in row.badges:
            fg, bg, border = _badge_colors(t, kind)
            painter.setPen(QColor(border))
            painter.setBrush(QColor(bg))
            painter.drawRoundedRect(box, 7, 7)
            painter.setPen(QColor(fg))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        plain = QFont(base)
        plain.setStrikeOut(False)  # (the FontRole strikes a dropped tool's name; its reason stays readable)
        painter.setFont(plain)
        painter.setPen(QColor(t.error_fg) if entry.unavailable and not selected else muted)
        painter.drawText(row.description_rect, Qt.AlignmentFlag.AlignVCenter, row.description)
        if row.mark is not None and row.mark_rect is not None:
            tone = "text" if selected else row.mark[1]
            pixmap = ui_pixmap(
                row.mark[0], row.mark_rect.width(), tone=tone, ratio=painter.device().devicePixelRatioF()
            )
            painter.drawPixmap(row.mark_rect, pixmap)
        painter.restore()


OUTCOME_ICONS: Final = {
    "ok": "check",
    "isError": "error",
    "cancelled": "cancelled",
    "timed out": "clock",
    "failed": "warning",
}
"""The UI icon (resources/icons/ui) of each outcome, drawn in the outcome's tone (``outcome_kind``)."""


def outcome_icon(outcome: str | None) -> tuple[str, str] | None:
    """``(icon name, tone)`` of a call's outcome (None: no outcome recorded)."""
    if outcome is None:
        return None
    name = OUTCOME_ICONS.get(outcome, "warning" if outcome.startswith("error") else "info")
    kind = outcome_kind(outcome)
    return name, "muted" if kind == "neutral" else kind


def outcome_kind(outcome: str | None) -> str:
    """The badge kind (colour) of a call's outcome: ok, error (isError, JSON-RPC error, failure), warning."""
    if outcome == "ok":
        return "ok"
    if outcome in ("isError", "failed") or (outcome or "").startswith("error"):
        return "error"
    if outcome in ("cancelled", "timed out"):
        return "warning"
    return "neutral"


def outcome_text(entry: HistoryEntry) -> str:
    """``ok · 54 ms``, ``isError · 1.2 s``, ``error -32602 · 3 ms`` (the row's icon marks the outcome,
    ``outcome_icon``); ``no outcome`` for a call that never ended (or one from a history file older than outcomes)."""
    if entry.outcome is None:
        return "no outcome recorded"
    text = entry.outcome
    return f"{text} · {format_duration(entry.duration)}" if entry.duration is not None else text


class HistoryModel(QAbstractListModel):
    """One tool's past argument sets, newest first: date and time, outcome and duration, a one-line summary."""

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
            return f"{when(entry.at, dated=True)}  ·  {outcome_text(entry)}   {entry.summary(200)}"
        if role == Qt.ItemDataRole.DecorationRole:
            icon = outcome_icon(entry.outcome)
            return ui_icon(icon[0], tone=icon[1]) if icon is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            kind = outcome_kind(entry.outcome)
            return QColor(_badge_colors(tones(), kind)[0]) if kind in ("error", "warning") else None
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [f"{when(entry.at, full=True)} · {outcome_text(entry)}", entry.summary(2000)]
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


def when(at: float, *, full: bool = False, dated: bool = False) -> str:
    """``12:01:03`` today, ``Mar 4 12:01`` before (full: ISO date and time; dated: ``Mar 04 12:01:03`` always)."""
    moment = datetime.datetime.fromtimestamp(at)
    if full:
        return moment.strftime("%Y-%m-%d %H:%M:%S")
    if dated:
        return moment.strftime("%b %d %H:%M:%S")
    if moment.date() == datetime.date.today():
        return moment.strftime("%H:%M:%S")
    return moment.strftime("%b %d %H:%M")
