"""Values a replay expects to differ from the recording, recognised without being told (Qt-free, sans-I/O).

A response replayed against a new build carries values that are new on every run: the cursors of its pages, the
ids of the tasks it started, the progress tokens and trace context of the request, timestamps and ids in
``_meta``, the server's own identity in each 2026-07-28 result's ``_meta``. :func:`volatile_reason` says, for one
location of a response (its parts from the message's root: ``("result", "nextCursor")``) and the two values found
there, why a difference of *value* there means nothing ("cursor", "task id", "timestamp in _meta", ...), or None
when it matters. A value that appears or disappears is never volatile: only a value that changed.

:data:`MAPPED_KEYS` are the volatile values later requests send back (``cursor`` of the next page, ``taskId`` of
``tasks/get``): a replay maps the recorded value to the new one and sends the new one.
"""

from __future__ import annotations

import re
from typing import Any, Final

from inspector.protocol.envelope import SERVER_INFO_KEY, TRACE_KEYS
from inspector.protocol.jsonpath import JsonPath

__all__ = ["ERA_ENVELOPE_KEYS", "MAPPED_KEYS", "VOLATILE_KEYS", "looks_like_timestamp", "volatile_reason"]

VOLATILE_KEYS: Final[dict[str, str]] = {
    "nextCursor": "cursor",
    "cursor": "cursor",
    "progressToken": "progress token",
    "taskId": "task id",
    "requestState": "request state",
    "createdAt": "timestamp",
    "lastUpdatedAt": "timestamp",
}
"""Keys whose (scalar) value is new on every run, wherever they are."""

MAPPED_KEYS: Final = frozenset({"nextCursor", "taskId"})
"""Volatile keys of a response whose recorded value later requests of the recording send back."""

_META_KEYS: Final[dict[str, str]] = {
    SERVER_INFO_KEY: "the server's identity (compare builds with --diff)",
    "io.modelcontextprotocol/related-task": "task id",
    **{key: "trace context" for key in TRACE_KEYS},
}
"""Keys of a ``_meta`` object whose value is volatile (and everything below them)."""

ERA_ENVELOPE_KEYS: Final = frozenset({"resultType", "cacheScope", "ttlMs"})
"""Keys of a result that only 2026-07-28 writes: ignored when the recording and the target are of different eras."""

_TIMESTAMP: Final = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?")
_ID_KEY: Final = re.compile(r"(?:^|[a-z_-])(?:id|Id|ID)$|^(?:id|uuid|nonce|etag)$", re.IGNORECASE)
_TIME_KEY: Final = re.compile(r"time|timestamp|date|At$|^ts$|elapsed|duration", re.IGNORECASE)
_UUID: Final = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_EPOCH_SECONDS: Final = (946_684_800, 4_102_444_800)
"""2000-01-01 .. 2100-01-01, in seconds (milliseconds: times 1000)."""


def looks_like_timestamp(value: Any) -> bool:
    """An ISO 8601 date or date-time string, or a number of seconds / milliseconds since 1970 in this century."""
    if isinstance(value, str):
        return _TIMESTAMP.fullmatch(value.strip()) is not None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    low, high = _EPOCH_SECONDS
    return low <= value <= high or low * 1000 <= value <= high * 1000


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float)


def _meta_reason(inside: JsonPath, old: Any, new: Any) -> str | None:
    """Why a difference at ``inside`` (the parts below a ``_meta`` object) is volatile."""
    first = inside[0]
    if isinstance(first, str) and first in _META_KEYS:
        return _META_KEYS[first]
    key = next((part for part in reversed(inside) if isinstance(part, str)), "")
    if looks_like_timestamp(old) and looks_like_timestamp(new):
        return "timestamp in _meta"
    if key and _TIME_KEY.search(key) and isinstance(old, int | float | str) and isinstance(new, int | float | str):
        return "timestamp in _meta"
    if key and _ID_KEY.search(key):
        return "id in _meta"
    if isinstance(old, str) and isinstance(new, str) and _UUID.fullmatch(old) and _UUID.fullmatch(new):
        return "id in _meta"
    return None


def volatile_reason(
    parts: JsonPath, old: Any, new: Any, *, eras_differ: bool = False, presence: bool = False
) -> str | None:
    """Why the values ``old`` (recorded) and ``new`` (now) at ``parts`` may differ, or None when the difference
    matters. ``eras_differ``: the recording and the target speak different eras (the 2026-07-28 envelope of each
    result is then ignored too, even where it is on one side only). ``presence``: the value is on one side only
    (then only the era's envelope is volatile)."""
    last = parts[-1] if parts else None
    if not presence and isinstance(last, str) and last in VOLATILE_KEYS and _scalar(old) and _scalar(new):
        return VOLATILE_KEYS[last]
    for position, part in enumerate(() if presence else parts):
        if part == "_meta" and position + 1 < len(parts):
            reason = _meta_reason(parts[position + 1 :], old, new)
            if reason is not None:
                return reason
    if eras_differ and len(parts) >= 2 and parts[0] == "result":
        second = parts[1]
        if isinstance(second, str) and (second in ERA_ENVELOPE_KEYS or second == "_meta"):
            return "2026-07-28 envelope (the eras differ)"
    return None
