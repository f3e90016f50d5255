"""``TaskTableModel``: the tasks of a ``TaskBook`` as table rows, one per task, in the order they started.

Columns: the tool, the status, the server's status message, the progress its message states, the poll interval,
when the task was created and last updated (local time; the server's ISO timestamps in the tooltip), and the task
id. ``record(row)`` is the row's ``TaskRecord``; rows are appended as the book adds tasks and updated in place.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from inspector.ui.explore.common.task_book import TaskBook, TaskOutcome, TaskRecord, progress_of
from inspector.ui.widgets.column_table import ColumnTableModel
from inspector.ui.widgets.style import tones

__all__ = ["COLUMNS", "TaskTableModel"]

COLUMNS: Final = ("Tool", "Status", "Message", "Progress", "Poll", "Created", "Updated", "Task")
_STATUS_TONES: Final = {
    "completed": "ok_fg",
    "failed": "error_fg",
    "error": "error_fg",
    "cancelled": "warning_fg",
    "input_required": "info_fg",
}

Index = QModelIndex | QPersistentModelIndex


def _clock(text: str | None) -> str:
    if not text:
        return "—"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text[:19]
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%H:%M:%S")


def _interval(ms: float | None) -> str:
    if ms is None:
        return "—"
    return f"{ms:g} ms" if ms < 1000 else f"{ms / 1000:g} s"


def status_text(record: TaskRecord) -> str:
    """The status column: the task's status, or how the window's call ended when that says more."""
    if record.outcome is TaskOutcome.INLINE:
        return "no task (answered inline)"
    if record.outcome is TaskOutcome.ERROR:
        return "error"
    if record.outcome is TaskOutcome.CANCELLED and record.status != "cancelled":
        return f"cancelled ({record.status})"
    if record.status == "input_required" and record.live:  # followed by the window: its dialogs ask you
        return "input required · waiting for you"
    return record.status.replace("_", " ")


class TaskTableModel(ColumnTableModel):
    """See the module docstring."""

    HEADERS = COLUMNS

    def __init__(self, book: TaskBook, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self._rows: list[TaskRecord] = list(book.records)
        book.taskAdded.connect(self._added)
        book.taskChanged.connect(self._changed)

    def record(self, row: int) -> TaskRecord | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, record: TaskRecord) -> int:
        return next((i for i, r in enumerate(self._rows) if r is record), -1)

    def row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        record = self.record(index.row()) if index.isValid() else None
        if record is None or not 0 <= index.column() < len(COLUMNS):
            return None
        column = COLUMNS[index.column()]
        state = record.state
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "Tool":
                return record.tool or "(listed)"
            if column == "Status":
                return status_text(record)
            if column == "Message":
                return (state.status_message if state is not None else None) or record.problem or ""
            if column == "Progress":
                return progress_of(record)
            if column == "Poll":
                return _interval(state.poll_interval_ms if state is not None else None)
            if column == "Created":
                return _clock(state.created_at if state is not None else None)
            if column == "Updated":
                return _clock(state.last_updated_at if state is not None else None)
            return record.task_id or "—"
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "Created" and state is not None:
                return state.created_at
            if column == "Updated" and state is not None:
                return state.last_updated_at
            if column == "Message":
                return record.problem or (state.status_message if state is not None else None)
            if column == "Task":
                return record.task_id
            return None
        if role == Qt.ItemDataRole.ForegroundRole and column == "Status":
            tone = _STATUS_TONES.get(record.outcome.value) or _STATUS_TONES.get(record.status)
            return QColor(getattr(tones(), tone)) if tone else None
        if role == Qt.ItemDataRole.UserRole:
            return record.seq
        return None

    def _added(self, record: TaskRecord) -> None:
        if self.row_of(record) >= 0:
            return
        row = len(self._rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.append(record)
        self.endInsertRows()

    def _changed(self, record: TaskRecord) -> None:
        row = self.row_of(record)
        if row >= 0:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
