"""Plain value helpers shared by the form, the CLI and the probe (no Qt): the MISSING marker, strict JSON
equality, exact number text round-trips and JSON text with readable parse errors.

Field paths (``address.city``, ``items[0].name``, ``labels["a.b"]``; the root is ``""``) are
:mod:`inspector.protocol.jsonpath` paths relative to the instance: ``format_path(parts, root="")``.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from inspector.protocol.jsonpath import PathPart
from inspector.protocol.jsontypes import json_type as _json_type

__all__ = [
    "MISSING",
    "TEXT_WIDGET_UNSAFE",
    "Missing",
    "PathPart",
    "decimal_of",
    "format_number",
    "json_equal",
    "json_type",
    "number_text_state",
    "parse_json_text",
    "parse_number",
    "to_json_text",
]


class Missing:
    """The marker for "no value": an optional field the user never set is left out of the instance."""

    _instance: Missing | None = None

    def __new__(cls) -> Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = Missing()

_INT_RE: Final = re.compile(r"[+-]?\d+")
_FLOAT_RE: Final = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_INT_PREFIX_RE: Final = re.compile(r"[+-]?\d*")
_FLOAT_PREFIX_RE: Final = re.compile(r"[+-]?(\d*\.?\d*)([eE][+-]?\d*)?")


def json_type(value: Any) -> str:
    """The JSON type name of a Python value (``integer`` for ints and integral floats are ``number``)."""
    return _json_type(value, integer=True)


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: ``True`` is not ``1``, ``1`` equals ``1.0``, containers compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[key], b[key]) for key in a)
    return type(a) is type(b) and bool(a == b)


# --- numbers ------------------------------------------------------------------------------------------------


def format_number(value: int | float) -> str:
    """Text that ``parse_number`` turns back into exactly ``value`` (ints stay ints, floats stay floats)."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a JSON number")
    text = repr(value)
    if "e" in text or "E" in text:
        return text
    return text if "." in text else text + ".0"


def parse_number(text: str, *, integer: bool) -> int | float:
    """Parse what a user typed: integer syntax gives an ``int`` (any size), anything else a finite float."""
    stripped = text.strip()
    if _INT_RE.fullmatch(stripped):
        return int(stripped)
    if integer:
        if _FLOAT_RE.fullmatch(stripped):
            as_float = float(stripped)
            if math.isfinite(as_float) and as_float.is_integer():
                return int(Decimal(stripped))
        raise ValueError(f"{text!r} is not a whole number")
    if not _FLOAT_RE.fullmatch(stripped):
        raise ValueError(f"{text!r} is not a number")
    value = float(stripped)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is too large for a JSON number")
    return value


def number_text_state(text: str, *, integer: bool) -> str:
    """``"ok"`` (empty or a number), ``"partial"`` (may become one while typing) or ``"invalid"``."""
    stripped = text.strip()
    if not stripped:
        return "ok"
    try:
        parse_number(stripped, integer=integer)
    except ValueError:
        prefix = _INT_PREFIX_RE if integer else _FLOAT_PREFIX_RE
        return "partial" if prefix.fullmatch(stripped) else "invalid"
    return "ok"


def decimal_of(value: int | float) -> Decimal:
    """An exact-as-typed Decimal (``0.1`` stays ``0.1``), for stepping by ``multipleOf`` without float drift."""
    try:
        return Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        return Decimal(0)


# --- JSON text ----------------------------------------------------------------------------------------------


TEXT_WIDGET_UNSAFE: Final = frozenset("\r\u00a0\u2028\u2029\ufdd0\ufdd1")
"""Characters a rich/plain text widget rewrites (to a newline or a space); JSON text escapes them."""


def to_json_text(value: Any, *, indent: int | None = 2) -> str:
    """Pretty JSON that keeps non-ASCII characters readable, except those a text widget would rewrite."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if any(char in TEXT_WIDGET_UNSAFE for char in text):
        text = "".join(f"\\u{ord(char):04x}" if char in TEXT_WIDGET_UNSAFE else char for char in text)
    return text


def parse_json_text(text: str) -> Any:
    """``json.loads`` with a message a person can act on; rejects NaN/Infinity (they are not JSON)."""

    def reject(constant: str) -> Any:
        raise ValueError(f"{constant} is not valid JSON")

    try:
        return json.loads(text, parse_constant=reject)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
