"""Validate an instance against a schema with ``jsonschema`` and turn the errors into per-field messages.

The draft comes from ``$schema`` (draft-07, 2019-09, 2020-12, ...; 2020-12 when absent or unknown). Formats
``date``, ``date-time``, ``time``, ``email``, ``uri``, ``uri-reference``, ``uuid``, ``ipv4`` and ``ipv6`` are
checked by this module (no optional packages needed). Errors inside ``anyOf``/``oneOf`` are reported from the
branch the instance most nearly matches (the ``null`` branch of a nullable field is never the one blamed), and
a missing required property is reported at the property's own path.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import re
import uuid
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from inspector.protocol.jsonpath import PathPart, format_path
from inspector.schema.refs import RefError, Resolver

if TYPE_CHECKING:  # jsonschema is imported when the first schema is compiled (it is slow to import)
    import jsonschema
    from jsonschema.exceptions import ValidationError

__all__ = ["FieldError", "SchemaValidator", "format_checker", "validate"]


@cache
def _drafts() -> tuple[tuple[str, Any], ...]:
    from jsonschema import Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator

    return (
        ("draft-04", Draft4Validator),
        ("draft-06", Draft6Validator),
        ("draft-07", Draft7Validator),
        ("2019-09", Draft201909Validator),
        ("2020-12", Draft202012Validator),
    )


_DATE_RE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME_RE: Final = re.compile(r"(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")
_EMAIL_RE: Final = re.compile(r"[^@\s]+@[^@\s]+")
_URI_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*")
_URI_REF_RE: Final = re.compile(r"[^\s]*")

FORMAT_NAMES: Final = {
    "date": "date (YYYY-MM-DD)",
    "date-time": "date and time (YYYY-MM-DDThh:mm:ssZ)",
    "time": "time (hh:mm:ssZ)",
    "email": "e-mail address",
    "uri": "URI with a scheme (https://…)",
    "uri-reference": "URI reference",
    "uuid": "UUID",
    "ipv4": "IPv4 address",
    "ipv6": "IPv6 address",
}


def _is_date(text: str) -> bool:
    if not _DATE_RE.fullmatch(text):
        return False
    datetime.date.fromisoformat(text)
    return True


def _is_time(text: str) -> bool:
    match = _TIME_RE.fullmatch(text)
    if match is None:
        return False
    hour, minute, second = (int(match.group(i)) for i in (1, 2, 3))
    return hour < 24 and minute < 60 and second <= 60


def _is_date_time(text: str) -> bool:
    if len(text) < 11 or text[10] not in "Tt ":
        return False
    return _is_date(text[:10]) and _is_time(text[11:])


def _is_uuid(text: str) -> bool:
    return len(text) == 36 and str(uuid.UUID(text)) == text.lower()


@cache
def format_checker() -> jsonschema.FormatChecker:
    """The format checks every validator here uses (made, and jsonschema imported, on first use)."""
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    checks: dict[str, Any] = {
        "date": _is_date,
        "time": _is_time,
        "date-time": _is_date_time,
        "email": lambda text: bool(_EMAIL_RE.fullmatch(text)),
        "idn-email": lambda text: bool(_EMAIL_RE.fullmatch(text)),
        "uri": lambda text: bool(_URI_RE.fullmatch(text)),
        "iri": lambda text: bool(_URI_RE.fullmatch(text)),
        "uri-reference": lambda text: bool(_URI_REF_RE.fullmatch(text)),
        "uuid": _is_uuid,
        "ipv4": lambda text: bool(ipaddress.IPv4Address(text)),
        "ipv6": lambda text: bool(ipaddress.IPv6Address(text)),
    }
    for name, check in checks.items():

        def wrapped(instance: object, check: Any = check) -> bool:
            return not isinstance(instance, str) or bool(check(instance))

        checker.checks(name, raises=(ValueError,))(wrapped)
    return checker


@dataclass(frozen=True)
class FieldError:
    """One problem with the instance: where (``path`` parts) and what (``message``, without the path)."""

    path: tuple[PathPart, ...]
    message: str

    @property
    def path_str(self) -> str:
        return format_path(self.path, root="")

    def __str__(self) -> str:
        return f"{self.path_str}: {self.message}" if self.path else self.message


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _types(value: Any) -> str:
    names = value if isinstance(value, list) else [value]
    spoken = [
        {"integer": "an integer", "array": "an array", "object": "an object", "null": "null"}.get(
            str(name), f"a {name}"
        )
        for name in names
    ]
    return " or ".join(spoken)


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message(error: ValidationError) -> str:
    kind, expected = error.validator, error.validator_value
    match kind:
        case "type":
            return f"must be {_types(expected)}"
        case "minLength":
            return f"must be at least {_plural(expected, 'character')} long"
        case "maxLength":
            return f"must be at most {_plural(expected, 'character')} long"
        case "pattern":
            return f"must match the pattern {expected}"
        case "format":
            return f"must be a valid {FORMAT_NAMES.get(str(expected), str(expected))}"
        case "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" if not isinstance(expected, bool):
            symbol = {"minimum": "≥", "maximum": "≤", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kind]
            parent = error.schema if isinstance(error.schema, Mapping) else {}
            if kind in ("minimum", "maximum") and parent.get("exclusive" + kind[:1].upper() + kind[1:]) is True:
                symbol = ">" if kind == "minimum" else "<"  # draft-04 boolean exclusive bounds
            return f"must be {symbol} {expected}"
        case "multipleOf":
            return f"must be a multiple of {expected}"
        case "enum":
            listed = ", ".join(_short(v, 30) for v in expected[:12])
            return f"must be one of {listed}" + ("…" if len(expected) > 12 else "")
        case "const":
            return f"must be {_short(expected)}"
        case "minItems":
            return f"must have at least {_plural(expected, 'item')}"
        case "maxItems":
            return f"must have at most {_plural(expected, 'item')}"
        case "uniqueItems":
            return "items must be unique"
        case "minProperties":
            return f"must have at least {_plural(expected, 'property')}".replace("propertys", "properties")
        case "maxProperties":
            return f"must have at most {_plural(expected, 'property')}".replace("propertys", "properties")
        case "oneOf" if not error.context:
            return "matches more than one of the allowed shapes"
        case "anyOf" | "oneOf":
            context = error.context or []
            if context and all(sub.validator == "type" and not sub.relative_path for sub in context):
                names: list[Any] = []
                for sub in context:
                    for name in sub.validator_value if isinstance(sub.validator_value, list) else [sub.validator_value]:
                        if name not in names:
                            names.append(name)
                return f"must be {_types(names)}"
            return "does not match any of the allowed shapes"
        case "false":
            return "no value is allowed here"
    return str(error.message)


class SchemaValidator:
    """A compiled validator for one schema document; reusable for many instances."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.draft = "2020-12"
        drafts = _drafts()
        cls: Any = drafts[-1][1]  # 2020-12
        declared = schema.get("$schema") if isinstance(schema, Mapping) else None
        if isinstance(declared, str):
            for name, candidate in drafts:
                if name in declared:
                    self.draft, cls = name, candidate
        self.validator_class: Any = cls
        self._validator: Any = cls(schema, format_checker=format_checker())
        self._resolver = Resolver(schema)

    def errors(self, instance: Any) -> list[FieldError]:
        """Every problem with ``instance`` (in jsonschema's order); an unusable schema is one error at the root."""
        try:
            raw = list(self._validator.iter_errors(instance))
        except Exception as exc:  # a broken schema (bad regex, unknown type, unresolvable $ref) must not crash
            return [FieldError((), f"cannot validate: the schema is invalid ({type(exc).__name__}: {exc})")]
        found: list[FieldError] = []
        for error in raw:
            try:
                items = [item for leaf in self._expand(error) for item in self._field_errors(leaf)]
            except Exception:  # keywords of the wrong shape ("enum": {}) still get jsonschema's own words
                items = [FieldError(tuple(error.absolute_path), str(error.message))]
            for item in items:
                if item not in found:
                    found.append(item)
        return found

    def is_valid(self, instance: Any, subschema: Any = None) -> bool:
        """Whether ``instance`` is valid against the root, or against ``subschema`` (refs resolved from the root)."""
        try:
            validator = self._validator if subschema is None else self._validator.evolve(schema=subschema)
            return next(iter(validator.iter_errors(instance)), None) is None
        except Exception:
            return False

    def _is_null_branch(self, branch: Any) -> bool:
        try:
            resolved, _ = self._resolver.deref(branch)
        except RefError:
            return False
        return isinstance(resolved, Mapping) and (resolved.get("type") == "null" or resolved.get("const", 0) is None)

    def _expand(self, error: ValidationError) -> list[ValidationError]:
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            return [error]
        branches: dict[int, list[ValidationError]] = defaultdict(list)
        for sub in error.context:
            index = sub.relative_schema_path[0] if sub.relative_schema_path else -1
            if isinstance(index, int):
                branches[index].append(sub)
        options = error.validator_value if isinstance(error.validator_value, list) else []
        candidates = {
            index: subs
            for index, subs in branches.items()
            if not (index < len(options) and self._is_null_branch(options[index]))
        }
        if not candidates:
            return [error]

        def score(index: int) -> tuple[int, int, int]:
            subs = candidates[index]
            shape = ("type", "const", "enum")
            at_root = sum(1 for sub in subs if len(sub.relative_path) == 0 and sub.validator in shape)
            tagged = sum(1 for sub in subs if len(sub.relative_path) == 1 and sub.validator in ("const", "enum"))
            return at_root, tagged, len(subs)

        best = min(sorted(candidates), key=score)
        if score(best)[0]:
            return [error]
        return [leaf for sub in candidates[best] for leaf in self._expand(sub)]

    def _field_errors(self, error: ValidationError) -> list[FieldError]:
        path = tuple(error.absolute_path)
        instance = error.instance
        if error.validator == "required" and isinstance(instance, dict):
            missing = [name for name in error.validator_value if name not in instance]
            named = [name for name in missing if error.message == f"{name!r} is a required property"]
            return [FieldError((*path, name), "is required") for name in (named or missing[:1])]
        if error.validator in ("dependentRequired", "dependencies") and isinstance(instance, dict):
            for owner, needed in (error.validator_value or {}).items():
                if owner in instance and isinstance(needed, list):
                    for name in needed:
                        if name not in instance and error.message == f"{name!r} is a dependency of {owner!r}":
                            return [FieldError((*path, name), f"is required when {owner!r} is set")]
        return [FieldError(path, _message(error))]


def validate(schema: Any, instance: Any) -> list[FieldError]:
    """One-shot ``SchemaValidator(schema).errors(instance)``."""
    return SchemaValidator(schema).errors(instance)
