"""``--load``: call one tool over and over, N calls in flight, then summarise latency, throughput and errors.

The run is bounded by a duration (``--load-duration``, 10 s when no ``--load-requests`` is given) and/or a
number of calls started (``--load-requests``); ``--load-rate`` spreads the starts evenly (at most N a second).
When a bound is reached no call is started any more, and the calls in flight finish. The summary has the
official inspector CLI's shape, then our extra field ``stoppedBy``::

    {"tool", "concurrency", "durationMs"?, "requestLimit"?, "rate"?, "requests", "ok", "toolErrors", "errors",
     "errorRate", "elapsedMs", "throughput", "latencyMs": {"min", "mean", "p50", "p90", "p99", "max"} | null,
     "errorMessages": [{"message", "count"}], "stoppedBy"}

``requests`` counts the calls that completed; ``errors`` the calls that failed (no result: a JSON-RPC error, a
timeout, the connection gone), grouped by message in ``errorMessages`` (the most frequent first, at most
:data:`MAX_ERROR_KINDS` messages, the rest counted under ``(other)``). Times are milliseconds rounded to two
places, ``errorRate`` to four.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from inspector.cli.load_options import LoadBounds

__all__ = [
    "MAX_ERROR_KINDS",
    "OTHER_ERRORS",
    "REAL_CLOCK",
    "Clock",
    "ErrorTally",
    "LoadRun",
    "latency_summary",
    "percentile",
    "render_human",
    "run_load",
    "summarize",
]

MAX_ERROR_KINDS: Final = 10
"""Distinct error messages kept in ``errorMessages``; later new messages are counted under :data:`OTHER_ERRORS`."""
OTHER_ERRORS: Final = "(other)"

StopReason = Literal["requestLimit", "duration", "connectionLost"]


class Clock(Protocol):
    """Monotonic seconds and a sleep: the real one, or a fake one in tests."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class _RealClock:
    def now(self) -> float:
        return time.perf_counter()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


REAL_CLOCK: Final[Clock] = _RealClock()


# --- numbers -------------------------------------------------------------------------------------------------


def _round(value: float, places: int = 2) -> float | int:
    """Half-up rounding (as JavaScript's Math.round), a whole number printed without ``.0``."""
    scale = 10**places
    rounded = math.floor(value * scale + 0.5) / scale
    return int(rounded) if rounded.is_integer() else rounded


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of an already sorted, non-empty sequence."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    rank = math.ceil(pct / 100 * len(sorted_values))
    return sorted_values[min(max(rank, 1), len(sorted_values)) - 1]


def latency_summary(latencies_ms: Sequence[float]) -> dict[str, float | int] | None:
    """min/mean/p50/p90/p99/max of latencies in milliseconds; None when no call completed."""
    if not latencies_ms:
        return None
    ordered = sorted(latencies_ms)
    return {
        "min": _round(ordered[0]),
        "mean": _round(sum(ordered) / len(ordered)),
        "p50": _round(percentile(ordered, 50)),
        "p90": _round(percentile(ordered, 90)),
        "p99": _round(percentile(ordered, 99)),
        "max": _round(ordered[-1]),
    }


