"""Tasks of both flavours against the bundled demo server over stdio: 2025-11-25 (``--era legacy``) and the
2026-07-28 ``io.modelcontextprotocol/tasks`` extension (``--era modern``).

The demo's task tools (``task_slow`` optional, ``task_needs_input`` and ``task_cancellable`` required) and its
``--era`` switch come from :mod:`inspector.demo.tools_tasks`; without them these tests are skipped, saying so
(they never pass without running).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from taskkit import statuses, with_connection

from inspector.client.connection import Connection
from inspector.client.handlers import HeadlessHandlers, RequestInfo, current_request
from inspector.client.tasks import TaskCancelled, TaskRunner, TaskUpdate, call_tool_as_declared, get_task
from inspector.protocol.session import Timeouts
from inspector.protocol.tasks import with_extension
from inspector.protocol.wire import Direction, WireMessage
from inspector.transports.stdio import StdioTransport

if importlib.util.find_spec("inspector.demo.tools_tasks") is None:
    pytest.skip("the demo server has no task tools yet (inspector.demo.tools_tasks)", allow_module_level=True)

CAPS: dict[str, Any] = {"elicitation": {"form": {}}, "sampling": {}, "roots": {}}


class ApprovingHandlers(HeadlessHandlers):
    """Accepts the demo's approval form with ``approve: true`` and remembers what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[dict[str, Any]] = []
        self.infos: list[RequestInfo | None] = []

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(params)
        self.infos.append(current_request.get())
        return {"action": "accept", "content": {"approve": True}}


def connection(era: str, **kwargs: Any) -> Connection:
    caps = with_extension(CAPS) if era == "modern" else CAPS
    transport = StdioTransport(sys.executable, ["-m", "inspector.demo", "--era", era])
    return Connection(
        transport, protocol_era=era, capabilities=caps, timeouts=Timeouts(request=20), validate=True, **kwargs
    )


def with_conn(era: str, body: Callable[[Connection], Awaitable[Any]], **kwargs: Any) -> Any:
    return with_connection(lambda: connection(era, **kwargs), body)


async def tools(conn: Connection) -> dict[str, dict[str, Any]]:
    return {tool["name"]: tool for tool in (await conn.list_tools())["tools"]}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_input_is_answered_by_the_connection_handlers(era: str) -> None:
    handlers = ApprovingHandlers()

    async def body(conn: Connection) -> None:
        assert conn.server is not None
        assert conn.server.protocol_version == ("2026-07-28" if era == "modern" else "2025-11-25")
        updates: list[TaskUpdate] = []
        entry = (await tools(conn))["task_needs_input"]
        result = await call_tool_as_declared(conn, "task_needs_input", {}, tool=entry, on_update=updates.append)
        outcome = json.loads(result["content"][0]["text"])
        assert outcome["approved"] is True
        assert [params["message"] for params in handlers.asked] == ["Deploy the demo to production?"]
        seen = statuses(updates)
        assert seen[0] == "working" and "input_required" in seen and seen[-1] == "completed"
        (info,) = handlers.infos
        assert info is not None
        if era == "modern":  # an inputRequests entry, answered with tasks/update under the server's key, once
            answers = [u for u in updates if u.source == "tasks/update"]
            assert [u.note for u in answers] == ["answered 'approval'"]
            assert (info.id, info.input_key, info.asked_by) == (updates[0].task.task_id, "approval", "tasks/get")
        else:  # a server request sent while tasks/result was open
            assert info.method == "elicitation/create" and info.input_key is None
        assert conn.violations == [], [str(d) for d in conn.violations]

    with_conn(era, body, handlers=handlers)


def test_modern_server_decides_and_polling_follows_the_steps() -> None:
    sent: list[dict[str, Any]] = []

    def outgoing(wire: WireMessage) -> None:
        if wire.direction is Direction.OUT and wire.method == "subscriptions/listen":
            sent.append(json.loads(wire.raw)["params"]["notifications"])

    async def body(conn: Connection) -> None:
        updates: list[TaskUpdate] = []
        result = await call_tool_as_declared(conn, "task_slow", {"seconds": 1, "steps": 4}, on_update=updates.append)
        assert result["content"][0]["text"] == "Finished 4 steps in about 1s"
        assert statuses(updates) == ["working", "completed"]
        assert {u.source for u in updates} <= {"created", "tasks/get"}
        assert conn.violations == []
        # the task's notifications were asked for over listen; the demo does not acknowledge task ids (it is
        # polled), which is information, and polling carried the run
        assert len(sent) == 1 and len(sent[0]["taskIds"]) == 1
        assert any("did not acknowledge task ids" in d.message for d in conn.diagnostics)

    with_conn("modern", body, on_message=outgoing)


def test_legacy_optional_tool_is_a_plain_call_unless_a_task_is_preferred() -> None:
    async def body(conn: Connection) -> None:
        entry = (await tools(conn))["task_slow"]
        assert entry["execution"] == {"taskSupport": "optional"}
        updates: list[TaskUpdate] = []
        args = {"seconds": 0.4, "steps": 2}
        plain = await call_tool_as_declared(conn, "task_slow", args, tool=entry, on_update=updates.append)
        assert updates == [] and plain["content"][0]["text"] == "Finished 2 steps in about 0.4s"
        task = await call_tool_as_declared(
            conn, "task_slow", args, tool=entry, prefer_task=True, on_update=updates.append
        )
        assert task["content"] == plain["content"] and statuses(updates)[-1] == "completed"

    with_conn("legacy", body)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_cancel(era: str) -> None:
    async def body(conn: Connection) -> None:
        updates: list[TaskUpdate] = []
        runner = TaskRunner(conn, on_update=updates.append)
        call = asyncio.ensure_future(runner.call_tool("task_cancellable", {"seconds": 30}))
        while runner.task_id is None:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.6)
        await runner.cancel()
        with pytest.raises(TaskCancelled) as caught:
            await call
        assert caught.value.by_client
        assert runner.task_id is not None
        for _ in range(50):  # 2026-07-28 cancellation is eventually consistent
            if (await get_task(conn, runner.task_id)).status == "cancelled":
                break
            await asyncio.sleep(0.1)
        assert (await get_task(conn, runner.task_id)).status == "cancelled"
        assert conn.violations == []

    with_conn(era, body)
