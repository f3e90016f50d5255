"""The server log: ``notifications/message`` entries in a virtual table (time, coloured level, logger, data) with a
minimum-level filter, search, Clear, Follow, and a detail pane showing the data pretty-printed.

``ServerLogModel.append`` only queues; a single-shot timer moves the queue into the model once per tick with
one ``beginInsertRows``, so a flood of 100,000 messages costs the view a few dozen updates. Filtered rows are a
compact ``array`` of entry indexes; entries themselves are the Qt-free ``LogEntry`` records.
"""

from __future__ import annotations

import time
from array import array
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.utilities import LogEntry, LogFilter, matching_rows
from inspector.protocol.methods import LOG_LEVELS
from inspector.ui.viewers import JsonView, TextView
from inspector.ui.viewers.text_view import TextMode
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.resources import ui_icon
from inspector.ui.widgets.style import DARK, LIGHT, clear_layout, hbox, is_dark, monospace_font, section_label
from inspector.ui.widgets.theme import small_font_size, theme_manager, themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = ["EntryRole", "LogColumn", "ServerLogModel", "ServerLogView", "level_colour"]

EntryRole: Final = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex
COALESCE_MS: Final = 50


def level_colour(rank: int, dark: bool = False) -> str:
    """The colour of a level rank (``level_rank``); an orange warning colour for non-standard levels."""
    levels = (DARK if dark else LIGHT).log_levels  # one per level, then the non-standard levels' colour
    return levels[rank] if 0 <= rank < len(LOG_LEVELS) else levels[len(LOG_LEVELS)]


class LogColumn(IntEnum):
    TIME = 0
    LEVEL = 1
    LOGGER = 2
    DATA = 3


_HEADERS: Final = ("Time", "Level", "Logger", "Data")


