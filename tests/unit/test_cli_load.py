"""``--load``: the statistics, the summary's shape, and the runner's bounds (concurrency, duration, request
count, rate) on a fake clock (no server: the call is a coroutine that takes virtual time)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from inspector.cli.args import CliOptions
from inspector.cli.errors import UsageError
from inspector.cli.load import (
    MAX_ERROR_KINDS,
    ErrorTally,
    LoadRun,
    latency_summary,
    percentile,
    render_human,
    run_load,
    summarize,
)
from inspector.cli.load_options import LoadBounds, bounds_of, check_load

T = TypeVar("T")


class FakeClock:
    """Virtual seconds: ``sleep`` parks the caller until :func:`drive` moves time to its wake-up."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start
        self.sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.sleepers, (self.t + max(seconds, 0.0), next(self._seq), future))
        await future


def drive(clock: FakeClock, make: Callable[[], Awaitable[T]]) -> T:
    """Run ``make()`` to its end, moving the fake clock to the next wake-up whenever nothing else can run."""

    async def main() -> T:
        task = asyncio.ensure_future(make())
        while True:
            for _ in range(200):  # let every runnable coroutine run until all of them wait on the clock
                await asyncio.sleep(0)
            if task.done():
                return task.result()
            assert clock.sleepers, "deadlock: nothing sleeps on the clock and the run is not over"
            wake, _, future = heapq.heappop(clock.sleepers)
            clock.t = max(clock.t, wake)
            future.set_result(None)

    return asyncio.run(main())


def fake_call(
    clock: FakeClock, seconds: float | Callable[[int], float], outcome: Callable[[int], Any] = lambda n: {"content": []}
) -> Any:
    """A call that takes ``seconds`` of virtual time (``seconds(n)`` for the n-th); ``outcome(n)`` is the n-th
    result, or raises."""
    starts: list[float] = []

    async def call() -> Any:
        n = len(starts)
        starts.append(clock.now())
        await clock.sleep(seconds(n) if callable(seconds) else seconds)
        return outcome(n)

    call.starts = starts  # type: ignore[attr-defined]
    return call


# --- statistics and the summary ----------------------------------------------------------------------------


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


def test_latency_summary_rounds_half_up_to_two_places() -> None:
    summary = latency_summary([4.0, 1.0, 2.0, 3.0])
    assert summary == {"min": 1, "mean": 2.5, "p50": 2, "p90": 4, "p99": 4, "max": 4}
    assert all(type(summary[key]) is int for key in ("min", "p50", "max"))  # printed as 1, not 1.0
    assert latency_summary([0.125, 0.135])["min"] == 0.13  # type: ignore[index]  # half up, not to even
    assert latency_summary([]) is None  # no call completed: null, as the official CLI


def test_error_tally_keeps_ten_messages_then_counts_the_rest_as_other() -> None:
    tally = ErrorTally()
    for n in range(MAX_ERROR_KINDS + 5):
        tally.add(f"failure {n}")
    tally.add("failure 3")
    tally.add("failure 3")
    tally.add("failure 12")  # arrived after the cap: (other), even when repeated
    entries = tally.entries()
    assert entries[0] == {"message": "failure 3", "count": 3}
    assert [e["message"] for e in entries[1:MAX_ERROR_KINDS]] == [
        f"failure {n}" for n in range(MAX_ERROR_KINDS) if n != 3
    ]  # ties keep the order they first appeared in
    assert entries[-1] == {"message": "(other)", "count": 6}
    assert len(entries) == MAX_ERROR_KINDS + 1
    assert ErrorTally().entries() == []


OFFICIAL_KEYS = ["tool", "concurrency", "requests", "ok", "toolErrors", "errors", "errorRate", "elapsedMs",
                 "throughput", "latencyMs", "errorMessages"]  # fmt: skip


def test_summary_has_the_official_fields_in_their_order_then_ours() -> None:
    run = LoadRun(tool="echo", bounds=LoadBounds(4, requests=10), ok=7, tool_errors=1, errors=2, elapsed=0.5,
                  latencies=[0.01] * 10)  # fmt: skip
    run.tally.add("boom")
    run.tally.add("boom")
    summary = summarize(run)
    assert list(summary) == ["tool", "concurrency", "requestLimit", *OFFICIAL_KEYS[2:], "stoppedBy"]
    assert summary["requestLimit"] == 10 and summary["requests"] == 10
    assert (summary["ok"], summary["toolErrors"], summary["errors"]) == (7, 1, 2)
    assert summary["errorRate"] == 0.3
    assert summary["elapsedMs"] == 500 and summary["throughput"] == 20
    assert summary["latencyMs"] == dict.fromkeys(("min", "mean", "p50", "p90", "p99", "max"), 10)
    assert summary["errorMessages"] == [{"message": "boom", "count": 2}]


