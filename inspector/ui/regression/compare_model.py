"""The classified changes of "Compare with…" as a table (kind, path, reason), and the kind filter over it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

from inspector.regression.changes import KIND_ORDER, Change, ChangeKind
from inspector.ui.widgets.column_table import ColumnTableModel
from inspector.ui.widgets.style import tone_colors, tones

__all__ = ["CHANGE_ROLE", "COLUMNS", "KIND_TONES", "ChangesModel", "KindFilter"]

COLUMNS: Final = ("Kind", "Path", "Reason")
CHANGE_ROLE: Final = Qt.ItemDataRole.UserRole + 1
"""The row's ``Change``."""
KIND_TONES: Final = {ChangeKind.BREAKING: "error", ChangeKind.COMPATIBLE: "ok", ChangeKind.COSMETIC: "neutral"}
"""The style tone (``widgets.style.tone_colors``) each kind is shown in."""

AnyIndex = QModelIndex | QPersistentModelIndex


class ChangesModel(ColumnTableModel):
    HEADERS = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._changes: list[Change] = []

    def set_changes(self, changes: Iterable[Change]) -> None:
        self.beginResetModel()
        self._changes = list(changes)
        self.endResetModel()

    def changes(self) -> list[Change]:
        return list(self._changes)

    def change_at(self, row: int) -> Change | None:
        return self._changes[row] if 0 <= row < len(self._changes) else None

    def counts(self) -> dict[ChangeKind, int]:
        return {kind: sum(1 for c in self._changes if c.kind is kind) for kind in KIND_ORDER}

    def row_count(self) -> int:
        return len(self._changes)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._changes):
            return None
        change = self._changes[index.row()]
        column = index.column()
        if role == CHANGE_ROLE:
            return change
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) and 0 <= column < len(COLUMNS):
            return (change.kind.value, change.path, change.reason)[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            foreground, _background, _border = tone_colors(tones(), KIND_TONES[change.kind])
            return QBrush(QColor(foreground))
        return None


class KindFilter(QSortFilterProxyModel):
    """Shows the rows whose kind is among :attr:`kinds` (all of them at first)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._kinds: set[ChangeKind] = set(KIND_ORDER)

    @property
    def kinds(self) -> frozenset[ChangeKind]:
        return frozenset(self._kinds)

    def set_kind_shown(self, kind: ChangeKind, shown: bool) -> None:
        if (kind in self._kinds) == shown:
            return
        self.beginFilterChange()
        if shown:
            self._kinds.add(kind)
        else:
            self._kinds.discard(kind)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        model = self.sourceModel()
        change = model.index(source_row, 0, source_parent).data(CHANGE_ROLE) if model is not None else None
        return isinstance(change, Change) and change.kind in self._kinds
