"""The structural JSON diff of a replay: a recorded response against the one received now (Qt-free, sans-I/O).

``compare(old, new, skip=...)`` walks both values and returns one :class:`Difference` per location where they
differ: a value ``changed``, ``added`` (only now) or ``removed`` (only recorded), each with its path in the one JSON
path notation (``$.result.content[0].text``, :mod:`inspector.protocol.jsonpath`). Objects are compared key by key;
arrays element by element, except arrays of objects that each have a distinct ``name`` (or ``uri``), which are
matched by it (a tool added in the middle of ``tools/list`` is one addition, not a change of every later tool; the
path of a matched or added item uses its index now, a removed one its recorded index). Numbers compare by value
(``1 == 1.0``), booleans are not numbers.

``skip(parts, old, new)`` is asked before anything is compared at a location (``old`` / ``new`` may be
:data:`MISSING`); a location it skips is left out with everything below it, and it decides why (the caller counts
what it left out: the user's ``--ignore`` paths, the volatile values).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.jsonpath import JsonPath, format_path

__all__ = ["MISSING", "Difference", "Skip", "compare"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()
"""The value on the side where a location does not exist."""

Skip = Callable[[JsonPath, Any, Any], bool]

_KEYS: Final = ("name", "uri", "uriTemplate")
"""Members that identify the items of an array of objects (tools, prompts, resources, templates)."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One location where the recorded value and the value now differ."""

    parts: JsonPath
    old: Any
    """The recorded value (:data:`MISSING` when the location is new)."""
    new: Any
    """The value now (:data:`MISSING` when the location is gone)."""

    @property
    def path(self) -> str:
        return format_path(self.parts)

    @property
    def change(self) -> str:
        """``added``, ``removed`` or ``changed``."""
        if self.old is MISSING:
            return "added"
        if self.new is MISSING:
            return "removed"
        return "changed"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "change": self.change}
        if self.old is not MISSING:
            out["old"] = self.old
        if self.new is not MISSING:
            out["new"] = self.new
        return out


def _never(_parts: JsonPath, _old: Any, _new: Any) -> bool:
    return False


def _same_scalar(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if isinstance(old, int | float) and isinstance(new, int | float):
        return old == new
    return type(old) is type(new) and old == new


def _identity(items: list[Any]) -> str | None:
    """The member that identifies every item (all objects, each with a distinct string value), else None."""
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    for key in _KEYS:
        values = [item.get(key) for item in items]
        if all(isinstance(v, str) for v in values) and len(set(values)) == len(values):
            return key
    return None


def _pairs(old: list[Any], new: list[Any]) -> list[tuple[int | None, int | None]]:
    """(recorded index, index now) of the items to compare; None on the side an item is missing from."""
    key = _identity(old)
    if key is None or _identity(new) != key:
        longest = max(len(old), len(new))
        return [(i if i < len(old) else None, i if i < len(new) else None) for i in range(longest)]
    now = {item[key]: index for index, item in enumerate(new)}
    recorded = {item[key] for item in old}
    pairs: list[tuple[int | None, int | None]] = [(i, now.get(item[key])) for i, item in enumerate(old)]
    pairs.extend((None, i) for i, item in enumerate(new) if item[key] not in recorded)
    return pairs


def compare(old: Any, new: Any, *, skip: Skip = _never) -> list[Difference]:
    """Every difference between ``old`` (recorded) and ``new`` (now), in document order."""
    out: list[Difference] = []
    _walk((), old, new, skip, out)
    return out


def _walk(parts: JsonPath, old: Any, new: Any, skip: Skip, out: list[Difference]) -> None:
    if skip(parts, old, new):
        return
    if old is MISSING or new is MISSING:
        out.append(Difference(parts, old, new))
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            _walk((*parts, key), old[key], new.get(key, MISSING), skip, out)
        for key in new:
            if key not in old:
                _walk((*parts, key), MISSING, new[key], skip, out)
        return
    if isinstance(old, list) and isinstance(new, list):
        for before, after in _pairs(old, new):
            index = after if after is not None else before
            assert index is not None
            _walk(
                (*parts, index),
                old[before] if before is not None else MISSING,
                new[after] if after is not None else MISSING,
                skip,
                out,
            )
        return
    if not _same_scalar(old, new):
        out.append(Difference(parts, old, new))
