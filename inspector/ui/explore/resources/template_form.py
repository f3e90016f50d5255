"""``TemplateForm``: one field per RFC 6570 variable of a resource template, server-side autocomplete, a live
URI preview and a Read button.

Completion goes through ``completion/complete`` (via the ``Completer`` the panel passes in), one
``ArgumentCompleter`` per field (debounced; the context carries the other arguments already filled; an answer
for an older value of the field is dropped). Without a completer (the server declared no ``completions``) the
fields say so in their tooltip.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.content.templates import (
    CompletionResult,
    TemplateError,
    TemplateVariable,
    UriTemplate,
)
from inspector.ui.explore.common.panel_tasks import PanelTasks, describe_failure
from inspector.ui.explore.completion import ArgumentCompleter, Ask
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font, small_font_size, themed_style

__all__ = ["Completer", "TemplateField", "TemplateForm"]

Completer = Callable[[str, str, str, dict[str, Any] | None], Awaitable[CompletionResult]]
"""``await completer(template, argument, value, context)``; raises ClientError on failure."""


@dataclass(slots=True)
class TemplateField:
    variable: TemplateVariable
    edit: QLineEdit
    completion: ArgumentCompleter

    @property
    def model(self) -> QStringListModel:
        return self.completion.model

    @property
    def completions(self) -> int:
        """Completion answers applied to this field."""
        return self.completion.answers


class TemplateForm(QWidget):
    readRequested = Signal(str)
    """The expanded URI, when the user clicks Read (or presses Enter with every required field filled)."""
    valuesChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.template: UriTemplate | None = None
        self.fields: dict[str, TemplateField] = {}
        self._completer_fn: Completer | None = None
        self._tasks = PanelTasks(self, lambda error: self._show_status(describe_failure(error), "error"))
        t = tones(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.form_layout = QFormLayout()
        self.form_layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form_layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout.addLayout(self.form_layout)

        preview_row = QHBoxLayout()
        preview_row.setSpacing(8)
        caption = QLabel("URI", self)
        themed_style(caption, lambda t: f"color: {t.muted}; font-weight: 600;")
        self.preview_label = QLabel(self)
        self.preview_label.setObjectName("uriPreview")
        follow_font(self.preview_label, "mono")
        self.preview_label.setTextFormat(Qt.TextFormat.PlainText)
        self.preview_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_label.setWordWrap(True)
        self.preview_label.setStyleSheet(
            f"QLabel#uriPreview {{ background: {t.badge_bg}; border: 1px solid {t.card_border};"
            " border-radius: 4px; padding: 3px 6px; }"
        )
        self.read_button = QPushButton("Read", self)
        self.read_button.setToolTip("Read the resource at the expanded URI (resources/read)")
        self.read_button.clicked.connect(self._request_read)
        preview_row.addWidget(caption)
        preview_row.addWidget(self.preview_label, 1)
        preview_row.addWidget(self.read_button)
        layout.addLayout(preview_row)

        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        themed_style(self.status_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        layout.addWidget(self.status_label)
        self._update_preview()

    # --- public API -----------------------------------------------------------------------------------------

    def set_template(
        self, template: str | None, *, completer: Completer | None = None, completion_note: str = ""
    ) -> None:
        """Show fields for ``template``; ``completer`` enables autocomplete (else ``completion_note`` says why)."""
        self._tasks.cancel_all()
        self._clear_fields()
        self._completer_fn = completer
        self.template = None
        self._show_status("")
        if template is None:
            self._update_preview()
            return
        try:
            self.template = UriTemplate(template)
        except TemplateError as exc:
            self._show_status(str(exc), "error")
            self._update_preview()
            return
        for variable in self.template.variables:
            self._add_field(variable, completion_note)
        if not self.template.variables:
            self._show_status("This template has no variables.")
        elif completer is None and completion_note:
            self._show_status(completion_note)
        self._update_preview()

    def values(self) -> dict[str, str]:
        return {name: f.edit.text() for name, f in self.fields.items()}

    def set_value(self, name: str, value: str) -> None:
        self.fields[name].edit.setText(value)

    def uri(self) -> str | None:
        """The expanded URI when every required variable is filled, else None."""
        if self.template is None:
            return None
        values = self.values()
        return self.template.expand(values) if self.template.is_complete(values) else None

    def suggestions(self, name: str) -> list[str]:
        return self.fields[name].model.stringList()

    def request_completion(self, name: str) -> None:
        """Ask the server for completions of ``name`` now (normally done after typing pauses)."""
        self.fields[name].completion.request_now()

    # --- building -------------------------------------------------------------------------------------------

    def _add_field(self, variable: TemplateVariable, completion_note: str) -> None:
        edit = QLineEdit(self)
        edit.setObjectName(f"templateField_{variable.name}")
        edit.setClearButtonEnabled(True)
        edit.setPlaceholderText("required" if variable.required else "optional")
        tip = [variable.hint]
        if self._completer_fn is None and completion_note:
            tip.append(completion_note)
        elif self._completer_fn is not None:
            tip.append("Suggestions come from the server (completion/complete) as you type.")
        edit.setToolTip("\n".join(tip))
        # parented to the field: removing the row deletes it
        completion = ArgumentCompleter(
            edit, variable.name, self._asker(variable.name), self.values, self._tasks, on_focus=False
        )
        completion.set_enabled(self._completer_fn is not None)
        completion.answered.connect(lambda _name, c=completion: self._show_status(c.status, c.tone))
        completion.completer.activated.connect(lambda _text: self._update_preview())
        field = TemplateField(variable, edit, completion)
        edit.textChanged.connect(lambda _text: self._update_preview())
        edit.returnPressed.connect(self._request_read)
        label = QLabel(f"{variable.name}{' *' if variable.required else ''}", self)
        label.setToolTip(variable.hint)
        if variable.required:
            label.setStyleSheet("font-weight: 600;")
        self.form_layout.addRow(label, edit)
        self.fields[variable.name] = field

    def _clear_fields(self) -> None:
        for field in self.fields.values():
            field.completion.set_enabled(False)
        while self.form_layout.rowCount():
            self.form_layout.removeRow(0)
        self.fields.clear()

    # --- behaviour ------------------------------------------------------------------------------------------

    def _asker(self, name: str) -> Ask:
        """How the field ``name`` asks: through the panel's completer, for the template shown."""

        def ask(value: str, context: dict[str, Any] | None) -> Awaitable[CompletionResult] | None:
            if self._completer_fn is None or self.template is None:
                return None
            return self._completer_fn(self.template.template, name, value, context)

        return ask

    def _update_preview(self) -> None:
        t = tones(self)
        if self.template is None:
            self.preview_label.setText("—")
            self.read_button.setEnabled(False)
            return
        values = self.values()
        self.preview_label.setText(self.template.preview(values))
        missing = self.template.missing(values)
        self.read_button.setEnabled(not missing)
        colour = t.muted if missing else t.text
        self.preview_label.setStyleSheet(
            f"QLabel#uriPreview {{ color: {colour}; background: {t.badge_bg}; border: 1px solid {t.card_border};"
            " border-radius: 4px; padding: 3px 6px; }"
        )
        self.preview_label.setToolTip(f"Missing: {', '.join(missing)}" if missing else "Ready to read")
        self.valuesChanged.emit()

    def _request_read(self) -> None:
        uri = self.uri()
        if uri is not None:
            self.readRequested.emit(uri)

    def _show_status(self, text: str, tone: str = "muted") -> None:
        themed_style(
            self.status_label,
            lambda t: (
                f"color: { ({'error': t.error_fg, 'warning': t.warning_fg}.get(tone, t.muted)) };"
                f" font-size: {small_font_size()};"
            ),
        )
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))
