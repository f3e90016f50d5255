"""Table rows for the log view, read straight from a recording's file.

The log view shows a few hundred rows at a time out of millions, and must not stall on a row that
holds a 50 MB payload. ``Recording.rows(raw_limit=...)`` cuts payloads with ``substr``, which makes
SQLite read the whole value first; so the view reads its columns through its own read-only
connection (the ``messages`` / ``counts`` tables documented in ``inspector.store.recording.schema``,
checked when opening): the first bytes of a payload and whole big payloads come from incremental blob
I/O (which releases the GIL), and the filtered seq lists are plain index queries.

``PublicRowSource`` gives the same answers through the public ``Recording`` API, for recordings
that cannot be opened a second time (in-memory databases, a schema this module does not know).
Everything text-search related goes through ``Recording.search`` / ``rows_after`` in both cases,
so search semantics live in one place.
"""

from __future__ import annotations

import codecs
import sqlite3
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, Protocol

from inspector.protocol.wire import Kind
from inspector.store.recording import SCHEMA_VERSION, RecordFilter, Recording, RecordRow
from inspector.store.recording.cells import PREVIEW_BYTES, Cells, worst_severity
from inspector.store.recording.query import LogicalRequest, RecordQuery, record_row

__all__ = [
    "PREVIEW_BYTES",
    "Cells",
    "PublicRowSource",
    "RowSource",
    "SourceUnavailable",
    "SqlRowSource",
    "open_row_source",
    "worst_severity",
]

_INLINE_LIMIT: Final = 16384
"""Payloads up to this size are cut with ``substr``; larger ones are read through blob I/O."""
_IN_CHUNK: Final = 500
_BLOB_CHUNK: Final = 1 << 20
_RECORD_COLUMNS: Final = (
    "seq, mono, wall, direction, kind, method, msg_id, id_type, size, diagnostics, diag_count, forced, latency"
)
_NEEDED_COLUMNS: Final = frozenset(
    "seq wall direction kind method msg_id id_type size raw diagnostics diag_count forced latency".split()
)
_NEEDED_SUMMARY: Final = frozenset(("kind", "direction", "method", "has_diag", "n"))
_CELL_COLUMNS: Final = (
    "seq, wall, direction, kind, method, msg_id, id_type, size, diag_count, diagnostics, latency, forced, "
    f"CASE WHEN length(raw) <= {_INLINE_LIMIT} THEN substr(raw, 1, {PREVIEW_BYTES}) END"
)


_ROUND_KINDS: Final = frozenset((Kind.REQUEST.value, Kind.RESPONSE.value, Kind.ERROR.value, Kind.INVALID.value))
_ROUND_IDS: Final = (
    "SELECT r.seq, r.origin_id, r.origin_type, m.msg_id, m.id_type FROM request_rounds AS r "
    "JOIN messages AS m ON m.seq = r.seq WHERE r.seq > ? ORDER BY r.seq"
)


def _round_rows(request: LogicalRequest | None) -> dict[int, int]:
    if request is None or not request.multi_round:
        return {}
    out: dict[int, int] = {}
    for r in request.rounds:
        out[r.request_seq] = r.round
        if r.response_seq is not None:
            out[r.response_seq] = r.round
    return out


class SourceUnavailable(Exception):
    """The recording's file cannot be read directly."""


class RowSource(Protocol):
    """Reads table rows and filtered seq lists. Each instance belongs to one thread."""

    def cells_range(self, first_seq: int, count: int) -> list[Cells]: ...

    def cells_for(self, seqs: Sequence[int]) -> list[Cells]: ...

    def max_seq(self) -> int: ...

    def totals(self) -> tuple[int, int]: ...

    def record(self, seq: int) -> RecordRow | None: ...

    def round_rows(self, seq: int) -> dict[int, int]: ...

    def seq_chunks(self, f: RecordFilter, after: int, upto: int, chunk: int) -> Iterator[array[int]]: ...

    def restrict(self, f: RecordFilter, seqs: Sequence[int]) -> array[int]: ...

    def close(self) -> None: ...


def _texts(values: object) -> list[str]:
    items = (values,) if isinstance(values, str) else values
    return [str(getattr(v, "value", v)) for v in items]  # type: ignore[attr-defined]


def _structural_where(f: RecordFilter, *, use_indexes: bool) -> tuple[str, list[object]]:
    """SQL for the kind / direction / method / diagnostics part of a filter (text is not handled here)."""
    plus = "" if use_indexes else "+"
    clauses: list[str] = []
    params: list[object] = []
    for column, values, prefix in (
        ("kind", f.kinds, plus),
        ("method", f.methods, plus),
        ("direction", f.directions, ""),
    ):
        if values is not None:
            texts = _texts(values)
            clauses.append(f"{prefix}{column} IN ({', '.join('?' * len(texts))})" if texts else "0")
            params.extend(texts)
    if f.diagnostics_only:
        clauses.append(f"{plus}diag_count > 0")
    return " AND ".join(clauses) or "1", params


