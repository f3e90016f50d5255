"""A lazily expanded tree over a JSON value: the plain-Python half of the Qt ``JsonTreeModel``.

Children are created on first access, one at a time, so a document with a million array items costs nothing
until someone expands it, and then only the rows that are looked at.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.content.validation import json_path
from inspector.protocol.jsontypes import json_type

__all__ = ["JsonNode", "json_kind", "json_summary"]

_SUMMARY_LIMIT = 200


def json_kind(value: Any) -> str:
    """The JSON type name of a Python value from ``json.loads`` (ints are ``integer``)."""
    return json_type(value, integer=True)


def json_summary(value: Any, limit: int = _SUMMARY_LIMIT) -> str:
    """One line describing a value: ``{3 keys}``, ``[10 items]``, or the scalar as JSON (cut at ``limit``)."""
    if isinstance(value, dict):
        count = len(value)
        return f"{{{count} key{'s' if count != 1 else ''}}}"
    if isinstance(value, list | tuple):
        count = len(value)
        return f"[{count} item{'s' if count != 1 else ''}]"
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
        text = json.dumps(value, ensure_ascii=False)[:-1] + "…"
    else:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    text = text.replace("\n", "\\n") if "\n" in text else text
    return text if len(text) <= limit + 2 else text[: limit + 1] + "…"


class JsonNode:
    """One value in a JSON document: its key (str for object members, int for array items, None at the root)."""

    __slots__ = ("_children", "_items", "key", "parent", "row", "value")

    def __init__(self, value: Any, key: str | int | None = None, parent: JsonNode | None = None, row: int = 0):
        self.value = value
        self.key = key
        self.parent = parent
        self.row = row
        self._items: list[tuple[str | int, Any]] | None = None
        self._children: dict[int, JsonNode] = {}

    @property
    def kind(self) -> str:
        return json_kind(self.value)

    @property
    def is_container(self) -> bool:
        return isinstance(self.value, dict | list | tuple)

    def child_count(self) -> int:
        if isinstance(self.value, dict | list | tuple):
            return len(self.value)
        return 0

    def child(self, row: int) -> JsonNode:
        """The ``row``-th child (created on first use); IndexError when out of range."""
        node = self._children.get(row)
        if node is not None:
            return node
        if not 0 <= row < self.child_count():
            raise IndexError(row)
        key: str | int
        if isinstance(self.value, dict):
            if self._items is None:
                self._items = list(self.value.items())
            key, value = self._items[row]
        else:
            key, value = row, self.value[row]
        node = JsonNode(value, key, self, row)
        self._children[row] = node
        return node

    def path_parts(self) -> list[str | int]:
        parts: list[str | int] = []
        node: JsonNode | None = self
        while node is not None and node.key is not None:
            parts.append(node.key)
            node = node.parent
        parts.reverse()
        return parts

    @property
    def path(self) -> str:
        """Where this value sits, as ``$.a[0].b``."""
        return json_path(self.path_parts())

    @property
    def key_label(self) -> str:
        if self.key is None:
            return "(root)"
        return f"[{self.key}]" if isinstance(self.key, int) else self.key

    @property
    def summary(self) -> str:
        return json_summary(self.value)
