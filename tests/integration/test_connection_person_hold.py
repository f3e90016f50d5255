"""Issue 14 §5.4 (engine): while a handler waits for a person (``asking_a_person``), the request that made the
server ask does not time out; the server's own cancellation reaches the handler as such."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.client.connection import Connection
from inspector.client.errors import RequestTimeout
from inspector.client.handlers import asking_a_person, withdrawn_by_server
from inspector.protocol.session import Timeouts
from inspector.transports.stdio import StdioTransport

SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")
DEMO = [sys.executable, "-m", "inspector.demo"]
TIMEOUT = 0.6
PERSON = 2.0
"""Seconds the "person" takes: well beyond the request timeout."""


class SlowPerson:
    """Answers elicitation after ``PERSON`` seconds, inside ``asking_a_person`` when ``holds``."""

    def __init__(self, *, holds: bool) -> None:
        self.holds = holds
        self.cancelled: list[bool] = []

    async def _think(self) -> None:
        try:
            if self.holds:
                with asking_a_person():
                    await asyncio.sleep(PERSON)
            else:
                await asyncio.sleep(PERSON)
        except asyncio.CancelledError as exc:
            self.cancelled.append(withdrawn_by_server(exc))
            raise

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        await self._think()
        return {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "person"}

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        await self._think()
        return {"action": "decline"}

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"roots": []}


def url_elicitation(handlers: SlowPerson) -> Connection:
    transport = StdioTransport(sys.executable, [SERVER, "--mode", "url-elicitation"])
    caps: dict[str, Any] = {"elicitation": {"form": {}, "url": {}}}
    return Connection(
        transport, timeouts=Timeouts(request=TIMEOUT), handlers=handlers, capabilities=caps, protocol_era="legacy"
    )


async def bounded(coro: Any, limit: float = 60) -> Any:
    return await asyncio.wait_for(coro, limit)


def test_a_person_answering_holds_the_request_timeout() -> None:
    person = SlowPerson(holds=True)

    async def main() -> dict[str, Any]:
        async with url_elicitation(person) as conn:
            result: dict[str, Any] = await conn.call_tool("t", {"text": "x"})
            # once the person answered, the timeout applies again
            assert not conn.session.deadlines_held
            return result

    result = asyncio.run(bounded(main()))
    assert result["content"][0]["text"] == 'url elicitation answer: result {"action": "decline"}'
    assert person.cancelled == []


def test_without_the_hold_the_request_times_out() -> None:
    """The control: the same slow answer outside ``asking_a_person`` loses the call to its timeout."""
    person = SlowPerson(holds=False)

    async def main() -> None:
        async with url_elicitation(person) as conn:
            with pytest.raises(RequestTimeout):
                await conn.call_tool("t", {"text": "x"})

    asyncio.run(bounded(main()))


def test_the_server_withdrawing_its_request_is_told_to_the_handler_and_ends_the_hold() -> None:
    person = SlowPerson(holds=True)

    async def main() -> None:
        transport = StdioTransport(sys.executable, [SERVER, "--mode", "sampling-then-cancel"])
        conn = Connection(
            transport,
            timeouts=Timeouts(request=10),
            handlers=person,
            capabilities={"sampling": {}},
            protocol_era="legacy",
        )
        async with conn:
            result = await conn.call_tool("t", {"text": "x"})
            assert result["content"][0]["text"].endswith("withdrawn")
            assert not conn.session.deadlines_held

    asyncio.run(bounded(main()))
    assert person.cancelled == [True]
