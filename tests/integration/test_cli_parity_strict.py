"""``--strict`` side by side with the official inspector CLI: the same tool-schema findings (rule, severity,
tool, path, in the same order), the same exit codes and count line; plus ours' protocol findings.

The server is tests/servers/unportable_tools.py (every portability rule in every schema position it can
hold); server-everything and the bundled demo are the real-world references.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import nodetools
import pytest
from sidebyside import Outcome, both, ours

pytestmark = pytest.mark.node

SERVER = [sys.executable, str(Path(__file__).resolve().parents[1] / "servers" / "unportable_tools.py")]
TOOLS_LIST = ("--method", "tools/list")

_HEADER = re.compile(r'(Error|Warning): (?:tool "(.*)"|protocol violation)')


def report(stderr: str) -> list[dict[str, str]]:
    """The findings of a --strict text report on stderr: severity, tool, kind (official: always schema),
    rule (ours only), path."""
    found: list[dict[str, str]] = []
    for line in stderr.splitlines():
        header = _HEADER.fullmatch(line)
        if header is not None:
            severity = header.group(1).lower()
            if header.group(2) is None:
                found.append({"severity": severity, "kind": "protocol"})
            else:
                found.append({"severity": severity, "tool": header.group(2), "kind": "schema"})
        elif found and line.startswith("  ") and ": " in line:
            key, _, value = line.strip().partition(": ")
            if key in ("Kind", "Rule", "Path"):
                found[-1][key.lower()] = value
    return found


def schema_part(findings: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    return [(f["severity"], f["tool"], f["path"]) for f in findings if f["kind"] == "schema"]


def envelope(stderr: str) -> dict[str, Any]:
    """The ``{"error": ...}`` line (the last line of stderr)."""
    document = json.loads(stderr.strip().splitlines()[-1])
    assert isinstance(document, dict)
    error = document["error"]
    assert isinstance(error, dict)
    return error


def server(*words: str) -> list[str]:
    return [*SERVER, *words]


def test_every_rule_same_findings_same_order_same_exit_and_envelope(tmp_path: Path) -> None:
    theirs, mine = both(*server("all"), *TOOLS_LIST, "--strict", home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (6, 6), (theirs.stderr[-500:], mine.stderr[-500:])
    official_findings = report(theirs.stderr)
    assert len(official_findings) == 32  # a change of the server (or of the official rules) shows here
    assert schema_part(report(mine.stderr)) == schema_part(official_findings)
    assert {f["kind"] for f in report(mine.stderr)} == {"schema"}  # no protocol finding: the server is sane
    rules = {f["rule"] for f in report(mine.stderr)}
    assert rules == {"boolean-schema", "type-union", "remote-ref", "untyped-schema"}
    assert theirs.stderr.splitlines()[-2] == mine.stderr.splitlines()[-2] == "8 errors, 24 warnings across 7 tools."
    theirs_error, my_error = envelope(theirs.stderr), envelope(mine.stderr)
    assert theirs_error["code"] == my_error["code"] == "schema_unportable"
    assert theirs_error["message"] == my_error["message"]
    assert json.loads(theirs.stdout) == json.loads(mine.stdout)  # the result itself, pretty JSON on stdout


def test_json_format_carries_the_same_schema_findings(tmp_path: Path) -> None:
    theirs, mine = both(*server("all"), *TOOLS_LIST, "--strict", "--format", "json", home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (6, 6)
    theirs_doc, my_doc = json.loads(theirs.stdout), json.loads(mine.stdout)
    assert set(theirs_doc) == set(my_doc) == {"result", "schemaFindings"}

    def key(groups: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, ...]]]]:
        return [
            (g["toolName"], [(f["rule"], f["severity"], f["schema"], f["path"]) for f in g["findings"]]) for g in groups
        ]

    assert key(my_doc["schemaFindings"]) == key(theirs_doc["schemaFindings"])
    for group in my_doc["schemaFindings"]:
        for finding in group["findings"]:
            assert finding["kind"] == "schema"
            assert finding["issue"] and finding["suggestion"]
    assert envelope(theirs.stderr)["code"] == envelope(mine.stderr)["code"] == "schema_unportable"


def test_json_format_with_output_carries_the_schema_findings_too(tmp_path: Path) -> None:
    theirs, mine = both(
        *server("all"), *TOOLS_LIST, "--strict", "--format", "json", "--output", str(tmp_path / "r.json"), home=tmp_path
    )
    assert (theirs.returncode, mine.returncode) == (6, 6)
    assert set(json.loads(theirs.stdout)) == set(json.loads(mine.stdout)) == {"output", "schemaFindings"}


def test_warnings_only_report_in_full_and_exit_0(tmp_path: Path) -> None:
    theirs, mine = both(*server("warnings"), *TOOLS_LIST, "--strict", home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (0, 0), mine.stderr[-500:]
    assert schema_part(report(mine.stderr)) == schema_part(report(theirs.stderr))
    assert {f["severity"] for f in report(mine.stderr)} == {"warning"}
    assert mine.stderr.splitlines()[-1] == theirs.stderr.splitlines()[-1] == "0 errors, 23 warnings across 4 tools."


def test_without_strict_one_count_line_and_the_method_s_exit_code(tmp_path: Path) -> None:
    theirs, mine = both(*server("all"), *TOOLS_LIST, home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (0, 0)
    line = "Schema portability: 8 errors, 24 warnings across 7 tools. Re-run with --strict for details."
    assert line in theirs.stderr.splitlines()
    assert line in mine.stderr.splitlines()
    assert report(mine.stderr) == []
    quiet_theirs, quiet_mine = both(*server("all"), *TOOLS_LIST, "--quiet", home=tmp_path)
    assert (quiet_theirs.returncode, quiet_mine.returncode) == (0, 0)
    assert "Schema portability" not in quiet_theirs.stderr
    assert "Schema portability" not in quiet_mine.stderr


def test_quiet_does_not_silence_the_strict_report(tmp_path: Path) -> None:
    theirs, mine = both(*server("all"), *TOOLS_LIST, "--strict", "--quiet", home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (6, 6)
    assert schema_part(report(mine.stderr)) == schema_part(report(theirs.stderr)) != []


def test_portable_schemas_nothing_reported(tmp_path: Path) -> None:
    for fmt in ("text", "json"):
        theirs, mine = both(*server("clean"), *TOOLS_LIST, "--strict", "--format", fmt, home=tmp_path)
        assert (theirs.returncode, mine.returncode) == (0, 0), mine.stderr
        assert report(theirs.stderr) == report(mine.stderr) == []
        if fmt == "json":
            assert set(json.loads(theirs.stdout)) == set(json.loads(mine.stdout)) == {"result"}


def test_protocol_violations_are_ours_on_top(tmp_path: Path) -> None:
    """The server answers an id nobody asked for: the official CLI lets it pass, ours lists it (kind protocol)
    and exits 6 with --strict; without --strict both exit 0 and ours prints a count line."""
    theirs, mine = both(*server("warnings", "violate"), *TOOLS_LIST, "--strict", home=tmp_path)
    assert theirs.returncode == 0
    assert mine.returncode == 6
    findings = report(mine.stderr)
    assert schema_part(findings) == schema_part(report(theirs.stderr))  # the schema part is still the same
    protocol = [f for f in findings if f["kind"] == "protocol"]
    assert [(f["severity"], f["rule"]) for f in protocol] == [("error", "unknown-response-id")]
    assert mine.stderr.splitlines()[-2] == "0 errors, 23 warnings across 4 tools; 1 protocol violation."
    error = envelope(mine.stderr)
    assert error["code"] == "protocol_violation"
    assert [(f["kind"], f["rule"]) for f in error["protocolFindings"]] == [("protocol", "unknown-response-id")]

    theirs, mine = both(*server("clean", "violate"), *TOOLS_LIST, home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (0, 0)
    assert "Protocol: the server violated the protocol 1 time. Re-run with --strict for details." in mine.stderr


def test_schema_errors_and_protocol_violations_together(tmp_path: Path) -> None:
    mine = ours(*server("all", "violate"), *TOOLS_LIST, "--strict", "--format", "json", home=tmp_path)
    assert mine.returncode == 6
    error = envelope(mine.stderr)
    assert error["code"] == "schema_unportable"  # a schema error is among the findings
    assert (error["schemaErrors"], error["protocolViolations"]) == (8, 1)
    assert error["message"] == "8 tool schema portability errors and 1 protocol violation found (--strict)."


def test_invalid_tools_official_drops_them_ours_lints_and_flags_them(tmp_path: Path) -> None:
    """inputSchema ``{}`` and ``true`` are not valid MCP tools: the official SDK drops them from the list
    (nothing to lint, exit 0); ours keeps what the server sent, lints it and reports the violations."""
    theirs, mine = both(*server("invalid"), *TOOLS_LIST, "--strict", home=tmp_path)
    assert theirs.returncode == 0
    assert [t["name"] for t in json.loads(theirs.stdout)["tools"]] == ["echo"]
    assert mine.returncode == 6
    findings = report(mine.stderr)
    assert schema_part(findings) == [
        ("warning", "empty_root", "inputSchema"),
        ("error", "boolean_root", "inputSchema"),
    ]
    assert [f["rule"] for f in findings if f["kind"] == "protocol"] == ["schema", "schema"]


def test_other_methods_official_refuses_strict_ours_checks_the_protocol(tmp_path: Path) -> None:
    """The official CLI takes --strict only with tools/list (exit 1); ours also takes it with every other
    method, where it checks the protocol only (the schema lint is tools/list's)."""
    args = ("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi", "--strict")
    theirs, mine = both(*server("all"), *args, home=tmp_path)
    assert theirs.returncode == 1
    assert "--strict requires --method tools/list" in envelope(theirs.stderr)["message"]
    assert mine.returncode == 0, mine.stderr  # tools/call lists tools internally, but lints nothing
    assert report(mine.stderr) == []
    assert ours(*server("all", "violate"), *args, home=tmp_path).returncode == 6  # the stray answer on tools/list
    assert ours(*server("all"), "--method", "ping", "--strict", home=tmp_path).returncode == 0


def _same_outcome(theirs: Outcome, mine: Outcome) -> None:
    assert theirs.returncode == mine.returncode, (theirs.stderr[-800:], mine.stderr[-800:])
    assert schema_part(report(mine.stderr)) == schema_part(report(theirs.stderr))
    assert [f for f in report(mine.stderr) if f["kind"] == "protocol"] == []


def test_server_everything_is_portable_in_both(tmp_path: Path) -> None:
    everything = nodetools.require_server_everything()
    theirs, mine = both(*everything, *TOOLS_LIST, "--strict", home=tmp_path)
    assert theirs.returncode == 0
    _same_outcome(theirs, mine)


def test_the_demo_gets_the_same_verdict(tmp_path: Path) -> None:
    theirs, mine = both(sys.executable, "-m", "inspector.demo", *TOOLS_LIST, "--strict", home=tmp_path)
    _same_outcome(theirs, mine)
    assert report(theirs.stderr) != []  # the demo's validate_order exercises schema features on purpose
