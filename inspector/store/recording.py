"""Traffic recordings: every frame and transport event of one session, in one SQLite file.

Writing is cheap and buffered: ``record_message`` / ``record_transport`` append a tuple to an
in-memory list (the frame's bytes are referenced, not copied); the list goes to disk in one
transaction when it holds ``flush_rows`` rows or ``flush_bytes`` bytes, when a record call finds
that ``flush_interval`` seconds passed since the last flush, or when ``flush()`` / ``close()`` is
called. Reads on a writable recording flush first, so they always see everything recorded.

Reading is plain Python for the CLI and the GUI log: ``count``, ``rows`` (offset paging),
``rows_after`` (keyset paging, for tailing), ``get``, ``search``, ``find_response`` /
``find_request``, ``methods`` and ``export_jsonl``, all taking an optional ``RecordFilter``.

Schema (version 1, also in ``PRAGMA user_version``)::

    meta(key TEXT PRIMARY KEY, value TEXT)            -- WITHOUT ROWID
        schema_version, app_version, created_wall (time.time()), created_mono (time.monotonic()),
        label, target (what we connected to), fts ("fts5" | "none"), fts_max_bytes

    messages(
        seq         INTEGER PRIMARY KEY,  -- 1, 2, 3 ... in record order, never reused, no gaps
        mono        REAL NOT NULL,        -- time.monotonic() at record time (durations, latencies)
        wall        REAL NOT NULL,        -- time.time() at record time (display)
        direction   TEXT NOT NULL,        -- "out" client->server, "in" server->client and transport events
        kind        TEXT NOT NULL,        -- inspector.protocol.wire.Kind value
        method      TEXT,                 -- for responses: the method of the request they answer, when known
        msg_id      TEXT,                 -- JSON-RPC id as text ...
        id_type     TEXT,                 -- ... and its type: "int" | "str" ("json" for anything else)
        size        INTEGER NOT NULL,     -- bytes on the wire (before redaction)
        raw         BLOB NOT NULL,        -- the frame's bytes exactly (after redaction); event text for
                                          -- stderr/transport rows
        diagnostics TEXT,                 -- JSON array of Diagnostic.to_json(), NULL when none
        diag_count  INTEGER NOT NULL,
        forced      INTEGER NOT NULL,     -- 1: sent although the capability was not declared
        latency     REAL                  -- seconds from the request to this response
    )
    INDEX messages_kind_method ON messages(kind, method)
    INDEX messages_msg_id      ON messages(msg_id, direction) WHERE msg_id IS NOT NULL
    INDEX messages_diag        ON messages(diag_count)        WHERE diag_count > 0
    INDEX messages_big         ON messages(seq)               WHERE length(raw) > 1048576

    counts(kind, direction, method, has_diag, n)      -- WITHOUT ROWID, PRIMARY KEY (kind, direction,
                                                      -- method, has_diag); method "" when NULL
    messages_fts USING fts5(body, content='', columnsize=0)   -- only when FTS5 is available

Design notes:

* ``counts`` is a running summary kept in the same transaction as the rows. It answers ``count()``
  for any filter without text instantly at a million rows, lists the methods for a filter menu,
  and tells ``rows()`` whether a filter is selective enough to use an index or whether walking
  the table in ``seq`` order finds a page sooner.
* One index on ``(kind, method)`` serves kind filters and method filters (the kinds a method
  occurs with come from ``counts``). The id index and the diagnostics index are partial, so a
  flood of notifications pays for the table, one index and the full-text index only.
* ``messages_fts`` is contentless (``rowid`` = ``seq``) and indexes the first 1 MiB of each
  payload's text; rows larger than that are also searched by substring through the small
  ``messages_big`` index, so nothing is missed. Search is case-insensitive and matches word
  prefixes: each whitespace-separated term is a phrase whose last word may continue
  (``tools/li`` finds ``"tools/list"``); all terms must match. A term with punctuation must also
  occur as typed (``LIKE``, checked only on the rows the index found). Terms without a letter or
  digit, and every term when FTS5 is missing (or ``use_fts=False``), use ``LIKE`` substring
  matching alone (a scan).
* Ids are stored as text plus their type so that ``1`` and ``"1"`` stay distinct; pairing a
  request with its response uses ``(msg_id, direction)``.
* WAL journal with ``synchronous=NORMAL`` while recording; ``close()`` switches the file back to
  a rollback journal so that a finished recording is one self-contained file.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import secrets
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

from inspector import __version__
from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage
from inspector.store.paths import recordings_dir
from inspector.transports.base import StderrLine, TransportClosed, TransportEvent, TransportNote

__all__ = [
    "FTS_MAX_BYTES",
    "SCHEMA_VERSION",
    "RecordFilter",
    "RecordRow",
    "Recording",
    "RecordingError",
    "Redactor",
    "fts5_available",
]

SCHEMA_VERSION: Final = 1
FTS_MAX_BYTES: Final = 1 << 20
"""How much of each payload the full-text index sees; larger rows are searched by substring."""

Redactor = Callable[[bytes], bytes]

_FLUSH_ROWS: Final = 2000
_FLUSH_INTERVAL: Final = 0.2
_FLUSH_BYTES: Final = 16 << 20
_INDEX_COST: Final = 2
"""Reading and sorting one index entry costs about this many table rows walked in seq order."""
_EXPORT_CHUNK: Final = 500

_RESPONSE_KINDS: Final = (Kind.RESPONSE.value, Kind.ERROR.value, Kind.INVALID.value)
_MESSAGE_KINDS: Final = frozenset(k.value for k in Kind if k not in (Kind.STDERR, Kind.TRANSPORT))

_SCHEMA: Final = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE messages(
    seq INTEGER PRIMARY KEY,
    mono REAL NOT NULL,
    wall REAL NOT NULL,
    direction TEXT NOT NULL,
    kind TEXT NOT NULL,
    method TEXT,
    msg_id TEXT,
    id_type TEXT,
    size INTEGER NOT NULL,
    raw BLOB NOT NULL,
    diagnostics TEXT,
    diag_count INTEGER NOT NULL,
    forced INTEGER NOT NULL,
    latency REAL
);
CREATE INDEX messages_kind_method ON messages(kind, method);
CREATE INDEX messages_msg_id ON messages(msg_id, direction) WHERE msg_id IS NOT NULL;
CREATE INDEX messages_diag ON messages(diag_count) WHERE diag_count > 0;
CREATE INDEX messages_big ON messages(seq) WHERE length(raw) > {FTS_MAX_BYTES};
CREATE TABLE counts(
    kind TEXT NOT NULL,
    direction TEXT NOT NULL,
    method TEXT NOT NULL,
    has_diag INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (kind, direction, method, has_diag)
) WITHOUT ROWID;
"""
_FTS_SCHEMA: Final = "CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='', columnsize=0)"

