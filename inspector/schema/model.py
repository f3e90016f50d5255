"""The classified schema node (no Qt): what kind of field a form shows for it, and what the field needs.

``classify(schema)`` (in ``inspector.schema.classify``) returns a ``Node``: its ``Kind`` plus everything an
editor needs (title, description, default, constraints, choices). Children (``properties``, ``items``,
``variants``, ``additional``) are classified lazily, on first access, so recursive schemas cost only what is
shown; a ``$ref`` that recurs more than ``MAX_REF_REPEAT`` times on one path becomes a ``Kind.JSON`` node, as
does anything else a form cannot render (tuples, ``not``, conflicting ``allOf``...).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Final

from inspector.schema.refs import RefError, Resolver
from inspector.schema.values import MISSING, json_equal

__all__ = ["MAX_DEPTH", "Choice", "Kind", "Node", "Property", "Variant"]

MAX_DEPTH: Final = 24
"""Nesting depth (objects, arrays, variants) beyond which a node is edited as JSON."""

OBJECT_KEYS = ("properties", "additionalProperties", "patternProperties", "required", "propertyNames")


class Kind(StrEnum):
    STRING = "string"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    NULL = "null"
    ENUM = "enum"
    MULTI_ENUM = "multi_enum"
    ARRAY = "array"
    OBJECT = "object"
    MAP = "map"
    VARIANTS = "variants"
    JSON = "json"


@dataclass(frozen=True)
class Choice:
    value: Any
    title: str
    description: str | None = None


@dataclass(frozen=True)
class Property:
    name: str
    node: Node
    required: bool
    label: str


@dataclass(frozen=True)
class Variant:
    title: str
    node: Node


def _number(value: Any) -> int | float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def choice_title(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class Node:
    """A classified schema node. ``schema`` is the effective (dereferenced, merged, non-null) schema."""

    def __init__(
        self,
        kind: Kind,
        schema: Mapping[str, Any],
        resolver: Resolver,
        refs: tuple[str, ...] = (),
        depth: int = 0,
        *,
        nullable: bool = False,
        choices: tuple[Choice, ...] = (),
        reason: str = "",
        branch_key: str = "",
    ) -> None:
        self.kind = kind
        self.schema = schema
        self.resolver = resolver
        self.refs = refs
        self.depth = depth
        self.nullable = nullable
        self.choices = choices
        self.reason = reason
        self._branch_key = branch_key

    def __repr__(self) -> str:
        return f"Node({self.kind.value}{', nullable' if self.nullable else ''})"

    # --- annotations ------------------------------------------------------------------------------------
    @property
    def title(self) -> str | None:
        return text_or_none(self.schema.get("title"))

    @property
    def description(self) -> str | None:
        return text_or_none(self.schema.get("description"))

    @property
    def has_default(self) -> bool:
        return "default" in self.schema

    @property
    def default(self) -> Any:
        return self.schema.get("default", MISSING)

    @property
    def examples(self) -> list[Any]:
        examples = self.schema.get("examples")
        return list(examples) if isinstance(examples, list) else []

    @property
    def read_only(self) -> bool:
        return self.schema.get("readOnly") is True

    # --- string constraints -----------------------------------------------------------------------------
    @property
    def format(self) -> str | None:
        return text_or_none(self.schema.get("format"))

    @property
    def pattern(self) -> str | None:
        return text_or_none(self.schema.get("pattern"))

    @property
    def min_length(self) -> int | None:
        value = _number(self.schema.get("minLength"))
        return int(value) if value is not None else None

    @property
    def max_length(self) -> int | None:
        value = _number(self.schema.get("maxLength"))
        return int(value) if value is not None else None

    # --- number constraints (draft-04 boolean exclusive bounds normalised) -------------------------------
    @property
    def minimum(self) -> int | float | None:
        if self.schema.get("exclusiveMinimum") is True:
            return None
        return _number(self.schema.get("minimum"))

    @property
    def maximum(self) -> int | float | None:
        if self.schema.get("exclusiveMaximum") is True:
            return None
        return _number(self.schema.get("maximum"))

    @property
    def exclusive_minimum(self) -> int | float | None:
        if self.schema.get("exclusiveMinimum") is True:
            return _number(self.schema.get("minimum"))
        return _number(self.schema.get("exclusiveMinimum"))

    @property
    def exclusive_maximum(self) -> int | float | None:
        if self.schema.get("exclusiveMaximum") is True:
            return _number(self.schema.get("maximum"))
        return _number(self.schema.get("exclusiveMaximum"))

    @property
    def multiple_of(self) -> int | float | None:
        value = _number(self.schema.get("multipleOf"))
        return value if value is not None and value > 0 else None

    # --- array constraints ------------------------------------------------------------------------------
    @property
    def min_items(self) -> int:
        value = _number(self.schema.get("minItems"))
        return max(0, int(value)) if value is not None else 0

    @property
    def max_items(self) -> int | None:
        value = _number(self.schema.get("maxItems"))
        return int(value) if value is not None else None

    @property
    def unique_items(self) -> bool:
        return self.schema.get("uniqueItems") is True

    # --- children (classified on first access) ------------------------------------------------------------
    def _child(self, schema: Any) -> Node:
        from inspector.schema.classify import classify

        return classify(schema, self.resolver, self.refs, self.depth + 1)

    @cached_property
    def items(self) -> Node:
        """The node of an array's items (MULTI_ENUM: the enum node whose choices are offered)."""
        return self._child(self.schema.get("items", True))

    @cached_property
    def properties(self) -> tuple[Property, ...]:
        raw = self.schema.get("properties")
        if not isinstance(raw, Mapping):
            return ()
        required = self.schema.get("required")
        names = set(required) if isinstance(required, list) else set()
        result = []
        for name, subschema in raw.items():
            own = subschema.get("title") if isinstance(subschema, Mapping) else None
            label = text_or_none(own) or str(name)
            result.append(Property(str(name), self._child(subschema), name in names, label))
        return tuple(result)

    @property
    def required_names(self) -> tuple[str, ...]:
        required = self.schema.get("required")
        return tuple(name for name in required if isinstance(name, str)) if isinstance(required, list) else ()

    @property
    def key_pattern(self) -> str | None:
        """For MAP nodes: the pattern keys must match (from patternProperties or propertyNames)."""
        patterns = self.schema.get("patternProperties")
        if isinstance(patterns, Mapping) and len(patterns) == 1:
            return str(next(iter(patterns)))
        names = self.schema.get("propertyNames")
        return text_or_none(names.get("pattern")) if isinstance(names, Mapping) else None

    @cached_property
    def additional(self) -> Node | None:
        """The value node of a MAP, or of an OBJECT's additional properties when they have a schema."""
        extra = self.schema.get("additionalProperties")
        patterns = self.schema.get("patternProperties")
        if isinstance(patterns, Mapping) and patterns:
            if len(patterns) == 1 and extra in (None, False):
                return self._child(next(iter(patterns.values())))
            return self._child(True)
        if isinstance(extra, Mapping):
            return self._child(extra)
        if extra is True and self.kind is Kind.MAP:
            return self._child(True)
        return None

    @cached_property
    def variants(self) -> tuple[Variant, ...]:
        branches = self.schema.get(self._branch_key)
        if not isinstance(branches, list):
            return ()
        outer = {key: value for key, value in self.schema.items() if key not in (self._branch_key, "discriminator")}
        shared = {key: outer[key] for key in OBJECT_KEYS if key in outer}
        result = []
        for index, branch in enumerate(branches):
            if self._branch_key == "type":
                schema: Any = {**outer, "type": branch}
                title = str(branch)
            else:
                schema = {"allOf": [shared, branch]} if shared else branch
                title = self._variant_title(index, branch)
            result.append(Variant(title, self._child(schema)))
        return tuple(result)

    @property
    def discriminator(self) -> str | None:
        discriminator = self.schema.get("discriminator")
        if isinstance(discriminator, Mapping):
            return text_or_none(discriminator.get("propertyName"))
        return None

    def _variant_title(self, index: int, branch: Any) -> str:
        if isinstance(branch, Mapping):
            if text_or_none(branch.get("title")):
                return str(branch["title"])
            ref = branch.get("$ref")
            try:
                resolved, _ = self.resolver.deref(branch)
            except RefError:
                resolved = None
            if isinstance(resolved, Mapping):
                tag = self._discriminator_value(resolved)
                if text_or_none(resolved.get("title")):
                    return str(resolved["title"])
                if tag is not None:
                    return tag
            if isinstance(ref, str):
                return ref.rsplit("/", 1)[-1]
            kind = branch.get("type")
            if isinstance(kind, str):
                return kind
        return f"Option {index + 1}"

    def _discriminator_value(self, branch: Mapping[str, Any]) -> str | None:
        name = self.discriminator
        props = branch.get("properties")
        if name is None or not isinstance(props, Mapping) or not isinstance(props.get(name), Mapping):
            return None
        const = props[name].get("const", props[name].get("default"))
        return const if isinstance(const, str) else None

    def choice_index(self, value: Any) -> int | None:
        for index, choice in enumerate(self.choices):
            if json_equal(choice.value, value):
                return index
        return None
