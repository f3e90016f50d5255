"""A console for a stdio server's stderr: lines are batched and appended, never re-rendered.

``append_line`` only queues the line; a short single-shot timer appends the whole batch with one
``appendPlainText`` (a flood of lines costs one update per tick). The view follows the end only
when it was already there. The console keeps the last ``max_lines`` lines (every line is also in
the session's recording, kind ``stderr``); the counter counts every line received.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from inspector.ui.widgets.theme import follow_font
from inspector.ui.widgets.timers import coalescer

__all__ = ["FLUSH_MS", "MAX_LINES", "StderrConsole"]

FLUSH_MS: Final = 50
MAX_LINES: Final = 100_000


class StderrConsole(QWidget):
    """See the module docstring. ``lineCountChanged(int)`` reports the number of lines received."""

    lineCountChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None, *, max_lines: int = MAX_LINES) -> None:
        super().__init__(parent)
        self._pending: list[str] = []
        self._count = 0
        self.text = QPlainTextEdit(self)
        self.text.setAccessibleName("Server stderr")
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        self.text.setMaximumBlockCount(max_lines)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        follow_font(self.text, "mono")
        self.text.setPlaceholderText("The server's stderr output appears here.")

        self.count_label = QLabel(self)
        self.wrap_button = QToolButton(self)
        self.wrap_button.setText("Wrap")
        self.wrap_button.setCheckable(True)
        self.wrap_button.setToolTip("Wrap long lines")
        self.wrap_button.toggled.connect(self._set_wrap)
        self.copy_button = QToolButton(self)
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy the selection, or everything when nothing is selected")
        self.copy_button.clicked.connect(self.copy)
        self.clear_button = QToolButton(self)
        self.clear_button.setText("Clear")
        self.clear_button.setToolTip("Clear the console (the lines stay in the message log)")
        self.clear_button.clicked.connect(self.clear)
        for button in (self.wrap_button, self.copy_button, self.clear_button):
            button.setAutoRaise(True)

        bar = QHBoxLayout()
        bar.setContentsMargins(6, 2, 2, 2)
        bar.addWidget(self.count_label, 1)
        bar.addWidget(self.wrap_button)
        bar.addWidget(self.copy_button)
        bar.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)

        self._timer = coalescer(self, FLUSH_MS, self.flush)
        self._update_label()

    @property
    def line_count(self) -> int:
        """Lines received since the last clear (queued ones included)."""
        return self._count

    def append_line(self, line: str) -> None:
        """Queue one line (connect to ConnectionController.stderrLine)."""
        self._pending.append(line.rstrip("\r\n"))
        self._count += 1
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Append the queued lines now."""
        self._timer.stop()
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        bar = self.text.verticalScrollBar()
        follow = bar.value() >= bar.maximum()
        keep = bar.value()
        self.text.appendPlainText("\n".join(batch))
        if follow:
            bar.setValue(bar.maximum())
        else:
            bar.setValue(keep)
        self._update_label()

    def clear(self) -> None:
        self._pending.clear()
        self._timer.stop()
        self.text.clear()
        self._count = 0
        self._update_label()

    def copy(self) -> str:
        """Copy the selected text, or all of it; returns what was copied."""
        self.flush()
        cursor = self.text.textCursor()
        text = cursor.selectedText().replace("\u2029", "\n") if cursor.hasSelection() else self.text.toPlainText()
        QGuiApplication.clipboard().setText(text)
        return text

    def _set_wrap(self, on: bool) -> None:
        mode = QPlainTextEdit.LineWrapMode.WidgetWidth if on else QPlainTextEdit.LineWrapMode.NoWrap
        self.text.setLineWrapMode(mode)

    def _update_label(self) -> None:
        self.count_label.setText(f"{self._count:,} line{'s' if self._count != 1 else ''}")
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.lineCountChanged.emit(self._count)
