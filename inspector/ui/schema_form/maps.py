"""``additionalProperties`` / ``patternProperties`` maps as a key/value table."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.schema import Node
from inspector.schema.fit import cell_text, map_values_are_text, parse_cell
from inspector.ui.schema_form.base import Editor, LocalError
from inspector.ui.widgets.resources import icon_button

__all__ = ["MapEditor"]

_VISIBLE_ROWS = (2, 8)
_FRESH = Qt.ItemDataRole.UserRole + 1  # on the key cell: added by "Add entry" and not edited yet


class MapEditor(Editor):
    """Rows of key and value; values are plain text for string maps and JSON otherwise (bare text is taken as
    a string where strings are allowed). A row added with "Add entry" counts once one of its cells is edited."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.table = QTableWidget(0, 2, self)
        value_kind = "text" if map_values_are_text(node) else "JSON"
        self.table.setHorizontalHeaderLabels(["Key", f"Value ({value_kind})"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 160)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        pattern = node.key_pattern
        key_header = self.table.horizontalHeaderItem(0)
        if pattern and key_header is not None:
            key_header.setToolTip(f"Keys must match {pattern}")
        self.add_button = QPushButton("Add entry", self)
        self.remove_button = QPushButton("Remove", self)
        icon_button(self.remove_button, "trash")
        self.remove_button.setToolTip("Remove the selected entries")
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.add_button.clicked.connect(self._on_add)
        self.remove_button.clicked.connect(self._on_remove)
        self.table.itemChanged.connect(self._on_item_changed)
        self._fit_height()

    def _fit_height(self) -> None:
        low, high = _VISIBLE_ROWS
        rows = max(low, min(high, self.table.rowCount()))
        row_height = self.table.verticalHeader().defaultSectionSize()
        frame = self.table.frameWidth() * 2
        self.table.setFixedHeight(self.table.horizontalHeader().sizeHint().height() + rows * row_height + frame)

    def _append(self, key: str, text: str, *, fresh: bool = False) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        key_item = QTableWidgetItem(key)
        key_item.setData(_FRESH, fresh)
        self.table.setItem(row, 0, key_item)
        self.table.setItem(row, 1, QTableWidgetItem(text))
        self._fit_height()

    def add_entry(self, key: str = "", value_text: str = "") -> int:
        """Append a row (as the Add button does, emitting ``changed``); returns its index."""
        self.table.blockSignals(True)
        self._append(key, value_text, fresh=not key and not value_text)
        self.table.blockSignals(False)
        self.emit_changed()
        return self.table.rowCount() - 1

    def _on_add(self) -> None:
        row = self.add_entry()
        self.table.setCurrentCell(row, 0)
        item = self.table.item(row, 0)
        if item is not None:
            self.table.editItem(item)

    def _on_remove(self) -> None:
        rows = sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
        self._fit_height()
        if rows:
            self.emit_changed()

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        key_item = self.table.item(item.row(), 0)
        if key_item is not None and key_item.data(_FRESH):
            self.table.blockSignals(True)
            key_item.setData(_FRESH, False)
            self.table.blockSignals(False)
        self.emit_changed()

    def _cells(self) -> list[tuple[int, str, str]]:
        cells = []
        for row in range(self.table.rowCount()):
            key_item, value_item = self.table.item(row, 0), self.table.item(row, 1)
            if key_item is not None and key_item.data(_FRESH):
                continue
            key = key_item.text() if key_item is not None else ""
            text = value_item.text() if value_item is not None else ""
            cells.append((row, key, text))
        return cells

    def value(self) -> Any:
        result: dict[str, Any] = {}
        for _row, key, text in self._cells():
            try:
                result.setdefault(key, parse_cell(self.node, text))
            except ValueError:
                continue
        return result

    def local_errors(self) -> list[LocalError]:
        found: list[LocalError] = []
        seen: set[str] = set()
        for row, key, text in self._cells():
            if key in seen:
                found.append(((key,), f"duplicate key in row {row + 1}"))
            seen.add(key)
            try:
                parse_cell(self.node, text)
            except ValueError as exc:
                found.append(((key,), str(exc)))
        return found

    def _set(self, value: Any) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for key, item in value.items():
            self._append(str(key), cell_text(self.node, item))
        self.table.blockSignals(False)
        self._fit_height()

    def _clear(self) -> None:
        self._set({})

    def is_blank(self) -> bool:
        return False

    def focus_widget(self) -> QWidget:
        return self

    def row_count(self) -> int:
        return self.table.rowCount()

    def set_cell(self, row: int, column: int, text: str) -> None:
        """Type ``text`` into a cell (as a user would; emits ``changed``)."""
        item = self.table.item(row, column)
        if item is None:
            self.table.setItem(row, column, QTableWidgetItem(text))
        else:
            item.setText(text)
