"""Running a collection's calls against a connected session and checking their assertions.

``run_collection(conn, collection, only=None, *, timeout=30.0, on_call=None)`` runs the calls in order (or the
named ones) and returns a :class:`CollectionReport`. Requests go through the connection as the CLI sends them:
server requests (sampling, elicitation, roots) and 2026-07-28 ``input_required`` rounds are answered by the
connection's handlers, a tool that must run as a task (2025-11-25) or answers with one (2026-07-28) is followed
to its result. Each call is bounded by its ``timeout_ms`` (else ``timeout``); a call without assertions checks
that its outcome is ok.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from inspector.client.connection import Connection
from inspector.client.errors import CapabilityNotDeclared, ClientError, RemoteError, message_of
from inspector.client.tasks import call_tool_as_declared
from inspector.regression.assertions import AssertionResult, Observed, check, outcome
from inspector.regression.collection import Collection, SavedCall

__all__ = ["CallReport", "CollectionReport", "Status", "run_call", "run_collection"]

Status = Literal["passed", "failed", "error"]
_DEFAULT_CHECKS = (outcome("ok"),)


@dataclass(frozen=True, slots=True)
class CallReport:
    call: SavedCall
    observed: Observed
    results: tuple[AssertionResult, ...]

    @property
    def status(self) -> Status:
        if all(result.passed for result in self.results):
            return "passed"
        return "error" if self.observed.outcome == "failed" else "failed"

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @property
    def failing(self) -> AssertionResult | None:
        return next((result for result in self.results if not result.passed), None)

    def failure_line(self) -> str:
        """The failing assertion and the actual value, one line ("" when it passed)."""
        failing = self.failing
        if failing is None:
            return ""
        return f"{failing.assertion.describe()}: {failing.message}"

    def to_json(self) -> dict[str, Any]:
        failing = self.failing
        return {
            "name": self.call.name,
            "method": self.call.method,
            "status": self.status,
            "outcome": self.observed.describe(),
            "latency_ms": round(self.observed.latency_ms, 1),
            "failure": None if failing is None else {**failing.to_json(), "line": self.failure_line()},
            "assertions": [result.to_json() for result in self.results],
        }


@dataclass(slots=True)
class CollectionReport:
    collection: Collection
    calls: list[CallReport] = field(default_factory=list)
    duration_ms: float = 0.0
    server: Mapping[str, Any] = field(default_factory=dict)
    """``{"name", "version", "protocolVersion", "era"}`` of the server the calls ran against."""

    @property
    def passed(self) -> bool:
        return all(report.passed for report in self.calls)

    def counts(self) -> dict[str, int]:
        counts = {"calls": len(self.calls), "passed": 0, "failed": 0, "error": 0}
        for report in self.calls:
            counts[report.status] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "collection": self.collection.name,
            "file": self.collection.source or None,
            "server": dict(self.server),
            "passed": self.passed,
            "totals": self.counts(),
            "duration_ms": round(self.duration_ms, 1),
            "calls": [report.to_json() for report in self.calls],
        }


class _Tools:
    """The live tools/list, listed once per run (all pages), only when a tools/call needs it."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.by_name: dict[str, Mapping[str, Any]] | None = None

    async def lookup(self, name: str | None, timeout: float) -> tuple[Mapping[str, Any] | None, bool | None]:
        if self.by_name is None:
            try:
                listed = await asyncio.wait_for(self.conn.list_tools(fresh=True), timeout)
            except (ClientError, TimeoutError):
                return None, None
            tools = listed.get("tools") if isinstance(listed, Mapping) else None
            self.by_name = {
                str(tool.get("name")): tool for tool in tools or [] if isinstance(tool, Mapping) and "name" in tool
            }
        tool = self.by_name.get(name or "")
        return tool, tool is not None


async def _send(conn: Connection, call: SavedCall, tool: Mapping[str, Any] | None, per_round: float) -> Any:
    params = dict(call.params) if call.params is not None else None

    async def once(forced: bool) -> Any:
        if call.method == "tools/call":
            arguments = (params or {}).get("arguments")
            return await call_tool_as_declared(
                conn, str((params or {}).get("name")), arguments, tool=tool, forced=forced, idle_timeout=per_round
            )
        return await conn.request(call.method, params, forced=forced, timeout=per_round, fresh=True)

    try:
        return await once(False)
    except CapabilityNotDeclared:
        return await once(True)  # as the CLI: say nothing, send anyway; the assertions judge the answer


async def run_call(
    conn: Connection, call: SavedCall, *, timeout: float = 30.0, tools: _Tools | None = None
) -> CallReport:
    """Run one call (bounded by its ``timeout_ms``, else ``timeout`` seconds) and check its assertions."""
    limit = call.timeout_ms / 1000 if call.timeout_ms is not None else timeout
    schema: Mapping[str, Any] | None = None
    listed: bool | None = None
    tool: Mapping[str, Any] | None = None
    if call.method == "tools/call" and conn.is_open:
        tool, listed = await (tools or _Tools(conn)).lookup(call.subject, limit)
        found = tool.get("outputSchema") if tool is not None else None
        schema = found if isinstance(found, Mapping) else None
    started = time.monotonic()
    observed_kw: dict[str, Any]
    if not conn.is_open:
        observed = Observed(call.method, "failed", failure=conn.not_open_reason())
        checks = call.assertions or _DEFAULT_CHECKS
        return CallReport(call, observed, tuple(check(assertion, observed) for assertion in checks))
    try:
        result = await asyncio.wait_for(_send(conn, call, tool, limit), limit)
    except RemoteError as exc:
        error = {"code": exc.code, "message": exc.message}
        if exc.data is not None:
            error["data"] = exc.data
        observed_kw = {"outcome": "error", "error": error}
    except TimeoutError:
        observed_kw = {"outcome": "failed", "failure": f"no answer within {limit:g} s"}
    except ClientError as exc:
        observed_kw = {"outcome": "failed", "failure": message_of(exc)}
    else:
        is_error = isinstance(result, Mapping) and result.get("isError") is True
        observed_kw = {"outcome": "isError" if is_error else "ok", "result": result}
    elapsed = (time.monotonic() - started) * 1000
    observed = Observed(call.method, latency_ms=elapsed, output_schema=schema, tool_listed=listed, **observed_kw)
    checks = call.assertions or _DEFAULT_CHECKS
    return CallReport(call, observed, tuple(check(assertion, observed) for assertion in checks))


def _server_of(conn: Connection) -> dict[str, Any]:
    info = conn.server
    if info is None:
        return {}
    return {
        "name": info.server_info.get("name"),
        "version": info.server_info.get("version"),
        "protocolVersion": info.protocol_version,
        "era": info.era.value,
    }


async def run_collection(
    conn: Connection,
    collection: Collection,
    only: Sequence[str] | None = None,
    *,
    timeout: float = 30.0,
    on_call: Callable[[CallReport], None] | None = None,
) -> CollectionReport:
    """Run every call (or those named in ``only``, in the collection's order); ``on_call`` hears each report."""
    if only is not None:
        unknown = sorted(set(only) - {saved.name for saved in collection.calls})
        if unknown:
            raise KeyError(f"no call named {unknown[0]!r} in the collection")
    report = CollectionReport(collection, server=_server_of(conn))
    tools = _Tools(conn)
    started = time.monotonic()
    for saved in collection.calls:
        if only is not None and saved.name not in only:
            continue
        call_report = await run_call(conn, saved, timeout=timeout, tools=tools)
        report.calls.append(call_report)
        if on_call is not None:
            on_call(call_report)
    report.duration_ms = (time.monotonic() - started) * 1000
    return report