class ErrorTally:
    """Failed calls counted by message: the first :data:`MAX_ERROR_KINDS` distinct messages, then ``(other)``."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.other = 0

    def add(self, message: str) -> None:
        if message in self.counts:
            self.counts[message] += 1
        elif len(self.counts) < MAX_ERROR_KINDS:
            self.counts[message] = 1
        else:
            self.other += 1

    def entries(self) -> list[dict[str, Any]]:
        """``[{"message", "count"}]``, the most frequent first (ties in order of first appearance)."""
        listed = sorted(self.counts.items(), key=lambda item: -item[1])
        out: list[dict[str, Any]] = [{"message": message, "count": count} for message, count in listed]
        if self.other:
            out.append({"message": OTHER_ERRORS, "count": self.other})
        return out


# --- the run -------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class LoadRun:
    """The raw outcome of a load run."""

    tool: str
    bounds: LoadBounds
    ok: int = 0
    tool_errors: int = 0
    errors: int = 0
    started: int = 0
    elapsed: float = 0.0
    """Seconds from the first start to the end of the last call."""
    latencies: list[float] = field(default_factory=list)
    """Seconds per completed call (failed ones too)."""
    tally: ErrorTally = field(default_factory=ErrorTally)
    fatal: BaseException | None = None
    """The error that stopped the run early (the connection is gone), if any."""
    stopped_by: StopReason = "requestLimit"

    @property
    def completed(self) -> int:
        return self.ok + self.tool_errors + self.errors


def summarize(run: LoadRun) -> dict[str, Any]:
    """The JSON summary printed by ``--load`` (the official CLI's fields, in its order, then ``stoppedBy``)."""
    bounds = run.bounds
    out: dict[str, Any] = {"tool": run.tool, "concurrency": bounds.concurrency}
    if bounds.duration is not None:
        out["durationMs"] = _number(bounds.duration * 1000)
    if bounds.requests is not None:
        out["requestLimit"] = bounds.requests
    if bounds.rate is not None:
        out["rate"] = _number(bounds.rate)
    completed = run.completed
    elapsed_ms = run.elapsed * 1000
    out.update(
        requests=completed,
        ok=run.ok,
        toolErrors=run.tool_errors,
        errors=run.errors,
        errorRate=_round((run.tool_errors + run.errors) / completed, 4) if completed else 0,
        elapsedMs=_round(elapsed_ms),
        throughput=_round(completed * 1000 / elapsed_ms) if elapsed_ms > 0 else 0,
        latencyMs=latency_summary([seconds * 1000 for seconds in run.latencies]),
        errorMessages=run.tally.entries(),
        stoppedBy=run.stopped_by,
    )
    return out


_SLOT_TOLERANCE = 1e-6  # seconds: rate slots are sums of 1/rate, which may land a hair before the deadline


def _message(exc: BaseException) -> str:
    return str(exc).strip() or type(exc).__name__


async def run_load(
    call: Callable[[], Awaitable[Any]],
    *,
    tool: str,
    bounds: LoadBounds,
    is_fatal: Callable[[BaseException], bool] = lambda exc: False,
    describe: Callable[[BaseException], str] = _message,
    clock: Clock = REAL_CLOCK,
) -> LoadRun:
    """Call ``call`` repeatedly, at most ``bounds.concurrency`` at once, until a bound is reached.

    A result with ``isError: true`` counts as a tool error, an exception as an error (by its message). A fatal
    exception (the connection is gone) stops starting new calls. The calls in flight always finish.
    ``describe`` gives the message an exception is counted under in ``errorMessages``.
    """
    run = LoadRun(tool=tool, bounds=bounds)
    start = clock.now()
    deadline = math.inf if bounds.duration is None else start + bounds.duration
    interval = 0.0 if bounds.rate is None else 1.0 / bounds.rate
    next_start = start
    turn = asyncio.Lock()  # one worker at a time decides whether (and when) the next call starts

    async def claim() -> bool:
        nonlocal next_start
        async with turn:
            while True:
                if run.fatal is not None:
                    run.stopped_by = "connectionLost"
                    return False
                if bounds.requests is not None and run.started >= bounds.requests:
                    run.stopped_by = "requestLimit"
                    return False
                now = clock.now()
                scheduled = max(next_start, now)
                # scheduled >= now, so this covers "now is past the deadline" too; a slot that falls on the
                # deadline is past it, whatever float sums made of the slot times
                if scheduled >= deadline - _SLOT_TOLERANCE:
                    run.stopped_by = "duration"
                    return False
                if scheduled <= now:
                    run.started += 1
                    # on schedule: the next slot is one interval later; late (idle): one interval from now
                    next_start = next_start + interval if now - next_start < interval else now + interval
                    return True
                await clock.sleep(scheduled - now)

    async def worker() -> None:
        while await claim():
            began = clock.now()
            try:
                result = await call()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                run.latencies.append(clock.now() - began)
                run.errors += 1
                run.tally.add(describe(exc))
                if run.fatal is None and is_fatal(exc):
                    run.fatal = exc
                continue
            run.latencies.append(clock.now() - began)
            if isinstance(result, dict) and result.get("isError") is True:
                run.tool_errors += 1
            else:
                run.ok += 1

    workers = bounds.concurrency if bounds.requests is None else min(bounds.concurrency, bounds.requests)
    await asyncio.gather(*(worker() for _ in range(workers)))
    if run.fatal is not None:
        run.stopped_by = "connectionLost"
    run.elapsed = clock.now() - start
    return run


# --- --format human ------------------------------------------------------------------------------------------


def render_human(summary: dict[str, Any]) -> str:
    """A readable summary (``--format human``); the strings that come from the server are escaped by the caller."""
    lines = [
        f"{summary['tool']}: {summary['requests']} calls in {summary['elapsedMs']} ms "
        f"({summary['throughput']}/s, concurrency {summary['concurrency']}, stopped by {summary['stoppedBy']})",
        f"  ok {summary['ok']}, tool errors {summary['toolErrors']}, errors {summary['errors']} "
        f"(error rate {summary['errorRate']:.2%})",
    ]
    latency = summary["latencyMs"]
    if latency is not None:
        lines.append("  latency ms: " + ", ".join(f"{key} {value}" for key, value in latency.items()))
    for entry in summary["errorMessages"]:
        lines.append(f"  {entry['count']} x {entry['message']}")
    return "\n".join(lines)
