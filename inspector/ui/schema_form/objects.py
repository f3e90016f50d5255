"""Objects as sub-forms (labelled rows, nested objects and lists in group boxes) and the shape picker for
``oneOf``/``anyOf`` of several shapes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from inspector.schema import MISSING, Kind, Node, PathPart, pick_variant
from inspector.schema.fit import validator_of
from inspector.ui.schema_form.base import Editor
from inspector.ui.schema_form.maps import MapEditor
from inspector.ui.schema_form.slot import CONTAINER_KINDS, Slot
from inspector.ui.schema_form.style import WheelGuard, field_label, field_tooltip, help_label, line_height

__all__ = ["ObjectEditor", "VariantEditor", "group_box"]


def group_box(title: str, *, required: bool, tooltip: str, content: QWidget, parent: QWidget) -> QGroupBox:
    """A titled frame around a nested field; a required one gets a bold title with an asterisk."""
    box = QGroupBox(f"{title} *" if required else title, parent)
    box.setToolTip(tooltip)
    box.setProperty("required", required)
    normal = QFont(parent.font())
    normal.setBold(False)
    if required:
        bold = QFont(normal)
        bold.setBold(True)
        box.setFont(bold)
        content.setFont(normal)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(10, 6, 10, 8)
    layout.addWidget(content)
    return box


class ObjectEditor(Editor):
    """One row per property. Keys the schema does not list are kept (and sent back) unless ``additional
    Properties`` has a schema, in which case they are edited in a key/value table."""

    def __init__(self, node: Node, parent: QWidget | None = None, *, flat: bool = False) -> None:
        super().__init__(node, parent)
        self._slots: dict[str, Slot] = {}
        self._extra: dict[str, Any] = {}
        self.labels: dict[str, QWidget] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        self.form_layout = QFormLayout()
        self.form_layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.form_layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form_layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.form_layout.setHorizontalSpacing(12)
        self.form_layout.setVerticalSpacing(8)
        layout.addLayout(self.form_layout)
        one_line = line_height()
        for prop in node.properties:
            slot = Slot(prop.node, required=prop.required, parent=self)
            tooltip = field_tooltip(prop.name, prop.node)
            if prop.node.kind in CONTAINER_KINDS:
                box = group_box(prop.label, required=prop.required, tooltip=tooltip, content=slot, parent=self)
                self.form_layout.addRow(box)
                self.labels[prop.name] = box
            else:
                label = field_label(prop.label, required=prop.required, tooltip=tooltip, parent=self)
                label.setBuddy(slot.editor_widget())
                label.setFixedHeight(min(slot.editor_widget().sizeHint().height(), one_line))
                label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                slot.editor_widget().setToolTip(tooltip)
                self.form_layout.addRow(label, slot)
                self.labels[prop.name] = label
            slot.changed.connect(self.emit_changed)
            self._slots[prop.name] = slot
        self.more: MapEditor | None = None
        if node.additional is not None:
            self.more = MapEditor(node, self)
            self.more.changed.connect(self.emit_changed)
            tip = "Properties not listed above (additionalProperties / patternProperties)"
            self.form_layout.addRow(
                group_box("Other properties", required=False, tooltip=tip, content=self.more, parent=self)
            )
        self.extra_label = help_label("", self)
        self.extra_label.hide()
        layout.addWidget(self.extra_label)
        if not node.properties and self.more is None:
            empty = help_label("No arguments." if flat else "No properties.", self)
            layout.addWidget(empty)

    def value(self) -> Any:
        result: dict[str, Any] = {}
        for name, slot in self._slots.items():
            item = slot.value()
            if item is not MISSING:
                result[name] = item
        if self.more is not None:
            more = self.more.value()
            if isinstance(more, dict):
                for key, item in more.items():
                    result.setdefault(key, item)
        for key, item in self._extra.items():
            result.setdefault(key, item)
        return result

    def _set(self, value: Any) -> None:
        for name, slot in self._slots.items():
            if name in value:
                slot.set_value(value[name])
            else:
                slot.clear()
        rest = {key: item for key, item in value.items() if key not in self._slots}
        self._extra = {}
        if self.more is not None:
            if self.more.accepts(rest):
                self.more.set_value(rest)
            else:
                self.more.clear()
                self._extra = rest
        else:
            self._extra = rest
        self._show_extra()

    def _show_extra(self) -> None:
        if self._extra:
            names = ", ".join(sorted(self._extra)[:5]) + (", …" if len(self._extra) > 5 else "")
            self.extra_label.setText(
                f"Also sends {len(self._extra)} unlisted propert"
                f"{'y' if len(self._extra) == 1 else 'ies'}: {names} (see Raw JSON)"
            )
        self.extra_label.setVisible(bool(self._extra))

    def _clear(self) -> None:
        for slot in self._slots.values():
            slot.clear()
        if self.more is not None:
            self.more.clear()
        self._extra = {}
        self._show_extra()

    def _reset(self, prefill: bool) -> None:
        for slot in self._slots.values():
            slot.reset()
        if self.more is not None:
            self.more.clear()
        self._extra = {}
        self._show_extra()

    def child(self, part: PathPart) -> Slot | None:
        return self._slots.get(part) if isinstance(part, str) else None

    def slots(self) -> list[tuple[tuple[PathPart, ...], Slot]]:
        return [((name,), slot) for name, slot in self._slots.items()]

    def local_errors(self) -> list[tuple[tuple[PathPart, ...], str]]:
        found = super().local_errors()
        if self.more is not None:
            found.extend(self.more.local_errors())
        return found


class VariantEditor(Editor):
    """A combo choosing the shape (a oneOf/anyOf branch, or one type of a type list), then its sub-form."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self._slots: list[Slot | None] = [None] * len(node.variants)
        self.picker = QComboBox(self)
        self.picker.setPlaceholderText("Choose…")
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for variant in node.variants:
            self.picker.addItem(variant.title)
        WheelGuard(self.picker)
        objects = all(variant.node.kind in (Kind.OBJECT, Kind.MAP) for variant in node.variants)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        row = QHBoxLayout()
        row.addWidget(QLabel("Shape:" if objects else "Type:", self))
        row.addWidget(self.picker)
        row.addStretch(1)
        layout.addLayout(row)
        self._body = QVBoxLayout()
        self._body.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._body)
        self.picker.currentIndexChanged.connect(self._on_picked)

    def branch(self, index: int) -> Slot:
        """The sub-form of variant ``index`` (built on first use)."""
        slot = self._slots[index]
        if slot is None:
            slot = Slot(self.node.variants[index].node, required=True, parent=self, compact=True)
            slot.changed.connect(self.emit_changed)
            slot.hide()
            self._body.addWidget(slot)
            self._slots[index] = slot
        return slot

    def current(self) -> Slot | None:
        index = self.picker.currentIndex()
        return self.branch(index) if 0 <= index < len(self._slots) else None

    def _show(self, index: int) -> None:
        for position, slot in enumerate(self._slots):
            if slot is not None and position != index:
                slot.hide()
        if 0 <= index < len(self._slots):
            self.branch(index).show()

    def _on_picked(self, index: int) -> None:
        self._show(index)
        self.emit_changed()

    def select(self, index: int) -> None:
        """Choose variant ``index`` as the user would (emits ``changed``)."""
        self.picker.setCurrentIndex(index)

    def value(self) -> Any:
        slot = self.current()
        return MISSING if slot is None else slot.value()

    def accepts(self, value: Any) -> bool:
        return pick_variant(self.node, value, validator_of(self.node)) is not None

    def _set(self, value: Any) -> None:
        index = pick_variant(self.node, value, validator_of(self.node))
        if index is None:
            return
        self.picker.setCurrentIndex(index)
        self._show(index)
        self.branch(index).set_value(value)

    def _clear(self) -> None:
        self.picker.setCurrentIndex(-1)
        self._show(-1)

    def _reset(self, prefill: bool) -> None:
        for slot in self._slots:
            if slot is not None:
                slot.reset()
        index = 0 if prefill and self._slots else -1
        self.picker.setCurrentIndex(index)
        self._show(index)

    def focus_widget(self) -> QWidget:
        return self.picker

    def child(self, part: PathPart) -> Slot | None:
        slot = self.current()
        return slot.child(part) if slot is not None else None

    def slots(self) -> list[tuple[tuple[PathPart, ...], Slot]]:
        slot = self.current()
        return [((), slot)] if slot is not None else []
