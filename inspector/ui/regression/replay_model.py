"""The results table of a replay in the window: one row per recorded request sent again."""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from inspector.content.plural import plural
from inspector.regression.outcome import Outcome, RequestResult
from inspector.ui.widgets.column_table import ColumnTableModel
from inspector.ui.widgets.style import tones

__all__ = ["COLUMNS", "OUTCOME_TONES", "RESULT_ROLE", "ReplayResultsModel", "details"]

COLUMNS: Final = ("#", "Request", "Outcome", "Details")
RESULT_ROLE: Final = Qt.ItemDataRole.UserRole + 1
"""The row's ``RequestResult``."""

OUTCOME_TONES: Final = {
    Outcome.SAME: "ok_fg",
    Outcome.CHANGED: "warning_fg",
    Outcome.FAILED: "error_fg",
    Outcome.SKIPPED: "muted",
}
"""The theme's text colour (a ``Tones`` field) of each outcome."""

AnyIndex = QModelIndex | QPersistentModelIndex


def details(result: RequestResult) -> str:
    """The Details column: the differences, the error or why it was skipped."""
    if result.outcome is Outcome.CHANGED:
        first = result.diff[0].path if result.diff else ""
        more = f" (+{len(result.diff) - 1} more)" if len(result.diff) > 1 else ""
        return f"{plural(len(result.diff), 'difference')}: {first}{more}"
    if result.outcome is Outcome.FAILED:
        return result.error or ""
    if result.outcome is Outcome.SKIPPED:
        return result.reason or ""
    return f"{plural(len(result.ignored), 'volatile value')} ignored" if result.ignored else ""


class ReplayResultsModel(ColumnTableModel):
    HEADERS = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._results: list[RequestResult] = []

    def clear(self) -> None:
        self.beginResetModel()
        self._results = []
        self.endResetModel()

    def add(self, result: RequestResult) -> None:
        row = len(self._results)
        self.beginInsertRows(QModelIndex(), row, row)
        self._results.append(result)
        self.endInsertRows()

    def results(self) -> list[RequestResult]:
        return list(self._results)

    def result_at(self, row: int) -> RequestResult | None:
        return self._results[row] if 0 <= row < len(self._results) else None

    def counts(self) -> dict[Outcome, int]:
        return {o: sum(1 for r in self._results if r.outcome is o) for o in Outcome}

    def row_count(self) -> int:
        return len(self._results)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._results):
            return None
        result = self._results[index.row()]
        column = index.column()
        if role == RESULT_ROLE:
            return result
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return (str(result.index), result.label, result.outcome.value, details(result))[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            return QBrush(QColor(getattr(tones(), OUTCOME_TONES[result.outcome])))
        return None
