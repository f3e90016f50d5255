"""The probe's report: one JSON document with the server, every step, and the totals.

Shape (``mcp-inspect --cli --probe``, stdout)::

    {"target": <command line or URL>, "transport": "stdio"|"http"|"sse"|"sse (fallback from http)",
     "protocolVersionOffered": ...,
     "server": {"name", "version", "title"?, "protocolVersion", "era": {"chosen", "asked", "why"},
                "capabilities", "instructions"?} | null,
     "steps": [{"method", "name"?, "outcome": "ok"|"error"|"isError"|"skipped", "durationMs",
                "error"?: {"code"?, "message"}, "arguments"?, "count"?, "pages"?, "resultText"?,
                "serverRequests"?, "notes"?, "diagnostics": [...]}],
     "diagnostics": [...],            # seen outside every step (e.g. while closing)
     "schemaFindings": [{"toolName", "findings": [...]}],   (tool-schema portability, as --strict's lint)
     "totals": {"steps", "ok", "errors", "toolErrors", "skipped", "violations", "warnings", "schemaErrors",
                "schemaWarnings"},
     "exitCode": 0 | 1 | 3 | 4 | 6}

``outcome`` ``error`` is a JSON-RPC error response, a timeout or a lost connection; ``isError`` a tool result
with ``isError: true``; neither is a protocol violation. Violations and warnings are the engine's diagnostics
(``inspector.protocol.diagnostics``) counted over the whole connection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from inspector.protocol.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from inspector.protocol.schema_portability import SchemaFinding

__all__ = ["Outcome", "ProbeReport", "Step"]

Outcome = Literal["ok", "error", "isError", "skipped"]


@dataclass(slots=True)
class Step:
    """One thing the probe did (or skipped, saying why)."""

    method: str
    name: str | None = None
    outcome: Outcome = "ok"
    duration: float = 0.0
    """Seconds."""
    error_code: int | None = None
    error_message: str | None = None
    error_explanation: str | None = None
    """What an MCP error code means (-32020/-32021/-32022, resource not found, ...; see protocol.error_codes)."""
    arguments: dict[str, Any] | None = None
    count: int | None = None
    """How many items a list method returned (all pages)."""
    pages: int | None = None
    result_text: str | None = None
    """The text of an ``isError`` tool result (what the tool said went wrong; truncated)."""
    notes: list[str] = field(default_factory=list)
    server_requests: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def fail(self, message: str, code: int | None = None, explanation: str | None = None) -> None:
        self.outcome = "error"
        self.error_message = message
        self.error_code = code
        self.error_explanation = explanation

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method}
        if self.name is not None:
            out["name"] = self.name
        out["outcome"] = self.outcome
        if self.outcome != "skipped":
            out["durationMs"] = round(self.duration * 1000, 3)
        if self.error_message is not None:
            error: dict[str, Any] = {"message": self.error_message}
            if self.error_code is not None:
                error["code"] = self.error_code
            if self.error_explanation is not None:
                error["explanation"] = self.error_explanation
            out["error"] = error
        if self.arguments is not None:
            out["arguments"] = self.arguments
        if self.count is not None:
            out["count"] = self.count
        if self.pages is not None:
            out["pages"] = self.pages
        if self.result_text is not None:
            out["resultText"] = self.result_text
        if self.server_requests:
            out["serverRequests"] = list(self.server_requests)
        if self.notes:
            out["notes"] = list(self.notes)
        out["diagnostics"] = [d.to_json() for d in self.diagnostics]
        return out


@dataclass(slots=True)
class ProbeReport:
    target: str
    transport: str
    protocol_version_offered: str
    server: dict[str, Any] | None = None
    steps: list[Step] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Diagnostics no step was running for."""
    connection_failed: bool = False
    failure_exit_code: int = 1
    """The exit code when the connection failed (its failure's: 4 unreachable, 3 auth, else 1)."""
    schema: list[SchemaFinding] = field(default_factory=list)
    """The tool-schema portability findings of tools/list (--strict's lint); reported, not an exit status."""

    def all_diagnostics(self) -> list[Diagnostic]:
        return [d for step in self.steps for d in step.diagnostics] + self.diagnostics

    @property
    def violations(self) -> int:
        return sum(1 for d in self.all_diagnostics() if d.severity is Severity.VIOLATION)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.all_diagnostics() if d.severity is Severity.WARNING)

    def totals(self) -> dict[str, int]:
        from inspector.protocol.schema_portability import count_findings

        schema_errors, schema_warnings, _tools = count_findings(self.schema)

        def count(outcome: str) -> int:
            return sum(1 for step in self.steps if step.outcome == outcome)

        return {
            "steps": len(self.steps),
            "ok": count("ok"),
            "errors": count("error"),
            "toolErrors": count("isError"),
            "skipped": count("skipped"),
            "violations": self.violations,
            "warnings": self.warnings,
            "schemaErrors": schema_errors,
            "schemaWarnings": schema_warnings,
        }

    def exit_code(self) -> int:
        """The connection failed or was lost: its failure's code (1 unless unreachable, 4, or unauthorized, 3);
        6 (as --strict): the server violated the protocol; else 0."""
        from inspector.cli.exitcodes import ExitCode

        if self.connection_failed:
            return self.failure_exit_code
        return ExitCode.STRICT if self.violations else ExitCode.SUCCESS

    def to_json(self) -> dict[str, Any]:
        from inspector.cli.strict import schema_findings_json

        return {
            "target": self.target,
            "transport": self.transport,
            "protocolVersionOffered": self.protocol_version_offered,
            "server": self.server,
            "steps": [step.to_json() for step in self.steps],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "schemaFindings": schema_findings_json(self.schema),
            "totals": self.totals(),
            "exitCode": int(self.exit_code()),
        }