_INSERT_MESSAGE: Final = "INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_FTS: Final = "INSERT INTO messages_fts(rowid, body) VALUES (?, ?)"
_UPSERT_COUNT: Final = (
    "INSERT INTO counts VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (kind, direction, method, has_diag) DO UPDATE SET n = n + excluded.n"
)
_COLUMNS: Final = (
    "seq, mono, wall, direction, kind, method, msg_id, id_type, size, {raw}, length(raw), diagnostics, diag_count, "
    "forced, latency"
)

# A buffered row, in the column order of ``messages``.
_Row = tuple[
    int, float, float, str, str, str | None, str | None, str | None, int, bytes, str | None, int, int, float | None
]


class RecordingError(Exception):
    """The recording file cannot be opened, is not a recording, or could not be written."""


_fts5_cache: list[bool] = []


def fts5_available() -> bool:
    """Whether this Python's SQLite has the FTS5 module (checked once)."""
    if not _fts5_cache:
        conn = sqlite3.connect(":memory:")
        try:
            conn.execute("CREATE VIRTUAL TABLE probe USING fts5(body)")
        except sqlite3.Error:
            _fts5_cache.append(False)
        else:
            _fts5_cache.append(True)
        finally:
            conn.close()
    return _fts5_cache[0]


@dataclass(slots=True)
class RecordFilter:
    """What to show. ``None`` means no constraint; an empty collection matches nothing."""

    kinds: Collection[str] | None = None
    """Kind values (``Kind`` members work too)."""
    directions: Collection[str] | None = None
    """``"in"`` / ``"out"`` (``Direction`` members work too)."""
    methods: Collection[str] | None = None
    text: str | None = None
    """Full-text search over payloads (see the module docstring for the matching rules)."""
    diagnostics_only: bool = False

    def has_text(self) -> bool:
        return bool(self.text and self.text.strip())

    def is_empty(self) -> bool:
        return (
            self.kinds is None
            and self.directions is None
            and self.methods is None
            and not self.has_text()
            and not self.diagnostics_only
        )


