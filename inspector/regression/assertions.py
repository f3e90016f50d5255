"""The assertions of a saved call, and how each is checked against what the server answered (pure, no I/O).

Kinds (JSON in a collection file, ``kind`` first):

- ``{"kind": "outcome", "expect": "ok" | "isError" | "error", "code"?: N}`` — the call succeeded (a result
  without ``isError: true``), was a tool error (``isError: true``), or got a JSON-RPC error (with code N, if
  given);
- ``{"kind": "equals", "path": P, "value": V}``, ``{"kind": "contains", "path": P, "value": V}``,
  ``{"kind": "matches", "path": P, "regex": R}`` — JSON path patterns (:mod:`inspector.protocol.jsonpath_query`)
  into the result (or, for a JSON-RPC error, into the error object ``{"code", "message", "data"}``). ``contains``:
  a substring of a string, an element of a list, a subset of an object's members. ``matches``: ``re.search`` on
  a string. When the pattern selects several values, one passing is enough, unless ``"all": true``;
  selecting nothing fails;
- ``{"kind": "output_schema"}`` — ``structuredContent`` is valid against the tool's ``outputSchema`` from the
  live ``tools/list`` (tools/call only);
- ``{"kind": "content_types", "types": [...]}`` — each type is present among the content blocks (``content[*]``
  of a tool result, ``messages[*].content`` of a prompt; ``text`` / ``blob`` for a resource's ``contents``);
- ``{"kind": "latency", "max_ms": N}`` — answered within N milliseconds (all rounds included).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.protocol.jsonpath import format_path
from inspector.protocol.jsonpath_query import JsonPathError, compile_pattern

__all__ = [
    "KINDS",
    "OUTCOMES",
    "Assertion",
    "AssertionResult",
    "Observed",
    "assertion_from_json",
    "check",
    "outcome",
    "short_json",
]

KINDS: Final = ("outcome", "equals", "contains", "matches", "output_schema", "content_types", "latency")
OUTCOMES: Final = ("ok", "isError", "error")
_PATH_KINDS: Final = ("equals", "contains", "matches")
_FIELDS: Final = {
    "outcome": frozenset({"kind", "expect", "code"}),
    "equals": frozenset({"kind", "path", "value", "all"}),
    "contains": frozenset({"kind", "path", "value", "all"}),
    "matches": frozenset({"kind", "path", "regex", "all"}),
    "output_schema": frozenset({"kind"}),
    "content_types": frozenset({"kind", "types"}),
    "latency": frozenset({"kind", "max_ms"}),
}
_MISSING: Final = object()


@dataclass(frozen=True, slots=True)
class Assertion:
    kind: str
    expect: str = "ok"
    code: int | None = None
    path: str = "$"
    value: Any = None
    regex: str = ""
    every: bool = False
    types: tuple[str, ...] = ()
    max_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "outcome":
            out["expect"] = self.expect
            if self.code is not None:
                out["code"] = self.code
        elif self.kind in _PATH_KINDS:
            out["path"] = self.path
            if self.kind == "matches":
                out["regex"] = self.regex
            else:
                out["value"] = _sorted(self.value)
            if self.every:
                out["all"] = True
        elif self.kind == "content_types":
            out["types"] = list(self.types)
        elif self.kind == "latency":
            out["max_ms"] = int(self.max_ms) if float(self.max_ms).is_integer() else self.max_ms
        return out

    def describe(self) -> str:
        """One line: ``outcome is ok``, ``$.content[0].text equals "hi"``, ``latency under 500 ms``."""
        if self.kind == "outcome":
            return f"outcome is {self.expect}" + (f" {self.code}" if self.code is not None else "")
        if self.kind in _PATH_KINDS:
            what = f"/{self.regex}/" if self.kind == "matches" else short_json(self.value)
            quantifier = " (every value)" if self.every else ""
            return f"{self.path} {self.kind} {what}{quantifier}"
        if self.kind == "output_schema":
            return "structuredContent valid against the tool's outputSchema"
        if self.kind == "content_types":
            return f"content types include {', '.join(self.types)}"
        return f"latency under {short_json(self.to_json()['max_ms'])} ms"


def outcome(expect: str = "ok", code: int | None = None) -> Assertion:
    return Assertion("outcome", expect=expect, code=code)


def _sorted(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _sorted(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [_sorted(item) for item in value]
    return value


def short_json(value: Any, limit: int = 120) -> str:
    """A value as compact JSON, cut at ``limit`` characters."""
    if value is _MISSING:
        return "(nothing)"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is a whole number, not {short_json(value)}")
    return value


def assertion_from_json(raw: Any, method: str = "") -> Assertion:
    """Read one assertion; ValueError ("field: problem") for anything this module cannot check."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"an assertion is an object, not {short_json(raw)}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise ValueError(f"kind: one of {', '.join(KINDS)}, not {short_json(raw.get('kind', _MISSING))}")
    unknown = sorted(set(raw) - _FIELDS[kind])
    if unknown:
        raise ValueError(f"{unknown[0]}: not a field of a {kind} assertion ({', '.join(sorted(_FIELDS[kind]))})")
    if kind == "outcome":
        expect = raw.get("expect", "ok")
        if expect not in OUTCOMES:
            raise ValueError(f"expect: one of {', '.join(OUTCOMES)}, not {short_json(expect)}")
        code = raw.get("code")
        if code is not None:
            if expect != "error":
                raise ValueError('code: only with "expect": "error"')
            code = _whole(code, "code")
        return outcome(expect, code)
    if kind in _PATH_KINDS:
        path = raw.get("path")
        if not isinstance(path, str):
            raise ValueError("path: a JSON path pattern such as $.content[0].text")
        try:
            compile_pattern(path)
        except JsonPathError as exc:
            raise ValueError(f"path: {exc}") from None
        every = raw.get("all", False)
        if not isinstance(every, bool):
            raise ValueError("all: true or false")
        if kind == "matches":
            regex = raw.get("regex")
            if not isinstance(regex, str):
                raise ValueError("regex: a regular expression (a string)")
            try:
                re.compile(regex)
            except re.error as exc:
                raise ValueError(f"regex: not a regular expression ({exc})") from None
            return Assertion(kind, path=path, regex=regex, every=every)
        if "value" not in raw:
            raise ValueError("value: required (the expected JSON value)")
        return Assertion(kind, path=path, value=raw["value"], every=every)
    if kind == "output_schema":
        if method and method != "tools/call":
            raise ValueError("output_schema: only for tools/call")
        return Assertion(kind)
    if kind == "content_types":
        types = raw.get("types")
        if not isinstance(types, list) or not types or not all(isinstance(t, str) and t for t in types):
            raise ValueError('types: a non-empty list of content types such as ["text", "image"]')
        return Assertion(kind, types=tuple(types))
    max_ms = raw.get("max_ms")
    if isinstance(max_ms, bool) or not isinstance(max_ms, int | float) or not max_ms > 0:
        raise ValueError(f"max_ms: a positive number of milliseconds, not {short_json(raw.get('max_ms', _MISSING))}")
    return Assertion(kind, max_ms=float(max_ms))


