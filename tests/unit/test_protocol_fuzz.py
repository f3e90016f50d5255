"""Hypothesis fuzzing of the sans-I/O engine: framer, decoder, classifier and a READY ClientSession.

Properties:
- nothing a peer sends makes an exception escape;
- every inbound frame that is not a well-formed message (judged by the independent oracle below)
  carries at least one diagnostic on its WireMessage;
- everything the session queues for sending is itself a well-formed JSON-RPC message.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sessionkit import frame, ready_session

from inspector.protocol.events import Received
from inspector.protocol.framing import LineFramer, decode_frame
from inspector.protocol.jsonrpc import ErrorResponse, Invalid, Notification, Request, Response, classify
from inspector.protocol.session import ClientSession

FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
FUZZ_STREAMS = settings(FUZZ, max_examples=150)  # each example feeds up to six frames

ENVELOPE_KEYS = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})
SERVER_REQUEST_METHODS = frozenset({"ping", "roots/list", "sampling/createMessage", "elicitation/create"})

# ---------------------------------------------------------------- the oracle


def is_id(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(raw: bytes) -> tuple[bool, Any]:
    """Decode like RFC 8259 says (UTF-8, no NaN/Infinity); a leading BOM is tolerated as the engine does."""
    try:
        text = raw.decode("utf-8")
        if text.startswith("\ufeff"):
            text = text[1:]
        return True, json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return False, None


def envelope_ok(value: Any, *, allow_null_error_id: bool) -> bool:
    """A well-formed JSON-RPC 2.0 message as MCP narrows it (object params, string/integer ids)."""
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0" or value.keys() - ENVELOPE_KEYS:
        return False
    if "method" in value:
        if "result" in value or "error" in value:
            return False
        if not isinstance(value["method"], str) or not value["method"]:
            return False
        if "params" in value and not isinstance(value["params"], dict):
            return False
        return "id" not in value or is_id(value["id"])
    if ("result" in value) == ("error" in value):
        return False
    if "error" in value:
        if not (is_id(value.get("id")) or (allow_null_error_id and "id" in value and value["id"] is None)):
            return False
        error = value["error"]
        return (
            isinstance(error, dict)
            and isinstance(error.get("code"), int)
            and not isinstance(error.get("code"), bool)
            and isinstance(error.get("message"), str)
        )
    return is_id(value.get("id"))


def message_ok(value: Any, pending: set[Any], version: str) -> bool:
    """Well-formed for a READY session with these pending ids: envelope, correlation and server-request methods."""
    if isinstance(value, list):
        return version == "2025-03-26" and bool(value) and all(message_ok(v, pending, version) for v in value)
    if not envelope_ok(value, allow_null_error_id=False):
        return False
    if "method" not in value:
        rid = value["id"]
        return any(rid == p and type(rid) is type(p) for p in pending)
    if "id" in value:
        return value["method"] in SERVER_REQUEST_METHODS
    return True


def frame_ok(raw: bytes, pending: set[Any], version: str) -> bool:
    decoded, value = strict_json(raw)
    return decoded and message_ok(value, pending, version)


# ---------------------------------------------------------------- a READY session with pending requests

VERSIONS = ["2025-11-25", "2025-03-26"]


def fresh(version: str = "2025-11-25") -> tuple[ClientSession, set[Any]]:
    session, _ = ready_session(version=version)
    session.send_request("tools/list")  # 2
    session.send_request("tools/call", {"name": "t"}, progress=True)  # 3
    session.send_request("resources/read", {"uri": "file:///a"})  # 4
    session.send_request("prompts/get", {"name": "p"})  # 5
    session.send_request("ping")  # 6
    session.pop_outgoing()
    return session, set(session.pending)


def check_outgoing(session: ClientSession) -> None:
    for wire in session.pop_outgoing():
        decoded, value = strict_json(wire.raw)
        assert decoded, wire.raw
        assert b"\n" not in wire.raw
        assert envelope_ok(value, allow_null_error_id=True), wire.raw


def check_received(received: Received, raw: bytes, pending: set[Any], version: str) -> None:
    assert received.wire.raw == raw
    assert received.wire.direction == "in"
    if not frame_ok(raw, pending, version):
        assert received.wire.diagnostics, f"no diagnostic for {raw[:300]!r}"


def feed_frame(session: ClientSession, pending: set[Any], raw: bytes, version: str = "2025-11-25") -> Received:
    received = session.receive_frame(raw)
    check_received(received, raw, pending, version)
    check_outgoing(session)
    return received


# ---------------------------------------------------------------- strategies

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
small_ints = st.integers(min_value=-(2**63), max_value=2**63)
scalars = st.none() | st.booleans() | small_ints | st.floats(allow_nan=False, allow_infinity=False) | text
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=16,
)
METHODS = [
    "ping",
    "roots/list",
    "sampling/createMessage",
    "elicitation/create",
    "elicitation/request",
    "tools/list",
    "notifications/progress",
    "notifications/cancelled",
    "notifications/message",
    "notifications/tools/list_changed",
    "notifications/resources/updated",
    "notifications/initialized",
    "vendor/x",
    "",
]
ids = (
    st.sampled_from([1, 2, 3, 4, 5, 6, 99, -1, 0, "2", "3", "x", "", True, False, None, 2.0, 1.5, [], {}]) | small_ints
)
envelope_values = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2, None, ""]),
        "id": ids,
        "method": st.sampled_from(METHODS) | text | json_values,
        "params": st.dictionaries(
            st.sampled_from(["progressToken", "progress", "requestId", "level", "data", "uri"]), json_values, max_size=3
        )
        | json_values,
        "result": json_values,
        "error": st.fixed_dictionaries(
            {}, optional={"code": small_ints | json_values, "message": text | json_values, "data": json_values}
        )
        | json_values,
        "extra": json_values,
    },
)
messages = envelope_values | json_values | st.lists(envelope_values, max_size=3)


def valid_frames() -> list[dict[str, Any]]:
    """Well-formed MCP traffic for the session made by ``fresh`` (pending: 2 tools/list ... 6 ping)."""
    msg_params = {"role": "user", "content": {"type": "text", "text": "hi"}}
    return [
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}},
        {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "done"}], "isError": False}},
        {"jsonrpc": "2.0", "id": 4, "result": {"contents": [{"uri": "file:///a", "text": "x"}]}},
        {"jsonrpc": "2.0", "id": 5, "result": {"messages": [msg_params]}},
        {"jsonrpc": "2.0", "id": 6, "result": {}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "boom", "data": {"x": 1}}},
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": 3, "progress": 1, "total": 2},
        },
        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "log"}},
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 40, "reason": "r"}},
        {"jsonrpc": "2.0", "id": 40, "method": "ping"},
        {
            "jsonrpc": "2.0",
            "id": "s1",
            "method": "sampling/createMessage",
            "params": {"messages": [msg_params], "maxTokens": 9},
        },
        {"jsonrpc": "2.0", "id": 41, "method": "roots/list"},
        {
            "jsonrpc": "2.0",
            "id": 42,
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
        },
    ]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    node = value
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = new
    return value


# replacement values that often break things: wrong JSON types, empty containers, edge numbers
odd_values = (
    st.sampled_from([None, True, False, 0, -1, 1.5, 2**53 + 1, "", "x", "0.5", [], {}, [1], {"a": 1}, [[]], {"": {}}])
    | json_values
)


@st.composite
def mutated_frames(draw: st.DrawFn) -> bytes:
    value = json.loads(json.dumps(draw(st.sampled_from(valid_frames()))))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["drop", "retype", "retype", "swap_id", "method", "add_key"]))
        if op == "drop":
            dict_paths = [p for p in _paths(value) if isinstance(_get(value, p), dict) and _get(value, p)]
            if dict_paths:
                path = draw(st.sampled_from(dict_paths))
                node = _get(value, path)
                del node[draw(st.sampled_from(sorted(node)))]
        elif op == "retype":
            path = draw(st.sampled_from(_paths(value)[1:] or [()]))  # the whole frame: see the random-value tests
            value = _set(value, path, copy.deepcopy(draw(odd_values)))
        elif op == "swap_id" and isinstance(value, dict):
            value["id"] = copy.deepcopy(draw(ids))
        elif op == "method" and isinstance(value, dict):
            value["method"] = draw(st.sampled_from(METHODS))
        elif op == "add_key" and isinstance(value, dict):
            value[draw(st.sampled_from(["result", "error", "method", "id", "params", "x"]))] = copy.deepcopy(
                draw(odd_values)
            )
    raw = json.dumps(value, separators=(",", ":")).encode()
    if draw(st.integers(0, 3)) == 3:  # some frames are also damaged as bytes
        op = draw(st.sampled_from(["truncate", "insert", "flip"]))
        if op == "truncate" and raw:
            raw = raw[: draw(st.integers(0, len(raw) - 1))]
        elif op == "insert":
            at = draw(st.integers(0, len(raw)))
            raw = raw[:at] + draw(st.binary(min_size=1, max_size=6).filter(lambda b: b"\n" not in b)) + raw[at:]
        elif op == "flip" and raw:
            at = draw(st.integers(0, len(raw) - 1))
            raw = raw[:at] + bytes([draw(st.integers(0, 255).filter(lambda b: b != 0x0A))]) + raw[at + 1 :]
    return raw


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


# ---------------------------------------------------------------- the seeds and the oracle agree with the engine


@pytest.mark.parametrize("message", valid_frames(), ids=lambda m: str(m.get("method") or m.get("id")))
def test_the_valid_seed_frames_are_clean(message: dict[str, Any]) -> None:
    session, pending = fresh()
    raw = frame(message)
    assert frame_ok(raw, pending, "2025-11-25")
    received = session.receive_frame(raw)
    assert [d for d in received.wire.diagnostics if d.severity != "info"] == []
    check_outgoing(session)


# ---------------------------------------------------------------- LineFramer


def _model_lines(data: bytes) -> tuple[list[bytes], bytes | None]:
    parts = data.split(b"\n")
    lines = [p[:-1] if p.endswith(b"\r") else p for p in parts[:-1]]
    tail = parts[-1].rstrip(b"\r")
    return [line for line in lines if line.strip()], (tail if tail.strip() else None)


@FUZZ
@given(
    st.lists(st.binary(max_size=40) | st.sampled_from([b"\n", b"\r\n", b"\r", b" ", b"{}"]), max_size=30),
    st.lists(st.integers(1, 50), min_size=1, max_size=20),
)
def test_framer_matches_a_split_model_for_any_chunking(pieces: list[bytes], sizes: list[int]) -> None:
    data = b"".join(pieces)
    framer = LineFramer()
    got: list[bytes] = []
    pos, i = 0, 0
    while pos < len(data):
        size = sizes[i % len(sizes)]
        got += framer.feed(data[pos : pos + size])
        pos += size
        i += 1
    lines, tail = _model_lines(data)
    assert got == lines
    assert framer.flush() == tail
    assert framer.pending == 0


# ---------------------------------------------------------------- decode_frame


@FUZZ
@given(st.binary(max_size=200) | messages.map(lambda v: json.dumps(v).encode()))
def test_decode_frame_never_raises(raw: bytes) -> None:
    decoded = decode_frame(raw)
    assert decoded.raw == raw
    assert decoded.ok is (decoded.diagnostic is None)
    if decoded.ok:
        assert decoded.value == json.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    else:
        assert decoded.diagnostic is not None and decoded.diagnostic.raw == raw


# ---------------------------------------------------------------- classify


@FUZZ
@given(messages)
def test_classify_never_raises_and_flags_every_malformed_envelope(value: Any) -> None:
    msg, diags = classify(value)
    assert isinstance(msg, Request | Notification | Response | ErrorResponse | Invalid)
    if envelope_ok(value, allow_null_error_id=True):
        assert diags == []
        expected = (
            (Request if "id" in value else Notification)
            if "method" in value
            else (ErrorResponse if "error" in value else Response)
        )
        assert type(msg) is expected
    else:
        assert diags, value
    if isinstance(msg, Invalid) and msg.reply_code is not None:
        assert msg.reply_code in (-32700, -32600)
        assert msg.reply_id is None or is_id(msg.reply_id)


# ---------------------------------------------------------------- a READY session


@pytest.mark.parametrize("version", VERSIONS)
@FUZZ
@given(raw=st.binary(max_size=300))
def test_session_random_bytes_as_frames(version: str, raw: bytes) -> None:
    session, pending = fresh(version)
    feed_frame(session, pending, raw, version)


@pytest.mark.parametrize("version", VERSIONS)
@FUZZ
@given(value=messages)
def test_session_random_json_values(version: str, value: Any) -> None:
    raw = frame(value)
    session, pending = fresh(version)
    feed_frame(session, pending, raw, version)


@FUZZ
@given(mutated_frames())
def test_session_mutated_mcp_frames(raw: bytes) -> None:
    assume(b"\n" not in raw)
    session, pending = fresh()
    feed_frame(session, pending, raw)


@FUZZ_STREAMS
@given(st.lists(mutated_frames(), min_size=1, max_size=6))
def test_session_sequences_of_mutated_frames(raws: list[bytes]) -> None:
    """Several frames into one session: the pending set shrinks as answers arrive, duplicates must be flagged."""
    for raw in raws:
        assume(b"\n" not in raw)
    session, _ = fresh()
    for raw in raws:
        pending = set(session.pending)
        feed_frame(session, pending, raw)


@FUZZ_STREAMS
@given(
    st.lists(mutated_frames() | st.binary(max_size=60) | messages.map(frame), min_size=1, max_size=6),
    st.lists(st.integers(1, 97), min_size=1, max_size=8),
    st.sampled_from([b"\n", b"\r\n"]),
)
def test_session_receive_data_in_random_chunks(frames: list[bytes], sizes: list[int], eol: bytes) -> None:
    stream = eol.join(frames)  # the last frame has no newline: end_of_data() must deliver it
    expected_frames, tail = _model_lines(stream)
    session, _ = fresh()
    received: list[Received] = []
    pos, i = 0, 0
    while pos < len(stream):
        size = sizes[i % len(sizes)]
        pending = set(session.pending)
        for r in session.receive_data(stream[pos : pos + size]):
            check_received(r, r.wire.raw, pending, "2025-11-25")
            received.append(r)
        check_outgoing(session)
        pos += size
        i += 1
    pending = set(session.pending)
    for r in session.end_of_data():
        check_received(r, r.wire.raw, pending, "2025-11-25")
        received.append(r)
    check_outgoing(session)
    assert [r.wire.raw for r in received] == [*expected_frames, *([tail] if tail is not None else [])]


@FUZZ_STREAMS
@given(st.lists(mutated_frames() | messages.map(frame), min_size=1, max_size=5))
def test_session_before_the_handshake_never_raises(raws: list[bytes]) -> None:
    session = ClientSession(capabilities={"sampling": {}})
    session.start()
    session.pop_outgoing()
    for raw in raws:
        pending = set(session.pending)
        received = session.receive_frame(raw)
        check_received(received, raw, pending, "2025-11-25")
        check_outgoing(session)
