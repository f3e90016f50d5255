"""The Collections panel's two table models: the collection's calls (with their last run's verdict) and the
selected call's assertions (with each one's last result and actual value)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from inspector.regression.assertions import Assertion, AssertionResult, short_json
from inspector.regression.collection import Collection, CollectionError, SavedCall
from inspector.regression.runner import CallReport
from inspector.ui.widgets.column_table import ColumnTableModel
from inspector.ui.widgets.style import tones

__all__ = ["AssertionsModel", "CallsModel"]

_Index = QModelIndex | QPersistentModelIndex
_VERDICTS: Final = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}


def _verdict_colour(passed: bool) -> QColor:
    """The theme's colour of a pass (ok) or a failure (error)."""
    t = tones()
    return QColor(t.ok_fg if passed else t.error_fg)


class CallsModel(ColumnTableModel):
    """One row per saved call: Name, Request, Checks, Result (PASS / FAIL / ERROR and the failing assertion).

    The Name is edited in place (``rename``): a clash or an empty name is refused (``renameRefused``), the last
    run's report moves with the call."""

    HEADERS = ("Name", "Request", "Checks", "Result")

    renamed = Signal(str, str)
    """A call was renamed: its old and new name."""
    renameRefused = Signal(str, str)
    """A rename was refused: the call's (kept) name and the reason."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.collection = Collection("Untitled")
        self.reports: dict[str, CallReport] = {}
        self.editable = True
        """Whether names can be edited (the panel turns it off while a run uses the calls)."""

    def set_collection(self, collection: Collection, *, keep_reports: bool = False) -> None:
        self.beginResetModel()
        self.collection = collection
        if not keep_reports:
            self.reports = {}
        else:
            names = {saved.name for saved in collection.calls}
            self.reports = {name: report for name, report in self.reports.items() if name in names}
        self.endResetModel()

    def call_at(self, row: int) -> SavedCall | None:
        calls = self.collection.calls
        return calls[row] if 0 <= row < len(calls) else None

    def row_of(self, name: str) -> int | None:
        for row, saved in enumerate(self.collection.calls):
            if saved.name == name:
                return row
        return None

    def set_report(self, report: CallReport) -> None:
        self.reports[report.call.name] = report
        row = self.row_of(report.call.name)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def clear_reports(self) -> None:
        if self.reports:
            self.beginResetModel()
            self.reports = {}
            self.endResetModel()

    def rename(self, old: str, new: str) -> bool:
        """Rename the call ``old`` in its row (no reset: the selection stays on it); False when refused."""
        try:
            collection = self.collection.renamed(old, new)
        except CollectionError as exc:
            self.renameRefused.emit(old, exc.problem)
            return False
        except KeyError:
            return False
        row = self.collection.index_of(old)
        saved = collection.calls[row]
        if saved.name == old:
            return True
        self.collection = collection
        report = self.reports.pop(old, None)
        if report is not None:
            self.reports[saved.name] = replace(report, call=replace(report.call, name=saved.name))
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))
        self.renamed.emit(old, saved.name)
        return True

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() == 0 and self.editable:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or index.column() != 0 or not self.editable:
            return False
        saved = self.call_at(index.row())
        return saved is not None and self.rename(saved.name, str(value))

    def row_count(self) -> int:
        return len(self.collection.calls)

    def _result_text(self, report: CallReport | None) -> str:
        if report is None:
            return ""
        verdict = _VERDICTS[report.status]
        return verdict if report.passed else f"{verdict}: {report.failure_line()}"

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        saved = self.call_at(index.row())
        if saved is None:
            return None
        report = self.reports.get(saved.name)
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                return saved.name
            if column == 1:
                return f"{saved.method} {saved.subject}" if saved.subject else saved.method
            if column == 2:
                return str(len(saved.assertions) or 1)
            if column == 3:
                return self._result_text(report)
        if role == Qt.ItemDataRole.EditRole and column == 0:
            return saved.name
        if role == Qt.ItemDataRole.ForegroundRole and column == 3 and report is not None:
            return _verdict_colour(report.passed)
        if role == Qt.ItemDataRole.UserRole:
            return saved.name
        return None


class AssertionsModel(ColumnTableModel):
    """The selected call's assertions: Assertion (its one-line description), Result, Actual."""

    HEADERS = ("Assertion", "Result", "Actual")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.assertions: tuple[Assertion, ...] = ()
        self.results: tuple[AssertionResult, ...] = ()

    def set_call(self, saved: SavedCall | None, report: CallReport | None) -> None:
        self.beginResetModel()
        self.assertions = saved.assertions if saved is not None else ()
        self.results = report.results if report is not None and report.call == saved else ()
        self.endResetModel()

    def result_of(self, row: int) -> AssertionResult | None:
        if not 0 <= row < len(self.assertions):
            return None
        assertion = self.assertions[row]
        return next((result for result in self.results if result.assertion == assertion), None)

    def row_count(self) -> int:
        return len(self.assertions)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.assertions):
            return None
        assertion = self.assertions[index.row()]
        result = self.result_of(index.row())
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                return assertion.describe()
            if column == 1:
                if result is None:
                    return ""
                return "PASS" if result.passed else f"FAIL: {result.message}"
            if column == 2:
                return "" if result is None or result.actual is None else short_json(result.actual, 300)
        if role == Qt.ItemDataRole.ForegroundRole and column == 1 and result is not None:
            return _verdict_colour(result.passed)
        return None
