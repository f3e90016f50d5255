"""The one Qt-free wording of a server's error that every view (and the CLI) shares: the heading, the explanation
lines with the data, the one-line form, and where "Retry after re-listing" applies (inspector.protocol.error_codes)."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.error_codes import error_heading, error_line, explanation_lines, relisting_helps


@pytest.mark.parametrize(
    ("code", "heading"),
    [
        (-32020, "JSON-RPC error -32020 · Header mismatch"),
        (-32021, "JSON-RPC error -32021 · Missing required client capability"),
        (-32022, "JSON-RPC error -32022 · Unsupported protocol version"),
        (-32050, "JSON-RPC error -32050 · Server error"),
        (7, "JSON-RPC error 7 · Application error"),
        (None, "JSON-RPC error (no code)"),
        (True, "JSON-RPC error (no code)"),
    ],
)
def test_error_heading(code: Any, heading: str) -> None:
    assert error_heading(code) == heading


def test_explanation_lines_say_what_the_code_means_then_the_data() -> None:
    data: dict[str, Any] = {"requiredCapabilities": {"elicitation": {"form": {}}}}
    assert explanation_lines(-32021, "needs it", data, "prompts/get") == [
        "What it means: The server requires the client capability elicitation.form, which this request did not"
        " declare.",
        'data: {"requiredCapabilities": {"elicitation": {"form": {}}}}',
    ]
    assert explanation_lines(-32021, "m", data, None, with_data=False) == [
        "What it means: The server requires the client capability elicitation.form, which this request did not declare."
    ]
    assert explanation_lines(-32602, "bad", {"x": 1}, "tools/call") == ['data: {"x": 1}']  # no MCP meaning
    assert explanation_lines(-32602, "bad", None, "tools/call") == []


def test_long_data_is_shortened_and_odd_data_never_raises() -> None:
    [line] = explanation_lines(1, "m", {"blob": "x" * 5000}, None)
    assert len(line) == len("data: ") + 300 and line.endswith("…")
    [line] = explanation_lines(1, "m", {1, 2}, None)  # not JSON: its repr
    assert line.startswith("data: ")


def test_relisting_helps_only_a_header_mismatch_on_a_tool_call() -> None:
    assert relisting_helps(-32020, "tools/call")
    assert not relisting_helps(-32020, "prompts/get")
    assert not relisting_helps(-32020, "resources/read")
    assert not relisting_helps(-32021, "tools/call")
    assert not relisting_helps(True, "tools/call")


def test_error_line() -> None:
    data = {"supported": ["2025-11-25"], "requested": "2026-07-28"}
    assert error_line(-32022, "Nope", data, "server/discover") == (
        "error -32022 (Unsupported protocol version): Nope"
        " — the server does not support protocol version 2026-07-28; it supports 2025-11-25"
    )
    assert error_line(-32603, "boom", None, None) == "error -32603 (Internal error): boom"
    assert error_line(None, "", None, None) == "error"
