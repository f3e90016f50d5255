"""What a replay found, request by request, and the report of a whole replay (Qt-free).

The JSON shape (``mcp-inspect --cli --replay ... --format json``; documented in docs/INTERFACES.md)::

    {"recording": PATH, "target": TEXT,
     "recordedEra": "handshake" | "modern" | null, "recordedProtocolVersion": V | null,
     "targetEra": "handshake" | "modern" | null, "targetProtocolVersion": V | null,
     "ignore": [PATTERN, ...],
     "requests": [{"index": 1, "seq": 5, "method": "tools/call", "id": 3, "subject": "echo",
                   "outcome": "same" | "changed" | "failed" | "skipped",
                   "diff": [{"path": "$.result.content[0].text", "change": "changed" | "added" | "removed",
                             "old": ..., "new": ...}],
                   "error": TEXT | null, "reason": TEXT | null,
                   "ignored": [{"path": ..., "reason": "cursor" | "--ignore" | ...}],
                   "answersRecorded": n, "answersUsed": n, "notes": [TEXT], "latencyMs": ms | null}],
     "totals": {"requests": n, "same": n, "changed": n, "failed": n, "skipped": n},
     "notes": [TEXT], "passed": true | false}

``passed`` is true when nothing changed and nothing failed (skipped requests, which could not be sent to this
target, do not fail a replay; their ``reason`` says why).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from inspector.content.plural import plural
from inspector.protocol.wire import RequestId
from inspector.regression.structural import Difference

__all__ = ["Ignored", "Outcome", "ReplayReport", "RequestResult", "render_text"]


class Outcome(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    FAILED = "failed"
    """No answer to compare: a timeout, the connection lost, or an error where the recording has a result."""
    SKIPPED = "skipped"
    """Not sent: nothing recorded to compare with, or a method the target's era does not have."""


@dataclass(frozen=True, slots=True)
class Ignored:
    """A location whose difference was left out, and why (``--ignore``, or the volatile value it holds)."""

    path: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass(slots=True)
class RequestResult:
    """One recorded request sent again."""

    index: int
    """1, 2, ... in the order sent."""
    seq: int
    """Its row in the recording."""
    method: str
    request_id: RequestId | None
    subject: str | None
    outcome: Outcome
    recorded: dict[str, Any] | None = None
    """The recorded answer (``{"result": ...}`` or ``{"error": ...}``)."""
    live: dict[str, Any] | None = None
    """The answer now, in the same shape (None when none came)."""
    diff: list[Difference] = field(default_factory=list)
    error: str | None = None
    """Why it failed."""
    reason: str | None = None
    """Why it was skipped."""
    ignored: list[Ignored] = field(default_factory=list)
    answers_recorded: int = 0
    answers_used: int = 0
    notes: list[str] = field(default_factory=list)
    latency_ms: float | None = None

    @property
    def label(self) -> str:
        """``tools/call echo``, ``tools/list``."""
        return f"{self.method} {self.subject}" if self.subject else self.method

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seq": self.seq,
            "method": self.method,
            "id": self.request_id,
            "subject": self.subject,
            "outcome": self.outcome.value,
            "diff": [d.to_json() for d in self.diff],
            "error": self.error,
            "reason": self.reason,
            "ignored": [i.to_json() for i in self.ignored],
            "answersRecorded": self.answers_recorded,
            "answersUsed": self.answers_used,
            "notes": list(self.notes),
            "latencyMs": None if self.latency_ms is None else round(self.latency_ms, 1),
        }


@dataclass(slots=True)
class ReplayReport:
    recording: str
    target: str
    recorded_era: str | None = None
    recorded_version: str | None = None
    target_era: str | None = None
    target_version: str | None = None
    ignore: tuple[str, ...] = ()
    results: list[RequestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for r in self.results if r.outcome is outcome)

    @property
    def passed(self) -> bool:
        return not any(r.outcome in (Outcome.CHANGED, Outcome.FAILED) for r in self.results)

    def totals(self) -> dict[str, int]:
        return {"requests": len(self.results), **{o.value: self.count(o) for o in Outcome}}

    def to_json(self) -> dict[str, Any]:
        return {
            "recording": self.recording,
            "target": self.target,
            "recordedEra": self.recorded_era,
            "recordedProtocolVersion": self.recorded_version,
            "targetEra": self.target_era,
            "targetProtocolVersion": self.target_version,
            "ignore": list(self.ignore),
            "requests": [r.to_json() for r in self.results],
            "totals": self.totals(),
            "notes": list(self.notes),
            "passed": self.passed,
        }

    def summary(self) -> str:
        """``5 requests: 3 same, 1 changed, 1 failed, 0 skipped``."""
        counts = ", ".join(f"{self.count(o)} {o.value}" for o in Outcome)
        return f"{plural(len(self.results), 'request')}: {counts}"


def _shown(value: Any, width: int = 100) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= width else text[: width - 1] + "…"


def _era(era: str | None, version: str | None) -> str:
    if era is None:
        return "era unknown"
    return f"{era} era, {version}" if version else f"{era} era"


def render_text(report: ReplayReport) -> str:
    """The human report: one line per request, the differences below a changed one, the totals last."""
    lines = [
        f"replay of {report.recording} ({_era(report.recorded_era, report.recorded_version)})",
        f"against {report.target} ({_era(report.target_era, report.target_version)})",
    ]
    lines.extend(f"note: {note}" for note in report.notes)
    for r in report.results:
        line = f"  {r.outcome.value:<8} {r.label}"
        if r.outcome is Outcome.FAILED and r.error:
            line += f": {r.error}"
        elif r.outcome is Outcome.SKIPPED and r.reason:
            line += f": {r.reason}"
        lines.append(line)
        for d in r.diff:
            if d.change == "changed":
                lines.append(f"             {d.path}: {_shown(d.old)} -> {_shown(d.new)}")
            elif d.change == "added":
                lines.append(f"             {d.path}: added {_shown(d.new)}")
            else:
                lines.append(f"             {d.path}: removed (was {_shown(d.old)})")
        lines.extend(f"             note: {note}" for note in r.notes)
    lines.append(report.summary())
    return "\n".join(lines) + "\n"
