"""The Subscriptions view: a table over a ``SubscriptionBook`` (URI, state, update count, last update) with
Show and Unsubscribe actions. The model is a thin adapter: the book tells it about every change."""

from __future__ import annotations

import time
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.plural import plural
from inspector.content.subscriptions import Subscription, SubscriptionBook, SubscriptionState
from inspector.ui.widgets.style import section_label, tones

__all__ = ["SubscriptionColumn", "SubscriptionsModel", "SubscriptionsView", "UriRole"]

UriRole: Final = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex


class SubscriptionColumn(IntEnum):
    URI = 0
    STATE = 1
    UPDATES = 2
    LAST_UPDATE = 3


_HEADERS: Final = {
    SubscriptionColumn.URI: ("URI", "The subscribed resource"),
    SubscriptionColumn.STATE: ("State", "active, subscribing, failed, or stale (lost with the previous connection)"),
    SubscriptionColumn.UPDATES: ("Updates", "notifications/resources/updated received"),
    SubscriptionColumn.LAST_UPDATE: ("Last update", "Local time of the last notification"),
}
_STATE_LABELS: Final = {
    SubscriptionState.SUBSCRIBING: "subscribing…",
    SubscriptionState.ACTIVE: "active",
    SubscriptionState.FAILED: "failed",
    SubscriptionState.STALE: "stale",
    SubscriptionState.UNSUBSCRIBING: "unsubscribing…",
}


def _clock(at: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) if at is not None else "—"


class SubscriptionsModel(QAbstractTableModel):
    def __init__(self, book: SubscriptionBook, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = book
        t = tones(None)
        self._state_colours = {
            SubscriptionState.ACTIVE: QColor(t.ok_fg),
            SubscriptionState.FAILED: QColor(t.error_fg),
            SubscriptionState.STALE: QColor(t.muted),
            SubscriptionState.SUBSCRIBING: QColor(t.warning_fg),
            SubscriptionState.UNSUBSCRIBING: QColor(t.muted),
        }
        book.add_listener(self)

    # --- BookListener ---------------------------------------------------------------------------------------

    def inserting(self, index: int) -> None:
        self.beginInsertRows(QModelIndex(), index, index)

    def inserted(self, index: int) -> None:
        self.endInsertRows()

    def removing(self, index: int) -> None:
        self.beginRemoveRows(QModelIndex(), index, index)

    def removed(self, index: int) -> None:
        self.endRemoveRows()

    def changed(self, index: int) -> None:
        self.dataChanged.emit(self.index(index, 0), self.index(index, len(SubscriptionColumn) - 1))

    # --- model ----------------------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.book)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(SubscriptionColumn)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(SubscriptionColumn):
            return None
        title, tip = _HEADERS[SubscriptionColumn(section)]
        if role == Qt.ItemDataRole.DisplayRole:
            return title
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self.book):
            return None
        if not 0 <= index.column() < len(SubscriptionColumn):
            return None
        sub = self.book.at(index.row())
        column = SubscriptionColumn(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(sub, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(sub)
        if role == Qt.ItemDataRole.ForegroundRole and column is SubscriptionColumn.STATE:
            return self._state_colours.get(sub.state)
        if role == Qt.ItemDataRole.TextAlignmentRole and column is SubscriptionColumn.UPDATES:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == UriRole:
            return sub.uri
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    @staticmethod
    def _display(sub: Subscription, column: SubscriptionColumn) -> str:
        if column is SubscriptionColumn.URI:
            return sub.uri
        if column is SubscriptionColumn.STATE:
            return _STATE_LABELS[sub.state]
        if column is SubscriptionColumn.UPDATES:
            return str(sub.update_count)
        return _clock(sub.last_update)

    @staticmethod
    def _tooltip(sub: Subscription) -> str:
        lines = [sub.uri, f"state: {_STATE_LABELS[sub.state]}"]
        if sub.subscribed_at is not None:
            lines.append(f"subscribed at {_clock(sub.subscribed_at)}")
        lines.append(f"{plural(sub.update_count, 'update')}, re-read {plural(sub.read_count, 'time')}")
        if sub.error:
            lines.append(f"error: {sub.error}")
        return "\n".join(lines)


class SubscriptionsView(QWidget):
    showRequested = Signal(str)
    """Show the latest content of this subscribed URI (double-click or Show)."""
    unsubscribeRequested = Signal(str)

    def __init__(self, book: SubscriptionBook, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self.model = SubscriptionsModel(book, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        header = QHBoxLayout()
        self.title_label = section_label("SUBSCRIPTIONS", self)
        header.addWidget(self.title_label)
        header.addStretch(1)
        self.show_button = QPushButton("Show", self)
        self.show_button.setToolTip("Show the latest content of the selected subscription")
        self.unsubscribe_button = QPushButton("Unsubscribe", self)
        self.unsubscribe_button.setToolTip("Send resources/unsubscribe for the selected URI")
        header.addWidget(self.show_button)
        header.addWidget(self.unsubscribe_button)
        layout.addLayout(header)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(SubscriptionColumn.URI, QHeaderView.ResizeMode.Stretch)
        for column in (SubscriptionColumn.STATE, SubscriptionColumn.UPDATES, SubscriptionColumn.LAST_UPDATE):
            h.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 1)
        self.empty_label = QLabel("No subscriptions. Select a resource and click Subscribe.", self)
        self.empty_label.setStyleSheet(f"color: {tones(self).muted}; font-size: 11px;")
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)

        self.table.doubleClicked.connect(lambda index: self.showRequested.emit(str(index.data(UriRole))))
        self.show_button.clicked.connect(self._show_selected)
        self.unsubscribe_button.clicked.connect(self._unsubscribe_selected)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.model.rowsInserted.connect(lambda *_: self._update_buttons())
        self.model.rowsRemoved.connect(lambda *_: self._update_buttons())
        self._update_buttons()

    def selected_uri(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return str(rows[0].data(UriRole)) if rows else None

    def select(self, uri: str) -> None:
        row = self.book.index_of(uri)
        if row >= 0:
            self.table.selectRow(row)

    def _show_selected(self) -> None:
        uri = self.selected_uri()
        if uri is not None:
            self.showRequested.emit(uri)

    def _unsubscribe_selected(self) -> None:
        uri = self.selected_uri()
        if uri is not None:
            self.unsubscribeRequested.emit(uri)

    def _update_buttons(self) -> None:
        count = len(self.book)
        self.title_label.setText(f"SUBSCRIPTIONS ({count})" if count else "SUBSCRIPTIONS")
        self.empty_label.setVisible(count == 0)
        selected = self.selected_uri() is not None
        self.show_button.setEnabled(selected)
        self.unsubscribe_button.setEnabled(selected)
