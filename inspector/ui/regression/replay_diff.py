"""The side-by-side diff of one replayed request: the recorded answer and the answer now, the differing paths
marked on both sides.

:func:`pretty_with_lines` writes a JSON value indented (as ``json.dumps(indent=2)``, keys in their order) and keeps,
for every path, the lines it spans; the view marks the lines of each difference: on the left where the recorded
value was (changed, removed), on the right where the new one is (changed, added).
"""

from __future__ import annotations

import json
from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.jsonpath import JsonPath
from inspector.regression.outcome import Outcome, RequestResult
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font

__all__ = ["MARK_COLOURS", "ReplayDiffView", "difference_lines", "pretty_with_lines"]

_INDENT: Final = "  "
MARK_COLOURS: Final = {"old": "removed_bg", "new": "added_bg"}
"""The theme's background (a ``Tones`` field) of the marked lines of each side."""


def pretty_with_lines(value: Any) -> tuple[list[str], dict[JsonPath, tuple[int, int]]]:
    """The indented JSON text's lines, and the (first, last) line of every path's value."""
    lines: list[str] = []
    spans: dict[JsonPath, tuple[int, int]] = {}

    def emit(path: JsonPath, item: Any, depth: int, prefix: str, comma: str) -> None:
        pad = _INDENT * depth
        start = len(lines)
        if isinstance(item, dict) and item:
            lines.append(f"{pad}{prefix}{{")
            keys = list(item)
            for n, key in enumerate(keys):
                emit((*path, key), item[key], depth + 1, f"{json.dumps(key, ensure_ascii=False)}: ",
                     "," if n < len(keys) - 1 else "")  # fmt: skip
            lines.append(f"{pad}}}{comma}")
        elif isinstance(item, list) and item:
            lines.append(f"{pad}{prefix}[")
            for n, element in enumerate(item):
                emit((*path, n), element, depth + 1, "", "," if n < len(item) - 1 else "")
            lines.append(f"{pad}]{comma}")
        else:
            lines.append(f"{pad}{prefix}{json.dumps(item, ensure_ascii=False)}{comma}")
        spans[path] = (start, len(lines) - 1)

    emit((), value, 0, "", "")
    return lines, spans


def difference_lines(result: RequestResult) -> list[str]:
    """One line per difference: ``$.result.content[0].text: "3" -> "1 + 2 = 3"``."""
    out: list[str] = []
    for d in result.diff:
        if d.change == "changed":
            out.append(f"{d.path}: {_short(d.old)} → {_short(d.new)}")
        elif d.change == "added":
            out.append(f"{d.path}: added {_short(d.new)}")
        else:
            out.append(f"{d.path}: removed (was {_short(d.old)})")
    return out


def _short(value: Any, width: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


class _Side(QWidget):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(title, self)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        follow_font(self.text, "mono")
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)
        self.marked: list[int] = []
        """The marked line numbers (0-based), in order."""

    def show_value(self, value: Any, marks: list[JsonPath], side: str) -> None:
        if value is None:
            self.text.setPlainText("")
            self.text.setExtraSelections([])
            self.marked = []
            return
        lines, spans = pretty_with_lines(value)
        self.text.setPlainText("\n".join(lines))
        marked: set[int] = set()
        for path in marks:
            span = spans.get(path)
            if span is not None:
                marked.update(range(span[0], span[1] + 1))
        self.marked = sorted(marked)
        colour = QColor(getattr(tones(), MARK_COLOURS[side]))
        selections: list[QTextEdit.ExtraSelection] = []
        document = self.text.document()
        for number in self.marked:
            selection = QTextEdit.ExtraSelection()
            selection.cursor = QTextCursor(document.findBlockByNumber(number))  # type: ignore[attr-defined]
            selection.format.setBackground(colour)  # type: ignore[attr-defined]
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)  # type: ignore[attr-defined]
            selections.append(selection)
        self.text.setExtraSelections(selections)
        if self.marked:
            cursor = QTextCursor(document.findBlockByNumber(self.marked[0]))
            self.text.setTextCursor(cursor)
            self.text.centerCursor()


class ReplayDiffView(QWidget):
    """The selected request: what differs, and both answers side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel("Select a request to see its answers.", self)
        self.heading.setWordWrap(True)
        self.differences = QListWidget(self)
        self.differences.setMaximumHeight(120)
        self.recorded = _Side("Recorded", self)
        self.now = _Side("Now", self)
        self.sides = QSplitter(Qt.Orientation.Horizontal, self)
        self.sides.addWidget(self.recorded)
        self.sides.addWidget(self.now)
        layout.addWidget(self.heading)
        layout.addWidget(self.differences)
        layout.addWidget(self.sides, 1)
        self.result: RequestResult | None = None

    def show_result(self, result: RequestResult | None) -> None:
        self.result = result
        self.differences.clear()
        if result is None:
            self.heading.setText("Select a request to see its answers.")
            self.recorded.show_value(None, [], "old")
            self.now.show_value(None, [], "new")
            return
        heading = f"{result.label}: {result.outcome.value}"
        if result.outcome is Outcome.FAILED and result.error:
            heading += f" — {result.error}"
        elif result.outcome is Outcome.SKIPPED and result.reason:
            heading += f" — {result.reason}"
        self.heading.setText(heading)
        self.differences.addItems(difference_lines(result))
        self.differences.setVisible(bool(result.diff))
        self.recorded.show_value(result.recorded, [d.parts for d in result.diff if d.change != "added"], "old")
        self.now.show_value(result.live, [d.parts for d in result.diff if d.change != "removed"], "new")
