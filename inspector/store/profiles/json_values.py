"""Reading typed values out of a profile's JSON, with errors that name the bad key.

Package-internal: the public names live in :mod:`inspector.store.profiles`. ``where`` is the path of
the object being read (``"stdio"``, ``"http.headers[2]"``; ``""`` at the top), used in error messages.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, TypeVar

from inspector.protocol.jsontypes import json_type_phrase

__all__ = [
    "ProfileFormatError",
    "at",
    "extra_keys",
    "iter_objects",
    "json_type",
    "read_bool",
    "read_choice",
    "read_name",
    "read_object",
    "read_object_list",
    "read_optional_string",
    "read_seconds",
    "read_section",
    "read_string",
    "read_string_list",
]

_Choice = TypeVar("_Choice", bound=str)


class ProfileFormatError(ValueError):
    """A profile (or a part of one) in JSON does not have the expected shape."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


def at(where: str, key: str | int) -> str:
    """The path of ``key`` (a member name or a list index) inside ``where``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def json_type(value: Any) -> str:
    """What a JSON value is, in words ("a string", "null")."""
    return json_type_phrase(value)


def extra_keys(obj: dict[str, Any], known: Collection[str]) -> dict[str, Any]:
    """The members of ``obj`` this version does not know (kept and written back unchanged)."""
    return {k: v for k, v in obj.items() if k not in known}


def read_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProfileFormatError(where, f"expected an object, got {json_type(value)}")
    return value


def read_section(value: Any, where: str) -> dict[str, Any]:
    """An optional section: missing or null is an empty object."""
    return {} if value is None else read_object(value, where)


def read_string(obj: dict[str, Any], key: str, where: str, *, default: str) -> str:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ProfileFormatError(at(where, key), f"expected a string, got {json_type(value)}")
    return value


def read_name(obj: dict[str, Any], key: str, where: str) -> str:
    """A string that must be there and not be empty."""
    value = read_string(obj, key, where, default="")
    if not value:
        raise ProfileFormatError(at(where, key), "must be a non-empty string")
    return value


def read_choice(
    obj: dict[str, Any], key: str, where: str, choices: tuple[_Choice, ...], *, default: _Choice
) -> _Choice:
    """A string that must be one of ``choices``."""
    value = read_string(obj, key, where, default=default)
    for choice in choices:
        if value == choice:
            return choice
    raise ProfileFormatError(at(where, key), f"must be one of {', '.join(choices)}, not {value!r}")


def read_optional_string(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ProfileFormatError(at(where, key), f"expected a string or null, got {json_type(value)}")
    return value


def read_bool(obj: dict[str, Any], key: str, where: str, *, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise ProfileFormatError(at(where, key), f"expected true or false, got {json_type(value)}")
    return value


def read_seconds(obj: dict[str, Any], key: str, where: str, *, default: float | None) -> float | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProfileFormatError(at(where, key), f"expected a number of seconds or null, got {json_type(value)}")
    if value <= 0:
        raise ProfileFormatError(at(where, key), f"must be more than 0 seconds, got {value}")
    return float(value)


def read_string_list(obj: dict[str, Any], key: str, where: str) -> list[str]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProfileFormatError(at(where, key), f"expected a list of strings, got {json_type(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise ProfileFormatError(at(at(where, key), i), f"expected a string, got {json_type(item)}")
    return list(value)


def iter_objects(value: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of an optional list (missing or null: none), each with its path.

    Lazy: each item is checked when it is reached, so a problem inside an earlier item is reported
    before a later item that is not an object.
    """
    if value is None:
        return
    if not isinstance(value, list):
        raise ProfileFormatError(where, f"expected a list, got {json_type(value)}")
    for i, item in enumerate(value):
        item_where = at(where, i)
        yield item_where, read_object(item, item_where)


def read_object_list(obj: dict[str, Any], key: str, where: str) -> list[tuple[str, dict[str, Any]]]:
    """The objects of the optional list ``obj[key]``, each with its path, all checked up front."""
    return list(iter_objects(obj.get(key), at(where, key)))
