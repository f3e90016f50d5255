"""The nodes of a lazily expanded JSON tree: the plain-Python half of the Qt ``JsonTreeModel``.

One node type, ``JsonNode``, and two sources of them (``JsonSource``): ``ParsedJson`` over a value from
``json.loads`` and ``inspector.content.jsonscan.LazyJson`` over a text too big to parse. Children are
enumerated on demand, in batches, so a document with a million array items costs nothing until someone
expands it, and then only the rows that are looked at.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from inspector.protocol.jsontypes import json_type

__all__ = ["JsonNode", "JsonSource", "ParsedJson", "json_kind", "json_summary"]

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


def _kind(value: Any) -> str:
    """``json_kind``, but what is no JSON container (shown by its ``repr``) is no container here either."""
    kind = json_kind(value)
    if kind in ("object", "array") and not isinstance(value, dict | list | tuple):
        return "string"
    return kind


class JsonNode:
    """One value of a JSON document, whichever source it comes from (see ``JsonSource``).

    ``children`` are the ones enumerated so far (``complete`` once all are); ``key`` is the member name, the
    array index, or None at the root. A node of a ``ParsedJson`` holds its ``value``; a node of a scanned
    ``LazyJson`` holds where it is in the text (``start``, ``end``) and where its enumeration resumes.
    """

    __slots__ = ("children", "complete", "end", "key", "parent", "pending", "resume", "row", "start", "type", "value")

    def __init__(
        self,
        parent: JsonNode | None,
        row: int,
        key: str | int | None,
        start: int,
        type_: str,
        value: Any = None,
    ) -> None:
        self.parent = parent
        self.row = row
        self.key = key
        self.start = start
        self.type = type_
        self.value = value
        self.end: int | None = None
        """Exclusive end offset in the scanned text, None while unknown (or for a parsed value)."""
        self.children: list[JsonNode] = []
        self.resume = start + 1
        """Where enumeration goes on: a text offset (scanned) or the next child's position (parsed)."""
        self.complete = type_ not in ("object", "array")
        self.pending: JsonNode | None = None
        """A scanned child whose end the background scan has not found yet (enumeration waits on it)."""

    @property
    def is_container(self) -> bool:
        return self.type in ("object", "array")

    def path(self) -> tuple[str | int, ...]:
        parts: list[str | int] = []
        node: JsonNode | None = self
        while node is not None and node.key is not None:
            parts.append(node.key)
            node = node.parent
        return tuple(reversed(parts))

    @property
    def key_label(self) -> str:
        if self.key is None:
            return "$" if self.is_container else "(value)"
        return f"[{self.key}]" if isinstance(self.key, int) else self.key


class JsonSource(Protocol):
    """Where a tree of ``JsonNode`` comes from: a parsed value (``ParsedJson``) or a scanned text (``LazyJson``)."""

    root: JsonNode
    cheap: bool
    """True when enumerating children costs next to nothing (a view may show a first batch unasked)."""

    def expand(self, node: JsonNode, max_items: int, deadline: float | None = None) -> list[JsonNode]:
        """Enumerate up to ``max_items`` more children of ``node`` (appended to it); returns the new ones."""
        ...

    def has_children(self, node: JsonNode) -> bool: ...

    def summary(self, node: JsonNode) -> str:
        """The one-line text of the Value column."""
        ...

    def value(self, node: JsonNode) -> Any:
        """The node's Python value (None when it cannot be had cheaply yet)."""
        ...

    def size(self, node: JsonNode) -> int | None:
        """The node's size in the source text, when known."""
        ...


class ParsedJson:
    """A ``JsonSource`` over an already parsed value: children are made on demand, in batches."""

    cheap = True

    def __init__(self, value: Any) -> None:
        self.root = JsonNode(None, 0, None, -1, _kind(value), value)
        self._items: dict[int, list[tuple[str, Any]]] = {}

    def expand(self, node: JsonNode, max_items: int, deadline: float | None = None) -> list[JsonNode]:
        if node.complete:
            return []
        value = node.value
        first = len(node.children)
        stop = min(len(value), first + max_items)
        new: list[JsonNode] = []
        if isinstance(value, dict):
            items = self._items.get(id(node))
            if items is None:
                items = self._items[id(node)] = list(value.items())
            for row in range(first, stop):
                key, child = items[row]
                new.append(JsonNode(node, row, key, -1, _kind(child), child))
        else:
            for row in range(first, stop):
                child = value[row]
                new.append(JsonNode(node, row, row, -1, _kind(child), child))
        node.children.extend(new)
        if stop >= len(value):
            node.complete = True
            self._items.pop(id(node), None)
        return new

    def has_children(self, node: JsonNode) -> bool:
        return node.is_container and len(node.value) > 0

    def summary(self, node: JsonNode) -> str:
        return json_summary(node.value)

    def value(self, node: JsonNode) -> Any:
        return node.value

    def size(self, node: JsonNode) -> int | None:
        return None
