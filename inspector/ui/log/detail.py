"""The detail pane of the message log: one frame, its payload, its diagnostics, and actions on it.

Payloads up to ``TEXT_LIMIT`` bytes are shown as pretty JSON text coloured on screen only
(``LazyHighlighter``); bigger ones are read in the reader thread and shown as a lazy tree, with
"Open full" for a separate window. Selecting a diagnostic highlights the part of the payload its
JSON path names (lines in the text, a node in the tree).
"""

from __future__ import annotations

import json
import time
from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.cli.command_line import CliCommand, cli_command
from inspector.content.format import break_long_lines, human_duration
from inspector.content.jsonscan import LazyJson
from inspector.content.jsontext import nearest_span, render_json
from inspector.content.plural import noun, plural
from inspector.protocol.jsonpath import JsonPath, parse_path
from inspector.protocol.sizes import format_size
from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import Recording, RecordRow
from inspector.store.recording.rows import RowSource
from inspector.ui.log.highlight import LazyHighlighter, mark_lines
from inspector.ui.log.http_headers import HttpHeaderVerdicts
from inspector.ui.log.palette import kind_colour, severity_colour
from inspector.ui.log.payload_viewer import PayloadViewer, prepare_tree_view, show_tree_model
from inspector.ui.log.rounds import RoundsView
from inspector.ui.log.worker import RecordingWorker
from inspector.ui.viewers.json_model import JsonScanDriver, JsonTreeModel
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font

__all__ = ["TEXT_LIMIT", "DetailPane"]

TEXT_LIMIT: Final = 256 * 1024
"""Payloads larger than this (bytes) are shown as a lazy tree instead of text."""


