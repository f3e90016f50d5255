"""Reading a recording: filters, rows as returned, and the SQL that finds them.

Package-internal: the public names live in :mod:`inspector.store.recording`. The schema and the
design of the indexes (which this module relies on) are described in
:mod:`inspector.store.recording.schema`.

Multi-round-trip requests (schema version 3, ``request_rounds``): :meth:`RecordQuery.logical_request` turns
any row of one (a round's request, or the response to a round) into a :class:`LogicalRequest` (its
:class:`RequestRound` s in order, each with its response), :meth:`RecordQuery.logical_request_for_id` does
the same from a JSON-RPC id, and :meth:`RecordQuery.round_of` tells a row's round (``None`` outside
multi-round requests). Files without the table answer as if every request took one round.
"""

from __future__ import annotations

import codecs
import json
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any, Final

from inspector.protocol.wire import Direction, Kind, RequestId
from inspector.store.recording.schema import COLUMNS, FTS_MAX_BYTES, decode_id, encode_id

__all__ = ["LogicalRequest", "RecordFilter", "RecordQuery", "RecordRow", "RequestRound"]

_INDEX_COST: Final = 2
"""Reading and sorting one index entry costs about this many table rows walked in seq order."""
_EXPORT_CHUNK: Final = 500

_RESPONSE_KINDS: Final = (Kind.RESPONSE.value, Kind.ERROR.value, Kind.INVALID.value)
_MESSAGE_KINDS: Final = frozenset(k.value for k in Kind if k not in (Kind.STDERR, Kind.TRANSPORT))
_LIKE: Final = "CAST(raw AS TEXT) LIKE ? ESCAPE '\\'"

_OUT_REQUEST: Final = (Direction.OUT.value, Kind.REQUEST.value)
_LATEST_OUT_REQUEST: Final = (
    "SELECT max(seq) FROM messages WHERE msg_id = ? AND id_type IS ? AND direction = ? AND kind = ? AND seq < ?"
)
_NEXT_OUT_REQUEST: Final = (
    "SELECT min(seq) FROM messages WHERE msg_id = ? AND id_type IS ? AND direction = ? AND kind = ? AND seq > ?"
)
_LATER_ROUNDS: Final = (
    "SELECT r.seq, r.round, m.msg_id, m.id_type FROM request_rounds AS r JOIN messages AS m ON m.seq = r.seq "
    "WHERE r.origin_id = ? AND r.origin_type = ? AND r.seq > ? AND r.seq < ? ORDER BY r.seq"
)
"""The later rounds naming an origin, between its first round and the next request reusing its id."""


@dataclass(slots=True)
class RecordFilter:
    """What to show. ``None`` means no constraint; an empty collection matches nothing."""

    kinds: Collection[str] | None = None
    """Kind values (``Kind`` members work too)."""
    directions: Collection[str] | None = None
    """``"in"`` / ``"out"`` (``Direction`` members work too)."""
    methods: Collection[str] | None = None
    text: str | None = None
    """Full-text search over payloads (see :mod:`inspector.store.recording.schema` for the matching rules)."""
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


@dataclass(frozen=True, slots=True)
class RequestRound:
    """One JSON-RPC request of a logical request, and its answer."""

    round: int
    """1 for the request first sent, 2, 3, ... for the retries that carry ``inputResponses``."""
    request_seq: int
    request_id: RequestId | None
    """The round's own JSON-RPC id (every round has a new one; round 1's is the logical request's origin)."""
    response_seq: int | None
    """The response / error row answering this round, when recorded (an ``input_required`` result for every
    round but the last)."""


@dataclass(frozen=True, slots=True)
class LogicalRequest:
    """A request as the user made it: one round, or every round of a multi-round-trip request (2026-07-28)."""

    origin: RequestId | None
    """The JSON-RPC id of the first round (the one the later rounds name)."""
    method: str | None
    rounds: tuple[RequestRound, ...]
    """In the order sent. Round 1 is missing only when the file lacks the first request."""

    @property
    def multi_round(self) -> bool:
        """Whether the request took more than one round (a retry was recorded)."""
        return any(r.round > 1 for r in self.rounds)

    @property
    def final_response_seq(self) -> int | None:
        """The answer to the last round recorded (the final result once the request is complete)."""
        return self.rounds[-1].response_seq if self.rounds else None

    @property
    def request_seqs(self) -> tuple[int, ...]:
        return tuple(r.request_seq for r in self.rounds)

    def round_for_seq(self, seq: int) -> RequestRound | None:
        """The round whose request or response is row ``seq``."""
        return next((r for r in self.rounds if seq in (r.request_seq, r.response_seq)), None)


