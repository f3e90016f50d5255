"""``LogPanel``: the live message log (filter bar, virtualized table, detail pane).

The main window calls ``refresh()`` when ``ConnectionController.messagesAdded`` fires; rows are
appended (the view follows the tail only when it was already at the bottom). Selecting a request
tints its response (and the other way round); Ctrl+J jumps between them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Final

from PySide6.QtCore import (
    QByteArray,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording, RecordingError
from inspector.ui.log.delegates import BadgeDelegate, CellDelegate
from inspector.ui.log.detail import DetailPane
from inspector.ui.log.filters import FilterBar
from inspector.ui.log.model import Column, LogTableModel
from inspector.ui.widgets.timers import coalescer

__all__ = ["LogPanel"]

_WIDTHS: Final = {
    Column.TIME: 96,
    Column.DIRECTION: 26,
    Column.KIND: 104,
    Column.METHOD: 190,
    Column.ID: 56,
    Column.LATENCY: 74,
    Column.SIZE: 70,
    Column.DIAGNOSTICS: 46,
}
_RESPONSE_KINDS: Final = (Kind.RESPONSE.value, Kind.ERROR.value, Kind.INVALID.value)
_STATE_VERSION: Final = 1


class LogPanel(QWidget):
    """Filter bar + message table + detail pane over one Recording (see the module docstring)."""

    selectedSeqChanged = Signal(object)
    """The seq of the selected row, or None."""
    countsChanged = Signal(int, int)
    """(rows shown, rows in the recording)"""
    exportFinished = Signal(str, object)
    """(path, rows written | error message)"""
    saveCallRequested = Signal(str, object)
    """"Save to Collection" on one of our requests: its method and params (a dict or None)."""
    replayRequested = Signal(str)
    """The path of this recording's file, on "Replay Against…" (the window opens the replay; flushed first)."""

    REFRESH_INTERVAL_MS = 200

    def __init__(self, recording: Recording | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LogTableModel(None, self)
        self.filter_bar = FilterBar(self)
        self.filter_bar.set_methods_provider(self._methods)
        self.view = QTableView(self)
        self.view.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.view.setAccessibleName("Messages")
        self.view.setModel(self.model)
        self.detail = DetailPane(self)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("logSplitter")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.splitter, 1)
        self._setup_view()
        self._setup_actions()

        self._follow = True
        self._pending_seq: int | None = None
        self._last_refresh = 0.0
        self._refresh_timer = coalescer(self, 0, self._refresh_now)
        self._export_paths: dict[int, str] = {}
        self.filter_bar.filterChanged.connect(self._on_filter)
        self.model.progressed.connect(self._on_progress)
        self.model.rowsAboutToBeInserted.connect(self._before_insert)
        self.model.rowsInserted.connect(self._after_insert)
        self.model.modelAboutToBeReset.connect(self._before_reset)
        self.model.modelReset.connect(self._after_reset)
        self.detail.jumpRequested.connect(lambda seq: self.select_seq(seq))
        self._folded: frozenset[int] = frozenset()
        """The rows of a multi-round request's group hidden by its "Fold rounds" (by seq)."""
        self.detail.rounds.groupChanged.connect(self._on_group)
        self.detail.rounds.foldToggled.connect(self._fold_rounds)
        self.view.selectionModel().currentRowChanged.connect(self._on_current)
        self.set_recording(recording)

    def _setup_view(self) -> None:
        v = self.view
        v.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        v.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        v.setShowGrid(False)
        v.setAlternatingRowColors(True)
        v.setWordWrap(False)
        v.setTextElideMode(Qt.TextElideMode.ElideRight)
        v.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        v.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        v.customContextMenuRequested.connect(self._context_menu)
        vh = v.verticalHeader()
        vh.setVisible(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(v.fontMetrics().height() + 8)
        hh = v.horizontalHeader()
        hh.setHighlightSections(False)
        hh.setStretchLastSection(True)
        hh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column, width in _WIDTHS.items():
            hh.resizeSection(column, width)
        v.setItemDelegate(CellDelegate(self.model, v))
        v.setItemDelegateForColumn(Column.DIAGNOSTICS, BadgeDelegate(self.model, v))
        # shown over the empty table: an empty log says why (nothing yet, or the filters hide everything)
        self.empty_label = QLabel(v.viewport())
        self.empty_label.setObjectName("logEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setEnabled(False)
        self.empty_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        empty_layout = QVBoxLayout(v.viewport())
        empty_layout.addWidget(self.empty_label)
        self.empty_label.hide()

    def _setup_actions(self) -> None:
        self.jump_action = QAction("Jump to Response / Request", self)
        self.jump_action.setShortcut(QKeySequence("Ctrl+J"))
        self.jump_action.triggered.connect(self.detail.jump)
        self.copy_action = QAction("Copy JSON", self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.detail.copy_json)
        self.copy_cli_action = QAction("Copy as mcp-inspect --cli Command", self)
        self.copy_cli_action.triggered.connect(self.detail.copy_cli_command)
        self.open_full_action = QAction("Open Full Payload…", self)
        self.open_full_action.triggered.connect(self.detail.open_full)
        self.save_call_action = QAction("Save to Collection", self)
        self.save_call_action.setToolTip("Save this request as a call of the Collections tab")
        self.save_call_action.triggered.connect(self.save_selected_call)
        self.export_action = QAction("Export as JSON Lines…", self)
        self.export_action.triggered.connect(lambda: self.export_jsonl_dialog())
        self.replay_action = QAction("Replay Against…", self)
        self.replay_action.setToolTip("Send this recording's requests again to a server and compare the answers")
        self.replay_action.triggered.connect(self.request_replay)
        self.diagnostics_action = QAction("Diagnostics Only", self)
        self.diagnostics_action.setCheckable(True)
        self.diagnostics_action.toggled.connect(self.show_diagnostics_only)
        self.filter_bar.diagnostics_button.toggled.connect(self.diagnostics_action.setChecked)
        self.addAction(self.jump_action)
        self.view.addAction(self.copy_action)

    # ------------------------------------------------------------------ public API

    @property
    def recording(self) -> Recording | None:
        return self.model.recording

    def set_recording(self, recording: Recording | None) -> None:
        """Show another recording (None: nothing). Filters stay as they are.

        A live (writable) recording opens at its end, following new rows; a saved one at its start.
        """
        self.model.set_recording(recording)
        self.model.set_filter(self.filter_bar.current_filter())
        self.detail.set_context(recording, self.model.worker, self.model.source)
        self._pending_seq = None
        self._follow = recording is not None and not recording.readonly
        if self._follow:
            self.view.scrollToBottom()
        else:
            self.view.scrollToTop()

    def replayable_path(self) -> str | None:
        """The file of the recording shown, when it has one ("Replay Against…" needs a file)."""
        rec = self.recording
        if rec is None or rec.closed or str(rec.path) == ":memory:":
            return None
        return str(rec.path)

    def request_replay(self) -> None:
        """Ask the window to replay this recording (what is recorded so far is written first)."""
        path = self.replayable_path()
        if path is None:
            return
        rec = self.recording
        if rec is not None and not rec.readonly:
            try:
                rec.flush()
            except RecordingError:
                pass
        self.replayRequested.emit(path)

    def refresh(self) -> None:
        """New rows may be in the recording (connect to ConnectionController.messagesAdded).

        During a flood the table is updated at most every ``REFRESH_INTERVAL_MS`` (the first call
        after a quiet spell is applied at once, the rest are folded into one a little later).
        """
        wait = self.REFRESH_INTERVAL_MS / 1000 - (time.monotonic() - self._last_refresh)
        if wait <= 0:
            self._refresh_now()
        elif not self._refresh_timer.isActive():
            self._refresh_timer.start(max(1, int(wait * 1000)))

    def _refresh_now(self, *, wait: bool = False) -> None:
        self._refresh_timer.stop()
        self._last_refresh = time.monotonic()
        self.model.refresh(wait=wait)

    def release(self) -> None:
        """Close the panel's own connections to the recording file (before the recording is closed)."""
        self.detail.set_context(None, None, None)
        self.model.close()

    def show_diagnostics_only(self, on: bool = True) -> None:
        self.filter_bar.set_diagnostics_only(on)

    def search(self, text: str) -> None:
        """Search the payloads now (as if typed in the search field, without the debounce)."""
        self.filter_bar.set_search_text(text, immediate=True)

    def selected_seq(self) -> int | None:
        index = self.view.selectionModel().currentIndex()
        return self.model.seq_at(index.row()) if index.isValid() else None

    def select_seq(self, seq: int, *, reveal: bool = True) -> bool:
        """Select the row of ``seq``. If a filter hides it, clear the filters first (``reveal``), saying so in the
        filter bar (which offers to restore them).

        Returns False when the row cannot be shown (yet: a filter still being computed selects
        it once it gets there).
        """
        row = self.model.row_of(seq)
        if row is None and self.recording is not None and self.model.arithmetic and seq > self.model.rowCount():
            self._refresh_now(wait=True)  # a row newer than the last refresh: wait for the writer once
            row = self.model.row_of(seq)
        if row is not None:
            self._pending_seq = None
            index = self.model.index(row, 0)
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.view.selectionModel().setCurrentIndex(index, flags)
            self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
            return True
        if self.model.building and not self.model.covers(seq):
            self._pending_seq = seq
            return False
        if reveal and not self.model.filter.is_empty():
            self.filter_bar.clear_for_jump(f"row #{seq}")  # says so in the bar, with "Restore filters"
            return self.select_seq(seq, reveal=False)
        return False

    def save_state(self) -> bytes:
        """Splitter positions and column widths (for QSettings)."""

        def b64(data: QByteArray) -> str:
            return bytes(data.toBase64().data()).decode("ascii")

        parts = {
            "version": _STATE_VERSION,
            "splitter": b64(self.splitter.saveState()),
            "detail": b64(self.detail.splitter.saveState()),
            "columns": b64(self.view.horizontalHeader().saveState()),
        }
        return json.dumps(parts).encode()

    def restore_state(self, state: QByteArray | bytes) -> bool:
        """Undo ``save_state``; False (and nothing changed) when the data is not ours."""
        try:
            parts = json.loads(bytes(state.data()) if isinstance(state, QByteArray) else state)
            if not isinstance(parts, dict) or parts.get("version") != _STATE_VERSION:
                return False
            blobs = [QByteArray.fromBase64(str(parts[k]).encode("ascii")) for k in ("splitter", "detail", "columns")]
        except (ValueError, KeyError, TypeError):
            return False
        self.splitter.restoreState(blobs[0])
        self.detail.splitter.restoreState(blobs[1])
        self.view.horizontalHeader().restoreState(blobs[2])
        return True

    def export_jsonl_dialog(self, *, filtered: bool = False) -> QFileDialog | None:
        """Ask where to export (non-modal); ``filtered`` exports only the rows shown."""
        rec = self.recording
        if rec is None:
            return None
        dialog = QFileDialog(self, "Export as JSON lines", str(Path.home() / f"{rec.path.stem}.jsonl"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(["JSON lines (*.jsonl)", "All files (*)"])
        dialog.setDefaultSuffix("jsonl")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        f = self.model.filter if filtered else None
        dialog.fileSelected.connect(lambda path: self.export_jsonl(path, f))
        dialog.open()
        return dialog

    def export_jsonl(self, path: str, f: RecordFilter | None = None) -> None:
        """Export in the reader thread; ``exportFinished`` reports the outcome."""
        rec, worker = self.recording, self.model.worker
        if rec is None or worker is None:
            self.exportFinished.emit(path, "no recording")
            return
        try:
            if not rec.readonly:
                rec.flush()
        except RecordingError as exc:
            self.exportFinished.emit(path, str(exc))
            return
        if not self._export_paths:
            worker.exported.connect(self._on_exported)
        self._export_paths[worker.export_jsonl(Path(path), f)] = path

    # ------------------------------------------------------------------ internals

    def _methods(self) -> list[str]:
        rec = self.recording
        if rec is None or rec.closed:
            return []
        try:
            return rec.methods()
        except RecordingError:
            return []

    def _on_filter(self, f: RecordFilter) -> None:
        self.model.set_filter(f)

    def _on_exported(self, token: int, result: object) -> None:
        path = self._export_paths.pop(token, None)
        if path is not None:
            self.exportFinished.emit(path, result)

    def _on_group(self, seqs: object) -> None:
        """The selected row's multi-round group changed: tint it, and unfold the one folded before."""
        self._unfold()
        self.model.set_group(seqs if isinstance(seqs, frozenset) else frozenset())

    def _fold_rounds(self, fold: bool) -> None:
        """Hide (``fold``) or show the group's rows but its first request and the selected row."""
        if not fold:
            self._unfold()
            return
        rounds = self.detail.rounds
        keep = {rounds.first_seq, self.detail.seq}
        folded = []
        for seq in rounds.members - keep:
            row = self.model.row_of(seq)
            if row is not None:
                self.view.setRowHidden(row, True)
                folded.append(seq)
        self._folded = frozenset(folded)

    def _unfold(self) -> None:
        for seq in self._folded:
            row = self.model.row_of(seq)
            if row is not None:
                self.view.setRowHidden(row, False)
        self._folded = frozenset()
        button = self.detail.rounds.fold_button
        if button.isChecked():
            button.blockSignals(True)
            button.setChecked(False)
            button.blockSignals(False)

    @property
    def folded(self) -> frozenset[int]:
        """The seqs of the rows "Fold rounds" hides now."""
        return self._folded

    def _before_reset(self) -> None:
        self._unfold()  # the rows move: nothing stays hidden across a reset
        seq = self.selected_seq()
        self._pending_seq = seq if seq is not None else self._pending_seq
        self._follow = self._at_bottom()

    def _after_reset(self) -> None:
        if self._pending_seq is None and self._follow:
            self.view.scrollToBottom()

    def _at_bottom(self) -> bool:
        bar = self.view.verticalScrollBar()
        return bar.value() >= bar.maximum()

    def _before_insert(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        self._follow = self._at_bottom() and self._pending_seq is None

    def _after_insert(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        if self._pending_seq is not None and self.model.row_of(self._pending_seq) is not None:
            self.select_seq(self._pending_seq, reveal=False)
        elif self._follow:
            self.view.scrollToBottom()

    def _on_progress(self) -> None:
        m = self.model
        if self._pending_seq is not None and not m.building and m.row_of(self._pending_seq) is None:
            self._pending_seq = None  # filtered out
        self.filter_bar.set_counts(m.rowCount(), m.total, building=m.building, error=m.error)
        self._update_empty()
        self.countsChanged.emit(m.rowCount(), m.total)

    def _update_empty(self) -> None:
        """No row to show: say why over the table, and empty the detail pane (its row is not in the list)."""
        m = self.model
        empty = m.rowCount() == 0 and not m.building and m.error is None
        if empty:
            if not m.filter.is_empty() and m.total:
                text = f"No messages match the filters ({m.total:,} hidden). Reset shows them all."
            else:
                text = "No messages yet."
            self.empty_label.setText(text)
            if self.detail.seq is not None:
                self.detail.show_seq(None)
                self.model.set_partner(None)
                self.selectedSeqChanged.emit(None)
        self.empty_label.setVisible(empty)

    @property
    def empty_text(self) -> str:
        """What the empty table says ("" while it shows rows)."""
        return self.empty_label.text() if not self.empty_label.isHidden() else ""

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        cells = self.model.cells(current.row()) if current.isValid() else None
        if cells is None:
            self.model.set_partner(None)
            self.selectedSeqChanged.emit(None)
            return
        partner = self._partner_of(cells.seq, cells.kind)
        self.model.set_partner(partner)
        if cells.seq != self.detail.seq or partner != self.detail.partner:
            self.detail.show_seq(cells.seq, size=cells.size, partner=partner)
        self.selectedSeqChanged.emit(cells.seq)

    def _partner_of(self, seq: int, kind: str) -> int | None:
        rec = self.recording
        if rec is None or rec.closed:
            return None
        try:
            if kind == Kind.REQUEST.value:
                return rec.find_response(seq)
            if kind in _RESPONSE_KINDS:
                return rec.find_request(seq)
        except RecordingError:
            return None
        return None

    def saved_call(self) -> tuple[str, object] | None:
        """The selected row as a call to save: (method, params) of a request we sent, else None."""
        row = self.detail.row
        if row is None or row.kind is not Kind.REQUEST or row.direction is not Direction.OUT:
            return None
        try:
            message = json.loads(row.raw)
        except (ValueError, RecursionError):
            return None
        method = message.get("method") if isinstance(message, dict) else None
        if not isinstance(method, str) or method in ("initialize", "server/discover"):
            return None
        params = message.get("params")
        return method, params if isinstance(params, dict) else None

    def save_selected_call(self) -> bool:
        found = self.saved_call()
        if found is None:
            return False
        self.saveCallRequested.emit(*found)
        return True

    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        menu = QMenu(self)
        kind = self.model.cells(index.row())
        self.copy_cli_action.setEnabled(kind is not None and kind.kind == Kind.REQUEST.value)
        self.save_call_action.setEnabled(self.saved_call() is not None)
        self.jump_action.setEnabled(self.model.partner is not None)
        for action in (self.copy_action, self.copy_cli_action, self.jump_action, self.open_full_action):
            menu.addAction(action)
        menu.addAction(self.save_call_action)
        menu.addSeparator()
        menu.addAction(self.export_action)
        self.replay_action.setEnabled(self.replayable_path() is not None)
        menu.addAction(self.replay_action)
        menu.popup(self.view.viewport().mapToGlobal(pos))
