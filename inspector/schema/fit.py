"""How values meet classified nodes (no Qt): does a value fit an editor, what a field starts with, which
variant of a ``oneOf``/``anyOf`` a value belongs to, and short human text about a node's constraints.
"""

from __future__ import annotations

import math
from typing import Any

from inspector.schema.model import Kind, Node
from inspector.schema.validate import FORMAT_NAMES, SchemaValidator
from inspector.schema.values import MISSING, json_equal, parse_json_text, to_json_text

__all__ = [
    "accepts",
    "cell_text",
    "constraint_text",
    "initial_value",
    "map_values_are_text",
    "parse_cell",
    "pick_variant",
    "placeholder",
    "validator_of",
]


def validator_of(node: Node) -> SchemaValidator:
    """The (memoised) validator of the document ``node`` belongs to."""
    validator = node.resolver.cache.get("validator")
    if not isinstance(validator, SchemaValidator):
        validator = SchemaValidator(node.resolver.root)
        node.resolver.cache["validator"] = validator
    return validator


def map_values_are_text(node: Node) -> bool:
    """Whether a MAP's value cells hold plain text (string values) rather than JSON."""
    value_node = node.additional
    return value_node is not None and value_node.kind is Kind.STRING and not value_node.nullable


def accepts(node: Node, value: Any) -> bool:
    """Whether the editor for ``node`` can show ``value`` exactly (otherwise the field is edited as JSON)."""
    if value is None:
        return node.nullable or node.kind in (Kind.NULL, Kind.JSON)
    kind = node.kind
    if kind is Kind.STRING:
        return isinstance(value, str)
    if kind is Kind.INTEGER:
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if kind is Kind.NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if kind is Kind.BOOLEAN:
        return isinstance(value, bool)
    if kind is Kind.ENUM:
        return node.choice_index(value) is not None
    if kind is Kind.MULTI_ENUM:
        return isinstance(value, list) and all(node.choice_index(item) is not None for item in value)
    if kind is Kind.ARRAY:
        return isinstance(value, list)
    if kind is Kind.OBJECT:
        return isinstance(value, dict)
    if kind is Kind.MAP:
        if not isinstance(value, dict):
            return False
        return not map_values_are_text(node) or all(isinstance(item, str) for item in value.values())
    if kind is Kind.VARIANTS:
        return any(accepts(variant.node, value) for variant in node.variants)
    if kind is Kind.NULL:
        return False
    return True


def initial_value(node: Node, *, required: bool) -> Any:
    """What a field starts with: its default; the only choice of a required const/enum; else MISSING."""
    if node.has_default:
        return node.default
    if required and node.kind is Kind.ENUM and len(node.choices) == 1:
        return node.choices[0].value
    if node.kind is Kind.NULL and required:
        return None
    return MISSING


def _tag_values(node: Node, name: str) -> list[Any]:
    for prop in node.properties:
        if prop.name == name and prop.node.kind is Kind.ENUM:
            return [choice.value for choice in prop.node.choices]
    return []


def pick_variant(node: Node, value: Any, validator: SchemaValidator | None = None) -> int | None:
    """The index of the variant ``value`` belongs to: by discriminator, else the first valid, else the first
    whose editor can show it; None when no variant fits."""
    variants = node.variants
    if not variants:
        return None
    if isinstance(value, dict):
        names = [node.discriminator] if node.discriminator else []
        names += [key for key in value if key not in names]
        for name in names[:8]:
            if name is None or name not in value:
                continue
            tagged = [
                index
                for index, variant in enumerate(variants)
                if variant.node.kind is Kind.OBJECT
                and any(json_equal(tag, value[name]) for tag in _tag_values(variant.node, name))
            ]
            if len(tagged) == 1 and accepts(variants[tagged[0]].node, value):
                return tagged[0]
    validator = validator or validator_of(node)
    fitting = [index for index, variant in enumerate(variants) if accepts(variant.node, value)]
    for index in fitting:
        if validator.is_valid(value, variants[index].node.schema):
            return index
    return fitting[0] if fitting else None


