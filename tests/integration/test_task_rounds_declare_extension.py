"""A task-augmented call (2026-07-28 tasks extension) whose server first asks for input: every round of the
logical request declares the tasks extension, although the next round is sent by the asyncio task that
answered the input (not the caller's, where ``declaring_extensions`` was entered); and a plain call's rounds
never declare it, even when a declaring call is in flight at the same time.

The server is a small in-memory one (``MemoryTransport``): ``tools/call`` of ``confirm_then_task`` answers
``input_required`` (roots/list) first; the retry becomes a task only when that round declares the extension
(else a plain result saying so); ``tasks/get`` completes the task.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asynckit import run

from inspector.client.connection import Connection
from inspector.client.tasks import TaskRunner
from inspector.protocol.envelope import CLIENT_CAPABILITIES_KEY, SERVER_INFO_KEY, declaring_extensions
from inspector.protocol.tasks import TASKS_EXTENSION
from inspector.transports.memory import MemoryPipe, MemoryTransport

VERSION = "2026-07-28"
TOOL = {"name": "confirm_then_task", "inputSchema": {"type": "object", "properties": {}}}
STAMP = "2026-07-28T00:00:00Z"


def _declares(params: dict[str, Any]) -> bool:
    caps = params.get("_meta", {}).get(CLIENT_CAPABILITIES_KEY, {})
    return TASKS_EXTENSION in (caps.get("extensions") or {})


class Server:
    def __init__(self) -> None:
        self.calls: list[tuple[int, bool]] = []
        """Each tools/call: its round (1, 2) and whether it declared the tasks extension."""
        self.gets: list[bool] = []
        self.tasks = 0

    def answer(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "server/discover":
            return {
                "supportedVersions": [VERSION],
                "capabilities": {"tools": {}, "extensions": {TASKS_EXTENSION: {}}},
                "_meta": {SERVER_INFO_KEY: {"name": "confirm-then-task", "version": "1"}},
            }
        if method == "tools/list":
            return {"tools": [TOOL]}
        if method == "tools/call":
            retry = "inputResponses" in params
            self.calls.append((2 if retry else 1, _declares(params)))
            if not retry:
                return {
                    "resultType": "input_required",
                    "inputRequests": {"where": {"method": "roots/list", "params": {}}},
                    "requestState": "round-1",
                }
            if not _declares(params):
                return {"content": [{"type": "text", "text": "no task: the retry did not declare the extension"}]}
            self.tasks += 1
            return {
                "resultType": "task",
                "taskId": f"t{self.tasks}",
                "status": "working",
                "createdAt": STAMP,
                "lastUpdatedAt": STAMP,
                "ttlMs": 60000,
                "pollIntervalMs": 50,
            }
        if method == "tasks/get":
            self.gets.append(_declares(params))
            return {
                "taskId": params.get("taskId"),
                "status": "completed",
                "createdAt": STAMP,
                "lastUpdatedAt": STAMP,
                "ttlMs": 60000,
                "pollIntervalMs": 50,
                "result": {"content": [{"type": "text", "text": "done as a task"}]},
            }
        return None

    async def serve(self, pipe: MemoryPipe) -> None:
        while (frame := await pipe.receive()) is not None:
            message = json.loads(frame)
            rid, method = message.get("id"), message.get("method")
            if rid is None or not isinstance(method, str):
                continue
            result = self.answer(method, message.get("params") or {})
            if result is None:
                reply: dict[str, Any] = {"code": -32601, "message": f"Method not found: {method}"}
                await pipe.send(json.dumps({"jsonrpc": "2.0", "id": rid, "error": reply}).encode())
            else:
                await pipe.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode())


def _connection(server: Server) -> Connection:
    return Connection(MemoryTransport(server.serve), protocol_version=VERSION, protocol_era="modern")


def _text(result: Any) -> str:
    return str(result["content"][0]["text"])


def test_every_round_of_a_task_augmented_call_declares_the_tasks_extension() -> None:
    server = Server()

    async def main() -> Any:
        async with _connection(server) as conn:
            with declaring_extensions({TASKS_EXTENSION: {}}):
                return await asyncio.wait_for(TaskRunner(conn).call_tool("confirm_then_task", {}), 20)

    result = run(main, timeout=40)
    assert server.calls == [(1, True), (2, True)]
    assert _text(result) == "done as a task"
    assert server.gets and all(server.gets)


def test_a_plain_calls_rounds_do_not_declare_it_beside_a_declaring_one() -> None:
    server = Server()

    async def main() -> tuple[Any, Any]:
        async with _connection(server) as conn:

            async def as_task() -> Any:
                with declaring_extensions({TASKS_EXTENSION: {}}):
                    return await TaskRunner(conn).call_tool("confirm_then_task", {})

            return await asyncio.wait_for(asyncio.gather(as_task(), conn.call_tool("confirm_then_task", {})), 20)

    tasked, plain = run(main, timeout=40)
    assert _text(tasked) == "done as a task"
    assert _text(plain) == "no task: the retry did not declare the extension"
    assert sorted(server.calls) == [(1, False), (1, True), (2, False), (2, True)]
