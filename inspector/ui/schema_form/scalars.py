"""Editors for scalar nodes: strings (with formats), integers and numbers, booleans, choices and null."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QWidget,
)

from inspector.schema import MISSING, Node, placeholder
from inspector.schema.values import TEXT_WIDGET_UNSAFE
from inspector.ui.schema_form.base import Editor, LocalError
from inspector.ui.schema_form.jsonedit import JsonTextEdit
from inspector.ui.schema_form.pickers import CalendarButton
from inspector.ui.schema_form.spinbox import NumberSpinBox
from inspector.ui.schema_form.style import WheelGuard

__all__ = ["BooleanEditor", "EnumEditor", "NullEditor", "NumberEditor", "StringEditor"]

_LINE_MAX = 2**31 - 1
_LONG_TEXT = 1000


def _row(widget: QWidget) -> QHBoxLayout:
    layout = QHBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    return layout


class StringEditor(Editor):
    """A line edit (any text round-trips), a calendar for date formats, multi-line for text with newlines."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.line_edit = QLineEdit(self)
        self.line_edit.setMaxLength(_LINE_MAX)
        self.line_edit.setPlaceholderText(placeholder(node))
        self.line_edit.setClearButtonEnabled(False)
        if node.format == "password" or node.schema.get("writeOnly") is True:
            self.line_edit.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        self.text_edit: QPlainTextEdit | None = None
        self._multi = False
        self.calendar_button: CalendarButton | None = None
        layout = _row(self)
        layout.addWidget(self.line_edit, 1)
        if node.format in ("date", "date-time"):
            self.calendar_button = CalendarButton(with_time=node.format == "date-time", current=self.text, parent=self)
            self.calendar_button.picked.connect(self._on_picked)
            layout.addWidget(self.calendar_button)
        self.line_edit.textEdited.connect(self.emit_changed)
        long_text = (node.max_length or 0) > _LONG_TEXT or "contentMediaType" in node.schema
        if long_text and node.format is None:
            self.set_multiline(True)

    @property
    def multiline(self) -> bool:
        return self._multi

    def set_multiline(self, on: bool) -> None:
        """Switch between the line edit and a multi-line box, keeping the text."""
        text = self.text()
        if on and self.text_edit is None:
            self.text_edit = JsonTextEdit(self, min_lines=3, max_lines=12)
            self.text_edit.setFont(self.line_edit.font())
            self.text_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            self.text_edit.setPlaceholderText(self.line_edit.placeholderText())
            self.text_edit.textChanged.connect(self._on_text_edit_changed)
            layout = self.layout()
            assert isinstance(layout, QHBoxLayout)
            layout.insertWidget(0, self.text_edit, 1)
        if self.text_edit is not None:
            self.text_edit.setVisible(on)
        self.line_edit.setVisible(not on)
        self._multi = on and self.text_edit is not None
        with self.quiet():
            self._put(text)

    def _on_text_edit_changed(self) -> None:
        if self.multiline:
            self.emit_changed()

    def text(self) -> str:
        if self._multi and self.text_edit is not None:
            return self.text_edit.toPlainText()
        return self.line_edit.text()

    def _put(self, text: str) -> None:
        if self._multi and self.text_edit is not None:
            self.text_edit.setPlainText(text)
        else:
            self.line_edit.setText(text)

    def _on_picked(self, text: str) -> None:
        self._put(text)
        self.emit_changed()

    def value(self) -> Any:
        return self.text()

    def _set(self, value: Any) -> None:
        multiline_ok = not any(char in TEXT_WIDGET_UNSAFE for char in value)
        if "\n" in value and multiline_ok:
            self.set_multiline(True)
        elif not multiline_ok and self.text_edit is not None:
            self.set_multiline(False)
        self._put(value)

    def _clear(self) -> None:
        self._put("")

    def is_blank(self) -> bool:
        return self.text() == ""

    def focus_widget(self) -> QWidget:
        if self._multi and self.text_edit is not None:
            return self.text_edit
        return self.line_edit


class NumberEditor(Editor):
    """Integers (any size) and numbers in a NumberSpinBox; empty text is "no value"."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.spin_box = NumberSpinBox(node, self)
        self.spin_box.lineEdit().setPlaceholderText(placeholder(node))
        self.spin_box.updateGeometry()
        self.spin_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        layout = _row(self)
        layout.addWidget(self.spin_box)
        layout.addStretch(1)
        self.spin_box.edited.connect(self.emit_changed)

    def value(self) -> Any:
        try:
            number = self.spin_box.number()
        except ValueError:
            return MISSING
        return MISSING if number is None else number

    def _set(self, value: Any) -> None:
        self.spin_box.set_number(value)

    def _clear(self) -> None:
        self.spin_box.set_number(None)

    def is_blank(self) -> bool:
        return not self.spin_box.text_value().strip()

    def focus_widget(self) -> QWidget:
        return self.spin_box

    def local_errors(self) -> list[LocalError]:
        try:
            self.spin_box.number()
        except ValueError:
            return [((), "not a whole number" if self.spin_box.integer else "not a number")]
        return []


class BooleanEditor(Editor):
    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.check_box = QCheckBox(self)
        layout = _row(self)
        layout.addWidget(self.check_box)
        layout.addStretch(1)
        self.check_box.toggled.connect(self._on_toggled)

    def _on_toggled(self, _checked: bool) -> None:
        self.emit_changed()

    def value(self) -> Any:
        return self.check_box.isChecked()

    def _set(self, value: Any) -> None:
        self.check_box.setChecked(bool(value))

    def _clear(self) -> None:
        self.check_box.setChecked(False)

    def focus_widget(self) -> QWidget:
        return self.check_box


class EnumEditor(Editor):
    """A drop-down labelled by the choices' titles; no selection is "no value"."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.combo_box = QComboBox(self)
        self.combo_box.setPlaceholderText("Select…")
        self.combo_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.combo_box.setMinimumContentsLength(8)
        for index, choice in enumerate(node.choices):
            self.combo_box.addItem(choice.title)
            tip = choice.description or (choice.title if choice.title == str(choice.value) else f"{choice.value!r}")
            self.combo_box.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        WheelGuard(self.combo_box)
        layout = _row(self)
        layout.addWidget(self.combo_box)
        layout.addStretch(1)
        self.combo_box.currentIndexChanged.connect(self._on_index_changed)

    def _on_index_changed(self, _index: int) -> None:
        self.emit_changed()

    def value(self) -> Any:
        index = self.combo_box.currentIndex()
        return self.node.choices[index].value if 0 <= index < len(self.node.choices) else MISSING

    def _set(self, value: Any) -> None:
        index = self.node.choice_index(value)
        self.combo_box.setCurrentIndex(-1 if index is None else index)

    def _clear(self) -> None:
        self.combo_box.setCurrentIndex(-1)

    def focus_widget(self) -> QWidget:
        return self.combo_box


class NullEditor(Editor):
    """The only value of ``type: null``."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.label = QLabel("null", self)
        self.label.setEnabled(False)
        _row(self).addWidget(self.label)

    def value(self) -> Any:
        return None

    def _set(self, value: Any) -> None:
        pass

    def _clear(self) -> None:
        pass
