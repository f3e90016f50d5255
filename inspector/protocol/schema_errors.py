"""Turn pydantic validation errors into diagnostics a person can act on.

pydantic reports every arm of a union and puts internal names (union member class names,
``function-after[...]``) into its error locations. Here each error's location is walked through
the actual input, so the JSON path names only real keys and indices, and for every union the one
arm the input was evidently meant for is kept: an arm whose discriminator (``type``/``mode``)
did not match is dropped; among the rest, the arm with the fewest errors wins. When no arm's
discriminator matched, one error says so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.jsonpath import format_path

__all__ = ["MAX_DIAGNOSTICS_PER_MESSAGE", "diagnostics_from"]

MAX_DIAGNOSTICS_PER_MESSAGE: Final = 8
_DISCRIMINATORS: Final = frozenset({"type", "mode"})
_QUOTED: Final = re.compile(r"'([^']*)'")


@dataclass(slots=True)
class _Error:
    msg: str
    kind: str
    path: list[int | str]
    """Real keys and indices into the input."""
    tags: list[tuple[int, str]]
    """(depth in ``path``, name) of every location part that is not a key or index: the union arms taken."""

    def arm(self, k: int) -> tuple[tuple[int | str, ...], str]:
        depth, tag = self.tags[k]
        return tuple(self.path[:depth]), tag

    @property
    def discriminator_failed(self) -> bool:
        return (
            bool(self.path) and self.path[-1] in _DISCRIMINATORS and self.kind in ("literal_error", "missing", "enum")
        )


def _walk(loc: tuple[int | str, ...], data: Any, missing: bool) -> tuple[list[int | str], list[tuple[int, str]]]:
    node = data
    path: list[int | str] = []
    tags: list[tuple[int, str]] = []
    last = len(loc) - 1
    for i, part in enumerate(loc):
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif missing and i == last and isinstance(part, str) and isinstance(node, dict):
            path.append(part)  # a missing key
            node = None
        else:
            tags.append((len(path), str(part)))
    return path, tags


def _prune(errors: list[_Error], k: int = 0) -> list[_Error]:
    """Keep, at union level ``k`` and below, only the errors of the arm that was meant."""
    kept = [e for e in errors if len(e.tags) <= k]
    unions: dict[tuple[int | str, ...], dict[str, list[_Error]]] = defaultdict(lambda: defaultdict(list))
    for e in errors:
        if len(e.tags) > k:
            prefix, tag = e.arm(k)
            unions[prefix][tag].append(e)
    for arms in unions.values():
        if len(arms) == 1:
            kept.extend(_prune(next(iter(arms.values())), k + 1))
            continue
        plausible = {tag: errs for tag, errs in arms.items() if not any(e.discriminator_failed for e in errs)}
        if plausible:
            fewest = min(len(errs) for errs in plausible.values())
            tied = [_prune(errs, k + 1) for errs in plausible.values() if len(errs) == fewest]
            kept.extend(tied[0] if len(tied) == 1 else _merge_tied(tied))
        else:
            kept.append(_merge_discriminator_errors([e for errs in arms.values() for e in errs]))
    return kept


def _merge_tied(arms: list[list[_Error]]) -> list[_Error]:
    """Arms that fit equally badly: one error per path, naming every arm's complaint."""
    by_path: dict[tuple[int | str, ...], list[_Error]] = {}
    for errs in arms:
        for e in errs:
            by_path.setdefault(tuple(e.path), []).append(e)
    merged: list[_Error] = []
    for group in by_path.values():
        msgs = list(dict.fromkeys(e.msg for e in group))
        first = group[0]
        merged.append(first if len(msgs) == 1 else _Error("one of: " + "; ".join(msgs), first.kind, first.path, []))
    return merged


def _merge_discriminator_errors(errors: list[_Error]) -> _Error:
    tag_errors = [e for e in errors if e.discriminator_failed]
    first = tag_errors[0] if tag_errors else errors[0]
    if first.kind == "missing":
        return first
    expected: list[str] = []
    for e in tag_errors:
        for value in _QUOTED.findall(e.msg):
            if value not in expected:
                expected.append(value)
    if len(expected) > 1:
        msg = "Input should be " + ", ".join(repr(v) for v in expected[:-1]) + f" or {expected[-1]!r}"
        return _Error(msg, first.kind, first.path, [])
    return first


def diagnostics_from(exc: ValidationError, data: Any, root: str, what: str, strip: int = 0) -> list[Diagnostic]:
    """Diagnostics for ``exc`` raised while validating ``data``; ``strip`` drops leading loc parts."""
    errors: list[_Error] = []
    for err in exc.errors(include_url=False, include_context=False):
        loc = tuple(err["loc"])
        path, tags = _walk(loc, data, err["type"] == "missing")
        errors.append(_Error(err["msg"], err["type"], path[strip:], [(d - strip, t) for d, t in tags]))
    errors = _prune(errors)
    errors.sort(key=lambda e: -len(e.path))  # the most specific failures first
    seen: set[tuple[str, str]] = set()
    diags: list[Diagnostic] = []
    for e in errors:
        where = format_path(e.path, root)
        if (where, e.msg) in seen:
            continue
        seen.add((where, e.msg))
        diags.append(Diagnostic(DiagnosticCode.SCHEMA, f"{what}: {e.msg}", path=where))
        if len(diags) == MAX_DIAGNOSTICS_PER_MESSAGE:
            more = len(errors) - len(diags)
            if more > 0:
                diags.append(Diagnostic(DiagnosticCode.SCHEMA, f"{what}: and {more} more schema errors", path=root))
            break
    return diags
