"""One row of the log table, ready to show (no Qt): what ``Cells`` holds and how a payload is summarised."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from inspector.protocol.wire import Kind
from inspector.store.recording import RecordRow

__all__ = ["PREVIEW_BYTES", "Cells", "summary", "worst_severity"]

PREVIEW_BYTES: Final = 320
"""How much of each payload the summary column sees."""
_HTTP_HEAD: Final = re.compile(
    r'\{"method":"(?P<method>[^"]*)","url":"(?P<url>(?:[^"\\]|\\.)*)","status":(?P<status>null|\d+)'
    r'(?:,"elapsed_ms":(?P<ms>[\d.]+))?'
)
_SEVERITY_RANK: Final = {"violation": 3, "warning": 2, "info": 1}
_ENVELOPE: Final = re.compile(r'\s*"(?:jsonrpc|id|method)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|null)\s*,?\s*')


def worst_severity(diagnostics: Sequence[dict[str, object]]) -> str | None:
    worst: str | None = None
    for diag in diagnostics:
        severity = str(diag.get("severity", "violation"))
        if worst is None or _SEVERITY_RANK.get(severity, 0) > _SEVERITY_RANK.get(worst, 0):
            worst = severity
    return worst


def summary(kind: str, head: bytes | str) -> str:
    """A one-line digest of a payload: stderr/transport text as is, JSON without the envelope."""
    text = head if isinstance(head, str) else head.decode("utf-8", "replace").rstrip("\ufffd")
    if kind in (Kind.STDERR.value, Kind.TRANSPORT.value):
        return " ".join(text.split("\n"))
    if kind == "http" and (m := _HTTP_HEAD.match(text)) is not None:
        status = "no response" if m["status"] == "null" else m["status"]
        took = f" ({float(m['ms']):.1f} ms)" if m["ms"] else ""
        return f"{m['method']} {m['url']} → {status}{took}"
    body = text.lstrip()
    if body.startswith("{"):
        rest = body[1:]
        while (m := _ENVELOPE.match(rest)) is not None and m.end() > 0:
            rest = rest[m.end() :]
        rest = rest.rstrip()
        if len(text) < PREVIEW_BYTES and rest.endswith("}"):
            rest = rest[:-1]
        body = _collapse_meta(rest)
    return " ".join(body.split())


_META_KEY: Final = '"_meta":{'


def _collapse_meta(text: str) -> str:
    """Every ``"_meta":{...}`` object shown as ``"_meta":{…}`` (cut off at the preview's end: ``"_meta":{…``).

    2026-07-28 requests open their params with the protocol's ``_meta`` envelope (version, client info,
    capabilities): verbatim it filled every request's summary with the same text, hiding what differs.
    """
    out: list[str] = []
    copied = 0  # text[:copied] is in out
    i = 0
    in_string = escaped = False
    depth = 0  # > 0: inside a collapsed _meta object
    while i < len(text):
        char = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif depth == 0 and text.startswith(_META_KEY, i):
            i += len(_META_KEY)
            out.append(text[copied:i] + "…")
            depth = 1
            continue
        elif char == '"':
            in_string = True
        elif depth > 0 and char in "{[":
            depth += 1
        elif depth > 0 and char in "}]":
            depth -= 1
            if depth == 0:
                copied = i  # the closing brace is kept
        i += 1
    if depth == 0:
        out.append(text[copied:])
    return "".join(out)


@dataclass(slots=True)
class Cells:
    """What one table row shows, computed once when its block is read."""

    seq: int
    wall: float
    time_text: str
    direction: str
    kind: str
    method: str | None
    id_text: str
    size: int
    latency: float | None
    diag_count: int
    severity: str | None
    forced: bool
    summary: str
    display: tuple[str, ...] = ()
    """The texts of the table's columns (filled by the model)."""
    round: int | None = None
    """The round of the multi-round-trip request (2026-07-28) this request or response belongs to (1, 2, ...);
    None for every other row (filled by the row source, only when the recording has such requests)."""

    @classmethod
    def make(
        cls,
        seq: int,
        wall: float,
        direction: str,
        kind: str,
        method: str | None,
        msg_id: str | None,
        id_type: str | None,
        size: int,
        diag_count: int,
        diagnostics: Sequence[dict[str, object]] | str | None,
        latency: float | None,
        forced: bool,
        head: bytes | str,
    ) -> Cells:
        local = time.localtime(wall)
        millis = int((wall % 1) * 1000)
        if msg_id is None:
            id_text = ""
        elif id_type == "str":
            id_text = json.dumps(msg_id, ensure_ascii=False)
        else:
            id_text = msg_id
        severity = None
        if diag_count and diagnostics:
            parsed = json.loads(diagnostics) if isinstance(diagnostics, str) else diagnostics
            severity = worst_severity(parsed if isinstance(parsed, list) else [])
        return cls(
            seq=seq,
            wall=wall,
            time_text=f"{local.tm_hour:02d}:{local.tm_min:02d}:{local.tm_sec:02d}.{millis:03d}",
            direction=direction,
            kind=kind,
            method=method,
            id_text=id_text,
            size=size,
            latency=latency,
            diag_count=diag_count,
            severity=severity,
            forced=bool(forced),
            summary=summary(kind, head),
        )

    @classmethod
    def from_row(cls, row: RecordRow) -> Cells:
        msg_id = None if row.msg_id is None else str(row.msg_id)
        return cls.make(
            row.seq,
            row.wall,
            row.direction.value,
            row.kind.value,
            row.method,
            msg_id,
            row.id_type,
            row.size,
            row.diag_count,
            row.diagnostics,
            row.latency,
            row.forced,
            row.raw[:PREVIEW_BYTES],
        )
