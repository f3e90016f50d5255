"""Arrays: a list editor (add, remove, reorder rows; object items as repeated sub-forms) and, for arrays of
choices, a checkable multi-select that keeps the order in which items were picked."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.schema import MISSING, Node, PathPart
from inspector.ui.schema_form.base import Editor, LocalError
from inspector.ui.schema_form.slot import CONTAINER_KINDS, Slot
from inspector.ui.schema_form.style import help_label
from inspector.ui.widgets.resources import icon_button

__all__ = ["ArrayEditor", "ArrayRow", "MultiEnumEditor"]


def _items_hint(node: Node, count: int) -> str:
    parts = [f"{count} item{'' if count == 1 else 's'}"]
    if node.min_items and node.max_items is not None:
        parts.append(f"{node.min_items}-{node.max_items} allowed")
    elif node.min_items:
        parts.append(f"at least {node.min_items}")
    elif node.max_items is not None:
        parts.append(f"at most {node.max_items}")
    if node.unique_items:
        parts.append("no duplicates")
    return " · ".join(parts)


class ArrayRow(QFrame):
    """One item: its slot plus move-up, move-down and remove buttons."""

    def __init__(self, editor: ArrayEditor, item: Node) -> None:
        super().__init__(editor)
        self.slot = Slot(item, required=True, parent=self, compact=True)
        self.up_button = self._button("arrow-up", "Move up")
        self.down_button = self._button("arrow-down", "Move down")
        self.remove_button = self._button("trash", "Remove this item")
        self.title = QLabel(self)
        buttons = QHBoxLayout()
        buttons.setSpacing(0)
        for button in (self.up_button, self.down_button, self.remove_button):
            buttons.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        if item.kind in CONTAINER_KINDS:
            self.setFrameShape(QFrame.Shape.StyledPanel)
            font = QFont(self.title.font())
            font.setBold(True)
            self.title.setFont(font)
            layout = QVBoxLayout(self)
            layout.setContentsMargins(8, 4, 4, 8)
            header = QHBoxLayout()
            header.addWidget(self.title)
            header.addStretch(1)
            header.addLayout(buttons)
            layout.addLayout(header)
            layout.addWidget(self.slot)
        else:
            self.title.hide()
            row = QHBoxLayout(self)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(4)
            row.addWidget(self.slot, 1)
            row.addLayout(buttons)
        self.up_button.clicked.connect(lambda: editor.move_item(editor.index_of(self), -1))
        self.down_button.clicked.connect(lambda: editor.move_item(editor.index_of(self), 1))
        self.remove_button.clicked.connect(lambda: editor.remove_item(editor.index_of(self)))

    def _button(self, icon: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        icon_button(button, icon)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        return button


class ArrayEditor(Editor):
    """A list editor; ``maxItems`` disables Add, the other constraints are validated."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.rows: list[ArrayRow] = []
        self._rows_layout = QVBoxLayout()
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.setSpacing(6)
        self.add_button = QPushButton("Add item", self)
        self.add_button.setToolTip("Append an item to the list")
        self.hint = help_label("", self)
        self.hint.setWordWrap(False)
        footer = QHBoxLayout()
        footer.setContentsMargins(0, 0, 0, 0)
        footer.addWidget(self.add_button)
        footer.addWidget(self.hint)
        footer.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(self._rows_layout)
        layout.addLayout(footer)
        self.add_button.clicked.connect(self._on_add)
        self._refresh()

    # --- rows -----------------------------------------------------------------------------------------------
    def index_of(self, row: ArrayRow) -> int:
        return self.rows.index(row)

    def _new_row(self, value: Any = MISSING) -> ArrayRow:
        row = ArrayRow(self, self.node.items)
        if value is not MISSING:
            row.slot.set_value(value)
        row.slot.changed.connect(self.emit_changed)
        self.rows.append(row)
        self._rows_layout.addWidget(row)
        row.show()  # at once, not on the next event-loop turn as a layout would for a visible parent
        return row

    def add_item(self, value: Any = MISSING) -> Slot:
        """Append an item (at its defaults, or ``value``) as the Add button does; emits ``changed``."""
        row = self._new_row(value)
        self._refresh()
        self.emit_changed()
        return row.slot

    def _on_add(self) -> None:
        slot = self.add_item()
        slot.editor_widget().setFocus()

    def remove_item(self, index: int) -> None:
        row = self.rows.pop(index)
        self._rows_layout.removeWidget(row)
        row.hide()
        row.deleteLater()
        self._refresh()
        self.emit_changed()

    def move_item(self, index: int, offset: int) -> None:
        target = index + offset
        if not (0 <= index < len(self.rows) and 0 <= target < len(self.rows)):
            return
        row = self.rows.pop(index)
        self.rows.insert(target, row)
        self._rows_layout.removeWidget(row)
        self._rows_layout.insertWidget(target, row)
        self._refresh()
        self.emit_changed()

    def _refresh(self) -> None:
        count = len(self.rows)
        for index, row in enumerate(self.rows):
            row.title.setText(f"Item {index + 1}")
            row.up_button.setEnabled(index > 0)
            row.down_button.setEnabled(index < count - 1)
        limit = self.node.max_items
        self.add_button.setEnabled(limit is None or count < limit)
        self.hint.setText(_items_hint(self.node, count))

    def _truncate(self, count: int) -> None:
        while len(self.rows) > count:
            row = self.rows.pop()
            self._rows_layout.removeWidget(row)
            row.hide()
            row.deleteLater()

    # --- Editor ---------------------------------------------------------------------------------------------
    def value(self) -> Any:
        values = (row.slot.value() for row in self.rows)
        return [item for item in values if item is not MISSING]

    def _set(self, value: Any) -> None:
        self._truncate(len(value))
        for index, item in enumerate(value):
            if index < len(self.rows):
                self.rows[index].slot.set_value(item)
            else:
                self._new_row(item)
        self._refresh()

    def _clear(self) -> None:
        self._truncate(0)
        self._refresh()

    def _reset(self, prefill: bool) -> None:
        self._truncate(0)
        for _ in range(self.node.min_items if prefill else 0):
            self._new_row().slot.reset()
        self._refresh()

    def is_blank(self) -> bool:
        return False

    def child(self, part: PathPart) -> Slot | None:
        return self.rows[part].slot if isinstance(part, int) and 0 <= part < len(self.rows) else None

    def slots(self) -> list[tuple[tuple[PathPart, ...], Slot]]:
        return [((index,), row.slot) for index, row in enumerate(self.rows)]

    def local_errors(self) -> list[LocalError]:
        found = super().local_errors()
        for index, row in enumerate(self.rows):
            if row.slot.value() is MISSING and not row.slot.local_errors():
                found.append(((index,), "is empty (it will not be sent)"))
        return found


