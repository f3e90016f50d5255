"""Raw JSON-RPC to the demo server (``python -m inspector.demo``) over stdio and Streamable HTTP.

For what the official SDK client cannot express: refusals of the wrong era, 2025-11-25 tasks (a
``CreateTaskResult`` is not a ``CallToolResult``), exact status codes and headers. Everything is bounded:
every read has a timeout, servers bind 127.0.0.1 and are terminated (then killed) on exit.

* :func:`demo_http` starts an HTTP demo and yields its URL (stderr goes to a file, never a full pipe).
* :class:`StdioPeer` speaks line-delimited JSON-RPC to a stdio demo.
* :class:`HttpPeer` POSTs JSON-RPC (handshake-era session or 2026-07-28 headers) and reads JSON or SSE
  answers, answering server requests that arrive on a response stream.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

__all__ = [
    "LEGACY",
    "MODERN",
    "REPO_ROOT",
    "HttpAnswer",
    "HttpPeer",
    "StdioPeer",
    "demo_command",
    "demo_http",
    "envelope",
]

REPO_ROOT = Path(__file__).resolve().parents[1]
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
READ_TIMEOUT = 20.0
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"

ServerRequestHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""Answers a server-to-client request (the whole message) with a result."""


def demo_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "inspector.demo", "--clock-interval", "0.3", *extra]


def envelope(capabilities: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """The 2026-07-28 per-request ``_meta``."""
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "demowire", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities or {},
        **extra,
    }