def test_summary_bounds_fields_appear_only_when_they_bound_the_run() -> None:
    by_time = summarize(LoadRun(tool="t", bounds=LoadBounds(10, duration=10.0)))
    assert "requestLimit" not in by_time and "rate" not in by_time
    assert by_time["durationMs"] == 10000 and type(by_time["durationMs"]) is int
    assert (by_time["requests"], by_time["errorRate"], by_time["throughput"], by_time["latencyMs"]) == (0, 0, 0, None)
    every = summarize(LoadRun(tool="t", bounds=LoadBounds(2, duration=1.5, requests=5, rate=2.5)))
    assert list(every)[:5] == ["tool", "concurrency", "durationMs", "requestLimit", "rate"]
    assert (every["durationMs"], every["rate"]) == (1500, 2.5)
    assert type(summarize(LoadRun(tool="t", bounds=LoadBounds(1, requests=1, rate=5.0)))["rate"]) is int


def test_error_rate_keeps_four_places() -> None:
    run = LoadRun(tool="t", bounds=LoadBounds(1, requests=41000), ok=40977, errors=23, elapsed=1.0)
    assert summarize(run)["errorRate"] == 0.0006


def test_human_rendering() -> None:
    run = LoadRun(tool="echo", bounds=LoadBounds(2, requests=4), ok=3, errors=1, elapsed=0.002,
                  latencies=[0.001] * 4)  # fmt: skip
    run.tally.add("boom")
    text = render_human(summarize(run))
    assert text.splitlines()[0] == "echo: 4 calls in 2 ms (2000/s, concurrency 2, stopped by requestLimit)"
    assert "error rate 25.00%" in text
    assert "latency ms: min 1, mean 1, p50 1, p90 1, p99 1, max 1" in text
    assert text.splitlines()[-1] == "  1 x boom"


# --- the runner ------------------------------------------------------------------------------------------------


def test_request_limit_with_concurrency_counts_every_outcome() -> None:
    clock = FakeClock()
    in_flight = peak = 0

    def outcome(n: int) -> Any:
        if n % 10 == 9:
            raise RuntimeError("boom" if n < 30 else "bang")
        return {"content": [], "isError": n % 5 == 4}

    inner = fake_call(clock, 0.1, outcome)

    async def call() -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await inner()
        finally:
            in_flight -= 1

    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(4, requests=50), clock=clock))
    assert len(inner.starts) == 50 == run.started == run.completed
    assert peak == 4
    assert (run.ok, run.tool_errors, run.errors) == (40, 5, 5)
    assert len(run.latencies) == 50 and all(latency == pytest.approx(0.1) for latency in run.latencies)
    assert run.elapsed == pytest.approx(1.3)  # 50 calls, 4 at a time, 0.1 s each: 13 rounds
    assert run.tally.entries() == [{"message": "boom", "count": 3}, {"message": "bang", "count": 2}]
    assert run.stopped_by == "requestLimit" and run.fatal is None


def test_duration_stops_starting_calls_and_lets_the_calls_in_flight_finish() -> None:
    clock = FakeClock()
    call = fake_call(clock, 0.3)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(2, duration=1.0), clock=clock))
    assert call.starts == pytest.approx([0, 0, 0.3, 0.3, 0.6, 0.6, 0.9, 0.9])
    assert run.ok == 8
    assert run.elapsed == pytest.approx(1.2)  # the two calls started at 0.9 s finished
    assert run.stopped_by == "duration"


def test_the_first_bound_reached_ends_the_run() -> None:
    clock = FakeClock()
    call = fake_call(clock, 0.3)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(2, duration=10, requests=3), clock=clock))
    assert (len(call.starts), run.stopped_by) == (3, "requestLimit")
    clock = FakeClock()
    call = fake_call(clock, 0.3)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(2, duration=0.5, requests=99), clock=clock))
    assert (len(call.starts), run.stopped_by) == (4, "duration")


def test_rate_spreads_the_starts_evenly() -> None:
    clock = FakeClock()
    call = fake_call(clock, 0.01)
    bounds = LoadBounds(10, duration=1.0, rate=5)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=bounds, clock=clock))
    assert call.starts == pytest.approx([0, 0.2, 0.4, 0.6, 0.8])  # the slot at 1.0 s is past the deadline
    assert run.ok == 5 and run.elapsed == pytest.approx(0.81)
    assert summarize(run)["rate"] == 5

    clock = FakeClock()
    call = fake_call(clock, 0.5)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(10, requests=4, rate=10), clock=clock))
    assert call.starts == pytest.approx([0, 0.1, 0.2, 0.3])  # slow calls overlap, the starts keep the pace


