"""Text helpers for viewers: previews of huge texts, JSON detection and pretty-printing, durations."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DISPLAY_LINE_LIMIT",
    "PREVIEW_LINE_LIMIT",
    "TEXT_PREVIEW_LIMIT",
    "JsonParse",
    "TextPreview",
    "break_long_lines",
    "format_duration",
    "parse_json",
    "pretty_json",
    "pretty_json_preview",
    "preview_text",
    "shorten",
]

TEXT_PREVIEW_LIMIT = 1_000_000
"""Characters of a text shown at first; the rest waits for an explicit "show all"."""


@dataclass(frozen=True, slots=True)
class TextPreview:
    """The first part of a text: ``text`` to show now, ``total`` characters in all, ``truncated`` if cut."""

    text: str
    total: int
    truncated: bool


DISPLAY_LINE_LIMIT = 10_000
"""Lines longer than this are broken into pieces for display (text widgets lay out a giant line all at once)."""


def break_long_lines(text: str, limit: int = DISPLAY_LINE_LIMIT) -> tuple[str, bool]:
    """``text`` with every line longer than ``limit`` cut into ``limit``-sized pieces; and whether any was cut.

    For display only: copying and saving use the original text.
    """
    if len(text) <= limit or all(len(line) <= limit for line in text.split("\n")):
        return text, False
    pieces: list[str] = []
    for line in text.split("\n"):
        if len(line) <= limit:
            pieces.append(line)
        else:
            pieces.extend(line[start : start + limit] for start in range(0, len(line), limit))
    return "\n".join(pieces), True


PREVIEW_LINE_LIMIT = 10_000
"""Lines of a text shown at first (text widgets pay per line, however short)."""


def preview_text(text: str, limit: int = TEXT_PREVIEW_LIMIT, max_lines: int = PREVIEW_LINE_LIMIT) -> TextPreview:
    """At most ``limit`` characters and ``max_lines`` lines of ``text``, cut at a line break when possible."""
    end = len(text)
    position = -1
    for _ in range(max_lines):
        position = text.find("\n", position + 1, limit + 1)
        if position < 0:
            break
    else:
        end = position
    if end <= limit and end == len(text):
        return TextPreview(text, len(text), False)
    if end > limit:
        cut = text.rfind("\n", max(0, limit - limit // 10), limit)
        end = cut if cut > 0 else limit
    return TextPreview(text[:end], len(text), True)


def pretty_json_preview(
    value: Any, limit: int = TEXT_PREVIEW_LIMIT, max_lines: int = PREVIEW_LINE_LIMIT, *, indent: int = 2
) -> tuple[str, bool]:
    """The start of ``pretty_json(value)`` (past ``limit`` characters or ``max_lines`` lines), or all of it; and
    whether it is all. Encoding stops there, so previewing a huge document costs about as much as its preview.
    """
    encoder = json.JSONEncoder(indent=indent, ensure_ascii=False, default=repr)
    chunks: list[str] = []
    size = lines = 0
    for chunk in encoder.iterencode(value):
        chunks.append(chunk)
        size += len(chunk)
        lines += chunk.count("\n")
        if size > limit or lines > max_lines:
            return "".join(chunks), False
    return "".join(chunks), True


@dataclass(frozen=True, slots=True)
class JsonParse:
    """The outcome of parsing a text as JSON: ``ok`` with ``value``, or ``error`` (message with position)."""

    ok: bool
    value: Any = None
    error: str = ""


def parse_json(text: str, *, containers_only: bool = False) -> JsonParse:
    """Parse ``text`` as JSON; with ``containers_only`` a bare scalar (``"42"``, ``"true"``) does not count."""
    stripped = text.lstrip()
    if containers_only and not stripped.startswith(("{", "[")):
        return JsonParse(False, error="not a JSON object or array")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return JsonParse(False, error=str(exc))
    return JsonParse(True, value)


def pretty_json(value: Any, *, indent: int = 2) -> str:
    """``value`` as indented JSON, non-ASCII kept readable; values JSON cannot hold are shown via repr."""
    return json.dumps(value, indent=indent, ensure_ascii=False, default=repr)


def shorten(text: str, limit: int = 200) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split()) if ("\n" in text or "\t" in text) else text
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def format_duration(seconds: float) -> str:
    """A short human duration: ``850 ms``, ``3.2 s``, ``2 min 05 s``, ``1 h 02 min``."""
    seconds = max(0.0, seconds)
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
