"""Local ``$ref`` resolution and ``allOf`` merging for schemas as MCP servers send them (no Qt, no I/O).

Only references inside the schema document are followed: JSON pointers (``#/$defs/X``, ``#/definitions/X``,
``#``), ``$anchor`` names (``#name``) and subschemas found by their ``$id``. Keywords next to a ``$ref`` (a
``description`` or ``default`` pydantic adds, for instance) override the target's, as 2020-12 allows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final
from urllib.parse import unquote

__all__ = ["MAX_REF_REPEAT", "RecursionLimit", "RefError", "Resolver", "merge_all_of"]

MAX_REF_REPEAT: Final = 2
"""How often one ``$ref`` may appear on a single path from the root before the rest is not expanded."""

_MAX_CHAIN: Final = 64


class RefError(ValueError):
    """A ``$ref`` that cannot be followed (remote, missing, or a cycle of bare references)."""


class RecursionLimit(RefError):
    """A recursive ``$ref`` was already expanded ``MAX_REF_REPEAT`` times on this path."""


def _walk(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping in a schema document, depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Mapping):
            yield current
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)


class Resolver:
    """Resolves local references against one root schema document."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.cache: dict[str, Any] = {}
        """Per-document memo for helpers built on this resolver (a compiled validator, for instance)."""
        self._ids: dict[str, Any] = {}
        self._anchors: dict[str, Any] = {}
        for node in _walk(root):
            ident = node.get("$id")
            if isinstance(ident, str) and ident:
                self._ids.setdefault(ident.rstrip("#"), node)
            anchor = node.get("$anchor")
            if isinstance(anchor, str) and anchor:
                self._anchors.setdefault(anchor, node)
        root_id = root.get("$id") if isinstance(root, Mapping) else None
        self._root_id = root_id.rstrip("#") if isinstance(root_id, str) else ""

    def lookup(self, ref: str) -> Any:
        """The subschema ``ref`` points at; raises RefError when it is not in this document."""
        base, sep, fragment = ref.partition("#")
        if base and base != self._root_id:
            target = self._ids.get(base)
            if target is None:
                raise RefError(f"cannot follow $ref {ref!r} (not in this schema)")
        else:
            target = self.root
        if not sep or not fragment:
            return target
        if not fragment.startswith("/"):
            anchored = self._anchors.get(fragment)
            if anchored is None:
                raise RefError(f"unknown anchor in $ref {ref!r}")
            return anchored
        node = target
        for raw in fragment[1:].split("/"):
            part = unquote(raw).replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise RefError(f"$ref {ref!r} points at nothing")
        return node

    def deref(self, schema: Any, refs: tuple[str, ...] = ()) -> tuple[Any, tuple[str, ...]]:
        """Follow ``$ref`` until the schema has none; returns it with the extended chain of references taken.

        Sibling keywords override the target's. Raises RecursionLimit when a reference already occurs
        ``MAX_REF_REPEAT`` times in ``refs`` and RefError when it cannot be followed.
        """
        seen = 0
        while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            ref: str = schema["$ref"]
            if refs.count(ref) >= MAX_REF_REPEAT:
                raise RecursionLimit(f"recursive $ref {ref!r}")
            seen += 1
            if seen > _MAX_CHAIN:
                raise RefError(f"$ref chain through {ref!r} never ends")
            target = self.lookup(ref)
            refs = (*refs, ref)
            siblings = {key: value for key, value in schema.items() if key != "$ref"}
            if target is False:
                return False, refs
            if not isinstance(target, Mapping):
                schema = siblings
                continue
            schema = {**target, **siblings}
        return schema, refs


def _merge_into(merged: dict[str, Any], branch: Mapping[str, Any]) -> bool:
    """Merge one ``allOf`` branch into ``merged`` (whose own keywords win); False when they cannot combine."""
    for key, value in branch.items():
        if key in ("$defs", "definitions", "$schema", "$id", "$comment"):
            continue
        if key == "properties" and isinstance(value, Mapping):
            existing = merged.get("properties")
            own = dict(existing) if isinstance(existing, Mapping) else {}
            for name, subschema in value.items():
                own[name] = {"allOf": [own[name], subschema]} if name in own else subschema
            merged["properties"] = own
        elif key == "required" and isinstance(value, list):
            existing = merged.get("required")
            required = list(existing) if isinstance(existing, list) else []
            required.extend(name for name in value if name not in required)
            merged["required"] = required
        elif key in ("anyOf", "oneOf") and key in merged:
            return False
        elif key == "type" and "type" in merged and merged["type"] != value:
            ours = merged["type"] if isinstance(merged["type"], list) else [merged["type"]]
            theirs = value if isinstance(value, list) else [value]
            both = [t for t in ours if t in theirs or (t == "integer" and "number" in theirs)]
            both += [t for t in theirs if t == "integer" and "number" in ours and t not in both]
            if not both:
                return False
            merged["type"] = both[0] if len(both) == 1 else both
        else:
            merged.setdefault(key, value)
    return True


def merge_all_of(
    schema: Mapping[str, Any], resolver: Resolver, refs: tuple[str, ...]
) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """Fold ``allOf`` into one schema (None when the branches cannot be combined into a form)."""
    merged = {key: value for key, value in schema.items() if key != "allOf"}
    branches = schema.get("allOf")
    if not isinstance(branches, list):
        return merged, refs
    for branch in branches:
        resolved, refs = resolver.deref(branch, refs)
        if resolved is True:
            continue
        if not isinstance(resolved, Mapping):
            return None, refs
        if "allOf" in resolved:
            nested, refs = merge_all_of(resolved, resolver, refs)
            if nested is None:
                return None, refs
            resolved = nested
        if not _merge_into(merged, resolved):
            return None, refs
    return merged, refs
