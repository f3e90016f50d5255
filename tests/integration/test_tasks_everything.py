"""Tasks (2025-11-25 flavour) against ``@modelcontextprotocol/server-everything`` over stdio.

Its ``simulate-research-query`` tool declares ``execution.taskSupport: "required"``: it runs four one-second
stages, reports each in ``notifications/tasks/status``, and with ``ambiguous: true`` moves to ``input_required``
and asks for a clarification (``elicitation/create``) over the open ``tasks/result``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import nodetools
import pytest
from taskkit import statuses, with_connection

from inspector.client.connection import Connection
from inspector.client.handlers import HeadlessHandlers
from inspector.client.tasks import (
    TaskCancelled,
    TaskRunner,
    TaskTimeout,
    TaskUpdate,
    call_tool_as_declared,
    get_task,
    list_tasks,
)
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.session import Timeouts
from inspector.transports.stdio import StdioTransport

pytestmark = pytest.mark.node

TOOL = "simulate-research-query"


def connection(**kwargs: Any) -> Connection:
    server = nodetools.require_server_everything("stdio")
    kwargs.setdefault("capabilities", {"elicitation": {"form": {}}})
    kwargs.setdefault("timeouts", Timeouts(request=20))
    return Connection(StdioTransport(server[0], server[1:]), protocol_era="legacy", validate=True, **kwargs)


def with_conn(body: Callable[[Connection], Awaitable[Any]], **kwargs: Any) -> Any:
    return with_connection(lambda: connection(**kwargs), body)


def research_tool(tools: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = next(tool for tool in tools["tools"] if tool["name"] == TOOL)
    assert entry["execution"] == {"taskSupport": "required"}
    return entry


def test_runs_to_completion_with_status_updates_and_input() -> None:
    async def body(conn: Connection) -> None:
        assert conn.server is not None and conn.server.protocol_version == "2025-11-25"
        entry = research_tool(await conn.list_tools())
        updates: list[TaskUpdate] = []
        result = await call_tool_as_declared(
            conn, TOOL, {"topic": "python", "ambiguous": True}, tool=entry, on_update=updates.append
        )
        # the clarification was asked while tasks/result was open, and answered by the headless handlers
        assert result["content"][0]["text"].startswith("# Research Report: python (programming)")
        assert result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"] == updates[0].task.task_id
        assert statuses(updates) == ["working", "input_required", "working", "completed"]
        assert updates[0].source == "created"
        assert {u.source for u in updates[1:]} <= {"notifications/tasks/status", "tasks/get"}
        messages = [u.task.status_message for u in updates]
        assert {"Gathering sources...", "Analyzing content...", "Generating report..."} <= set(messages)
        # the task handle is not mistaken for a CallToolResult lacking content; nothing else was wrong
        assert conn.diagnostics == [], [str(d) for d in conn.diagnostics]
        listed = {task.task_id: task for task in await list_tasks(conn)}
        assert listed[updates[0].task.task_id].status == "completed"

    with_conn(body)


def test_plain_call_of_a_task_required_tool_is_refused() -> None:
    """What happened before tasks: the server refuses the call (as a tool error naming -32601)."""

    async def body(conn: Connection) -> None:
        result = await conn.call_tool(TOOL, {"topic": "x"})
        assert result["isError"] is True
        assert "-32601" in result["content"][0]["text"] and "task augmentation" in result["content"][0]["text"]

    with_conn(body)


def test_cancelled_midway() -> None:
    async def body(conn: Connection) -> None:
        updates: list[TaskUpdate] = []
        runner = TaskRunner(conn, on_update=updates.append)
        call = asyncio.ensure_future(runner.call_tool(TOOL, {"topic": "cancel me"}))
        while not any(u.task.status_message == "Analyzing content..." for u in updates):
            await asyncio.sleep(0.05)
        await runner.cancel()
        with pytest.raises(TaskCancelled) as caught:
            await call
        assert caught.value.by_client and caught.value.task.status == "cancelled"
        task_id = runner.task_id
        assert task_id is not None
        assert statuses(updates) == ["working", "cancelled"]
        assert updates[-1].source == "tasks/cancel"
        await asyncio.sleep(2.5)  # the server's stages go on ticking: the task must stay cancelled
        assert (await get_task(conn, task_id)).status == "cancelled"
        assert conn.violations == []

    with_conn(body)


def test_cancelling_the_awaiting_call_cancels_the_task_at_the_server() -> None:
    async def body(conn: Connection) -> None:
        runner = TaskRunner(conn)
        call = asyncio.ensure_future(runner.call_tool(TOOL, {"topic": "abandon me"}))
        while runner.task_id is None:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert runner.cancel_sent
        assert (await get_task(conn, runner.task_id)).status == "cancelled"

    with_conn(body)


def test_no_progress_within_the_idle_timeout_cancels_the_task() -> None:
    async def body(conn: Connection) -> None:
        runner = TaskRunner(conn, idle_timeout=0.3)  # the server moves on once a second
        with pytest.raises(TaskTimeout) as caught:
            await runner.call_tool(TOOL, {"topic": "too slow"})
        assert "showed no progress for 0.3 s" in str(caught.value)
        assert runner.task_id is not None and runner.cancel_sent
        assert (await get_task(conn, runner.task_id)).status == "cancelled"

    with_conn(body)


def test_declined_clarification_is_the_servers_to_handle() -> None:
    async def body(conn: Connection) -> None:
        entry = research_tool(await conn.list_tools())
        result = await call_tool_as_declared(conn, TOOL, {"topic": "python", "ambiguous": True}, tool=entry)
        assert "User declined" in result["content"][0]["text"]
        assert not any(d.code is DiagnosticCode.SCHEMA for d in conn.diagnostics)

    with_conn(body, handlers=HeadlessHandlers(elicitation="decline"))
