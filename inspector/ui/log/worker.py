"""Slow recording reads off the GUI thread: filtered seq lists, whole payloads, JSON-lines export.

One daemon thread per log panel owns its own read-only connections to the recording's file
(SQLite releases the GIL while it works, so a full-text query over a million rows or reading a
50 MB payload does not stall the window). Results come back as queued Qt signals tagged with the
token of the request; a newer request makes older ones stale and they are dropped (or abandoned
between chunks). When the recording has no file of its own, the same jobs run on the GUI thread
on the next turn of the event loop, so callers see the same asynchronous behaviour.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.store.recording import RecordFilter, Recording, RecordingError
from inspector.store.recording.rows import PublicRowSource, RowSource, SourceUnavailable, SqlRowSource

__all__ = ["RecordingWorker", "SeqBatch"]

_SEQ_CHUNK: Final = 100_000
_TEXT_LIMIT: Final = 1 << 62


@dataclass(slots=True)
class SeqBatch:
    """Part of the answer to ``find_seqs``: matching seqs, and whether this is the last part."""

    token: int
    seqs: array[int]
    final: bool
    upto: int
    """The answer covers every row with ``seq <= upto``."""
    error: str | None = None


@dataclass(slots=True)
class _SeqJob:
    token: int
    filter: RecordFilter
    after: int


@dataclass(slots=True)
class _RowJob:
    token: int
    seq: int


@dataclass(slots=True)
class _ExportJob:
    token: int
    path: Path
    filter: RecordFilter | None


_Job = _SeqJob | _RowJob | _ExportJob


class _Readers:
    """The connections one thread reads through."""

    def __init__(self, source: RowSource, recording: Recording, owned: bool) -> None:
        self.source = source
        self.recording = recording
        self._owned = owned

    def close(self) -> None:
        self.source.close()
        if self._owned:
            self.recording.close()


class RecordingWorker(QObject):
    """Runs reads for one recording; see the module docstring."""

    seqsFound = Signal(object)
    """SeqBatch"""
    rowLoaded = Signal(int, object)
    """token, RecordRow | None (gone) | str (error message)"""
    exported = Signal(int, object)
    """token, int (rows written) | str (error message)"""

    def __init__(self, recording: Recording, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._recording = recording
        self._tokens = itertools.count(1)
        self._latest_seq_token = 0
        self._latest_row_token = 0
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._inline: _Readers | None = None
        self._closed = False
        path = recording.path
        if path.is_file():
            self._thread = threading.Thread(target=self._run, args=(path,), name="log-reader", daemon=True)
            self._thread.start()
            jobs = self._queue
            self.destroyed.connect(lambda: jobs.put(None))

    @property
    def threaded(self) -> bool:
        return self._thread is not None

    # ------------------------------------------------------------------ requests (GUI thread)

    def find_seqs(self, f: RecordFilter, after: int = 0) -> int:
        """Seqs > ``after`` matching ``f``, delivered in batches through ``seqsFound``."""
        token = next(self._tokens)
        self._latest_seq_token = token
        self._submit(_SeqJob(token, f, after))
        return token

    def load_row(self, seq: int) -> int:
        """The whole row ``seq`` (payload included), delivered through ``rowLoaded``."""
        token = next(self._tokens)
        self._latest_row_token = token
        self._submit(_RowJob(token, seq))
        return token

    def export_jsonl(self, path: Path, f: RecordFilter | None = None) -> int:
        """Write the (filtered) recording as JSON lines; the count arrives through ``exported``."""
        token = next(self._tokens)
        self._submit(_ExportJob(token, path, f))
        return token

    def cancel_seqs(self) -> None:
        self._latest_seq_token = next(self._tokens)

    def close(self) -> None:
        """Stop the thread (it finishes the job in hand first; its results are dropped)."""
        if self._closed:
            return
        self._closed = True
        self._latest_seq_token = self._latest_row_token = -1
        if self._thread is not None:
            self._queue.put(None)
        if self._inline is not None:
            self._inline.close()
            self._inline = None

    def _submit(self, job: _Job) -> None:
        if self._closed:
            return
        if self._thread is not None:
            self._queue.put(job)
        else:
            QTimer.singleShot(0, self, lambda: self._run_inline(job))

    # ------------------------------------------------------------------ execution

    def _run_inline(self, job: _Job) -> None:
        if self._closed or self._recording.closed:
            return
        if self._inline is None:
            self._inline = _Readers(PublicRowSource(self._recording), self._recording, owned=False)
        self._execute(self._inline, job)

    def _run(self, path: Path) -> None:
        readers: _Readers | None = None
        try:
            while (job := self._queue.get()) is not None:
                if readers is None:
                    try:
                        readers = _Readers(SqlRowSource(path), Recording.open(path), owned=True)
                    except (SourceUnavailable, RecordingError) as exc:
                        self._fail(job, str(exc))
                        continue
                self._execute(readers, job)
        finally:
            if readers is not None:
                with contextlib.suppress(Exception):
                    readers.close()

    def _emit(self, name: str, *args: object) -> bool:
        try:
            getattr(self, name).emit(*args)
        except RuntimeError:  # this object is gone (its panel was deleted): stop quietly
            self._closed = True
            return False
        return True

    def _fail(self, job: _Job, message: str) -> None:
        if isinstance(job, _SeqJob):
            self._emit("seqsFound", SeqBatch(job.token, array("q"), True, job.after, message))
        elif isinstance(job, _RowJob):
            self._emit("rowLoaded", job.token, message)
        else:
            self._emit("exported", job.token, message)

    def _execute(self, readers: _Readers, job: _Job) -> None:
        try:
            if isinstance(job, _SeqJob):
                self._find(readers, job)
            elif isinstance(job, _RowJob):
                if job.token == self._latest_row_token:
                    try:
                        row = readers.source.record(job.seq)
                    except ValueError:  # a kind this version does not know: the API copes
                        row = readers.recording.get(job.seq)
                    self._emit("rowLoaded", job.token, row)
            else:
                written = readers.recording.export_jsonl(job.path, job.filter)
                self._emit("exported", job.token, written)
        except (RecordingError, OSError, ValueError) as exc:
            self._fail(job, str(exc))
        except Exception as exc:  # sqlite3.Error and friends: report, never kill the thread
            self._fail(job, f"{type(exc).__name__}: {exc}")

    def _find(self, readers: _Readers, job: _SeqJob) -> None:
        if job.token != self._latest_seq_token:
            return
        source = readers.source
        upto = source.max_seq()
        f = job.filter
        if not f.has_text():
            for chunk in source.seq_chunks(f, job.after, upto, _SEQ_CHUNK):
                if job.token != self._latest_seq_token:
                    return
                if not self._emit("seqsFound", SeqBatch(job.token, chunk, False, upto)):
                    return
        elif job.after == 0:
            found = [s for s in readers.recording.search(f.text or "", _TEXT_LIMIT) if s <= upto]
            if job.token != self._latest_seq_token:
                return
            matched = source.restrict(f, found)
            for i in range(0, len(matched), _SEQ_CHUNK):
                if not self._emit("seqsFound", SeqBatch(job.token, matched[i : i + _SEQ_CHUNK], False, upto)):
                    return
        else:
            last = job.after
            while True:
                rows = readers.recording.rows_after(last, f, 5000, raw_limit=0)
                chunk = array("q", [r.seq for r in rows if r.seq <= upto])
                if job.token != self._latest_seq_token:
                    return
                if chunk:
                    last = chunk[-1]
                    self._emit("seqsFound", SeqBatch(job.token, chunk, False, upto))
                if len(rows) < 5000 or len(chunk) < len(rows):
                    break
        self._emit("seqsFound", SeqBatch(job.token, array("q"), True, upto))
