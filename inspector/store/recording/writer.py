"""Writing a recording off the recording thread: a writer thread, bounded full-text merges and a checkpointer.

Package-internal: used by :class:`inspector.store.recording.Recording`.

The thread that records (the GUI thread, the CLI's event loop) only appends rows to a list; whole
batches go to a :class:`BatchWriter`, whose thread commits them with its own SQLite connection, in
order, one transaction for everything queued at that moment (a writer that falls behind catches up
with bigger transactions). Readers use other connections: in WAL mode they see every committed
transaction and never wait for the writer. ``BatchWriter.wait()`` is the barrier for a reader that
must see everything recorded. A batch that fails stays queued (in front) and is retried with the next
one or after a pause; the failure is kept for the recording to report.

Two more things keep each write short, even though they no longer run on the recording thread
(a long transaction delays what readers see, and its Python parts hold the GIL):

* FTS5's automatic merges. Each commit adds a segment to ``messages_fts``; with the default
  ``automerge`` a commit could merge many segments, and a level reaching ``crisismerge`` segments
  was merged all at once. A writable recording turns automatic merging off and makes every commit do
  a bounded amount of merge work instead (steps of ``'merge', MERGE_PAGES`` for at most ``MERGE_BUDGET``
  seconds, in the same transaction), with a higher ``crisismerge`` kept only as a safety net. Search
  speed is unchanged in practice: the incremental merges keep up, so the number of segments stays small.
* WAL checkpoints. With the default ``wal_autocheckpoint`` the commit that grows the WAL past
  1000 pages copies it into the database file and syncs it. The writer's connection turns
  that off and a :class:`Checkpointer` thread, with its own connection, runs passive checkpoints
  after commits (SQLite releases the GIL while it works, and a passive checkpoint never blocks
  the writer or readers).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from inspector.store.recording.schema import (
    COUNT_RANGE,
    INDEX_RANGE,
    INSERT_LINK,
    INSERT_MESSAGE,
    INSERT_ROUND,
    Row,
    upgrade_schema,
)

__all__ = [
    "CRISIS_MERGE",
    "MERGE_BUDGET",
    "MERGE_PAGES",
    "Batch",
    "BatchWriter",
    "Checkpointer",
    "configure_fts_merging",
    "merge_step",
    "write_batches",
]

MERGE_PAGES: Final = 8
"""Leaf pages written by one incremental full-text merge step."""
MERGE_BUDGET: Final = 0.008
"""Seconds of merge steps each flush may spend (a step can take a few milliseconds on the big levels)."""
CRISIS_MERGE: Final = 64
"""Segments on one level that force a full merge of that level (the default, 16, is reached often
without automerge; the incremental merges keep levels far below this)."""
_CHECKPOINT_DELAY: Final = 0.05
"""Seconds the checkpointer waits after being woken, so that a burst of flushes costs one checkpoint."""


def configure_fts_merging(conn: sqlite3.Connection) -> None:
    """No automatic merges, a high crisis threshold (stored in the index's config, outside a transaction)."""
    conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('automerge', 0)")
    conn.execute(f"INSERT INTO messages_fts(messages_fts, rank) VALUES ('crisismerge', {CRISIS_MERGE})")


def merge_step(conn: sqlite3.Connection, budget: float = MERGE_BUDGET, pages: int = MERGE_PAGES) -> int:
    """Incremental merge work on the full-text index, inside the caller's transaction: steps of
    ``pages`` leaf pages until ``budget`` seconds are spent or nothing is left to merge. Returns
    the number of steps that did some work."""
    deadline = time.perf_counter() + budget
    steps = 0
    while True:
        before = conn.total_changes
        conn.execute(f"INSERT INTO messages_fts(messages_fts, rank) VALUES ('merge', {int(pages)})")
        # FTS5's documented test: a step that changed fewer than 2 rows found nothing to merge.
        if conn.total_changes - before < 2:
            return steps
        steps += 1
        if time.perf_counter() >= deadline:
            return steps


class Checkpointer:
    """A daemon thread that copies the WAL into the database file with passive checkpoints.

    ``poke()`` (after a commit) asks for a checkpoint and never blocks; ``stop()`` joins the thread.
    Errors are ignored: a checkpoint that fails is only retried later, and ``close()`` of the
    recording checkpoints whatever is left.
    """

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=f"recording-checkpoint-{path.name}", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        self._wake.set()

    def cancel(self) -> None:
        """Ask the thread to end without waiting for it (for a recording that was never closed)."""
        self._stopping = True
        self._wake.set()

    def stop(self) -> None:
        self.cancel()
        self._thread.join()

    def _run(self) -> None:
        try:
            while True:
                self._wake.wait()
                if self._stopping:
                    return
                # Let the burst of commits that woke us finish before copying.
                time.sleep(_CHECKPOINT_DELAY)
                self._wake.clear()
                if self._stopping:
                    return
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            self._conn.close()


_WRITER_PRAGMAS: Final = (
    "synchronous = NORMAL",
    "wal_autocheckpoint = 0",
    "temp_store = MEMORY",
    "cache_size = -16000",
)
_RETRY_DELAY: Final = 0.5
"""Seconds a writer waits after a failed write before trying again on its own."""


@dataclass(slots=True)
class Batch:
    """Rows handed to the writer at once, with what goes into the same transaction."""

    rows: list[Row]
    links: list[tuple[int, str, str]] = field(default_factory=list)
    """(http row seq, id text, id type) for the batch's HTTP rows."""
    meta: dict[str, str] = field(default_factory=dict)
    """``meta`` keys to set."""
    upgrade: int = 0
    """The schema version the file must be brought up to first (2: the batch holds the first HTTP rows, 3: the
    first later round of a multi-round-trip request); 0: none."""
    rounds: list[tuple[int, str, str, int]] = field(default_factory=list)
    """(request row seq, origin id text, origin id type, round) for the batch's later-round requests."""


def write_batches(conn: sqlite3.Connection, batches: list[Batch], *, fts: bool) -> None:
    """Commit ``batches`` in one transaction (rolled back, and the error raised, when anything fails).

    The batches' rows have consecutive seqs. Python does no work per row here (the rows are bound by
    ``executemany`` in C; the full-text index and the summary are filled in SQL from the inserted
    rows), so this thread holds the GIL only for moments: the recording thread is never kept waiting.
    """
    first = next((batch.rows[0][0] for batch in batches if batch.rows), None)
    last = next((batch.rows[-1][0] for batch in reversed(batches) if batch.rows), None)
    try:
        conn.execute("BEGIN")
        upgrade = max((batch.upgrade for batch in batches), default=0)
        if upgrade:
            upgrade_schema(conn, upgrade)
        for batch in batches:
            if batch.rows:
                conn.executemany(INSERT_MESSAGE, batch.rows)
            if batch.links:
                conn.executemany(INSERT_LINK, batch.links)
            if batch.rounds:
                conn.executemany(INSERT_ROUND, batch.rounds)
            if batch.meta:
                conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", batch.meta.items())
        if first is not None:
            if fts:
                conn.execute(INDEX_RANGE, (first, last))
                merge_step(conn)
            conn.execute(COUNT_RANGE, (first, last))
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


class BatchWriter:
    """Commits batches in order: in a thread of its own (``path`` given), or at once in ``submit`` on the
    caller's connection (``conn`` given: a database only that connection can see, such as ``:memory:``).

    ``committed_seq`` is the seq of the last row on disk. ``error`` is the text of the last failure
    while rows are still waiting because of it (``None`` once a retry succeeded). Everything but the
    thread's own work happens on the recording's thread.
    """

    def __init__(
        self,
        *,
        fts: bool,
        committed_seq: int,
        path: Path | None = None,
        conn: sqlite3.Connection | None = None,
        checkpointer: Checkpointer | None = None,
    ) -> None:
        self.committed_seq = committed_seq
        self.error: str | None = None
        self._fts = fts
        self._checkpointer = checkpointer
        self._queue: list[Batch] = []
        self._busy = False
        self._attempts = 0
        self._stopping = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        if path is None:
            assert conn is not None
            self._conn = conn
            return
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            for pragma in _WRITER_PRAGMAS:
                self._conn.execute(f"PRAGMA {pragma}")
        except sqlite3.Error:
            self._conn.close()
            raise
        self._thread = threading.Thread(target=self._run, name=f"recording-writer-{path.name}", daemon=True)
        self._thread.start()

    def submit(self, batch: Batch) -> None:
        """Queue ``batch`` behind the ones already queued; never waits for the disk (in thread mode)."""
        with self._cond:
            self._queue.append(batch)
            self._cond.notify_all()
        if self._thread is None:
            self._write_queued()

    def wait(self) -> bool:
        """Block until everything submitted is committed (True), or until an attempt that ends after this
        call failed (False; see ``error``). A writer pausing after a failure retries at once."""
        if self._thread is None:
            if self._queue:
                self._write_queued()
            return not self._queue
        with self._cond:
            start = self._attempts
            self._cond.notify_all()
            while (self._queue or self._busy) and self._thread.is_alive():
                if self.error is not None and self._attempts > start:
                    return False
                self._cond.wait()
            return not (self._queue or self._busy)

    def cancel(self) -> None:
        """Ask the thread to write what is queued (one attempt) and end, without waiting for it."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()

    def stop(self) -> None:
        """Write what is queued (one attempt), end the thread and close its connection."""
        self.cancel()
        if self._thread is not None:
            self._thread.join()

    def _write_queued(self) -> bool:
        """Commit the whole queue (called with the condition not held); whether it worked."""
        with self._cond:
            batches, self._queue = self._queue, []
            self._busy = True
        try:
            write_batches(self._conn, batches, fts=self._fts)
        except Exception as exc:  # sqlite3.Error mostly; anything else must not end the thread either
            with self._cond:
                self._queue[:0] = batches
                self.error = str(exc)
                self._attempts += 1
                self._busy = False
                self._cond.notify_all()
            return False
        last = max((batch.rows[-1][0] for batch in batches if batch.rows), default=self.committed_seq)
        with self._cond:
            self.committed_seq = max(self.committed_seq, last)
            self.error = None
            self._attempts += 1
            self._busy = False
            self._cond.notify_all()
        if self._checkpointer is not None:
            self._checkpointer.poke()
        return True

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    while not self._queue and not self._stopping:
                        self._cond.wait()
                    if not self._queue:
                        return
                    stopping = self._stopping
                if not self._write_queued():
                    if stopping:
                        return  # one last attempt only: the rows are lost and close() says so
                    with self._cond:  # pause: a new batch, a reader's wait(), stop() or time ends it
                        self._cond.wait(_RETRY_DELAY)
        finally:
            self._conn.close()
