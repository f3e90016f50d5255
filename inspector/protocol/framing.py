"""Newline-delimited framing for stdio, and decoding of one frame into JSON.

The framer never decodes: it cuts bytes into lines. A line may be tens of megabytes
and arrive in thousands of reads, so the search for the newline only ever looks at
bytes it has not looked at before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode

__all__ = ["DecodedFrame", "LineFramer", "decode_frame"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_JSON_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


class LineFramer:
    """Cuts a byte stream into lines. ``\\n`` ends a line, a trailing ``\\r`` is dropped, blank lines are skipped."""

    __slots__ = ("_buf", "_scanned")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._scanned = 0

    def feed(self, data: bytes) -> list[bytes]:
        """Add bytes; return every line they complete, in order."""
        if not data:
            return []
        buf = self._buf
        buf += data
        lines: list[bytes] = []
        start = 0
        pos = buf.find(b"\n", self._scanned)
        while pos != -1:
            end = pos
            if end > start and buf[end - 1] == 0x0D:
                end -= 1
            if end > start:
                line = bytes(buf[start:end])
                if line.strip():
                    lines.append(line)
            start = pos + 1
            pos = buf.find(b"\n", start)
        if start:
            del buf[:start]
        self._scanned = len(buf)
        return lines

    @property
    def pending(self) -> int:
        """Bytes received that do not yet end in a newline."""
        return len(self._buf)

    def flush(self) -> bytes | None:
        """Return what is left at end of stream (a last line without newline), if anything."""
        rest = bytes(self._buf).rstrip(b"\r")
        self._buf.clear()
        self._scanned = 0
        return rest if rest.strip() else None


@dataclass(frozen=True, slots=True)
class DecodedFrame:
    """A frame's bytes, the JSON value they hold (if any), and what went wrong."""

    raw: bytes
    value: Any = None
    ok: bool = False
    diagnostic: Diagnostic | None = None


def decode_frame(raw: bytes) -> DecodedFrame:
    """Decode one frame: UTF-8, then JSON. Failures become diagnostics carrying the raw bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return DecodedFrame(
            raw,
            diagnostic=Diagnostic(
                DiagnosticCode.INVALID_UTF8,
                f"frame is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                raw=raw,
            ),
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        value = _JSON_DECODER.decode(text)
    except RecursionError:
        return DecodedFrame(
            raw,
            diagnostic=Diagnostic(DiagnosticCode.JSON_TOO_DEEP, "frame is JSON nested too deeply to parse", raw=raw),
        )
    except ValueError as exc:
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        return DecodedFrame(
            raw,
            diagnostic=Diagnostic(DiagnosticCode.INVALID_JSON, f"frame is not JSON: {msg}{where}", raw=raw),
        )
    return DecodedFrame(raw, value=value, ok=True)