def _structural(f: RecordFilter) -> RecordFilter:
    return RecordFilter(f.kinds, f.directions, f.methods, None, f.diagnostics_only)


class SqlRowSource:
    """Own read-only connection to the recording file (open it in the thread that uses it)."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise SourceUnavailable(f"{path} is not a file")
        try:
            self._conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise SourceUnavailable(str(exc)) from exc
        try:
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(messages)")}
            summary = {r[1] for r in self._conn.execute("PRAGMA table_info(counts)")}
        except sqlite3.Error as exc:
            self._conn.close()
            raise SourceUnavailable(str(exc)) from exc
        # Every schema version so far keeps these columns; a file this code cannot read goes through the API.
        if not 1 <= version <= SCHEMA_VERSION or not (_NEEDED_COLUMNS <= columns and _NEEDED_SUMMARY <= summary):
            self._conn.close()
            raise SourceUnavailable(f"unknown recording schema {version}")
        self._conn.execute("PRAGMA cache_size = -8000")
        self._rounds: RecordQuery | None = None
        """Reads the multi-round-trip requests, once the file has any (``request_rounds``)."""
        self._round_ids: set[tuple[str, str]] = set()
        """(id text, id type) of every round's request recorded so far: only rows with one of these ids are
        looked up (everything else costs one set lookup)."""
        self._rounds_seen = 0
        """The last ``request_rounds`` seq read into ``_round_ids``."""

    def close(self) -> None:
        self._conn.close()

    def _refresh_round_ids(self) -> bool:
        """Bring ``_round_ids`` up to date (one indexed query); whether the file has any multi-round request."""
        if self._rounds is None:
            found = self._conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'request_rounds'"
            ).fetchone()
            if found is None:
                return False
            self._rounds = RecordQuery(self._conn, fts=False, rounds=True)
        for seq, origin_id, origin_type, msg_id, id_type in self._conn.execute(_ROUND_IDS, (self._rounds_seen,)):
            self._rounds_seen = max(self._rounds_seen, int(seq))
            self._round_ids.add((str(origin_id), str(origin_type)))
            if msg_id is not None and id_type is not None:
                self._round_ids.add((str(msg_id), str(id_type)))
        return bool(self._round_ids)

    def _cells(self, rows: list[tuple[object, ...]]) -> list[Cells]:
        out: list[Cells] = []
        rounds = self._refresh_round_ids()
        for r in rows:
            head = r[12]
            if head is None:
                head = self._blob_head(int(r[0]))  # type: ignore[call-overload]
            cells = Cells.make(*r[:12], head)  # type: ignore[arg-type, call-arg]
            if rounds and (str(r[5]), str(r[6])) in self._round_ids and r[3] in _ROUND_KINDS:
                assert self._rounds is not None
                cells.round = self._rounds.round_of(cells.seq)
            out.append(cells)
        return out

    def round_rows(self, seq: int) -> dict[int, int]:
        """For a row of a multi-round-trip request: the seq -> round of every request and response of it."""
        if not self._refresh_round_ids():
            return {}
        assert self._rounds is not None
        return _round_rows(self._rounds.logical_request(seq))

    def _blob_head(self, seq: int) -> bytes:
        try:
            with self._conn.blobopen("messages", "raw", seq, readonly=True) as blob:
                return blob.read(PREVIEW_BYTES)
        except sqlite3.Error:
            return b""

    def cells_range(self, first_seq: int, count: int) -> list[Cells]:
        sql = f"SELECT {_CELL_COLUMNS} FROM messages WHERE seq >= ? ORDER BY seq LIMIT ?"
        return self._cells(self._conn.execute(sql, (first_seq, count)).fetchall())

    def cells_for(self, seqs: Sequence[int]) -> list[Cells]:
        found: dict[int, Cells] = {}
        for i in range(0, len(seqs), _IN_CHUNK):
            part = list(seqs[i : i + _IN_CHUNK])
            sql = f"SELECT {_CELL_COLUMNS} FROM messages WHERE seq IN ({', '.join('?' * len(part))})"
            for cells in self._cells(self._conn.execute(sql, part).fetchall()):
                found[cells.seq] = cells
        return [found[s] for s in seqs if s in found]

    def max_seq(self) -> int:
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()[0])

    def record(self, seq: int) -> RecordRow | None:
        """The whole row, like ``Recording.get``, but the payload is read in pieces through blob I/O,
        which lets go of the GIL: reading 50 MB in the reader thread does not stall the window."""
        found = self._conn.execute(f"SELECT {_RECORD_COLUMNS} FROM messages WHERE seq = ?", (seq,)).fetchone()
        if found is None:
            return None
        decoder = codecs.getincrementaldecoder("utf-8")("backslashreplace")
        parts: list[str] = []
        with self._conn.blobopen("messages", "raw", seq, readonly=True) as blob:
            while chunk := blob.read(_BLOB_CHUNK):
                parts.append(decoder.decode(chunk))
        parts.append(decoder.decode(b"", final=True))
        return record_row(found, "".join(parts))

    def totals(self) -> tuple[int, int]:
        """(rows, highest seq): rows from the running summary, so both are instant at any size."""
        n = self._conn.execute("SELECT coalesce(sum(n), 0) FROM counts").fetchone()[0]
        return int(n), self.max_seq()

    def _selective(self, f: RecordFilter) -> bool:
        """Whether the kind/method/diagnostics indexes find the matches sooner than a walk in seq order."""
        clauses: list[str] = []
        params: list[object] = []
        for column, values in (("kind", f.kinds), ("method", f.methods), ("direction", f.directions)):
            if values is not None:
                texts = _texts(values)
                clauses.append(f"{column} IN ({', '.join('?' * len(texts))})" if texts else "0")
                params.extend(texts)
        if f.diagnostics_only:
            clauses.append("has_diag = 1")
        where = " AND ".join(clauses) or "1"
        matching = self._conn.execute(f"SELECT coalesce(sum(n), 0) FROM counts WHERE {where}", params).fetchone()[0]
        total = self._conn.execute("SELECT coalesce(sum(n), 0) FROM counts").fetchone()[0]
        has_index = f.kinds is not None or f.methods is not None or f.diagnostics_only
        return bool(has_index and matching * 8 < total)

    def seq_chunks(self, f: RecordFilter, after: int, upto: int, chunk: int) -> Iterator[array[int]]:
        where, params = _structural_where(f, use_indexes=self._selective(f))
        sql = f"SELECT seq FROM messages WHERE seq > ? AND seq <= ? AND {where} ORDER BY seq LIMIT ?"
        last = after
        while True:
            rows = self._conn.execute(sql, [last, upto, *params, chunk]).fetchall()
            if not rows:
                return
            out = array("q", [r[0] for r in rows])
            last = out[-1]
            yield out
            if len(rows) < chunk:
                return

    def restrict(self, f: RecordFilter, seqs: Sequence[int]) -> array[int]:
        structural = _structural(f)
        if structural.is_empty():
            return array("q", seqs)
        where, params = _structural_where(structural, use_indexes=False)
        out: array[int] = array("q")
        for i in range(0, len(seqs), _IN_CHUNK):
            part = list(seqs[i : i + _IN_CHUNK])
            sql = f"SELECT seq FROM messages WHERE seq IN ({', '.join('?' * len(part))}) AND {where} ORDER BY seq"
            out.extend(r[0] for r in self._conn.execute(sql, [*part, *params]))
        return out


class PublicRowSource:
    """The same reads through the public Recording API (slower; for recordings without a file)."""

    def __init__(self, recording: Recording) -> None:
        self._rec = recording

    def close(self) -> None:
        pass

    def cells_range(self, first_seq: int, count: int) -> list[Cells]:
        rows = self._rec.rows_after(first_seq - 1, None, count, raw_limit=PREVIEW_BYTES)
        out = [Cells.from_row(r) for r in rows]
        for cells in out:
            if cells.kind in _ROUND_KINDS:
                cells.round = self._rec.round_of(cells.seq)
        return out

    def round_rows(self, seq: int) -> dict[int, int]:
        return _round_rows(self._rec.logical_request(seq))

    def cells_for(self, seqs: Sequence[int]) -> list[Cells]:
        out: list[Cells] = []
        i = 0
        while i < len(seqs):
            j = i + 1
            while j < len(seqs) and seqs[j] == seqs[j - 1] + 1:
                j += 1
            out.extend(self.cells_range(seqs[i], j - i))
            i = j
        return out

    def max_seq(self) -> int:
        self._rec.count()
        return self._rec.last_seq

    def totals(self) -> tuple[int, int]:
        return self._rec.count(), self._rec.last_seq

    def record(self, seq: int) -> RecordRow | None:
        return self._rec.get(seq)

    def seq_chunks(self, f: RecordFilter, after: int, upto: int, chunk: int) -> Iterator[array[int]]:
        last = after
        while True:
            rows = self._rec.rows_after(last, f, chunk, raw_limit=0)
            out = array("q", [r.seq for r in rows if r.seq <= upto])
            if out:
                yield out
                last = out[-1]
            if len(rows) < chunk or len(out) < len(rows):
                return

    def restrict(self, f: RecordFilter, seqs: Sequence[int]) -> array[int]:
        structural = _structural(f)
        if structural.is_empty():
            return array("q", seqs)
        wanted = set(seqs)
        out: array[int] = array("q")
        for chunk in self.seq_chunks(structural, 0, max(seqs, default=0), 20000):
            out.extend(s for s in chunk if s in wanted)
        return out


def open_row_source(recording: Recording) -> RowSource:
    """A direct reader for the recording's file when possible, else the public API."""
    try:
        return SqlRowSource(recording.path)
    except SourceUnavailable:
        return PublicRowSource(recording)
