"""One classified change between two surfaces, and the JSON paths that name what changed.

A :class:`Change` is **breaking** (a client that worked with the old surface may fail with the new one),
**compatible** (the new surface offers more, or promises more) or **cosmetic** (descriptions, titles, order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

__all__ = ["KIND_ORDER", "Change", "ChangeKind", "breaking_count", "counts", "key_path"]


class ChangeKind(StrEnum):
    BREAKING = "breaking"
    COMPATIBLE = "compatible"
    COSMETIC = "cosmetic"


KIND_ORDER: Final = (ChangeKind.BREAKING, ChangeKind.COMPATIBLE, ChangeKind.COSMETIC)
"""The order kinds are reported in: the most serious first."""

_IDENTIFIER: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_MISSING: Final = object()


@dataclass(frozen=True, slots=True)
class Change:
    """What changed (``path``, a JSON path into the surface snapshot), how serious it is and why."""

    kind: ChangeKind
    path: str
    reason: str
    old: Any = None
    """The old value at ``path`` (None when there was none)."""
    new: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "path": self.path, "reason": self.reason, "old": self.old, "new": self.new}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Change:
        return cls(ChangeKind(data["kind"]), str(data["path"]), str(data["reason"]), data.get("old"), data.get("new"))


def key_path(path: str, key: str, *, quoted: bool = False) -> str:
    """``path`` with one more step: ``.key`` for identifiers, ``["key"]`` otherwise (or always, with ``quoted``:
    for names of tools, prompts, resources and arguments)."""
    if not quoted and _IDENTIFIER.match(key):
        return f"{path}.{key}"
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'{path}["{escaped}"]'


def counts(changes: list[Change]) -> dict[str, int]:
    """How many changes of each kind (every kind present, zero or not)."""
    result = {kind.value: 0 for kind in KIND_ORDER}
    for change in changes:
        result[change.kind.value] += 1
    return result


def breaking_count(changes: list[Change]) -> int:
    return sum(1 for change in changes if change.kind is ChangeKind.BREAKING)
