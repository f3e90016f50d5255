"""``--strict``: what the server got wrong, in full, and exit 6 when any of it is an error.

Two kinds of finding, each labelled with its kind:

* ``schema``: a tool schema that is legal JSON Schema but not portable to every client
  (:mod:`inspector.protocol.schema_portability`; the official inspector CLI's rules, severities and paths).
  Linted on ``--method tools/list`` only, as the official CLI does; an ``error`` finding exits 6.
* ``protocol``: a protocol violation the connection saw (a diagnostic of severity ``violation``), on every
  method; any of them exits 6.

With ``--strict``, stderr gets the report: one block per finding (``Error: tool "x"`` / ``Warning: ...``,
then ``Kind``, ``Rule``, ``Path``, ``Issue`` and, for schema findings, ``Suggestion``), a count line, and
when the exit is 6 the ``{"error": ...}`` envelope (``schema_unportable`` when a schema error is among the
findings, else ``protocol_violation``) with the protocol findings as JSON. With ``--format json`` the
stdout document also carries ``schemaFindings`` (the official shape: one ``{"toolName", "findings"}`` per
tool). Without ``--strict``, one count line per kind (``Schema portability: 1 error, 2 warnings across 2
tools. Re-run with --strict for details.``) unless ``--quiet``, and the exit code is the method's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output import Reporter, dump_json
from inspector.cli.terminal import escape_line, write
from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.schema_portability import (
    SchemaFinding,
    count_findings,
    findings_by_tool,
    result_findings,
    schema_findings,
    summarize,
)

__all__ = [
    "PROTOCOL_JSON_MAX",
    "PROTOCOL_TEXT_MAX",
    "StrictReport",
    "conclude",
    "count_lines",
    "document_extras",
    "emit_result",
    "lint_result",
    "protocol_finding",
    "report_lines",
    "schema_findings",
    "schema_findings_json",
]

PROTOCOL_TEXT_MAX: Final = 50
"""Protocol findings listed in the text report (a flood of violations ends with a count)."""
PROTOCOL_JSON_MAX: Final = 500
"""Protocol findings in the error envelope (the rest counted in ``omittedProtocolFindings``)."""


def lint_result(opts: CliOptions, method: str | None, result: Any) -> list[SchemaFinding] | None:
    """The schema findings of a ``tools/list`` result (``None`` for any other method: nothing was linted)."""
    if method != "tools/list" or opts.load:
        return None
    return result_findings(result)


def schema_findings_json(findings: Sequence[SchemaFinding]) -> list[dict[str, Any]]:
    """The official ``schemaFindings`` shape (one ``{"toolName", "findings"}`` per tool entry), each finding
    also saying ``"kind": "schema"``."""
    groups = findings_by_tool(findings)
    for group in groups:
        group["findings"] = [{"kind": "schema", **finding} for finding in group["findings"]]
    return groups


def protocol_finding(diagnostic: Diagnostic) -> dict[str, Any]:
    """A protocol violation with the field names of a schema finding (``kind, rule, severity, path, issue``)."""
    out: dict[str, Any] = {
        "kind": "protocol",
        "rule": diagnostic.code.value,
        "severity": "error",
        "path": diagnostic.path,
        "issue": diagnostic.message,
    }
    if diagnostic.raw is not None:
        out["raw"] = diagnostic.raw[:200].decode("utf-8", "backslashreplace")
    return out


def document_extras(opts: CliOptions, lint: Sequence[SchemaFinding] | None) -> dict[str, Any]:
    """What ``--strict`` adds to the ``--format json`` stdout document (``{"result": ...}`` or, with
    ``--output``, ``{"output": ...}``): ``schemaFindings`` when there are any, else nothing."""
    if not opts.strict or not lint:
        return {}
    return {"schemaFindings": schema_findings_json(lint)}


def emit_result(
    reporter: Reporter, opts: CliOptions, method: str, result: Any, lint: Sequence[SchemaFinding] | None
) -> None:
    """Print the method's result; with ``--strict --format json`` and findings, the document carries them
    (``{"result": ..., "schemaFindings": [...]}``, as the official CLI)."""
    extras = document_extras(opts, lint)
    if extras and reporter.format == "json":
        write(reporter.out, dump_json({"result": result, **extras}) + "\n", json=True)
    else:
        reporter.result(method, result)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class StrictReport:
    """What ``--strict`` found: the schema findings (``None``: not a tools/list run) and protocol violations."""

    schema: Sequence[SchemaFinding] | None
    protocol: Sequence[Diagnostic]

    @property
    def schema_errors(self) -> int:
        return count_findings(self.schema)[0] if self.schema else 0

    @property
    def empty(self) -> bool:
        return not self.schema and not self.protocol

    def summary(self) -> str:
        """``8 errors, 24 warnings across 7 tools; 2 protocol violations`` (each part only when non-empty)."""
        parts = []
        if self.schema:
            parts.append(summarize(self.schema))
        if self.protocol:
            parts.append(_plural(len(self.protocol), "protocol violation"))
        return "; ".join(parts)

    def failure(self, cause: CliFailure | None = None) -> CliFailure | None:
        """The exit-6 failure, or None when nothing found is an error."""
        errors, violations = self.schema_errors, len(self.protocol)
        if not errors and not violations:
            return None
        found = []
        if errors:
            found.append(_plural(errors, "tool schema portability error"))
        if violations:
            found.append(_plural(violations, "protocol violation"))
        extra: dict[str, Any] = {"schemaErrors": errors, "protocolViolations": violations}
        if violations:
            extra["protocolFindings"] = [protocol_finding(d) for d in self.protocol[:PROTOCOL_JSON_MAX]]
            if violations > PROTOCOL_JSON_MAX:
                extra["omittedProtocolFindings"] = violations - PROTOCOL_JSON_MAX
        if cause is not None:
            extra["cause"] = cause.message
            extra["failure"] = cause.to_json()
        return CliFailure(
            "strict" if errors else "violation",
            f"{' and '.join(found)} found (--strict).",
            extra=extra,
            line=f"error: {' and '.join(found)} found" + (f" (and {cause.line()})" if cause is not None else ""),
        )


def _schema_block(finding: SchemaFinding) -> list[str]:
    return [
        f'{"Error" if finding.severity == "error" else "Warning"}: tool "{finding.tool}"',
        "  Kind: schema",
        f"  Rule: {finding.rule.value}",
        f"  Path: {finding.location}",
        f"  Issue: {finding.issue}",
        f"  Suggestion: {finding.suggestion}",
        "",
    ]


def _protocol_block(diagnostic: Diagnostic) -> list[str]:
    lines = ["Error: protocol violation", "  Kind: protocol", f"  Rule: {diagnostic.code.value}"]
    if diagnostic.path:
        lines.append(f"  Path: {diagnostic.path}")
    lines.extend([f"  Issue: {diagnostic.message}", ""])
    return lines


def report_lines(report: StrictReport) -> list[str]:
    """The ``--strict`` report (escaped: tool names, paths and messages come from the server)."""
    lines: list[str] = []
    for finding in report.schema or ():
        lines.extend(_schema_block(finding))
    for diagnostic in report.protocol[:PROTOCOL_TEXT_MAX]:
        lines.extend(_protocol_block(diagnostic))
    if len(report.protocol) > PROTOCOL_TEXT_MAX:
        lines.extend([f"... and {_plural(len(report.protocol) - PROTOCOL_TEXT_MAX, 'more protocol violation')}", ""])
    lines.append(f"{report.summary()}.")
    return [escape_line(line) for line in lines]


def count_lines(report: StrictReport) -> list[str]:
    """Without ``--strict``: one line per kind that has findings, pointing at ``--strict``."""
    lines = []
    if report.schema:
        lines.append(f"Schema portability: {summarize(report.schema)}. Re-run with --strict for details.")
    if report.protocol:
        n = len(report.protocol)
        lines.append(
            f"Protocol: the server violated the protocol {_plural(n, 'time')}. Re-run with --strict for details."
        )
    return lines


def conclude(
    reporter: Reporter,
    opts: CliOptions,
    failure: CliFailure | None,
    violations: Sequence[Diagnostic],
    lint: Sequence[SchemaFinding] | None,
) -> int:
    """Report what was found and the run's outcome on stderr; return the exit code.

    With ``--strict``, an error-severity finding (or any protocol violation) exits 6, whatever else failed
    (the other failure is the envelope's ``cause``/``failure``). Without it, the method's own outcome decides.
    """
    report = StrictReport(lint, list(violations))
    if not opts.strict:
        if not opts.quiet:
            for line in count_lines(report):
                write(reporter.err, escape_line(line) + "\n")
        if failure is not None:
            reporter.failure(failure)
            return failure.exit_code
        return ExitCode.SUCCESS
    if not report.empty:
        write(reporter.err, "\n".join(report_lines(report)) + "\n")
    verdict = report.failure(failure)
    if verdict is not None:
        reporter.failure(verdict)
        return verdict.exit_code
    if failure is not None:
        reporter.failure(failure)
        return failure.exit_code
    return ExitCode.SUCCESS
