"""The human text of a collection run: one line per call, the failing assertion and the actual value under it."""

from __future__ import annotations

from inspector.content.plural import plural
from inspector.regression.assertions import short_json
from inspector.regression.runner import CallReport, CollectionReport

__all__ = ["call_lines", "render_text"]

_MARK = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}


def call_lines(report: CallReport) -> list[str]:
    lines = [f"{_MARK[report.status]:5} {report.call.name} ({report.call.method}, {report.observed.latency_ms:.0f} ms)"]
    failing = report.failing
    if failing is not None:
        lines.append(f"      failed: {failing.assertion.describe()}")
        lines.append(f"      {failing.message}")
        if failing.actual is not None:
            lines.append(f"      actual: {short_json(failing.actual, 300)}")
    return lines


def render_text(report: CollectionReport) -> str:
    server = report.server
    against = f"{server.get('name', '?')} {server.get('version', '?')} ({server.get('protocolVersion', '?')})"
    lines = [f"collection {report.collection.name!r} against {against}"]
    for call in report.calls:
        lines.extend(call_lines(call))
    counts = report.counts()
    summary = f"{plural(counts['passed'], 'call')} passed, {counts['failed']} failed"
    if counts["error"]:
        summary += f", {counts['error']} without an answer"
    lines.append(f"{summary} ({report.duration_ms / 1000:.1f} s)")
    return "\n".join(lines) + "\n"