# --- checking -------------------------------------------------------------------------------------------

Outcome = Literal["ok", "isError", "error", "failed"]


def _first_text(result: Any) -> str:
    """A tool result's first text block, its whitespace collapsed, cut at 200 characters."""
    content = result.get("content") if isinstance(result, Mapping) else None
    for block in content if isinstance(content, list) else []:
        if isinstance(block, Mapping) and block.get("type") == "text" and isinstance(block.get("text"), str):
            text = " ".join(block["text"].split())
            return text if len(text) <= 200 else text[:199] + "…"
    return ""


@dataclass(frozen=True, slots=True)
class Observed:
    """What one call got: ``outcome`` ``failed`` is no answer at all (timeout, connection lost: ``failure``)."""

    method: str
    outcome: Outcome
    result: Any = None
    error: Mapping[str, Any] | None = None
    failure: str = ""
    latency_ms: float = 0.0
    output_schema: Mapping[str, Any] | None = None
    """The tool's outputSchema in the live tools/list (None: it declares none, or tools/call was not listed)."""
    tool_listed: bool | None = None
    """tools/call: whether the tool is in the live tools/list (None: not listed)."""

    def describe(self) -> str:
        if self.outcome == "failed":
            return f"no answer: {self.failure}"
        if self.outcome == "error":
            error = self.error or {}
            return f"JSON-RPC error {error.get('code')}: {error.get('message', '')}".rstrip(": ")
        if self.outcome == "isError":
            text = _first_text(self.result)
            return f"isError: {text}" if text else "isError"
        return self.outcome

    @property
    def document(self) -> Any:
        return dict(self.error or {}) if self.outcome == "error" else self.result