@pytest.mark.parametrize("start", [0.3, 7.7, 98765.4321, 12345.678])
def test_a_rate_slot_on_the_deadline_is_past_it_wherever_the_clock_starts(start: float) -> None:
    # the monotonic clock's origin is arbitrary: from 0.3 s, five sums of 0.2 s land a hair before 1.3 s
    clock = FakeClock(start)
    call = fake_call(clock, 0.01)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(10, duration=1.0, rate=5), clock=clock))
    assert len(call.starts) == 5 and run.elapsed == pytest.approx(0.81)


def test_rate_does_not_burst_to_catch_up_after_an_idle_gap() -> None:
    clock = FakeClock()
    call = fake_call(clock, lambda n: 1.0 if n == 0 else 0.0)  # the first call holds the only slot for 1 s
    run = drive(clock, lambda: run_load(call, tool="t", bounds=LoadBounds(1, requests=4, rate=10), clock=clock))
    assert call.starts == pytest.approx([0, 1.0, 1.1, 1.2])  # not four starts at 1.0 s for the missed slots
    assert run.ok == 4


def test_a_fatal_error_stops_new_calls() -> None:
    clock = FakeClock()

    class Gone(Exception):
        pass

    def outcome(n: int) -> Any:
        if n >= 2:
            raise Gone("server exited")
        return {}

    call = fake_call(clock, 0.1, outcome)
    bounds = LoadBounds(2, requests=1000)
    run = drive(clock, lambda: run_load(call, tool="t", bounds=bounds, is_fatal=lambda e: isinstance(e, Gone),
                                        describe=lambda e: f"lost: {e}", clock=clock))  # fmt: skip
    assert isinstance(run.fatal, Gone)
    assert len(call.starts) == 4  # the two in flight when the first one failed finished, no new one started
    assert (run.ok, run.errors) == (2, 2)
    assert run.stopped_by == "connectionLost"
    assert run.tally.entries() == [{"message": "lost: server exited", "count": 2}]


def test_on_the_real_clock_the_rate_holds() -> None:
    async def call() -> dict[str, Any]:
        await asyncio.sleep(0.001)
        return {}

    run = asyncio.run(run_load(call, tool="t", bounds=LoadBounds(8, duration=0.5, rate=20)))
    assert 9 <= run.ok <= 10  # starts at 0, 0.05, ..., 0.45 s
    assert 0.4 <= run.elapsed < 0.6


# --- the command line -------------------------------------------------------------------------------------------


def test_bounds_of_the_command_line() -> None:
    assert bounds_of(CliOptions(load=True)) == LoadBounds(10, duration=10.0)
    assert bounds_of(CliOptions(load=True, load_requests=5)) == LoadBounds(10, requests=5)
    opts = CliOptions(load=True, load_concurrency=3, load_duration=2.0, load_requests=5, load_rate=1.5)
    assert bounds_of(opts) == LoadBounds(3, duration=2.0, requests=5, rate=1.5)
    with pytest.raises(ValueError):
        LoadBounds(0, duration=1)
    with pytest.raises(ValueError):
        LoadBounds(1)


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        (CliOptions(load_rate=5), "--load-rate requires --load"),
        (CliOptions(load_requests=5), "--load-requests requires --load"),
        (CliOptions(load_duration=1.0), "--load-duration requires --load"),
        (CliOptions(load=True, list_stored_auth=True), "--list-stored-auth or --print-handoff"),
        (CliOptions(load=True, print_handoff=True), "--list-stored-auth or --print-handoff"),
        (CliOptions(load=True, probe=True), "--probe"),
        (CliOptions(load=True, method="tools/list"), "--load requires --method tools/call"),
        (CliOptions(load=True, method="tools/call", output_path="x"), "--output"),
        (CliOptions(load=True, load_concurrency=0), "--load-concurrency must be a positive integer"),
        (CliOptions(load=True, load_rate=float("inf")), "--load-rate must be a positive number"),
        (CliOptions(load=True, load_duration=-1.0), "--load-duration must be a positive number"),
    ],
)
def test_check_load_refuses(opts: CliOptions, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        check_load(opts)


def test_check_load_accepts() -> None:
    check_load(CliOptions())
    check_load(CliOptions(load=True, method="tools/call", tool_name="echo", load_requests=3, load_rate=2.0))
