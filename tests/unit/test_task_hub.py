"""The per-connection task hub (inspector.client.task_hub): callback wrapping, status routing, and the interim
removal of false CallToolResult violations on task handles. Frames are fed to the hub's callbacks by hand."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.client.connection import Connection
from inspector.client.task_hub import hub_for
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.events import NotificationReceived
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.transports.stdio import StdioTransport

STALE = Diagnostic(DiagnosticCode.SCHEMA, "tools/call result: Field required", path="$.result.content")
OTHER = Diagnostic(DiagnosticCode.SCHEMA, "tools/list result: something else", path="$.result.tools")
TASK25 = {"taskId": "t1", "status": "working", "createdAt": "2025-01-01T00:00:00Z", "lastUpdatedAt": "x", "ttl": 1}
HANDLE25 = {"task": TASK25}
HANDLE26 = {"resultType": "task", **{k: v for k, v in TASK25.items() if k != "ttl"}, "ttlMs": 1}


def conn(era: str) -> Connection:
    return Connection(StdioTransport("unused-command"), protocol_era=era)


def out_call(rid: int, params: dict[str, Any]) -> WireMessage:
    raw = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}).encode()
    return WireMessage(Direction.OUT, raw, Kind.REQUEST, "tools/call", rid)


def in_result(rid: int, result: Any, *diags: Diagnostic) -> WireMessage:
    raw = json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()
    return WireMessage(Direction.IN, raw, Kind.RESPONSE, "tools/call", rid, diagnostics=list(diags))


def deliver(c: Connection, wire: WireMessage) -> None:
    """What the connection does with an inbound frame: diagnostics first, then on_message."""
    c.diagnostics.extend(wire.diagnostics)
    assert c.on_message is not None
    c.on_message(wire)


@pytest.mark.parametrize(
    ("era", "params", "result", "removed"),
    [
        ("legacy", {"name": "t", "task": {}}, HANDLE25, True),  # asked for a task, got a handle
        ("legacy", {"name": "t"}, HANDLE25, False),  # a handle nobody asked for stays a violation
        ("legacy", {"name": "t", "task": {}}, {"content": 3}, False),  # a broken result is still broken
        ("modern", {"name": "t"}, HANDLE26, True),  # the server decides in 2026-07-28
        ("modern", {"name": "t"}, {"resultType": "complete"}, False),
    ],
)
def test_false_violations_of_task_handles_are_removed(
    era: str, params: dict[str, Any], result: Any, removed: bool
) -> None:
    c = conn(era)
    seen: list[WireMessage] = []
    c.on_message = seen.append
    hub_for(c)
    c.on_message(out_call(7, params))
    wire = in_result(7, result, STALE, OTHER)
    deliver(c, wire)
    expected = [OTHER] if removed else [STALE, OTHER]
    assert wire.diagnostics == expected and c.diagnostics == expected
    assert [w.direction for w in seen] == [Direction.OUT, Direction.IN]  # the previous callback still runs


def test_status_notifications_are_routed_and_kept() -> None:
    c = conn("legacy")
    before: list[str] = []
    c.on_notification = lambda ev: before.append(ev.method)
    hub = hub_for(c)
    got: list[tuple[str, dict[str, Any]]] = []
    hub.listen("t1", lambda method, params: got.append((method, params)))
    assert c.on_notification is not None
    c.on_notification(NotificationReceived("notifications/tasks/status", dict(TASK25)))
    c.on_notification(NotificationReceived("notifications/tasks/status", {**TASK25, "taskId": "t2"}))
    c.on_notification(NotificationReceived("notifications/message", {"level": "info", "data": "x"}))
    assert [params["taskId"] for _, params in got] == ["t1"]
    assert set(hub.latest) == {"t1", "t2"}
    assert before == ["notifications/tasks/status", "notifications/tasks/status", "notifications/message"]
    hub.unlisten("t1", lambda method, params: None)  # not registered: nothing happens
    hub.unlisten("t1", hub._listeners["t1"][0])
    c.on_notification(NotificationReceived("notifications/tasks/status", dict(TASK25)))
    assert len(got) == 1


def test_a_replaced_callback_is_wrapped_again_without_looping() -> None:
    c = conn("legacy")
    hub = hub_for(c)
    ours = c.on_notification
    calls: list[str] = []

    def theirs(ev: NotificationReceived) -> None:  # wraps ours, and is then wrapped by us
        calls.append("theirs")
        assert ours is not None
        ours(ev)

    c.on_notification = theirs
    assert hub_for(c) is hub and c.on_notification != theirs
    got: list[str] = []
    hub.listen("t1", lambda method, params: got.append(method))
    c.on_notification(NotificationReceived("notifications/tasks/status", dict(TASK25)))
    assert calls == ["theirs"] and got == ["notifications/tasks/status"]


def test_a_frame_sent_from_inside_a_callback_is_still_handed_on() -> None:
    c = conn("legacy")
    seen: list[bytes] = []

    def theirs(wire: WireMessage) -> None:
        seen.append(wire.raw)
        if len(seen) == 1:  # e.g. a window that answers something as soon as it sees a frame
            assert c.on_message is not None
            c.on_message(out_call(2, {"name": "u"}))

    c.on_message = theirs
    hub_for(c)
    c.on_message(out_call(1, {"name": "t"}))
    assert len(seen) == 2
