"""Offline review: a window showing a saved recording, and the File-menu actions around it.

``open_recording_window(path)`` opens the recording read-only in its own top-level window (a
``LogPanel`` with every filter, search and the detail pane). ``open_recording_dialog`` and
``recording_actions`` give the main window what it needs for its File menu; dialogs are shown
with ``open()`` and report through signals, never through a blocking ``exec()``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QWidget

from inspector.store.paths import recordings_dir
from inspector.store.recording import Recording, RecordingError
from inspector.ui.log.panel import LogPanel

__all__ = ["RecordingWindow", "open_recording_dialog", "open_recording_window", "recording_actions"]


class RecordingWindow(QMainWindow):
    """A top-level window over one read-only recording; closing it closes the recording."""

    def __init__(self, recording: Recording, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowFlag(Qt.WindowType.Window)
        self.recording = recording
        meta = _meta(recording)
        label = meta.get("label") or recording.path.stem
        self.setWindowTitle(f"{label} — {recording.path.name} (recording)")
        self.resize(1200, 800)
        self.panel = LogPanel(recording, self)
        self.setCentralWidget(self.panel)

        menu = self.menuBar().addMenu("&File")
        self.export_action = QAction("Export as JSON Lines…", self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(lambda: self.panel.export_jsonl_dialog())
        self.export_filtered_action = QAction("Export Shown Rows as JSON Lines…", self)
        self.export_filtered_action.triggered.connect(lambda: self.panel.export_jsonl_dialog(filtered=True))
        self.close_action = QAction("Close", self)
        self.close_action.setShortcut(QKeySequence.StandardKey.Close)
        self.close_action.triggered.connect(self.close)
        for action in (self.export_action, self.export_filtered_action):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.panel.replay_action)
        menu.addSeparator()
        menu.addAction(self.close_action)
        view = self.menuBar().addMenu("&View")
        view.addAction(self.panel.diagnostics_action)
        view.addAction(self.panel.jump_action)

        target = meta.get("target") or "unknown target"
        self.target_label = QLabel(f"Recorded from: {target}", self)
        self.statusBar().addWidget(self.target_label, 1)
        self.panel.exportFinished.connect(self._exported)

    def _exported(self, path: str, result: object) -> None:
        if isinstance(result, int):
            self.statusBar().showMessage(f"Exported {result:,} rows to {path}", 10000)
        else:
            self.statusBar().showMessage(f"Export failed: {result}", 10000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.panel.release()
        self.recording.close()
        super().closeEvent(event)


def _meta(recording: Recording) -> dict[str, str]:
    try:
        return recording.meta()
    except RecordingError:
        return {}


def open_recording_window(
    path: Path | str, parent: QWidget | None = None, on_opened: Callable[[RecordingWindow], None] | None = None
) -> RecordingWindow:
    """Open a saved recording read-only in a new window (shown). Raises RecordingError. ``on_opened`` gets the
    window before it is shown (the main window connects its panel's ``replayRequested``)."""
    recording = Recording.open(Path(path), readonly=True)
    window = RecordingWindow(recording, parent)
    if on_opened is not None:
        on_opened(window)
    window.show()
    return window


def open_recording_dialog(
    parent: QWidget | None = None, on_opened: Callable[[RecordingWindow], None] | None = None
) -> QFileDialog:
    """A non-modal file dialog; choosing a file opens it with ``open_recording_window`` (and ``on_opened``).

    A file that is not a recording is reported in a status line on ``parent`` when it is a
    QMainWindow; the dialog's ``opened`` attribute lists the windows it opened.
    """
    start = recordings_dir()
    dialog = QFileDialog(parent, "Open recording", str(start if start.is_dir() else Path.home()))
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(["Recordings (*.sqlite3 *.sqlite *.db)", "All files (*)"])
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    opened: list[RecordingWindow] = []

    def chosen(path: str) -> None:
        try:
            opened.append(open_recording_window(path, parent, on_opened))
        except RecordingError as exc:
            if isinstance(parent, QMainWindow):
                parent.statusBar().showMessage(f"Cannot open {path}: {exc}", 10000)

    dialog.fileSelected.connect(chosen)
    dialog.opened = opened  # type: ignore[attr-defined]
    dialog.open()
    return dialog


def recording_actions(parent: QWidget, panel: LogPanel | None = None) -> list[QAction]:
    """File-menu actions: "Open Recording…" and, with a panel, "Export as JSON Lines…"."""
    open_action = QAction("Open Recording…", parent)
    open_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
    open_action.triggered.connect(lambda: open_recording_dialog(parent))
    actions = [open_action]
    if panel is not None:
        actions.append(panel.export_action)
    return actions
