"""Protocol diagnostics: what a peer did wrong, attached to the message it concerns.

A diagnostic never raises. It is data: shown in the log, counted in reports, and
checked by ``--strict``. ``code`` is a stable machine name; ``message`` is for people.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["Diagnostic", "DiagnosticCode", "Severity"]


class Severity(StrEnum):
    """How bad a diagnostic is: a ``violation`` breaks the spec, a ``warning`` is suspicious."""

    VIOLATION = "violation"
    WARNING = "warning"
    INFO = "info"


class DiagnosticCode(StrEnum):
    """Stable names for every kind of problem the engine detects."""

    # framing
    INVALID_UTF8 = "invalid-utf8"
    INVALID_JSON = "invalid-json"
    JSON_TOO_DEEP = "json-too-deep"
    LIMIT_EXCEEDED = "limit-exceeded"
    # envelope
    NOT_AN_OBJECT = "not-an-object"
    BATCH_UNSUPPORTED = "batch-unsupported"
    BAD_JSONRPC_VERSION = "bad-jsonrpc-version"
    RESULT_AND_ERROR = "result-and-error"
    NO_RESULT_NOR_ERROR = "no-result-nor-error"
    BAD_ID_TYPE = "bad-id-type"
    BAD_METHOD = "bad-method"
    BAD_PARAMS = "bad-params"
    BAD_ERROR_OBJECT = "bad-error-object"
    UNKNOWN_KEYS = "unknown-envelope-keys"
    # correlation
    UNKNOWN_RESPONSE_ID = "unknown-response-id"
    DUPLICATE_RESPONSE = "duplicate-response"
    ID_TYPE_MISMATCH = "id-type-mismatch"
    LATE_RESPONSE = "late-response"
    UNKNOWN_PROGRESS_TOKEN = "unknown-progress-token"
    # lifecycle and capabilities
    BEFORE_HANDSHAKE = "before-handshake"
    UNDECLARED_CAPABILITY = "undeclared-capability"
    UNKNOWN_METHOD = "unknown-method"
    NON_STANDARD_METHOD = "non-standard-method"
    VERSION_MISMATCH = "version-mismatch"
    FORCED = "forced"
    # schema
    SCHEMA = "schema"
    # content (checks of results the schema cannot express; see inspector.client.output_check)
    OUTPUT_SCHEMA = "output-schema"
    """A tools/call structuredContent that does not match the tool's declared outputSchema."""
    CONTENT = "content"
    """A payload that does not decode (base64) or whose bytes contradict its declared mimeType."""
    # transport
    TRANSPORT = "transport"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem with one message (or with the stream between messages)."""

    code: DiagnosticCode
    message: str
    severity: Severity = Severity.VIOLATION
    path: str | None = None
    """JSON path inside the message, like ``$.result.tools[0].inputSchema``."""
    raw: bytes | None = field(default=None, repr=False)
    """The offending bytes, when the message could not be parsed."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code.value, "severity": self.severity.value, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        if self.raw is not None:
            out["raw"] = self.raw[:200].decode("utf-8", "backslashreplace")
        return out

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"[{self.code.value}] {self.message}{where}"