@contextmanager
def demo_http(*extra: str) -> Iterator[str]:
    """Start ``python -m inspector.demo --http 0 EXTRA...`` and yield its ``http://127.0.0.1:PORT/mcp``."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log:
        process = subprocess.Popen(
            demo_command("--http", "0", *extra),
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
        )
        try:
            deadline = time.monotonic() + READ_TIMEOUT
            url = None
            while url is None:
                log.seek(0)
                match = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)", log.read())
                if match:
                    url = match.group(1)
                elif process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise AssertionError(f"the demo did not start: {log.read()[-2000:]}")
                else:
                    time.sleep(0.05)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


# --- stdio ------------------------------------------------------------------------------------------------


@dataclass
class StdioPeer:
    process: Process
    _lines: BufferedByteReceiveStream
    inbox: list[dict[str, Any]] = field(default_factory=list)
    """Messages read while waiting for something else (notifications, other responses)."""
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    @asynccontextmanager
    async def start(cls, *extra: str) -> AsyncIterator[StdioPeer]:
        process = await anyio.open_process(demo_command(*extra), cwd=REPO_ROOT, stderr=subprocess.DEVNULL)
        assert process.stdout is not None
        try:
            yield cls(process, BufferedByteReceiveStream(process.stdout))
        finally:
            with anyio.CancelScope(shield=True):
                if process.stdin is not None:
                    await process.stdin.aclose()
                with anyio.move_on_after(10):
                    await process.wait()
                if process.returncode is None:
                    process.kill()
                    await process.wait()

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps(message) + "\n").encode())

    async def receive(self, timeout: float = READ_TIMEOUT) -> dict[str, Any]:
        with anyio.fail_after(timeout):
            line = await self._lines.receive_until(b"\n", 64 * 1024 * 1024)
        message: dict[str, Any] = json.loads(line)
        return message

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], *, on_request: ServerRequestHandler | None = None
    ) -> dict[str, Any]:
        """The first message (already in the inbox or read now) that matches; server requests get answered."""
        for index, message in enumerate(self.inbox):
            if predicate(message):
                return self.inbox.pop(index)
        while True:
            message = await self.receive()
            if predicate(message):
                return message
            if "method" in message and "id" in message and on_request is not None:
                await self.send({"jsonrpc": "2.0", "id": message["id"], "result": await on_request(message)})
            else:
                self.inbox.append(message)

    async def request(
        self, method: str, params: dict[str, Any] | None = None, *, on_request: ServerRequestHandler | None = None
    ) -> dict[str, Any]:
        """Send a request and return its response message (``result`` or ``error``)."""
        request_id = self.next_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return await self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, on_request=on_request)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)

    async def initialize(self, capabilities: dict[str, Any] | None = None, version: str = LEGACY) -> dict[str, Any]:
        answer = await self.request(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "w", "version": "1"},
            },
        )
        await self.notify("notifications/initialized")
        return answer

    def notifications(self, method: str) -> list[dict[str, Any]]:
        return [m for m in self.inbox if m.get("method") == method and "id" not in m]


# --- Streamable HTTP --------------------------------------------------------------------------------------


@dataclass
class HttpAnswer:
    status: int
    headers: httpx2.Headers
    messages: list[dict[str, Any]]
    """Every JSON-RPC message of the answer (one for a JSON body; each event of an SSE stream)."""

    @property
    def response(self) -> dict[str, Any]:
        """The JSON-RPC response (the last message that has no method)."""
        return next(m for m in reversed(self.messages) if "method" not in m)


class HttpPeer:
    """JSON-RPC over Streamable HTTP POSTs; ``modern`` adds the 2026-07-28 headers, else a legacy session."""

    def __init__(self, url: str, client: httpx2.AsyncClient) -> None:
        self.url = url
        self.client = client
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self._ids = itertools.count(1)

    @classmethod
    @asynccontextmanager
    async def connect(cls, url: str) -> AsyncIterator[HttpPeer]:
        async with httpx2.AsyncClient(timeout=READ_TIMEOUT) as client:
            yield cls(url, client)

    def headers(self, message: dict[str, Any], extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        if self.session_id is not None:
            headers["mcp-session-id"] = self.session_id
        if self.protocol_version is not None:
            headers["mcp-protocol-version"] = self.protocol_version
        return {**headers, **(extra or {})}

    async def post(
        self,
        message: dict[str, Any],
        *,
        headers: dict[str, str] | None = None,
        on_request: ServerRequestHandler | None = None,
    ) -> HttpAnswer:
        """POST one message; read the whole answer (answering server requests on an SSE stream as they come)."""
        messages: list[dict[str, Any]] = []
        async with (
            anyio.create_task_group() as group,
            self.client.stream("POST", self.url, json=message, headers=self.headers(message, headers)) as answer,
        ):
            kind = answer.headers.get("content-type", "")
            if kind.startswith("text/event-stream"):
                async for data in _sse_data(answer):
                    event = json.loads(data)
                    messages.append(event)
                    if "method" in event and "id" in event and on_request is not None:
                        group.start_soon(self._answer, event, on_request)
                    if "method" not in event and event.get("id") == message.get("id"):
                        break
            else:
                body = await answer.aread()
                if body:
                    messages.append(json.loads(body))
            status, answer_headers = answer.status_code, answer.headers
        return HttpAnswer(status, answer_headers, messages)

    async def _answer(self, request: dict[str, Any], on_request: ServerRequestHandler) -> None:
        reply = {"jsonrpc": "2.0", "id": request["id"], "result": await on_request(request)}
        answer = await self.client.post(self.url, json=reply, headers=self.headers(reply))
        assert answer.status_code == 202, answer.text

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        headers: dict[str, str] | None = None,
        on_request: ServerRequestHandler | None = None,
    ) -> HttpAnswer:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(self._ids), "method": method}
        if params is not None:
            message["params"] = params
        return await self.post(message, headers=headers, on_request=on_request)

    async def modern(
        self, method: str, params: dict[str, Any] | None = None, *, capabilities: dict[str, Any] | None = None
    ) -> HttpAnswer:
        """A 2026-07-28 request: the envelope in ``_meta`` and the standard headers."""
        body = {**(params or {}), "_meta": envelope(capabilities)}
        headers = {"mcp-protocol-version": MODERN, "mcp-method": method}
        name = body.get("uri") if method == "resources/read" else body.get("name")
        if method in ("tools/call", "prompts/get", "resources/read") and isinstance(name, str):
            headers["mcp-name"] = name
        elif method.startswith("tasks/") and isinstance(body.get("taskId"), str):
            headers["mcp-name"] = body["taskId"]
        return await self.request(method, body, headers=headers)

    async def initialize(self, capabilities: dict[str, Any] | None = None) -> HttpAnswer:
        """Open a handshake-era session (initialize + notifications/initialized)."""
        answer = await self.request(
            "initialize",
            {
                "protocolVersion": LEGACY,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "w", "version": "1"},
            },
        )
        self.session_id = answer.headers.get("mcp-session-id")
        self.protocol_version = LEGACY
        done = await self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert done.status == 202, done
        return answer


async def _sse_data(response: httpx2.Response) -> AsyncIterator[str]:
    """The ``data`` of each SSE event (multi-line data joined with newlines)."""
    data: list[str] = []
    async for line in response.aiter_lines():
        if line == "":
            if data:
                yield "\n".join(data)
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield "\n".join(data)
