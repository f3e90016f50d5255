"""The dialog that adds or edits one assertion of a saved call: a kind, then the fields that kind takes.

What it accepts is read back by ``inspector.regression.assertions.assertion_from_json``, so the dialog can never
produce an assertion a collection file could not hold; a problem is shown under the fields and OK stays put.
"""

from __future__ import annotations

import json
from typing import Any, Final

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from inspector.regression.assertions import KINDS, OUTCOMES, Assertion, assertion_from_json
from inspector.ui.widgets.theme import themed_style

__all__ = ["AssertionDialog"]

_LABELS: Final = {
    "outcome": "Outcome (ok / isError / JSON-RPC error)",
    "equals": "JSON path equals",
    "contains": "JSON path contains",
    "matches": "JSON path matches regex",
    "output_schema": "structuredContent valid against outputSchema",
    "content_types": "Content types present",
    "latency": "Latency under N ms",
}
_FIELDS: Final = {
    "outcome": ("expect", "code"),
    "equals": ("path", "value", "all"),
    "contains": ("path", "value", "all"),
    "matches": ("path", "regex", "all"),
    "output_schema": (),
    "content_types": ("types",),
    "latency": ("max_ms",),
}


class AssertionDialog(QDialog):
    """``AssertionDialog(method, assertion=None, parent)``; after ``exec()``/``accept()``: ``assertion()``."""

    def __init__(self, method: str, assertion: Assertion | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit assertion" if assertion is not None else "Add assertion")
        self.method = method
        self._result: Assertion | None = None
        self.kind_combo = QComboBox(self)
        for kind in KINDS:
            if kind == "output_schema" and method != "tools/call":
                continue
            self.kind_combo.addItem(_LABELS[kind], kind)
        self.expect_combo = QComboBox(self)
        self.expect_combo.addItems(list(OUTCOMES))
        self.code_edit = QLineEdit(self)
        self.code_edit.setPlaceholderText("any code (e.g. -32602)")
        self.path_edit = QLineEdit("$", self)
        self.path_edit.setPlaceholderText("$.content[0].text, $.structuredContent.*, $..name")
        self.value_edit = QLineEdit(self)
        self.value_edit.setPlaceholderText('JSON: "text", 3, true, {"key": 1}')
        self.regex_edit = QLineEdit(self)
        self.all_check = QCheckBox("Every selected value (else one is enough)", self)
        self.types_edit = QLineEdit(self)
        self.types_edit.setPlaceholderText("text, image")
        self.max_ms_edit = QLineEdit(self)
        self.max_ms_edit.setPlaceholderText("milliseconds")
        self.form = QFormLayout()
        self.form.addRow("Kind", self.kind_combo)
        self._rows: dict[str, QWidget] = {
            "expect": self.expect_combo,
            "code": self.code_edit,
            "path": self.path_edit,
            "value": self.value_edit,
            "regex": self.regex_edit,
            "all": self.all_check,
            "types": self.types_edit,
            "max_ms": self.max_ms_edit,
        }
        titles = {"expect": "Expect", "code": "Error code", "path": "JSON path", "value": "Value", "regex": "Regex"}
        titles.update({"all": "", "types": "Types", "max_ms": "Max ms"})
        for name, widget in self._rows.items():
            self.form.addRow(titles[name], widget)
        self.problem_label = QLabel(self)
        self.problem_label.setWordWrap(True)
        themed_style(self.problem_label, lambda t: f"color: {t.error_fg};")
        self.problem_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)
        self.kind_combo.currentIndexChanged.connect(self._show_fields)
        if assertion is not None:
            self._fill(assertion)
        self._show_fields()

    def _fill(self, assertion: Assertion) -> None:
        index = self.kind_combo.findData(assertion.kind)
        if index >= 0:
            self.kind_combo.setCurrentIndex(index)
        self.expect_combo.setCurrentText(assertion.expect)
        self.code_edit.setText("" if assertion.code is None else str(assertion.code))
        self.path_edit.setText(assertion.path)
        self.value_edit.setText(json.dumps(assertion.value, ensure_ascii=False))
        self.regex_edit.setText(assertion.regex)
        self.all_check.setChecked(assertion.every)
        self.types_edit.setText(", ".join(assertion.types))
        raw_ms = assertion.to_json().get("max_ms")
        self.max_ms_edit.setText("" if raw_ms is None else str(raw_ms))

    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def _show_fields(self) -> None:
        shown = _FIELDS[self.kind()]
        for name, widget in self._rows.items():
            self.form.setRowVisible(widget, name in shown)
        self.problem_label.hide()

    def raw(self) -> dict[str, Any]:
        """The assertion as JSON, from the fields the kind takes; ValueError for a field that does not parse."""
        kind = self.kind()
        raw: dict[str, Any] = {"kind": kind}
        shown = _FIELDS[kind]
        if "expect" in shown:
            raw["expect"] = self.expect_combo.currentText()
            code = self.code_edit.text().strip()
            if code:
                try:
                    raw["code"] = int(code)
                except ValueError:
                    raise ValueError(f"code: a whole number, not {code!r}") from None
        if "path" in shown:
            raw["path"] = self.path_edit.text().strip()
        if "value" in shown:
            text = self.value_edit.text().strip()
            try:
                raw["value"] = json.loads(text)
            except ValueError:
                raw["value"] = text  # plain words are meant as a string
        if "regex" in shown:
            raw["regex"] = self.regex_edit.text()
        if "all" in shown and self.all_check.isChecked():
            raw["all"] = True
        if "types" in shown:
            raw["types"] = [part.strip() for part in self.types_edit.text().split(",") if part.strip()]
        if "max_ms" in shown:
            text = self.max_ms_edit.text().strip()
            try:
                raw["max_ms"] = float(text) if "." in text else int(text)
            except ValueError:
                raise ValueError(f"max_ms: a positive number of milliseconds, not {text!r}") from None
        return raw

    def accept(self) -> None:
        try:
            self._result = assertion_from_json(self.raw(), self.method)
        except ValueError as exc:
            self.problem_label.setText(str(exc))
            self.problem_label.show()
            return
        super().accept()

    def assertion(self) -> Assertion | None:
        """The accepted assertion (None until OK was pressed with valid fields)."""
        return self._result
