"""The replay engine against scripted in-memory servers: volatile values (cursors, task ids, timestamps and ids in
``_meta``) are ignored and mapped into later requests by themselves; a hanging or dead target never hangs it."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from replaykit import record_async

from inspector.client.connection import Connection
from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.session import Timeouts
from inspector.regression.answers import RecordedAnswers
from inspector.regression.outcome import Outcome, render_text
from inspector.regression.recorded import read_session
from inspector.regression.replay import ReplayConfig, replay
from inspector.transports.memory import MemoryPipe, MemoryTransport

_BUILDS = itertools.count(1)


def volatile_server(*, hang_on: str | None = None, die_on: str | None = None) -> MemoryTransport:
    """A handshake-era server whose every answer carries fresh cursors, task ids, timestamps and ids."""
    build = next(_BUILDS)
    cursors: dict[str, int] = {}
    tasks: dict[str, str] = {}

    def answer(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        meta = {"generatedAt": time.time(), "vendor/requestId": uuid.uuid4().hex, "build": "same"}
        if method == "initialize":
            return {
                "protocolVersion": params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "volatile", "version": "1"},
            }
        if method == "tools/list":
            cursor = params.get("cursor")
            page = 0 if cursor is None else cursors.pop(cursor)  # an unknown cursor fails (KeyError)
            out: dict[str, Any] = {"tools": [{"name": f"tool{page}", "inputSchema": {"type": "object"}}], "_meta": meta}
            if page < 2:
                token = f"cursor-{build}-{uuid.uuid4().hex[:6]}"
                cursors[token] = page + 1
                out["nextCursor"] = token
            return out
        if method == "tools/call":
            task_id = f"task-{build}-{uuid.uuid4().hex[:6]}"
            tasks[task_id] = str(params["arguments"]["x"])
            return {
                "task": {"taskId": task_id, "status": "working", "createdAt": f"2026-12-0{build % 9 + 1}T00:00:00Z"}
            }
        if method == "tasks/result":
            value = tasks[params["taskId"]]  # a task id of another run fails
            return {"content": [{"type": "text", "text": value}], "_meta": meta}
        return {}

    async def serve(pipe: MemoryPipe) -> None:
        while (frame := await pipe.receive()) is not None:
            message = json.loads(frame)
            method = message.get("method")
            if "id" not in message or method is None:
                continue
            if method == die_on:
                return
            if method == hang_on:
                continue
            try:
                body: dict[str, Any] = {"result": answer(method, message.get("params") or {})}
            except KeyError as exc:
                body = {"error": {"code": -32602, "message": f"unknown {exc}"}}
            await pipe.send(json.dumps({"jsonrpc": "2.0", "id": message["id"], **body}).encode())

    return MemoryTransport(serve, label=f"volatile build {build}")


async def _session(conn: Connection) -> None:
    await conn.list_tools()  # three pages, each asked with the cursor of the one before
    started = await conn.request("tools/call", {"name": "slow", "arguments": {"x": 7}})
    await conn.request("tasks/result", {"taskId": started["task"]["taskId"]})


async def _replay(recording: Path, transport: MemoryTransport, *, timeout: float = 5.0) -> Any:
    session = read_session(recording)
    answers = RecordedAnswers(session.session_answers)
    conn = Connection(transport, handlers=answers, timeouts=Timeouts(request=timeout), protocol_era="legacy")
    async with conn:
        return await replay(session, conn, answers, config=ReplayConfig(timeout=timeout), target="t")


def test_volatile_values_are_ignored_and_mapped(tmp_path: Path) -> None:
    async def main() -> None:
        recording = await record_async(volatile_server(), tmp_path, _session)
        report = await _replay(recording, volatile_server())
        assert [r.method for r in report.results] == ["tools/list"] * 3 + ["tools/call", "tasks/result"]
        assert [r.outcome for r in report.results] == [Outcome.SAME] * 5, render_text(report)
        assert report.passed
        reasons = {i.reason for r in report.results for i in r.ignored}
        assert {"cursor", "task id", "timestamp", "timestamp in _meta", "id in _meta"} <= reasons
        paths = {i.path for r in report.results for i in r.ignored}
        assert '$.result._meta["vendor/requestId"]' in paths and "$.result.nextCursor" in paths

    asyncio.run(main())


def test_a_real_difference_is_still_caught_and_ignore_removes_it(tmp_path: Path) -> None:
    async def main() -> None:
        async def other_argument(conn: Connection) -> None:
            started = await conn.request("tools/call", {"name": "slow", "arguments": {"x": 7}})
            await conn.request("tasks/result", {"taskId": started["task"]["taskId"]})

        recording = await record_async(volatile_server(), tmp_path, other_argument)
        # the same requests, but the new build's task answers another value: edit the recording's answer instead
        session = read_session(recording)
        recorded = session.requests[1].response
        assert recorded is not None
        recorded["result"]["content"][0]["text"] = "8"
        answers = RecordedAnswers()
        for ignore, expected in (((), Outcome.CHANGED), (("$.result.content[0].text",), Outcome.SAME)):
            conn = Connection(volatile_server(), handlers=answers, protocol_era="legacy")
            async with conn:
                report = await replay(session, conn, answers, config=ReplayConfig(ignore), target="t")
            assert report.results[1].outcome is expected
            if expected is Outcome.CHANGED:
                (difference,) = report.results[1].diff
                assert (difference.path, difference.old, difference.new) == ("$.result.content[0].text", "8", "7")

    asyncio.run(main())


@pytest.mark.parametrize("hostile", ["hang", "die"])
def test_hanging_or_dead_target_is_bounded(tmp_path: Path, hostile: str) -> None:
    async def main() -> None:
        recording = await record_async(volatile_server(), tmp_path, _session)
        target = volatile_server(**({"hang_on": "tools/call"} if hostile == "hang" else {"die_on": "tools/call"}))
        started = time.monotonic()
        report = await asyncio.wait_for(_replay(recording, target, timeout=1.0), 20)
        assert time.monotonic() - started < 15
        outcomes = [r.outcome for r in report.results]
        assert outcomes[:3] == [Outcome.SAME] * 3
        assert outcomes[3] is Outcome.FAILED
        assert outcomes[4] is Outcome.FAILED  # its task id was never given
        assert not report.passed
        assert report.results[3].error

    asyncio.run(main())


def test_unanswered_requests_are_skipped(tmp_path: Path) -> None:
    async def main() -> None:
        async def cancelled(conn: Connection) -> None:
            task = asyncio.ensure_future(conn.request("tools/call", {"name": "slow", "arguments": {"x": 1}}))
            await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await conn.list_tools()

        recording = await record_async(volatile_server(hang_on="tools/call"), tmp_path, cancelled)
        report = await _replay(recording, volatile_server())
        assert report.results[0].method == "tools/call"
        assert report.results[0].outcome is Outcome.SKIPPED and report.results[0].reason
        assert report.passed
        assert "0 failed, 1 skipped" in report.summary()

    asyncio.run(main())


def test_fallback_answers_are_noted() -> None:
    async def main() -> None:
        answers = RecordedAnswers(fallback=HeadlessHandlers(sampling_text="fallback"))
        answers.begin([])
        result = await answers.create_message({"messages": []})
        assert result["content"]["text"] == "fallback"
        assert answers.notes and "no answer" in answers.notes[0]
        assert answers.used == 0

    asyncio.run(main())