def _bounds(node: Node) -> str:
    low = f"{node.minimum} ≤ " if node.minimum is not None else ""
    low = f"{node.exclusive_minimum} < " if node.exclusive_minimum is not None else low
    high = f" ≤ {node.maximum}" if node.maximum is not None else ""
    high = f" < {node.exclusive_maximum}" if node.exclusive_maximum is not None else high
    return f"{low}x{high}" if low or high else ""


def _range(low: int | None, high: int | None, unit: str) -> str:
    if low and high is not None:
        return f"{low}-{high} {unit}s" if low != high else f"exactly {low} {unit}{'s' if low != 1 else ''}"
    if low:
        return f"at least {low} {unit}{'s' if low != 1 else ''}"
    if high is not None:
        return f"at most {high} {unit}{'s' if high != 1 else ''}"
    return ""


def constraint_text(node: Node) -> str:
    """A one-line summary such as ``integer · 1 ≤ x ≤ 500 · multiple of 5`` (for tooltips)."""
    kind = node.kind
    parts: list[str] = [str(node.schema.get("type", kind.value)) if kind is not Kind.JSON else "JSON"]
    if kind is Kind.STRING:
        if node.format:
            parts.append(FORMAT_NAMES.get(node.format, node.format))
        parts.append(_range(node.min_length, node.max_length, "character"))
        if node.pattern:
            parts.append(f"pattern {node.pattern}")
    elif kind in (Kind.INTEGER, Kind.NUMBER):
        parts.append(_bounds(node))
        if node.multiple_of is not None:
            parts.append(f"multiple of {node.multiple_of}")
    elif kind in (Kind.ARRAY, Kind.MULTI_ENUM):
        parts.append(_range(node.min_items, node.max_items, "item"))
        if node.unique_items:
            parts.append("unique")
    elif kind is Kind.ENUM:
        parts = ["one of " + ", ".join(choice.title for choice in node.choices[:6])]
        if len(node.choices) > 6:
            parts[0] += ", …"
    elif kind is Kind.VARIANTS:
        parts = [" | ".join(variant.title for variant in node.variants)]
    elif kind is Kind.JSON and node.reason:
        parts.append(node.reason)
    if node.nullable:
        parts.append("or null")
    return " · ".join(part for part in parts if part)


_FORMAT_PLACEHOLDERS = {
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDThh:mm:ssZ",
    "time": "hh:mm:ssZ",
    "email": "name@example.com",
    "uri": "https://…",
    "uuid": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
}


def placeholder(node: Node) -> str:
    """Grey hint text for an empty editor: an example, the format's shape or the allowed range."""
    examples = [example for example in node.examples if isinstance(example, str | int | float)]
    if examples and not isinstance(examples[0], bool):
        return f"e.g. {examples[0]}"
    if node.format in _FORMAT_PLACEHOLDERS:
        return _FORMAT_PLACEHOLDERS[node.format]
    if node.kind in (Kind.INTEGER, Kind.NUMBER):
        return _bounds(node).replace("x", "value") if _bounds(node) else node.kind.value
    return ""


def _takes_strings(node: Node | None) -> bool:
    if node is None or node.kind is Kind.JSON or node.kind is Kind.STRING:
        return True
    return node.kind is Kind.VARIANTS and any(variant.node.kind is Kind.STRING for variant in node.variants)


def cell_text(node: Node, value: Any) -> str:
    """How a MAP value is shown in its table cell (``parse_cell`` reads it back exactly)."""
    if map_values_are_text(node):
        return str(value)
    if isinstance(value, str) and _takes_strings(node.additional):
        try:
            parse_json_text(value)
        except ValueError:
            return value
    return to_json_text(value, indent=None)


def parse_cell(node: Node, text: str) -> Any:
    """The value of a MAP cell: plain text for string maps, else JSON (bare text is a string when allowed)."""
    if map_values_are_text(node):
        return text
    try:
        return parse_json_text(text)
    except ValueError:
        if _takes_strings(node.additional):
            return text
        raise
