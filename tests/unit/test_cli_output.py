"""Output of the CLI: JSON documents (the official default), the readable rendering (which never fails),
--quiet, --output files."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.cli.errors import EXIT_FOR_KIND, CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output import error_document, render_text, result_document, violation_lines
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode


def test_json_documents() -> None:
    assert json.loads(result_document({"tools": []})) == {"result": {"tools": []}}
    assert "\n" not in result_document({"text": "a\nb"})
    failure = CliFailure("protocol", "Method not found", code=-32601, data={"x": 1})
    assert json.loads(error_document(failure.to_json())) == {
        "error": {"code": "error", "message": "Method not found", "kind": "protocol", "jsonrpcCode": -32601,
                  "data": {"x": 1}}
    }  # fmt: skip
    assert json.loads(error_document(UsageError("bad").to_json())) == {
        "error": {"code": "error", "message": "bad", "kind": "usage"}
    }
    # the official envelope's optional keys come first, in its order; ours follow
    extra = {"url": "http://h/mcp", "mine": 1, "status": 401, "cause": "refused"}
    assert list(CliFailure("auth", "x", extra=extra).to_json()) == [
        "code", "message", "cause", "status", "url", "kind", "mine",
    ]  # fmt: skip
    assert CliFailure("error", "x", envelope_code="output_not_raw").to_json()["code"] == "output_not_raw"


def test_failure_lines_and_exit_codes() -> None:
    assert UsageError("x").line() == "usage error: x"
    assert CliFailure("protocol", "nope", code=-32601).line() == "error: nope"
    assert CliFailure("connection", "server process exited").line() == "error: server process exited"
    expected = {
        "error": (ExitCode.ERROR, "error"),
        "usage": (ExitCode.ERROR, "error"),
        "protocol": (ExitCode.ERROR, "error"),
        "connection": (ExitCode.ERROR, "error"),
        "internal": (ExitCode.ERROR, "error"),
        "no_app": (ExitCode.NO_APP, "no_app"),
        "auth": (ExitCode.AUTH_REQUIRED, "auth_required"),
        "unreachable": (ExitCode.UNREACHABLE, "unreachable"),
        "tool": (ExitCode.TOOL_ERROR, "tool_is_error"),
        "tool_not_found": (ExitCode.TOOL_ERROR, "tool_not_found"),
        "strict": (ExitCode.STRICT, "schema_unportable"),
        "violation": (ExitCode.STRICT, "protocol_violation"),
    }
    assert set(expected) == set(EXIT_FOR_KIND)
    for kind, (exit_code, code) in expected.items():
        failure = CliFailure(kind, "x")  # type: ignore[arg-type]
        assert (failure.exit_code, failure.to_json()["code"]) == (exit_code, code), kind
    assert CliFailure("protocol", "x", code=1, data=None, has_data=True).to_json()["data"] is None


def test_exit_code_values_are_stable() -> None:
    """The official inspector CLI's numbers (scripts depend on them), plus our own 10 for regressions."""
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130]


TOOLS = {
    "tools": [
        {
            "name": "add",
            "description": "Add two numbers\nmore detail",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "description": "first"},
                    "b": {"type": ["number", "null"]},
                    "mode": {"enum": ["fast", "slow"]},
                    "any": {},
                },
                "required": ["a"],
            },
        },
        {"name": "bare"},
    ]
}


def test_tools_list_rendering() -> None:
    text = render_text("tools/list", TOOLS)
    assert text.splitlines() == [
        "2 tools",
        "- add: Add two numbers",
        "    a: integer, required — first",
        "    b: null|number",
        '    mode: one of "fast", "slow"',
        "    any: any",
        "- bare",
    ]


def test_other_renderings() -> None:
    resources = {"resources": [{"uri": "demo://a", "name": "a", "title": "A", "mimeType": "text/plain"}]}
    assert render_text("resources/list", resources) == "1 resource\n- demo://a  A (text/plain)"
    templates = {"resourceTemplates": [{"uriTemplate": "demo://{id}", "name": "item", "description": "An item"}]}
    assert render_text("resources/templates/list", templates) == "1 template\n- demo://{id}  item\n    An item"
    prompts = {"prompts": [{"name": "greet", "arguments": [{"name": "who", "required": True}, {"name": "tone"}]}]}
    assert render_text("prompts/list", prompts) == "1 prompt\n- greet\n    who (required)\n    tone"
    assert render_text("ping", {}) == "ok"
    assert render_text("logging/setLevel", {}) == "ok"


