"""Helpers for the sans-I/O protocol tests: frames, a fake clock, and sessions in a known state.

Imported by the unit tests as ``sessionkit`` (pytest puts ``tests/unit`` on ``sys.path``).
Nothing here does I/O or uses asyncio.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from typing import Any

from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.events import Received
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.session import ClientSession, Timeouts
from inspector.protocol.wire import RequestId, WireMessage

__all__ = [
    "ALL_CLIENT_CAPS",
    "ALL_SERVER_CAPS",
    "FakeClock",
    "codes",
    "err",
    "frame",
    "init_result",
    "line",
    "note",
    "ok",
    "ready_session",
    "req",
    "sent",
    "sent_one",
    "started_session",
]

ALL_SERVER_CAPS: dict[str, Any] = {
    "tools": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
ALL_CLIENT_CAPS: dict[str, Any] = {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}}


def frame(obj: Any) -> bytes:
    """One JSON frame (no newline), compact, UTF-8 (``\\ud800``-style escapes kept as escapes)."""
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def line(obj: Any) -> bytes:
    """One newline-terminated stdio frame."""
    return frame(obj) + b"\n"


def ok(rid: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def err(rid: Any, code: Any, message: Any = "boom", data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


def req(rid: Any, method: str, params: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def note(method: str, params: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return msg


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def init_result(
    version: str = "2025-11-25",
    capabilities: dict[str, Any] | None = None,
    *,
    server_info: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "protocolVersion": version,
        "capabilities": ALL_SERVER_CAPS if capabilities is None else capabilities,
        "serverInfo": server_info or {"name": "fake-server", "version": "1.0.0"},
    }
    result.update(extra)
    return result


def started_session(
    *,
    version: str = "2025-11-25",
    client_caps: dict[str, Any] | None = None,
    clock: FakeClock | None = None,
    ids: Iterable[RequestId] | None = None,
    timeouts: Timeouts | None = None,
    init_timeouts: Timeouts | None = None,
    validate: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[ClientSession, FakeClock, RequestId]:
    """A session that has queued ``initialize`` (outbox emptied); returns it, its clock and the initialize id."""
    clock = clock or FakeClock()
    id_gen: Iterator[RequestId] | None = iter(ids) if ids is not None else None
    session = ClientSession(
        protocol_version=version,
        capabilities=ALL_CLIENT_CAPS if client_caps is None else client_caps,
        id_generator=id_gen,
        clock=clock,
        default_timeouts=timeouts,
        validate=validate,
        limits=limits,
    )
    rid = session.start(timeouts=init_timeouts)
    session.pop_outgoing()
    return session, clock, rid


def ready_session(
    *,
    version: str = "2025-11-25",
    server_version: str | None = None,
    server_caps: dict[str, Any] | None = None,
    client_caps: dict[str, Any] | None = None,
    clock: FakeClock | None = None,
    ids: Iterable[RequestId] | None = None,
    timeouts: Timeouts | None = None,
    validate: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    **result_extra: Any,
) -> tuple[ClientSession, FakeClock]:
    """A READY session (handshake done, outbox emptied). Ids default to 1, 2, 3, ... (initialize is 1)."""
    if ids is None:
        ids = itertools.count(1)
    session, clock, rid = started_session(
        version=version,
        client_caps=client_caps,
        clock=clock,
        ids=ids,
        timeouts=timeouts,
        validate=validate,
        limits=limits,
    )
    received = session.receive_frame(
        frame(ok(rid, init_result(server_version or version, server_caps, **result_extra)))
    )
    assert session.state == "ready", received
    session.pop_outgoing()
    return session, clock


def sent(session: ClientSession) -> list[dict[str, Any]]:
    """Pop every queued outbound frame and parse it."""
    return [json.loads(w.raw) for w in session.pop_outgoing()]


def sent_one(session: ClientSession) -> dict[str, Any]:
    out = sent(session)
    assert len(out) == 1, out
    return out[0]


def codes(item: Received | WireMessage | Iterable[Diagnostic]) -> list[str]:
    """The diagnostic codes (as strings) of a Received, a WireMessage or a list of diagnostics."""
    if isinstance(item, Received):
        diags: Iterable[Diagnostic] = item.wire.diagnostics
    elif isinstance(item, WireMessage):
        diags = item.diagnostics
    else:
        diags = item
    return [d.code.value for d in diags]