class MultiEnumEditor(Editor):
    """Checkable choices; ``value()`` lists the checked ones in the order they were picked."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self._selected: list[Any] = []
        self.list_widget = QListWidget(self)
        self.list_widget.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        for choice in node.choices:
            item = QListWidgetItem(choice.title, self.list_widget)
            item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            item.setCheckState(Qt.CheckState.Unchecked)
            if choice.description:
                item.setToolTip(choice.description)
        rows = max(1, min(8, len(node.choices)))
        height = self.list_widget.sizeHintForRow(0) * rows + self.list_widget.frameWidth() * 2 + 4
        self.list_widget.setFixedHeight(height)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list_widget)
        self.list_widget.itemChanged.connect(self._on_item_changed)

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        value = self.node.choices[self.list_widget.row(item)].value
        index = self.node.choice_index(value)
        if item.checkState() == Qt.CheckState.Checked:
            if not any(self.node.choice_index(picked) == index for picked in self._selected):
                self._selected.append(value)
        else:
            self._selected = [picked for picked in self._selected if self.node.choice_index(picked) != index]
        self._sync_checks()
        self.emit_changed()

    def _sync_checks(self) -> None:
        chosen = {self.node.choice_index(picked) for picked in self._selected}
        limit = self.node.max_items
        full = limit is not None and len(self._selected) >= limit
        self.list_widget.blockSignals(True)
        for row in range(self.list_widget.count()):
            item = self.list_widget.item(row)
            checked = row in chosen
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            flags = Qt.ItemFlag.ItemIsUserCheckable
            if checked or not full:
                flags |= Qt.ItemFlag.ItemIsEnabled
            item.setFlags(flags)
        self.list_widget.blockSignals(False)

    def set_checked(self, value: Any, checked: bool) -> None:
        """Check or uncheck the choice whose value is ``value`` (as a click would; emits ``changed``)."""
        index = self.node.choice_index(value)
        if index is not None:
            state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
            self.list_widget.item(index).setCheckState(state)

    def value(self) -> Any:
        return list(self._selected)

    def _set(self, value: Any) -> None:
        self._selected = list(value)
        self._sync_checks()

    def _clear(self) -> None:
        self._set([])

    def is_blank(self) -> bool:
        return False

    def focus_widget(self) -> QWidget:
        return self.list_widget
