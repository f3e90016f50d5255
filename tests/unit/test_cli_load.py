"""``--load`` statistics and the concurrent runner (no server: the call is a fake coroutine)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from inspector.cli.load import LoadRun, latency_summary, percentile, run_load, summarize


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50
    assert percentile(values, 90) == 90
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile(values, 0) == 1
    assert percentile([7.0], 99) == 7.0
    with pytest.raises(ValueError):
        percentile([], 50)


def test_latency_summary_in_ms() -> None:
    summary = latency_summary([0.004, 0.001, 0.002, 0.003])
    assert summary == {"min": 1.0, "mean": 2.5, "p50": 2.0, "p90": 4.0, "p99": 4.0, "max": 4.0}
    assert latency_summary([]) == dict.fromkeys(("min", "mean", "p50", "p90", "p99", "max"))


def test_summary_field_names_and_order() -> None:
    run = LoadRun(tool="echo", concurrency=4, requests=10, ok=8, tool_errors=1, errors=1, elapsed=0.5,
                  latencies=[0.01] * 10)  # fmt: skip
    summary = summarize(run)
    assert list(summary) == [
        "tool", "concurrency", "requests", "ok", "toolErrors", "errors", "elapsedMs", "throughput", "latencyMs",
    ]  # fmt: skip
    assert list(summary["latencyMs"]) == ["min", "mean", "p50", "p90", "p99", "max"]
    assert summary["elapsedMs"] == 500.0
    assert summary["throughput"] == 20.0
    assert summarize(LoadRun(tool="t", concurrency=1, requests=1))["throughput"] == 0.0


def test_runner_counts_and_respects_concurrency() -> None:
    in_flight = 0
    peak = 0
    calls = 0

    async def call() -> dict[str, Any]:
        nonlocal in_flight, peak, calls
        calls += 1
        n = calls
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.001)
        in_flight -= 1
        if n % 10 == 0:
            raise RuntimeError("boom")
        return {"content": [], "isError": n % 5 == 0}

    run = asyncio.run(run_load(call, tool="t", concurrency=4, requests=50))
    assert calls == 50
    assert peak == 4
    assert (run.ok, run.tool_errors, run.errors) == (40, 5, 5)
    assert len(run.latencies) == 50
    assert run.elapsed > 0
    assert run.fatal is None


def test_concurrency_above_requests_is_capped() -> None:
    async def call() -> dict[str, Any]:
        return {}

    run = asyncio.run(run_load(call, tool="t", concurrency=64, requests=3))
    assert run.ok == 3 and run.completed == 3


def test_fatal_error_stops_new_calls() -> None:
    calls = 0

    class Gone(Exception):
        pass

    async def call() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        n = calls
        await asyncio.sleep(0)
        if n >= 3:
            raise Gone("server exited")
        return {}

    run = asyncio.run(run_load(call, tool="t", concurrency=2, requests=1000, is_fatal=lambda e: isinstance(e, Gone)))
    assert isinstance(run.fatal, Gone)
    assert calls < 10
    assert run.ok == 2
