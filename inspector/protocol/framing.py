"""Newline-delimited framing for stdio, and decoding of one frame into JSON.

The framer never decodes: it cuts bytes into lines. A line may be tens of megabytes
and arrive in thousands of reads, so the search for the newline only ever looks at
bytes it has not looked at before. A line longer than ``max_line`` is not kept: its
first bytes and its size come out as an :class:`OversizedLine`, the rest of it is
dropped as it arrives, and framing goes on after its newline (memory stays bounded
by ``max_line`` whatever the server writes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode

__all__ = ["HEAD_BYTES", "DecodedFrame", "LineFramer", "OversizedLine", "decode_frame"]

HEAD_BYTES = 4096
"""How much of an oversized line is kept (for the log and to find the id of the answer it was)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_JSON_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


@dataclass(frozen=True, slots=True)
class OversizedLine:
    """A line longer than the framer's ``max_line``: its first bytes, and how long it was.

    ``complete`` is False while the line is still arriving (the framer reports it as soon as it passed the
    limit, so the request it answers can fail at once); ``size`` is then what was seen so far.
    """

    head: bytes
    size: int
    limit: int
    complete: bool = False


class LineFramer:
    """Cuts a byte stream into lines. ``\\n`` ends a line, a trailing ``\\r`` is dropped, blank lines are skipped.

    ``max_line`` (bytes, None: no bound) bounds one line; see :class:`OversizedLine`.
    """

    __slots__ = ("_buf", "_max", "_scanned", "_skipped")

    def __init__(self, max_line: int | None = None) -> None:
        self._buf = bytearray()
        self._scanned = 0
        self._max = max_line
        self._skipped: int | None = None
        """While dropping an oversized line: how many of its bytes went by (None: not dropping)."""

    @property
    def max_line(self) -> int | None:
        return self._max

    @property
    def dropping(self) -> bool:
        """True while the rest of an oversized line is being dropped."""
        return self._skipped is not None

    def feed(self, data: bytes) -> list[bytes | OversizedLine]:
        """Add bytes; return every line they complete, in order (an :class:`OversizedLine` for one too long)."""
        if not data:
            return []
        out: list[bytes | OversizedLine] = []
        if self._skipped is not None:
            pos = data.find(b"\n")
            if pos == -1:
                self._skipped += len(data)
                return out
            self._skipped = None
            data = data[pos + 1 :]
            if not data:
                return out
        buf = self._buf
        buf += data
        start = 0
        pos = buf.find(b"\n", self._scanned)
        while pos != -1:
            end = pos
            if end > start and buf[end - 1] == 0x0D:
                end -= 1
            if self._max is not None and end - start > self._max:
                out.append(
                    OversizedLine(bytes(buf[start : min(end, start + HEAD_BYTES)]), end - start, self._max, True)
                )
            elif end > start:
                line = bytes(buf[start:end])
                if line.strip():
                    out.append(line)
            start = pos + 1
            pos = buf.find(b"\n", start)
        if start:
            del buf[:start]
        if self._max is not None and len(buf) > self._max:
            out.append(OversizedLine(bytes(buf[:HEAD_BYTES]), len(buf), self._max, False))
            self._skipped = len(buf)
            buf.clear()
        self._scanned = len(buf)
        return out

    @property
    def pending(self) -> int:
        """Bytes received that do not yet end in a newline (kept ones; a dropped line's are not counted)."""
        return len(self._buf)

    def flush(self) -> bytes | None:
        """Return what is left at end of stream (a last line without newline), if anything."""
        rest = bytes(self._buf).rstrip(b"\r")
        self._buf.clear()
        self._scanned = 0
        self._skipped = None
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
