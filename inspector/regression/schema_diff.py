"""Classified differences between two JSON Schemas: what an input schema or an output schema now accepts.

:func:`diff_schemas` walks two schemas side by side and notes each difference as what it does to the set of
values the schema admits: **narrowed** (fewer values: a type narrowed, an enum value removed, a property made
required, a bound tightened), **widened** (more values), **changed** (neither), a property **removed**, a
property **added**, or **cosmetic** (descriptions, titles, examples, order). The direction decides the kind:

* an *input* schema (a tool's arguments) must not narrow: what callers send must stay valid, so narrowed and
  changed are breaking, widened and added are compatible;
* an *output* schema (what callers read) must not widen: widened and changed are breaking (a property made
  optional, a type widened), narrowed and added are compatible;
* a removed property is breaking in both directions (an argument callers pass, a value they read).

JSON Schema aware: local ``$ref`` (``#/$defs/...``, ``#/definitions/...``, any JSON pointer; cycles are
compared once), ``anyOf`` / ``oneOf`` (alternatives matched by content, then by type), ``enum`` / ``const``,
``type`` arrays (``integer`` counts as a kind of ``number``), ``required``, ``properties``,
``additionalProperties``, ``items`` (also as an array of schemas), and the numeric, length and count bounds.
Other constraint keywords (``allOf``, ``not``, ``if``/``then``/``else``, ``dependentRequired``, ``propertyNames``,
``prefixItems``, ``contains``, ...) are compared as a whole: added they narrow, removed they widen, changed they
change; keywords that constrain nothing (extensions such as ``x-...``) are neutral.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.regression.changes import Change, ChangeKind, key_path

__all__ = ["Direction", "diff_schemas"]

Direction = Literal["input", "output"]
Effect = Literal["narrowed", "widened", "changed", "removed", "added", "cosmetic", "neutral"]

_KIND: Final[dict[Direction, dict[Effect, ChangeKind]]] = {
    "input": {
        "narrowed": ChangeKind.BREAKING,
        "widened": ChangeKind.COMPATIBLE,
        "changed": ChangeKind.BREAKING,
        "removed": ChangeKind.BREAKING,
        "added": ChangeKind.COMPATIBLE,
        "cosmetic": ChangeKind.COSMETIC,
        "neutral": ChangeKind.COMPATIBLE,
    },
    "output": {
        "narrowed": ChangeKind.COMPATIBLE,
        "widened": ChangeKind.BREAKING,
        "changed": ChangeKind.BREAKING,
        "removed": ChangeKind.BREAKING,
        "added": ChangeKind.COMPATIBLE,
        "cosmetic": ChangeKind.COSMETIC,
        "neutral": ChangeKind.COMPATIBLE,
    },
}
COSMETIC_KEYS: Final = frozenset(
    {"description", "title", "examples", "$comment", "deprecated", "readOnly", "writeOnly"}
)
_COMBINATORS: Final = ("anyOf", "oneOf")
_LOWER_BOUNDS: Final = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS: Final = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_HANDLED: Final = frozenset(
    {
        *COSMETIC_KEYS,
        *_COMBINATORS,
        *_LOWER_BOUNDS,
        *_UPPER_BOUNDS,
        "$ref",
        "$defs",
        "definitions",
        "type",
        "enum",
        "const",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "pattern",
        "format",
        "multipleOf",
        "uniqueItems",
        "default",
        "$schema",
    }
)
_CONSTRAINTS: Final = frozenset(
    {
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "propertyNames",
        "contains",
        "minContains",
        "maxContains",
        "prefixItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contentMediaType",
        "contentEncoding",
        "contentSchema",
    }
)
"""Keywords compared as a whole that only ever restrict the values a schema admits: added, they narrow it."""
_ADMITTING: Final = frozenset({"patternProperties", "additionalItems"})
"""Keywords compared as a whole that may admit values as well as restrict them (next to
``additionalProperties: false`` / ``items``): any difference is a change of unknown direction."""
_NOT_COMPARED: Final = frozenset({"$defs", "definitions"})
"""Compared where they are referenced, not as a whole."""


def diff_schemas(old: Any, new: Any, *, direction: Direction, path: str = "$") -> list[Change]:
    """Every difference between the schemas ``old`` and ``new`` (their roots resolve their ``$ref``s), classified
    for ``direction``, with the JSON path under ``path`` of what changed. The root's properties are called
    arguments in an input schema."""
    walk = _Walk(old if old is not None else {}, new if new is not None else {}, direction)
    noun = "argument" if direction == "input" else "property"
    walk.compare(walk.old_root, walk.new_root, path, "the schema", noun)
    return walk.changes


@dataclass
class _Walk:
    old_root: Any
    new_root: Any
    direction: Direction
    changes: list[Change] = field(default_factory=list)
    _visiting: set[tuple[str, str]] = field(default_factory=set)

    def note(self, effect: Effect, path: str, reason: str, old: Any = None, new: Any = None) -> None:
        self.changes.append(Change(_KIND[self.direction][effect], path, reason, old, new))

    # ------------------------------------------------------------------ one pair of schemas

    def compare(self, old: Any, new: Any, path: str, label: str, noun: str) -> None:
        """Compare two subschemas at ``path``; ``label`` names the subject in reasons, ``noun`` its properties."""
        old_ref, new_ref = _ref_of(old), _ref_of(new)
        if old_ref is not None or new_ref is not None:
            key = (old_ref or f"@{id(old)}", new_ref or f"@{id(new)}")
            if key in self._visiting:
                return  # a cycle: this pair is being compared further up
            self._visiting.add(key)
            try:
                self.compare_resolved(
                    _resolve(old, self.old_root), _resolve(new, self.new_root), path, label, noun, old_ref, new_ref
                )
            finally:
                self._visiting.discard(key)
            return
        self.compare_resolved(old, new, path, label, noun, None, None)

    def compare_resolved(
        self, old: Any, new: Any, path: str, label: str, noun: str, old_ref: str | None, new_ref: str | None
    ) -> None:
        if any(ref is not None and not ref.startswith("#") for ref in (old_ref, new_ref)):
            if old_ref != new_ref:  # an external reference is compared by its address only
                self.note("changed", key_path(path, "$ref"), f"external $ref of {label} changed", old_ref, new_ref)
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            self._compare_booleans(old, new, path, label)
            return
        old_alts, new_alts = _alternatives(old), _alternatives(new)
        if old_alts is not None or new_alts is not None:
            self._compare_alternatives(old, new, old_alts, new_alts, path, label, noun)
            old, new = _without_combinators(old), _without_combinators(new)
            if old_alts is None:
                old = _cosmetic_only(old)
            if new_alts is None:
                new = _cosmetic_only(new)
        self._compare_keywords(old, new, path, label, noun)

    def _compare_booleans(self, old: Any, new: Any, path: str, label: str) -> None:
        if _canon(old, self.old_root) == _canon(new, self.new_root):
            return
        if old is True or old == {}:
            self.note("narrowed", path, f"{label} is constrained now (it accepted anything)", old, new)
        elif new is True or new == {}:
            self.note("widened", path, f"{label} accepts anything now", old, new)
        elif new is False:
            self.note("narrowed", path, f"{label} accepts nothing now", old, new)
        elif old is False:
            self.note("widened", path, f"{label} accepted nothing before", old, new)
        else:
            self.note("changed", path, f"{label} changed", old, new)

    # ------------------------------------------------------------------ anyOf / oneOf

    def _compare_alternatives(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        old_alts: list[Any] | None,
        new_alts: list[Any] | None,
        path: str,
        label: str,
        noun: str,
    ) -> None:
        old_word, new_word = _combinator(old), _combinator(new)
        if old_word and new_word and old_word != new_word:
            effect: Effect = "narrowed" if new_word == "oneOf" else "widened"
            self.note(effect, path, f"{label}: {old_word} became {new_word}", old_word, new_word)
        word = new_word or old_word or "anyOf"
        olds = list(old_alts) if old_alts is not None else [_without_cosmetics(old)]
        news = list(new_alts) if new_alts is not None else [_without_cosmetics(new)]
        new_index = {id(alt): i for i, alt in enumerate(news)}
        old_left = list(olds)
        new_left = list(news)
        for alt in list(old_left):  # identical alternatives pair off
            canon = _canon(alt, self.old_root)
            match = next((n for n in new_left if _canon(n, self.new_root) == canon), None)
            if match is not None:
                old_left.remove(alt)
                new_left.remove(match)
        if old_alts is not None and new_alts is not None and not old_left and not new_left:
            old_order = [_canon(a, self.old_root) for a in olds]
            new_order = [_canon(a, self.new_root) for a in news]
            if old_order != new_order:
                self.note("cosmetic", key_path(path, word), f"alternatives of {label} reordered")
        pairs: list[tuple[Any, Any]] = []
        for alt in list(old_left):  # then alternatives of the same type
            signature = _signature(alt, self.old_root)
            match = next((n for n in new_left if _signature(n, self.new_root) == signature), None)
            if match is not None:
                pairs.append((alt, match))
                old_left.remove(alt)
                new_left.remove(match)
        if len(old_left) == 1 and len(new_left) == 1:
            pairs.append((old_left.pop(), new_left.pop()))
        for old_alt, new_alt in pairs:
            where = f"{path}.{word}[{new_index[id(new_alt)]}]" if new_alts is not None else path
            self.compare(old_alt, new_alt, where, f"an alternative of {label}", noun)
        for alt in old_left:
            self.note("narrowed", key_path(path, word), f"alternative {_brief(alt)} of {label} removed", alt, None)
        for alt in new_left:
            where = f"{path}.{word}[{new_index[id(alt)]}]"
            self.note("widened", where, f"alternative {_brief(alt)} of {label} added", None, alt)

    # ------------------------------------------------------------------ keywords of one schema

    def _compare_keywords(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str, noun: str) -> None:
        for key in sorted(COSMETIC_KEYS):
            if old.get(key) != new.get(key):
                self.note("cosmetic", key_path(path, key), f"{key} of {label} changed", old.get(key), new.get(key))
        if old.get("$schema") != new.get("$schema"):
            self.note("cosmetic", key_path(path, "$schema"), "$schema changed", old.get("$schema"), new.get("$schema"))
        if old.get("default") != new.get("default"):
            self.note(
                "neutral",
                key_path(path, "default"),
                f"default of {label} changed",
                old.get("default"),
                new.get("default"),
            )
        self._compare_types(old, new, path, label)
        self._compare_values(old, new, path, label)
        self._compare_objects(old, new, path, label, noun)
        self._compare_items(old, new, path, label)
        self._compare_bounds(old, new, path, label)
        for key in sorted((set(old) | set(new)) - _HANDLED):  # ($defs are compared where they are used)
            if _canon(old.get(key), self.old_root) != _canon(new.get(key), self.new_root):
                self._compare_other(key, old, new, path, label)

    def _compare_other(self, key: str, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        """A keyword compared as a whole: a constraint added narrows, removed widens, changed is changed; a keyword
        that constrains nothing (an annotation, an extension) is neutral."""
        where, before, after = key_path(path, key), old.get(key), new.get(key)
        if key in _CONSTRAINTS:
            if key not in old:
                self.note("narrowed", where, f"{key} added to {label}", before, after)
            elif key not in new:
                self.note("widened", where, f"{key} of {label} removed", before, after)
            else:
                self.note("changed", where, f"{key} of {label} changed", before, after)
        elif key in _ADMITTING:
            self.note("changed", where, f"{key} of {label} changed (what it admits cannot be compared)", before, after)
        else:
            self.note("neutral", where, f"{key} of {label} changed", before, after)

    def _compare_types(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        old_types, new_types = _types(old), _types(new)
        if old_types == new_types:
            return
        where = key_path(path, "type")
        shown_old, shown_new = old.get("type"), new.get("type")
        if old_types is None:
            self.note("narrowed", where, f"type of {label} restricted to {_show_types(new_types)}", None, shown_new)
        elif new_types is None:
            self.note(
                "widened",
                where,
                f"type of {label} no longer restricted (was {_show_types(old_types)})",
                shown_old,
                None,
            )
        elif _covers(old_types, new_types):
            self.note(
                "narrowed",
                where,
                f"type of {label} narrowed: {_show_types(old_types)} -> {_show_types(new_types)}",
                shown_old,
                shown_new,
            )
        elif _covers(new_types, old_types):
            self.note(
                "widened",
                where,
                f"type of {label} widened: {_show_types(old_types)} -> {_show_types(new_types)}",
                shown_old,
                shown_new,
            )
        else:
            self.note(
                "changed",
                where,
                f"type of {label} changed: {_show_types(old_types)} -> {_show_types(new_types)}",
                shown_old,
                shown_new,
            )

    def _compare_values(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        old_values, new_values = _values(old), _values(new)
        if old_values is None and new_values is None:
            return
        where = key_path(path, "enum" if "enum" in new or ("enum" in old and "const" not in new) else "const")
        if old_values is None:
            self.note("narrowed", where, f"{label} restricted to the values {_show(new_values)}", None, new_values)
            return
        if new_values is None:
            self.note(
                "widened", where, f"{label} no longer restricted to the values {_show(old_values)}", old_values, None
            )
            return
        old_keys = [_dump(v) for v in old_values]
        new_keys = [_dump(v) for v in new_values]
        for value, dumped in zip(old_values, old_keys, strict=True):
            if dumped not in new_keys:
                self.note("narrowed", where, f"enum value {dumped} removed from {label}", value, None)
        for value, dumped in zip(new_values, new_keys, strict=True):
            if dumped not in old_keys:
                self.note("widened", where, f"enum value {dumped} added to {label}", None, value)
        if sorted(old_keys) == sorted(new_keys) and old_keys != new_keys:
            self.note("cosmetic", where, f"values of {label} reordered", old_values, new_values)

    def _compare_objects(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str, noun: str) -> None:
        old_props = _properties(old)
        new_props = _properties(new)
        old_required = _required(old)
        new_required = _required(new)
        where = key_path(path, "required")
        for name in new_required:
            if name in old_required:
                continue
            if name in old_props or name not in new_props:
                self.note("narrowed", where, f'{noun} "{name}" made required', None, name)
            elif self.direction == "input":
                self.note("narrowed", where, f'required {noun} "{name}" added', None, name)
        for name in old_required:
            if name not in new_required and (name in new_props or name not in old_props):
                self.note("widened", where, f'{noun} "{name}" made optional', name, None)
        props_path = key_path(path, "properties")
        for name in old_props:
            if name not in new_props:
                self.note("removed", key_path(props_path, name), f'{noun} "{name}" removed', old_props[name], None)
        for name in new_props:
            if name in old_props:
                self.compare(
                    old_props[name], new_props[name], key_path(props_path, name), f'{noun} "{name}"', "property"
                )
            elif not (self.direction == "input" and name in new_required):
                optional = "optional " if self.direction == "input" else ""
                self.note(
                    "added", key_path(props_path, name), f'{optional}{noun} "{name}" added', None, new_props[name]
                )
        # (The order of properties is not compared: JSON objects have none, and snapshots sort their keys.)
        self._compare_additional(old, new, path, label)

    def _compare_additional(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        old_extra, new_extra = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if old_extra == new_extra:
            return
        where = key_path(path, "additionalProperties")
        if isinstance(old_extra, dict) and isinstance(new_extra, dict):
            self.compare(old_extra, new_extra, where, f"additional properties of {label}", "property")
        elif new_extra is False:
            self.note("narrowed", where, f"additional properties of {label} no longer allowed", old_extra, new_extra)
        elif old_extra is True or old_extra == {}:
            self.note("narrowed", where, f"additional properties of {label} restricted", old_extra, new_extra)
        elif new_extra is True or new_extra == {}:
            self.note("widened", where, f"additional properties of {label} allowed", old_extra, new_extra)
        else:
            self.note("widened", where, f"additional properties of {label} allowed", old_extra, new_extra)

    def _compare_items(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        old_items, new_items = old.get("items"), new.get("items")
        if old_items is None and new_items is None:
            return
        where = key_path(path, "items")
        if isinstance(old_items, list) and isinstance(new_items, list):
            for i, (o, n) in enumerate(zip(old_items, new_items, strict=False)):
                self.compare(o, n, f"{where}[{i}]", f"item {i} of {label}", "property")
            if len(old_items) != len(new_items):
                self.note(
                    "changed", where, f"number of positional items of {label} changed", len(old_items), len(new_items)
                )
            return
        self.compare(
            old_items if old_items is not None else True,
            new_items if new_items is not None else True,
            where,
            f"items of {label}",
            "property",
        )

    def _compare_bounds(self, old: dict[str, Any], new: dict[str, Any], path: str, label: str) -> None:
        for key in (*_LOWER_BOUNDS, *_UPPER_BOUNDS):
            before, after = old.get(key), new.get(key)
            if before == after or not _is_number_or_none(before) or not _is_number_or_none(after):
                continue
            lower = key in _LOWER_BOUNDS
            if before is None:
                tighter = True
            elif after is None:
                tighter = False
            else:
                tighter = after > before if lower else after < before
            effect: Effect = "narrowed" if tighter else "widened"
            verb = "tightened" if tighter else "loosened"
            self.note(effect, key_path(path, key), f"{key} of {label} {verb}: {before} -> {after}", before, after)
        for key in ("pattern", "format", "multipleOf"):
            before, after = old.get(key), new.get(key)
            if before == after:
                continue
            if before is None:
                self.note("narrowed", key_path(path, key), f"{key} {_dump(after)} added to {label}", None, after)
            elif after is None:
                self.note("widened", key_path(path, key), f"{key} {_dump(before)} of {label} removed", before, None)
            else:
                self.note(
                    "changed",
                    key_path(path, key),
                    f"{key} of {label} changed: {_dump(before)} -> {_dump(after)}",
                    before,
                    after,
                )
        if bool(old.get("uniqueItems")) != bool(new.get("uniqueItems")):
            effect = "narrowed" if new.get("uniqueItems") else "widened"
            self.note(
                effect,
                key_path(path, "uniqueItems"),
                f"uniqueItems of {label} changed",
                old.get("uniqueItems"),
                new.get("uniqueItems"),
            )


# ---------------------------------------------------------------------- helpers


def _ref_of(schema: Any) -> str | None:
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return ref
    return None


def _pointer(root: Any, ref: str) -> Any:
    """The target of a local ``$ref`` (``#`` or ``#/a/b``), or None when it does not resolve."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _resolve(schema: Any, root: Any) -> Any:
    """``schema`` with its local ``$ref`` replaced by the target (sibling keywords kept, as in 2020-12)."""
    ref = _ref_of(schema)
    if ref is None or not ref.startswith("#"):
        return schema
    target = _pointer(root, ref)
    if target is None:
        return {k: v for k, v in schema.items() if k != "$ref"} | {"x-unresolved-$ref": ref}
    siblings = {k: v for k, v in schema.items() if k != "$ref"}
    if not siblings:
        return target
    return {**target, **siblings} if isinstance(target, dict) else target


def _canon(schema: Any, root: Any, seen: frozenset[str] = frozenset()) -> str:
    """A schema's content as text for equality: references inlined (a cycle stays a reference), cosmetic
    keywords left out, keys sorted."""
    return _dump(_inline(schema, root, seen))


def _inline(schema: Any, root: Any, seen: frozenset[str]) -> Any:
    if isinstance(schema, list):
        return [_inline(item, root, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = _ref_of(schema)
    if ref is not None and ref.startswith("#"):
        if ref in seen:
            return {"$ref": ref}
        return _inline(_resolve(schema, root), root, seen | {ref})
    return {
        key: _inline(value, root, seen) if key not in ("enum", "const", "required") else value
        for key, value in schema.items()
        if key not in COSMETIC_KEYS and key not in _NOT_COMPARED and key != "default"
    }


def _alternatives(schema: dict[str, Any]) -> list[Any] | None:
    for word in _COMBINATORS:
        value = schema.get(word)
        if isinstance(value, list):
            return value
    return None


def _combinator(schema: dict[str, Any]) -> str | None:
    return next((word for word in _COMBINATORS if isinstance(schema.get(word), list)), None)


def _without_combinators(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in _COMBINATORS}


def _without_cosmetics(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in _without_combinators(schema).items() if k not in COSMETIC_KEYS}


def _cosmetic_only(schema: dict[str, Any]) -> dict[str, Any]:
    """What is left to compare of a schema that was compared as a single alternative: its cosmetic keywords."""
    return {k: v for k, v in schema.items() if k in COSMETIC_KEYS or k in ("default", "$schema")}


def _signature(schema: Any, root: Any) -> str:
    """A coarse shape for pairing alternatives: the types, or whether it is a value list or an object."""
    resolved = _resolve(schema, root)
    if not isinstance(resolved, dict):
        return _dump(resolved)
    types = _types(resolved)
    if types is not None:
        return ",".join(sorted(types))
    if "const" in resolved or "enum" in resolved:
        return "values"
    if "properties" in resolved:
        return "object"
    return "?"


def _types(schema: dict[str, Any]) -> frozenset[str] | None:
    value = schema.get("type")
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list):
        return frozenset(str(v) for v in value)
    return None


def _covers(wide: frozenset[str], narrow: frozenset[str]) -> bool:
    """Whether every type in ``narrow`` is admitted by ``wide`` (``integer`` is a ``number``)."""
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _show_types(types: frozenset[str] | None) -> str:
    return "|".join(sorted(types or ()))


def _values(schema: dict[str, Any]) -> list[Any] | None:
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    value = schema.get("properties")
    return value if isinstance(value, dict) else {}


def _required(schema: dict[str, Any]) -> list[str]:
    value = schema.get("required")
    return [str(v) for v in value] if isinstance(value, list) else []


def _is_number_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _show(values: list[Any] | None) -> str:
    return ", ".join(_dump(v) for v in values or [])


def _brief(schema: Any) -> str:
    if isinstance(schema, dict):
        types = _types(schema)
        if types is not None:
            return _show_types(types)
        if "const" in schema:
            return _dump(schema["const"])
        if "$ref" in schema:
            return str(schema["$ref"])
    text = _dump(schema)
    return text if len(text) <= 40 else text[:37] + "..."
