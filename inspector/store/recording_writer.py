"""Keeping a recording's write cost per flush small: bounded full-text merges and a background checkpointer.

Package-internal: used by :class:`inspector.store.recording.Recording`.

Two things used to make an occasional ``flush()`` take hundreds of milliseconds on the thread that
records (the GUI thread):

* FTS5's automatic merges. Each flush adds a segment to ``messages_fts``; with the default
  ``automerge`` a commit could merge many segments, and a level reaching ``crisismerge`` segments
  was merged all at once. A writable recording turns automatic merging off and makes every flush do
  a bounded amount of merge work instead (steps of ``'merge', MERGE_PAGES`` for at most ``MERGE_BUDGET``
  seconds, in the flush's transaction), with
  a higher ``crisismerge`` kept only as a safety net. Search speed is unchanged in practice: the
  incremental merges keep up with the flushes, so the number of segments stays small.
* WAL checkpoints. With the default ``wal_autocheckpoint`` the commit that grows the WAL past
  1000 pages copies it into the database file and syncs it. The recording's connection turns
  that off and a :class:`Checkpointer` thread, with its own connection, runs passive checkpoints
  after flushes (SQLite releases the GIL while it works, and a passive checkpoint never blocks
  the writer or readers).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from pathlib import Path
from typing import Final

__all__ = ["CRISIS_MERGE", "MERGE_BUDGET", "MERGE_PAGES", "Checkpointer", "configure_fts_merging", "merge_step"]

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
