"""Failures the CLI reports: one line for people, one JSON object for scripts, one exit code."""

from __future__ import annotations

from typing import Any, Literal

from inspector.cli.exitcodes import ExitCode

__all__ = ["CliFailure", "ErrorKind", "UsageError"]

ErrorKind = Literal["connection", "protocol", "tool", "usage", "violation", "internal"]

_EXIT_FOR_KIND: dict[str, ExitCode] = {
    "connection": ExitCode.CONNECTION,
    "protocol": ExitCode.PROTOCOL_ERROR,
    "tool": ExitCode.TOOL_ERROR,
    "usage": ExitCode.USAGE,
    "violation": ExitCode.VIOLATION,
    "internal": ExitCode.CONNECTION,
}


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
    ) -> None:
        super().__init__(message)
        self._line = line
        self.kind: ErrorKind = kind
        self.message = message
        self.code = code
        self.data = data
        self.has_data = has_data or data is not None
        self.extra = dict(extra or {})

    @property
    def exit_code(self) -> ExitCode:
        return _EXIT_FOR_KIND[self.kind]

    def to_json(self) -> dict[str, Any]:
        """The ``error`` object printed on stderr with ``--format json``."""
        out: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.code is not None:
            out["code"] = self.code
        if self.has_data:
            out["data"] = self.data
        out.update(self.extra)
        return out

    def line(self) -> str:
        """The one line printed on stderr in text format."""
        if self._line is not None:
            return self._line
        if self.kind == "usage":
            return f"usage error: {self.message}"
        if self.code is not None:
            return f"error: server returned error {self.code}: {self.message}"
        return f"error: {self.message}"


class UsageError(CliFailure):
    """Bad command line, config file or argument value (exit 4)."""

    def __init__(self, message: str) -> None:
        super().__init__("usage", message)