def _button(text: str, tip: str, parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return button


class DetailPane(QWidget):
    """See the module docstring. Widgets are attributes so tests and the panel can reach them."""

    jumpRequested = Signal(int)
    """seq of the request/response to select."""
    loaded = Signal(int)
    """seq whose payload is now shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rec: Recording | None = None
        self._worker: RecordingWorker | None = None
        self._source: RowSource | None = None
        self._token = 0
        self._seq: int | None = None
        self._partner: int | None = None
        self._row: RecordRow | None = None
        self._value: object = None
        self._parsed = False
        self._spans: dict[JsonPath, tuple[int, int]] = {}
        self._tree_model: JsonTreeModel | None = None
        self._doc: LazyJson | None = None
        self.load_started = 0.0
        self.viewers: list[PayloadViewer] = []

        self.header = QLabel(self)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_json_button = _button("Copy JSON", "Copy the payload as pretty JSON", self)
        self.copy_cli_button = _button("Copy as CLI", "Copy an mcp-inspect --cli command that sends this request", self)
        self.jump_button = _button("Jump to response", "Select the paired request/response (Ctrl+J)", self)
        self.open_full_button = _button("Open full", "Show the whole payload in a separate window", self)
        self.copy_json_button.clicked.connect(self.copy_json)
        self.copy_cli_button.clicked.connect(self.copy_cli_command)
        self.jump_button.clicked.connect(self.jump)
        self.open_full_button.clicked.connect(self.open_full)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 2, 2, 2)
        bar.addWidget(self.header, 1)
        for b in (self.jump_button, self.copy_json_button, self.copy_cli_button, self.open_full_button):
            bar.addWidget(b)

        self.text = QPlainTextEdit(self)
        self.text.setAccessibleName("Message as text")
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        follow_font(self.text, "mono")
        self.highlighter = LazyHighlighter(self.text)
        self.tree = prepare_tree_view(QTreeView(self))
        self.tree.setAccessibleName("Message as a tree")
        self.placeholder = QLabel("Select a message to see its payload.", self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setEnabled(False)
        self.stack = QStackedWidget(self)
        for page in (self.placeholder, self.text, self.tree):
            self.stack.addWidget(page)

        self.diagnostics = QTreeWidget(self)
        self.diagnostics.setAccessibleName("Diagnostics of the message")
        self.diagnostics.setHeaderLabels(["Severity", "Code", "Message", "Path"])
        self.diagnostics.setRootIsDecorated(False)
        self.diagnostics.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.diagnostics.currentItemChanged.connect(self._on_diagnostic)
        self.diagnostics.hide()
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setContentsMargins(6, 0, 6, 2)
        self.note.hide()
        self.http_headers = HttpHeaderVerdicts(self)
        """An HTTP request's Mcp-* headers checked against its body (hidden for other rows)."""

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.diagnostics)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([90, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.note)
        layout.addWidget(self.http_headers)
        self.rounds = RoundsView(self)
        """The rounds of a multi-round-trip request (2026-07-28), grouped (hidden for other rows)."""
        self.rounds.seqActivated.connect(self.jumpRequested)
        layout.addWidget(self.rounds)
        layout.addWidget(self.splitter, 1)
        self.show_seq(None)

    # ------------------------------------------------------------------ state

    def set_context(
        self, recording: Recording | None, worker: RecordingWorker | None, source: RowSource | None
    ) -> None:
        """The recording to read from, its reader thread, and the row source for sizes."""
        if self._worker is not None:
            self._worker.rowLoaded.disconnect(self._on_row_loaded)
        self._rec, self._worker, self._source = recording, worker, source
        if worker is not None:
            worker.rowLoaded.connect(self._on_row_loaded)
        self.show_seq(None)

    @property
    def seq(self) -> int | None:
        return self._seq

    @property
    def partner(self) -> int | None:
        """The paired request/response of the frame shown (the jump target)."""
        return self._partner

    @property
    def row(self) -> RecordRow | None:
        return self._row

    @property
    def mode(self) -> str:
        """``empty``, ``loading``, ``text`` or ``tree``."""
        if self._seq is None:
            return "empty"
        if self._row is None:
            return "loading"
        return "tree" if self.stack.currentWidget() is self.tree else "text"

    @property
    def tree_model(self) -> JsonTreeModel | None:
        return self._tree_model

    def _set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def show_seq(self, seq: int | None, *, size: int | None = None, partner: int | None = None) -> None:
        """Show frame ``seq`` (None: nothing). ``size`` (bytes) avoids a lookup; ``partner`` enables the jump."""
        self._seq, self._partner, self._row = seq, partner, None
        self._value, self._parsed, self._spans = None, False, {}
        self._drop_tree()
        self.diagnostics.clear()
        self.diagnostics.hide()
        self.http_headers.clear()
        self.rounds.clear()
        self._set_note("")
        self.text.setExtraSelections([])
        for b in (self.copy_json_button, self.copy_cli_button, self.open_full_button, self.jump_button):
            b.setEnabled(False)
        self.jump_button.setVisible(partner is not None)
        rec = self._rec
        if seq is None or rec is None or rec.closed:
            self.header.setText("")
            self.placeholder.setText("Select a message to see its payload.")
            self.stack.setCurrentWidget(self.placeholder)
            return
        self.load_started = time.perf_counter()
        if size is None:
            found = self._source.cells_for([seq]) if self._source is not None else []
            size = found[0].size if found else 0
        if size > TEXT_LIMIT and self._worker is not None:
            self.header.setText(f"#{seq} · loading {format_size(size)}…")
            self.stack.setCurrentWidget(self.placeholder)
            self.placeholder.setText(f"Loading {format_size(size)}…")
            self._token = self._worker.load_row(seq)
            return
        self._show_row(rec.get(seq))

    def _on_row_loaded(self, token: int, row: object) -> None:
        if token != self._token or self._seq is None:
            return
        if isinstance(row, str):
            self.placeholder.setText(f"Could not read the payload: {row}")
            return
        self._show_row(row if isinstance(row, RecordRow) else None)

    def _show_row(self, row: RecordRow | None) -> None:
        if row is None:
            self.header.setText(f"#{self._seq} is not in the recording")
            self.stack.setCurrentWidget(self.placeholder)
            return
        self._row = row
        self.header.setText(self._header_html(row))
        self._fill_diagnostics(row)
        self.http_headers.show_row(self._rec, row)
        self.rounds.show_row(self._rec, row)
        is_message = row.kind not in (Kind.STDERR, Kind.TRANSPORT)
        self.copy_json_button.setEnabled(True)
        self.copy_json_button.setText("Copy JSON" if is_message else "Copy text")
        self.open_full_button.setEnabled(True)
        self.copy_cli_button.setEnabled(row.kind is Kind.REQUEST)
        self.jump_button.setEnabled(self._partner is not None)
        self.jump_button.setText("Jump to response" if row.kind is Kind.REQUEST else "Jump to request")
        text = row.raw
        if len(text) > TEXT_LIMIT and is_message and text.lstrip()[:1] in ("{", "["):
            self._show_tree_later(row)
            return
        self._show_text(text, is_message)
        self.loaded.emit(row.seq)

    def _show_tree_later(self, row: RecordRow) -> None:
        """The tree on the next turn of the event loop, so that a big payload's arrival (its string handed over
        by the reader thread) and the tree's first enumeration are two short stalls instead of one long one."""
        self.placeholder.setText(f"Indexing {format_size(len(row.raw))}…")

        def show() -> None:
            if self._row is row:
                self._show_tree(row.raw)
                self.loaded.emit(row.seq)

        QTimer.singleShot(0, self, show)

    def _header_html(self, row: RecordRow) -> str:
        colour = kind_colour(row.kind.value).name()
        arrow = "client → server" if row.direction is Direction.OUT else "server → client"
        parts = [f'<b style="color:{colour}">{row.kind.value}</b>']
        if row.method:
            parts.append(f"<b>{_escape(row.method)}</b>")
        if row.msg_id is not None:
            parts.append(f"id {_escape(json.dumps(row.msg_id))}")
        if row.kind not in (Kind.STDERR, Kind.TRANSPORT):
            parts.append(arrow)
        parts.append(format_size(row.size))
        if row.latency is not None:
            parts.append(f"latency {human_duration(row.latency)}")
        if row.forced:
            parts.append(f'<span style="color:{tones().warning_fg}">forced</span>')
        parts.append(row.time.astimezone().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3])
        parts.append(f'<span style="color:{tones().muted}">#{row.seq}</span>')
        return " · ".join(parts)

    def _fill_diagnostics(self, row: RecordRow) -> None:
        for diag in row.diagnostics:
            severity = str(diag.get("severity", "violation"))
            item = QTreeWidgetItem(
                [f"● {severity}", str(diag.get("code", "")), str(diag.get("message", "")), str(diag.get("path") or "")]
            )
            item.setForeground(0, severity_colour(severity))
            item.setToolTip(2, str(diag.get("message", "")))
            self.diagnostics.addTopLevelItem(item)
        if row.diagnostics:
            self.diagnostics.show()
            for col in (0, 1):
                self.diagnostics.resizeColumnToContents(col)
            self.diagnostics.setColumnWidth(2, max(260, self.diagnostics.columnWidth(2)))
            # as tall as its rows (up to five), the payload gets the rest
            rows = min(5, len(row.diagnostics))
            row_height = self.diagnostics.sizeHintForRow(0) if rows else 0
            wanted = self.diagnostics.header().sizeHint().height() + rows * max(row_height, 1) + 6
            total = sum(self.splitter.sizes()) or self.splitter.height()
            self.splitter.setSizes([wanted, max(1, total - wanted)])

    def _show_text(self, text: str, is_message: bool) -> None:
        shown = text
        if is_message:
            try:
                self._value = json.loads(text)
                self._parsed = True
            except (ValueError, RecursionError):
                self._parsed = False
        if self._parsed:
            try:
                rendered = render_json(self._value)
                shown, self._spans = rendered.text, rendered.spans
                if rendered.cut_strings:
                    cut = rendered.cut_strings
                    self._set_note(
                        f"{plural(cut, 'long string')} {noun(cut, 'is', 'are')} cut here; Open full shows them whole."
                    )
            except RecursionError:
                shown = json.dumps(self._value, indent=2, ensure_ascii=False)
        else:
            notes = []
            if len(text) > TEXT_LIMIT:
                shown = text[:TEXT_LIMIT]
                notes.append(f"Showing the first {format_size(TEXT_LIMIT)}; Open full shows everything.")
            shown, broken = break_long_lines(shown)
            if broken:
                notes.append("Long lines are broken for display (Copy gives the text as received).")
            self._set_note(" ".join(notes))
        self.highlighter.set_enabled(self._parsed)
        self.text.setPlainText(shown)
        self.highlighter.reset()
        self.stack.setCurrentWidget(self.text)

    def _show_tree(self, text: str) -> None:
        self._doc = LazyJson(text)
        driver = JsonScanDriver(self._doc, self)
        self._tree_model = JsonTreeModel(parent=self, driver=driver)
        self._tree_model.failed.connect(lambda msg: self._set_note(f"Not well-formed JSON: {msg}"))
        driver.progressed.connect(self._on_scan_progress)
        driver.finished.connect(self._on_scan_progress)
        show_tree_model(self.tree, self._tree_model)
        self.stack.setCurrentWidget(self.tree)
        root = self._tree_model.root_index()
        if self._tree_model.canFetchMore(root):  # the view may have fetched the first children already
            self._tree_model.fetchMore(root)
        self._set_note(f"Large payload ({format_size(len(text))}): shown as a tree. Indexing…")
        driver.start()

    def _on_scan_progress(self, *_: object) -> None:
        doc = self._doc
        if doc is None or self._row is None:
            return
        size = format_size(len(doc.text))
        if doc.error:
            self._set_note(f"Large payload ({size}) is not well-formed JSON: {doc.error}")
        elif doc.scan_done:
            self._set_note(f"Large payload ({size}): shown as a tree; Open full for the text.")
        else:
            self._set_note(f"Large payload ({size}): shown as a tree. Indexing… {doc.progress():.0%}")

    def _drop_tree(self) -> None:
        if self._tree_model is not None:
            driver = self._tree_model.driver
            if driver is not None:
                driver.stop()
            self.tree.setModel(None)  # type: ignore[arg-type]
            if driver is not None:
                driver.deleteLater()
            self._tree_model.deleteLater()
            self._tree_model = None
        self._doc = None

    # ------------------------------------------------------------------ actions

    def copy_json(self) -> str:
        """Copy the payload (pretty when it parsed) to the clipboard; returns what was copied."""
        if self._row is None:
            return ""
        text = json.dumps(self._value, indent=2, ensure_ascii=False) if self._parsed else self._row.raw
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_cli_command(self) -> CliCommand | None:
        """Copy an ``mcp-inspect --cli`` command reproducing this request; notes go to the note line."""
        row, rec = self._row, self._rec
        if row is None or rec is None or row.kind is not Kind.REQUEST:
            return None
        message = self._value if self._parsed else None
        if message is None:
            try:
                message = json.loads(row.raw)
            except (ValueError, RecursionError):
                self._set_note("This request is not valid JSON; there is no command for it.")
                return None
        command = cli_command(message, rec.meta().get("target") or None, direction=row.direction.value)
        QGuiApplication.clipboard().setText(command.text)
        notes = "; ".join(command.notes)
        self._set_note(("Copied the command. " if command.exact else "Copied the closest command. ") + notes)
        return command

    def jump(self) -> None:
        if self._partner is not None:
            self.jumpRequested.emit(self._partner)

    def open_full(self) -> PayloadViewer | None:
        if self._row is None:
            return None
        row = self._row
        title = f"#{row.seq} {row.kind.value} {row.method or ''}".strip()
        viewer = PayloadViewer(title, row.raw, doc=self._doc, size=row.size, parent=self.window())
        viewer.destroyed.connect(lambda *_: self.viewers.remove(viewer) if viewer in self.viewers else None)
        self.viewers.append(viewer)
        viewer.show()
        return viewer

    # ------------------------------------------------------------------ diagnostics -> payload

    def _on_diagnostic(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        if current is not None and current.text(3):
            self.highlight_path(current.text(3))

    def highlight_path(self, path_text: str) -> JsonPath | None:
        """Highlight the value at a diagnostic's JSON path (or its nearest existing parent)."""
        try:
            path = parse_path(path_text.strip())
        except ValueError:
            return None
        if self.mode == "tree" and self._tree_model is not None:
            index, reached = self._tree_model.index_for_path(path)
            if index.isValid():
                parent = index.parent()
                while parent.isValid():
                    self.tree.expand(parent)
                    parent = parent.parent()
                self.tree.setCurrentIndex(index)
                self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
            return reached
        found = nearest_span(self._spans, path)
        if found is None:
            return None
        reached, (first, last) = found
        start_block = mark_lines(self.text, first, last)
        self.text.setTextCursor(QTextCursor(start_block))
        # without wrapping, the scroll bar counts lines: put the value a third of the way down
        lines = max(1, self.text.viewport().height() // max(1, self.text.fontMetrics().lineSpacing()))
        self.text.verticalScrollBar().setValue(max(0, first - lines // 3))
        return reached


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
