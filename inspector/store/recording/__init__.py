"""Traffic recordings: the SQLite file of one session (``database``), its schema, queries, writer and table rows.

The public names are re-exported here; ``rows`` and ``cells`` (the log view's reader) are imported from their
modules.
"""

from inspector.store.recording.database import (
    FTS_MAX_BYTES,
    MEMORY_ONLY,
    SCHEMA_VERSION,
    LogicalRequest,
    RecordFilter,
    Recording,
    RecordingError,
    RecordRow,
    Redactor,
    RequestRound,
    fts5_available,
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
