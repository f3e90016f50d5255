"""Traffic recordings: every frame and transport event of one session, in one SQLite file.

Writing never waits for the disk: ``record_message`` / ``record_transport`` append a tuple to an
in-memory list (the frame's bytes are referenced, not copied); the list is handed to a writer thread
(:mod:`inspector.store.recording.writer`), which commits it in one transaction, when it holds
``flush_rows`` rows or ``flush_bytes`` bytes, when a record call finds that ``flush_interval``
seconds passed since the last hand-off, or on ``flush()`` / ``close()``. ``flush()`` waits until
everything is committed (``flush(wait=False)`` only hands off); ``pending`` counts the rows not
committed yet and ``committed_seq`` is the last one that is. Reads through a writable recording
wait for the writer first, so they always see everything recorded; other connections (the log
view's) see what is committed.

Reading is plain Python for the CLI and the GUI log: ``count``, ``rows`` (offset paging),
``rows_after`` (keyset paging, for tailing), ``get``, ``search``, ``find_response`` /
``find_request``, ``exchanges_for``, ``logical_request`` / ``logical_request_for_id`` / ``round_of``,
``methods`` and ``export_jsonl``, all taking an optional ``RecordFilter``.

HTTP exchanges (``HttpExchange`` events) are rows of kind ``"http"`` holding a JSON summary, linked to
the JSON-RPC ids they carried; the first one upgrades the file to schema version 2.

Multi-round-trip requests (2026-07-28): a request answered ``resultType: "input_required"`` is retried under
a new id, so one logical request is several JSON-RPC requests. ``record_message`` stores, for each later
round's request (``WireMessage.origin`` set, ``round`` 2, 3, ...), the id of the first round and the round's
number, in the batch that holds the request itself; the first one upgrades the file to schema version 3.
Reading them back, for any row of such a request (any round's request, or the response to any round):

* ``logical_request(seq)`` -> ``LogicalRequest``: the origin id, the method and the ``RequestRound`` s in
  order (round number, request seq and id, response seq when recorded); ``final_response_seq`` is the last
  round's answer. A request answered in one round is a ``LogicalRequest`` of one round; rows that are not a
  request or a response, and responses whose request is not recorded, give ``None``.
* ``logical_request_for_id(request_id)``: the same from a JSON-RPC id of any round (the latest "out" request
  with that id).
* ``round_of(seq)`` -> the round number (1, 2, ...) when the row belongs to a multi-round request, else
  ``None`` (also for requests answered in one round and for every row of a version 1 or 2 file).

The file format (tables, indexes, ``meta`` keys) and the design of the indexes and of text search
(which terms use the full-text index, which use ``LIKE``) are described in
:mod:`inspector.store.recording.schema`; the read queries are in :mod:`inspector.store.recording.query`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Final, Self

from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage
from inspector.store.paths import UnwritableDirectory, ensure_directory, recordings_dir
from inspector.store.recording.query import (
    LogicalRequest,
    RecordFilter,
    RecordQuery,
    RecordRow,
    RequestRound,
)
from inspector.store.recording.schema import (
    BASE_VERSION,
    FTS_MAX_BYTES,
    HTTP_VERSION,
    ROUNDS_VERSION,
    SCHEMA_VERSION,
    Row,
    encode_id,
    fts5_available,
    initialise,
    table_names,
)
from inspector.store.recording.writer import Batch, BatchWriter, Checkpointer, configure_fts_merging
from inspector.transports.base import (
    HttpExchange,
    SendFailed,
    SessionExpired,
    StderrLine,
    TransportClosed,
    TransportEvent,
    TransportNote,
)

__all__ = [
    "FTS_MAX_BYTES",
    "MEMORY_ONLY",
    "SCHEMA_VERSION",
    "LogicalRequest",
    "RecordFilter",
    "RecordRow",
    "Recording",
    "RecordingError",
    "Redactor",
    "RequestRound",
    "fts5_available",
]

Redactor = Callable[[bytes], bytes]

_FLUSH_ROWS: Final = 500
_FLUSH_INTERVAL: Final = 0.2
_FLUSH_BYTES: Final = 16 << 20
_BACKLOG_ROWS: Final = 20_000
MEMORY_ONLY: Final = "recording kept in memory only"


def _storable(text: str) -> str:
    """``text`` as SQLite can store it: a lone surrogate (a server may send ``"\\ud800"``, valid JSON) becomes
    the six characters ``\\ud800`` (inside a JSON string, the same escape it came as), else it would fail
    every write of the recording."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class RecordingError(Exception):
    """The recording file cannot be opened, is not a recording, or could not be written."""


