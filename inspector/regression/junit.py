"""JUnit XML of collection runs, for CI systems: a ``testsuite`` per collection, a ``testcase`` per call.

A call whose assertion failed is a ``failure`` (message: the failing assertion and the actual value; the text:
every assertion's verdict); a call that got no answer (timeout, connection lost) is an ``error``. Text is
escaped by ElementTree, and characters XML 1.0 cannot hold (control characters, lone surrogates) are replaced
first, so the document is always well-formed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from inspector.regression.runner import CollectionReport

__all__ = ["junit_xml", "write_junit"]

_NOT_XML: Final = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.3f}"


def _suite(report: CollectionReport) -> ET.Element:
    counts = report.counts()
    suite = ET.Element(
        "testsuite",
        {
            "name": _clean(report.collection.name or report.collection.source or "collection"),
            "tests": str(counts["calls"]),
            "failures": str(counts["failed"]),
            "errors": str(counts["error"]),
            "skipped": "0",
            "time": _seconds(report.duration_ms),
        },
    )
    if report.collection.source:
        suite.set("file", _clean(report.collection.source))
    for call in report.calls:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "name": _clean(call.call.name),
                "classname": _clean(report.collection.name or "collection"),
                "time": _seconds(call.observed.latency_ms),
            },
        )
        if call.passed:
            continue
        tag = "error" if call.status == "error" else "failure"
        verdicts = "\n".join(
            f"{'PASS' if result.passed else 'FAIL'} {result.assertion.describe()}: {result.message}"
            for result in call.results
        )
        element = ET.SubElement(case, tag, {"message": _clean(call.failure_line()), "type": call.status})
        element.text = _clean(f"{call.call.method} -> {call.observed.describe()}\n{verdicts}")
    return suite


def junit_xml(reports: Sequence[CollectionReport]) -> str:
    """One ``testsuites`` document of the runs (UTF-8 text with its XML declaration)."""
    root = ET.Element("testsuites")
    for report in reports:
        root.append(_suite(report))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(reports: Sequence[CollectionReport], path: str | Path) -> None:
    Path(path).write_text(junit_xml(reports), encoding="utf-8")
