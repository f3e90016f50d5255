"""The dialog that edits a saved call's request: its method and its params (JSON).

Apply is refused while the params are not JSON (the parse error with its line and column, the cursor put there),
not an object, or not a request a collection file could hold (``inspector.regression.collection.edited_request``:
the checks a loaded file passes, and every assertion still applying to the method); the call is only changed by a
valid Apply. Cancel leaves it as it was.
"""

from __future__ import annotations

import json

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from inspector.regression.collection import KNOWN_METHODS, CollectionError, SavedCall, edited_request, parse_params
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["RequestDialog"]


class RequestDialog(QDialog):
    """``RequestDialog(saved, parent)``; after ``accept()`` with a valid request: ``call()`` (else None)."""

    def __init__(self, saved: SavedCall, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Edit request of {saved.name}")
        self.saved = saved
        self._result: SavedCall | None = None
        self.method_combo = QComboBox(self)
        self.method_combo.setEditable(True)
        self.method_combo.addItems(list(dict.fromkeys([*KNOWN_METHODS, saved.method])))
        self.method_combo.setCurrentText(saved.method)
        self.method_combo.setAccessibleName("Method of the request")
        self.method_combo.setToolTip("The request's method: tools/call, resources/read, prompts/get or any other")
        self.params_edit = QPlainTextEdit(self)
        follow_font(self.params_edit, "mono")
        self.params_edit.setPlainText(
            json.dumps(saved.params, indent=2, ensure_ascii=False) if saved.params is not None else ""
        )
        self.params_edit.setPlaceholderText('{"name": "echo", "arguments": {"message": "hi"}} — empty for none')
        self.params_edit.setAccessibleName("Params of the request (JSON)")
        self.params_edit.setToolTip("The request's params: a JSON object, or empty for a request without params")
        self.problem_label = QLabel(self)
        self.problem_label.setWordWrap(True)
        self.problem_label.setAccessibleName("Why the request cannot be applied")
        themed_style(self.problem_label, lambda t: f"color: {t.error_fg};")
        self.problem_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        self.apply_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.apply_button.setText("Apply")
        self.apply_button.setAccessibleName("Apply the edited request")
        self.apply_button.setToolTip("Change the call's request (refused while the params are not a JSON object)")
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName("Cancel: keep the request as it was")
        cancel.setToolTip("Close without changing the call")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Method", self.method_combo)
        form.addRow("Params", self.params_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form, 1)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)
        self.resize(560, 420)

    def _refuse(self, exc: CollectionError) -> None:
        self.problem_label.setText(f"{exc.field_name}: {exc.problem}" if exc.field_name else exc.problem)
        self.problem_label.show()
        if not exc.problem.startswith("not JSON"):
            return
        text = self.params_edit.toPlainText()
        try:
            json.loads(text)
        except json.JSONDecodeError as error:  # put the cursor where the parse failed
            cursor = self.params_edit.textCursor()
            cursor.setPosition(min(error.pos, len(text)), QTextCursor.MoveMode.MoveAnchor)
            self.params_edit.setTextCursor(cursor)
            self.params_edit.setFocus()

    def accept(self) -> None:
        try:
            params = parse_params(self.params_edit.toPlainText())
            self._result = edited_request(self.saved, self.method_combo.currentText(), params)
        except CollectionError as exc:
            self._result = None
            self._refuse(exc)
            return
        super().accept()

    def call(self) -> SavedCall | None:
        """The call with the applied request (None until Apply was pressed with a valid one)."""
        return self._result
