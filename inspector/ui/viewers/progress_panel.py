"""``ProgressPanel``: a running request's elapsed time (updating), progress bar with message, and Cancel."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from inspector.client.rounds import RoundNote
from inspector.content.text import format_duration
from inspector.ui.widgets.style import hbox
from inspector.ui.widgets.theme import themed_style

__all__ = ["WAITING_FOR_SERVER", "WAITING_FOR_YOU", "ProgressPanel", "gave_up", "round_status"]

WAITING_FOR_SERVER = "Waiting for the server…"
WAITING_FOR_YOU = (
    "Waiting for you: the server asked you something (see its dialog). The timeout is paused until you answer."
)


def round_status(note: RoundNote, *, person: bool = True) -> str:
    """How a page words the round a multi-round-trip request is in (2026-07-28): "Round 2 of at most 16
    (tools/call ask_twice), waiting for you: …" while it is answered (``person``: a dialog asks the person;
    else the inspector answers by itself, e.g. roots/list), "Round 2 sent: …" once the server has it."""
    what = f"{note.method} {note.subject}" if note.subject else note.method
    head = f"Round {note.round} of at most {note.limit} ({what})"
    if note.sent:
        return f"Round {note.round} sent ({what}): waiting for the server…"
    asked = ", ".join(dict.fromkeys(note.inputs)) or "no input, only its requestState echoed"
    if person:
        return (
            f"{head}, waiting for you: the server asked for {asked} (see its dialog). "
            "The timeout is paused until you answer."
        )
    return f"{head}: answering the server's input request ({asked})…"


def gave_up(note: RoundNote | None, reason: str) -> tuple[str, list[str]] | None:
    """The title and lines of a failure after the last round the client sends (the server kept asking for
    input: the engine's round limit), in words; None when the failure is not that."""
    if note is None or note.round < note.limit or f"at most {note.limit} rounds" not in reason:
        return None  # not the last round, or it failed for another reason (the connection was lost, ...)
    what = f"{note.method} {note.subject}" if note.subject else note.method
    return (
        f"The server kept asking for input: gave up after {note.limit} rounds",
        [
            f"{what} was answered input_required in every one of its {note.limit} rounds, so the inspector "
            "stopped retrying (a server that never completes the request is misbehaving).",
            reason,
        ],
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
        self.round: RoundNote | None = None
        """The round of a multi-round-trip request this call is in (None: a single round so far)."""
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
        themed_style(self.progress_label, lambda t: f"color: {t.muted};")
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
        self.round = None
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
            self._show_status()

    def set_waiting_for_person(self, waiting: bool) -> None:
        """The server asked you something (a dialog is open): say the call waits for you, its timeout held."""
        self.waiting_for_person = waiting
        self._show_status()

    def set_round(self, note: RoundNote) -> None:
        """2026-07-28: the call was answered ``input_required`` (``note.sent`` False) or its next round went
        out (True): the label says which round, and whether it waits for you or for the server."""
        self.round = note
        if note.sent:
            self._progress_text = ""  # the progress of an earlier round says nothing about this one
        self._show_status()

    def _show_status(self) -> None:
        note = self.round
        if note is not None and not note.sent:
            self.progress_label.setText(round_status(note, person=self.waiting_for_person))
        elif self.waiting_for_person:
            self.progress_label.setText(WAITING_FOR_YOU)
        elif note is not None:
            sent = round_status(note)
            self.progress_label.setText(f"{sent} {self._progress_text}" if self._progress_text else sent)
        else:
            self.progress_label.setText(self._progress_text or WAITING_FOR_SERVER)

    def _tick(self) -> None:
        if self.started_at is not None:
            self.elapsed_label.setText(format_duration(self._clock() - self.started_at))

    def _cancel_clicked(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText("Cancelling…")
        self.cancelRequested.emit()
