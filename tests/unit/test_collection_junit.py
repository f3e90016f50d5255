"""JUnit XML of a collection run, parsed back: suites, cases, failures with the failing assertion, escaping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from inspector.regression.assertions import Observed, assertion_from_json, check
from inspector.regression.collection import Collection, SavedCall
from inspector.regression.junit import junit_xml, write_junit
from inspector.regression.report_text import render_text
from inspector.regression.runner import CallReport, CollectionReport

HOSTILE = 'a <b> & "c" \x00\x1b[31m \ud800 end'


def _report(name: str, observed: Observed, *raw: dict[str, object]) -> CallReport:
    assertions = tuple(assertion_from_json(item) for item in raw)
    call = SavedCall(name, "tools/call", {"name": "echo"}, assertions)
    return CallReport(call, observed, tuple(check(assertion, observed) for assertion in assertions))


def _run() -> CollectionReport:
    ok = Observed("tools/call", "ok", result={"content": [{"type": "text", "text": HOSTILE}]}, latency_ms=1500.0)
    failed = Observed("tools/call", "ok", result={"content": [{"type": "text", "text": "1 + 2 = 3"}]})
    none = Observed("tools/call", "failed", failure="no answer within 1 s")
    calls = [
        _report("passes", ok, {"kind": "outcome", "expect": "ok"}),
        _report(f"hostile {HOSTILE}", ok, {"kind": "equals", "path": "$.content[0].text", "value": "plain"}),
        _report("changed", failed, {"kind": "outcome"}, {"kind": "equals", "path": "$.content[0].text", "value": "3"}),
        _report("silent", none, {"kind": "outcome"}),
    ]
    collection = Collection(f"suite {HOSTILE}", tuple(report.call for report in calls), source="c.json")
    return CollectionReport(collection, calls, duration_ms=2500.0, server={"name": "demo", "version": "1"})


def test_junit_parses_back() -> None:
    text = junit_xml([_run(), _run()])
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 2
    suite = suites[0]
    assert suite.get("tests") == "4" and suite.get("failures") == "2" and suite.get("errors") == "1"
    assert suite.get("time") == "2.500" and suite.get("file") == "c.json"
    assert suite.get("name", "").startswith('suite a <b> & "c" ')
    cases = suite.findall("testcase")
    assert [case.get("name", "")[:7] for case in cases] == ["passes", "hostile", "changed", "silent"]
    assert cases[0].find("failure") is None and cases[0].get("time") == "1.500"
    changed = cases[2].find("failure")
    assert changed is not None
    assert changed.get("message") == '$.content[0].text equals "3": $.content[0].text is "1 + 2 = 3"'
    assert "PASS outcome is ok" in (changed.text or "") and "FAIL $.content[0].text equals" in (changed.text or "")
    hostile = cases[1].find("failure")
    assert hostile is not None and 'a <b> & \\"c\\"' in (hostile.get("message") or "")
    error = cases[3].find("error")
    assert error is not None and cases[3].find("failure") is None
    assert error.get("message") == "outcome is ok: no answer: no answer within 1 s"
    assert "\x00" not in text and "\x1b" not in text and "\ufffd" in text


def test_write_junit(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "out.xml"
    write_junit([_run()], target)
    assert ET.parse(target).getroot().find("testsuite") is not None


def test_human_text_shows_the_failing_assertion_and_the_actual_value() -> None:
    text = render_text(_run())
    assert "PASS  passes" in text
    assert "FAIL  changed (tools/call" in text
    assert '      failed: $.content[0].text equals "3"' in text
    assert '      actual: "1 + 2 = 3"' in text
    assert "ERROR silent" in text
    assert text.rstrip().endswith("1 call passed, 2 failed, 1 without an answer (2.5 s)")


def test_json_report_shape() -> None:
    document = _run().to_json()
    assert list(document) == ["collection", "file", "server", "passed", "totals", "duration_ms", "calls"]
    assert document["passed"] is False
    assert document["totals"] == {"calls": 4, "passed": 1, "failed": 2, "error": 1}
    changed = document["calls"][2]
    assert changed["status"] == "failed" and changed["outcome"] == "ok"
    assert changed["failure"]["actual"] == "1 + 2 = 3"
    assert changed["failure"]["assertion"] == {"kind": "equals", "path": "$.content[0].text", "value": "3"}
    assert [item["passed"] for item in changed["assertions"]] == [True, False]
    assert document["calls"][0]["failure"] is None