class ServerLogModel(QAbstractTableModel):
    countsChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: list[LogEntry] = []
        self._rows: array[int] = array("q")
        self._filter = LogFilter()
        self._pending: list[LogEntry] = []
        self._seq = 0
        self._timer = coalescer(self, COALESCE_MS, self.flush)
        self._level_colours: list[QColor] = []
        self._unknown_colour = QColor()
        self._retheme()
        theme_manager().changed.connect(self._retheme)
        self._mono = monospace_font()
        self._bold = QFont()
        self._bold.setBold(True)

    # --- feeding --------------------------------------------------------------------------------------------

    def _retheme(self) -> None:
        self._mono = monospace_font()
        dark = is_dark()
        self._level_colours = [QColor(level_colour(rank, dark)) for rank in range(len(LOG_LEVELS))]
        self._unknown_colour = QColor(level_colour(-1, dark))

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def append(self, entry: LogEntry) -> None:
        """Queue an entry; it shows at the next tick (``flush``)."""
        self._pending.append(entry)
        if not self._timer.isActive():
            self._timer.start()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def flush(self) -> None:
        self._timer.stop()
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        start = len(self.entries)
        self.entries.extend(batch)
        new_rows = matching_rows(self.entries, self._filter, start)
        if new_rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new_rows) - 1)
            self._rows.extend(new_rows)
            self.endInsertRows()
        self.countsChanged.emit()

    def clear(self) -> None:
        self._timer.stop()
        self.beginResetModel()
        self.entries.clear()
        self._pending.clear()
        self._rows = array("q")
        self.endResetModel()
        self.countsChanged.emit()

    def set_filter(self, log_filter: LogFilter) -> None:
        self.flush()
        self.beginResetModel()
        self._filter = log_filter
        self._rows = array("q", matching_rows(self.entries, log_filter))
        self.endResetModel()
        self.countsChanged.emit()

    @property
    def log_filter(self) -> LogFilter:
        return self._filter

    def entry_at(self, row: int) -> LogEntry | None:
        return self.entries[self._rows[row]] if 0 <= row < len(self._rows) else None

    # --- model ----------------------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(LogColumn)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _HEADERS[section] if 0 <= section < len(_HEADERS) else None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid():
            return None
        row, column = index.row(), index.column()
        if not 0 <= row < len(self._rows) or not 0 <= column < len(LogColumn):
            return None
        entry = self.entries[self._rows[row]]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == LogColumn.TIME:
                return time.strftime("%H:%M:%S", time.localtime(entry.time)) + f".{int(entry.time * 1000) % 1000:03d}"
            if column == LogColumn.LEVEL:
                return entry.level
            if column == LogColumn.LOGGER:
                return entry.logger or ""
            return entry.text[:300]
        if role == Qt.ItemDataRole.DecorationRole and column == LogColumn.LEVEL and entry.problem:
            return ui_icon("warning", tone="warning")  # the entry broke the protocol (the tooltip says how)
        if role == Qt.ItemDataRole.ForegroundRole and column == LogColumn.LEVEL:
            return (
                self._level_colours[entry.rank] if 0 <= entry.rank < len(self._level_colours) else self._unknown_colour
            )
        if role == Qt.ItemDataRole.FontRole:
            if column == LogColumn.LEVEL and entry.rank >= LOG_LEVELS.index("error"):
                return self._bold
            if column in (LogColumn.TIME, LogColumn.DATA):
                return self._mono
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = entry.text[:500]
            return f"{tip}\nProblem: {entry.problem}" if entry.problem else tip
        if role == EntryRole:
            return entry
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class ServerLogView(QWidget):
    """Toolbar (level, search, Follow, Clear, counts), the table, and the selected entry's detail."""

    SEARCH_DEBOUNCE_MS: Final = 200

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ServerLogModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        bar = hbox(spacing=6)
        bar.addWidget(section_label("SERVER LOG", self))
        bar.addSpacing(8)
        bar.addWidget(QLabel("Level ≥", self))
        self.level_filter = QComboBox(self)
        self.level_filter.setAccessibleName("Show levels from")
        self.level_filter.addItem("all", 0)
        for rank, level in enumerate(LOG_LEVELS):
            if rank:
                self.level_filter.addItem(level, rank)
        self.level_filter.setToolTip("Show entries at or above this level (non-standard levels are always shown)")
        bar.addWidget(self.level_filter)
        self.search = QLineEdit(self)
        self.search.setAccessibleName("Search the server's log")
        self.search.setPlaceholderText("Search logger and data")
        self.search.setClearButtonEnabled(True)
        bar.addWidget(self.search, 1)
        self.follow = QCheckBox("Follow", self)
        self.follow.setChecked(True)
        self.follow.setToolTip("Keep the newest entry in view")
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Forget every entry shown here (the traffic log keeps the messages)")
        self.count_label = QLabel(self)
        themed_style(self.count_label, lambda t: f"color: {t.muted};")
        bar.addWidget(self.follow)
        bar.addWidget(self.clear_button)
        bar.addWidget(self.count_label)
        layout.addLayout(bar)
        self.note_label = QLabel(self)
        self.note_label.setWordWrap(True)
        themed_style(self.note_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.note_label.hide()
        layout.addWidget(self.note_label)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.table = QTableView(self.splitter)
        self.table.setAccessibleName("Server log messages")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        vh = self.table.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        hh.resizeSection(LogColumn.TIME, self.fontMetrics().horizontalAdvance("00:00:00.000") + 36)
        widest = max(LOG_LEVELS, key=len)
        hh.resizeSection(LogColumn.LEVEL, self.fontMetrics().horizontalAdvance(widest) + 40)  # and the icon
        hh.resizeSection(LogColumn.LOGGER, 170)
        self.detail = QWidget(self.splitter)
        self._detail_layout = QVBoxLayout(self.detail)
        self._detail_layout.setContentsMargins(0, 4, 0, 0)
        self.detail_viewer: QWidget | None = None
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([360, 240])
        layout.addWidget(self.splitter, 1)
        self._show_detail(None)

        self._search_timer = coalescer(self, self.SEARCH_DEBOUNCE_MS, self.apply_filter)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.level_filter.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.clear_button.clicked.connect(self.clear)
        self.model.countsChanged.connect(self._on_counts)
        self.model.rowsInserted.connect(lambda *_: self._follow())
        self.table.selectionModel().currentRowChanged.connect(lambda current, _p: self._on_current(current))
        self._on_counts()

    # --- public API -----------------------------------------------------------------------------------------

    def add(self, entry: LogEntry) -> None:
        self.model.append(entry)

    def set_min_level(self, level: str) -> None:
        index = self.level_filter.findText(level if level != "debug" else "all")
        if index >= 0:
            self.level_filter.setCurrentIndex(index)

    def apply_filter(self) -> None:
        self._search_timer.stop()
        rank = self.level_filter.currentData()
        self.model.set_filter(LogFilter(int(rank) if rank is not None else 0, self.search.text().strip()))
        self._show_detail(None)

    def clear(self) -> None:
        self.model.clear()
        self._show_detail(None)

    def set_note(self, text: str) -> None:
        self.note_label.setText(text)
        self.note_label.setVisible(bool(text))

    def shown_levels(self) -> list[str]:
        return [entry.level for row in range(self.model.rowCount()) if (entry := self.model.entry_at(row))]

    # --- internals ------------------------------------------------------------------------------------------

    def _on_counts(self) -> None:
        total, shown = len(self.model.entries), self.model.rowCount()
        text = f"{total:,} entries" if shown == total else f"{shown:,} of {total:,} shown"
        self.count_label.setText(text)

    def _follow(self) -> None:
        if self.follow.isChecked():
            self.table.scrollToBottom()

    def _on_current(self, index: QModelIndex) -> None:
        self._show_detail(self.model.entry_at(index.row()) if index.isValid() else None)

    def _show_detail(self, entry: LogEntry | None) -> None:
        clear_layout(self._detail_layout)
        self.detail_viewer = None
        if entry is None:
            hint = QLabel("Select an entry to see its data.", self.detail)
            themed_style(hint, lambda t: f"color: {t.muted};")
            hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._detail_layout.addWidget(hint, 1)
            return
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.time))
        colour = level_colour(entry.rank, is_dark(self))
        header = QLabel(
            f"<b style='color:{colour}'>{entry.level}</b> · {entry.logger or 'no logger'} · {stamp} · #{entry.seq}",
            self.detail,
        )
        header.setTextFormat(Qt.TextFormat.RichText)
        self._detail_layout.addWidget(header)
        notes = [entry.problem] if entry.problem else []
        if entry.truncated:
            notes.append("The data was too large to keep here and is cut; the traffic log has the whole message.")
        for note in notes:
            label = MarkLabel(note, parent=self.detail)
            label.setWordWrap(True)
            themed_style(label, lambda t: f"color: {t.warning_fg}; font-size: {small_font_size()};")
            self._detail_layout.addWidget(label)
        viewer: QWidget
        if isinstance(entry.data, str):
            viewer = TextView(entry.data, modes=(TextMode.PLAIN, TextMode.JSON), fit=False, parent=self.detail)
        else:
            viewer = JsonView(entry.data, mode=TextMode.JSON, fit=False, parent=self.detail)
        self._detail_layout.addWidget(viewer, 1)
        self.detail_viewer = viewer
