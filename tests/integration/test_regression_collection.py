"""``mcp-inspect --cli --run COLLECTION``: the shipped collections against the demo (stdio, both eras), the
deliberately changed demo build, server-everything; JUnit XML; exit codes 0 / 10 / 1."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import nodetools
import pytest
from clikit import run_inspector

COLLECTIONS = Path(__file__).resolve().parents[2] / "docs" / "collections"
DEMO = COLLECTIONS / "demo.collection.json"


def _demo(era: str, variant: str = "standard") -> list[str]:
    return ["--protocol-era", era, "--", sys.executable, "-m", "inspector.demo", "--era", era, "--variant", variant]


def _json_run(collection: Path, *target: str, extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any], str]:
    proc = run_inspector("--cli", "--run", str(collection), "--format", "json", *extra, *target)
    return proc.returncode, json.loads(proc.stdout), proc.stderr


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_collection_passes_in_both_eras(era: str, tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code, report, stderr = _json_run(DEMO, *_demo(era), extra=("--junit", str(junit)))
    assert code == 0, (report, stderr)
    assert report["passed"] is True
    assert report["server"]["era"] == ("modern" if era == "modern" else "handshake")
    names = [call["name"] for call in report["calls"]]
    assert names == [call["name"] for call in json.loads(DEMO.read_text(encoding="utf-8"))["calls"]]
    assert report["totals"] == {"calls": len(names), "passed": len(names), "failed": 0, "error": 0}
    rounds = next(call for call in report["calls"] if call["name"] == "ask_twice answers both rounds")
    assert rounds["status"] == "passed"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == str(len(names)) and suite.get("failures") == "0"


def _failing(report: dict[str, Any], name: str) -> dict[str, Any]:
    call = next(call for call in report["calls"] if call["name"] == name)
    assert call["status"] == "failed", call
    failure: dict[str, Any] = call["failure"]
    return failure


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_changed_build_is_caught(era: str, tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code, report, _stderr = _json_run(DEMO, *_demo(era, "changed"), extra=("--junit", str(junit)))
    assert code == 10
    assert report["passed"] is False
    # the renamed tool: echo is gone
    renamed = _failing(report, "echo returns its message")
    assert renamed["assertion"] == {"kind": "outcome", "expect": "ok"}
    assert "echo" in renamed["actual"]
    listed = _failing(report, "tools/list offers echo")
    assert "echo_message" in listed["actual"] and "echo" not in listed["actual"]
    # the added required argument
    weather = _failing(report, "weather for Lagos")
    assert weather["assertion"]["kind"] == "outcome"
    assert "country" in json.dumps(weather["actual"])
    # the changed result
    added = _failing(report, "add sums two numbers")
    assert added["assertion"] == {"kind": "equals", "path": "$.content[0].text", "value": "3"}
    assert added["actual"] == "1 + 2 = 3"
    assert added["line"] == '$.content[0].text equals "3": $.content[0].text is "1 + 2 = 3"'
    unchanged = [call["name"] for call in report["calls"] if call["status"] == "passed"]
    assert "hello resource" in unchanged and "greeting prompt" in unchanged

    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "4"
    messages = {case.get("name"): case.find("failure") for case in suite.findall("testcase")}
    add_failure = messages["add sums two numbers"]
    assert add_failure is not None and add_failure.get("message") == added["line"]
    assert messages["hello resource"] is None


def test_human_report_of_the_changed_build() -> None:
    proc = run_inspector("--cli", "--run", str(DEMO), *_demo("modern", "changed"))
    assert proc.returncode == 10
    assert "FAIL  add sums two numbers" in proc.stdout
    assert '      failed: $.content[0].text equals "3"' in proc.stdout
    assert '      actual: "1 + 2 = 3"' in proc.stdout
    assert "PASS  hello resource" in proc.stdout


def test_bad_collections_exit_1(tmp_path: Path) -> None:
    proc = run_inspector("--cli", "--run", str(tmp_path / "missing.json"), *_demo("legacy"))
    assert proc.returncode == 1
    assert "missing.json: cannot read the file" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "name": "x", "calls": [{"name": "a", "method": "tools/call"}]}))
    proc = run_inspector("--cli", "--run", str(bad), "--format", "json", *_demo("legacy"))
    assert proc.returncode == 1
    envelope = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "call 'a': params.name: tools/call needs a string 'name'" in envelope["error"]["message"]
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--junit", "x.xml", "--method", "tools/list"), "--junit requires --run COLLECTION"),
        (("--run", "c.json", "--method", "tools/list"), "cannot be combined with --method"),
        (("--run", "c.json", "--probe"), "cannot be combined with --probe"),
        (("--run", "c.json", "--tool-name", "echo"), "cannot be combined with --tool-name"),
    ],
)
def test_usage_errors(args: tuple[str, ...], fragment: str) -> None:
    proc = run_inspector("--cli", *args, *_demo("legacy"))
    assert proc.returncode == 1
    assert fragment in proc.stderr


def test_help_lists_run_and_junit() -> None:
    proc = run_inspector("--cli", "--help")
    assert proc.returncode == 0
    assert "--run COLLECTION" in proc.stdout and "--junit FILE" in proc.stdout
    assert "10 regression" in proc.stdout


@pytest.mark.node
def test_server_everything_collection(tmp_path: Path) -> None:
    server = nodetools.require_server_everything("stdio")
    junit = tmp_path / "junit.xml"
    collection = COLLECTIONS / "everything.collection.json"
    code, report, stderr = _json_run(collection, "--", *server, extra=("--junit", str(junit)))
    assert code == 0, (report, stderr)
    assert report["server"]["name"] == "mcp-servers/everything"
    statuses = {call["name"]: call["status"] for call in report["calls"]}
    assert set(statuses.values()) == {"passed"}
    assert {"sampling round trip", "elicitation round trip", "structured content"} <= set(statuses)
    assert ET.parse(junit).getroot().find("testsuite") is not None
