"""The "Replay against…" dialog: a recording's requests sent again to a chosen target, what answers differently.

The dialog (non-modal, shown with ``open()``) names the recording, offers the targets the window gives it (the
current connection's profile first, then the saved profiles and the demo servers), the JSON paths to ignore, and
Run / Cancel. While it runs a progress bar counts the requests; the results table (same / changed / failed /
skipped, counts below it) fills as each answer comes, and selecting a row shows its answers side by side with the
differing paths marked (:class:`~inspector.ui.regression.replay_diff.ReplayDiffView`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.plural import plural
from inspector.protocol.jsonpath_query import JsonPathError
from inspector.regression.outcome import Outcome, ReplayReport, RequestResult
from inspector.regression.replay import ReplayConfig
from inspector.ui.regression.replay_diff import ReplayDiffView
from inspector.ui.regression.replay_model import ReplayResultsModel
from inspector.ui.regression.replay_runner import ReplayRun, ReplayTarget

__all__ = ["ReplayDialog"]


class ReplayDialog(QDialog):
    def __init__(self, recording: str, targets: Sequence[ReplayTarget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(f"Replay {Path(recording).name} against…")
        self.resize(1100, 720)
        self.recording = recording
        self.targets = list(targets)
        self.report: ReplayReport | None = None

        self.target_box = QComboBox(self)
        for target in self.targets:
            self.target_box.addItem(target.label)
        self.ignore_edit = QLineEdit(self)
        self.ignore_edit.setPlaceholderText("$.result.content[*].text  $..timestamp   (space-separated JSON paths)")
        self.run_button = QPushButton("Run", self)
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setFormat("%v of %m requests")
        self.progress.setValue(0)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.counts = QLabel("", self)

        self.model = ReplayResultsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.diff = ReplayDiffView(self)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.diff)
        splitter.setSizes([260, 440])

        form = QFormLayout()
        form.addRow("Recording:", QLabel(recording, self))
        form.addRow("Target:", self.target_box)
        form.addRow("Ignore:", self.ignore_edit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.counts)

        self.runner = ReplayRun()  # no parent: it outlives a closed dialog until its task has ended
        self.runner.started.connect(self._started)
        self.runner.resultReady.connect(self._result)
        self.runner.finished.connect(self._finished)
        self.runner.failed.connect(self._failed)
        self.runner.cancelled.connect(self._cancelled)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.runner.cancel)
        if not self.targets:
            self.run_button.setEnabled(False)
            self.status.setText("No target to replay against: add a connection profile first.")

    # -- running ---------------------------------------------------------------------------------------

    def ignore_patterns(self) -> list[str]:
        return self.ignore_edit.text().split()

    def run(self) -> None:
        index = self.target_box.currentIndex()
        if self.runner.running or not 0 <= index < len(self.targets):
            return
        try:
            config = ReplayConfig(self.ignore_patterns())
        except JsonPathError as exc:
            self.status.setText(f"Ignore: {exc}")
            return
        self.model.clear()
        self.diff.show_result(None)
        self.report = None
        self.counts.setText("")
        self.progress.setRange(0, 0)  # busy until the recording is read
        self.status.setText(f"Replaying against {self.targets[index].label}…")
        self._running(True)
        self.runner.start(self.recording, self.targets[index], config)

    def _running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.target_box.setEnabled(not running)
        self.ignore_edit.setEnabled(not running)

    def _started(self, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(0)

    def _result(self, result: RequestResult) -> None:
        self.model.add(result)
        self.progress.setValue(self.model.rowCount())
        self._show_counts()
        if result.outcome in (Outcome.CHANGED, Outcome.FAILED) and not self.table.selectionModel().hasSelection():
            self.table.selectRow(self.model.rowCount() - 1)

    def _show_counts(self) -> None:
        counts = self.model.counts()
        parts = ", ".join(f"{counts[o]} {o.value}" for o in Outcome)
        self.counts.setText(f"{plural(self.model.rowCount(), 'request')}: {parts}")

    def _finished(self, report: ReplayReport) -> None:
        self.report = report
        self._running(False)
        self.progress.setRange(0, max(len(report.results), 1))
        self.progress.setValue(len(report.results))
        verdict = "Every answer matches the recording." if report.passed else "Some answers differ from the recording."
        self.status.setText(" ".join([verdict, *report.notes]))
        self._show_counts()

    def _failed(self, message: str) -> None:
        self._running(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(message)

    def _cancelled(self) -> None:
        self._running(False)
        self.progress.setRange(0, max(self.progress.maximum(), 1))
        self.status.setText(f"Cancelled after {plural(self.model.rowCount(), 'request')}.")

    def _selected(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        self.diff.show_result(self.model.result_at(rows[0].row()) if rows else None)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.runner.cancel()
        super().closeEvent(event)
