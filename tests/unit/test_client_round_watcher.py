"""``rounds.watching_rounds``: a caller hears of each later round of its own multi-round-trip request (the input
being answered, then the round sent), with the request's subject; other requests and callers hear nothing; the
handlers answering the input learn the round and the subject through ``current_request``."""

from __future__ import annotations

import asyncio
from typing import Any

from asynckit import run

from inspector.client.connection import Connection
from inspector.client.handlers import HeadlessHandlers, RequestInfo, current_request
from inspector.client.rounds import RoundNote, watching_rounds
from inspector.demo.in_memory import demo_transport
from inspector.protocol.mrtr import MAX_INPUT_ROUNDS
from inspector.protocol.session import Timeouts

CAPS: dict[str, object] = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


class Recording(HeadlessHandlers):
    """Headless answers, keeping what each handler was told it answers."""

    def __init__(self) -> None:
        super().__init__()
        self.infos: list[RequestInfo | None] = []

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        self.infos.append(current_request.get())
        return await super().elicit(params)


def test_the_caller_hears_each_round_and_the_handlers_know_it() -> None:
    handlers = Recording()
    notes: list[RoundNote] = []
    others: list[RoundNote] = []

    async def body() -> None:
        async with Connection(
            demo_transport("modern"), protocol_era="modern", capabilities=CAPS, handlers=handlers,
            timeouts=Timeouts(request=20),
        ) as conn:  # fmt: skip
            with watching_rounds(notes.append):
                result = await conn.call_tool("ask_twice", {})
                await conn.call_tool("add", {"a": 1, "b": 2})  # one round: nothing to hear
            assert result.get("isError") is not True, result

            async def elsewhere() -> None:  # a request sent after the block ended: nobody hears of it
                with watching_rounds(others.append):
                    await asyncio.sleep(0)
                await conn.get_prompt("greet_me", {})

            await elsewhere()

    run(body)
    assert [(n.round, n.sent) for n in notes] == [(2, False), (2, True), (3, False), (3, True)]
    assert {(n.method, n.subject, n.limit) for n in notes} == {("tools/call", "ask_twice", MAX_INPUT_ROUNDS)}
    assert all(n.inputs == ("elicitation/create",) for n in notes)
    assert others == []
    tool_infos = [i for i in handlers.infos if i is not None and i.asked_by == "tools/call"]
    assert [(i.round, i.subject) for i in tool_infos] == [(2, "ask_twice"), (3, "ask_twice")]
    [prompt_info] = [i for i in handlers.infos if i is not None and i.asked_by == "prompts/get"]
    assert (prompt_info.round, prompt_info.subject, prompt_info.input_key) == (2, "greet_me", "name")
