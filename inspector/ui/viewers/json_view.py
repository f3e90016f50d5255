"""``JsonTreeView``: a QTreeView over a ``JsonTreeModel`` with copy actions and sensible initial expansion."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QSizePolicy, QTreeView, QWidget

from inspector.content.jsontree import json_kind
from inspector.ui.viewers.json_model import JsonTreeModel
from inspector.ui.widgets.style import monospace_font
from inspector.ui.widgets.theme import follow_theme

__all__ = ["JsonTreeView"]

_AUTO_EXPAND_ROWS = 200
"""Documents with at most this many top-level rows start expanded two levels deep."""


class JsonTreeView(QTreeView):
    """Shows a JSON value as a tree. ``fit`` makes the view as tall as its rows, up to ``max_height``."""

    def __init__(
        self, value: Any = None, parent: QWidget | None = None, *, fit: bool = False, max_height: int = 360
    ) -> None:
        super().__init__(parent)
        self.json_model = JsonTreeModel(value, self)
        self.setModel(self.json_model)
        self._fit = fit
        self._max_height = max_height
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        follow_theme(self, lambda _t: self.setFont(monospace_font()))  # the chosen font size, when it changes
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(JsonTreeModel.KEY_COLUMN, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(JsonTreeModel.VALUE_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(JsonTreeModel.TYPE_COLUMN, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(JsonTreeModel.KEY_COLUMN, 180)
        header.resizeSection(JsonTreeModel.TYPE_COLUMN, self.fontMetrics().horizontalAdvance("boolean") + 24)
        self.setColumnHidden(JsonTreeModel.SIZE_COLUMN, True)  # a parsed value has no size in a text
        if fit:
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.expanded.connect(self._refit)
            self.collapsed.connect(self._refit)
            self.json_model.rowsInserted.connect(self._refit)
            self.json_model.modelReset.connect(self._refit)
        self._initial_expand()

    def set_value(self, value: Any) -> None:
        self.json_model.set_value(value)
        self._initial_expand()

    def set_error_paths(self, errors: dict[str, list[str]]) -> None:
        """Mark the rows at these JSONPaths as wrong and expand down to them."""
        self.json_model.set_error_paths(errors)
        for path in errors:
            index = self.index_for_path(path)
            while index.isValid():
                self.expand(index)
                index = index.parent()

    def index_for_path(self, path: str) -> QModelIndex:
        """The index of the row at ``path`` among the rows created so far; invalid when not found."""

        def search(parent: QModelIndex) -> QModelIndex:
            model = self.json_model
            for row in range(model.rowCount(parent)):
                index = model.index(row, 0, parent)
                row_path = str(model.data(index, JsonTreeModel.PATH_ROLE))
                if row_path == path:
                    return index
                if path.startswith(row_path) and path[len(row_path) : len(row_path) + 1] in (".", "["):
                    found = search(index)
                    if found.isValid():
                        return found
            return QModelIndex()

        return search(QModelIndex())

    def _initial_expand(self) -> None:
        if self.json_model.rowCount() <= _AUTO_EXPAND_ROWS and _small(self.json_model.value()):
            self.expandToDepth(1)
        self._refit()

    def _refit(self) -> None:
        if not self._fit:
            return
        rows = 0

        def count(parent: QModelIndex) -> None:
            nonlocal rows
            for row in range(self.json_model.rowCount(parent)):
                rows += 1
                index = self.json_model.index(row, 0, parent)
                if self.isExpanded(index) and rows < 200:
                    count(index)

        count(QModelIndex())
        row_height = max(self.sizeHintForRow(0), self.fontMetrics().height() + 4) if rows else 20
        height = self.header().sizeHint().height() + rows * row_height + 2 * self.frameWidth() + 4
        horizontal = self.horizontalScrollBar()
        if horizontal.isVisible():
            height += horizontal.height()
        self.setFixedHeight(max(60, min(height, self._max_height)))

    def _context_menu(self, position: QPoint) -> None:
        index = self.indexAt(position)
        if not index.isValid():
            return
        value = self.json_model.data(index, JsonTreeModel.VALUE_ROLE)
        path = str(self.json_model.data(index, JsonTreeModel.PATH_ROLE))
        menu = QMenu(self)
        menu.addAction("Copy value", lambda: _copy(_as_text(value)))
        menu.addAction("Copy path", lambda: _copy(path))
        menu.addSeparator()
        menu.addAction("Expand all", self.expandAll)
        menu.addAction("Collapse all", self.collapseAll)
        menu.popup(self.viewport().mapToGlobal(position))


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def _copy(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(text)


def _small(value: Any, budget: int = 400) -> bool:
    """True when the value has at most ``budget`` nodes in its first two levels (cheap to expand)."""
    if json_kind(value) not in ("object", "array"):
        return True
    children = list(value.values()) if isinstance(value, dict) else list(value)
    total = len(children)
    for child in children:
        if isinstance(child, dict | list):
            total += len(child)
        if total > budget:
            return False
    return True