def test_tool_result_rendering() -> None:
    result: dict[str, Any] = {
        "content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "audio", "mimeType": "audio/wav", "data": "!!"},
            {"type": "resource_link", "uri": "demo://x", "name": "x"},
            {"type": "resource", "resource": {"uri": "demo://t", "mimeType": "text/plain", "text": "inner"}},
            {"type": "resource", "resource": {"uri": "demo://b", "blob": "AAAA"}},
            {"type": "mystery", "v": 1},
        ],
        "structuredContent": {"sum": 3},
    }
    text = render_text("tools/call", result)
    assert "hello" in text
    assert "[image image/png, 3 bytes]" in text
    assert "[audio audio/wav, 2 characters of invalid base64]" in text
    assert "[resource link demo://x (x)]" in text
    assert "[resource demo://t (text/plain)]\ninner" in text
    assert "[resource demo://b, 3 bytes]" in text
    assert '"mystery"' in text
    assert 'structuredContent:\n{\n  "sum": 3\n}' in text
    error = render_text("tools/call", {"content": [{"type": "text", "text": "bad"}], "isError": True})
    assert error == "tool returned an error (isError: true):\nbad"
    assert render_text("tools/call", {"content": []}) == "(no content)"


def test_read_and_prompt_rendering() -> None:
    read = {"contents": [{"uri": "demo://a", "text": "body"}, {"uri": "demo://b", "mimeType": "image/png", "blob": ""}]}
    assert render_text("resources/read", read) == "[resource demo://a]\nbody\n[resource demo://b (image/png), 0 bytes]"
    prompt = {
        "description": "Greeting",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Say hi"}},
            {"role": "assistant", "content": {"type": "image", "mimeType": "image/png", "data": "AAAA"}},
        ],
    }
    assert render_text("prompts/get", prompt) == "Greeting\n[user] Say hi\n[assistant] [image image/png, 3 bytes]"


@pytest.mark.parametrize(
    ("method", "result"),
    [
        ("tools/list", {"tools": "nope"}),
        ("tools/list", {"tools": [{"description": "no name", "inputSchema": "nope"}, 42, {"name": 42}]}),
        ("tools/list", []),
        ("resources/list", {}),
        ("prompts/list", {"prompts": [{"name": "p", "arguments": [1, {"name": "a"}]}]}),
        ("tools/call", {"content": "x"}),
        ("tools/call", {"content": [None, 1, {"type": "text"}]}),
        ("resources/read", {"contents": None}),
        ("prompts/get", {"messages": [{"role": "user", "content": None}]}),
        ("unknown/method", {"a": 1}),
        ("ping", {"unexpected": True}),
        ("tools/call", None),
    ],
)
def test_malformed_results_never_raise(method: str, result: Any) -> None:
    assert isinstance(render_text(method, result), str)


def test_violation_lines() -> None:
    diagnostic = Diagnostic(DiagnosticCode.INVALID_JSON, "not JSON", path="$.x")
    assert violation_lines([diagnostic]) == ["  [invalid-json] not JSON at $.x"]
    many = [diagnostic] * 60
    lines = violation_lines(many)
    assert len(lines) == 51 and lines[-1] == "  ... and 10 more"


# -- terminal safety ------------------------------------------------------------------------------------

EVIL = "\x1b]0;title\x07\x1b[2J\x1b[8mhidden\x1b[0m\x9b31m\x7f\x00\u202egnp.exe\u2066\ud800"


def test_escape_text_keeps_lines_and_tabs_and_escapes_the_rest() -> None:
    from inspector.cli.terminal import escape_line, escape_text

    assert escape_text(f"a\tb\r\nc {EVIL}") == (
        "a\tb\nc \\x1b]0;title\\x07\\x1b[2J\\x1b[8mhidden\\x1b[0m\\x9b31m\\x7f\\x00\\u202egnp.exe\\u2066\\ud800"
    )
    assert escape_text("lone\rcarriage") == "lone\\rcarriage"
    assert escape_line("one\nline\r\n\tend") == "one\\nline\\r\\n\tend"
    assert escape_text("caf\u00e9 \u2603 \U0001f600 \\x1b") == "caf\u00e9 \u2603 \U0001f600 \\x1b"  # printable: kept
    assert escape_text(escape_text(EVIL)) == escape_text(EVIL)