def _sanitise_label(label: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-._")[:40].strip("-._")
    return cleaned or "session"


class Recording:
    """One session's traffic in one SQLite file. Not thread-safe: use it from one thread (it writes
    through a thread of its own)."""

    def __init__(
        self,
        path: Path | str,
        *,
        readonly: bool = False,
        redact: Redactor | None = None,
        use_fts: bool | None = None,
        label: str | None = None,
        target: str | None = None,
        flush_rows: int = _FLUSH_ROWS,
        flush_interval: float = _FLUSH_INTERVAL,
        flush_bytes: int = _FLUSH_BYTES,
        backlog_rows: int = _BACKLOG_ROWS,
    ) -> None:
        """Open (and, when writable and empty, initialise) the recording at ``path``.

        ``redact`` maps a payload's bytes to what may be stored (masking Authorization headers,
        tokens...); it sees every payload, stderr line and transport note, and the diagnostics
        JSON. ``size`` keeps the length on the wire. ``use_fts=False`` makes text search use
        ``LIKE`` even when FTS5 is there (and, for a new file, leaves the full-text index out);
        ``None`` uses FTS5 when available. Record calls never fail because of the disk: rows that could
        not be written stay queued and are retried; ``write_error`` says why, and ``flush()`` and reads
        raise ``RecordingError`` while it lasts. ``backlog_rows`` is how far the writer may fall behind
        before ``backlogged`` asks producers that can wait (a transport reading a flooding server) to.
        """
        self._path = Path(path)
        self._readonly = readonly
        self._redact = redact
        self._flush_rows = max(1, flush_rows)
        self._flush_interval = flush_interval
        self._flush_bytes = flush_bytes
        self._backlog_rows = max(1, backlog_rows)
        self._buffer: list[Row] = []
        self._links: list[tuple[int, str, str]] = []
        """(http row seq, id text, id type) for the buffered HTTP rows."""
        self._rounds: list[tuple[int, str, str, int]] = []
        """(request row seq, origin id text, origin id type, round) for the buffered later-round requests."""
        self._meta_updates: dict[str, str] = {}
        """``meta`` keys to write with the next batch."""
        self._http_pending = False
        self._upgrade_sent = 0
        """The highest schema version a batch handed to the writer upgrades the file to (0: none)."""
        self._version = BASE_VERSION
        self._buffer_bytes = 0
        self._last_flush = time.monotonic()
        self._closed = False
        self._checkpointer: Checkpointer | None = None
        self._writer: BatchWriter | None = None
        self.storage_note: str | None = None
        """Why this session's recording is not a file (set by :meth:`create_or_memory`), else None."""
        try:
            if readonly:
                if not self._path.is_file():
                    raise RecordingError(f"no recording at {self._path}")
                uri = self._path.resolve().as_uri() + "?mode=ro"
                self._conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                self._conn = sqlite3.connect(self._path, isolation_level=None)
        except sqlite3.Error as exc:
            raise RecordingError(f"cannot open {self._path}: {exc}") from exc
        try:
            self._setup(use_fts, label, target)
        except BaseException:
            self._stop_threads()
            self._conn.close()
            self._closed = True
            raise

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        directory: Path | None = None,
        *,
        label: str = "session",
        target: str | None = None,
        redact: Redactor | None = None,
        use_fts: bool | None = None,
        flush_rows: int = _FLUSH_ROWS,
        flush_interval: float = _FLUSH_INTERVAL,
        backlog_rows: int = _BACKLOG_ROWS,
    ) -> Recording:
        """A new recording ``<dir>/<UTC time>-<label>-<random>.sqlite3`` (dir: ``recordings_dir()``).

        ``RecordingError`` when the directory cannot be created or written (its text names the directory
        and the system's reason); :meth:`create_or_memory` falls back to an in-memory recording instead.
        """
        folder = directory if directory is not None else recordings_dir()
        try:
            ensure_directory(folder)
        except UnwritableDirectory as exc:
            raise RecordingError(str(exc)) from exc
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = _sanitise_label(label)
        for _ in range(10):
            path = folder / f"{stamp}-{name}-{secrets.token_hex(3)}.sqlite3"
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                continue
            except OSError as exc:
                raise RecordingError(str(UnwritableDirectory(folder, exc))) from exc
            return cls(
                path,
                redact=redact,
                use_fts=use_fts,
                label=label,
                target=target,
                flush_rows=flush_rows,
                flush_interval=flush_interval,
                backlog_rows=backlog_rows,
            )
        raise RecordingError(f"could not find a free file name in {folder}")

    @classmethod
    def create_or_memory(
        cls,
        directory: Path | None = None,
        *,
        label: str = "session",
        target: str | None = None,
        redact: Redactor | None = None,
    ) -> Recording:
        """:meth:`create`, or, when the file cannot be made, a recording in memory whose :attr:`storage_note`
        says so and why (``recording kept in memory only: cannot write /x/y: Permission denied``)."""
        try:
            return cls.create(directory, label=label, target=target, redact=redact)
        except RecordingError as exc:
            return cls.in_memory(f"{MEMORY_ONLY}: {exc}", label=label, target=target, redact=redact)

    @classmethod
    def in_memory(
        cls, note: str, *, label: str = "session", target: str | None = None, redact: Redactor | None = None
    ) -> Recording:
        """A recording that lives in this process only (gone when closed); ``note`` becomes :attr:`storage_note`."""
        recording = cls(":memory:", label=label, target=target, redact=redact)
        recording.storage_note = note
        return recording

    @classmethod
    def open(cls, path: Path | str, readonly: bool = True, *, use_fts: bool | None = None) -> Recording:
        """An existing recording, read-only by default (for review, export, the CLI)."""
        return cls(path, readonly=readonly, use_fts=use_fts)

    def _setup(self, use_fts: bool | None, label: str | None, target: str | None) -> None:
        conn = self._conn
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = table_names(conn)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{self._path} is not a recording: {exc}") from exc
        if version == 0 and not tables:
            if self._readonly:
                raise RecordingError(f"{self._path} is empty, not a recording")
            initialise(conn, use_fts is not False and fts5_available(), label, target)
            tables = table_names(conn)
        elif version > SCHEMA_VERSION:
            raise RecordingError(f"{self._path} was written by a newer version (schema {version})")
        elif version < BASE_VERSION or "messages" not in tables or "counts" not in tables:
            raise RecordingError(f"{self._path} is not a recording")
        self._version = max(BASE_VERSION, version)
        has_fts = "messages_fts" in tables
        if has_fts and not self._readonly and not fts5_available():
            raise RecordingError(f"{self._path} has a full-text index but this SQLite lacks FTS5; open it read-only")
        self._fts_write = has_fts and not self._readonly
        self._fts_search = has_fts and use_fts is not False and fts5_available()
        self._query = RecordQuery(
            conn, fts=self._fts_search, links="http_links" in tables, rounds="request_rounds" in tables
        )
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -16000")
        self._next_seq = self._query.last_seq() + 1
        if not self._readonly:
            conn.execute("PRAGMA journal_mode = WAL")
            # Rows are written by a thread with its own connection (see recording_writer); this one reads.
            if self._fts_write:
                configure_fts_merging(conn)
            try:
                if str(self._path) == ":memory:":  # only this connection sees it: write in the caller's thread
                    self._writer = BatchWriter(fts=self._fts_write, committed_seq=self._next_seq - 1, conn=conn)
                else:
                    self._checkpointer = Checkpointer(self._path)
                    self._writer = BatchWriter(
                        fts=self._fts_write,
                        committed_seq=self._next_seq - 1,
                        path=self._path,
                        checkpointer=self._checkpointer,
                    )
            except sqlite3.Error as exc:
                raise RecordingError(f"cannot open {self._path}: {exc}") from exc
            for thread in (self._writer, self._checkpointer):
                if thread is not None:
                    weakref.finalize(self, thread.cancel)
        # seq is 1..N without gaps, so unfiltered paging can seek instead of skipping rows.
        self._dense = self._query.summary_count(RecordFilter()) == self._next_seq - 1

    # -- properties -------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def readonly(self) -> bool:
        return self._readonly

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def fts(self) -> bool:
        """Whether text search uses the FTS5 index (else ``LIKE``)."""
        return self._fts_search

    @property
    def last_seq(self) -> int:
        """The seq of the most recent row, flushed or not (0 when empty; read-only: as of the last read)."""
        return self._next_seq - 1

    @property
    def pending(self) -> int:
        """Rows recorded but not committed yet (buffered here or being written)."""
        return self.last_seq - self.committed_seq

    @property
    def backlogged(self) -> bool:
        """The writer is far behind (``pending`` >= ``backlog_rows``): a producer that can wait should, until
        ``drained``. That bounds memory and leaves the writer thread the time it needs. Never true while
        writes fail (waiting would not help) or after ``close()``."""
        return self._waitable_backlog() >= self._backlog_rows

    @property
    def drained(self) -> bool:
        """A waiting producer may go on: ``pending`` is under half of ``backlog_rows`` (or waiting cannot help)."""
        return self._waitable_backlog() * 2 < self._backlog_rows

    def _waitable_backlog(self) -> int:
        """Rows the writer has still to commit; 0 when waiting for it cannot help (none, failing, closed)."""
        writer = self._writer
        if writer is None or writer.error is not None or self._closed:
            return 0
        return self.last_seq - writer.committed_seq

    @property
    def buffered(self) -> int:
        """Rows recorded but not handed to the writer yet."""
        return len(self._buffer)

    @property
    def committed_seq(self) -> int:
        """The seq of the last row on disk (read-only: ``last_seq``)."""
        return self.last_seq if self._writer is None else self._writer.committed_seq

    @property
    def write_error(self) -> str | None:
        """Why rows could not be written (they stay queued and are retried), or None."""
        return None if self._writer is None else self._writer.error

    def meta(self) -> dict[str, str]:
        """The ``meta`` table: schema_version, created_wall, label, target, fts..."""
        self._sync()
        return dict(self._conn.execute("SELECT key, value FROM meta").fetchall())

    def set_target(self, description: str) -> None:
        """Record what this session is connected to (command line, URL)."""
        self._check_writable()
        self._meta_updates["target"] = description
        self._hand_off()

    # -- writing ----------------------------------------------------------------------------

    def record_message(self, msg: WireMessage) -> None:
        """Store one frame as it crossed the wire, with its classification and diagnostics."""
        diagnostics = msg.diagnostics
        # ``_value_`` is the plain attribute behind ``.value`` (a descriptor): this is the hot path.
        method = msg.method
        if msg.origin is not None:
            self._record_round(msg.origin, msg.round)
        self._append(
            msg.direction._value_,
            msg.kind._value_,
            method if method is None or method.isascii() else _storable(method),
            msg.id,
            msg.raw,
            self._diagnostics_json(diagnostics) if diagnostics else None,
            len(diagnostics),
            1 if msg.forced else 0,
            msg.latency,
        )

    def _record_round(self, origin: object, round_: int) -> None:
        """Note that the message about to be appended is round ``round_`` of the request first sent as ``origin``."""
        if self._readonly or self._closed:
            self._check_writable()
        text, id_type = encode_id(origin)
        if text is None or id_type is None:
            return
        if not text.isascii():
            text = _storable(text)
        self._rounds.append((self._next_seq, text, id_type, int(round_)))

    def record_transport(self, event: TransportEvent) -> None:
        """Store a stderr line, a transport note / closure / failure, or an HTTP exchange; raw data events are
        ignored (the frames they carry are recorded as messages)."""
        if isinstance(event, HttpExchange):
            self._record_http(event)
            return
        if isinstance(event, StderrLine):
            kind, text = Kind.STDERR.value, event.line
        elif isinstance(event, TransportNote):
            kind, text = Kind.TRANSPORT.value, event.message
        elif isinstance(event, TransportClosed | SessionExpired | SendFailed):
            kind, text = Kind.TRANSPORT.value, event.describe()
        else:
            return
        raw = text.encode("utf-8", "backslashreplace")
        self._append(Direction.IN.value, kind, None, None, raw, None, 0, 0, None)

    def _record_http(self, event: HttpExchange) -> None:
        raw = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")
        if self._readonly or self._closed:
            self._check_writable()
        seq = self._next_seq
        for rid in event.carried_ids:
            text, id_type = encode_id(rid)
            if text is not None and id_type is not None:
                self._links.append((seq, text, id_type))
        self._http_pending = True
        self._append(Direction.OUT.value, Kind.HTTP.value, None, None, raw, None, 0, 0, None)

    def _append(
        self,
        direction: str,
        kind: str,
        method: str | None,
        msg_id: object,
        raw: bytes,
        diagnostics: str | None,
        diag_count: int,
        forced: int,
        latency: float | None,
    ) -> None:
        if self._readonly or self._closed:
            self._check_writable()
        mono = time.monotonic()
        size = len(raw)
        if self._redact is not None:
            raw = self._redact(raw)
        id_text, id_type = encode_id(msg_id)
        if id_text is not None and not id_text.isascii():
            id_text = _storable(id_text)
        seq = self._next_seq
        self._next_seq = seq + 1
        buffer = self._buffer
        buffer.append(
            (seq, mono, time.time(), direction, kind, method, id_text, id_type, size, raw, diagnostics, diag_count,
             forced, latency)
        )  # fmt: skip
        self._buffer_bytes += len(raw)
        if (
            len(buffer) >= self._flush_rows
            or self._buffer_bytes >= self._flush_bytes
            or mono - self._last_flush >= self._flush_interval
        ):
            self._hand_off()

    def _diagnostics_json(self, diagnostics: Iterable[Diagnostic]) -> str:
        text = _storable(json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False))
        if self._redact is not None:
            text = self._redact(text.encode("utf-8")).decode("utf-8", "replace")
        return text

    def flush(self, wait: bool = True) -> None:
        """Hand the buffered rows to the writer and, with ``wait``, return once everything recorded is
        committed. Raises ``RecordingError`` while writes fail (the rows stay queued and are retried)."""
        if self._closed:
            return
        self._hand_off()
        writer = self._writer
        if writer is None:
            return
        if wait and not writer.wait():
            raise RecordingError(f"could not write to {self._path}: {writer.error or 'the writer stopped'}")
        if writer.error is not None:
            raise RecordingError(f"could not write to {self._path}: {writer.error}")
        if self._upgrade_sent > self._version and writer.committed_seq == self.last_seq:
            self._version = self._upgrade_sent
            self._query.links = True
            self._query.rounds = self._version >= ROUNDS_VERSION

    def _hand_off(self) -> None:
        self._last_flush = time.monotonic()
        if self._writer is None or not (self._buffer or self._meta_updates):
            return
        needed = ROUNDS_VERSION if self._rounds else HTTP_VERSION if self._http_pending else 0
        upgrade = needed if needed > max(self._version, self._upgrade_sent) else 0
        batch = Batch(self._buffer, self._links, self._meta_updates, upgrade, self._rounds)
        self._buffer, self._links, self._meta_updates, self._rounds = [], [], {}, []
        self._buffer_bytes = 0
        self._http_pending = False
        self._upgrade_sent = max(self._upgrade_sent, upgrade)
        self._writer.submit(batch)

    def close(self) -> None:
        """Write everything and close; a finished recording is left as one self-contained file. Idempotent.

        Raises ``RecordingError`` when the last rows could not be written (the recording is closed anyway).
        """
        if self._closed:
            return
        try:
            if not self._readonly:
                try:
                    self.flush()
                finally:
                    self._stop_threads()
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA journal_mode = DELETE")
        finally:
            self._closed = True
            self._conn.close()

    def _stop_threads(self) -> None:
        if self._writer is not None:
            self._writer.stop()
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _check_writable(self) -> None:
        if self._closed:
            raise RecordingError("the recording is closed")
        if self._readonly:
            raise RecordingError("the recording is open read-only")

    # -- reading ----------------------------------------------------------------------------

    def _sync(self) -> None:
        if self._closed:
            raise RecordingError("the recording is closed")
        if self._writer is not None:
            self.flush()
        elif self._readonly:
            # Another process may still be recording into this file (and may have upgraded it).
            self._next_seq = self._query.last_seq() + 1
            if not (self._query.links and self._query.rounds):
                tables = table_names(self._conn)
                self._query.links = "http_links" in tables
                self._query.rounds = "request_rounds" in tables

    def count(self, filter: RecordFilter | None = None) -> int:
        """How many rows match (instant for filters without text)."""
        self._sync()
        return self._query.count(filter or RecordFilter())

    def rows(
        self, filter: RecordFilter | None = None, offset: int = 0, limit: int = 100, *, raw_limit: int | None = None
    ) -> list[RecordRow]:
        """Rows ``offset .. offset+limit`` of the filtered log, in seq order.

        ``raw_limit`` cuts each payload to that many bytes (for list views; see ``raw_truncated``).
        """
        self._sync()
        return self._query.rows(
            filter or RecordFilter(), offset, limit, raw_limit, dense=self._dense, total=self.last_seq
        )

    def rows_after(
        self, after_seq: int, filter: RecordFilter | None = None, limit: int = 100, *, raw_limit: int | None = None
    ) -> list[RecordRow]:
        """Up to ``limit`` matching rows with ``seq > after_seq`` (keyset paging; tailing a live log)."""
        self._sync()
        return self._query.rows_after(after_seq, filter or RecordFilter(), limit, raw_limit, total=self.last_seq)

    def get(self, seq: int) -> RecordRow | None:
        """One row with its whole payload."""
        self._sync()
        return self._query.get(seq)

    def search(self, text: str, limit: int = 1000) -> list[int]:
        """Seqs of the first ``limit`` rows whose payload matches ``text``."""
        self._sync()
        return self._query.search(text, limit)

    def find_response(self, seq: int) -> int | None:
        """For a request row: the seq of its response (same id, opposite direction), if recorded."""
        self._sync()
        return self._query.find_response(seq)

    def find_request(self, seq: int) -> int | None:
        """For a response / error row: the seq of the request it answers, if recorded."""
        self._sync()
        return self._query.find_request(seq)

    def exchanges_for(self, seq: int) -> list[int]:
        """For a message row: the seqs of the HTTP exchanges that carried it (or its request / response)."""
        self._sync()
        return self._query.exchanges_for(seq)

    def logical_request(self, seq: int) -> LogicalRequest | None:
        """For a request row or a response / error row: the logical request it belongs to, with every round of
        a multi-round-trip request in order and each round's response (one round for any other request).
        ``None`` for rows that are neither, and for a response whose request is not recorded."""
        self._sync()
        return self._query.logical_request(seq)

    def logical_request_for_id(self, request_id: RequestId) -> LogicalRequest | None:
        """:meth:`logical_request` of the latest "out" request with this JSON-RPC id (the id of any round)."""
        self._sync()
        return self._query.logical_request_for_id(request_id)

    def round_of(self, seq: int) -> int | None:
        """For a request or response row of a multi-round-trip request: its round (1 for the first request and
        its ``input_required`` answer, 2, 3, ... for the retries and theirs); ``None`` for everything else."""
        self._sync()
        return self._query.round_of(seq)

    def methods(self, filter: RecordFilter | None = None) -> list[str]:
        """The distinct methods among rows matching the filter's kinds/directions (text ignored)."""
        self._sync()
        return self._query.methods(filter or RecordFilter())

    def export_jsonl(self, path: Path | str, filter: RecordFilter | None = None) -> int:
        """Write one JSON object per matching row; return how many.

        ``message`` is the parsed payload when it is JSON, else the payload text.
        """
        self._sync()
        return self._query.export_jsonl(path, filter or RecordFilter(), total=self.last_seq)
