"""The one JSON path notation: ``$.result.tools[0]["odd key"]`` (sans-I/O).

``format_path(parts)`` writes it: a key that is a plain name follows a dot, any other key is a JSON string in
brackets, an index is a number in brackets. Diagnostics, schema findings, the log's JSON tree and the payload
highlighter all use it; the schema form addresses its fields with the same notation relative to the form's value
(``root=""``: ``address.city``, ``items[0]``). ``parse_path`` reads it back, and also reads the single-quoted
keys (``$['odd key']``) older recordings hold.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from typing import Final

__all__ = ["JsonPath", "PathPart", "format_path", "parse_path"]

PathPart = str | int
JsonPath = tuple[PathPart, ...]

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""Keys written after a dot (RFC 9535's shorthand, ASCII only); every other key is quoted."""
_SEGMENT: Final = re.compile(r"""(\.)?([^.\[\]\s"']+)|\[(-?\d+)\]|\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\]""")


def format_path(parts: Iterable[PathPart], root: str = "$") -> str:
    """``["forecast", 0, "high"]`` -> ``$.forecast[0].high``; ``["a b"]`` -> ``$["a b"]``; ``root`` is the prefix
    (another path to extend, or ``""`` for a relative one)."""
    out = root
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _NAME.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


def parse_path(text: str, root: str = "$") -> JsonPath:
    """The parts of a path ``format_path`` wrote with the same ``root``; raises ValueError for anything else."""
    if not text.startswith(root):
        raise ValueError(f"not a JSON path: {text!r} (it starts with {root!r})" if root else f"not a path: {text!r}")
    parts: list[PathPart] = []
    pos = len(root)
    while pos < len(text):
        match = _SEGMENT.match(text, pos)
        if match is None:
            raise ValueError(f"not a JSON path: {text!r} (at character {pos})")
        dot, name, index, quoted = match.groups()
        if name is not None:
            if bool(dot) != (bool(parts) or bool(root)):  # a dot before every name but a relative path's first
                raise ValueError(f"not a JSON path: {text!r} (at character {pos})")
            parts.append(name)
        elif index is not None:
            parts.append(int(index))
        else:
            parts.append(json.loads(quoted) if quoted.startswith('"') else ast.literal_eval(quoted))
        pos = match.end()
    return tuple(parts)
