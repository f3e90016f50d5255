"""The Streamable HTTP transport's small collaborators, without I/O: which tasks ``abandon`` stops, and how a
transport's reconnection budget is spent and said."""

from __future__ import annotations

import asyncio

import pytest
from asynckit import run

from inspector.protocol.limits import DEFAULT_LIMITS
from inspector.transports.base import MessageId
from inspector.transports.http_awaiting import AwaitedRequests
from inspector.transports.http_reconnect_budget import ReconnectBudget


def test_abandon_cancels_a_task_only_when_every_request_it_waits_for_ended() -> None:
    async def body() -> None:
        awaited = AwaitedRequests()
        ended: list[str] = []

        async def waiter(name: str) -> None:
            task = asyncio.current_task()
            assert task is not None
            try:
                await asyncio.get_running_loop().create_future()  # no answer ever comes
            except asyncio.CancelledError:
                if awaited.ended_by_abandon(task):
                    ended.append(f"{name} quietly")
                    return
                raise
            finally:
                awaited.forget(task)

        two = asyncio.create_task(waiter("two"))
        one = asyncio.create_task(waiter("one"))
        ids_two: set[MessageId] = {1, 2}
        awaited.track(two, ids_two)
        awaited.track(one, {3})
        await asyncio.sleep(0)
        awaited.abandon([1])
        await asyncio.sleep(0)
        assert ids_two == {2} and not two.done()  # the tracked set itself loses the id
        awaited.abandon([])
        awaited.abandon([2, 99])
        await two
        assert ended == ["two quietly"] and not two.cancelled()
        assert awaited.waiting(two) is None and awaited.waiting(one) == {3}
        one.cancel()  # a cancellation from elsewhere goes on
        with pytest.raises(asyncio.CancelledError):
            await one
        assert ended == ["two quietly"] and awaited.waiting(one) is None

    run(body)


def test_the_budget_takes_its_figures_from_limits_or_max_reconnects() -> None:
    limits = DEFAULT_LIMITS.replace(reconnects_per_request=4)
    from_limits = ReconnectBudget(limits, max_reconnects=None, default_retry=1)
    assert from_limits.per_stream == 4
    assert from_limits.per_stream_spent(4, listening=False, progressed=False) == (
        "gave up resuming the response stream: 4 attempts for this request (limit reconnects_per_request = 4)"
    )
    given = ReconnectBudget(DEFAULT_LIMITS, max_reconnects=-2, default_retry=1)
    assert given.per_stream == 0
    assert given.per_stream_spent(3, listening=True, progressed=True) == (
        "gave up re-opening the stream for server-initiated messages: 3 attempts in a row without a message"
        " (limit max_reconnects = 0)"
    )
    assert (
        ReconnectBudget(DEFAULT_LIMITS, max_reconnects=2, default_retry=1)
        .per_stream_spent(2, listening=False, progressed=True)
        .endswith("2 attempts for this request in a row without a message (limit max_reconnects = 2)")
    )


def test_the_wait_starts_at_the_servers_retry_or_the_default_and_never_below_the_floor() -> None:
    limits = DEFAULT_LIMITS.replace(reconnect_floor_ms=250, reconnect_cap_ms=30_000)
    budget = ReconnectBudget(limits, max_reconnects=None, default_retry=2.0)
    assert 2.0 <= budget.delay(1, None) <= 2.5
    assert 4.0 <= budget.delay(2, None) <= 5.0
    assert 0.25 <= budget.delay(1, 10) <= 0.3125  # a retry below the floor waits the floor
    assert 3.0 <= budget.delay(1, 3000) <= 3.75
    assert 0.25 <= ReconnectBudget(limits, max_reconnects=None, default_retry=-1).delay(1, None) <= 0.3125


def test_the_minute_is_shared_and_says_when_it_is_spent() -> None:
    budget = ReconnectBudget(DEFAULT_LIMITS.replace(reconnects_per_minute=2), max_reconnects=None, default_retry=1)
    assert budget.take(0.0) is None and budget.take(1.0) is None
    assert budget.take(2.0) == (
        "gave up reconnecting: 2 reconnections on this connection in the last 60 s (limit reconnects_per_minute = 2)"
    )
    assert budget.take(60.5) is None  # the first one left the window
