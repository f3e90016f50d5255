"""``ColumnTableModel``: the shape every flat table model of the window shares (its columns named by ``HEADERS``)."""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

__all__ = ["ColumnTableModel"]

_Index = QModelIndex | QPersistentModelIndex


class ColumnTableModel(QAbstractTableModel):
    """A flat table: one column per ``HEADERS`` entry (its horizontal header text), ``row_count()`` rows.

    Subclasses set ``HEADERS`` and implement ``row_count`` and ``data``."""

    HEADERS: ClassVar[tuple[str, ...]] = ()

    def row_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self.row_count()

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return None
