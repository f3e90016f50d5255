"""The sans-I/O ClientSession: handshake, request table, gating, server requests, timeouts, wire records.

Table-driven, no subprocesses, no asyncio: frames go in, events and outgoing frames come out, and
time is a FakeClock moved by hand.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from typing import Any

import pytest
from sessionkit import (
    ALL_CLIENT_CAPS,
    ALL_SERVER_CAPS,
    FakeClock,
    codes,
    err,
    frame,
    init_result,
    line,
    note,
    ok,
    ready_session,
    req,
    sent,
    sent_one,
    started_session,
)

from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.events import (
    HandshakeCompleted,
    HandshakeFailed,
    NotificationReceived,
    ProgressReceived,
    Received,
    RequestCancelledByServer,
    RequestFailed,
    RequestReceived,
    ResponseReceived,
)
from inspector.protocol.session import (
    CapabilityNotDeclared,
    ClientSession,
    LocalProtocolError,
    SessionState,
    Timeouts,
)
from inspector.protocol.versions import HANDSHAKE_VERSIONS
from inspector.protocol.wire import Direction, Kind

C = DiagnosticCode
V = "2025-11-25"
OLDER = [v for v in HANDSHAKE_VERSIONS if v != V]


def diag_of(received: Received, code: DiagnosticCode):
    found = [d for d in received.wire.diagnostics if d.code is code]
    assert len(found) == 1, received.wire.diagnostics
    return found[0]


def only_event(received: Received) -> Any:
    assert len(received.events) == 1, received.events
    return received.events[0]


# ====================================================================== handshake


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_handshake_each_version_offered_and_chosen(version: str) -> None:
    clock = FakeClock()
    session = ClientSession(
        protocol_version=version,
        capabilities={"roots": {"listChanged": True}},
        client_info={"name": "t", "version": "9"},
        clock=clock,
    )
    assert session.state is SessionState.NEW
    rid = session.start()
    assert session.state is SessionState.INITIALIZING
    (init,) = session.pop_outgoing()
    assert (init.direction, init.kind, init.method, init.id) == (Direction.OUT, Kind.REQUEST, "initialize", rid)
    assert json.loads(init.raw) == {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {"roots": {"listChanged": True}},
            "clientInfo": {"name": "t", "version": "9"},
        },
    }
    result = init_result(version, {"tools": {}}, instructions="be nice")
    clock.advance(0.25)
    received = session.receive_frame(frame(ok(rid, result)))
    assert received.events == [HandshakeCompleted(version, result)]
    assert received.wire.diagnostics == []
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.RESPONSE, "initialize", rid)
    assert received.wire.latency == pytest.approx(0.25)
    assert session.state is SessionState.READY
    assert session.protocol_version == version
    assert session.server_capabilities == {"tools": {}}
    assert session.server_info == {"name": "fake-server", "version": "1.0.0"}
    assert session.instructions == "be nice"
    assert session.initialize_result == result
    event = received.events[0]
    assert (event.capabilities, event.server_info, event.instructions) == (
        {"tools": {}},
        result["serverInfo"],
        "be nice",
    )
    (initialized,) = session.pop_outgoing()
    assert initialized.raw == b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
    assert (initialized.kind, initialized.method, initialized.id) == (
        Kind.NOTIFICATION,
        "notifications/initialized",
        None,
    )
    assert session.pending == {}


def test_default_handshake_offers_2025_11_25_and_names_the_client() -> None:
    session = ClientSession()
    session.start()
    params = json.loads(session.pop_outgoing()[0].raw)["params"]
    assert params["protocolVersion"] == "2025-11-25"
    assert params["capabilities"] == {}
    assert params["clientInfo"]["name"] == "mcp-inspector-desktop"


@pytest.mark.parametrize(
    ("offered", "chosen"), [(a, b) for a in HANDSHAKE_VERSIONS for b in HANDSHAKE_VERSIONS if a != b]
)
def test_server_choosing_another_known_version_is_accepted_with_an_info(offered: str, chosen: str) -> None:
    session, _, rid = started_session(version=offered)
    received = session.receive_frame(frame(ok(rid, init_result(chosen))))
    assert received.events == [HandshakeCompleted(chosen, init_result(chosen))]
    assert session.state is SessionState.READY
    assert session.protocol_version == chosen
    assert session.offered_version == offered
    d = diag_of(received, C.VERSION_MISMATCH)
    assert d.severity is Severity.INFO
    assert d.path == "$.result.protocolVersion"
    assert offered in d.message and chosen in d.message
    assert [w.method for w in session.pop_outgoing()] == ["notifications/initialized"]


@pytest.mark.parametrize(
    "version",
    ["2099-01-01", "2026-07-28", "2025-11-25 ", "", 20251125, None, ["2025-11-25"]],
    ids=["future", "modern era", "trailing space", "empty", "number", "null", "array"],
)
def test_unknown_version_fails_the_handshake_clearly(version: Any) -> None:
    session, _, rid = started_session()
    received = session.receive_frame(frame(ok(rid, init_result(version))))
    (event,) = received.events
    assert isinstance(event, HandshakeFailed)
    assert repr(version) in event.reason
    assert "does not speak" in event.reason
    assert "2025-11-25" in event.reason  # the known versions are listed
    assert session.state is SessionState.FAILED
    assert session.failure == event.reason
    d = [d for d in received.wire.diagnostics if d.code is C.VERSION_MISMATCH]
    assert d and d[0].severity is Severity.VIOLATION and d[0].path == "$.result.protocolVersion"
    assert session.pop_outgoing() == []  # no notifications/initialized
    with pytest.raises(LocalProtocolError):
        session.send_request("tools/list")


def test_missing_protocol_version_fails_the_handshake() -> None:
    session, _, rid = started_session()
    result = init_result()
    del result["protocolVersion"]
    (event,) = session.receive_frame(frame(ok(rid, result))).events
    assert isinstance(event, HandshakeFailed)
    assert "None" in event.reason
    assert session.state is SessionState.FAILED


@pytest.mark.parametrize(
    ("answer", "code", "in_reason"),
    [
        (err(1, -32602, "Unsupported protocol version", {"supported": ["2024-11-05"]}), -32602, "Unsupported"),
        (err(1, -32603, ""), -32603, "Internal error"),
        (err(1, 123, "custom"), 123, "custom"),
    ],
    ids=["invalid params", "empty message", "custom code"],
)
def test_initialize_error_fails_the_handshake(answer: dict[str, Any], code: int, in_reason: str) -> None:
    session, _, rid = started_session()
    assert rid == 1
    received = session.receive_frame(frame(answer))
    (event,) = received.events
    assert isinstance(event, HandshakeFailed)
    assert event.code == code
    assert event.data == answer["error"].get("data")
    assert in_reason in event.reason
    assert event.reason.startswith("the server refused initialize")
    assert session.state is SessionState.FAILED
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.ERROR, "initialize", 1)
    assert session.pop_outgoing() == []


@pytest.mark.parametrize(
    "answer",
    [
        ok(1, "hello"),
        ok(1, None),
        ok(1, [1]),
    ],
    ids=["string result", "null result", "array result"],
)
def test_unusable_initialize_answer_fails_the_handshake(answer: dict[str, Any]) -> None:
    session, _, _ = started_session()
    (event,) = session.receive_frame(frame(answer)).events
    assert isinstance(event, HandshakeFailed)
    assert session.state is SessionState.FAILED
    assert session.pop_outgoing() == []


def test_initialize_result_with_schema_errors_still_completes() -> None:
    session, _, rid = started_session()
    result = {"protocolVersion": V, "capabilities": {"tools": {}}}  # serverInfo missing
    received = session.receive_frame(frame(ok(rid, result)))
    assert isinstance(only_event(received), HandshakeCompleted)
    assert session.state is SessionState.READY
    assert session.server_info == {}
    d = diag_of(received, C.SCHEMA)
    assert d.path == "$.result.serverInfo"


def test_non_object_capabilities_and_info_are_ignored() -> None:
    session, _, rid = started_session()
    result = {"protocolVersion": V, "capabilities": [], "serverInfo": "x", "instructions": 5}
    received = session.receive_frame(frame(ok(rid, result)))
    assert isinstance(only_event(received), HandshakeCompleted)
    assert (session.server_capabilities, session.server_info, session.instructions) == ({}, {}, None)
    assert C.SCHEMA in {d.code for d in received.wire.diagnostics}


@pytest.mark.parametrize("version", ["2024-01-01", "latest"])
def test_session_refuses_versions_it_cannot_drive(version: str) -> None:
    with pytest.raises(ValueError, match=version):
        ClientSession(protocol_version=version)


def test_local_misuse_raises_local_protocol_error() -> None:
    session = ClientSession()
    with pytest.raises(LocalProtocolError):
        session.send_request("tools/list")  # not started
    session.start()
    with pytest.raises(LocalProtocolError):
        session.start()
    with pytest.raises(LocalProtocolError):
        session.send_request("tools/list")  # still initializing
    session.send_request("ping")  # ping is allowed before the handshake ends
    ready, _ = ready_session()
    with pytest.raises(LocalProtocolError):
        ready.send_request("initialize")
    with pytest.raises(LocalProtocolError):
        ready.respond(99, {})
    with pytest.raises(LocalProtocolError):
        ready.respond_error(99, -32603, "x")


# ====================================================================== ids


def test_ids_come_from_the_injected_generator() -> None:
    session, _ = ready_session(ids=iter(["init", "a", "b", 7]))
    assert session.send_request("tools/list") == "a"
    assert session.send_request("ping") == "b"
    assert session.send_request("prompts/list") == 7
    assert [json.loads(w.raw)["id"] for w in session.pop_outgoing()] == ["a", "b", 7]


def test_generator_ids_that_are_still_pending_are_skipped() -> None:
    session, _ = ready_session(ids=iter([1, 2, 2, 2, 3]))
    assert session.send_request("ping") == 2
    assert session.send_request("ping") == 3


def test_progress_token_is_the_request_id_and_keeps_other_meta() -> None:
    session, _ = ready_session(ids=itertools.count(10))
    rid = session.send_request("tools/call", {"name": "t", "_meta": {"k": "v"}}, progress=True)
    msg = sent_one(session)
    assert msg["params"] == {"name": "t", "_meta": {"k": "v", "progressToken": rid}}
    assert session.pending[rid].progress_token == rid
    rid2 = session.send_request("tools/list", progress=True)
    assert sent_one(session)["params"] == {"_meta": {"progressToken": rid2}}


def test_request_without_params_has_no_params_key() -> None:
    session, _ = ready_session()
    session.send_request("tools/list")
    assert sent_one(session) == {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


# ====================================================================== response matching


def test_response_is_matched_and_delivered() -> None:
    session, clock = ready_session()
    rid = session.send_request("tools/list")
    clock.advance(1.5)
    result = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}
    received = session.receive_frame(frame(ok(rid, result)))
    assert received.events == [ResponseReceived(rid, "tools/list", result, ())]
    w = received.wire
    assert (w.direction, w.kind, w.method, w.id, w.diagnostics) == (Direction.IN, Kind.RESPONSE, "tools/list", rid, [])
    assert w.latency == pytest.approx(1.5)
    assert session.pending == {}


def test_unknown_response_id_is_a_diagnostic_not_an_event() -> None:
    session, _ = ready_session()
    rid = session.send_request("ping")
    received = session.receive_frame(frame(ok(999, {})))
    assert received.events == []
    assert codes(received) == ["unknown-response-id"]
    assert (received.wire.kind, received.wire.id, received.wire.method, received.wire.latency) == (
        Kind.RESPONSE,
        999,
        None,
        None,
    )
    assert rid in session.pending


@pytest.mark.parametrize(
    "second",
    [ok(2, {"tools": []}), err(2, -32603, "late error"), ok(2, "garbage")],
    ids=["second result", "second error", "second garbage"],
)
def test_duplicate_response_first_answer_wins(second: dict[str, Any]) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    assert rid == 2
    first = session.receive_frame(frame(ok(rid, {"tools": []})))
    assert isinstance(only_event(first), ResponseReceived)
    again = session.receive_frame(frame(second))
    assert again.events == []
    assert C.DUPLICATE_RESPONSE in {d.code for d in again.wire.diagnostics}


@pytest.mark.parametrize(
    ("ids", "answer_id"),
    [([1, 5], "5"), ([1, "7"], 7), ([1, -3], "-3"), ([1, 0], "0")],
    ids=["int answered as string", "string answered as int", "negative", "zero"],
)
def test_id_type_mismatch_is_flagged_but_matched(ids: list[Any], answer_id: Any) -> None:
    session, _ = ready_session(ids=iter(ids))
    rid = session.send_request("ping")
    received = session.receive_frame(frame(ok(answer_id, {})))
    assert received.events == [ResponseReceived(rid, "ping", {}, ())]
    d = diag_of(received, C.ID_TYPE_MISMATCH)
    assert d.path == "$.id"
    assert session.pending == {}
    # a second answer with the right type is now a duplicate
    assert C.DUPLICATE_RESPONSE in codes(session.receive_frame(frame(ok(rid, {}))))


@pytest.mark.parametrize("answer_id", ["05", "5.0", " 5", "five", "5 "])
def test_string_ids_that_are_not_the_same_integer_do_not_match(answer_id: str) -> None:
    session, _ = ready_session(ids=iter([1, 5]))
    session.send_request("ping")
    received = session.receive_frame(frame(ok(answer_id, {})))
    if answer_id == "05":
        # "05" reads as the integer 5: accepted as a type mismatch (lenient)
        assert C.ID_TYPE_MISMATCH in codes(received)
    else:
        assert received.events == []
        assert codes(received) == ["unknown-response-id"]


def test_late_answer_after_cancel_is_info() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    session.cancel(rid)
    received = session.receive_frame(frame(ok(rid, {"tools": []})))
    assert received.events == []
    d = diag_of(received, C.LATE_RESPONSE)
    assert d.severity is Severity.INFO
    assert "cancelled" in d.message


def test_late_answer_after_timeout_is_info() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=5))
    rid = session.send_request("tools/list")
    clock.advance(6)
    assert len(session.check_timeouts()) == 1
    received = session.receive_frame(frame(err(rid, -32603, "too slow")))
    assert received.events == []
    d = diag_of(received, C.LATE_RESPONSE)
    assert d.severity is Severity.INFO
    assert "timed out" in d.message


def test_late_answer_after_connection_lost() -> None:
    session, _ = ready_session()
    rid = session.send_request("ping")
    session.connection_lost("gone")
    received = session.receive_frame(frame(ok(rid, {})))
    assert received.events == []
    assert codes(received) == ["late-response"]


@pytest.mark.parametrize(
    ("error", "reason", "code", "data"),
    [
        ({"code": -32601, "message": "Method not found"}, "Method not found", -32601, None),
        ({"code": -32602, "message": "bad args", "data": {"field": "x"}}, "bad args", -32602, {"field": "x"}),
        ({"code": -32002, "message": ""}, "Resource not found", -32002, None),
        ({"code": -32042, "message": "", "data": [1]}, "URL elicitation required", -32042, [1]),
        ({"code": 42, "message": ""}, "error", 42, None),
        ({"code": "x", "message": "odd"}, "odd", None, None),
    ],
    ids=["method not found", "with data", "named code", "url elicitation", "unnamed code", "bad code"],
)
def test_error_response_fails_the_request(error: dict[str, Any], reason: str, code: int | None, data: Any) -> None:
    session, clock = ready_session()
    rid = session.send_request("resources/read", {"uri": "file:///x"})
    clock.advance(2)
    received = session.receive_frame(frame({"jsonrpc": "2.0", "id": rid, "error": error}))
    assert received.events == [RequestFailed(rid, "resources/read", reason, code, data, kind="error")]
    w = received.wire
    assert (w.kind, w.method, w.id, w.latency) == (Kind.ERROR, "resources/read", rid, 2)
    assert session.pending == {}


def test_result_and_error_delivers_the_result_with_a_violation() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    session.pop_outgoing()
    received = session.receive_frame(
        frame({"jsonrpc": "2.0", "id": rid, "result": {"tools": []}, "error": {"code": 7, "message": "m"}})
    )
    (event,) = received.events
    assert isinstance(event, ResponseReceived)
    assert (event.request_id, event.method, event.result) == (rid, "tools/list", {"tools": []})
    d = diag_of(received, C.RESULT_AND_ERROR)
    assert d.severity is Severity.VIOLATION
    assert 'the error ignored: 7 "m"' in d.message
    assert d.path == "$.error"
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.RESPONSE, "tools/list", rid)
    assert session.pending == {}
    assert session.pop_outgoing() == []  # nothing is answered to a response


def test_result_and_error_to_initialize_completes_the_handshake() -> None:
    session, _, rid = started_session()
    answer = {"jsonrpc": "2.0", "id": rid, "result": init_result(), "error": {"code": 1, "message": "m"}}
    received = session.receive_frame(frame(answer))
    assert any(isinstance(ev, HandshakeCompleted) for ev in received.events)
    assert codes(received) == ["result-and-error"]
    assert session.state is SessionState.READY


def test_result_and_error_without_a_usable_id_answers_nothing() -> None:
    session, _ = ready_session()
    rid = session.send_request("ping")
    session.pop_outgoing()
    received = session.receive_frame(frame({"jsonrpc": "2.0", "id": 1.5, "result": {}, "error": {}}))
    assert received.events == []
    assert rid in session.pending


def test_error_with_null_id_leaves_requests_pending() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    received = session.receive_frame(frame(err(None, -32700, "Parse error")))
    assert received.events == []
    d = diag_of(received, C.UNKNOWN_RESPONSE_ID)
    assert d.severity is Severity.WARNING
    assert "Parse error" in d.message
    assert (received.wire.kind, received.wire.id) == (Kind.ERROR, None)
    assert rid in session.pending


def test_response_without_usable_id_is_invalid_and_not_answered() -> None:
    session, _ = ready_session()
    session.send_request("ping")
    session.pop_outgoing()
    received = session.receive_frame(frame({"jsonrpc": "2.0", "id": 2.0, "result": {}}))
    assert received.events == []
    assert received.wire.kind is Kind.INVALID
    assert codes(received) == ["bad-id-type"]
    assert session.pop_outgoing() == []


# ====================================================================== schema diagnostics


@pytest.mark.parametrize(
    ("method", "params", "result", "paths"),
    [
        ("tools/list", None, {"tools": [{"name": 1, "inputSchema": {"type": "object"}}]}, ["$.result.tools[0].name"]),
        ("tools/list", None, {"tools": [{"name": "a"}]}, ["$.result.tools[0].inputSchema"]),
        ("tools/call", {"name": "t"}, {"content": [{"type": "text"}]}, ["$.result.content[0].text"]),
        (
            "prompts/list",
            None,
            {"prompts": [{"name": "p", "arguments": [{}]}]},
            ["$.result.prompts[0].arguments[0].name"],
        ),
        ("resources/templates/list", None, {"resourceTemplates": 3}, ["$.result.resourceTemplates"]),
        ("ping", None, [], ["$.result"]),
    ],
)
def test_schema_diagnostics_carry_json_paths_and_the_result_is_still_delivered(
    method: str, params: Any, result: Any, paths: list[str]
) -> None:
    session, _ = ready_session()
    rid = session.send_request(method, params)
    received = session.receive_frame(frame(ok(rid, result)))
    (event,) = received.events
    assert isinstance(event, ResponseReceived)
    assert event.result == result
    assert [d.path for d in event.diagnostics] == paths
    assert all(d.code is C.SCHEMA for d in event.diagnostics)
    assert received.wire.diagnostics == list(event.diagnostics)


def test_validation_can_be_switched_off() -> None:
    session, _ = ready_session(validate=False)
    rid = session.send_request("tools/list")
    received = session.receive_frame(frame(ok(rid, {"tools": "nope"})))
    assert received.events == [ResponseReceived(rid, "tools/list", {"tools": "nope"}, ())]
    assert received.wire.diagnostics == []


def test_results_of_custom_methods_are_not_validated() -> None:
    session, _ = ready_session()
    rid = session.send_request("vendor/thing", {"a": 1})
    received = session.receive_frame(frame(ok(rid, 12)))
    assert received.events == [ResponseReceived(rid, "vendor/thing", 12, ())]
    assert received.wire.diagnostics == []


def test_results_are_validated_against_the_negotiated_version() -> None:
    # resource_link content exists from 2025-06-18; the shape is checked per schema era, so it passes everywhere,
    # while a result that is wrong in every version fails in every version
    for version in HANDSHAKE_VERSIONS:
        session, _ = ready_session(version=version)
        rid = session.send_request("tools/call", {"name": "t"})
        received = session.receive_frame(frame(ok(rid, {"content": "text"})))
        assert [d.path for d in received.wire.diagnostics] == ["$.result.content"], version


def test_a_fifty_megabyte_result_is_delivered_quickly() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "big"})
    text = "x" * (50 * 1024 * 1024)
    data = line(ok(rid, {"content": [{"type": "text", "text": text}]}))
    start = time.perf_counter()
    got: list[Received] = []
    for i in range(0, len(data), 64 * 1024):
        got += session.receive_data(data[i : i + 64 * 1024])
    elapsed = time.perf_counter() - start
    (received,) = got
    (event,) = received.events
    assert isinstance(event, ResponseReceived)
    assert event.result["content"][0]["text"] == text
    assert received.wire.diagnostics == []
    assert elapsed < 20, f"{elapsed:.1f} s"


# ====================================================================== progress


def progress(token: Any, value: Any, total: Any = None, message: Any = None) -> dict[str, Any]:
    params: dict[str, Any] = {"progressToken": token, "progress": value}
    if total is not None:
        params["total"] = total
    if message is not None:
        params["message"] = message
    return note("notifications/progress", params)


def test_progress_is_routed_to_its_request() -> None:
    session, _ = ready_session()
    a = session.send_request("tools/call", {"name": "a"}, progress=True)
    b = session.send_request("tools/call", {"name": "b"}, progress=True)
    r1 = session.receive_frame(frame(progress(b, 1, 10, "one")))
    r2 = session.receive_frame(frame(progress(a, 0.5)))
    assert r1.events[0] == ProgressReceived(b, 1.0, 10.0, "one")
    assert isinstance(r1.events[1], NotificationReceived)
    assert r2.events[0] == ProgressReceived(a, 0.5, None, None)
    for r in (r1, r2):
        assert r.wire.diagnostics == []
        assert (r.wire.kind, r.wire.method, r.wire.id) == (Kind.NOTIFICATION, "notifications/progress", None)


@pytest.mark.parametrize(
    ("token_of", "why"),
    [
        (lambda rid: 999, "no such token"),
        (lambda rid: str(rid), "string for an int token"),
        (lambda rid: None, "null token"),
        (lambda rid: [rid], "array token"),
    ],
    ids=["unknown", "type mismatch", "null", "array"],
)
def test_progress_for_an_unknown_token(token_of, why: str) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"}, progress=True)
    received = session.receive_frame(frame(progress(token_of(rid), 1)))
    assert not any(isinstance(e, ProgressReceived) for e in received.events)
    d = diag_of(received, C.UNKNOWN_PROGRESS_TOKEN)
    assert d.severity is Severity.WARNING
    assert d.path == "$.params.progressToken"


def test_progress_after_the_answer_is_for_an_unknown_token() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"}, progress=True)
    session.receive_frame(frame(ok(rid, {"content": []})))
    received = session.receive_frame(frame(progress(rid, 1)))
    assert codes(received) == ["unknown-progress-token"]


def test_progress_on_a_request_that_asked_for_none() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"})
    assert codes(session.receive_frame(frame(progress(rid, 1)))) == ["unknown-progress-token"]


def test_progress_must_increase() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"}, progress=True)
    assert codes(session.receive_frame(frame(progress(rid, 5)))) == []
    received = session.receive_frame(frame(progress(rid, 5)))
    d = diag_of(received, C.SCHEMA)
    assert (d.severity, d.path) == (Severity.WARNING, "$.params.progress")
    assert ProgressReceived(rid, 5.0, None, None) in received.events  # still delivered
    assert C.SCHEMA in codes(session.receive_frame(frame(progress(rid, 4))))


def test_progress_with_a_non_number_is_a_schema_diagnostic() -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"}, progress=True)
    received = session.receive_frame(frame(progress(rid, "half")))
    assert [d.path for d in received.wire.diagnostics] == ["$.params.progress"]
    assert not any(isinstance(e, ProgressReceived) for e in received.events)


# ====================================================================== timeouts


def test_request_timeout_fails_and_cancels_at_the_server() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=10))
    rid = session.send_request("tools/call", {"name": "slow"})
    session.pop_outgoing()
    assert session.next_deadline() == clock.now + 10
    clock.advance(9.99)
    assert session.check_timeouts() == []
    clock.advance(0.01)
    (failed,) = session.check_timeouts()
    assert failed == RequestFailed(
        rid, "tools/call", "tools/call timed out after 10 s without an answer", code=-32001, kind="timeout"
    )
    assert sent_one(session) == {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": rid, "reason": failed.reason},
    }
    assert session.pending == {}
    assert session.next_deadline() is None
    assert session.check_timeouts() == []


def test_progress_resets_the_request_deadline() -> None:
    session, clock = ready_session(timeouts=Timeouts(request=10))
    rid = session.send_request("tools/call", {"name": "slow"}, progress=True)
    for step in range(1, 6):
        clock.advance(8)
        assert session.check_timeouts() == []
        session.receive_frame(frame(progress(rid, step)))
        assert session.next_deadline() == clock.now + 10
    clock.advance(10)
    (failed,) = session.check_timeouts()
    assert failed.kind == "timeout"


def test_progress_does_not_reset_when_told_not_to() -> None:
    session, clock = ready_session()
    rid = session.send_request(
        "tools/call", {"name": "slow"}, progress=True, timeouts=Timeouts(request=10, reset_on_progress=False)
    )
    clock.advance(8)
    session.receive_frame(frame(progress(rid, 1)))
    clock.advance(2)
    (failed,) = session.check_timeouts()
    assert failed.request_id == rid


def test_max_total_caps_a_request_whatever_the_progress() -> None:
    session, clock = ready_session()
    rid = session.send_request(
        "tools/call", {"name": "slow"}, progress=True, timeouts=Timeouts(request=10, max_total=25)
    )
    for step in range(1, 4):
        clock.advance(8)
        session.receive_frame(frame(progress(rid, step)))
        assert session.check_timeouts() == []
    assert session.next_deadline() == pytest.approx(clock.now + 1)  # the hard cap, not the reset deadline
    clock.advance(1)
    (failed,) = session.check_timeouts()
    assert failed.reason == "tools/call exceeded the maximum total time of 25 s"
    assert (failed.kind, failed.code) == ("timeout", -32001)


def test_no_request_timeout_only_max_total() -> None:
    session, clock = ready_session()
    rid = session.send_request("ping", timeouts=Timeouts(request=None, max_total=100))
    clock.advance(99)
    assert session.check_timeouts() == []
    clock.advance(1)
    assert [f.request_id for f in session.check_timeouts()] == [rid]


def test_no_deadline_at_all_never_times_out() -> None:
    session, clock = ready_session()
    session.send_request("ping", timeouts=Timeouts(request=None))
    assert session.next_deadline() is None
    clock.advance(1e9)
    assert session.check_timeouts() == []


def test_only_expired_requests_time_out() -> None:
    session, clock = ready_session()
    fast = session.send_request("ping", timeouts=Timeouts(request=1))
    slow = session.send_request("ping", timeouts=Timeouts(request=100))
    clock.advance(5)
    assert [f.request_id for f in session.check_timeouts()] == [fast]
    assert list(session.pending) == [slow]


def test_initialize_timeout_fails_the_session_without_cancelling() -> None:
    session, clock, rid = started_session(init_timeouts=Timeouts(request=3))
    clock.advance(3)
    (failed,) = session.check_timeouts()
    assert (failed.request_id, failed.method, failed.kind) == (rid, "initialize", "timeout")
    assert session.state is SessionState.FAILED
    assert session.failure == failed.reason
    assert session.pop_outgoing() == []  # initialize is never cancelled
    late = session.receive_frame(frame(ok(rid, init_result())))
    assert late.events == []
    assert codes(late) == ["late-response"]
    assert session.state is SessionState.FAILED


# ====================================================================== cancel and connection loss


@pytest.mark.parametrize(("reason", "params_reason"), [("user pressed stop", "user pressed stop"), (None, None)])
def test_cancel_notifies_the_server(reason: str | None, params_reason: str | None) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "slow"}, progress=True)
    session.pop_outgoing()
    failed = session.cancel(rid, reason)
    assert failed == RequestFailed(rid, "tools/call", reason or "cancelled", kind="cancelled")
    expected: dict[str, Any] = {"requestId": rid}
    if params_reason:
        expected["reason"] = params_reason
    (wire,) = session.pop_outgoing()
    assert json.loads(wire.raw) == {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": expected}
    assert (wire.kind, wire.method) == (Kind.NOTIFICATION, "notifications/cancelled")
    assert session.pending == {}
    # progress for it is now unknown
    assert codes(session.receive_frame(frame(progress(rid, 1)))) == ["unknown-progress-token"]


def test_cancel_of_an_unknown_or_finished_request_does_nothing() -> None:
    session, _ = ready_session()
    assert session.cancel(12345) is None
    rid = session.send_request("ping")
    session.receive_frame(frame(ok(rid, {})))
    session.pop_outgoing()
    assert session.cancel(rid) is None
    assert session.pop_outgoing() == []


def test_initialize_is_never_cancelled_on_the_wire() -> None:
    session, _, rid = started_session()
    failed = session.cancel(rid, "bored")
    assert failed is not None and failed.kind == "cancelled"
    assert session.pop_outgoing() == []


@pytest.mark.parametrize("ready", [True, False], ids=["ready", "initializing"])
def test_connection_lost_fails_every_pending_request(ready: bool) -> None:
    if ready:
        session, _ = ready_session()
        ids = [session.send_request("ping"), session.send_request("tools/list"), session.send_request("prompts/list")]
        methods = ["ping", "tools/list", "prompts/list"]
    else:
        session, _, rid = started_session()
        ids, methods = [rid], ["initialize"]
    failed = session.connection_lost("server exited with status 1: boom")
    assert failed == [
        RequestFailed(i, m, "server exited with status 1: boom", kind="lost") for i, m in zip(ids, methods, strict=True)
    ]
    assert session.pending == {}
    assert session.next_deadline() is None
    assert session.state is (SessionState.CLOSED if ready else SessionState.FAILED)
    if not ready:
        assert session.failure == "server exited with status 1: boom"


def test_connection_lost_forgets_server_requests() -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req(5, "roots/list")))
    assert session.is_answerable(5)
    session.connection_lost("gone")
    assert not session.is_answerable(5)


# ====================================================================== outbound capability gating

GATED = [
    ("tools/list", "tools", {"resources": {}}),
    ("tools/call", "tools", {}),
    ("resources/list", "resources", {"tools": {}}),
    ("resources/read", "resources", {}),
    ("resources/templates/list", "resources", {}),
    ("resources/subscribe", "resources.subscribe", {"resources": {}}),
    ("resources/unsubscribe", "resources.subscribe", {"resources": {"subscribe": False}}),
    ("prompts/list", "prompts", {"tools": {}}),
    ("prompts/get", "prompts", {}),
    ("logging/setLevel", "logging", {}),
    ("completion/complete", "completions", {"prompts": {}}),
]


@pytest.mark.parametrize(("method", "cap", "server_caps"), GATED)
def test_undeclared_capability_refuses_to_send(method: str, cap: str, server_caps: dict[str, Any]) -> None:
    session, _ = ready_session(server_caps=server_caps)
    with pytest.raises(CapabilityNotDeclared) as info:
        session.send_request(method, {})
    assert (info.value.method, info.value.capability) == (method, cap)
    assert cap in str(info.value)
    assert isinstance(info.value, LocalProtocolError)
    assert session.pop_outgoing() == []
    assert session.pending == {}


@pytest.mark.parametrize(("method", "cap", "server_caps"), GATED)
def test_forced_send_is_marked(method: str, cap: str, server_caps: dict[str, Any]) -> None:
    session, _ = ready_session(server_caps=server_caps)
    rid = session.send_request(method, {}, forced=True)
    (wire,) = session.pop_outgoing()
    assert wire.forced is True
    assert session.pending[rid].forced is True
    (d,) = wire.diagnostics
    assert (d.code, d.severity) == (C.FORCED, Severity.INFO)
    assert json.loads(wire.raw) == {"jsonrpc": "2.0", "id": rid, "method": method, "params": {}}


@pytest.mark.parametrize(("method", "cap", "server_caps"), GATED)
def test_declared_capability_sends_unforced(method: str, cap: str, server_caps: dict[str, Any]) -> None:
    session, _ = ready_session(server_caps=ALL_SERVER_CAPS)
    session.send_request(method, {}, forced=True)  # forcing what is declared is not "forced"
    (wire,) = session.pop_outgoing()
    assert wire.forced is False
    assert wire.diagnostics == []


@pytest.mark.parametrize(
    ("version", "gated"), [("2024-11-05", False), ("2025-03-26", True), ("2025-06-18", True), (V, True)]
)
def test_completion_is_gated_only_from_2025_03_26(version: str, gated: bool) -> None:
    session, _ = ready_session(version=version, server_caps={"prompts": {}})
    params = {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}
    if gated:
        with pytest.raises(CapabilityNotDeclared):
            session.send_request("completion/complete", params)
    else:
        session.send_request("completion/complete", params)
        assert session.pop_outgoing()[0].forced is False


@pytest.mark.parametrize("method", ["ping", "vendor/custom", "tasks/list"])
def test_ungated_methods_need_no_capability(method: str) -> None:
    session, _ = ready_session(server_caps={})
    session.send_request(method)
    (wire,) = session.pop_outgoing()
    assert not wire.forced and wire.diagnostics == []


# ====================================================================== server -> client requests


@pytest.mark.parametrize("rid", [0, 7, "abc", -1])
def test_ping_from_the_server_is_answered_at_once(rid: Any) -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(req(rid, "ping")))
    assert received.events == []
    assert received.wire.diagnostics == []
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.REQUEST, "ping", rid)
    (answer,) = session.pop_outgoing()
    assert answer.raw == b'{"jsonrpc":"2.0","id":' + json.dumps(rid).encode() + b',"result":{}}'
    assert (answer.direction, answer.kind, answer.method, answer.id) == (Direction.OUT, Kind.RESPONSE, "ping", rid)
    assert not session.is_answerable(rid)


def test_ping_before_the_handshake_is_answered_without_complaint() -> None:
    session, _, _ = started_session()
    received = session.receive_frame(frame(req("p", "ping")))
    assert received.wire.diagnostics == []
    assert sent(session) == [ok("p", {})]


SAMPLING = {
    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
    "maxTokens": 10,
}
ELICIT = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}}
SERVER_REQUESTS = [
    (
        "sampling/createMessage",
        "sampling",
        SAMPLING,
        {"role": "assistant", "content": {"type": "text", "text": "yo"}, "model": "m"},
    ),
    ("elicitation/create", "elicitation", ELICIT, {"action": "accept", "content": {"n": "x"}}),
    ("roots/list", "roots", None, {"roots": [{"uri": "file:///tmp", "name": "tmp"}]}),
]


@pytest.mark.parametrize(("method", "cap", "params", "answer"), SERVER_REQUESTS, ids=[s[0] for s in SERVER_REQUESTS])
def test_declared_server_request_is_dispatched_and_answered(method: str, cap: str, params: Any, answer: Any) -> None:
    session, _ = ready_session(client_caps={cap: {}})
    received = session.receive_frame(frame(req(41, method, params)))
    assert received.events == [RequestReceived(41, method, params, method, ())]
    assert received.wire.diagnostics == []
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.REQUEST, method, 41)
    assert session.pop_outgoing() == []  # the application answers
    assert session.is_answerable(41)
    session.respond(41, answer)
    assert not session.is_answerable(41)
    (wire,) = session.pop_outgoing()
    assert wire.raw == b'{"jsonrpc":"2.0","id":41,"result":' + json.dumps(answer, separators=(",", ":")).encode() + b"}"
    assert (wire.kind, wire.method, wire.id, wire.diagnostics) == (Kind.RESPONSE, method, 41, [])
    with pytest.raises(LocalProtocolError):
        session.respond(41, answer)


@pytest.mark.parametrize(("method", "cap", "params", "answer"), SERVER_REQUESTS, ids=[s[0] for s in SERVER_REQUESTS])
def test_respond_error_produces_the_exact_frame(method: str, cap: str, params: Any, answer: Any) -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req("r1", method, params)))
    session.respond_error("r1", -1, "User rejected", {"why": "no"})
    (wire,) = session.pop_outgoing()
    assert wire.raw == b'{"jsonrpc":"2.0","id":"r1","error":{"code":-1,"message":"User rejected","data":{"why":"no"}}}'
    assert (wire.kind, wire.method, wire.id) == (Kind.ERROR, method, "r1")
    assert not session.is_answerable("r1")


@pytest.mark.parametrize(("method", "cap", "params", "answer"), SERVER_REQUESTS, ids=[s[0] for s in SERVER_REQUESTS])
def test_undeclared_server_request_is_refused(method: str, cap: str, params: Any, answer: Any) -> None:
    others = {k: v for k, v in ALL_CLIENT_CAPS.items() if k != cap}
    session, _ = ready_session(client_caps=others)
    received = session.receive_frame(frame(req(8, method, params)))
    assert received.events == []
    d = diag_of(received, C.UNDECLARED_CAPABILITY)
    assert d.severity is Severity.VIOLATION
    assert cap in d.message
    (wire,) = session.pop_outgoing()
    assert wire.raw == (
        b'{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found: the client did not declare the \''
        + cap.encode()
        + b"' capability\"}}"
    )
    assert (wire.kind, wire.method, wire.id) == (Kind.ERROR, method, 8)
    assert not session.is_answerable(8)


@pytest.mark.parametrize(
    ("method", "version"),
    [
        ("tools/list", V),
        ("vendor/custom", V),
        ("initialize", V),
        ("elicitation/create", "2025-03-26"),
        ("elicitation/create", "2024-11-05"),
        ("tasks/get", V),
    ],
)
def test_unknown_server_request_gets_method_not_found(method: str, version: str) -> None:
    session, _ = ready_session(version=version)
    received = session.receive_frame(frame(req(3, method, {})))
    assert received.events == []
    d = diag_of(received, C.UNKNOWN_METHOD)
    assert d.severity is Severity.WARNING
    assert version in d.message
    assert sent(session) == [err(3, -32601, f"Method not found: {method}")]


def test_elicitation_request_alias_is_answered_as_elicitation_create() -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(req(5, "elicitation/request", ELICIT)))
    assert received.events == [
        RequestReceived(5, "elicitation/create", ELICIT, "elicitation/request", ()),
    ]
    d = diag_of(received, C.NON_STANDARD_METHOD)
    assert (d.severity, d.path) == (Severity.WARNING, "$.method")
    assert "elicitation/create" in d.message
    assert received.wire.method == "elicitation/request"  # the record shows what was sent
    session.respond(5, {"action": "decline"})
    (wire,) = session.pop_outgoing()
    assert wire.raw == b'{"jsonrpc":"2.0","id":5,"result":{"action":"decline"}}'
    assert wire.method == "elicitation/request"
    assert wire.diagnostics == []  # validated as an elicitation/create result


def test_elicitation_request_alias_without_the_capability_is_refused() -> None:
    session, _ = ready_session(client_caps={"sampling": {}})
    received = session.receive_frame(frame(req(5, "elicitation/request", ELICIT)))
    assert received.events == []
    assert set(codes(received)) == {"non-standard-method", "undeclared-capability"}
    assert sent(session)[0]["error"]["code"] == -32601


def test_server_request_with_schema_errors_is_still_dispatched() -> None:
    session, _ = ready_session()
    params = {"messages": [{"role": "robot", "content": {"type": "text", "text": "x"}}], "maxTokens": 5}
    received = session.receive_frame(frame(req(1, "sampling/createMessage", params)))
    (event,) = received.events
    assert isinstance(event, RequestReceived)
    assert [d.path for d in event.diagnostics] == ["$.params.messages[0].role"]
    assert received.wire.diagnostics == list(event.diagnostics)


def test_our_invalid_answer_is_flagged_as_a_warning() -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req(1, "roots/list")))
    session.respond(1, {"roots": [{"name": "no uri"}]})
    (wire,) = session.pop_outgoing()
    (d,) = wire.diagnostics
    assert (d.code, d.severity, d.path) == (C.SCHEMA, Severity.WARNING, "$.result.roots[0].uri")
    assert d.message.startswith("our answer:")


def test_server_cancels_its_own_request() -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req("s1", "sampling/createMessage", SAMPLING)))
    assert session.is_answerable("s1")
    received = session.receive_frame(
        frame(note("notifications/cancelled", {"requestId": "s1", "reason": "changed mind"}))
    )
    assert received.events == [
        RequestCancelledByServer("s1", "changed mind"),
        NotificationReceived("notifications/cancelled", {"requestId": "s1", "reason": "changed mind"}),
    ]
    assert received.wire.diagnostics == []
    assert not session.is_answerable("s1")
    with pytest.raises(LocalProtocolError):
        session.respond("s1", {})
    assert session.pop_outgoing() == []


def test_server_cancellation_without_reason() -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req(2, "roots/list")))
    received = session.receive_frame(frame(note("notifications/cancelled", {"requestId": 2})))
    assert received.events[0] == RequestCancelledByServer(2, None)


@pytest.mark.parametrize("rid", [99, "2", None], ids=["unknown", "type mismatch", "null"])
def test_server_cancellation_of_an_unknown_request_is_info(rid: Any) -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req(2, "roots/list")))
    received = session.receive_frame(frame(note("notifications/cancelled", {"requestId": rid})))
    assert not any(isinstance(e, RequestCancelledByServer) for e in received.events)
    d = diag_of(received, C.UNKNOWN_RESPONSE_ID)
    assert d.severity is Severity.INFO
    assert session.is_answerable(2)


def test_server_reusing_a_pending_request_id_is_flagged() -> None:
    session, _ = ready_session()
    session.receive_frame(frame(req(1, "roots/list")))
    received = session.receive_frame(frame(req(1, "roots/list")))
    assert C.DUPLICATE_RESPONSE in codes(received)


# ====================================================================== before the handshake


@pytest.mark.parametrize(
    ("message", "code", "severity"),
    [
        (note("notifications/tools/list_changed"), C.BEFORE_HANDSHAKE, Severity.WARNING),
        (note("notifications/progress", {"progressToken": 1, "progress": 1}), C.BEFORE_HANDSHAKE, Severity.WARNING),
        (req(1, "roots/list"), C.BEFORE_HANDSHAKE, Severity.VIOLATION),
        (req(2, "sampling/createMessage", SAMPLING), C.BEFORE_HANDSHAKE, Severity.VIOLATION),
    ],
    ids=["list_changed", "progress", "roots", "sampling"],
)
def test_messages_before_the_handshake_are_flagged(message: dict[str, Any], code: DiagnosticCode, severity) -> None:
    session, _, _ = started_session()
    received = session.receive_frame(frame(message))
    d = diag_of(received, code)
    assert d.severity is severity
    assert received.events  # still delivered


def test_log_messages_before_the_handshake_are_allowed() -> None:
    session, _, _ = started_session()
    received = session.receive_frame(frame(note("notifications/message", {"level": "info", "data": "booting"})))
    assert received.wire.diagnostics == []
    assert received.events == [NotificationReceived("notifications/message", {"level": "info", "data": "booting"})]


# ====================================================================== server notifications


@pytest.mark.parametrize(
    ("method", "params", "caps", "expected"),
    [
        ("notifications/tools/list_changed", None, {"tools": {"listChanged": True}}, []),
        ("notifications/tools/list_changed", None, {"tools": {}}, ["undeclared-capability"]),
        ("notifications/prompts/list_changed", None, {}, ["undeclared-capability"]),
        ("notifications/resources/list_changed", None, {"resources": {"listChanged": True}}, []),
        ("notifications/resources/updated", {"uri": "file:///a"}, {"resources": {"subscribe": True}}, []),
        ("notifications/resources/updated", {"uri": "file:///a"}, {"resources": {}}, ["undeclared-capability"]),
        ("notifications/message", {"level": "info", "data": 1}, {"logging": {}}, []),
        ("notifications/message", {"level": "info", "data": 1}, {}, ["undeclared-capability"]),
        ("notifications/message", {"level": "loud", "data": 1}, {"logging": {}}, ["schema"]),
        ("notifications/resources/updated", {}, {"resources": {"subscribe": True}}, ["schema"]),
        ("notifications/vendor/custom", {"x": 1}, {}, ["unknown-method"]),
        ("notifications/elicitation/complete", {"elicitationId": "e"}, {}, []),
        ("vendor/custom", None, {}, ["unknown-method"]),
        ("notifications/initialized", None, {}, ["unknown-method"]),
        ("notifications/roots/list_changed", None, {}, ["unknown-method"]),
    ],
)
def test_server_notifications(method: str, params: Any, caps: dict[str, Any], expected: list[str]) -> None:
    session, _ = ready_session(server_caps=caps)
    received = session.receive_frame(frame(note(method, params)))
    assert codes(received) == expected
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.NOTIFICATION, method, None)
    (event,) = received.events
    assert isinstance(event, NotificationReceived)
    assert (event.method, event.params) == (method, params)
    assert [d.code.value for d in event.diagnostics] == [c for c in expected if c == "schema"]
    assert session.pop_outgoing() == []  # notifications are never answered


@pytest.mark.parametrize(
    ("version", "method", "known"),
    [
        ("2025-06-18", "notifications/elicitation/complete", False),
        ("2025-11-25", "notifications/elicitation/complete", True),
        ("2024-11-05", "notifications/progress", True),
    ],
)
def test_notifications_are_known_per_version(version: str, method: str, known: bool) -> None:
    session, _ = ready_session(version=version)
    received = session.receive_frame(frame(note(method, {"elicitationId": "e"})))
    assert ("unknown-method" not in codes(received)) is known


def test_unknown_methods_are_flagged_even_without_schema_validation() -> None:
    session, _ = ready_session(validate=False)
    assert codes(session.receive_frame(frame(note("vendor/thing")))) == ["unknown-method"]
    assert codes(session.receive_frame(frame(note("notifications/message", {"level": 5})))) == []  # no schema check
    received = session.receive_frame(frame(req(1, "tools/list")))
    assert codes(received) == ["unknown-method"]
    assert sent(session) == [err(1, -32601, "Method not found: tools/list")]
    received = session.receive_frame(frame(req(2, "roots/list", {"_meta": 5})))
    assert received.events == [RequestReceived(2, "roots/list", {"_meta": 5}, "roots/list", ())]


def test_schema_diagnostic_paths_on_notifications() -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(note("notifications/message", {"level": "loud", "data": 1})))
    assert [d.path for d in received.wire.diagnostics] == ["$.params.level"]


# ====================================================================== batches


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_batches_are_processed_but_flagged_outside_2025_03_26(version: str) -> None:
    session, _ = ready_session(version=version)
    a = session.send_request("ping")
    b = session.send_request("tools/list")
    batch = [
        ok(a, {}),
        note("notifications/message", {"level": "info", "data": "x"}),
        err(b, -32603, "no"),
        req(9, "ping"),
    ]
    received = session.receive_frame(frame(batch))
    session.pop_outgoing()
    assert received.events == [
        ResponseReceived(a, "ping", {}, ()),
        NotificationReceived("notifications/message", {"level": "info", "data": "x"}),
        RequestFailed(b, "tools/list", "no", -32603, kind="error"),
    ]
    batch_diags = [d for d in received.wire.diagnostics if d.code is C.BATCH_UNSUPPORTED]
    assert len(batch_diags) == (0 if version == "2025-03-26" else 1)
    assert (received.wire.kind, received.wire.method, received.wire.id) == (Kind.RESPONSE, "ping", a)  # the first
    assert session.pending == {}


def test_batch_server_ping_is_answered() -> None:
    session, _ = ready_session(version="2025-03-26")
    session.receive_frame(frame([req(1, "ping"), req(2, "ping")]))
    assert sent(session) == [ok(1, {}), ok(2, {})]


def test_empty_batch_is_an_invalid_request() -> None:
    session, _ = ready_session(version="2025-03-26")
    received = session.receive_frame(b"[]")
    assert received.events == []
    assert codes(received) == ["batch-unsupported"]
    assert received.wire.kind is Kind.INVALID
    (wire,) = session.pop_outgoing()
    assert wire.raw == b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: empty batch"}}'


def test_batch_with_broken_elements() -> None:
    session, _ = ready_session(version="2025-03-26")
    received = session.receive_frame(frame([1, {"jsonrpc": "2.0"}, [note("n")]]))
    assert codes(received) == ["not-an-object", "no-result-nor-error", "not-an-object"]
    assert [m["error"]["code"] for m in sent(session)] == [-32600, -32600, -32600]


# ====================================================================== frames that cannot be read


@pytest.mark.parametrize(
    ("raw", "code", "reply"),
    [
        (b"Starting server on stdio...", C.INVALID_JSON, -32700),
        (b'{"jsonrpc":"2.0","method":"x"', C.INVALID_JSON, -32700),
        (b'{"jsonrpc":"2.0","method":"caf\xe9"}', C.INVALID_UTF8, -32700),
        (b"[" * 200_000 + b"]" * 200_000, C.JSON_TOO_DEEP, None),
    ],
    ids=["banner", "truncated", "latin-1", "deep"],
)
def test_unreadable_frames(raw: bytes, code: DiagnosticCode, reply: int | None) -> None:
    session, _ = ready_session()
    received = session.receive_frame(raw)
    assert received.events == []
    w = received.wire
    assert (w.direction, w.kind, w.method, w.id, w.raw) == (Direction.IN, Kind.INVALID, None, None, raw)
    (d,) = w.diagnostics
    assert d.code is code
    assert d.raw == raw
    out = sent(session)
    if reply is None:
        assert out == []
    else:
        (answer,) = out
        assert answer["id"] is None
        assert answer["error"]["code"] == reply
        assert answer["error"]["message"].startswith("Parse error: ")


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        (
            {"jsonrpc": "2.0", "id": 4, "method": "roots/list", "params": [1]},
            err(4, -32600, "Invalid request: params is not an object"),
        ),
        ({"id": 4, "method": "ping"}, err(4, -32600, 'Invalid request: request without "jsonrpc": "2.0"')),
        (
            {"jsonrpc": "2.0", "id": 4.5, "method": "ping"},
            err(None, -32600, "Invalid request: request id has a wrong type"),
        ),
        ({"jsonrpc": "2.0", "id": 4, "method": 12}, err(4, -32600, "Invalid request: method is not a string")),
        ({"jsonrpc": "2.0", "id": 4}, err(4, -32600, "Invalid request: neither a call nor an answer")),
        ("just a string", err(None, -32600, "Invalid request: message is not a JSON object")),
        ({"jsonrpc": "2.0", "method": "n", "params": "x"}, None),
        ({"jsonrpc": "2.0", "method": 3}, None),
    ],
    ids=[
        "params array",
        "no jsonrpc",
        "float id",
        "method number",
        "no method no result",
        "not an object",
        "notification bad params",
        "notification bad method",
    ],
)
def test_invalid_envelopes_are_answered_only_when_json_rpc_says_so(message: Any, reply: dict[str, Any] | None) -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(message))
    assert received.events == []
    assert received.wire.kind is Kind.INVALID
    assert received.wire.diagnostics
    assert sent(session) == ([] if reply is None else [reply])


DEEP_RESULT = b"[" * 200_000 + b"]" * 200_000


@pytest.mark.parametrize(
    ("template", "rid", "reply"),
    [
        (b'{"jsonrpc":"2.0","id":%s,"result":' + DEEP_RESULT + b"}", 2, None),
        (b'{"jsonrpc":"2.0","id":%s,"result":' + DEEP_RESULT + b"}", "abc", None),
        # an unreadable answer to our own request is not answered with a parse error: it was no request
        (b'{"id":%s,"jsonrpc":"2.0","result":{"tools":[{"name":', 2, None),
        (b'  {"jsonrpc":"2.0", "id" : %s, "result":{"text":"caf\xe9"}}', 2, None),
        (b'{"jsonrpc":"2.0","id":%s,"error":{"code":1,"message":"\xff"}}', "abc", None),
    ],
    ids=["deep, int id", "deep, string id", "truncated", "invalid utf-8", "invalid utf-8 error"],
)
def test_unreadable_answer_with_a_salvageable_id_fails_its_request_at_once(template: bytes, rid: Any, reply) -> None:
    ids = iter([1, rid])
    session, clock = ready_session(ids=ids)
    got = session.send_request("tools/list")
    assert got == rid
    session.pop_outgoing()
    clock.advance(0.5)
    raw = template % json.dumps(rid).encode()
    received = session.receive_frame(raw)
    (event,) = received.events
    assert isinstance(event, RequestFailed)
    assert (event.request_id, event.method, event.kind) == (rid, "tools/list", "invalid")
    assert event.reason.startswith("the answer could not be read")
    w = received.wire
    assert (w.kind, w.method, w.id, w.latency) == (Kind.INVALID, "tools/list", rid, 0.5)
    assert session.pending == {}
    assert [m["error"]["code"] for m in sent(session)] == ([] if reply is None else [reply])
    # a readable answer after that is a duplicate
    assert C.DUPLICATE_RESPONSE in codes(session.receive_frame(frame(ok(rid, {"tools": []}))))


def test_unreadable_initialize_answer_fails_the_handshake_at_once() -> None:
    session, _, rid = started_session()
    received = session.receive_frame(b'{"jsonrpc":"2.0","id":%d,"result":' % rid + DEEP_RESULT + b"}")
    (event,) = received.events
    assert isinstance(event, HandshakeFailed)
    assert session.state is SessionState.FAILED


@pytest.mark.parametrize(
    "raw",
    [
        b'{"jsonrpc":"2.0","id":77,"result":' + DEEP_RESULT + b"}",  # not a pending id
        b"[" + b'{"jsonrpc":"2.0","id":2,"result":' + DEEP_RESULT + b"}]",  # inside a batch: not salvaged
        b'{"nested":{"id":2},"result":' + DEEP_RESULT + b"}",  # the id is not at the top
        b"garbage 2",
    ],
    ids=["unknown id", "batch", "nested id", "garbage"],
)
def test_unreadable_frames_without_a_pending_id_leave_requests_alone(raw: bytes) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    assert rid == 2
    received = session.receive_frame(raw)
    assert received.events == []
    assert rid in session.pending


@pytest.mark.parametrize(
    "raw",
    [
        b'{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"x":"\xff"}}',
        b'{"jsonrpc":"2.0","id":2,"method":"roots/list","params":' + DEEP_RESULT + b"}",
        b'{"jsonrpc":"2.0","id":2.5,"result":' + DEEP_RESULT + b"}",
        b'{"jsonrpc":"2.0","id":2e0,"result":{"x":"\xff"}}',
    ],
    ids=["server request, invalid utf-8", "server request, deep", "float id", "exponent id"],
)
def test_unreadable_frames_that_are_not_answers_to_our_request_leave_it_pending(raw: bytes) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/list")
    assert rid == 2
    received = session.receive_frame(raw)
    assert received.events == []
    assert rid in session.pending


# ====================================================================== wire records


def _records_session() -> tuple[ClientSession, FakeClock, list[Any]]:
    session, clock = ready_session()
    ids = [session.send_request("tools/list"), session.send_request("ping")]
    clock.advance(0.75)
    return session, clock, ids


WIRE = [
    # (id, message (ids 2 and 3 are pending: tools/list and ping), kind, method, id, latency)
    ("response", ok(2, {"tools": []}), Kind.RESPONSE, "tools/list", 2, 0.75),
    ("error", err(3, -32603, "x"), Kind.ERROR, "ping", 3, 0.75),
    ("result and error", {"jsonrpc": "2.0", "id": 2, "result": {}, "error": {}}, Kind.RESPONSE, "tools/list", 2, 0.75),
    ("unknown id", ok(50, {}), Kind.RESPONSE, None, 50, None),
    ("error unknown id", err("zz", 1, "x"), Kind.ERROR, None, "zz", None),
    ("error null id", err(None, 1, "x"), Kind.ERROR, None, None, None),
    (
        "notification",
        note("notifications/tools/list_changed"),
        Kind.NOTIFICATION,
        "notifications/tools/list_changed",
        None,
        None,
    ),
    ("server request", req("q", "roots/list"), Kind.REQUEST, "roots/list", "q", None),
    ("server ping", req(5, "ping"), Kind.REQUEST, "ping", 5, None),
    ("alias", req(6, "elicitation/request", ELICIT), Kind.REQUEST, "elicitation/request", 6, None),
    ("unknown method", req(7, "nope/nope"), Kind.REQUEST, "nope/nope", 7, None),
    ("bad params request", req(8, "roots/list", [1]), Kind.INVALID, "roots/list", None, None),
    ("bad id response", {"jsonrpc": "2.0", "id": True, "result": {}}, Kind.INVALID, None, None, None),
    ("not an object", 42, Kind.INVALID, None, None, None),
]


@pytest.mark.parametrize(
    ("message", "kind", "method", "rid", "latency"), [w[1:] for w in WIRE], ids=[w[0] for w in WIRE]
)
def test_wire_record_for_each_inbound_frame(
    message: Any, kind: Kind, method: str | None, rid: Any, latency: float | None
) -> None:
    session, _, _ = _records_session()
    raw = frame(message)
    received = session.receive_frame(raw)
    w = received.wire
    assert w.direction is Direction.IN
    assert w.raw == raw
    assert w.text() == raw.decode()
    assert (w.kind, w.method, w.id) == (kind, method, rid)
    assert w.latency == (None if latency is None else pytest.approx(latency))
    assert w.forced is False


def test_outbound_records_in_order() -> None:
    session, _ = ready_session()
    session.send_request("tools/list")
    session.send_notification("notifications/roots/list_changed")
    session.receive_frame(frame(req(1, "ping")))
    out = session.pop_outgoing()
    assert [(w.direction, w.kind, w.method, w.id) for w in out] == [
        (Direction.OUT, Kind.REQUEST, "tools/list", 2),
        (Direction.OUT, Kind.NOTIFICATION, "notifications/roots/list_changed", None),
        (Direction.OUT, Kind.RESPONSE, "ping", 1),
    ]
    assert out[1].raw == b'{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}'
    assert session.pop_outgoing() == []


# ====================================================================== the byte stream


def test_receive_data_frames_a_stream_and_end_of_data_flushes_the_tail() -> None:
    session, _, rid = started_session()
    stream = (
        b"server v1 starting\r\n"
        + line(note("notifications/message", {"level": "info", "data": "hi"}))
        + line(ok(rid, init_result()))
        + b"\n\n"
        + frame(note("notifications/tools/list_changed"))
    )
    received: list[Received] = []
    for i in range(0, len(stream), 5):
        received += session.receive_data(stream[i : i + 5])
    assert [r.wire.kind for r in received] == [Kind.INVALID, Kind.NOTIFICATION, Kind.RESPONSE]
    assert session.state is SessionState.READY
    (tail,) = session.end_of_data()
    assert tail.wire.method == "notifications/tools/list_changed"
    assert session.end_of_data() == []


def test_many_notifications_in_one_read() -> None:
    session, _ = ready_session()
    data = b"".join(line(note("notifications/message", {"level": "debug", "data": i})) for i in range(5000))
    received = session.receive_data(data)
    assert len(received) == 5000
    assert all(r.wire.diagnostics == [] for r in received)
    assert [r.events[0].params["data"] for r in received] == list(range(5000))


# ====================================================================== regressions: bugs the fuzzing found


@pytest.mark.parametrize("rid", [[], {}, [1]])
def test_cancelled_with_an_unhashable_request_id_is_a_diagnostic(rid: Any) -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(note("notifications/cancelled", {"requestId": rid})))
    assert received.wire.diagnostics


@pytest.mark.parametrize(
    "raw",
    [
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        b'{"jsonrpc":"2.0","id":7,"method":"x\\udc00"}',
        b'{"jsonrpc":"2.0","id":"\\udfff","method":"roots/list","params":[]}',
    ],
    ids=["ping id", "unknown method name", "invalid request id"],
)
def test_lone_surrogates_from_the_server_do_not_crash_the_reply(raw: bytes) -> None:
    session, _ = ready_session()
    session.receive_frame(raw)
    (wire,) = session.pop_outgoing()
    json.loads(wire.raw)


@pytest.mark.parametrize("field", ["progress", "total"])
def test_huge_progress_numbers_do_not_crash(field: str) -> None:
    session, _ = ready_session()
    rid = session.send_request("tools/call", {"name": "a"}, progress=True)
    params = {"progressToken": rid, "progress": 1, field: 10**400}
    received = session.receive_frame(frame(note("notifications/progress", params)))
    assert received.wire.diagnostics


@pytest.mark.parametrize("rid", ["²", "1" * 5000, "-²"])
def test_odd_digit_string_ids_do_not_crash(rid: str) -> None:
    session, _ = ready_session()
    received = session.receive_frame(frame(ok(rid, {})))
    assert codes(received) == ["unknown-response-id"]


def test_deeply_nested_jsonrpc_member_does_not_crash() -> None:
    limit = sys.getrecursionlimit()
    for depth in range(max(1, limit - 400), limit + 5):
        session, _ = ready_session()
        raw = b'{"jsonrpc":' + b"[" * depth + b"]" * depth + b',"id":1,"result":{}}'
        received = session.receive_frame(raw)  # must not raise, whatever the depth
        assert received.wire.diagnostics
