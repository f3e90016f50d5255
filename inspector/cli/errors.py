"""Failures the CLI reports: one exit code, one ``{"error": {...}}`` envelope for scripts, one line for people.

A failure has a *kind*; the kind decides the exit code and the envelope's ``code`` string, as the official
inspector CLI classifies its errors:

==================  ====  =================  ===========================================================
kind                exit  envelope code      what
==================  ====  =================  ===========================================================
``error``           1     ``error``          anything else (a result --output cannot write, ...)
``usage``           1     ``error``          invalid command line, config file or argument value
``protocol``        1     ``error``          the server answered with a JSON-RPC error (or an unusable one)
``connection``      1     ``error``          the server would not start, closed, or did not answer in time
``internal``        1     ``error``          a bug of ours
``no_app``          2     ``no_app``         (MCP Apps) the tool has no app
``auth``            3     ``auth_required``  authorization required and not obtained (401/403)
``unreachable``     4     ``unreachable``    connection refused, DNS failure, connect timeout
``tool``            5     ``tool_is_error``  tools/call returned ``isError: true``
``tool_not_found``  5     ``tool_not_found`` tools/call named a tool the server does not list
``strict``          6     ``schema_unportable`` --strict found unportable tool schemas
``violation``       6     ``protocol_violation`` --strict found protocol violations
==================  ====  =================  ===========================================================

``envelope_code`` overrides the code string where the official CLI uses a more specific one with the same
exit code (``output_not_raw``, ``output_write_failed``, ``no_stored_token``, ...).

The envelope is the official one (``code``, ``message``, then ``cause``/``status``/``url`` when known) plus our
own keys: ``kind``, ``jsonrpcCode`` and ``data`` for a server's JSON-RPC error, ``explanation`` for an MCP error
code's meaning, and whatever ``extra`` holds.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from inspector.cli.exitcodes import ExitCode

__all__ = ["EXIT_FOR_KIND", "CliFailure", "ErrorKind", "UsageError", "envelope_code_for"]

ErrorKind = Literal[
    "error",
    "usage",
    "protocol",
    "connection",
    "internal",
    "no_app",
    "auth",
    "unreachable",
    "tool",
    "tool_not_found",
    "strict",
    "violation",
]

EXIT_FOR_KIND: Final[dict[str, ExitCode]] = {
    "error": ExitCode.ERROR,
    "usage": ExitCode.ERROR,
    "protocol": ExitCode.ERROR,
    "connection": ExitCode.ERROR,
    "internal": ExitCode.ERROR,
    "no_app": ExitCode.NO_APP,
    "auth": ExitCode.AUTH_REQUIRED,
    "unreachable": ExitCode.UNREACHABLE,
    "tool": ExitCode.TOOL_ERROR,
    "tool_not_found": ExitCode.TOOL_ERROR,
    "strict": ExitCode.STRICT,
    "violation": ExitCode.STRICT,
}

_CODE_FOR_KIND: Final[dict[str, str]] = {
    "no_app": "no_app",
    "auth": "auth_required",
    "unreachable": "unreachable",
    "tool": "tool_is_error",
    "tool_not_found": "tool_not_found",
    "strict": "schema_unportable",
    "violation": "protocol_violation",
}


def envelope_code_for(kind: str) -> str:
    """The envelope ``code`` of a kind (``error`` for every exit-1 kind, as the official CLI)."""
    return _CODE_FOR_KIND.get(kind, "error")


class CliFailure(Exception):
    """A run that ends with a non-zero exit status and one clear message."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        code: int | None = None,
        data: Any = None,
        has_data: bool = False,
        extra: dict[str, Any] | None = None,
        line: str | None = None,
        envelope_code: str | None = None,
    ) -> None:
        """``code``/``data``: a server's JSON-RPC error code and data (``jsonrpcCode``/``data`` in the envelope).
        ``line``: the ``--format human`` line when it should differ from ``error: <message>``."""
        super().__init__(message)
        self._line = line
        self.kind: ErrorKind = kind
        self.message = message
        self.code = code
        self.data = data
        self.has_data = has_data or data is not None
        self.extra = dict(extra or {})
        self.envelope_code = envelope_code or envelope_code_for(kind)

    @property
    def exit_code(self) -> ExitCode:
        return EXIT_FOR_KIND[self.kind]

    def to_json(self) -> dict[str, Any]:
        """The ``error`` object of the envelope printed on stderr (default and ``--format json``)."""
        out: dict[str, Any] = {"code": self.envelope_code, "message": self.message}
        for key in ("cause", "status", "url"):  # the official envelope's optional keys, in its order
            if key in self.extra:
                out[key] = self.extra[key]
        out["kind"] = self.kind
        if self.code is not None:
            out["jsonrpcCode"] = self.code
        if self.has_data:
            out["data"] = self.data
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out

    def line(self) -> str:
        """The one line printed on stderr with ``--format human``."""
        if self._line is not None:
            return self._line
        if self.kind == "usage":
            return f"usage error: {self.message}"
        return f"error: {self.message}"


class UsageError(CliFailure):
    """Bad command line, config file or argument value (exit 1, as the official CLI)."""

    def __init__(self, message: str, *, envelope_code: str | None = None) -> None:
        super().__init__("usage", message, envelope_code=envelope_code)
