"""Classify a JSON Schema node into a ``Node`` (no Qt): dereference, fold ``allOf``, normalise the nullable
spellings (``type: [T, "null"]``, ``anyOf``/``oneOf`` with a null branch, ``nullable: true``, ``enum`` with
null) and decide the ``Kind``. Anything a form cannot render becomes ``Kind.JSON`` with a ``reason``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.schema.model import MAX_DEPTH, OBJECT_KEYS, Choice, Kind, Node, choice_title, text_or_none
from inspector.schema.refs import RecursionLimit, RefError, Resolver, merge_all_of

__all__ = ["classify"]

_SCALAR_KINDS = {"string": "STRING", "integer": "INTEGER", "number": "NUMBER", "boolean": "BOOLEAN"}
_STRING_KEYS = ("minLength", "maxLength", "pattern", "format", "contentMediaType")
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_ARRAY_KEYS = ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")


def _is_null_schema(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    return (
        schema.get("type") == "null" or ("const" in schema and schema["const"] is None) or schema.get("enum") == [None]
    )


def _const_choices(branches: list[Any], resolver: Resolver, refs: tuple[str, ...]) -> tuple[Choice, ...] | None:
    """Choices when every branch of a oneOf/anyOf is a ``const`` (titled enums); otherwise None."""
    choices = []
    for branch in branches:
        try:
            resolved, _ = resolver.deref(branch, refs)
        except RefError:
            return None
        if not isinstance(resolved, Mapping) or "const" not in resolved:
            return None
        value = resolved["const"]
        title = text_or_none(resolved.get("title")) or choice_title(value)
        choices.append(Choice(value, title, text_or_none(resolved.get("description"))))
    return tuple(choices)


def _enum_choices(schema: Mapping[str, Any]) -> tuple[Choice, ...]:
    values = [value for value in schema["enum"] if value is not None]
    names = schema.get("enumNames", schema.get("x-enumNames"))
    titles = names if isinstance(names, list) and len(names) == len(values) else None
    return tuple(
        Choice(value, str(titles[index]) if titles else choice_title(value)) for index, value in enumerate(values)
    )


def _infer_type(schema: Mapping[str, Any]) -> str | None:
    for keys, kind in ((OBJECT_KEYS, "object"), (_ARRAY_KEYS, "array"), (_STRING_KEYS, "string")):
        if any(key in schema for key in keys):
            return kind
    if any(key in schema for key in _NUMBER_KEYS):
        return "number"
    return None


def classify(schema: Any, resolver: Resolver | None = None, refs: tuple[str, ...] = (), depth: int = 0) -> Node:
    """Classify ``schema`` (the root document when ``resolver`` is None) into a Node."""
    if resolver is None:
        resolver = Resolver(schema)

    def json_node(reason: str, effective: Mapping[str, Any] | None = None, nullable: bool = False) -> Node:
        return Node(Kind.JSON, effective or {}, resolver, refs, depth, nullable=nullable, reason=reason)

    if depth > MAX_DEPTH:
        return json_node("nested too deeply for a form")
    nullable = False
    for _ in range(MAX_DEPTH):
        try:
            schema, refs = resolver.deref(schema, refs)
            if isinstance(schema, Mapping) and "allOf" in schema:
                merged, refs = merge_all_of(schema, resolver, refs)
                if merged is None:
                    return json_node("allOf branches a form cannot combine", schema)
                schema = merged
        except RecursionLimit as exc:
            return json_node(f"{exc} (edited as JSON below this depth)")
        except RefError as exc:
            return json_node(str(exc))
        if schema is True or schema == {}:
            return json_node("any JSON value", nullable=nullable)
        if not isinstance(schema, Mapping):
            return json_node("no value is allowed" if schema is False else "not a schema")
        if schema.get("nullable") is True:
            nullable = True
        types = schema.get("type")
        if isinstance(types, list):
            kept = list(dict.fromkeys(t for t in types if isinstance(t, str) and t != "null"))
            nullable = nullable or "null" in types
            if not kept:
                if nullable:
                    return Node(Kind.NULL, schema, resolver, refs, depth)
                return json_node("a type list without types")
            schema = {**schema, "type": kept[0] if len(kept) == 1 else kept}
        collapsed = False
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list) or not branches:
                continue
            resolved = []
            for branch in branches:
                try:
                    resolved.append(resolver.deref(branch, refs)[0])
                except RefError:
                    resolved.append(branch)
            kept = [branch for branch, res in zip(branches, resolved, strict=True) if not _is_null_schema(res)]
            if len(kept) < len(branches):
                nullable = True
            rest = {k: v for k, v in schema.items() if k != key}
            if not kept:
                return Node(Kind.NULL, rest, resolver, refs, depth)
            if len(kept) == 1 and "anyOf" not in rest and "oneOf" not in rest:
                branch = kept[0]
                try:
                    target, refs = resolver.deref(branch, refs)
                except RecursionLimit as exc:
                    return json_node(f"{exc} (edited as JSON below this depth)", rest, nullable)
                except RefError as exc:
                    return json_node(str(exc), rest, nullable)
                if not isinstance(target, Mapping):
                    return json_node("any JSON value", rest, nullable)
                if "type" in rest and "type" in target:
                    rest = {k: v for k, v in rest.items() if k != "type"}
                schema = {**target, **rest}
                collapsed = True
                break
            schema = {**rest, key: kept}
        if not collapsed:
            break
    assert isinstance(schema, Mapping)
    return _classify_resolved(schema, resolver, refs, depth, nullable)


def _classify_resolved(
    schema: Mapping[str, Any], resolver: Resolver, refs: tuple[str, ...], depth: int, nullable: bool
) -> Node:
    def node(kind: Kind, **extra: Any) -> Node:
        return Node(kind, schema, resolver, refs, depth, nullable=nullable, **extra)

    if "const" in schema:
        if schema["const"] is None:
            return Node(Kind.NULL, schema, resolver, refs, depth)
        value = schema["const"]
        return node(Kind.ENUM, choices=(Choice(value, choice_title(value)),))
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        if None in schema["enum"]:
            nullable = True
        choices = _enum_choices(schema)
        if not choices:
            return Node(Kind.NULL, schema, resolver, refs, depth)
        return node(Kind.ENUM, choices=choices)
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            consts = _const_choices(branches, resolver, refs)
            if consts is not None:
                return node(Kind.ENUM, choices=consts)
            return node(Kind.VARIANTS, branch_key=key)
    if "not" in schema and len(set(schema) - {"not", "title", "description", "default", "examples"}) == 0:
        return node(Kind.JSON, reason="a 'not' schema")
    kind = schema.get("type")
    if isinstance(kind, list):
        return node(Kind.VARIANTS, branch_key="type")
    if kind is None:
        kind = _infer_type(schema)
    if isinstance(kind, str) and kind in _SCALAR_KINDS:
        return node(Kind[_SCALAR_KINDS[kind]])
    if kind == "null":
        return Node(Kind.NULL, schema, resolver, refs, depth)
    if kind == "array":
        if "prefixItems" in schema or isinstance(schema.get("items"), list):
            return node(Kind.JSON, reason="a tuple (prefixItems)")
        items = classify(schema.get("items", True), resolver, refs, depth + 1)
        if items.kind is Kind.ENUM and not items.nullable:
            multi = node(Kind.MULTI_ENUM, choices=items.choices)
            multi.__dict__["items"] = items
            return multi
        array = node(Kind.ARRAY)
        array.__dict__["items"] = items
        return array
    if kind == "object":
        props = schema.get("properties")
        has_props = isinstance(props, Mapping) and bool(props)
        extra = schema.get("additionalProperties")
        patterns = schema.get("patternProperties")
        if not has_props and (isinstance(extra, Mapping) or (isinstance(patterns, Mapping) and patterns)):
            return node(Kind.MAP)
        if has_props or depth == 0 or extra is False or isinstance(props, Mapping):
            return node(Kind.OBJECT)
        return node(Kind.JSON, reason="a free-form object")
    return node(Kind.JSON, reason="a schema without a type")