def _texts(values: Collection[str]) -> list[str]:
    """Filter values as stored; a lone string (``kinds="request"``) counts as one value, not letters."""
    items: Iterable[str] = (values,) if isinstance(values, str) else values
    return [str(v.value) if isinstance(v, Enum) else str(v) for v in items]


def _decode_raw(raw: bytes | str, truncated: bool) -> str:
    if isinstance(raw, str):
        return raw
    if truncated:
        # Leave out a character cut in half by the limit instead of showing it as escapes.
        return codecs.getincrementaldecoder("utf-8")("backslashreplace").decode(raw, final=False)
    return raw.decode("utf-8", "backslashreplace")


def _decode_diagnostics(text: str | None) -> list[dict[str, Any]]:
    return json.loads(text) if text else []


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


def _add_in(clauses: list[str], params: list[object], column: str, values: list[str]) -> None:
    """``column IN (values)``; no values match nothing."""
    clauses.append(f"{column} IN ({_placeholders(values)})" if values else "0")
    params.extend(values)


def _other_direction(direction: str) -> str:
    return Direction.IN.value if direction == Direction.OUT.value else Direction.OUT.value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


_STRICT_JSON: Final = json.JSONDecoder(parse_constant=_reject_constant)
"""Parses payloads for export; NaN and Infinity are not JSON, such a payload is exported as text."""
_EXPORT_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class RecordQuery:
    """The read queries of one recording's connection. Callers flush buffered rows first.

    ``fts``: text search uses the full-text index (else ``LIKE``). ``total`` arguments are the
    number of rows in the file (the last seq).
    """

    def __init__(self, conn: sqlite3.Connection, *, fts: bool, links: bool = False, rounds: bool = False) -> None:
        self._conn = conn
        self._fts = fts
        self.links = links
        """Whether the file has the ``http_links`` table (schema version 2)."""
        self.rounds = rounds
        """Whether the file has the ``request_rounds`` table (schema version 3)."""

    # -- the reads ----------------------------------------------------------------------------

    def last_seq(self) -> int:
        """The highest seq in the file (0 when empty)."""
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()[0])

    def count(self, f: RecordFilter) -> int:
        if not f.has_text():
            return self.summary_count(f)
        where, params = self._where(f, use_indexes=False)
        return int(self._conn.execute(f"SELECT count(*) FROM messages WHERE {where}", params).fetchone()[0])

    def rows(
        self, f: RecordFilter, offset: int, limit: int, raw_limit: int | None, *, dense: bool, total: int
    ) -> list[RecordRow]:
        """``dense``: the seqs are 1..total without gaps, so unfiltered paging can seek."""
        offset = max(0, offset)
        if f.is_empty() and dense:
            return self._select("seq > ?", [offset], limit, 0, raw_limit)
        where, params = self._where(f, use_indexes=self._use_indexes(f, offset + limit, total))
        return self._select(where, params, limit, offset, raw_limit)

    def rows_after(
        self, after_seq: int, f: RecordFilter, limit: int, raw_limit: int | None, *, total: int
    ) -> list[RecordRow]:
        where, params = self._where(f, use_indexes=self._use_indexes(f, limit, total))
        return self._select(f"seq > ? AND {where}", [after_seq, *params], limit, 0, raw_limit)

    def get(self, seq: int) -> RecordRow | None:
        found = self._select("seq = ?", [seq], 1, 0, None)
        return found[0] if found else None

    def search(self, text: str, limit: int) -> list[int]:
        f = RecordFilter(text=text)
        if not f.has_text():
            return []
        where, params = self._where(f, use_indexes=False)
        sql = f"SELECT seq FROM messages WHERE {where} ORDER BY seq LIMIT ?"
        return [r[0] for r in self._conn.execute(sql, [*params, max(0, limit)])]

    def find_response(self, seq: int) -> int | None:
        found = self._id_of(seq, (Kind.REQUEST.value,))
        if found is None:
            return None
        direction, msg_id, id_type = found
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
            (msg_id, _other_direction(direction), seq, reused if reused is not None else 1 << 62, *_RESPONSE_KINDS,
             Kind.INVALID.value, id_type),
        ).fetchone()  # fmt: skip
        return int(row[0]) if row else None

    def find_request(self, seq: int) -> int | None:
        found = self._id_of(seq, _RESPONSE_KINDS)
        if found is None:
            return None
        direction, msg_id, id_type = found
        row = self._conn.execute(
            """SELECT seq FROM messages WHERE msg_id = ? AND direction = ? AND seq < ? AND kind = ?
               ORDER BY id_type IS NOT ?, seq DESC LIMIT 1""",
            (msg_id, _other_direction(direction), seq, Kind.REQUEST.value, id_type),
        ).fetchone()
        return int(row[0]) if row else None

    def exchanges_for(self, seq: int) -> list[int]:
        """The "http" rows linked to row ``seq``'s id, from its request until that id is used for a new one."""
        if not self.links:
            return []
        found = self._conn.execute(
            "SELECT kind, direction, msg_id, id_type FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        if found is None or found[2] is None:
            return []
        kind, direction, msg_id, id_type = found
        start, request_direction = seq, direction
        request = self.find_request(seq) if kind in _RESPONSE_KINDS else None
        if request is not None:
            start, request_direction = request, _other_direction(direction)
        reused = self._conn.execute(
            "SELECT min(seq) FROM messages "
            "WHERE msg_id = ? AND id_type IS ? AND direction = ? AND kind = ? AND seq > ?",
            (msg_id, id_type, request_direction, Kind.REQUEST.value, start),
        ).fetchone()[0]
        rows = self._conn.execute(
            "SELECT http_seq FROM http_links WHERE msg_id = ? AND id_type = ? AND http_seq > ? AND http_seq < ? "
            "ORDER BY http_seq",
            (msg_id, id_type or "", start, reused if reused is not None else 1 << 62),
        )
        return [r[0] for r in rows]

    def logical_request(self, seq: int) -> LogicalRequest | None:
        """The logical request that row ``seq`` (a request, or a response / error to one) belongs to."""
        found = self._request_of(seq)
        if found is None:
            return None
        request_seq, direction, method, msg_id, id_type = found
        group = self._round_group(request_seq, direction, msg_id, id_type)
        if group is None:
            rid = decode_id(msg_id, id_type)
            return LogicalRequest(rid, method, (RequestRound(1, request_seq, rid, self.find_response(request_seq)),))
        origin_text, origin_type, first, later = group
        members: list[tuple[int, int, str | None, str | None]] = []
        if first is not None:
            members.append((first, 1, origin_text, origin_type))
        members.extend(later)
        if first is not None and first != request_seq:
            method = self._conn.execute("SELECT method FROM messages WHERE seq = ?", (first,)).fetchone()[0]
        rounds = tuple(
            RequestRound(number, member, decode_id(text, kind), self.find_response(member))
            for member, number, text, kind in members
        )
        return LogicalRequest(decode_id(origin_text, origin_type), method, rounds)

    def logical_request_for_id(self, request_id: RequestId) -> LogicalRequest | None:
        """:meth:`logical_request` of the latest "out" request with JSON-RPC id ``request_id``."""
        msg_id, id_type = encode_id(request_id)
        if msg_id is None or id_type is None:
            return None
        latest = self._latest_out_request(msg_id, id_type, 1 << 62)
        return None if latest is None else self.logical_request(latest)

    def round_of(self, seq: int) -> int | None:
        """The round of row ``seq`` when it is a request or response of a multi-round-trip request, else None."""
        if not self.rounds:
            return None
        found = self._request_of(seq)
        if found is None:
            return None
        request_seq, direction, _method, msg_id, id_type = found
        if direction != Direction.OUT.value:
            return None
        row = self._conn.execute("SELECT round FROM request_rounds WHERE seq = ?", (request_seq,)).fetchone()
        if row is not None:
            return int(row[0])
        if msg_id is None or id_type is None:
            return None
        later = self._conn.execute(
            "SELECT 1 FROM request_rounds WHERE origin_id = ? AND origin_type = ? AND seq > ? AND seq < ? LIMIT 1",
            (msg_id, id_type, request_seq, self._next_out_request(msg_id, id_type, request_seq)),
        ).fetchone()
        return 1 if later is not None else None

    def methods(self, f: RecordFilter) -> list[str]:
        where, params = self._summary_where(f)
        sql = f"SELECT DISTINCT method FROM counts WHERE {where} AND method != '' ORDER BY method"
        return [r[0] for r in self._conn.execute(sql, params)]

    def export_jsonl(self, path: Path | str, f: RecordFilter, *, total: int) -> int:
        where, params = self._where(f, use_indexes=self._use_indexes(f, None, total))
        sql = f"SELECT {COLUMNS.format(raw='raw')} FROM messages WHERE {where} ORDER BY seq"
        cursor = self._conn.execute(sql, params)
        written = 0
        # backslashreplace turns a lone surrogate (from a JSON escape in the payload) into the same
        # escape again, which keeps the line valid JSON.
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as out:
            while chunk := cursor.fetchmany(_EXPORT_CHUNK):
                for record in chunk:
                    out.write(_EXPORT_JSON.encode(_export_object(record)))
                    out.write("\n")
                    written += 1
        return written

    def summary_count(self, f: RecordFilter) -> int:
        """How many rows match, from the ``counts`` table (the filter's text is ignored)."""
        where, params = self._summary_where(f)
        return int(self._conn.execute(f"SELECT coalesce(sum(n), 0) FROM counts WHERE {where}", params).fetchone()[0])

    # -- query building -----------------------------------------------------------------------

    def _request_of(self, seq: int) -> tuple[int, str, str | None, str | None, str | None] | None:
        """Seq, direction, method, id text and id type of row ``seq`` when it is a request, or of the request
        it answers when it is a response / error (None for other rows and for unpaired responses)."""
        found = self._conn.execute(
            "SELECT kind, direction, method, msg_id, id_type FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        if found is None:
            return None
        kind, direction, method, msg_id, id_type = found
        if kind in _RESPONSE_KINDS:
            request = self.find_request(seq)
            if request is None:
                return None
            return self._request_of(request)
        if kind != Kind.REQUEST.value:
            return None
        return seq, direction, method, msg_id, id_type

    def _latest_out_request(self, msg_id: str, id_type: str, before: int) -> int | None:
        """The seq of the latest "out" request with this id before row ``before``."""
        row = self._conn.execute(_LATEST_OUT_REQUEST, (msg_id, id_type, *_OUT_REQUEST, before)).fetchone()
        return None if row[0] is None else int(row[0])

    def _next_out_request(self, msg_id: str, id_type: str, after: int) -> int:
        """The seq of the next "out" request after row ``after`` that reuses this id (a bound past the end when
        none does): a logical request first sent with that id ends before it at the latest."""
        row = self._conn.execute(_NEXT_OUT_REQUEST, (msg_id, id_type, *_OUT_REQUEST, after)).fetchone()
        return 1 << 62 if row[0] is None else int(row[0])

    def _round_group(
        self, request_seq: int, direction: str, msg_id: str | None, id_type: str | None
    ) -> tuple[str, str, int | None, list[tuple[int, int, str | None, str | None]]] | None:
        """For an "out" request of a multi-round-trip request: the origin's id text and type, the seq of the first
        round (None when not recorded) and the later rounds in order (seq, round, id text, id type). None when
        the request took one round, and always when the file has no ``request_rounds``."""
        if not self.rounds or direction != Direction.OUT.value:
            return None
        own = self._conn.execute("SELECT origin_id, origin_type FROM request_rounds WHERE seq = ?", (request_seq,))
        origin = own.fetchone()
        first: int | None
        if origin is not None:
            origin_text, origin_type = str(origin[0]), str(origin[1])
            first = self._latest_out_request(origin_text, origin_type, request_seq)
        elif msg_id is None or id_type is None:
            return None
        else:
            origin_text, origin_type, first = msg_id, id_type, request_seq
        start = first or 0
        end = self._next_out_request(origin_text, origin_type, start)
        later = [
            (int(r[0]), int(r[1]), r[2], r[3])
            for r in self._conn.execute(_LATER_ROUNDS, (origin_text, origin_type, start, end))
        ]
        return (origin_text, origin_type, first, later) if later else None

    def _id_of(self, seq: int, kinds: Collection[str]) -> tuple[str, str, str | None] | None:
        """Direction, id text and id type of row ``seq`` when it is one of ``kinds`` and has an id."""
        found = self._conn.execute(
            "SELECT kind, direction, msg_id, id_type FROM messages WHERE seq = ?", (seq,)
        ).fetchone()
        if found is None or found[0] not in kinds or found[2] is None:
            return None
        _, direction, msg_id, id_type = found
        return direction, msg_id, id_type

    def _select(
        self, where: str, params: list[object], limit: int, offset: int, raw_limit: int | None
    ) -> list[RecordRow]:
        # Pick the page's seqs first, then read only those rows: the skipped rows and the sort
        # never touch payloads.
        if raw_limit is None:
            columns = COLUMNS.format(raw="raw")
        else:
            columns = COLUMNS.format(raw="substr(raw, 1, ?)")
            params = [max(0, raw_limit), *params]
        sql = (
            f"SELECT {columns} FROM messages WHERE seq IN "
            f"(SELECT seq FROM messages WHERE {where} ORDER BY seq LIMIT ? OFFSET ?) ORDER BY seq"
        )
        return [_record_row(r) for r in self._conn.execute(sql, [*params, max(0, limit), max(0, offset)])]

    @staticmethod
    def _summary_where(f: RecordFilter) -> tuple[str, list[object]]:
        clauses: list[str] = []
        params: list[object] = []
        for column, values in (("kind", f.kinds), ("direction", f.directions), ("method", f.methods)):
            if values is not None:
                _add_in(clauses, params, column, _texts(values))
        if f.diagnostics_only:
            clauses.append("has_diag = 1")
        return " AND ".join(clauses) or "1", params

    def _use_indexes(self, f: RecordFilter, wanted: int | None, total: int) -> bool:
        """Whether finding the first ``wanted`` matches (``None``: all) is cheaper through the
        kind/method/diagnostics indexes (read every indexed match, then sort) than by walking the
        table in seq order until enough rows matched. The summary table has the numbers."""
        if f.has_text() or (f.kinds is None and f.methods is None and not f.diagnostics_only):
            return False
        indexed = self.summary_count(RecordFilter(f.kinds, None, f.methods, None, f.diagnostics_only))
        matching = self.summary_count(RecordFilter(f.kinds, f.directions, f.methods, None, f.diagnostics_only))
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
                _add_in(clauses, params, plus + column, values)
        if f.directions is not None:
            _add_in(clauses, params, "direction", _texts(f.directions))
        if f.diagnostics_only:
            clauses.append(f"{plus}diag_count > 0")
        if f.text and f.text.strip():
            text_where, text_params = self._text_where(f.text)
            clauses.append(text_where)
            params.extend(text_params)
        return " AND ".join(clauses) or "1", params

    def _text_where(self, text: str) -> tuple[str, list[object]]:
        terms = text.split()
        if self._fts:
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
            big_likes = " AND ".join(_LIKE for _ in indexed)
            clauses.append(
                "seq IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? UNION ALL "
                f"SELECT seq FROM messages WHERE length(raw) > {FTS_MAX_BYTES} AND {big_likes})"
            )
            params.append(query)
            params.extend(_like_pattern(t) for t in indexed)
        for term in unindexed:
            clauses.append(_LIKE)
            params.append(_like_pattern(term))
        return " AND ".join(clauses), params


# -- rows out -----------------------------------------------------------------------------------------


def _record_row(r: tuple[Any, ...]) -> RecordRow:
    seq, mono, wall, direction, kind, method, msg_id, id_type, size, raw, length, diags, n, forced, latency = r
    truncated = len(raw) < length
    fields = (seq, mono, wall, direction, kind, method, msg_id, id_type, size, diags, n, forced, latency)
    return record_row(fields, _decode_raw(raw, truncated), truncated)


def record_row(fields: Sequence[Any], raw: str, truncated: bool = False) -> RecordRow:
    """A ``RecordRow`` from a message row's columns without its payload (seq, mono, wall, direction, kind, method,
    msg_id, id_type, size, diagnostics, diag_count, forced, latency) and the payload's text."""
    seq, mono, wall, direction, kind, method, msg_id, id_type, size, diags, n, forced, latency = fields
    return RecordRow(
        seq=seq,
        mono=mono,
        wall=wall,
        direction=Direction(direction),
        kind=Kind(kind),
        method=method,
        msg_id=decode_id(msg_id, id_type),
        id_type=id_type,
        size=size,
        raw=raw,
        diagnostics=_decode_diagnostics(diags),
        diag_count=n,
        forced=bool(forced),
        latency=latency,
        raw_truncated=truncated,
    )


def _export_message(kind: str, raw: bytes | str) -> Any:
    """The parsed payload of a JSON-RPC or HTTP row when it is strict JSON, else the payload text."""
    if kind in _MESSAGE_KINDS:
        try:
            return _STRICT_JSON.decode(raw if isinstance(raw, str) else raw.decode("utf-8"))
        except (ValueError, RecursionError):
            pass
    return _decode_raw(raw, False)


def _export_object(record: tuple[Any, ...]) -> dict[str, Any]:
    seq, _mono, wall, direction, kind, method, msg_id, id_type, size, raw, _length, diags, _n, forced, latency = record
    return {
        "seq": seq,
        "time": datetime.fromtimestamp(wall, UTC).isoformat(),
        "direction": direction,
        "kind": kind,
        "method": method,
        "id": decode_id(msg_id, id_type),
        "size": size,
        "latency": latency,
        "forced": bool(forced),
        "diagnostics": _decode_diagnostics(diags),
        "message": _export_message(kind, raw),
    }