@dataclass(frozen=True, slots=True)
class RecordRow:
    """One stored row. ``raw`` is the payload decoded as UTF-8 (invalid bytes as ``\\xNN``)."""

    seq: int
    mono: float
    wall: float
    direction: Direction
    kind: Kind
    method: str | None
    msg_id: RequestId | None
    """The JSON-RPC id with its original type (``1`` and ``"1"`` differ)."""
    id_type: str | None
    size: int
    """Bytes on the wire."""
    raw: str
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    diag_count: int = 0
    forced: bool = False
    latency: float | None = None
    raw_truncated: bool = False
    """True when ``rows(..., raw_limit=n)`` cut ``raw`` short."""

    @property
    def time(self) -> datetime:
        return datetime.fromtimestamp(self.wall, UTC)


def _texts(values: Collection[str]) -> list[str]:
    """Filter values as stored; a lone string (``kinds="request"``) counts as one value, not letters."""
    items: Iterable[str] = (values,) if isinstance(values, str) else values
    return [str(v.value) if isinstance(v, Enum) else str(v) for v in items]


def _encode_id(value: object) -> tuple[str | None, str | None]:
    if value is None:
        return None, None
    if isinstance(value, str):
        return value, "str"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), "int"
    return json.dumps(value, separators=(",", ":"), default=repr), "json"


def _decode_id(text: str | None, id_type: str | None) -> RequestId | None:
    if text is None:
        return None
    if id_type == "int":
        return int(text)
    if id_type == "json":
        try:
            value = json.loads(text)
        except ValueError:
            return text
        return value if isinstance(value, int | str) else text
    return text


def _decode_raw(raw: bytes | str, truncated: bool) -> str:
    if isinstance(raw, str):
        return raw
    if truncated:
        # Leave out a character cut in half by the limit instead of showing it as escapes.
        return codecs.getincrementaldecoder("utf-8")("backslashreplace").decode(raw, final=False)
    return raw.decode("utf-8", "backslashreplace")


def _fts_body(raw: bytes) -> str:
    # Slicing a short bytes object returns it unchanged; a long one is cut to the indexed prefix.
    return raw[:FTS_MAX_BYTES].decode("utf-8", "ignore")


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


