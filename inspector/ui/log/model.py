"""The message log as a virtualized table model over a Recording.

Only the rows on screen exist as Python objects: rows are read in blocks of ``BLOCK`` through a
``RowSource`` and kept in a small LRU cache. Without a filter, row ``r`` is seq ``r + 1`` (seqs
are dense), so nothing per row is kept at all. With a filter, the matching seqs are kept in one
``array('q')`` (8 bytes a row), filled in the background by a ``RecordingWorker`` and extended
incrementally when new rows arrive; appends are announced with ``beginInsertRows``.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import OrderedDict
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette

from inspector.content.format import human_duration
from inspector.protocol.sizes import format_size
from inspector.protocol.wire import Kind
from inspector.store.recording import RecordFilter, Recording, RecordingError
from inspector.store.recording.rows import Cells, RowSource, open_row_source
from inspector.ui.log.palette import kind_colours
from inspector.ui.log.worker import RecordingWorker, SeqBatch
from inspector.ui.widgets.style import is_dark, monospace_font
from inspector.ui.widgets.theme import theme_manager
from inspector.ui.widgets.timers import coalescer

__all__ = ["BLOCK", "Column", "KindRole", "LogTableModel", "SeqRole", "SeverityRole"]

BLOCK: Final = 64
MAX_BLOCKS: Final = 128
CATCH_UP_MS: Final = 200
"""How soon the model looks again while the recording's writer still has rows to commit (as often as the log
panel refreshes during a flood: every update of the table repaints it)."""
SeqRole: Final = Qt.ItemDataRole.UserRole + 1
SeverityRole: Final = Qt.ItemDataRole.UserRole + 2
KindRole: Final = Qt.ItemDataRole.UserRole + 3

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY: Final = int(Qt.ItemDataRole.DisplayRole)
_FOREGROUND: Final = int(Qt.ItemDataRole.ForegroundRole)
_BACKGROUND: Final = int(Qt.ItemDataRole.BackgroundRole)
_ALIGN: Final = int(Qt.ItemDataRole.TextAlignmentRole)
_FONT: Final = int(Qt.ItemDataRole.FontRole)
_TOOLTIP: Final = int(Qt.ItemDataRole.ToolTipRole)
_SEQ: Final = int(SeqRole)
_SEVERITY: Final = int(SeverityRole)
_HANDLED: Final = frozenset(
    (_DISPLAY, _FOREGROUND, _BACKGROUND, _ALIGN, _FONT, _TOOLTIP, int(SeqRole), int(SeverityRole), int(KindRole))
)


class Column(IntEnum):
    TIME = 0
    DIRECTION = 1
    KIND = 2
    METHOD = 3
    ID = 4
    LATENCY = 5
    SIZE = 6
    DIAGNOSTICS = 7
    SUMMARY = 8


_HEADERS: Final = {
    Column.TIME: ("Time", "Local time the frame was recorded"),
    Column.DIRECTION: ("", "→ client to server, ← server to client"),
    Column.KIND: ("Kind", "request, response, error, notification, invalid frame, transport event or stderr line"),
    Column.METHOD: ("Method", "The method (for responses: of the request they answer)"),
    Column.ID: ("Id", "JSON-RPC id (strings are quoted)"),
    Column.LATENCY: ("Latency", "Time from the request to this response"),
    Column.SIZE: ("Size", "Bytes on the wire"),
    Column.DIAGNOSTICS: ("Diag", "Protocol diagnostics attached to the frame"),
    Column.SUMMARY: ("Summary", "The start of the payload"),
}
_RIGHT: Final = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTER: Final = Qt.AlignmentFlag.AlignCenter
_LEFT: Final = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter

_KIND_LABEL: Final = {Kind.TRANSPORT.value: "transport event", "http": "http exchange"}
_ALIGNMENTS: Final = tuple(
    _RIGHT if col in (Column.LATENCY, Column.SIZE, Column.ID)
    else _CENTER if col in (Column.DIRECTION, Column.DIAGNOSTICS)
    else _LEFT
    for col in Column
)  # fmt: skip
_ALIGNMENT_FLAGS: Final = tuple(a.value for a in _ALIGNMENTS)
"""The alignments as the int flags ``QPainter.drawText`` takes."""
_MONO_COLUMNS: Final = frozenset(int(c) for c in (Column.TIME, Column.ID, Column.SUMMARY))
_COLOURED_COLUMNS: Final = frozenset(int(c) for c in (Column.KIND, Column.DIRECTION))


def _tooltip(c: Cells) -> str:
    direction = "client → server" if c.direction == "out" else "server → client"
    lines = [f"#{c.seq} · {c.kind} · {direction}"]
    if c.method:
        lines.append(c.method)
    if c.forced:
        lines.append("sent although the server did not declare the capability")
    return "\n".join(lines)


class LogTableModel(QAbstractTableModel):
    """Rows of one recording, optionally filtered. See the module docstring."""

    progressed = Signal()
    """The row count, the total or the filtering state changed."""

    def __init__(self, recording: Recording | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rec: Recording | None = None
        self._source: RowSource | None = None
        self._worker: RecordingWorker | None = None
        self._filter = RecordFilter()
        self._seqs: array[int] | None = None
        self._count = 0
        self._total = 0
        self._token = 0
        self._building = False
        self._dirty = False
        self._scanned_upto = 0
        self._error: str | None = None
        self._blocks: OrderedDict[int, list[Cells]] = OrderedDict()
        self._last_row = -1
        self._last_cells: Cells | None = None
        self._partner: int | None = None
        self._partner_colour: QColor | None = None
        self._group: frozenset[int] = frozenset()
        """The rows of the multi-round-trip request the selected row belongs to (2026-07-28), tinted lightly."""
        self._group_colour: QColor | None = None
        self._colours: dict[str, QColor] = {}
        self._dark_palette = False
        self._mono = monospace_font()
        self._catch_up = coalescer(self, CATCH_UP_MS, self.refresh)
        if recording is not None:
            self.set_recording(recording)
        theme_manager().changed.connect(self._retheme)

    def _retheme(self) -> None:
        """The theme or the font size changed: the kinds' colours of the new one, the monospace font at the new size
        (the views repaint on the palette change)."""
        self._mono = monospace_font()
        self._dark_palette = is_dark()
        self._colours = kind_colours(self._dark_palette)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1), [_FOREGROUND]
            )

    # ------------------------------------------------------------------ state

    @property
    def recording(self) -> Recording | None:
        return self._rec

    @property
    def worker(self) -> RecordingWorker | None:
        return self._worker

    @property
    def source(self) -> RowSource | None:
        return self._source

    @property
    def filter(self) -> RecordFilter:
        return self._filter

    @property
    def total(self) -> int:
        """Rows in the recording (all of them, whatever the filter)."""
        return self._total

    @property
    def building(self) -> bool:
        """The filtered row list is still being computed."""
        return self._building

    @property
    def settled(self) -> bool:
        """Every row recorded so far (and refreshed for) is in the row list: no filtering running, no rows
        waiting for the recording's writer."""
        rec = self._rec
        if self._building or self._catch_up.isActive():
            return False
        return rec is None or rec.closed or rec.readonly or rec.pending == 0

    @property
    def error(self) -> str | None:
        return self._error

    @property
    def arithmetic(self) -> bool:
        return self._seqs is None

    def set_recording(self, recording: Recording | None) -> None:
        """Show ``recording`` (its rows so far: the writer is waited for once)."""
        self.beginResetModel()
        self._release()
        self._rec = recording
        if recording is not None and not recording.closed:
            self._source = open_row_source(recording)
            self._worker = RecordingWorker(recording, self)
            self._worker.seqsFound.connect(self._on_seqs)
        self._start_filter(wait=True)
        self.endResetModel()
        self.progressed.emit()

    def set_filter(self, f: RecordFilter) -> None:
        if f == self._filter:
            return
        self.beginResetModel()
        self._filter = f
        self._start_filter()
        self.endResetModel()
        self.progressed.emit()

    def close(self) -> None:
        """Let go of the recording's file (connections, reader thread)."""
        self.set_recording(None)

    def _release(self) -> None:
        if self._worker is not None:
            self._worker.seqsFound.disconnect(self._on_seqs)
            self._worker.close()
            self._worker.deleteLater()
            self._worker = None
        if self._source is not None:
            self._source.close()
            self._source = None

    def _start_filter(self, *, wait: bool = False) -> None:
        """Start over with the current filter (``wait``: for the recording's writer first)."""
        self._blocks.clear()
        self._last_row, self._last_cells = -1, None
        self._partner = None
        self._building = self._dirty = False
        self._error = None
        self._scanned_upto = 0
        self._count = self._total = 0
        rec = self._rec
        if rec is None or rec.closed or self._worker is None:
            self._seqs = None
            return
        self._total, max_seq = self._read_totals(rec, wait=wait)
        if self._filter.is_empty() and self._total == max_seq:
            self._seqs = None
            self._count = self._total
            return
        self._seqs = array("q")
        self._building = True
        self._token = self._worker.find_seqs(self._filter, 0)

    def _read_totals(self, rec: Recording, *, wait: bool = False) -> tuple[int, int]:
        """(rows, highest seq) committed to the file so far.

        Rows still buffered are handed to the recording's writer and, unless ``wait``, not waited for:
        while some are not committed, the model looks again in ``CATCH_UP_MS``.
        """
        if not rec.readonly and rec.pending:
            try:
                rec.flush(wait=wait)
            except RecordingError as exc:
                self._error = str(exc)
            if rec.pending and not self._catch_up.isActive():
                self._catch_up.start()
        assert self._source is not None
        try:
            return self._source.totals()
        except Exception as exc:  # the file went away under us: keep what we have
            self._error = str(exc)
            return self._total, self._scanned_upto

    def refresh(self, *, wait: bool = False) -> None:
        """New rows may be in the recording: append them (never a reset).

        Rows the recording's writer has not committed yet come in a little later, by themselves; with
        ``wait`` the writer is waited for first (for a user's jump to a row just recorded).
        """
        rec = self._rec
        if rec is None or rec.closed or self._worker is None:
            return
        before = (self._count, self._total, self._building, self._error)
        self._total, max_seq = self._read_totals(rec, wait=wait)
        if self._seqs is None:
            if self._total > self._count:
                self._append_rows(self._total - self._count, None)
        elif self._building:
            self._dirty = True
        elif max_seq > self._scanned_upto:
            self._building = True
            self._token = self._worker.find_seqs(self._filter, self._scanned_upto)
        if (self._count, self._total, self._building, self._error) != before:
            self.progressed.emit()

    def _on_seqs(self, batch: SeqBatch) -> None:
        if batch.token != self._token or self._seqs is None:
            return
        if batch.error is not None:
            self._error = batch.error
        seqs = batch.seqs
        if seqs and self._seqs and seqs[0] <= self._seqs[-1]:
            last = self._seqs[-1]
            seqs = array("q", [s for s in seqs if s > last])
        if seqs:
            self._append_rows(len(seqs), seqs)
        if batch.final:
            self._scanned_upto = max(self._scanned_upto, batch.upto)
            self._building = False
            if self._dirty:
                self._dirty = False
                self.refresh()
                return
        self.progressed.emit()

    def _append_rows(self, n: int, seqs: array[int] | None) -> None:
        first = self._count
        self._last_row, self._last_cells = -1, None
        self.beginInsertRows(QModelIndex(), first, first + n - 1)
        if seqs is not None and self._seqs is not None:
            self._seqs.extend(seqs)
        self._count += n
        self.endInsertRows()

    # ------------------------------------------------------------------ rows <-> seqs

    def seq_at(self, row: int) -> int | None:
        if not 0 <= row < self._count:
            return None
        return row + 1 if self._seqs is None else self._seqs[row]

    def row_of(self, seq: int) -> int | None:
        if self._seqs is None:
            return seq - 1 if 1 <= seq <= self._count else None
        i = bisect_left(self._seqs, seq)
        return i if i < len(self._seqs) and self._seqs[i] == seq else None

    def covers(self, seq: int) -> bool:
        """Whether the (possibly still filling) row list has looked at ``seq`` already."""
        if self._seqs is None:
            return seq <= self._count
        if not self._building:
            return seq <= max(self._scanned_upto, self._seqs[-1] if self._seqs else 0)
        return bool(self._seqs) and seq <= self._seqs[-1]

    def cells(self, row: int) -> Cells | None:
        if not 0 <= row < self._count or self._source is None:
            return None
        b, i = divmod(row, BLOCK)
        block = self._blocks.get(b)
        if block is None:
            block = self._load_block(b, [])
        elif i >= len(block):
            block = self._load_block(b, block)  # the last block grew: read only the new rows
        else:
            self._blocks.move_to_end(b)
        return block[i] if i < len(block) else None

    def _load_block(self, b: int, have: list[Cells]) -> list[Cells]:
        assert self._source is not None
        first = b * BLOCK + len(have)
        n = min(BLOCK - len(have), self._count - first)
        try:
            if self._seqs is None:
                new = self._source.cells_range(first + 1, n)
            else:
                new = self._source.cells_for(self._seqs[first : first + n])
        except Exception as exc:  # a reader error must not break painting
            self._error = str(exc)
            new = []
        later_round = False
        for c in new:
            c.display = self._texts(c)
            later_round = later_round or (c.round is not None and c.round > 1)
        if later_round:
            self._mark_earlier_rounds(new)
        dark = is_dark()
        if dark != self._dark_palette or not self._colours:
            self._dark_palette = dark
            self._colours = kind_colours(dark)
        block = have + new
        self._blocks[b] = block
        self._blocks.move_to_end(b)
        while len(self._blocks) > MAX_BLOCKS:
            self._blocks.popitem(last=False)
        return block

    def set_partner(self, seq: int | None) -> None:
        """Tint the row of ``seq`` (the response of the selected request, or its request)."""
        old, self._partner = self._partner, seq
        colour = QGuiApplication.palette().color(QPalette.ColorRole.Highlight)
        colour.setAlpha(70)
        self._partner_colour = colour
        for s in (old, seq):
            row = None if s is None else self.row_of(s)
            if row is not None:
                self.dataChanged.emit(
                    self.index(row, 0), self.index(row, len(Column) - 1), [Qt.ItemDataRole.BackgroundRole]
                )

    @property
    def partner(self) -> int | None:
        return self._partner

    def set_group(self, seqs: frozenset[int]) -> None:
        """Tint the rows of ``seqs`` lightly: every round of the multi-round request of the selected row (empty:
        none). Only the rows of the old and the new group are repainted."""
        old, self._group = self._group, seqs
        colour = QGuiApplication.palette().color(QPalette.ColorRole.Highlight)
        colour.setAlpha(30)
        self._group_colour = colour
        for s in old ^ seqs:
            row = self.row_of(s)
            if row is not None:
                self.dataChanged.emit(
                    self.index(row, 0), self.index(row, len(Column) - 1), [Qt.ItemDataRole.BackgroundRole]
                )

    @property
    def group(self) -> frozenset[int]:
        return self._group

    def _background(self, seq: int) -> QColor | None:
        if seq == self._partner:
            return self._partner_colour
        return self._group_colour if seq in self._group else None

    # ------------------------------------------------------------------ Qt model API

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(Column):
            return None
        title, tip = _HEADERS[Column(section)]
        if role == Qt.ItemDataRole.DisplayRole:
            return title
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip
        return None

    def _row_cells(self, row: int) -> Cells | None:
        """``cells(row)``, keeping the last row asked for: a paint or the view asks for a whole row at a time."""
        if row == self._last_row:
            return self._last_cells
        c = self.cells(row)
        if c is not None:
            self._last_row, self._last_cells = row, c
        return c

    def paint_cell(self, row: int, col: int) -> tuple[str, QColor | None, QFont | None, int, QColor | None] | None:
        """What the log's delegate draws for a cell, in one call: (text, foreground, font, alignment flags,
        background); the same values ``data()`` gives for those roles. None for a cell that is not there."""
        c = self._row_cells(row)
        if c is None or not 0 <= col < len(c.display):
            return None
        return (
            c.display[col],
            self._colours.get(c.kind) if col in _COLOURED_COLUMNS else None,
            self._mono if col in _MONO_COLUMNS else None,
            _ALIGNMENT_FLAGS[col],
            self._background(c.seq),
        )

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every role of every painted cell: plain int comparisons, precomputed texts.
        if role not in _HANDLED:
            return None
        c = self._row_cells(index.row())
        if c is None:
            return None
        col = index.column()
        if role == _DISPLAY:
            return c.display[col] if 0 <= col < len(c.display) else None
        if role == _FOREGROUND:
            return self._colours.get(c.kind) if col in _COLOURED_COLUMNS else None
        if role == _ALIGN:
            return _ALIGNMENTS[col] if 0 <= col < len(_ALIGNMENTS) else None
        if role == _BACKGROUND:
            return self._background(c.seq)
        if role == _FONT:
            return self._mono if col in _MONO_COLUMNS else None
        if role == _TOOLTIP:
            if col == Column.SIZE:
                return f"{c.size:,} bytes"
            if col == Column.DIAGNOSTICS and c.diag_count:
                return f"{c.diag_count} diagnostic{'s' if c.diag_count != 1 else ''} (worst: {c.severity})"
            return _tooltip(c)
        if role == _SEQ:
            return c.seq
        if role == _SEVERITY:
            return c.severity
        return c.kind  # KindRole

    def _mark_earlier_rounds(self, new: list[Cells]) -> None:
        """A later round of a multi-round-trip request was just read: the rows of its earlier rounds, read
        before it was recorded, get their round too (only in blocks already read; others read it themselves)."""
        assert self._source is not None
        marks: dict[int, int] = {}
        for c in new:
            if c.round is not None and c.round > 1:
                try:
                    marks.update(self._source.round_rows(c.seq))
                except Exception:  # a reader error must not break painting
                    return
        for block in self._blocks.values():
            for cached in block:
                number = marks.get(cached.seq)
                if number is not None and cached.round != number:
                    cached.round = number
                    cached.display = self._texts(cached)
                    row = self.row_of(cached.seq)
                    if row is not None:
                        index = self.index(row, Column.METHOD)
                        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole])

    @staticmethod
    def _texts(c: Cells) -> tuple[str, ...]:
        """The column texts of a row, in Column order."""
        label = _KIND_LABEL.get(c.kind, c.kind)
        return (
            c.time_text,
            "→" if c.direction == "out" else "←",
            f"{label} ⚑" if c.forced else label,
            (c.method or "") if c.round is None else f"{c.method or ''} · round {c.round}",
            c.id_text,
            "" if c.latency is None else human_duration(c.latency),
            format_size(c.size),
            str(c.diag_count) if c.diag_count else "",
            c.summary,
        )
