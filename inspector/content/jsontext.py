"""Pretty JSON text that knows which lines every value occupies (no Qt).

``render_json`` writes the same layout as ``json.dumps(value, indent=2, ensure_ascii=False)``
(very long strings are cut for display) and records, for each value, the first and last line it
occupies, keyed by its path as a tuple of keys and indexes (written and read as text by
:mod:`inspector.protocol.jsonpath`, the notation of diagnostics: ``$.result.tools[0].inputSchema``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.jsonpath import JsonPath

__all__ = ["JsonPath", "Rendered", "nearest_span", "render_json"]

MAX_STRING: Final = 20_000
"""Strings longer than this are cut in the text view (the whole value is in "Copy" and "Open full")."""
_DUMPS: Final = json.JSONEncoder(ensure_ascii=False).encode


@dataclass(slots=True)
class Rendered:
    text: str
    spans: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    """path -> (first line, last line), 0-based."""
    cut_strings: int = 0


def _string(value: str, limit: int) -> tuple[str, bool]:
    if len(value) <= limit:
        return _DUMPS(value), False
    return f'{_DUMPS(value[:limit])[:-1]}…"  ⟨{len(value) - limit:,} more characters⟩', True


def render_json(value: Any, *, indent: int = 2, max_string: int = MAX_STRING) -> Rendered:
    """Pretty text of a parsed JSON value, with the line span of every value."""
    lines: list[str] = []
    spans: dict[JsonPath, tuple[int, int]] = {}
    cut = 0
    step = " " * indent

    def emit(node: Any, path: JsonPath, depth: int, prefix: str, suffix: str) -> None:
        nonlocal cut
        pad = step * depth
        first = len(lines)
        if isinstance(node, dict) and node:
            lines.append(f"{pad}{prefix}{{")
            last = len(node) - 1
            for i, (key, child) in enumerate(node.items()):
                emit(child, (*path, key), depth + 1, _DUMPS(key) + ": ", "," if i < last else "")
            lines.append(f"{pad}}}{suffix}")
        elif isinstance(node, list) and node:
            lines.append(f"{pad}{prefix}[")
            last = len(node) - 1
            for i, child in enumerate(node):
                emit(child, (*path, i), depth + 1, "", "," if i < last else "")
            lines.append(f"{pad}]{suffix}")
        elif isinstance(node, str):
            text, was_cut = _string(node, max_string)
            cut += was_cut
            lines.append(f"{pad}{prefix}{text}{suffix}")
        else:
            lines.append(f"{pad}{prefix}{_DUMPS(node)}{suffix}")
        spans[path] = (first, len(lines) - 1)

    emit(value, (), 0, "", "")
    return Rendered("\n".join(lines), spans, cut)


def nearest_span(spans: dict[JsonPath, tuple[int, int]], path: JsonPath) -> tuple[JsonPath, tuple[int, int]] | None:
    """The span of ``path``, or of its nearest ancestor that exists (a missing member's object)."""
    for n in range(len(path), -1, -1):
        found = spans.get(path[:n])
        if found is not None:
            return path[:n], found
    return None
