"""``--connect-timeout``'s deadline: expiry is ``unreachable`` (exit 4); a person's login time does not count."""

from __future__ import annotations

import asyncio
import time

import pytest

from inspector.cli.connect_deadline import connect_deadline, paused
from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode


def test_expiry_is_unreachable() -> None:
    async def scenario() -> None:
        async with connect_deadline(0.05):
            await asyncio.sleep(5)

    with pytest.raises(CliFailure) as caught:
        asyncio.run(scenario())
    failure = caught.value
    assert (failure.exit_code, failure.to_json()["code"]) == (ExitCode.UNREACHABLE, "unreachable")
    assert "50 ms" in failure.message and "--connect-timeout" in failure.message


def test_no_bound_and_a_body_in_time() -> None:
    async def scenario() -> str:
        async with connect_deadline(None):
            await asyncio.sleep(0.01)
        async with connect_deadline(1.0):
            await asyncio.sleep(0.01)
        return "done"

    assert asyncio.run(scenario()) == "done"


def test_time_spent_paused_does_not_count() -> None:
    async def scenario() -> float:
        started = time.monotonic()
        async with connect_deadline(0.2):
            await asyncio.sleep(0.05)
            with paused():  # a person logging in, longer than the whole deadline
                with paused():  # (nested pauses are one pause)
                    await asyncio.sleep(0.4)
            await asyncio.sleep(0.05)  # the deadline still has ~0.15 s left
        return time.monotonic() - started

    assert asyncio.run(scenario()) >= 0.5
    with paused():  # outside any deadline: nothing to pause
        pass


def test_the_deadline_still_runs_after_a_pause() -> None:
    async def scenario() -> None:
        async with connect_deadline(0.1):
            with paused():
                await asyncio.sleep(0.15)
            await asyncio.sleep(5)

    started = time.monotonic()
    with pytest.raises(CliFailure):
        asyncio.run(scenario())
    assert time.monotonic() - started < 2


def test_a_timeout_error_that_is_not_the_deadline_passes_through() -> None:
    async def scenario() -> None:
        async with connect_deadline(5):
            raise TimeoutError("some other clock")

    with pytest.raises(TimeoutError, match="some other clock"):
        asyncio.run(scenario())
