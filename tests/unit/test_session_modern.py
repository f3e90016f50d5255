"""The sans-I/O session in 2026-07-28 (DiscoverRules), the transition table, and the MRTR driver.

Frames go in, events and outgoing frames come out; no I/O. The same ``ClientSession`` drives both eras:
these tests pin what differs (the opening, the envelope, headers, input_required rounds) and that the
shared parts (request table, cancellation, timeouts) behave the same.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sessionkit import FakeClock, frame, ok, sent

from inspector.protocol import mrtr
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.envelope import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
)
from inspector.protocol.eras import DiscoverRules, HandshakeRules, rules_for
from inspector.protocol.events import (
    HandshakeCompleted,
    HandshakeFailed,
    InputRequested,
    RequestFailed,
    ResponseReceived,
)
from inspector.protocol.session import (
    ClientSession,
    LocalProtocolError,
    SessionOffer,
    SessionState,
    Timeouts,
    new_session,
)
from inspector.protocol.transitions import TRANSITIONS, SendPermit, SessionEvent, next_state, send_permit
from inspector.protocol.versions import MODERN_VERSION, Era

CAPS = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}
INFO = {"name": "t", "version": "1"}
DISCOVERED = {
    "resultType": "complete",
    "supportedVersions": [MODERN_VERSION],
    "capabilities": {"tools": {"listChanged": True}, "resources": {}, "prompts": {}},
    "instructions": "hello",
    "_meta": {SERVER_INFO_KEY: {"name": "srv", "version": "2"}},
}


def modern(clock: FakeClock | None = None, *, http: bool = True, **kw: Any) -> ClientSession:
    """A 2026-07-28 session; ``http``: the transport carries per-message headers (the header rules apply)."""
    s = new_session(
        SessionOffer(MODERN_VERSION, CAPS, INFO), id_generator=itertools.count(1), clock=clock or FakeClock(), **kw
    )
    s.header_rules = http
    return s


def opened(clock: FakeClock | None = None, result: dict[str, Any] | None = None) -> ClientSession:
    s = modern(clock)
    rid = s.start()
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, result or DISCOVERED)))
    assert any(isinstance(e, HandshakeCompleted) for e in rec.events), rec.wire.diagnostics
    return s


# ---------------------------------------------------------------------------- the transition table


def test_every_state_has_a_send_permit_and_impossible_events_raise() -> None:
    for state in SessionState:
        assert isinstance(send_permit(state), SendPermit)
    assert next_state(SessionState.NEW, SessionEvent.START) is SessionState.INITIALIZING
    assert next_state(SessionState.READY, SessionEvent.LOST) is SessionState.CLOSED
    with pytest.raises(LocalProtocolError, match="opened is not possible while the session is ready"):
        next_state(SessionState.READY, SessionEvent.OPENED)
    # a terminal state stays terminal whatever happens
    for (state, _event), after in TRANSITIONS.items():
        if state in (SessionState.FAILED, SessionState.CLOSED):
            assert after is state


@pytest.mark.parametrize(
    ("version", "rules", "opening"),
    [("2025-11-25", HandshakeRules, "initialize"), ("2024-11-05", HandshakeRules, "initialize"),
     (MODERN_VERSION, DiscoverRules, "server/discover")],
)  # fmt: skip
def test_one_factory_picks_the_rules_by_version(version: str, rules: type, opening: str) -> None:
    assert isinstance(rules_for(version), rules)
    s = new_session(SessionOffer(version, {}, None))
    assert s.opening_method == opening
    assert s.era is (Era.MODERN if version == MODERN_VERSION else Era.HANDSHAKE)


# ---------------------------------------------------------------------------- opening


def test_discover_carries_the_envelope_and_headers_and_nothing_follows_it() -> None:
    s = modern()
    rid = s.start()
    [wire] = s.pop_outgoing()
    msg = json.loads(wire.raw)
    assert msg["method"] == "server/discover"
    meta = msg["params"]["_meta"]
    assert meta[PROTOCOL_VERSION_KEY] == MODERN_VERSION
    assert meta[CLIENT_CAPABILITIES_KEY] == CAPS
    assert meta[CLIENT_INFO_KEY] == INFO
    assert wire.headers["MCP-Protocol-Version"] == MODERN_VERSION
    assert wire.headers["Mcp-Method"] == "server/discover"
    rec = s.receive_frame(frame(ok(rid, DISCOVERED)))
    [done] = [e for e in rec.events if isinstance(e, HandshakeCompleted)]
    assert done.server_info == {"name": "srv", "version": "2"}
    assert s.state is SessionState.READY
    assert s.server_info == {"name": "srv", "version": "2"}
    assert s.instructions == "hello"
    assert s.pop_outgoing() == []  # no notifications/initialized in this era


@pytest.mark.parametrize(
    ("result", "why"),
    [
        ({"supportedVersions": ["2099-01-01"], "capabilities": {}}, "supports protocol versions 2099-01-01, not"),
        ({"capabilities": {}}, "supports protocol versions none"),
        ({"supportedVersions": "2026-07-28", "capabilities": {}}, "supports protocol versions none"),
    ],
)
def test_a_discover_result_without_our_version_fails_the_opening(result: dict[str, Any], why: str) -> None:
    s = modern()
    rid = s.start()
    rec = s.receive_frame(frame(ok(rid, result)))
    assert any(isinstance(e, HandshakeFailed) and why in e.reason for e in rec.events)
    assert s.state is SessionState.FAILED
    assert DiagnosticCode.VERSION_MISMATCH in [d.code for d in rec.wire.diagnostics]


def test_a_refused_discover_keeps_the_error_code_for_the_fallback_decision() -> None:
    s = modern()
    rid = s.start()
    rec = s.receive_frame(frame({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "nope"}}))
    [failed] = [e for e in rec.events if isinstance(e, HandshakeFailed)]
    assert failed.code == -32601
    assert "server/discover" in failed.reason


def test_discover_may_be_cancelled_and_the_server_is_told() -> None:
    s = modern()
    rid = s.start()
    s.pop_outgoing()
    s.cancel(rid, "stop")
    assert [m["method"] for m in sent(s)] == ["notifications/cancelled"]
    assert s.state is SessionState.FAILED


def test_cancelling_without_notifying_when_the_transport_cancels_by_closing() -> None:
    s = opened()
    s.cancel_notifies = False
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    assert s.cancel(rid) is not None
    assert s.pop_outgoing() == []


# ---------------------------------------------------------------------------- every request


def test_every_request_carries_the_envelope_and_the_log_level_and_the_callers_meta() -> None:
    s = opened()
    s.log_level = "debug"
    s.send_request("tools/call", {"name": "x", "arguments": {}, "_meta": {"traceparent": "00-ab-cd-01"}}, progress=True)
    [wire] = s.pop_outgoing()
    meta = json.loads(wire.raw)["params"]["_meta"]
    assert meta[LOG_LEVEL_KEY] == "debug"
    assert meta["traceparent"] == "00-ab-cd-01"
    assert meta["progressToken"] == json.loads(wire.raw)["id"]
    assert meta[PROTOCOL_VERSION_KEY] == MODERN_VERSION
    assert wire.headers["Mcp-Name"] == "x"


@pytest.mark.parametrize("method", ["ping", "logging/setLevel", "resources/subscribe", "tasks/list"])
def test_methods_the_era_removed_are_refused_unless_forced(method: str) -> None:
    s = opened()
    with pytest.raises(LocalProtocolError, match="does not exist in MCP 2026-07-28"):
        s.send_request(method, {})
    s.send_request(method, {}, forced=True)
    [wire] = s.pop_outgoing()
    assert wire.forced


def test_discover_may_be_sent_again_once_open_but_initialize_not() -> None:
    s = opened()
    s.send_request("server/discover")
    h = new_session(SessionOffer("2025-11-25", {}, None))
    with pytest.raises(LocalProtocolError):
        h.send_request("initialize")


def test_server_info_from_a_results_meta_updates_the_session() -> None:
    s = opened()
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    info = {"name": "srv", "version": "3"}
    rec = s.receive_frame(frame(ok(rid, {"resultType": "complete", "tools": [], "_meta": {SERVER_INFO_KEY: info}})))
    assert isinstance(rec.events[0], ResponseReceived)
    assert s.server_info == info


def test_a_missing_result_type_is_complete() -> None:
    s = opened()
    rid = s.send_request("tools/call", {"name": "x"})
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, {"content": []})))
    assert isinstance(rec.events[0], ResponseReceived)


def test_a_tool_with_an_invalid_header_annotation_is_dropped_and_valid_ones_mirror_arguments() -> None:
    s = opened()
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    good = {
        "name": "good",
        "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
    }
    bad = {
        "name": "bad",
        "inputSchema": {"type": "object", "properties": {"o": {"type": "object", "x-mcp-header": "O"}}},
    }
    rec = s.receive_frame(frame(ok(rid, {"resultType": "complete", "tools": [bad, good]})))
    [res] = [e for e in rec.events if isinstance(e, ResponseReceived)]
    assert [t["name"] for t in res.result["tools"]] == ["good"]
    assert any("bad" in d.message for d in rec.wire.diagnostics)
    s.send_request("tools/call", {"name": "good", "arguments": {"region": "eu west ✓"}})
    [wire] = s.pop_outgoing()
    assert wire.headers["Mcp-Param-Region"].startswith("=?base64?")


def test_without_http_headers_nothing_is_dropped_and_no_headers_are_computed() -> None:
    s = modern(http=False)
    rid = s.start()
    [wire] = s.pop_outgoing()
    assert wire.headers == {}
    s.receive_frame(frame(ok(rid, DISCOVERED)))
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    bad = {
        "name": "bad",
        "inputSchema": {"type": "object", "properties": {"o": {"type": "object", "x-mcp-header": "O"}}},
    }
    rec = s.receive_frame(frame(ok(rid, {"resultType": "complete", "tools": [bad]})))
    [res] = [e for e in rec.events if isinstance(e, ResponseReceived)]
    assert [t["name"] for t in res.result["tools"]] == ["bad"]


# ---------------------------------------------------------------------------- multi round trip


def _input_required(state: str | None = 'opaque-\u00e9"state', **requests: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"resultType": "input_required"}
    if requests:
        out["inputRequests"] = requests
    if state is not None:
        out["requestState"] = state
    return out


ELICIT = {"method": "elicitation/create", "params": {"mode": "form", "message": "m", "requestedSchema": {}}}
ROOTS = {"method": "roots/list", "params": {}}


def test_input_required_becomes_an_event_and_the_retry_has_a_new_id_responses_and_the_state() -> None:
    s = opened()
    first = s.send_request("tools/call", {"name": "x", "arguments": {"a": 1}}, progress=True)
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(first, _input_required(login=ELICIT, roots=ROOTS))))
    [ev] = rec.events
    assert isinstance(ev, InputRequested)
    assert (ev.origin, ev.round) == (first, 1)
    assert [(c.key, c.method) for c in ev.calls] == [("login", "elicitation/create"), ("roots", "roots/list")]
    assert s.waiting_for_input(first)
    second = s.retry_with_input(first, {"login": {"action": "accept", "content": {}}, "roots": {"roots": []}})
    assert second != first
    [wire] = s.pop_outgoing()
    assert (wire.origin, wire.round) == (first, 2)  # recorded as a round of the first request
    msg = json.loads(wire.raw)
    assert msg["id"] == second
    params = msg["params"]
    assert params["name"] == "x" and params["arguments"] == {"a": 1}
    assert params["inputResponses"]["login"] == {"action": "accept", "content": {}}
    assert params["requestState"] == 'opaque-\u00e9"state'
    assert params["_meta"]["progressToken"] == second
    rec = s.receive_frame(frame(ok(second, {"resultType": "complete", "content": []})))
    assert isinstance(rec.events[0], ResponseReceived)
    assert s.pending == {}


def test_no_request_state_means_none_in_the_retry_and_old_responses_are_not_carried() -> None:
    s = opened()
    first = s.send_request("prompts/get", {"name": "p"})
    s.pop_outgoing()
    s.receive_frame(frame(ok(first, _input_required(state="s1", a=ROOTS))))
    second = s.retry_with_input(first, {"a": {"roots": []}})
    s.pop_outgoing()
    s.receive_frame(frame(ok(second, _input_required(state=None, b=ROOTS))))
    third = s.retry_with_input(second, {"b": {"roots": []}})
    [msg] = sent(s)
    assert msg["id"] == third
    assert "requestState" not in msg["params"]
    assert msg["params"]["inputResponses"] == {"b": {"roots": []}}


def test_input_required_on_a_method_that_may_not_get_it_fails_the_request() -> None:
    s = opened()
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
    [failed] = rec.events
    assert isinstance(failed, RequestFailed) and "input_required" in failed.reason


def test_rounds_are_bounded() -> None:
    s = opened()
    rid = s.send_request("tools/call", {"name": "loop"})
    s.pop_outgoing()
    for _ in range(mrtr.MAX_INPUT_ROUNDS - 1):
        rec = s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
        assert isinstance(rec.events[0], InputRequested)
        rid = s.retry_with_input(rid, {"a": {"roots": []}})
        s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
    [failed] = rec.events
    assert isinstance(failed, RequestFailed)
    assert f"at most {mrtr.MAX_INPUT_ROUNDS} rounds" in failed.reason


def test_cancel_between_rounds_and_connection_lost_fail_the_logical_request() -> None:
    s = opened()
    rid = s.send_request("resources/read", {"uri": "x://y"})
    s.pop_outgoing()
    s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
    failed = s.cancel(rid)
    assert failed is not None and failed.kind == "cancelled"
    assert s.pop_outgoing() == []  # nothing at the server to cancel between rounds
    with pytest.raises(LocalProtocolError):
        s.retry_with_input(rid, {})
    rid = s.send_request("resources/read", {"uri": "x://y"})
    s.pop_outgoing()
    s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
    [lost] = s.connection_lost("gone")
    assert lost.request_id == rid and lost.kind == "lost"


def test_undeclared_input_kinds_and_malformed_entries_are_diagnosed() -> None:
    s = new_session(SessionOffer(MODERN_VERSION, {}, None), id_generator=itertools.count(1))
    s.header_rules = True
    rid = s.start()
    s.receive_frame(frame(ok(rid, DISCOVERED)))
    rid = s.send_request("tools/call", {"name": "x"})
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, _input_required(a=ELICIT, b={"method": "tools/call"}, c="nope"))))
    codes = [d.code for d in rec.wire.diagnostics]
    assert DiagnosticCode.UNDECLARED_CAPABILITY in codes
    assert codes.count(DiagnosticCode.SCHEMA) >= 2
    [ev] = rec.events
    assert isinstance(ev, InputRequested) and [c.key for c in ev.calls] == ["a"]


def test_timeouts_apply_to_each_round() -> None:
    clock = FakeClock()
    s = opened(clock)
    rid = s.send_request("tools/call", {"name": "x"}, timeouts=Timeouts(request=5))
    s.pop_outgoing()
    s.receive_frame(frame(ok(rid, _input_required(a=ROOTS))))
    clock.advance(100)  # the user takes their time answering: no deadline between rounds
    assert s.check_timeouts() == []
    rid = s.retry_with_input(rid, {"a": {"roots": []}})
    clock.advance(6)
    [failed] = s.check_timeouts()
    assert failed.request_id == rid and failed.kind == "timeout"


# ---------------------------------------------------------------------------- the pure driver, by property

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@given(
    original=st.dictionaries(st.text(max_size=6), _json, max_size=4),
    state=st.none() | st.text(),
    keys=st.lists(st.text(min_size=1, max_size=6), unique=True, max_size=4),
)
def test_retry_params_keep_the_original_and_echo_the_state_exactly(
    original: dict[str, Any], state: str | None, keys: list[str]
) -> None:
    result = _input_required(state=state, **{k: ROOTS for k in keys}) if keys or state is not None else {}
    required = mrtr.parse_input_required(result)
    responses = {k: {"roots": []} for k in keys}
    params = mrtr.retry_params(original, responses, required)
    for key, value in original.items():
        if key not in ("inputResponses", "requestState"):
            assert params[key] == value
    if state is None:
        assert "requestState" not in params
    else:
        assert params["requestState"] == state
    if keys:
        assert params["inputResponses"] == responses


@given(st.dictionaries(st.text(max_size=6), _json, max_size=5))
def test_parsing_any_input_required_result_never_raises(result: dict[str, Any]) -> None:
    parsed = mrtr.parse_input_required(result)
    assert all(c.method in mrtr.INPUT_METHODS for c in parsed.calls)


_results = st.fixed_dictionaries(
    {},
    optional={
        "resultType": st.sampled_from(["complete", "input_required", "task", "weird"]) | _json,
        "inputRequests": st.dictionaries(st.text(max_size=4), st.just(ROOTS) | st.just(ELICIT) | _json, max_size=3)
        | _json,
        "requestState": st.text(max_size=6) | _json,
        "_meta": st.dictionaries(st.sampled_from([SERVER_INFO_KEY, "x"]), _json, max_size=2) | _json,
        "tools": st.lists(_json, max_size=3),
    },
)


@given(st.lists(st.tuples(st.sampled_from(["tools/call", "prompts/get", "tools/list"]), _results), max_size=6))
def test_any_sequence_of_answers_keeps_the_request_table_consistent(answers: list[tuple[str, dict[str, Any]]]) -> None:
    s = opened()
    for method, result in answers:
        rid = s.send_request(method, {"name": "x"})
        s.pop_outgoing()
        rec = s.receive_frame(frame(ok(rid, result)))
        kinds = {type(e) for e in rec.events}
        assert kinds <= {ResponseReceived, RequestFailed, InputRequested}
        assert rid not in s.pending
        if InputRequested in kinds:
            assert s.waiting_for_input(rid)
            nxt = s.retry_with_input(rid, {})
            assert nxt in s.pending and not s.waiting_for_input(rid)
            s.cancel(nxt)
        assert s.pending == {}


def test_a_task_handle_is_checked_as_one_not_as_the_methods_result() -> None:
    s = new_session(SessionOffer("2025-11-25", CAPS, INFO), id_generator=itertools.count(1))
    rid = s.start()
    s.receive_frame(frame(ok(rid, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "tasks": {}},
                                    "serverInfo": INFO})))  # fmt: skip
    s.pop_outgoing()
    handle = {"task": {"taskId": "t1", "status": "working", "createdAt": "2026-01-01T00:00:00Z",
                       "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 60000}}  # fmt: skip
    rid = s.send_request("tools/call", {"name": "x", "task": {"ttl": 60000}})
    rec = s.receive_frame(frame(ok(rid, handle)))
    assert rec.wire.diagnostics == []
    rid = s.send_request("tools/call", {"name": "x"})  # no task asked for: the same answer is not a CallToolResult
    rec = s.receive_frame(frame(ok(rid, handle)))
    assert DiagnosticCode.SCHEMA in [d.code for d in rec.wire.diagnostics]
    rid = s.send_request("tools/call", {"name": "x", "task": {"ttl": 60000}})
    rec = s.receive_frame(frame(ok(rid, {"task": {"taskId": 5}})))  # a broken handle is still named
    assert DiagnosticCode.SCHEMA in [d.code for d in rec.wire.diagnostics]
