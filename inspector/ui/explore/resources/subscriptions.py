"""The Subscriptions view: a table over a ``SubscriptionBook`` (URI, state, update count, last update) with
Show and Unsubscribe actions. The model is a thin adapter: the book tells it about every change.

Its "Listen stream" tab (:class:`ListenView`, 2026-07-28) shows the connection's ``subscriptions/listen``
streams — the one for list changes and the one resource subscriptions ride on — with their state (connecting,
open, re-listening after a drop, closed with the reason), and what each asked for against what the server
acknowledged, item by item, a difference highlighted; "Re-listen" opens them again."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection
from inspector.client.listen import FilterItem, Listening, ListenState, filter_items
from inspector.client.listen import Subscription as ListenSubscription
from inspector.content.plural import plural
from inspector.content.subscriptions import Subscription, SubscriptionBook, SubscriptionState
from inspector.protocol.versions import Era
from inspector.ui.widgets.style import section_label, tones
from inspector.ui.widgets.theme import small_font_size, theme_manager, themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = [
    "FilterColumn",
    "ListenFiltersModel",
    "ListenStreamsModel",
    "ListenView",
    "StreamColumn",
    "SubscriptionColumn",
    "SubscriptionsModel",
    "SubscriptionsView",
    "UriRole",
    "Verdict",
]

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
        self._retheme()
        theme_manager().changed.connect(self._retheme)
        book.add_listener(self)

    def _retheme(self) -> None:
        t = tones(None)
        self._state_colours = {
            SubscriptionState.ACTIVE: QColor(t.ok_fg),
            SubscriptionState.FAILED: QColor(t.error_fg),
            SubscriptionState.STALE: QColor(t.muted),
            SubscriptionState.SUBSCRIBING: QColor(t.warning_fg),
            SubscriptionState.UNSUBSCRIBING: QColor(t.muted),
        }

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
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        resources_page = QWidget(self.tabs)
        page_layout = QVBoxLayout(resources_page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.setSpacing(4)
        self.listen = ListenView(self.tabs)
        self.tabs.addTab(resources_page, "Resources")
        self.tabs.addTab(self.listen, "Listen stream")
        self.tabs.setTabToolTip(1, "subscriptions/listen (2026-07-28): the streams, what was asked and acknowledged")
        layout.addWidget(self.tabs, 1)
        self.table = QTableView(self)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.table.setAccessibleName("Subscriptions")
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
        page_layout.addWidget(self.table, 1)
        self.empty_label = QLabel("No subscriptions. Select a resource and click Subscribe.", self)
        themed_style(self.empty_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.empty_label.setWordWrap(True)
        page_layout.addWidget(self.empty_label)

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


# --- the listen streams (2026-07-28) ------------------------------------------------------------------------


class StreamColumn(IntEnum):
    STREAM = 0
    STATE = 1
    REQUEST = 2
    RELISTENED = 3
    NOTIFICATIONS = 4
    SINCE = 5
    DETAIL = 6


class FilterColumn(IntEnum):
    FILTER = 0
    STREAM = 1
    ASKED = 2
    ACKNOWLEDGED = 3
    VERDICT = 4


class Verdict(StrEnum):
    MATCHED = "acknowledged"
    WAITING = "no acknowledgement yet"
    NEVER = "never acknowledged"
    REFUSED = "asked, not acknowledged"
    UNASKED = "acknowledged, not asked"


DIFFERENCES: Final = frozenset({Verdict.REFUSED, Verdict.UNASKED})

_STREAM_HEADERS: Final = {
    StreamColumn.STREAM: ("Stream", "What the subscriptions/listen stream is for"),
    StreamColumn.STATE: ("State", "connecting (no acknowledgement yet), open, re-listening, or closed"),
    StreamColumn.REQUEST: ("Request", "The JSON-RPC id of the listen request (it changes when it is re-opened)"),
    StreamColumn.RELISTENED: ("Re-listened", "Times the engine opened the stream again after it ended"),
    StreamColumn.NOTIFICATIONS: ("Notifications", "Notifications the stream carried"),
    StreamColumn.SINCE: ("Since", "Local time of the last change of state"),
    StreamColumn.DETAIL: ("Detail", "Why the stream is re-listening or closed"),
}
_FILTER_HEADERS: Final = {
    FilterColumn.FILTER: ("Filter", "A kind of notification, or one resource URI / task id"),
    FilterColumn.STREAM: ("Stream", "The listen stream the filter belongs to"),
    FilterColumn.ASKED: ("Asked", "In the notifications filter of the subscriptions/listen request"),
    FilterColumn.ACKNOWLEDGED: ("Acknowledged", "In notifications/subscriptions/acknowledged"),
    FilterColumn.VERDICT: ("Verdict", "A difference between what was asked and what was acknowledged is highlighted"),
}
_KIND_LABELS: Final = {
    "toolsListChanged": "tools/list_changed",
    "promptsListChanged": "prompts/list_changed",
    "resourcesListChanged": "resources/list_changed",
}


@dataclass(frozen=True, slots=True)
class StreamRow:
    purpose: str
    state: ListenState
    request: str
    relistened: int
    notifications: int
    since: float
    detail: str


@dataclass(frozen=True, slots=True)
class FilterRow:
    purpose: str
    key: str
    value: str | None
    asked: bool
    acknowledged: bool | None
    verdict: Verdict

    @property
    def label(self) -> str:
        if self.value is None:
            return f"{self.key} ({_KIND_LABELS[self.key]})" if self.key in _KIND_LABELS else self.key
        return self.value


def purpose_of(listening: Listening, sub: ListenSubscription) -> str:
    if sub is listening.changes or sub is listening.changes_failed:
        return "list changes"
    keys = set(sub.filter)
    if keys == {"resourceSubscriptions"}:
        return "resource updates"
    if keys == {"taskIds"}:
        return "task updates"
    return "other"


def verdict_of(item: FilterItem, state: ListenState) -> Verdict:
    if item.acknowledged is None:
        return Verdict.NEVER if state is ListenState.CLOSED else Verdict.WAITING
    if item.asked and item.acknowledged:
        return Verdict.MATCHED
    return Verdict.REFUSED if item.asked else Verdict.UNASKED


def stream_rows(listening: Listening) -> list[StreamRow]:
    return [
        StreamRow(
            purpose_of(listening, sub),
            sub.state,
            "—" if sub.id is None else str(sub.id),
            sub.reopened,
            sub.received,
            sub.changed_at,
            sub.reason,
        )
        for sub in listening.streams()
    ]


def filter_rows(listening: Listening) -> list[FilterRow]:
    rows: list[FilterRow] = []
    for sub in listening.streams():
        purpose = purpose_of(listening, sub)
        for item in filter_items(sub.filter, sub.acknowledged):
            rows.append(
                FilterRow(purpose, item.key, item.value, item.asked, item.acknowledged, verdict_of(item, sub.state))
            )
    return rows


class _RowsModel(QAbstractTableModel):
    """A flat table over a list of frozen rows, replaced as a whole (``set_rows``)."""

    def __init__(self, headers: dict[Any, tuple[str, str]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._headers = list(headers.values())
        self.rows: list[Any] = []

    def set_rows(self, rows: list[Any]) -> None:
        if len(rows) == len(self.rows):
            changed = rows != self.rows
            self.rows = rows
            if changed and rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(self._headers) - 1))
            return
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._headers):
            return None
        title, tip = self._headers[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return title
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def row_at(self, index: _Index) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self.rows):
            return None
        if not 0 <= index.column() < len(self._headers):
            return None
        return self.rows[index.row()]


class ListenStreamsModel(_RowsModel):
    """One row per listen stream: what it is for, its state, request id, re-listens, notifications."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(_STREAM_HEADERS, parent)
        self._retheme()
        theme_manager().changed.connect(self._retheme)

    def _retheme(self) -> None:
        t = tones(None)
        self._colours = {
            ListenState.OPEN: QColor(t.ok_fg),
            ListenState.CONNECTING: QColor(t.warning_fg),
            ListenState.RELISTENING: QColor(t.warning_fg),
            ListenState.CLOSED: QColor(t.error_fg),
        }

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row: StreamRow | None = self.row_at(index)
        if row is None:
            return None
        column = StreamColumn(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                StreamColumn.STREAM: row.purpose,
                StreamColumn.STATE: row.state.value,
                StreamColumn.REQUEST: row.request,
                StreamColumn.RELISTENED: str(row.relistened),
                StreamColumn.NOTIFICATIONS: str(row.notifications),
                StreamColumn.SINCE: _clock(row.since),
                StreamColumn.DETAIL: row.detail or "—",
            }[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(x for x in (f"{row.purpose}: {row.state.value}", row.detail) if x)
        if role == Qt.ItemDataRole.ForegroundRole and column is StreamColumn.STATE:
            return self._colours.get(row.state)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            StreamColumn.RELISTENED,
            StreamColumn.NOTIFICATIONS,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ListenFiltersModel(_RowsModel):
    """One row per kind or URI asked or acknowledged; a difference is highlighted (background, bold)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(_FILTER_HEADERS, parent)
        self._retheme()
        theme_manager().changed.connect(self._retheme)
        self._bold = QFont()
        self._bold.setBold(True)

    def _retheme(self) -> None:
        t = tones(None)
        self._difference_bg = QColor(t.warning_bg)
        self._difference_fg = QColor(t.warning_fg)
        self._ok_fg = QColor(t.ok_fg)
        self._muted = QColor(t.muted)

    def differences(self) -> list[FilterRow]:
        return [row for row in self.rows if row.verdict in DIFFERENCES]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row: FilterRow | None = self.row_at(index)
        if row is None:
            return None
        column = FilterColumn(index.column())
        different = row.verdict in DIFFERENCES
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                FilterColumn.STREAM: row.purpose,
                FilterColumn.FILTER: row.label,
                FilterColumn.ASKED: "yes" if row.asked else "no",
                FilterColumn.ACKNOWLEDGED: "…" if row.acknowledged is None else ("yes" if row.acknowledged else "no"),
                FilterColumn.VERDICT: row.verdict.value,
            }[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            what = row.key if row.value is None else f"{row.key}: {row.value}"
            return f"{what}\n{row.verdict.value}"
        if role == Qt.ItemDataRole.BackgroundRole and different:
            return self._difference_bg
        if role == Qt.ItemDataRole.ForegroundRole and column is FilterColumn.VERDICT:
            if different:
                return self._difference_fg
            return self._ok_fg if row.verdict is Verdict.MATCHED else self._muted
        if role == Qt.ItemDataRole.FontRole and different:
            return self._bold
        return None


def _compact_table(model: QAbstractTableModel, parent: QWidget, stretch: int) -> QTableView:
    table = QTableView(parent)
    table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setShowGrid(False)
    table.setWordWrap(False)
    h = table.horizontalHeader()
    for column in range(model.columnCount()):
        mode = QHeaderView.ResizeMode.Stretch if column == stretch else QHeaderView.ResizeMode.ResizeToContents
        h.setSectionResizeMode(column, mode)
    return table


class ListenView(QWidget):
    """The connection's ``subscriptions/listen`` streams (2026-07-28): their state, and what each asked for
    against what the server acknowledged. ``attach(live_connection(controller))`` at every change of the
    connection's state: a live connection's streams are followed; None (not connected) keeps the last ones on
    view, with Re-listen disabled."""

    relistenRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.streams_model = ListenStreamsModel(self)
        self.filters_model = ListenFiltersModel(self)
        self.listening: Listening | None = None
        self._unwatch: Callable[[], None] | None = None
        self._era_note = ""
        self._live = False
        self._refresh_timer = coalescer(self, 50, self.refresh)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        header = QHBoxLayout()
        self.state_label = QLabel(self)
        self.state_label.setWordWrap(True)
        header.addWidget(self.state_label, 1)
        self.relisten_button = QPushButton("Re-listen", self)
        self.relisten_button.setToolTip(
            "Close the listen streams and open them again with what they asked for (subscriptions/listen)"
        )
        self.relisten_button.clicked.connect(self.relistenRequested)
        header.addWidget(self.relisten_button)
        layout.addLayout(header)
        self.streams_table = _compact_table(self.streams_model, self, StreamColumn.DETAIL)
        self.streams_table.setAccessibleName("Listen streams")
        self.streams_table.setMaximumHeight(self.streams_table.verticalHeader().defaultSectionSize() * 4 + 4)
        layout.addWidget(self.streams_table)
        self.differences_label = QLabel(self)
        self.differences_label.setWordWrap(True)
        layout.addWidget(self.differences_label)
        self.filters_table = _compact_table(self.filters_model, self, FilterColumn.VERDICT)
        self.filters_table.setAccessibleName("What was asked and acknowledged")
        layout.addWidget(self.filters_table, 1)
        self.attach(None)

    def attach(self, conn: Connection | None) -> None:
        """Follow ``conn``'s listen streams (None or a handshake-era connection: there are none)."""
        listening = conn.listening if conn is not None and conn.era is Era.MODERN else None
        self._live = conn is not None
        self._era_note = (
            "Handshake era: resources/subscribe and resources/unsubscribe; no listen stream."
            if conn is not None and listening is None
            else ""
        )
        if conn is not None and listening is not self.listening:  # (disconnected: the last streams stay on view)
            if self._unwatch is not None:
                self._unwatch()
                self._unwatch = None
            self.listening = listening
            if listening is not None:
                self._unwatch = listening.watch(lambda _sub: self._soon())
        self.refresh()

    def _soon(self) -> None:
        if not self._refresh_timer.isActive():  # at most one refresh every 50 ms, however busy the streams
            self._refresh_timer.start()

    def refresh(self) -> None:
        listening = self.listening
        self.streams_model.set_rows(stream_rows(listening) if listening is not None else [])
        self.filters_model.set_rows(filter_rows(listening) if listening is not None else [])
        self.relisten_button.setEnabled(listening is not None and self._live)
        if listening is None:
            self.state_label.setText(self._era_note or "Not connected: no listen stream.")
        else:
            rows = self.streams_model.rows
            states = ", ".join(f"{row.purpose} {row.state.value}" for row in rows) or "no stream open"
            self.state_label.setText(f"subscriptions/listen: {states}")
        differences = self.filters_model.differences()
        if differences:
            said = "; ".join(f"{row.label}: {row.verdict.value}" for row in differences)
            self.differences_label.setText(f"{plural(len(differences), 'difference')}: {said}")
            themed_style(self.differences_label, lambda t: f"color: {t.warning_fg}; font-weight: bold;")
        else:
            self.differences_label.setText("The server acknowledged what was asked." if self.filters_model.rows else "")
            themed_style(self.differences_label, lambda t: f"color: {t.muted};")
        self.differences_label.setVisible(bool(self.differences_label.text()))
