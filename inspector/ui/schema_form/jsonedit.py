"""The per-field JSON editor: used for nodes a form cannot render and for values an editor cannot show."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from inspector.schema import MISSING, Node, parse_json_text, to_json_text
from inspector.ui.schema_form.base import Editor, LocalError
from inspector.ui.widgets.theme import follow_font

__all__ = ["JsonEditor", "JsonTextEdit"]


class JsonTextEdit(QPlainTextEdit):
    """A small monospace plain-text box that grows with its content up to ``max_lines``."""

    def __init__(self, parent: QWidget | None = None, *, min_lines: int = 2, max_lines: int = 10) -> None:
        super().__init__(parent)
        self._min_lines, self._max_lines = min_lines, max_lines
        follow_font(self, "mono")
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(True)
        self.textChanged.connect(self.updateGeometry)

    def _height_for(self, lines: int) -> int:
        margins = self.contentsMargins()
        doc_margin = int(self.document().documentMargin() * 2)
        return self.fontMetrics().lineSpacing() * lines + margins.top() + margins.bottom() + doc_margin + 4

    def sizeHint(self) -> QSize:
        lines = max(self._min_lines, min(self._max_lines, self.document().blockCount()))
        return QSize(super().sizeHint().width(), self._height_for(lines))

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._height_for(self._min_lines))


class JsonEditor(Editor):
    """Any JSON value as text. Empty text is "no value"; text that does not parse is a local error."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(node, parent)
        self.text_edit = JsonTextEdit(self)
        self.text_edit.setPlaceholderText("JSON value" + (f" — {node.reason}" if node.reason else ""))
        self.text_edit.setToolTip(
            "Edited as JSON" + (f": {node.reason}" if node.reason else "") + ". Leave empty to send nothing."
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text_edit)
        self.text_edit.textChanged.connect(self.emit_changed)

    def value(self) -> Any:
        text = self.text_edit.toPlainText()
        if not text.strip():
            return MISSING
        try:
            return parse_json_text(text)
        except ValueError:
            return MISSING

    def accepts(self, value: Any) -> bool:
        return True

    def _set(self, value: Any) -> None:
        self.text_edit.setPlainText(to_json_text(value))

    def _clear(self) -> None:
        self.text_edit.setPlainText("")

    def is_blank(self) -> bool:
        return not self.text_edit.toPlainText().strip()

    def focus_widget(self) -> QWidget:
        return self.text_edit

    def local_errors(self) -> list[LocalError]:
        text = self.text_edit.toPlainText()
        if not text.strip():
            return []
        try:
            parse_json_text(text)
        except ValueError as exc:
            return [((), str(exc))]
        return []
