"""MCP's error codes: constants and names, one-sentence explanations, and how the CLI prints them."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.cli.errors import CliFailure
from inspector.cli.failures import server_error
from inspector.cli.output import explain_failure, report_failure
from inspector.protocol import jsonrpc
from inspector.protocol.error_codes import (
    explain_error,
    is_resource_not_found,
    required_capabilities,
    unsupported_versions,
)


def test_constants_and_names_follow_the_2026_07_28_schema() -> None:
    assert (
        jsonrpc.HEADER_MISMATCH,
        jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
        jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
    ) == (
        -32020,
        -32021,
        -32022,
    )
    assert jsonrpc.ERROR_NAMES[-32020] == "Header mismatch"
    assert jsonrpc.ERROR_NAMES[-32021] == "Missing required client capability"
    assert jsonrpc.ERROR_NAMES[-32022] == "Unsupported protocol version"
    assert jsonrpc.ERROR_NAMES[-32002] == "Resource not found"


# (code, data, method, expected sentence) — the spec's example errors first
EXPLAINED: list[tuple[int, Any, str | None, str]] = [
    (
        -32020,
        None,
        "tools/list",
        "the server found the request's Mcp-* HTTP headers missing, malformed or not matching the body",
    ),
    (
        -32020,
        None,
        "tools/call",
        "the server found the request's Mcp-* HTTP headers missing, malformed or not matching the body "
        "(the tool's x-mcp-header annotations may have changed: list the tools again and retry)",
    ),
    (
        -32021,
        {"requiredCapabilities": {"elicitation": {}}},
        "tools/call",
        "the server requires the client capability elicitation, which this request did not declare",
    ),
    (
        -32021,
        {"requiredCapabilities": {"elicitation": {"url": {}}, "sampling": {"tools": {}}, "roots": {}}},
        None,
        "the server requires the client capabilities elicitation.url, sampling.tools, roots, "
        "which this request did not declare",
    ),
    (
        -32021,
        {"requiredCapabilities": ["sampling", 3, None, "roots"]},
        None,
        "the server requires the client capabilities sampling, roots, which this request did not declare",
    ),
    (
        -32022,
        {"supported": ["2026-07-28", "2025-11-25"], "requested": "1900-01-01"},
        "server/discover",
        "the server does not support protocol version 1900-01-01; it supports 2026-07-28, 2025-11-25",
    ),
    (
        -32602,
        {"uri": "file:///nonexistent.txt"},
        "resources/read",
        "resource not found: file:///nonexistent.txt",
    ),
    (-32002, {"uri": "file:///gone"}, "resources/read", "resource not found: file:///gone"),
    (-32002, None, None, "resource not found"),
    (
        -32042,
        {"elicitations": [{"mode": "url", "url": "https://example.com/auth", "elicitationId": "e"}]},
        "tools/call",
        "the server needs the user to complete a step in the browser first (URL elicitation required): "
        "https://example.com/auth",
    ),
]


@pytest.mark.parametrize(("code", "data", "method", "sentence"), EXPLAINED)
def test_explained(code: int, data: Any, method: str | None, sentence: str) -> None:
    assert explain_error(code, "whatever the server said", data, method) == sentence


# malformed data: still a sentence, never an exception
MALFORMED: list[tuple[int, Any, str]] = [
    (-32021, None, "(it did not say which)"),
    (-32021, "elicitation", "(it did not say which)"),
    (-32021, {"requiredCapabilities": "elicitation"}, "(it did not say which)"),
    (-32021, {"requiredCapabilities": [1, 2.5, {"a": 1}]}, "(it did not say which)"),
    (-32021, {"requiredCapabilities": {}}, "(it did not say which)"),
    (-32021, {"requiredCapabilities": {"sampling": "yes"}}, "client capability sampling,"),
    (-32021, {"requiredCapabilities": {"sampling": {"1": 2}}}, "capability sampling.1,"),
    (-32022, None, "version the request asked for (it did not say which versions it supports)"),
    (-32022, {"supported": "2026-07-28", "requested": 5}, "version the request asked for (it did not say"),
    (-32022, {"supported": [1, None, "2025-11-25"], "requested": "x"}, "version x; it supports 2025-11-25"),
    (-32022, {"supported": [], "requested": "x"}, "version x (it did not say which versions it supports)"),
    (-32022, [1, 2], "(it did not say which versions it supports)"),
    (-32042, {"elicitations": "nope"}, "(URL elicitation required)"),
    (-32042, {"elicitations": [{"url": 5}, "x"]}, "(URL elicitation required)"),
]


@pytest.mark.parametrize(("code", "data", "fragment"), MALFORMED)
def test_malformed_data(code: int, data: Any, fragment: str) -> None:
    sentence = explain_error(code, None, data, None)
    assert sentence is not None and fragment in sentence


def test_long_lists_and_strings_are_bounded() -> None:
    data = {"supported": [f"v{i}" for i in range(40)], "requested": "r" * 5000}
    sentence = explain_error(-32022, "", data, None)
    assert sentence is not None and len(sentence) < 400 and sentence.endswith("and 28 more")


@pytest.mark.parametrize(
    ("code", "data", "method"),
    [
        (-32602, {"uri": "file:///a"}, "tools/call"),  # invalid params elsewhere: nothing to add
        (-32602, None, "resources/read"),  # no uri: could be any invalid param
        (-32602, {"uri": 5}, "resources/read"),
        (-32601, None, "prompts/list"),
        (-32603, None, None),
        (-32000, None, None),  # implementation-defined: no meaning may be assumed
        (-32001, None, None),
        (None, None, None),
        (True, None, None),
        ("-32020", None, None),
        (1234, {"requiredCapabilities": {"x": {}}}, None),
    ],
)
def test_not_explained(code: Any, data: Any, method: str | None) -> None:
    assert explain_error(code, "m", data, method) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(
    code=st.sampled_from([-32020, -32021, -32022, -32602, -32002, -32042, -32601]),
    data=json_values
    | st.fixed_dictionaries(
        {},
        optional={
            "requiredCapabilities": json_values,
            "supported": json_values,
            "requested": json_values,
            "uri": json_values,
            "elicitations": json_values,
        },
    ),
    method=st.none() | st.sampled_from(["resources/read", "tools/call", "server/discover"]),
    message=json_values,
)
def test_explain_error_never_raises(code: int, data: Any, method: str | None, message: Any) -> None:
    sentence = explain_error(code, message, data, method)
    assert sentence is None or (isinstance(sentence, str) and sentence)


def test_helpers() -> None:
    assert required_capabilities({"requiredCapabilities": {"a": {}, "b": {"c": {}, "d": {}}}}) == ["a", "b.c", "b.d"]
    assert unsupported_versions({"supported": ["a", 1], "requested": "b"}) == (["a"], "b")
    assert is_resource_not_found(-32002, None, "tools/call")
    assert is_resource_not_found(-32602, {"uri": "x"}, "resources/read")
    assert not is_resource_not_found(-32602, {"uri": "x"}, "prompts/get")


# --- the CLI: where it prints a server's error ---------------------------------------------------------


def remote(code: int, message: str, data: Any = None, method: str = "tools/call") -> CliFailure:
    """A failure built the way the CLI builds one from a RemoteError (inspector/cli/failures.py)."""
    return server_error(code, message, data, method, {})


def printed(failure: CliFailure, fmt: str) -> str:
    err = io.StringIO()
    report_failure(failure, fmt, err)
    return err.getvalue()


def test_cli_human_appends_the_explanation_on_the_same_line() -> None:
    failure = remote(-32021, "Server requires elicitation", {"requiredCapabilities": {"elicitation": {}}})
    assert printed(failure, "human") == (
        "error: tools/call failed: server returned error -32021: Server requires elicitation — "
        "the server requires the client capability elicitation, which this request did not declare\n"
    )


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_cli_envelope_carries_the_explanation(fmt: str) -> None:
    data = {"supported": ["2026-07-28"], "requested": "1900-01-01"}
    document = json.loads(printed(remote(-32022, "Unsupported protocol version", data, "tools/list"), fmt))
    assert document == {
        "error": {
            "code": "error",
            "message": "Unsupported protocol version",
            "kind": "protocol",
            "jsonrpcCode": -32022,
            "data": data,
            "method": "tools/list",
            "explanation": "the server does not support protocol version 1900-01-01; it supports 2026-07-28",
        }
    }


def test_cli_output_is_unchanged_for_other_errors() -> None:
    failure = remote(-32602, "Unknown tool: x")
    assert printed(failure, "human") == "error: tools/call failed: server returned error -32602: Unknown tool: x\n"
    assert "explanation" not in json.loads(printed(failure, "json"))["error"]
    assert "explanation" not in json.loads(printed(failure, "text"))["error"]
    assert explain_failure(CliFailure("connection", "refused", code=-32021)) is None  # not a server error
    assert printed(CliFailure("usage", "bad"), "human") == "usage error: bad\n"


def test_cli_escapes_what_the_server_sent_in_the_explanation() -> None:
    failure = remote(-32602, "not found", {"uri": "file:///a\x1b[31m\nb"}, "resources/read")
    line = printed(failure, "human")
    assert line.count("\n") == 1 and "\x1b" not in line
    assert "resource not found: file:///a" in line
