"""How a recording is stored: the SQLite schema, its statements, and ids and text as stored.

Package-internal: the public names live in :mod:`inspector.store.recording`.

Schema (version 3, also in ``PRAGMA user_version``)::

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

    http_links(http_seq, msg_id, id_type)             -- version 2; WITHOUT ROWID, PRIMARY KEY (msg_id,
                                                      -- id_type, http_seq): the JSON-RPC ids each "http"
                                                      -- row (an HTTP exchange) carried

    request_rounds(seq, origin_id, origin_type, round)  -- version 3; seq INTEGER PRIMARY KEY: the "out"
                                                      -- request row of a multi-round-trip request's later
                                                      -- round (2, 3, ...), the id of its first round (text
                                                      -- and type, as msg_id / id_type) and its number
    INDEX request_rounds_origin ON request_rounds(origin_id, origin_type)

Versions: 1 has no ``http_links`` and no rows of kind ``"http"``; 2 adds them; 3 adds ``request_rounds``.
Every version has the tables of the versions before it. A new file starts as version 1 and is upgraded
(in the transaction that writes them) to 2 when its first HTTP exchange is recorded, and to 3 when the
first later round of a multi-round-trip request (2026-07-28, ``input_required`` answered by a retry under
a new id) is recorded. So a session without either stays readable by releases that only know version 1,
while one with rows they could not show is refused by them as "written by a newer version". All three
versions are read (a file without ``request_rounds`` has no multi-round requests).

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
* An HTTP exchange is a row of kind ``"http"`` (direction ``"out"``: we made the request) whose payload is
  the exchange's JSON summary (``HttpExchange.to_json()``: method, url, status, masked headers, timing,
  SSE event id and retry, note, carried ids); ``http_links`` finds the exchanges that carried a message.
* A multi-round-trip request is one logical request sent as several JSON-RPC requests, each with its own
  id. Only the later rounds get a ``request_rounds`` row (the recording thread does nothing extra for any
  other message); the first round is the latest "out" request with the origin id before them, the rounds
  of one logical request are the ``request_rounds`` rows naming that origin up to the next "out" request
  that reuses the id, and each round's response pairs with its request by id as usual.
* WAL journal with ``synchronous=NORMAL`` while recording; ``close()`` switches the file back to
  a rollback journal so that a finished recording is one self-contained file.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Final

from inspector import __version__

__all__ = [
    "BASE_VERSION",
    "COLUMNS",
    "COUNT_RANGE",
    "FTS_MAX_BYTES",
    "HTTP_VERSION",
    "INDEX_RANGE",
    "INSERT_LINK",
    "INSERT_MESSAGE",
    "INSERT_ROUND",
    "ROUNDS_VERSION",
    "SCHEMA_VERSION",
    "Row",
    "encode_id",
    "fts5_available",
    "initialise",
    "table_names",
    "upgrade_schema",
]

BASE_VERSION: Final = 1
"""What a new file starts as."""
HTTP_VERSION: Final = 2
"""Adds ``http_links`` (and rows of kind ``"http"``)."""
ROUNDS_VERSION: Final = 3
"""Adds ``request_rounds`` (the later rounds of multi-round-trip requests)."""
SCHEMA_VERSION: Final = ROUNDS_VERSION
"""The newest version this code reads and writes."""
FTS_MAX_BYTES: Final = 1 << 20
"""How much of each payload the full-text index sees; larger rows are searched by substring."""

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
_LINKS_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS http_links(http_seq INTEGER NOT NULL, msg_id TEXT NOT NULL, id_type TEXT NOT NULL, "
    "PRIMARY KEY (msg_id, id_type, http_seq)) WITHOUT ROWID"
)
INSERT_LINK: Final = "INSERT OR IGNORE INTO http_links VALUES (?, ?, ?)"
_ROUNDS_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS request_rounds(seq INTEGER PRIMARY KEY, origin_id TEXT NOT NULL, "
    "origin_type TEXT NOT NULL, round INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS request_rounds_origin ON request_rounds(origin_id, origin_type)",
)
INSERT_ROUND: Final = "INSERT OR REPLACE INTO request_rounds VALUES (?, ?, ?, ?)"

INSERT_MESSAGE: Final = "INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INDEX_RANGE: Final = (
    f"INSERT INTO messages_fts(rowid, body) SELECT seq, CAST(substr(raw, 1, {FTS_MAX_BYTES}) AS TEXT) "
    "FROM messages WHERE seq BETWEEN ? AND ?"
)
"""Full-text index the rows ``seq`` in [?, ?] (just inserted): the first ``FTS_MAX_BYTES`` of each payload."""
COUNT_RANGE: Final = (
    "INSERT INTO counts SELECT kind, direction, coalesce(method, ''), diag_count > 0, count(*) "
    "FROM messages WHERE seq BETWEEN ? AND ? GROUP BY 1, 2, 3, 4 "
    "ON CONFLICT (kind, direction, method, has_diag) DO UPDATE SET n = n + excluded.n"
)
"""Add the rows ``seq`` in [?, ?] (just inserted) to the running summary."""
COLUMNS: Final = (
    "seq, mono, wall, direction, kind, method, msg_id, id_type, size, {raw}, length(raw), diagnostics, diag_count, "
    "forced, latency"
)

# A buffered row, in the column order of ``messages``.
Row = tuple[
    int, float, float, str, str, str | None, str | None, str | None, int, bytes, str | None, int, int, float | None
]


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


def table_names(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def initialise(conn: sqlite3.Connection, fts: bool, label: str | None, target: str | None) -> None:
    """Create the tables (and, with ``fts``, the full-text index) and fill ``meta``, in one transaction."""
    meta = {
        "schema_version": str(BASE_VERSION),
        "app_version": __version__,
        "created_wall": repr(time.time()),
        "created_mono": repr(time.monotonic()),
        "label": label or "",
        "target": target or "",
        "fts": "fts5" if fts else "none",
        "fts_max_bytes": str(FTS_MAX_BYTES),
    }
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    try:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        if fts:
            conn.execute(_FTS_SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        conn.execute(f"PRAGMA user_version = {BASE_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def upgrade_schema(conn: sqlite3.Connection, version: int) -> None:
    """Bring the file up to ``version`` (2 or 3) inside the caller's transaction: the tables of every version
    up to it (those already there are kept) and the new version number. Never lowers the version."""
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= version:
        return
    if version >= HTTP_VERSION:
        conn.execute(_LINKS_SCHEMA)
    if version >= ROUNDS_VERSION:
        for statement in _ROUNDS_SCHEMA:
            conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(version),))
    conn.execute(f"PRAGMA user_version = {int(version)}")


def encode_id(value: object) -> tuple[str | None, str | None]:
    """A JSON-RPC id as stored: its text and its type (``"int"``, ``"str"``, ``"json"``)."""
    if value is None:
        return None, None
    if isinstance(value, str):
        return value, "str"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), "int"
    return json.dumps(value, separators=(",", ":"), default=repr), "json"


def decode_id(text: str | None, id_type: str | None) -> int | str | None:
    """``encode_id`` undone: the stored id back to its JSON type (``1`` and ``"1"`` differ; an id stored as other
    JSON, which JSON-RPC does not allow, stays its text)."""
    if text is None or id_type == "str":
        return text
    if id_type == "int":
        return int(text)
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, int | str) and not isinstance(value, bool) else text
