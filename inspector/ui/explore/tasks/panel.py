"""The Tasks panel: the tab's tasks (a ``TaskTableModel`` over its ``TaskBook``) above the selected task's details.

A task shows its status, the server's status message, the progress that message states, the poll interval and
the created / updated times; selecting one shows the snapshots it went through and its outcome in the same
``ToolResultView`` a direct call uses (result, JSON-RPC error, cancelled). Cancel sends ``tasks/cancel``; Refresh
asks ``tasks/list`` (2025-11-25, where the server declared ``tasks.list``; also once on every connect). The book
belongs to the tab, so tasks keep running while other panels show and finished tasks stay listed for the session
(a reconnect keeps them too). Tasks start on a tool's page ("Run as task").
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, message_of
from inspector.content.plural import plural
from inspector.protocol.events import NotificationReceived
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.panel_tasks import PanelTasks, describe_failure, gate, live_connection
from inspector.ui.explore.common.task_book import TaskBook, TaskOutcome, TaskRecord, list_gap
from inspector.ui.explore.tasks.model import COLUMNS, TaskTableModel, status_text
from inspector.ui.viewers import ToolResultView, forward_content_signals
from inspector.ui.widgets.resources import ui_icon
from inspector.ui.widgets.style import hbox, section_label
from inspector.ui.widgets.theme import themed_style

__all__ = ["TasksPanel"]

EMPTY_TEXT: Final = (
    "No tasks yet. Tick “Run as task” on a tool's page (tools whose execution.taskSupport is optional or required)"
    " and press Run; the task is followed here."
)
_REFRESH_TIP: Final = "Ask the server for its tasks (tasks/list)"


class TasksPanel(ExplorePanel):
    """See the module docstring."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None, *, book: TaskBook) -> None:
        super().__init__(controller, parent)
        self.book = book
        self._tasks = PanelTasks(self, self._internal_error)
        self._shown: TaskRecord | None = None

        self.refresh_button = QPushButton("Refresh (tasks/list)", self)
        self.cancel_button = QPushButton("Cancel task", self)
        self.cancel_button.setToolTip("Cancel the selected task (tasks/cancel)")
        self.count_label = QLabel(self)
        themed_style(self.count_label, lambda t: f"color: {t.muted};")
        self.status_label = QLabel(self)
        """What the last Refresh or Cancel did."""
        self.status_label.setWordWrap(True)
        themed_style(self.status_label, lambda t: f"color: {t.muted};")
        bar = hbox(spacing=8, margins=(12, 8, 12, 4))
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.cancel_button)
        bar.addWidget(self.status_label, 1)
        bar.addWidget(self.count_label)

        self.empty_label = QLabel(EMPTY_TEXT, self)
        self.empty_label.setWordWrap(True)
        themed_style(self.empty_label, lambda t: f"color: {t.muted}; padding: 4px 12px;")

        self.model = TaskTableModel(book, self)
        self.table = QTableView(self)
        self.table.setAccessibleName("Tasks")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COLUMNS.index("Message"), QHeaderView.ResizeMode.Stretch)
        for column, width in (("Tool", 150), ("Status", 120), ("Progress", 90), ("Poll", 64), ("Task", 110)):
            self.table.setColumnWidth(COLUMNS.index(column), width)

        detail = QWidget(self)
        self.detail_title = QLabel(detail)
        self.detail_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_title.setStyleSheet("font-weight: 600;")
        self.updates_list = QListWidget(detail)
        self.updates_list.setAccessibleName("Task updates")
        """The snapshots of the selected task, in order (where each came from, and what the client did)."""
        self.updates_list.setMaximumHeight(110)
        self.result_view = ToolResultView(parent=detail)
        forward_content_signals(self.result_view, self)
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(8, 4, 8, 8)
        detail_layout.addWidget(self.detail_title)
        detail_layout.addWidget(section_label("Updates", detail))
        detail_layout.addWidget(self.updates_list)
        detail_layout.addWidget(self.result_view, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(detail)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.splitter, 1)

        self.refresh_button.clicked.connect(self.refresh)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.result_view.cancelRequested.connect(self.cancel_selected)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        book.taskAdded.connect(self._added)
        book.taskChanged.connect(self._changed)
        self._update_counts()
        self._show(None)

    # -- ExplorePanel hooks -------------------------------------------------------------------------------------

    def on_state(self, state: ConnectionState) -> None:
        self._gate()
        if state is ConnectionState.CONNECTED and self._list_gap() is None:
            self.refresh()

    def on_notification(self, event: NotificationReceived) -> None:
        """Status notifications reach the runners through the engine's task hub; nothing to do here."""

    def shutdown(self) -> None:
        self._tasks.cancel_all()

    # -- commands -----------------------------------------------------------------------------------------------

    def selected(self) -> TaskRecord | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.record(rows[0].row()) if rows else None

    def select(self, record: TaskRecord) -> None:
        row = self.model.row_of(record)
        if row >= 0:
            self.table.selectRow(row)

    def refresh(self) -> bool:
        """``tasks/list`` (False: not available now, with the reason on the button)."""
        connection = live_connection(self.controller)
        if connection is None or self._list_gap() is not None:
            return False
        self.status_label.setText("Asking tasks/list…")
        self._tasks.spawn(self._refresh(connection), key="refresh")
        return True

    def cancel_selected(self) -> bool:
        record = self.selected()
        if record is None or not self._cancellable(record):
            return False
        self.status_label.setText(f"Cancelling {record.task_id or 'the task'}…")
        self._tasks.spawn(self._cancel(record))
        return True

    async def _refresh(self, connection: Connection) -> None:
        try:
            count = await self.book.refresh(connection)
        except ClientError as exc:
            self.status_label.setText(f"tasks/list failed: {message_of(exc)}")
            return
        self.status_label.setText(f"tasks/list: the server lists {plural(count, 'task')}.")

    async def _cancel(self, record: TaskRecord) -> None:
        try:
            await self.book.cancel(record)
        except ClientError as exc:
            self.status_label.setText(f"tasks/cancel failed: {message_of(exc)}")
            return
        self.status_label.setText(f"tasks/cancel sent for {record.task_id}.")

    # -- view ---------------------------------------------------------------------------------------------------

    def _list_gap(self) -> str | None:
        return list_gap(live_connection(self.controller))

    def _cancellable(self, record: TaskRecord) -> bool:
        if record.live:
            return record.runner is not None
        state = record.state
        connection = live_connection(self.controller)
        return (
            record.outcome is TaskOutcome.LISTED
            and state is not None
            and not state.terminal
            and connection is not None
            and record.connection is connection
        )

    def _gate(self) -> None:
        gate(self.refresh_button, self._list_gap(), _REFRESH_TIP)
        record = self.selected()
        self.cancel_button.setEnabled(record is not None and self._cancellable(record))

    def _update_counts(self) -> None:
        records = self.book.records
        running = sum(1 for r in records if r.live)
        self.count_label.setText(f"{plural(len(records), 'task')} · {running} running" if records else "")
        self.empty_label.setVisible(not records)

    def _added(self, record: TaskRecord) -> None:
        self._update_counts()
        if self.selected() is None:
            self.select(record)

    def _changed(self, record: TaskRecord) -> None:
        self._update_counts()
        if record is self._shown:
            self._show(record)
        self._gate()

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._show(self.selected())
        self._gate()

    def _show(self, record: TaskRecord | None) -> None:
        """The selected task's details: its snapshots and its outcome in the result view."""
        previous, self._shown = self._shown, record
        view = self.result_view
        if record is None:
            self.detail_title.setText("Select a task to see its updates and result.")
            self.updates_list.clear()
            view.clear()
            return
        self.detail_title.setText(
            f"{record.tool or 'Task'} · {record.task_id or 'no task id yet'} · {status_text(record)}"
        )
        view.set_tool_name(record.tool)
        self._fill_updates(record)
        outcome = record.outcome
        if record.live:
            if previous is not record or view.state().value != "running":
                view.set_running()
            if record.state is not None:
                view.set_progress(0, None, f"Task {record.state.describe()}")
        elif outcome in (TaskOutcome.COMPLETED, TaskOutcome.INLINE) and record.result is not None:
            view.set_result(record.result, record.output_schema, duration=self._duration(record))
        elif record.error is not None:
            code, message, data = record.error
            view.set_protocol_error(code, message, data, duration=self._duration(record))
        elif outcome is TaskOutcome.CANCELLED:
            view.set_cancelled(record.problem)
        elif outcome is TaskOutcome.ERROR:
            view.set_cancelled(f"The window could not follow the task: {record.problem}")
        else:  # listed only: the window did not start it, so it has no result to show
            view.clear()

    def _fill_updates(self, record: TaskRecord) -> None:
        lines: list[str] = []
        flagged: set[int] = set()  # the lines marked by the warning icon: the update broke the protocol
        for update in record.updates:
            line = f"{update.source} · {update.task.describe()}"
            if update.note:
                line += f" — {update.note}"
            if update.diagnostics:
                line += f" · {plural(len(update.diagnostics), 'finding')}: {update.diagnostics[0].message}"
                flagged.add(len(lines))
            lines.append(line)
        if record.outcome is TaskOutcome.LISTED and not lines:
            lines.append("Known from tasks/list only (not started in this window).")
        if self.updates_list.count() == len(lines) and all(
            self.updates_list.item(i).text() == line for i, line in enumerate(lines)
        ):
            return
        self.updates_list.clear()
        for i, line in enumerate(lines):
            item = QListWidgetItem(line)
            if i in flagged:
                item.setIcon(ui_icon("warning", tone="warning"))
            self.updates_list.addItem(item)
        self.updates_list.scrollToBottom()

    @staticmethod
    def _duration(record: TaskRecord) -> float | None:
        return None if record.finished is None else max(0.0, record.finished - record.started)

    def _internal_error(self, error: BaseException) -> None:
        self.status_label.setText(describe_failure(error))
