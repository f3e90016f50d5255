"""``ProgressPanel``: a running request's elapsed time (updating), progress bar with message, and Cancel."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from inspector.content.text import format_duration
from inspector.ui.widgets.style import hbox, tones

__all__ = ["WAITING_FOR_SERVER", "WAITING_FOR_YOU", "ProgressPanel"]

WAITING_FOR_SERVER = "Waiting for the server…"
WAITING_FOR_YOU = (
    "Waiting for you: the server asked you something (see its dialog). The timeout is paused until you answer."
)


class ProgressPanel(QWidget):
    """Shows how long a request has been running (``clock`` seconds, injectable) and its notifications/progress.

    The bar is busy (indeterminate) until a progress with a total arrives. Cancel emits ``cancelRequested`` once.
    """

    cancelRequested = Signal()

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self.started_at: float | None = None
        self.waiting_for_person = False
        self._progress_text = ""
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 12, 10)
        row = hbox(spacing=8)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setFixedHeight(8)
        row.addWidget(self.progress_bar, 1)
        self.elapsed_label = QLabel(self)
        self.elapsed_label.setMinimumWidth(70)
        self.elapsed_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.elapsed_label)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Send notifications/cancelled for this request")
        self.cancel_button.clicked.connect(self._cancel_clicked)
        row.addWidget(self.cancel_button)
        column.addLayout(row)
        self.progress_label = QLabel(self)
        self.progress_label.setWordWrap(True)
        self.progress_label.setStyleSheet(f"color: {tones(self).muted};")
        column.addWidget(self.progress_label)
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)

    def start(self, started_at: float | None = None) -> None:
        """Running since ``started_at`` (now when None): busy bar, Cancel enabled, elapsed time ticking."""
        self.started_at = self._clock() if started_at is None else started_at
        self.progress_bar.setRange(0, 0)
        self._progress_text = ""
        self.waiting_for_person = False
        self.progress_label.setText(WAITING_FOR_SERVER)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText("Cancel")
        self._tick()
        self._timer.start()

    def stop(self) -> float | None:
        """Stop ticking; returns the seconds since the start (None if never started)."""
        self._timer.stop()
        if self.started_at is None:
            return None
        elapsed = self._clock() - self.started_at
        self.started_at = None
        return elapsed

    def set_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if total is None or total <= 0:
            self.progress_bar.setRange(0, 0)
            text = f"Progress: {progress:g}"
        else:
            self.progress_bar.setRange(0, 1000)
            self.progress_bar.setValue(max(0, min(1000, round(progress / total * 1000))))
            text = f"{progress:g} / {total:g} ({progress / total:.0%})"
        self._progress_text = f"{text} — {message}" if message else text
        if not self.waiting_for_person:
            self.progress_label.setText(self._progress_text)

    def set_waiting_for_person(self, waiting: bool) -> None:
        """The server asked you something (a dialog is open): say the call waits for you, its timeout held."""
        self.waiting_for_person = waiting
        if waiting:
            self.progress_label.setText(WAITING_FOR_YOU)
        else:
            self.progress_label.setText(self._progress_text or WAITING_FOR_SERVER)

    def _tick(self) -> None:
        if self.started_at is not None:
            self.elapsed_label.setText(format_duration(self._clock() - self.started_at))

    def _cancel_clicked(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText("Cancelling…")
        self.cancelRequested.emit()
