"""A Slot holds one field: its editor, whether it is present, the null toggle, the JSON fallback, help and errors.

Presence: a field is present when it has a default, after ``set_value``, or once the user edits it. An
optional field that is not present is left out (``value()`` is ``MISSING``); the ✕ button, or emptying a text
field, leaves it out again. A required field that is not present is left out only while its editor shows
nothing (an untouched empty text field), so validation says "is required" rather than sending ``""``.

JSON fallback: when ``set_value`` gets a value the editor cannot show exactly (a history entry from an older
schema, an invalid type), the field switches to a JSON editor holding that value; "Use form" switches back
once the JSON fits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from inspector.schema import MISSING, Kind, Node, PathPart, initial_value
from inspector.ui.schema_form.base import Editor, LocalError
from inspector.ui.schema_form.jsonedit import JsonEditor
from inspector.ui.schema_form.style import clear_icon, error_label, help_label, line_height

__all__ = ["CONTAINER_KINDS", "Slot"]

CONTAINER_KINDS = frozenset({Kind.OBJECT, Kind.ARRAY, Kind.MAP, Kind.VARIANTS})


def _retain_when_hidden(widget: QWidget) -> None:
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    widget.setSizePolicy(policy)


class Slot(QWidget):
    """One field of a form (or the whole form, at the root)."""

    changed = Signal()

    def __init__(
        self, node: Node, *, required: bool, parent: QWidget | None = None, compact: bool = False, flat: bool = False
    ) -> None:
        super().__init__(parent)
        from inspector.ui.schema_form.builder import build_editor

        self.node = node
        self.required = required
        self._present = False
        self._json: JsonEditor | None = None
        self._json_mode = False
        self.typed: Editor = build_editor(node, self, flat=flat)
        container = node.kind in CONTAINER_KINDS

        self.null_toggle: QCheckBox | None = None
        if node.nullable:
            self.null_toggle = QCheckBox("null", self)
            self.null_toggle.setToolTip("Send null for this field")
            self.null_toggle.toggled.connect(self._on_null_toggled)
        self.clear_button: QToolButton | None = None
        if not required:
            self.clear_button = QToolButton(self)
            self.clear_button.setIcon(
                clear_icon(self.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText))
            )
            self.clear_button.setAutoRaise(True)
            self.clear_button.setFixedSize(line_height(), line_height())
            self.clear_button.setToolTip("Leave this optional field out of the arguments")
            self.clear_button.setCursor(Qt.CursorShape.PointingHandCursor)
            self.clear_button.clicked.connect(self._on_clear_clicked)
            _retain_when_hidden(self.clear_button)
        self.form_button = QToolButton(self)
        self.form_button.setText("Use form")
        self.form_button.setFixedHeight(line_height())
        self.form_button.setToolTip("Edit this value with the form again")
        self.form_button.clicked.connect(self._on_form_clicked)
        self.form_button.hide()
        self.help_label: QLabel | None = (
            help_label(node.description, self) if node.description and not compact else None
        )
        self.error_label = error_label(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self._editor_row = QHBoxLayout()
        self._editor_row.setSpacing(4)
        self._editor_row.addWidget(self.typed, 1)
        controls = [w for w in (self.form_button, self.null_toggle, self.clear_button) if w is not None]
        if container and controls:
            header = QHBoxLayout()
            header.setSpacing(4)
            if self.help_label is not None:
                header.addWidget(self.help_label, 1)
            else:
                header.addStretch(1)
            for widget in controls:
                header.addWidget(widget, 0, Qt.AlignmentFlag.AlignTop)
            layout.addLayout(header)
        else:
            if container and self.help_label is not None:
                layout.addWidget(self.help_label)
            for widget in controls:
                self._editor_row.addWidget(widget, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(self._editor_row)
        if not container and self.help_label is not None:
            layout.addWidget(self.help_label)
        layout.addWidget(self.error_label)
        self.typed.changed.connect(self._on_edited)
        self.reset()

    # --- value -------------------------------------------------------------------------------------------
    @property
    def editor(self) -> Editor:
        """The editor in use: the typed one, or the JSON fallback."""
        return self._json if self._json_mode and self._json is not None else self.typed

    def is_present(self) -> bool:
        return self._present

    def is_null(self) -> bool:
        return self.null_toggle is not None and self.null_toggle.isChecked()

    def is_json_mode(self) -> bool:
        return self._json_mode

    def value(self) -> Any:
        if not self._present and (not self.required or self.editor.is_blank()):
            return MISSING
        if self.is_null():
            return None
        return self.editor.value()

    def set_value(self, value: Any) -> None:
        """Show ``value`` exactly (MISSING leaves an optional field out); never emits ``changed``."""
        if value is MISSING:
            self.clear()
            return
        self._present = True
        if value is None and self.null_toggle is not None:
            self._set_null(True)
        elif self.typed.accepts(value):
            self._set_null(False)
            self._leave_json()
            self.typed.set_value(value)
        else:
            self._set_null(False)
            self._enter_json(value)
        self._sync()

    def clear(self) -> None:
        """Empty the field (it is then left out)."""
        self._present = False
        self._set_null(False)
        self._leave_json()
        self.typed.clear()
        self._sync()

    def reset(self) -> None:
        """Back to the schema's starting state: the default, or an empty (absent, if optional) field."""
        self._set_null(False)
        self._leave_json()
        self.typed.reset(prefill=self.required)
        start = initial_value(self.node, required=self.required)
        if start is MISSING:
            self._present = False
            self._sync()
        else:
            self.set_value(start)

    # --- user edits ------------------------------------------------------------------------------------------
    def _on_edited(self) -> None:
        self._present = self.required or not self.editor.is_blank()
        self._sync()
        self.changed.emit()

    def _on_null_toggled(self, _checked: bool) -> None:
        self._present = True
        self._sync()
        self.changed.emit()

    def _on_clear_clicked(self) -> None:
        self.clear()
        self.changed.emit()

    def _on_form_clicked(self) -> None:
        assert self._json is not None
        value = self._json.value()
        if value is MISSING and not self._json.is_blank():
            self.set_errors(["Fix the JSON first"])
            return
        if value is not MISSING and not self.typed.accepts(value):
            self.set_errors(["This value does not fit the form; keep editing it as JSON"])
            return
        self._leave_json()
        if value is MISSING:
            self.typed.clear()
        else:
            self.typed.set_value(value)
        self.set_errors([])
        self._sync()
        self.changed.emit()

    # --- modes -------------------------------------------------------------------------------------------------
    def _set_null(self, on: bool) -> None:
        if self.null_toggle is not None:
            self.null_toggle.blockSignals(True)
            self.null_toggle.setChecked(on)
            self.null_toggle.blockSignals(False)

    def _enter_json(self, value: Any) -> None:
        if self._json is None:
            self._json = JsonEditor(self.node, self)
            self._json.changed.connect(self._on_edited)
            self._editor_row.insertWidget(1, self._json, 1)
        self._json.set_value(value)
        self._json_mode = True
        self.typed.hide()
        self._json.show()
        self.form_button.setVisible(self.node.kind is not Kind.JSON)

    def _leave_json(self) -> None:
        if not self._json_mode:
            return
        self._json_mode = False
        if self._json is not None:
            self._json.hide()
            self._json.clear()
        self.typed.show()
        self.form_button.hide()

    def _sync(self) -> None:
        null = self.is_null()
        self.typed.setEnabled(not null)
        if self._json is not None:
            self._json.setEnabled(not null)
        if self.node.kind in CONTAINER_KINDS:
            # A null object or list shows no (disabled) sub-form, just the toggle.
            self.editor.setVisible(not null)
        if self.clear_button is not None:
            self.clear_button.setVisible(self._present)

    # --- navigation, errors ---------------------------------------------------------------------------------
    def editor_widget(self) -> QWidget:
        return self.editor.focus_widget()

    def child(self, part: PathPart) -> Slot | None:
        return None if self._json_mode else self.typed.child(part)

    def descend(self, parts: Sequence[PathPart]) -> Slot | None:
        slot: Slot | None = self
        for part in parts:
            if slot is None:
                return None
            slot = slot.child(part)
        return slot

    def locate(self, parts: Sequence[PathPart]) -> tuple[Slot, int]:
        """The deepest slot along ``parts`` and how many parts lead to it."""
        slot, used = self, 0
        for part in parts:
            nxt = slot.child(part)
            if nxt is None:
                break
            slot, used = nxt, used + 1
        return slot, used

    def walk(self, prefix: tuple[PathPart, ...] = ()) -> Iterator[tuple[tuple[PathPart, ...], Slot]]:
        """This slot and every slot inside it that is in use, with their paths."""
        yield prefix, self
        if not self._json_mode:
            for relative, slot in self.typed.slots():
                yield from slot.walk((*prefix, *relative))

    def local_errors(self) -> list[LocalError]:
        if self.is_null() or (not self._present and self.value() is MISSING):
            return []
        return self.editor.local_errors()

    def set_errors(self, messages: list[str]) -> None:
        text = "\n".join(messages)
        if text != self.error_label.text():
            self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def error_text(self) -> str:
        return self.error_label.text()
