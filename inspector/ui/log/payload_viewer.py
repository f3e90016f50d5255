"""The "Open full" window: one payload as a lazy tree and as re-indented text, both without stalls.

The text tab fills in time slices (``PrettyStream``) and stops at ``TEXT_CAP`` characters with a
note; "Save payload…" writes the whole payload as received. Highlighting covers visible lines only.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Final

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QProgressBar,
    QTabWidget,
    QToolBar,
    QTreeView,
    QWidget,
)

from inspector.content.format import break_long_lines
from inspector.content.jsonscan import LazyJson, PrettyStream
from inspector.protocol.sizes import format_size
from inspector.ui.log.highlight import LazyHighlighter
from inspector.ui.viewers.json_model import JsonScanDriver, JsonTreeModel
from inspector.ui.widgets.theme import follow_font

__all__ = ["TEXT_CAP", "PayloadViewer", "prepare_tree_view", "show_tree_model"]

TEXT_CAP: Final = 16 * 1024 * 1024
"""Characters of re-indented text the viewer shows at most."""
FILL_SLICE: Final = 0.005
"""Seconds of formatting per turn of the event loop (adding the text to the view costs as much again)."""


def prepare_tree_view(view: QTreeView) -> QTreeView:
    view.setUniformRowHeights(True)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QTreeView.SelectionBehavior.SelectRows)
    follow_font(view, "mono")
    return view


def show_tree_model(view: QTreeView, model: JsonTreeModel) -> None:
    """Put ``model`` in ``view``, showing the document's top value's members at the top level."""
    view.setModel(model)
    view.setRootIndex(model.root_index())
    header = view.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(JsonTreeModel.KEY_COLUMN, QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(JsonTreeModel.VALUE_COLUMN, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(JsonTreeModel.TYPE_COLUMN, QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(JsonTreeModel.SIZE_COLUMN, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(JsonTreeModel.KEY_COLUMN, 220)
    header.resizeSection(JsonTreeModel.TYPE_COLUMN, 70)
    header.resizeSection(JsonTreeModel.SIZE_COLUMN, 80)


class PayloadViewer(QMainWindow):
    """A separate window for one payload (see the module docstring)."""

    def __init__(
        self,
        title: str,
        text: str,
        *,
        doc: LazyJson | None = None,
        size: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``size``: the payload's size in bytes (for the title); ``doc``: the detail pane's lazy document."""
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setWindowTitle(f"{title} — {format_size(size if size is not None else len(text))}")
        self.resize(1000, 760)
        self.payload = text
        stripped = text.lstrip()[:1]
        self.is_json = stripped in ("{", "[")
        self.tabs = QTabWidget(self)
        self.setCentralWidget(self.tabs)

        self.text_view = QPlainTextEdit(self)
        self.text_view.setAccessibleName("Payload")
        self.text_view.setReadOnly(True)
        self.text_view.setUndoRedoEnabled(False)
        self.text_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        follow_font(self.text_view, "mono")
        self.highlighter = LazyHighlighter(self.text_view)
        self.highlighter.set_enabled(self.is_json)

        self.tree_view: QTreeView | None = None
        self.tree_model: JsonTreeModel | None = None
        if self.is_json:
            driver = JsonScanDriver(doc.fork() if doc is not None else LazyJson(text), self)
            self.driver = driver
            self.tree_model = JsonTreeModel(parent=self, driver=driver)
            self.tree_view = prepare_tree_view(QTreeView(self))
            self.tree_view.setAccessibleName("Payload as a tree")
            show_tree_model(self.tree_view, self.tree_model)
            self.tabs.addTab(self.tree_view, "Tree")
            driver.start()
        self.tabs.addTab(self.text_view, "Text")

        toolbar = QToolBar("Payload", self)
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        self.save_action = QAction("Save payload…", self)
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self.save_dialog)
        toolbar.addAction(self.save_action)
        self.copy_action = QAction("Copy all", self)
        self.copy_action.triggered.connect(lambda: QGuiApplication.clipboard().setText(self.payload))
        toolbar.addAction(self.copy_action)
        self.note = QLabel(self)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(200)
        self.statusBar().addWidget(self.note, 1)
        self.statusBar().addPermanentWidget(self.progress)

        self._stream = PrettyStream(text) if self.is_json else None
        self._raw_pos = 0
        self._shown = 0
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._fill)
        self._timer.start()

    @property
    def text_complete(self) -> bool:
        return not self._timer.isActive()

    def _fill(self) -> None:
        deadline = time.perf_counter() + FILL_SLICE
        if self._stream is not None:
            chunk = self._stream.step(deadline)
            done = self._stream.done
            fraction = self._stream.pos / max(1, len(self.payload))
        else:
            # not JSON: the text as it is, long lines broken so that layout stays cheap
            piece = self.payload[self._raw_pos : self._raw_pos + 64 * 1024]
            self._raw_pos += len(piece)
            chunk, _ = break_long_lines(piece)
            if self._raw_pos < len(self.payload) and not chunk.endswith("\n"):
                chunk += "\n"  # slices end lines too: keeps every line short
            done = self._raw_pos >= len(self.payload)
            fraction = self._raw_pos / max(1, len(self.payload))
        if chunk:
            if self._shown + len(chunk) > TEXT_CAP:
                chunk = chunk[: TEXT_CAP - self._shown]
                done = True
                self.note.setText(
                    f"Text shows the first {format_size(TEXT_CAP)} of the formatted payload; "
                    "use Save payload… for all of it."
                )
            cursor = QTextCursor(self.text_view.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(chunk)
            self._shown += len(chunk)
        self.progress.setValue(int(fraction * 1000))
        if done:
            self._timer.stop()
            self.progress.setValue(1000)
            self.progress.hide()
            if not self.note.text():
                self.note.setText(f"{self.text_view.blockCount():,} lines")

    def save_dialog(self) -> QFileDialog:
        """Ask where to save the payload (non-modal); returns the dialog."""
        dialog = QFileDialog(self, "Save payload", str(Path.home() / "payload.json"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.save_to)
        dialog.open()
        return dialog

    def save_to(self, path: str) -> None:
        try:
            Path(path).write_text(self.payload, encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            self.note.setText(f"Could not save: {exc}")
        else:
            self.note.setText(f"Saved to {path}")

    def closeEvent(self, event: QCloseEvent) -> None:
        self._timer.stop()
        if self.tree_model is not None:
            self.driver.stop()
        super().closeEvent(event)
