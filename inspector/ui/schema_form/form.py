"""``SchemaForm``: a form generated from a JSON Schema (a tool's inputSchema, an elicitation's requestedSchema).

    form = SchemaForm(tool["inputSchema"])
    form.set_value(previous_arguments)
    if not form.errors():
        send(form.value())

Fields are addressed by paths such as ``address.city`` or ``items[0].name`` (``field(path)`` gives the input
widget, ``slot(path)`` the whole field). Validation runs ``jsonschema`` (draft from ``$schema``, 2020-12 by
default) on ``value()``; while the user edits, errors appear under the fields after a short pause.
The "Raw JSON" toggle swaps the form for a text editor with the same value; nothing rewrites that text while
it is being typed, and switching back parses it into the form (invalid JSON keeps the raw editor open).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QScrollArea,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.jsonpath import format_path, parse_path
from inspector.schema import (
    MISSING,
    FieldError,
    Kind,
    Node,
    SchemaValidator,
    classify,
    parse_json_text,
    to_json_text,
)
from inspector.ui.schema_form.access import name_fields
from inspector.ui.schema_form.base import Editor
from inspector.ui.schema_form.slot import Slot
from inspector.ui.schema_form.style import error_label, help_label
from inspector.ui.widgets.theme import follow_font
from inspector.ui.widgets.timers import coalescer

__all__ = ["SchemaForm"]


class SchemaForm(QWidget):
    """A QWidget editing one JSON value described by ``schema``; see the module docstring."""

    valueChanged = Signal()
    VALIDATION_DELAY_MS = 300

    def __init__(self, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.schema = schema
        self.node: Node = classify(schema)
        self.validator = SchemaValidator(schema)
        self.node.resolver.cache["validator"] = self.validator
        self._raw = False
        self._touched = False
        self._loading_raw = False

        self.root = Slot(self.node, required=True, parent=self, flat=True)
        self.root.setObjectName("schemaFormRoot")
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(12, 10, 12, 12)
        content_layout.addWidget(self.root)
        content_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setAccessibleName("Arguments form")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(content)

        self.raw_edit = QPlainTextEdit(self)
        follow_font(self.raw_edit, "mono")
        self.raw_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.raw_edit.setPlaceholderText("The arguments as JSON")
        self.raw_error_label = error_label(self)
        raw_page = QWidget(self)
        raw_layout = QVBoxLayout(raw_page)
        raw_layout.setContentsMargins(12, 6, 12, 12)
        raw_layout.addWidget(self.raw_edit, 1)
        raw_layout.addWidget(self.raw_error_label)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.scroll_area)
        self.stack.addWidget(raw_page)

        self.raw_toggle = QToolButton(self)
        self.raw_toggle.setText("Raw JSON")
        self.raw_toggle.setCheckable(True)
        self.raw_toggle.setToolTip("Edit the whole value as JSON text")
        self.reset_button = QToolButton(self)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Back to the schema's defaults")
        self.legend = help_label("* required", self)
        self.legend.setVisible(self._has_required(self.node))
        toolbar = QHBoxLayout()
        toolbar.setContentsMargins(12, 6, 12, 0)
        toolbar.addWidget(self.legend)
        toolbar.addStretch(1)
        toolbar.addWidget(self.reset_button)
        toolbar.addWidget(self.raw_toggle)
        self.form_error_label = error_label(self)
        self.form_error_label.setContentsMargins(12, 0, 12, 0)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(toolbar)
        layout.addWidget(self.form_error_label)
        layout.addWidget(self.stack, 1)

        self.validation_timer = coalescer(self, self.VALIDATION_DELAY_MS, self._refresh_errors)
        self.root.changed.connect(self._on_form_changed)
        self.raw_edit.textChanged.connect(self._on_raw_changed)
        self.raw_toggle.toggled.connect(self._on_raw_toggled)
        self.reset_button.clicked.connect(self.reset)
        self.raw_edit.setAccessibleName("Arguments as JSON")
        self._naming = coalescer(self, 0, lambda: name_fields(self.root))
        self.valueChanged.connect(lambda: self._naming.start())  # items added or removed, a variant picked: named again
        name_fields(self.root)

    @staticmethod
    def _has_required(node: Node) -> bool:
        return node.kind is Kind.OBJECT and any(prop.required for prop in node.properties)

    # --- value ---------------------------------------------------------------------------------------------
    def value(self) -> Any:
        """The value. In raw mode it is the parsed text (ValueError when it is not JSON: check ``errors()``)."""
        if self._raw:
            return parse_json_text(self.raw_edit.toPlainText())
        value = self.root.value()
        return None if value is MISSING else value

    def set_value(self, value: Any) -> None:
        """Show ``value``; parts an editor cannot show exactly are edited as JSON in that field."""
        if self._raw:
            self._load_raw(to_json_text(value))
        else:
            self.root.set_value(value)
        self._touched = True
        self.validation_timer.start()
        self.valueChanged.emit()

    def reset(self) -> None:
        """Back to the schema's defaults (and empty optional fields)."""
        self.root.reset()
        if self._raw:
            self._load_raw(to_json_text(self.value_of_form()))
        self._touched = False
        self._show([])
        self.valueChanged.emit()

    def value_of_form(self) -> Any:
        value = self.root.value()
        return None if value is MISSING else value

    # --- validation ----------------------------------------------------------------------------------------
    def errors(self) -> list[str]:
        """Every problem, as ``path: message`` lines (empty when the value can be sent); also shown inline."""
        found = self._collect()
        self.validation_timer.stop()
        self._show(found)
        return [str(error) for error in found]

    def problems(self) -> list[FieldError]:
        """Every problem with its path (as ``errors()``, also shown inline): what a list of problems shows and
        ``focus_field(error.path_str)`` goes to."""
        found = self._collect()
        self.validation_timer.stop()
        self._show(found)
        return found

    def focus_field(self, path: str) -> bool:
        """Scroll to the field at ``path`` (the deepest one that exists) and give its editor the focus; in raw
        mode the raw editor. False when nothing could take the focus."""
        if self._raw:
            self.raw_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        try:
            parts = parse_path(path, root="")
        except ValueError:
            parts = ()
        slot, _used = self.root.locate(parts)
        if slot is self.root:
            self.scroll_area.ensureVisible(0, 0)
            return False
        self.scroll_area.ensureWidgetVisible(slot, 20, 20)
        widget = slot.editor_widget()
        widget.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def fitting_height(self) -> int:
        """The height that shows the whole form without scrolling (toolbar, form-level errors, every field)."""
        layout = self.layout()
        spacing = layout.spacing() if layout is not None else 0
        content = self.scroll_area.widget()
        if self._raw:
            body = 200
        else:
            body = content.sizeHint().height() if content is not None else self.root.sizeHint().height()
        errors = self.form_error_label.sizeHint().height() + spacing if self.form_error_label.isVisibleTo(self) else 0
        toolbar = self.raw_toggle.sizeHint().height() + 6
        return toolbar + spacing + errors + body + 2

    def field_errors(self) -> dict[str, list[str]]:
        """Fresh errors grouped by field path (``""`` is the whole value)."""
        grouped: dict[str, list[str]] = {}
        found = self._collect()
        self._show(found)
        for error in found:
            grouped.setdefault(error.path_str, []).append(error.message)
        return grouped

    def error_for(self, path: str) -> str:
        """The error text shown next to the field at ``path`` right now (``""`` for the form's banner)."""
        if path == "":
            return self.form_error_label.text()
        slot = self.slot(path)
        return slot.error_text() if slot is not None else ""

    def validate_now(self) -> None:
        """Run the pending (debounced) validation immediately."""
        self.validation_timer.stop()
        self._touched = True
        self._refresh_errors()

    def _collect(self) -> list[FieldError]:
        if self._raw:
            try:
                value = parse_json_text(self.raw_edit.toPlainText())
            except ValueError as exc:
                return [FieldError((), f"Raw JSON: {exc}")]
            return self.validator.errors(value)
        local = [FieldError(path, message) for path, message in self.root.local_errors()]
        value = self.root.value()
        if value is MISSING:
            return [*local, FieldError((), "no value")]
        shadowed = {error.path for error in local}
        return local + [error for error in self.validator.errors(value) if error.path not in shadowed]

    def _refresh_errors(self) -> None:
        if self._touched:
            self._show(self._collect())

    def _show(self, found: list[FieldError]) -> None:
        if self._raw:
            self.raw_error_label.setText("\n".join(str(error) for error in found))
            self.raw_error_label.setVisible(bool(found))
            return
        by_slot: dict[int, list[str]] = {}
        banner: list[str] = []
        for error in found:
            slot, used = self.root.locate(error.path)
            rest = error.path[used:]
            where = format_path(rest, root="")
            message = f"{where}: {error.message}" if rest else error.message
            if slot is self.root:
                banner.append(str(error))
            else:
                by_slot.setdefault(id(slot), []).append(message)
        for _path, slot in self.root.walk():
            if slot is not self.root:
                slot.set_errors(by_slot.get(id(slot), []))
        self.form_error_label.setText("\n".join(banner))
        self.form_error_label.setVisible(bool(banner))

    # --- raw JSON --------------------------------------------------------------------------------------------
    def is_raw(self) -> bool:
        return self._raw

    def set_raw(self, on: bool) -> bool:
        """Switch to (or back from) the raw JSON editor; False when the raw text cannot go back to the form."""
        if on == self._raw:
            return True
        if on:
            self._load_raw(to_json_text(self.value_of_form()))
            self._raw = True
            self.raw_error_label.hide()
            self.form_error_label.hide()
            self.stack.setCurrentIndex(1)
            self._check_toggle(True)
            return True
        try:
            value = parse_json_text(self.raw_edit.toPlainText())
        except ValueError as exc:
            return self._refuse(f"Cannot go back to the form: {exc}")
        if not self.root.typed.accepts(value):
            return self._refuse(f"Cannot go back to the form: it needs {self.node.kind.value}, not this value")
        self.root.set_value(value)
        self._raw = False
        self.stack.setCurrentIndex(0)
        self._check_toggle(False)
        self._touched = True
        self._refresh_errors()
        self.valueChanged.emit()
        return True

    def _refuse(self, message: str) -> bool:
        self.raw_error_label.setText(message)
        self.raw_error_label.show()
        self._check_toggle(True)
        return False

    def _check_toggle(self, on: bool) -> None:
        self.raw_toggle.blockSignals(True)
        self.raw_toggle.setChecked(on)
        self.raw_toggle.blockSignals(False)

    def _on_raw_toggled(self, checked: bool) -> None:
        self.set_raw(checked)

    def _load_raw(self, text: str) -> None:
        self._loading_raw = True
        try:
            self.raw_edit.setPlainText(text)
        finally:
            self._loading_raw = False

    def _on_raw_changed(self) -> None:
        if self._loading_raw or not self._raw:
            return
        self._touched = True
        self.validation_timer.start()
        self.valueChanged.emit()

    def _on_form_changed(self) -> None:
        self._touched = True
        self.validation_timer.start()
        self.valueChanged.emit()

    # --- navigation ------------------------------------------------------------------------------------------
    def slot(self, path: str) -> Slot | None:
        """The field at ``path`` (``""`` is the root), or None."""
        try:
            parts = parse_path(path, root="")
        except ValueError:
            return None
        return self.root.descend(parts)

    def field(self, path: str) -> QWidget | None:
        """The input widget of the field at ``path``: QLineEdit, NumberSpinBox, QCheckBox, QComboBox,
        QListWidget (multi-select), ArrayEditor, MapEditor, ObjectEditor, QComboBox shape picker of a
        VariantEditor, or the QPlainTextEdit of a JSON field."""
        slot = self.slot(path)
        return slot.editor_widget() if slot is not None else None

    def editor(self, path: str) -> Editor | None:
        """The editor object of the field at ``path`` (for its helpers: ``add_item``, ``select``, ...)."""
        slot = self.slot(path)
        return slot.editor if slot is not None else None

    def sizeHint(self) -> QSize:
        content = self.root.sizeHint()
        return QSize(max(480, content.width() + 48), min(720, max(240, content.height() + 64)))