def _sanitise_label(label: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-._")[:40].strip("-._")
    return cleaned or "session"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


_STRICT_JSON: Final = json.JSONDecoder(parse_constant=_reject_constant)
"""Parses payloads for export; NaN and Infinity are not JSON, such a payload is exported as text."""
_EXPORT_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class Recording:
    """One session's traffic in one SQLite file. Not thread-safe: use it from one thread."""

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
    ) -> None:
        """Open (and, when writable and empty, initialise) the recording at ``path``.

        ``redact`` maps a payload's bytes to what may be stored (masking Authorization headers,
        tokens...); it sees every payload, stderr line and transport note, and the diagnostics
        JSON. ``size`` keeps the length on the wire. ``use_fts=False`` makes text search use
        ``LIKE`` even when FTS5 is there (and, for a new file, leaves the full-text index out);
        ``None`` uses FTS5 when available. A flush that fails raises ``RecordingError`` from the
        record call that triggered it; the rows stay buffered and are retried later.
        """
        self._path = Path(path)
        self._readonly = readonly
        self._redact = redact
        self._flush_rows = max(1, flush_rows)
        self._flush_interval = flush_interval
        self._flush_bytes = flush_bytes
        self._buffer: list[_Row] = []
        self._buffer_bytes = 0
        self._flush_at_rows = self._flush_rows
        self._last_flush = time.monotonic()
        self._closed = False
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
    ) -> Recording:
        """A new recording ``<dir>/<UTC time>-<label>-<random>.sqlite3`` (dir: ``recordings_dir()``)."""
        folder = directory if directory is not None else recordings_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = _sanitise_label(label)
        for _ in range(10):
            path = folder / f"{stamp}-{name}-{secrets.token_hex(3)}.sqlite3"
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                continue
            return cls(
                path,
                redact=redact,
                use_fts=use_fts,
                label=label,
                target=target,
                flush_rows=flush_rows,
                flush_interval=flush_interval,
            )
        raise RecordingError(f"could not find a free file name in {folder}")

    @classmethod
    def open(cls, path: Path | str, readonly: bool = True, *, use_fts: bool | None = None) -> Recording:
        """An existing recording, read-only by default (for review, export, the CLI)."""
        return cls(path, readonly=readonly, use_fts=use_fts)

    def _setup(self, use_fts: bool | None, label: str | None, target: str | None) -> None:
        conn = self._conn
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{self._path} is not a recording: {exc}") from exc
        if version == 0 and not tables:
            if self._readonly:
                raise RecordingError(f"{self._path} is empty, not a recording")
            self._initialise(use_fts is not False and fts5_available(), label, target)
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        elif version > SCHEMA_VERSION:
            raise RecordingError(f"{self._path} was written by a newer version (schema {version})")
        elif version != SCHEMA_VERSION or "messages" not in tables or "counts" not in tables:
            raise RecordingError(f"{self._path} is not a recording")
        has_fts = "messages_fts" in tables
        if has_fts and not self._readonly and not fts5_available():
            raise RecordingError(f"{self._path} has a full-text index but this SQLite lacks FTS5; open it read-only")
        self._fts_write = has_fts and not self._readonly
        self._fts_search = has_fts and use_fts is not False and fts5_available()
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -16000")
        if not self._readonly:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        self._next_seq = int(conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()[0]) + 1
        # seq is 1..N without gaps, so unfiltered paging can seek instead of skipping rows.
        self._dense = self._summary_count(RecordFilter()) == self._next_seq - 1

    def _initialise(self, fts: bool, label: str | None, target: str | None) -> None:
        meta = {
            "schema_version": str(SCHEMA_VERSION),
            "app_version": __version__,
            "created_wall": repr(time.time()),
            "created_mono": repr(time.monotonic()),
            "label": label or "",
            "target": target or "",
            "fts": "fts5" if fts else "none",
            "fts_max_bytes": str(FTS_MAX_BYTES),
        }
        conn = self._conn
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if fts:
                conn.execute(_FTS_SCHEMA)
            conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

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
        """Rows recorded but not yet flushed."""
        return len(self._buffer)

    def meta(self) -> dict[str, str]:
        """The ``meta`` table: schema_version, created_wall, label, target, fts..."""
        self._sync()
        return dict(self._conn.execute("SELECT key, value FROM meta").fetchall())

    def set_target(self, description: str) -> None:
        """Record what this session is connected to (command line, URL)."""
        self._check_writable()
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('target', ?)", (description,))

    # -- writing ----------------------------------------------------------------------------

    def record_message(self, msg: WireMessage) -> None:
        """Store one frame as it crossed the wire, with its classification and diagnostics."""
        diagnostics = msg.diagnostics
        # ``_value_`` is the plain attribute behind ``.value`` (a descriptor): this is the hot path.
        self._append(
            msg.direction._value_,
            msg.kind._value_,
            msg.method,
            msg.id,
            msg.raw,
            self._diagnostics_json(diagnostics) if diagnostics else None,
            len(diagnostics),
            1 if msg.forced else 0,
            msg.latency,
        )

    def record_transport(self, event: TransportEvent) -> None:
        """Store a stderr line or a transport note / closure; raw data events are ignored
        (the frames they carry are recorded as messages)."""
        if isinstance(event, StderrLine):
            kind, text = Kind.STDERR.value, event.line
        elif isinstance(event, TransportNote):
            kind, text = Kind.TRANSPORT.value, event.message
        elif isinstance(event, TransportClosed):
            kind, text = Kind.TRANSPORT.value, event.describe()
        else:
            return
        raw = text.encode("utf-8", "backslashreplace")
        self._append(Direction.IN.value, kind, None, None, raw, None, 0, 0, None)

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
        id_text, id_type = _encode_id(msg_id)
        seq = self._next_seq
        self._next_seq = seq + 1
        buffer = self._buffer
        buffer.append(
            (seq, mono, time.time(), direction, kind, method, id_text, id_type, size, raw, diagnostics, diag_count,
             forced, latency)
        )  # fmt: skip
        self._buffer_bytes += len(raw)
        if (
            len(buffer) >= self._flush_at_rows
            or self._buffer_bytes >= self._flush_bytes
            or mono - self._last_flush >= self._flush_interval
        ):
            self.flush()

    def _diagnostics_json(self, diagnostics: Iterable[Diagnostic]) -> str:
        text = json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False)
        if self._redact is not None:
            text = self._redact(text.encode("utf-8")).decode("utf-8", "replace")
        return text

    def flush(self) -> None:
        """Write the buffered rows in one transaction."""
        self._last_flush = time.monotonic()
        rows = self._buffer
        if not rows or self._closed:
            return
        self._buffer = []
        self._buffer_bytes = 0
        conn = self._conn
        try:
            conn.execute("BEGIN")
            conn.executemany(_INSERT_MESSAGE, rows)
            if self._fts_write:
                conn.executemany(_INSERT_FTS, [(row[0], _fts_body(row[9])) for row in rows])
            summary = Counter((row[4], row[3], row[5] or "", 1 if row[11] else 0) for row in rows)
            conn.executemany(_UPSERT_COUNT, [(*key, n) for key, n in summary.items()])
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            # Keep the rows for the next attempt, which waits for the interval or another batch.
            self._buffer = rows + self._buffer
            self._buffer_bytes = sum(len(row[9]) for row in self._buffer)
            self._flush_at_rows = len(self._buffer) + self._flush_rows
            raise RecordingError(f"could not write to {self._path}: {exc}") from exc
        self._flush_at_rows = self._flush_rows

    def close(self) -> None:
        """Flush and close; a finished recording is left as one self-contained file. Idempotent."""
        if self._closed:
            return
        try:
            if not self._readonly:
                self.flush()
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA journal_mode = DELETE")
        finally:
            self._closed = True
            self._conn.close()

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
        if self._buffer:
            self.flush()
        elif self._readonly:
            # Another process may still be recording into this file.
            self._next_seq = int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()[0]) + 1

    def count(self, filter: RecordFilter | None = None) -> int:
        """How many rows match (instant for filters without text)."""
        self._sync()
        f = filter or RecordFilter()
        if not f.has_text():
            return self._summary_count(f)
        where, params = self._where(f, use_indexes=False)
        return int(self._conn.execute(f"SELECT count(*) FROM messages WHERE {where}", params).fetchone()[0])

    def rows(
        self, filter: RecordFilter | None = None, offset: int = 0, limit: int = 100, *, raw_limit: int | None = None
    ) -> list[RecordRow]:
        """Rows ``offset .. offset+limit`` of the filtered log, in seq order.

        ``raw_limit`` cuts each payload to that many bytes (for list views; see ``raw_truncated``).
        """
        self._sync()
        f = filter or RecordFilter()
        offset = max(0, offset)
        if f.is_empty() and self._dense:
            return self._select("seq > ?", [offset], limit, 0, raw_limit)
        where, params = self._where(f, use_indexes=self._use_indexes(f, offset + limit))
        return self._select(where, params, limit, offset, raw_limit)

    def rows_after(
        self, after_seq: int, filter: RecordFilter | None = None, limit: int = 100, *, raw_limit: int | None = None
    ) -> list[RecordRow]:
        """Up to ``limit`` matching rows with ``seq > after_seq`` (keyset paging; tailing a live log)."""
        self._sync()
        f = filter or RecordFilter()
        where, params = self._where(f, use_indexes=self._use_indexes(f, limit))
        return self._select(f"seq > ? AND {where}", [after_seq, *params], limit, 0, raw_limit)

    def get(self, seq: int) -> RecordRow | None:
        """One row with its whole payload."""
        self._sync()
        found = self._select("seq = ?", [seq], 1, 0, None)
        return found[0] if found else None

    def search(self, text: str, limit: int = 1000) -> list[int]:
        """Seqs of the first ``limit`` rows whose payload matches ``text``."""
        self._sync()
        f = RecordFilter(text=text)
        if not f.has_text():
            return []
        where, params = self._where(f, use_indexes=False)
        sql = f"SELECT seq FROM messages WHERE {where} ORDER BY seq LIMIT ?"
        return [r[0] for r in self._conn.execute(sql, [*params, max(0, limit)])]

    def find_response(self, seq: int) -> int | None:
        """For a request row: the seq of its response (same id, opposite direction), if recorded."""
        self._sync()
        found = self._conn.execute(
            "SELECT kind, direction, msg_id, id_type FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        if found is None or found[0] != Kind.REQUEST.value or found[2] is None:
            return None
        _, direction, msg_id, id_type = found
        other = Direction.IN.value if direction == Direction.OUT.value else Direction.OUT.value
        # A response must come before the same id is used again for a new request.
        reused = self._conn.execute(
            "SELECT min(seq) FROM messages "
            "WHERE msg_id = ? AND direction = ? AND seq > ? AND kind = ? AND id_type IS ?",
            (msg_id, direction, seq, Kind.REQUEST.value, id_type),
        ).fetchone()[0]
        row = self._conn.execute(
            f"""SELECT seq FROM messages
                WHERE msg_id = ? AND direction = ? AND seq > ? AND seq < ?
                  AND kind IN ({_placeholders(_RESPONSE_KINDS)})
                ORDER BY kind = ?, id_type IS NOT ?, seq LIMIT 1""",
            (msg_id, other, seq, reused if reused is not None else 1 << 62, *_RESPONSE_KINDS, Kind.INVALID.value,
             id_type),
        ).fetchone()  # fmt: skip
        return int(row[0]) if row else None

    def find_request(self, seq: int) -> int | None:
        """For a response / error row: the seq of the request it answers, if recorded."""
        self._sync()
        found = self._conn.execute(
            "SELECT kind, direction, msg_id, id_type FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        if found is None or found[0] not in _RESPONSE_KINDS or found[2] is None:
            return None
        _, direction, msg_id, id_type = found
        other = Direction.IN.value if direction == Direction.OUT.value else Direction.OUT.value
        row = self._conn.execute(
            """SELECT seq FROM messages WHERE msg_id = ? AND direction = ? AND seq < ? AND kind = ?
               ORDER BY id_type IS NOT ?, seq DESC LIMIT 1""",
            (msg_id, other, seq, Kind.REQUEST.value, id_type),
        ).fetchone()
        return int(row[0]) if row else None

    def methods(self, filter: RecordFilter | None = None) -> list[str]:
        """The distinct methods among rows matching the filter's kinds/directions (text ignored)."""
        self._sync()
        f = filter or RecordFilter()
        where, params = self._summary_where(f)
        sql = f"SELECT DISTINCT method FROM counts WHERE {where} AND method != '' ORDER BY method"
        return [r[0] for r in self._conn.execute(sql, params)]

    def export_jsonl(self, path: Path | str, filter: RecordFilter | None = None) -> int:
        """Write one JSON object per matching row; return how many.

        ``message`` is the parsed payload when it is JSON, else the payload text.
        """
        self._sync()
        f = filter or RecordFilter()
        where, params = self._where(f, use_indexes=self._use_indexes(f, None))
        sql = f"SELECT {_COLUMNS.format(raw='raw')} FROM messages WHERE {where} ORDER BY seq"
        cursor = self._conn.execute(sql, params)
        written = 0
        # backslashreplace turns a lone surrogate (from a JSON escape in the payload) into the same
        # escape again, which keeps the line valid JSON.
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as out:
            while chunk := cursor.fetchmany(_EXPORT_CHUNK):
                for record in chunk:
                    out.write(_EXPORT_JSON.encode(self._export_object(record)))
                    out.write("\n")
                    written += 1
        return written

    @staticmethod
    def _export_object(record: tuple[Any, ...]) -> dict[str, Any]:
        seq, _mono, wall, direction, kind, method, msg_id, id_type, size, raw, _length, diags, _n, forced, latency = (
            record
        )
        message: Any
        if kind in _MESSAGE_KINDS:
            try:
                message = _STRICT_JSON.decode(raw if isinstance(raw, str) else raw.decode("utf-8"))
            except (ValueError, RecursionError):
                message = _decode_raw(raw, False)
        else:
            message = _decode_raw(raw, False)
        return {
            "seq": seq,
            "time": datetime.fromtimestamp(wall, UTC).isoformat(),
            "direction": direction,
            "kind": kind,
            "method": method,
            "id": _decode_id(msg_id, id_type),
            "size": size,
            "latency": latency,
            "forced": bool(forced),
            "diagnostics": json.loads(diags) if diags else [],
            "message": message,
        }

    # -- query building ---------------------------------------------------------------------

    def _select(
        self, where: str, params: list[object], limit: int, offset: int, raw_limit: int | None
    ) -> list[RecordRow]:
        # Pick the page's seqs first, then read only those rows: the skipped rows and the sort
        # never touch payloads.
        if raw_limit is None:
            columns = _COLUMNS.format(raw="raw")
        else:
            columns = _COLUMNS.format(raw="substr(raw, 1, ?)")
            params = [max(0, raw_limit), *params]
        sql = (
            f"SELECT {columns} FROM messages WHERE seq IN "
            f"(SELECT seq FROM messages WHERE {where} ORDER BY seq LIMIT ? OFFSET ?) ORDER BY seq"
        )
        return [self._row(r) for r in self._conn.execute(sql, [*params, max(0, limit), max(0, offset)])]

    @staticmethod
    def _row(r: tuple[Any, ...]) -> RecordRow:
        seq, mono, wall, direction, kind, method, msg_id, id_type, size, raw, length, diags, n, forced, latency = r
        truncated = len(raw) < length
        return RecordRow(
            seq=seq,
            mono=mono,
            wall=wall,
            direction=Direction(direction),
            kind=Kind(kind),
            method=method,
            msg_id=_decode_id(msg_id, id_type),
            id_type=id_type,
            size=size,
            raw=_decode_raw(raw, truncated),
            diagnostics=json.loads(diags) if diags else [],
            diag_count=n,
            forced=bool(forced),
            latency=latency,
            raw_truncated=truncated,
        )

    def _summary_where(self, f: RecordFilter) -> tuple[str, list[object]]:
        clauses: list[str] = []
        params: list[object] = []
        for column, values in (("kind", f.kinds), ("direction", f.directions), ("method", f.methods)):
            if values is not None:
                texts = _texts(values)
                clauses.append(f"{column} IN ({_placeholders(texts)})" if texts else "0")
                params.extend(texts)
        if f.diagnostics_only:
            clauses.append("has_diag = 1")
        return " AND ".join(clauses) or "1", params

    def _summary_count(self, f: RecordFilter) -> int:
        where, params = self._summary_where(f)
        return int(self._conn.execute(f"SELECT coalesce(sum(n), 0) FROM counts WHERE {where}", params).fetchone()[0])

    def _use_indexes(self, f: RecordFilter, wanted: int | None) -> bool:
        """Whether finding the first ``wanted`` matches (``None``: all) is cheaper through the
        kind/method/diagnostics indexes (read every indexed match, then sort) than by walking the
        table in seq order until enough rows matched. The summary table has the numbers."""
        if f.has_text() or (f.kinds is None and f.methods is None and not f.diagnostics_only):
            return False
        total = self._next_seq - 1
        indexed = self._summary_count(RecordFilter(f.kinds, None, f.methods, None, f.diagnostics_only))
        matching = self._summary_count(RecordFilter(f.kinds, f.directions, f.methods, None, f.diagnostics_only))
        scan = total if wanted is None or matching == 0 else min(total, wanted * total // matching)
        return indexed * _INDEX_COST < scan

    def _where(self, f: RecordFilter, *, use_indexes: bool) -> tuple[str, list[object]]:
        # A unary + keeps SQLite from using an index: walking the table in seq order is faster
        # when the filter matches many rows (the summary table tells which case we are in).
        plus = "" if use_indexes else "+"
        clauses: list[str] = []
        params: list[object] = []
        kinds = None if f.kinds is None else _texts(f.kinds)
        methods = None if f.methods is None else _texts(f.methods)
        if use_indexes and methods and kinds is None:
            # Let the (kind, method) index serve a method filter: the kinds come from the summary.
            found = self._conn.execute(
                f"SELECT DISTINCT kind FROM counts WHERE method IN ({_placeholders(methods)})", methods
            )
            kinds = [r[0] for r in found]
        for column, values in (("kind", kinds), ("method", methods)):
            if values is not None:
                clauses.append(f"{plus}{column} IN ({_placeholders(values)})" if values else "0")
                params.extend(values)
        if f.directions is not None:
            directions = _texts(f.directions)
            clauses.append(f"direction IN ({_placeholders(directions)})" if directions else "0")
            params.extend(directions)
        if f.diagnostics_only:
            clauses.append(f"{plus}diag_count > 0")
        if f.text and f.text.strip():
            text_where, text_params = self._text_where(f.text)
            clauses.append(text_where)
            params.extend(text_params)
        return " AND ".join(clauses) or "1", params

    def _text_where(self, text: str) -> tuple[str, list[object]]:
        terms = text.split()
        if self._fts_search:
            indexed = [t for t in terms if any(ch.isalnum() for ch in t)]
            # The index ignores punctuation: a term with some is also checked as a substring of the
            # candidates the index found ("roots":[] must not match every "roots").
            unindexed = [t for t in terms if not t.isalnum()]
        else:
            indexed, unindexed = [], terms
        clauses: list[str] = []
        params: list[object] = []
        if indexed:
            query = " AND ".join('"' + t.replace('"', '""') + '" *' for t in indexed)
            big_likes = " AND ".join("CAST(raw AS TEXT) LIKE ? ESCAPE '\\'" for _ in indexed)
            clauses.append(
                "seq IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? UNION ALL "
                f"SELECT seq FROM messages WHERE length(raw) > {FTS_MAX_BYTES} AND {big_likes})"
            )
            params.append(query)
            params.extend(_like_pattern(t) for t in indexed)
        for term in unindexed:
            clauses.append("CAST(raw AS TEXT) LIKE ? ESCAPE '\\'")
            params.append(_like_pattern(term))
        return " AND ".join(clauses), params
