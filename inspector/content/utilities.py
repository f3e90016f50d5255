"""Logic of the Utilities panel, without Qt: server log entries (``notifications/message``) and ping history.

Log entries are kept compactly: the ``data`` payload itself up to ``DATA_KEEP_LIMIT`` characters of JSON (bigger
payloads keep a truncated text; the full message is in the traffic log), plus a short one-line ``text`` used for
the table and for searching. ``LogFilter`` decides which entries a view shows (a minimum level and a search
needle); entries with a level outside the RFC 5424 set are always shown and carry a ``problem``.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.methods import LOG_LEVELS

__all__ = [
    "DATA_KEEP_LIMIT",
    "LOG_LEVELS",
    "TEXT_LIMIT",
    "LogEntry",
    "LogFilter",
    "PingHistory",
    "PingSample",
    "format_rtt",
    "level_rank",
    "matching_rows",
    "parse_log_message",
]

DATA_KEEP_LIMIT: Final = 16_384
"""Characters of compact JSON above which an entry keeps a truncated text instead of the data itself."""
TEXT_LIMIT: Final = 1_000
"""Characters of the one-line text kept per entry (shown in the table, searched)."""


def level_rank(level: object) -> int:
    """0 (debug) .. 7 (emergency); -1 for anything that is not a standard level."""
    return LOG_LEVELS.index(level) if isinstance(level, str) and level in LOG_LEVELS else -1


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    time: float
    """Wall-clock receive time (``time.time()``)."""
    level: str
    rank: int
    logger: str | None
    data: Any
    """The payload, or (when it was too big to keep) its JSON text cut at ``DATA_KEEP_LIMIT``."""
    text: str
    """One line: strings as sent (newlines collapsed), anything else as compact JSON; at most TEXT_LIMIT."""
    truncated: bool = False
    problem: str | None = None


def _one_line(text: str) -> str:
    head = text[: TEXT_LIMIT * 2]
    return " ".join(head.split())[:TEXT_LIMIT]


def _compact(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def parse_log_message(params: Any, seq: int, received_at: float | None = None) -> LogEntry:
    """A ``LogEntry`` from the params of a ``notifications/message`` (malformed params give a ``problem``)."""
    at = time.time() if received_at is None else received_at
    if not isinstance(params, dict):
        return LogEntry(seq, at, "?", -1, None, params, _one_line(_compact(params)), problem="params is not an object")
    problems: list[str] = []
    level = params.get("level")
    rank = level_rank(level)
    if rank < 0:
        problems.append(f"level {level!r} is not one of {', '.join(LOG_LEVELS)}")
    logger = params.get("logger")
    if logger is not None and not isinstance(logger, str):
        problems.append("logger should be a string")
        logger = _compact(logger)
    if "data" not in params:
        problems.append('"data" is missing')
    data = params.get("data")
    compact = data if isinstance(data, str) else _compact(data)
    truncated = len(compact) > DATA_KEEP_LIMIT
    kept: Any = compact[:DATA_KEEP_LIMIT] if truncated else data
    return LogEntry(
        seq=seq,
        time=at,
        level=level if isinstance(level, str) else _compact(level),
        rank=rank,
        logger=logger,
        data=kept,
        text=_one_line(compact),
        truncated=truncated,
        problem="; ".join(problems) or None,
    )


@dataclass(frozen=True, slots=True)
class LogFilter:
    """Which entries to show: at or above ``min_rank`` and containing ``needle`` (case-insensitive)."""

    min_rank: int = 0
    needle: str = ""

    @property
    def is_empty(self) -> bool:
        return self.min_rank <= 0 and not self.needle

    def accepts(self, entry: LogEntry) -> bool:
        if 0 <= entry.rank < self.min_rank:
            return False
        if not self.needle:
            return True
        needle = self.needle.lower()
        return needle in entry.text.lower() or (entry.logger is not None and needle in entry.logger.lower())


def matching_rows(entries: Sequence[LogEntry], log_filter: LogFilter, start: int = 0) -> list[int]:
    """Indexes (from ``start``) of the entries the filter accepts."""
    if log_filter.is_empty:
        return list(range(start, len(entries)))
    accepts = log_filter.accepts
    return [i for i in range(start, len(entries)) if accepts(entries[i])]


@dataclass(frozen=True, slots=True)
class PingSample:
    time: float
    rtt: float | None
    """Seconds, None when the ping failed."""
    error: str | None = None


class PingHistory:
    """The last ``size`` pings, newest last, with statistics over the successful ones."""

    def __init__(self, size: int = 50) -> None:
        self.samples: deque[PingSample] = deque(maxlen=size)

    def add(self, rtt: float | None, error: str | None = None, at: float | None = None) -> PingSample:
        sample = PingSample(time.time() if at is None else at, rtt, error)
        self.samples.append(sample)
        return sample

    def clear(self) -> None:
        self.samples.clear()

    def _rtts(self) -> list[float]:
        return [s.rtt for s in self.samples if s.rtt is not None]

    @property
    def last(self) -> PingSample | None:
        return self.samples[-1] if self.samples else None

    def stats(self) -> tuple[float, float, float] | None:
        """(min, mean, max) seconds over the successful pings; None when there were none."""
        rtts = self._rtts()
        if not rtts:
            return None
        return min(rtts), sum(rtts) / len(rtts), max(rtts)

    def failures(self) -> int:
        return sum(1 for s in self.samples if s.rtt is None)

    def extend(self, samples: Iterable[PingSample]) -> None:
        self.samples.extend(samples)


def format_rtt(seconds: float) -> str:
    """``0.4 ms``, ``12 ms``, ``1.25 s``."""
    ms = seconds * 1000
    if ms < 10:
        return f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{seconds:.2f} s"
