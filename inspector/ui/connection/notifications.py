"""Every notification the server sent on one connection: time, method, payload; counts per method; a filter.

``NotificationLog`` is the plain-Python state (Qt-free); ``NotificationModel`` is a thin table adapter over it
that only knows which log rows pass the filter; ``NotificationsView`` puts a per-method list (with counts, it
is also the method filter), a search box, the table and the selected notification's pretty payload together.
Arrivals are coalesced by a single-shot timer, so a flood costs one view update per tick.
"""

from __future__ import annotations

import time
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.notifications import STANDARD, NotificationEntry, NotificationLog
from inspector.protocol.events import NotificationReceived
from inspector.ui.widgets.theme import follow_font, themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = ["NotificationModel", "NotificationsView"]

_Index = QModelIndex | QPersistentModelIndex


class NotificationModel(QAbstractTableModel):
    """Time / Method / Payload rows of the log entries that pass the filter."""

    HEADERS: Final = ("Time", "Method", "Payload")

    def __init__(self, log: NotificationLog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log = log
        self.method: str | None = None
        self.text = ""
        self._rows: list[int] = []
        self._seen = 0
        self._italic = QFont()
        self._italic.setItalic(True)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return None

    def entry(self, row: int) -> NotificationEntry | None:
        return self.log.entries[self._rows[row]] if 0 <= row < len(self._rows) else None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self.entry(index.row())
        if entry is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return time.strftime("%H:%M:%S", time.localtime(entry.wall)) + f".{int(entry.wall * 1000) % 1000:03d}"
            if col == 1:
                return entry.method
            return entry.summary()
        if role == Qt.ItemDataRole.ToolTipRole and col == 1:
            return entry.method if entry.standard else f"{entry.method} (not defined by the MCP specification)"
        if role == Qt.ItemDataRole.FontRole and col == 1 and not entry.standard:
            return self._italic
        if role == Qt.ItemDataRole.ToolTipRole and entry.diagnostics:
            return "\n".join(str(d) for d in entry.diagnostics)
        return None

    def set_filter(self, method: str | None, text: str) -> None:
        self.beginResetModel()
        self.method, self.text = method, text
        self._rows = self.log.matching(method, text)
        self._seen = len(self.log)
        self.endResetModel()

    def refresh(self) -> None:
        """Show entries appended since the last refresh (or start over when the log was cleared)."""
        if len(self.log) < self._seen:
            self.set_filter(self.method, self.text)
            return
        new = self.log.matching(self.method, self.text, self._seen)
        self._seen = len(self.log)
        if new:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
            self._rows.extend(new)
            self.endInsertRows()


class NotificationsView(QWidget):
    """Test handles: ``methods`` (list: "All" then one row per method, with counts), ``search``, ``table``,
    ``detail``, ``clear_button``. ``add(event)`` takes a ``NotificationReceived``."""

    COALESCE_MS = 100
    ALL = "All notifications"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log = NotificationLog()
        self.model = NotificationModel(self.log, self)
        self.methods = QListWidget(self)
        self.methods.setAccessibleName("Notification methods")
        self.methods.setMinimumWidth(240)
        self.methods.setSpacing(1)
        self.search = QLineEdit(self)
        self.search.setAccessibleName("Search notifications")
        self.search.setPlaceholderText("Filter by method or payload text…")
        self.search.setClearButtonEnabled(True)
        self.clear_button = QPushButton("Clear", self)
        self.count_label = QLabel(self)
        themed_style(self.count_label, lambda t: f"color: {t.muted};")
        self.table = QTableView(self)
        self.table.setAccessibleName("Notifications")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 100)
        self.table.setColumnWidth(1, 280)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.detail = QPlainTextEdit(self)
        self.detail.setAccessibleName("Notification detail")
        self.detail.setReadOnly(True)
        follow_font(self.detail, "mono")
        self.detail.setPlaceholderText("Select a notification to see its payload")

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.count_label)
        top.addWidget(self.clear_button)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.table)
        right.addWidget(self.detail)
        right.setSizes([320, 180])
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.methods)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([290, 710])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

        self._timer = coalescer(self, self.COALESCE_MS, self.flush)
        self.methods.currentItemChanged.connect(lambda *_: self._apply_filter())
        self.search.textChanged.connect(lambda _text: self._apply_filter())
        self.clear_button.clicked.connect(self.clear)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _prev: self._show(current.row()))
        self._rebuild_methods()

    def add(self, event: object) -> None:
        if isinstance(event, NotificationReceived):
            self.log.append(event.method, event.params, event.diagnostics)
            if not self._timer.isActive():
                self._timer.start()

    def flush(self) -> None:
        """Show what arrived (the timer calls this; tests may too)."""
        self._timer.stop()
        self.model.refresh()
        self._rebuild_methods()

    def clear(self) -> None:
        self.log.clear()
        self.detail.clear()
        self.flush()

    def selected_method(self) -> str | None:
        item = self.methods.currentItem()
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return value if isinstance(value, str) else None

    def select_method(self, method: str | None) -> None:
        for row in range(self.methods.count()):
            item = self.methods.item(row)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == method:
                self.methods.setCurrentItem(item)
                return

    def counts(self) -> dict[str, int]:
        return dict(self.log.counts)

    def _rebuild_methods(self) -> None:
        selected = self.selected_method()
        self.methods.blockSignals(True)
        self.methods.clear()
        all_item = QListWidgetItem(f"{self.ALL}  ({len(self.log)})")
        all_item.setData(Qt.ItemDataRole.UserRole, None)
        self.methods.addItem(all_item)
        current = all_item
        for method, count in sorted(self.log.counts.items()):
            item = QListWidgetItem(f"{method}  ({count})")
            item.setData(Qt.ItemDataRole.UserRole, method)
            if method not in STANDARD:
                font = item.font()
                font.setItalic(True)
                item.setFont(font)
                item.setToolTip("Not a notification the MCP specification defines")
            self.methods.addItem(item)
            if method == selected:
                current = item
        self.methods.setCurrentItem(current)
        self.methods.blockSignals(False)
        self._update_count()

    def _apply_filter(self) -> None:
        self.model.set_filter(self.selected_method(), self.search.text())
        self.detail.clear()
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), len(self.log)
        self.count_label.setText(
            f"{total} notification{'s' if total != 1 else ''}" if shown == total else f"{shown} of {total}"
        )

    def _show(self, row: int) -> None:
        entry = self.model.entry(row)
        self.detail.setPlainText(entry.pretty() if entry is not None else "")