def test_json_documents_escape_what_json_dumps_leaves_raw_and_round_trip() -> None:
    from inspector.cli.output import dump_json, pretty_json

    value = {"text": EVIL, EVIL: [EVIL], "ok": "caf\u00e9 \u2028"}
    for document in (dump_json(value), pretty_json(value), result_document(value)):
        assert document.isascii() or all(ord(ch) >= 0xA0 for ch in document if not ch.isascii())
        for raw in ("\x1b", "\x7f", "\x9b", "\u202e", "\u2066", "\ud800", "\u2028"):
            assert raw not in document
        assert "\\ud800" in document and "\\u009b" in document
    assert json.loads(dump_json(value)) == value
    assert json.loads(result_document(value)) == {"result": value}


def test_every_readable_rendering_is_escaped() -> None:
    tools = {
        "tools": [
            {
                "name": f"evil{EVIL}\nfake line",
                "description": EVIL,
                "inputSchema": {"type": "object", "properties": {f"p{EVIL}": {"description": EVIL, "enum": [EVIL]}}},
            }
        ]
    }
    resources = {"resources": [{"uri": f"file:///{EVIL}", "name": EVIL, "mimeType": EVIL, "description": EVIL}]}
    prompts = {"prompts": [{"name": EVIL, "description": EVIL, "arguments": [{"name": EVIL, "description": EVIL}]}]}
    call = {
        "content": [
            {"type": "text", "text": f"line 1\n{EVIL}"},
            {"type": "image", "mimeType": EVIL, "data": ""},
            {"type": "resource_link", "uri": EVIL, "name": EVIL},
            {"type": "resource", "resource": {"uri": EVIL, "mimeType": EVIL, "text": EVIL}},
            {"type": EVIL},
        ],
        "structuredContent": {EVIL: EVIL},
    }
    read = {"contents": [{"uri": EVIL, "text": EVIL}]}
    prompt = {"description": EVIL, "messages": [{"role": EVIL, "content": {"type": "text", "text": EVIL}}]}
    for method, result in [
        ("tools/list", tools),
        ("resources/list", resources),
        ("resources/templates/list", {"resourceTemplates": [{"uriTemplate": EVIL, "name": EVIL}]}),
        ("prompts/list", prompts),
        ("tools/call", call),
        ("resources/read", read),
        ("prompts/get", prompt),
        ("ping", {EVIL: EVIL}),
        ("unknown/method", [EVIL]),
    ]:
        text = render_text(method, result)
        for raw in ("\x1b", "\x07", "\x7f", "\x9b", "\x00", "\u202e", "\u2066", "\ud800"):
            assert raw not in text, (method, text)
    assert render_text("tools/list", tools).splitlines()[1].startswith("- evil\\x1b]0;title\\x07")
    assert len(render_text("tools/list", tools).splitlines()) == 3  # a newline in a name adds no line


