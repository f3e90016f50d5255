"""``--load``: call one tool repeatedly with N calls in flight and summarise latency and throughput.

The summary uses the official inspector CLI's field names::

    {"tool", "concurrency", "requests", "ok", "toolErrors", "errors", "elapsedMs", "throughput",
     "latencyMs": {"min", "mean", "p50", "p90", "p99", "max"}}
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LoadRun", "latency_summary", "percentile", "run_load", "summarize"]


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of an already sorted, non-empty sequence."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    rank = math.ceil(pct / 100 * len(sorted_values))
    return sorted_values[min(max(rank, 1), len(sorted_values)) - 1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def latency_summary(latencies: Sequence[float]) -> dict[str, float | None]:
    """min/mean/p50/p90/p99/max in milliseconds (all None when nothing completed)."""
    keys = ("min", "mean", "p50", "p90", "p99", "max")
    if not latencies:
        return dict.fromkeys(keys)
    ordered = sorted(latencies)
    return {
        "min": _ms(ordered[0]),
        "mean": _ms(sum(ordered) / len(ordered)),
        "p50": _ms(percentile(ordered, 50)),
        "p90": _ms(percentile(ordered, 90)),
        "p99": _ms(percentile(ordered, 99)),
        "max": _ms(ordered[-1]),
    }


@dataclass(slots=True)
class LoadRun:
    """The raw outcome of a load run."""

    tool: str
    concurrency: int
    requests: int
    ok: int = 0
    tool_errors: int = 0
    errors: int = 0
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)
    fatal: BaseException | None = None
    """The error that stopped the run early (the connection is gone), if any."""

    @property
    def completed(self) -> int:
        return self.ok + self.tool_errors + self.errors


def summarize(run: LoadRun) -> dict[str, Any]:
    """The JSON summary printed by ``--load``."""
    throughput = run.completed / run.elapsed if run.elapsed > 0 else 0.0
    return {
        "tool": run.tool,
        "concurrency": run.concurrency,
        "requests": run.requests,
        "ok": run.ok,
        "toolErrors": run.tool_errors,
        "errors": run.errors,
        "elapsedMs": _ms(run.elapsed),
        "throughput": round(throughput, 2),
        "latencyMs": latency_summary(run.latencies),
    }


async def run_load(
    call: Callable[[], Awaitable[dict[str, Any]]],
    *,
    tool: str,
    concurrency: int,
    requests: int,
    is_fatal: Callable[[BaseException], bool] = lambda exc: False,
    clock: Callable[[], float] = time.perf_counter,
) -> LoadRun:
    """Run ``call`` ``requests`` times, at most ``concurrency`` at once.

    A result with ``isError: true`` counts as a tool error, an exception as an error. A fatal
    exception (the connection is gone) stops starting new calls; the calls in flight finish.
    """
    run = LoadRun(tool=tool, concurrency=concurrency, requests=requests)
    remaining = requests

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0 and run.fatal is None:
            remaining -= 1
            started = clock()
            try:
                result = await call()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                run.latencies.append(clock() - started)
                run.errors += 1
                if run.fatal is None and is_fatal(exc):
                    run.fatal = exc
                continue
            run.latencies.append(clock() - started)
            if isinstance(result, dict) and result.get("isError") is True:
                run.tool_errors += 1
            else:
                run.ok += 1

    begin = clock()
    await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, requests)))))
    run.elapsed = clock() - begin
    return run
