"""JSON path patterns: select values from a document, or test a concrete path against a pattern (sans-I/O).

Patterns extend the one notation of ``inspector.protocol.jsonpath`` (``$.result.tools[0]["odd key"]``) with a few
of RFC 9535's selectors:

- ``$`` — the root (every pattern starts with it);
- ``.name`` / ``["key"]`` / ``['key']`` — a member of an object;
- ``[n]`` — an element of an array (``n >= 0``; ``["0"]`` is the *key* ``"0"``, not an index);
- ``[*]`` / ``.*`` — every member of an object or element of an array;
- ``..name`` / ``..["key"]`` / ``..[n]`` / ``..*`` — the same selector applied to the node and every node
  below it (recursive descent).

``select(document, pattern)`` returns ``(path, value)`` pairs in document order, where ``path`` is the concrete
``JsonPath`` of the value (``format_path`` writes it). ``matches(pattern, path)`` says whether a concrete path is
one ``select`` could return (``descendants=True``: or lies below one). A malformed pattern raises
``JsonPathError`` (a ``ValueError``) naming the pattern and the character where it went wrong.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from inspector.protocol.jsonpath import JsonPath, PathPart, parse_path

__all__ = ["JsonPathError", "JsonPattern", "compile_pattern", "matches", "select"]

_WILDCARD: Final = "*"


class JsonPathError(ValueError):
    """A pattern that cannot be read: the message names the pattern and where it went wrong."""


@dataclass(frozen=True, slots=True)
class _Step:
    """One segment: ``key`` a member name, ``index`` an array index, neither a wildcard; ``deep`` for ``..``."""

    key: str | None = None
    index: int | None = None
    deep: bool = False

    @property
    def wildcard(self) -> bool:
        return self.key is None and self.index is None

    def accepts(self, part: PathPart) -> bool:
        if self.wildcard:
            return True
        if isinstance(part, int):
            return self.index == part
        return self.key == part


_SEGMENT: Final = re.compile(
    r"""(?P<dots>\.\.?)(?:(?P<star>\*)|(?P<name>[^.\[\]\s"'*]+))?"""
    r"""|\[\s*(?:(?P<bstar>\*)|(?P<index>-?\d+)|(?P<quoted>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))\s*\]"""
)


def _fail(pattern: str, pos: int, why: str) -> JsonPathError:
    return JsonPathError(f"bad JSON path pattern {pattern!r} at character {pos}: {why}")


def _parse(pattern: str) -> tuple[_Step, ...]:
    if not isinstance(pattern, str):
        raise JsonPathError(f"a JSON path pattern is a string, not {type(pattern).__name__}")
    text = pattern.strip()
    if not text.startswith("$"):
        raise _fail(pattern, 0, "a pattern starts with $")
    steps: list[_Step] = []
    pos = 1
    pending_deep = False  # a bare ``..`` waiting for the bracket selector that follows it
    while pos < len(text):
        match = _SEGMENT.match(text, pos)
        if match is None:
            raise _fail(pattern, pos, f"unexpected {text[pos]!r}")
        dots, star, name, bstar, index, quoted = match.group("dots", "star", "name", "bstar", "index", "quoted")
        if dots is not None:
            if pending_deep:
                raise _fail(pattern, pos, "'..' must be followed by a name, '*' or a bracket")
            deep = dots == ".."
            if star is None and name is None:
                if not deep:
                    raise _fail(pattern, match.end(), "a name or '*' must follow '.'")
                pending_deep = True
            elif star is not None:
                steps.append(_Step(deep=deep))
            else:
                steps.append(_Step(key=name, deep=deep))
        else:
            deep, pending_deep = pending_deep, False
            if bstar is not None:
                steps.append(_Step(deep=deep))
            elif index is not None:
                number = int(index)
                if number < 0:
                    raise _fail(pattern, pos, "negative indices are not supported")
                steps.append(_Step(index=number, deep=deep))
            else:
                try:
                    key = json.loads(quoted) if quoted.startswith('"') else ast.literal_eval(quoted)
                except (ValueError, SyntaxError) as exc:
                    raise _fail(pattern, pos, f"the quoted key does not read back ({exc})") from None
                steps.append(_Step(key=str(key), deep=deep))
        pos = match.end()
    if pending_deep:
        raise _fail(pattern, len(text), "'..' must be followed by a name, '*' or a bracket")
    return tuple(steps)


def _children(value: object) -> Iterator[tuple[PathPart, object]]:
    if isinstance(value, dict):
        yield from ((str(key), child) for key, child in value.items())
    elif isinstance(value, list):
        yield from enumerate(value)


def _step_once(step: _Step, value: object) -> Iterator[tuple[PathPart, object]]:
    if step.wildcard:
        yield from _children(value)
    elif step.key is not None:
        if isinstance(value, dict) and step.key in value:
            yield step.key, value[step.key]
    elif isinstance(value, list) and step.index is not None and step.index < len(value):
        yield step.index, value[step.index]


def _descend(step: _Step, path: JsonPath, value: object) -> Iterator[tuple[JsonPath, object]]:
    """``..step``: the step applied to ``value`` and to every node below it, in document (pre-)order."""
    for part, child in _step_once(step, value):
        yield (*path, part), child
    for part, child in _children(value):
        yield from _descend(step, (*path, part), child)


def _walk_matches(steps: Sequence[_Step], parts: Sequence[PathPart], *, descendants: bool) -> bool:
    if not steps:
        return descendants or not parts
    step, rest = steps[0], steps[1:]
    if not step.deep:
        return bool(parts) and step.accepts(parts[0]) and _walk_matches(rest, parts[1:], descendants=descendants)
    # ``..step``: skip zero or more parts, then one part the step accepts.
    return any(
        step.accepts(parts[skip]) and _walk_matches(rest, parts[skip + 1 :], descendants=descendants)
        for skip in range(len(parts))
    )


@dataclass(frozen=True, slots=True)
class JsonPattern:
    """A parsed pattern (``compile_pattern`` caches them); ``text`` is what it was parsed from."""

    text: str
    steps: tuple[_Step, ...]

    def select(self, document: object) -> list[tuple[JsonPath, object]]:
        nodes: list[tuple[JsonPath, object]] = [((), document)]
        for step in self.steps:
            found: list[tuple[JsonPath, object]] = []
            for path, value in nodes:
                if step.deep:
                    found.extend(_descend(step, path, value))
                else:
                    found.extend(((*path, part), child) for part, child in _step_once(step, value))
            nodes = found
        return nodes

    def matches(self, path: JsonPath | str, *, descendants: bool = False) -> bool:
        parts = parse_path(path) if isinstance(path, str) else tuple(path)
        return _walk_matches(self.steps, parts, descendants=descendants)

    @property
    def is_concrete(self) -> bool:
        """No wildcard and no recursive descent: the pattern names at most one value."""
        return all(not step.deep and not step.wildcard for step in self.steps)


@lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> JsonPattern:
    """The parsed pattern; raises ``JsonPathError`` for a malformed one."""
    return JsonPattern(pattern, _parse(pattern))


def select(document: object, pattern: str) -> list[tuple[JsonPath, object]]:
    """Every ``(path, value)`` of ``document`` the pattern selects, in document order (empty when none)."""
    return compile_pattern(pattern).select(document)


def matches(pattern: str, concrete_path: JsonPath | str, *, descendants: bool = False) -> bool:
    """Whether ``concrete_path`` (parts, or a path ``format_path`` wrote) is one the pattern selects;
    ``descendants=True`` also accepts any path below one (``$.result._meta`` covers ``$.result._meta.ts``)."""
    return compile_pattern(pattern).matches(concrete_path, descendants=descendants)
