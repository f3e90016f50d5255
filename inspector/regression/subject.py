"""What a change is about, for showing the two sides next to each other: the schema, item or section around it.

``subject_of(snapshot, change.path)`` is the value of the surface the path points into, at the level a person
compares: a tool's ``inputSchema`` / ``outputSchema`` / ``annotations`` / ``execution`` for a change inside them,
the tool (prompt, resource, template) itself otherwise, and the whole ``capabilities`` / ``serverInfo`` section
for a change there. None when that side has no such thing (an added or removed item).
"""

from __future__ import annotations

import re
from typing import Any, Final

from inspector.regression.snapshot import LISTS

__all__ = ["Subject", "subject_of"]

_PATH: Final = re.compile(
    r'^\$\.(?P<section>[A-Za-z_]+)(?:\["(?P<name>(?:[^"\\]|\\.)*)"\])?(?:\.(?P<part>[A-Za-z_]+))?'
)
_PARTS: Final = frozenset({"inputSchema", "outputSchema", "annotations", "execution", "arguments"})
_SORT_KEYS: Final = {key: sort_key for key, sort_key, _capability, _method in LISTS}

Subject = tuple[str, Any]
"""(what it is, e.g. ``tools["get_weather"].inputSchema``; its value on one side, or None)."""


def subject_of(snapshot: dict[str, Any], path: str) -> Subject:
    match = _PATH.match(path)
    if match is None:
        return "surface", snapshot
    section, name, part = match["section"], match["name"], match["part"]
    if section not in _SORT_KEYS or name is None:
        return section, snapshot.get(section)
    name = name.replace('\\"', '"').replace("\\\\", "\\")
    sort_key = _SORT_KEYS[section]
    item = next((i for i in snapshot.get(section) or [] if isinstance(i, dict) and i.get(sort_key) == name), None)
    label = f'{section}["{name}"]'
    if part in _PARTS:
        return f"{label}.{part}", item.get(part) if item is not None else None
    return label, item
