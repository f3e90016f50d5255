"""``--strict`` reporting: which findings are listed, the count line without --strict, the exit code and the
envelope, in each output format (no I/O: a Reporter over StringIO)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.output import Reporter
from inspector.cli.strict import (
    PROTOCOL_TEXT_MAX,
    StrictReport,
    conclude,
    document_extras,
    emit_result,
    lint_result,
    report_lines,
    schema_findings_json,
)
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.schema_portability import schema_findings

TOOLS: list[dict[str, Any]] = [
    {"name": "ok", "inputSchema": {"type": "object"}},
    {"name": "bad", "inputSchema": {"type": "object", "properties": {"x": True, "y": {"type": ["string", "null"]}}}},
]
WARN_ONLY: list[dict[str, Any]] = [{"name": "w", "inputSchema": {"type": "object", "properties": {"a": {}}}}]
STRAY = Diagnostic(DiagnosticCode.UNKNOWN_RESPONSE_ID, "response for id 'x', which no request of ours has")


def run(
    *,
    strict: bool,
    tools: list[dict[str, Any]] | None = None,
    violations: list[Diagnostic] | None = None,
    failure: CliFailure | None = None,
    fmt: str = "text",
    quiet: bool = False,
) -> tuple[int, list[str]]:
    opts = CliOptions(target=[], strict=strict, quiet=quiet, method="tools/list")
    out, err = io.StringIO(), io.StringIO()
    lint = schema_findings(tools) if tools is not None else None
    code = conclude(Reporter(format=fmt, out=out, err=err), opts, failure, violations or [], lint)
    assert out.getvalue() == ""
    return code, err.getvalue().splitlines()


# (strict, tools, violations, failure kind, expected exit)
VERDICTS = [
    (True, TOOLS, [], None, 6),
    (True, WARN_ONLY, [], None, 0),
    (True, [], [], None, 0),
    (True, None, [STRAY], None, 6),  # not a tools/list run: protocol findings only
    (True, WARN_ONLY, [STRAY], None, 6),
    (True, None, [], "tool", 5),
    (True, None, [STRAY], "tool", 6),  # with --strict a violation wins over the method's own failure
    (True, TOOLS, [], "connection", 6),
    (False, TOOLS, [STRAY], None, 0),
    (False, None, [STRAY], "tool", 5),
    (False, None, [], "unreachable", 4),
]


@pytest.mark.parametrize(("strict", "tools", "violations", "kind", "exit_code"), VERDICTS)
@pytest.mark.parametrize("fmt", ["text", "json", "human"])
def test_exit_codes(
    strict: bool,
    tools: list[dict[str, Any]] | None,
    violations: list[Diagnostic],
    kind: Any,
    exit_code: int,
    fmt: str,
) -> None:
    failure = CliFailure(kind, "it failed") if kind is not None else None
    code, _lines = run(strict=strict, tools=tools, violations=violations, failure=failure, fmt=fmt)
    assert code == exit_code


def test_strict_report_lists_both_kinds_then_counts_then_the_envelope() -> None:
    code, lines = run(strict=True, tools=TOOLS, violations=[STRAY])
    assert code == 6
    headers = [line for line in lines if line.startswith(("Error:", "Warning:"))]
    assert headers == ['Error: tool "bad"', 'Warning: tool "bad"', "Error: protocol violation"]
    assert [line for line in lines if line.startswith("  Kind:")] == ["  Kind: schema"] * 2 + ["  Kind: protocol"]
    assert "  Path: inputSchema.properties.x" in lines
    assert "  Rule: unknown-response-id" in lines
    assert lines[-2] == "1 error, 1 warning across 1 tool; 1 protocol violation."
    error = json.loads(lines[-1])["error"]
    assert error["code"] == "schema_unportable"
    assert error["message"] == "1 tool schema portability error and 1 protocol violation found (--strict)."
    assert error["protocolFindings"] == [
        {"kind": "protocol", "rule": "unknown-response-id", "severity": "error", "path": None, "issue": STRAY.message}
    ]


def test_protocol_only_envelope_code_and_cause() -> None:
    code, lines = run(strict=True, violations=[STRAY], failure=CliFailure("protocol", "server error"), fmt="json")
    assert code == 6
    error = json.loads(lines[-1])["error"]
    assert error["code"] == "protocol_violation"
    assert error["message"] == "1 protocol violation found (--strict)."
    assert error["cause"] == "server error"
    assert error["failure"]["message"] == "server error"
    assert sum(1 for line in lines if line.startswith("{")) == 1  # one envelope, never two


def test_human_format_ends_with_one_readable_line() -> None:
    _code, lines = run(strict=True, tools=TOOLS, fmt="human")
    assert lines[-1].startswith("error: 1 tool schema portability error found")


def test_warnings_only_report_has_no_envelope() -> None:
    code, lines = run(strict=True, tools=WARN_ONLY)
    assert code == 0
    assert lines[-1] == "0 errors, 1 warning across 1 tool."


def test_nothing_found_nothing_printed() -> None:
    assert run(strict=True, tools=[]) == (0, [])
    assert run(strict=False, tools=[]) == (0, [])


@pytest.mark.parametrize("fmt", ["text", "json", "human"])
def test_without_strict_one_count_line_per_kind_unless_quiet(fmt: str) -> None:
    code, lines = run(strict=False, tools=TOOLS, violations=[STRAY, STRAY], fmt=fmt)
    assert code == 0
    assert lines == [
        "Schema portability: 1 error, 1 warning across 1 tool. Re-run with --strict for details.",
        "Protocol: the server violated the protocol 2 times. Re-run with --strict for details.",
    ]
    assert run(strict=False, tools=TOOLS, violations=[STRAY], fmt=fmt, quiet=True) == (0, [])


def test_quiet_keeps_the_strict_report() -> None:
    code, lines = run(strict=True, tools=TOOLS, quiet=True)
    assert code == 6 and 'Error: tool "bad"' in lines


def test_a_flood_of_violations_is_cut_in_text_and_counted() -> None:
    flood = [STRAY] * (PROTOCOL_TEXT_MAX + 7)
    lines = report_lines(StrictReport(None, flood))
    assert sum(1 for line in lines if line == "Error: protocol violation") == PROTOCOL_TEXT_MAX
    assert "... and 7 more protocol violations" in lines
    assert lines[-1] == f"{PROTOCOL_TEXT_MAX + 7} protocol violations."


def test_server_strings_are_escaped_in_the_report() -> None:
    tools = [{"name": "evil\x1b]0;title\x07", "inputSchema": {"type": "object", "properties": {"\x1b[2J": True}}}]
    lines = report_lines(StrictReport(schema_findings(tools), []))
    assert all("\x1b" not in line and "\x07" not in line for line in lines)


def test_lint_is_tools_list_only() -> None:
    result = {"tools": TOOLS}
    assert lint_result(CliOptions(target=[]), "tools/list", result)
    assert lint_result(CliOptions(target=[]), "tools/call", result) is None
    assert lint_result(CliOptions(target=[]), "tools/list", {"tools": []}) == []


@pytest.mark.parametrize(("strict", "keys"), [(True, ["result", "schemaFindings"]), (False, ["result"])])
def test_json_result_document_carries_schema_findings_with_strict(strict: bool, keys: list[str]) -> None:
    out = io.StringIO()
    lint = schema_findings(TOOLS)
    reporter = Reporter(format="json", out=out, err=io.StringIO())
    opts = CliOptions(target=[], strict=strict)
    emit_result(reporter, opts, "tools/list", {"tools": TOOLS}, lint)
    document = json.loads(out.getvalue())
    assert list(document_extras(opts, lint)) == keys[1:]
    assert document_extras(opts, []) == {}
    assert list(document) == keys
    if strict:
        assert document["schemaFindings"] == schema_findings_json(lint)
        assert document["schemaFindings"][0]["toolName"] == "bad"
        assert [f["path"] for f in document["schemaFindings"][0]["findings"]] == ["properties.x", "properties.y"]
