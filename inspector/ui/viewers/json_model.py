"""``JsonTreeModel``: a read-only Qt item model over any JSON value (key / value / type columns).

Children are created lazily (see ``inspector.content.jsontree``) and large containers are revealed in batches
through ``canFetchMore``/``fetchMore``, so views stay fast on huge documents. Paths can be marked as erroneous
(e.g. outputSchema violations) and are then painted in the error colour with the messages in the tooltip.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from inspector.content.jsontree import JsonNode
from inspector.content.text import shorten

__all__ = ["JsonTreeModel"]

_Index = QModelIndex | QPersistentModelIndex

_KIND_COLORS_LIGHT = {
    "string": "#0a3069",
    "integer": "#0550ae",
    "number": "#0550ae",
    "boolean": "#8250df",
    "null": "#6e7781",
    "object": "#59636e",
    "array": "#59636e",
}
_KIND_COLORS_DARK = {
    "string": "#a5d6ff",
    "integer": "#79c0ff",
    "number": "#79c0ff",
    "boolean": "#d2a8ff",
    "null": "#8b949e",
    "object": "#9198a1",
    "array": "#9198a1",
}


class JsonTreeModel(QAbstractItemModel):
    """Rows are object members / array items; the root container's children are the top-level rows.

    A scalar root is shown as one row labelled ``(value)``. ``PATH_ROLE`` gives a row's JSONPath (``$.a[0]``),
    ``VALUE_ROLE`` its Python value.
    """

    KEY_COLUMN = 0
    VALUE_COLUMN = 1
    TYPE_COLUMN = 2
    PATH_ROLE = Qt.ItemDataRole.UserRole + 1
    VALUE_ROLE = Qt.ItemDataRole.UserRole + 2
    HEADERS = ("Key", "Value", "Type")
    BATCH = 500
    """Rows of one container revealed at a time."""

    def __init__(self, value: Any = None, parent: QObject | None = None, *, dark: bool = False) -> None:
        super().__init__(parent)
        self._dark = dark
        self._root = JsonNode(value)
        self._nodes: dict[int, JsonNode] = {}
        self._loaded: dict[int, int] = {}
        self._errors: dict[str, list[str]] = {}

    # --- public API -----------------------------------------------------------------------------------------

    def set_value(self, value: Any) -> None:
        self.beginResetModel()
        self._root = JsonNode(value)
        self._nodes.clear()
        self._loaded.clear()
        self.endResetModel()

    def value(self) -> Any:
        return self._root.value

    def set_error_paths(self, errors: dict[str, list[str]]) -> None:
        """Mark rows whose path is a key of ``errors`` (messages shown in their tooltip)."""
        self._errors = {path: list(messages) for path, messages in errors.items()}
        if self.rowCount() > 0:
            last = self.index(self.rowCount() - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)
            self._emit_changed_below(QModelIndex())

    def error_paths(self) -> dict[str, list[str]]:
        return dict(self._errors)

    def node(self, index: _Index) -> JsonNode | None:
        """The node behind a valid index (None for the invisible root)."""
        if not index.isValid():
            return None
        return self._nodes.get(index.internalId())

    # --- structure ------------------------------------------------------------------------------------------

    def _container_of(self, parent: _Index) -> JsonNode | None:
        """The node whose children are the rows under ``parent``; None when the root is a scalar."""
        if not parent.isValid():
            return self._root if self._root.is_container else None
        return self.node(parent)

    def _total(self, parent: _Index) -> int:
        if not parent.isValid() and not self._root.is_container:
            return 1
        node = self._container_of(parent)
        return node.child_count() if node is not None else 0

    def _key(self, parent: _Index) -> int:
        return parent.internalId() if parent.isValid() else 0

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        total = self._total(parent)
        return min(total, self._loaded.get(self._key(parent), self.BATCH))

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return False
        return self._total(parent) > 0

    def canFetchMore(self, parent: _Index) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        return self._total(parent) > self.rowCount(parent)

    def fetchMore(self, parent: _Index) -> None:
        if not self.canFetchMore(parent):
            return
        loaded = self.rowCount(parent)
        new = min(self._total(parent), loaded + self.BATCH)
        self.beginInsertRows(parent, loaded, new - 1)
        self._loaded[self._key(parent)] = new
        self.endInsertRows()

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        container = self._container_of(parent)
        node = self._root if container is None else container.child(row)
        self._nodes[id(node)] = node
        return self.createIndex(row, column, id(node))

    def parent(self, child: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        node = self.node(child)
        if node is None or node.parent is None or node.parent is self._root:
            return QModelIndex()
        owner = node.parent
        self._nodes[id(owner)] = owner
        return self.createIndex(owner.row, 0, id(owner))

    # --- data -----------------------------------------------------------------------------------------------

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(self.HEADERS):
                return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self.node(index)
        if node is None:
            return None
        column = index.column()
        errors = self._errors.get(node.path) if self._errors else None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.KEY_COLUMN:
                return "(value)" if node is self._root else node.key_label
            if column == self.VALUE_COLUMN:
                return node.summary
            return node.kind
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = node.path
            if not node.is_container:
                tip += "\n" + shorten(node.summary if not isinstance(node.value, str) else node.value, 2000)
            if errors:
                tip += "\n\n" + "\n".join(f"✗ {message}" for message in errors)
            return tip
        if role == Qt.ItemDataRole.ForegroundRole:
            if errors:
                return QColor("#ff7b72" if self._dark else "#d1242f")
            if column == self.VALUE_COLUMN:
                table = _KIND_COLORS_DARK if self._dark else _KIND_COLORS_LIGHT
                return QColor(table.get(node.kind, table["null"]))
            if column == self.TYPE_COLUMN:
                return QColor("#9198a1" if self._dark else "#6e7781")
            return None
        if role == Qt.ItemDataRole.FontRole:
            if errors or (column == self.KEY_COLUMN and node.is_container):
                font = QFont()
                font.setBold(True)
                return font
            return None
        if role == self.PATH_ROLE:
            return node.path
        if role == self.VALUE_ROLE:
            return node.value
        return None

    def _emit_changed_below(self, parent: QModelIndex) -> None:
        for row in range(self.rowCount(parent)):
            child = self.index(row, 0, parent)
            count = self.rowCount(child)
            if count:
                self.dataChanged.emit(self.index(0, 0, child), self.index(count - 1, self.columnCount() - 1, child))
                self._emit_changed_below(child)