@dataclass(frozen=True, slots=True)
class AssertionResult:
    assertion: Assertion
    passed: bool
    message: str
    """Why it failed (or what passed), one line."""
    actual: Any = None
    """The actual value it was checked against (JSON)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "assertion": self.assertion.to_json(),
            "description": self.assertion.describe(),
            "passed": self.passed,
            "message": self.message,
            "actual": self.actual,
        }


def _contains(container: Any, wanted: Any) -> bool:
    if isinstance(container, str):
        return isinstance(wanted, str) and wanted in container
    if isinstance(container, list):
        return any(_equal(item, wanted) for item in container)
    if isinstance(container, Mapping) and isinstance(wanted, Mapping):
        return all(key in container and _equal(container[key], value) for key, value in wanted.items())
    return False


def _equal(left: Any, right: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but ``True != 1``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(_equal(left[key], right[key]) for key in left)
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(_equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    return type(left) is type(right) and bool(left == right)


def _value_check(assertion: Assertion, value: Any) -> bool:
    if assertion.kind == "equals":
        return _equal(value, assertion.value)
    if assertion.kind == "contains":
        return _contains(value, assertion.value)
    return isinstance(value, str) and re.search(assertion.regex, value) is not None


def _check_path(assertion: Assertion, observed: Observed) -> AssertionResult:
    found = compile_pattern(assertion.path).select(observed.document)
    if not found:
        return AssertionResult(assertion, False, f"nothing at {assertion.path}", None)
    verdicts = [(_value_check(assertion, value), path, value) for path, value in found]
    single = len(found) == 1
    actual = found[0][1] if single else [value for _path, value in found]
    if assertion.every:
        failing = next(((path, value) for ok, path, value in verdicts if not ok), None)
        if failing is None:
            return AssertionResult(assertion, True, f"all {len(found)} values pass", actual)
        path, value = failing
        return AssertionResult(assertion, False, f"{format_path(path)} is {short_json(value)}", value)
    passing = next(((path, value) for ok, path, value in verdicts if ok), None)
    if passing is not None:
        return AssertionResult(assertion, True, f"{format_path(passing[0])} passes", passing[1])
    if single:
        return AssertionResult(assertion, False, f"{format_path(found[0][0])} is {short_json(actual)}", actual)
    return AssertionResult(assertion, False, f"none of the {len(found)} values passes: {short_json(actual)}", actual)


def _content_types(observed: Observed) -> list[str]:
    result = observed.result if isinstance(observed.result, Mapping) else {}
    types: list[str] = []
    if observed.method == "resources/read":
        for item in result.get("contents") or []:
            if isinstance(item, Mapping):
                types.extend(key for key in ("text", "blob") if key in item)
        return types
    if observed.method == "prompts/get":
        blocks = [m.get("content") for m in result.get("messages") or [] if isinstance(m, Mapping)]
    else:
        blocks = list(result.get("content") or [])
    return [block["type"] for block in blocks if isinstance(block, Mapping) and isinstance(block.get("type"), str)]


def _check_output_schema(assertion: Assertion, observed: Observed) -> AssertionResult:
    if observed.tool_listed is False:
        return AssertionResult(assertion, False, "the tool is not in the server's tools/list", None)
    if observed.output_schema is None:
        return AssertionResult(assertion, False, "the tool declares no outputSchema", None)
    result = observed.result if isinstance(observed.result, Mapping) else {}
    if "structuredContent" not in result:
        return AssertionResult(assertion, False, "the result has no structuredContent", None)
    from inspector.schema.validate import SchemaValidator

    structured = result["structuredContent"]
    errors = SchemaValidator(dict(observed.output_schema)).errors(structured)
    if not errors:
        return AssertionResult(assertion, True, "valid", structured)
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    where = format_path(first.path, "$.structuredContent")
    return AssertionResult(assertion, False, f"{where}: {first.message}{more}", structured)


def check(assertion: Assertion, observed: Observed) -> AssertionResult:
    """Check one assertion against what the call got."""
    if assertion.kind == "outcome":
        actual = observed.describe()
        if observed.outcome == "failed":
            return AssertionResult(assertion, False, actual, actual)
        passed = observed.outcome == assertion.expect
        if passed and assertion.code is not None:
            passed = (observed.error or {}).get("code") == assertion.code
        return AssertionResult(assertion, passed, f"the outcome: {actual}", actual)
    if assertion.kind == "latency":
        passed = observed.outcome != "failed" and observed.latency_ms <= assertion.max_ms
        actual_ms = round(observed.latency_ms, 1)
        return AssertionResult(assertion, passed, f"answered in {actual_ms} ms", actual_ms)
    if observed.outcome == "failed":
        return AssertionResult(assertion, False, observed.describe(), None)
    if assertion.kind in _PATH_KINDS:
        return _check_path(assertion, observed)
    if assertion.kind == "content_types":
        present = _content_types(observed)
        missing = [kind for kind in assertion.types if kind not in present]
        message = f"missing {', '.join(missing)}; present: {', '.join(present) or 'none'}" if missing else "present"
        return AssertionResult(assertion, not missing, message, present)
    return _check_output_schema(assertion, observed)