def test_reporter_lines_are_escaped_and_never_fail_to_encode() -> None:
    import io

    from inspector.cli.output import Reporter
    from inspector.cli.terminal import escape_line

    def ascii_stream() -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")

    def written(stream: io.TextIOWrapper) -> str:
        stream.flush()
        raw = stream.buffer.getvalue()  # type: ignore[attr-defined]
        assert isinstance(raw, bytes)
        return raw.decode("ascii")

    out, err = ascii_stream(), ascii_stream()
    human = Reporter("human", out, err)
    human.result("tools/call", {"content": [{"type": "text", "text": f"caf\u00e9 {EVIL}"}]})
    human.warn(f"odd\n{EVIL}")
    human.failure(CliFailure("protocol", EVIL, code=-1, line=f"error: {EVIL}\nsecond"))
    human.violations([Diagnostic(DiagnosticCode.SCHEMA, EVIL)], CliFailure("connection", EVIL))
    human.document({"note": f"caf\u00e9 {EVIL}"})
    human.server_stderr(f"server says {EVIL}\n")
    shown_out, shown_err = written(out), written(err)
    assert shown_out.startswith("caf\\xe9 \\x1b]0;title")
    assert json.loads(shown_out.split("\n", 1)[1]) == {"note": f"caf\u00e9 {EVIL}"}
    assert shown_err.splitlines()[0].startswith("warning: odd\\n\\x1b]0;title")
    assert shown_err.splitlines()[1] == "error: " + escape_line(EVIL) + "\\nsecond"
    assert shown_err.splitlines()[-1] == "server says " + escape_line(EVIL)
    assert len(shown_err.splitlines()) == 6  # warning, failure, cause, violation header, one diagnostic, stderr

    for fmt in ("text", "json"):  # the result as JSON; the failure as the envelope
        out, err = ascii_stream(), ascii_stream()
        reporter = Reporter(fmt, out, err)
        reporter.result("tools/call", {"text": f"caf\u00e9 {EVIL}"})
        reporter.failure(CliFailure("protocol", f"caf\u00e9 {EVIL}"))
        result = {"text": f"caf\u00e9 {EVIL}"}
        assert json.loads(written(out)) == (result if fmt == "text" else {"result": result})
        assert json.loads(written(err))["error"]["message"] == f"caf\u00e9 {EVIL}"


def test_default_format_prints_the_result_as_the_official_cli() -> None:
    """Pretty JSON, two spaces, keys in the order received, non-ASCII kept (JSON.stringify(result, null, 2))."""
    import io

    from inspector.cli.output import Reporter

    out, err = io.StringIO(), io.StringIO()
    Reporter("text", out, err).result("tools/call", {"content": [{"type": "text", "text": "é"}], "isError": False})
    assert out.getvalue() == (
        '{\n  "content": [\n    {\n      "type": "text",\n      "text": "é"\n    }\n  ],\n  "isError": false\n}\n'
    )
    assert err.getvalue() == ""


def test_quiet_keeps_only_the_result_and_the_envelope() -> None:
    import io

    from inspector.cli.output import Reporter

    for fmt in ("text", "human", "json"):
        out, err = io.StringIO(), io.StringIO()
        quiet = Reporter(fmt, out, err, quiet=True)
        quiet.warn("w")
        quiet.status("task 1: working")
        quiet.server_stderr("booting")
        quiet.wrote({"path": "p", "format": "raw", "bytes": 3})
        assert err.getvalue() == "", fmt
        quiet.result("ping", {})
        quiet.failure(CliFailure("tool", "bad"))
        assert out.getvalue().strip() and err.getvalue().count("\n") == 1
    loud = Reporter("text", io.StringIO(), io.StringIO())
    loud.warn("w")
    loud.status("task 1: working")  # our status lines: human format only
    loud.server_stderr("booting\r\n")
    loud.wrote({"path": "p", "format": "raw", "bytes": 3})
    assert loud.err.getvalue() == "warning: w\nbooting\nWrote 3 bytes (raw) to p\n"  # type: ignore[attr-defined]
    as_json = Reporter("json", io.StringIO(), io.StringIO())
    as_json.warn("w")
    as_json.wrote({"path": "p", "format": "json", "bytes": 3})
    assert as_json.err.getvalue() == ""  # type: ignore[attr-defined]
    assert json.loads(as_json.out.getvalue()) == {"output": {"path": "p", "format": "json", "bytes": 3}}  # type: ignore[attr-defined]


def test_failure_lines_fall_back_to_the_exception_type() -> None:
    from inspector.cli.run import failure_from
    from inspector.client.errors import ClientError, InvalidResponse, RequestCancelled, describe_exception, message_of

    assert failure_from(RequestCancelled(""), None).message == "request cancelled: RequestCancelled"
    assert failure_from(InvalidResponse(), None).message == "unusable response: InvalidResponse"
    assert failure_from(ClientError(" "), None).message == "ClientError"
    assert message_of(KeyError("")) == "''" and message_of(ValueError()) == "ValueError"
    assert describe_exception(RuntimeError()) == "RuntimeError"
    assert describe_exception(RuntimeError("x")) == "RuntimeError: x"
