"""Collection files: saved calls with assertions (JSON, version 1; the schema is ``docs/collection.schema.json``).

A collection is ``{"version": 1, "name": ..., "description"?: ..., "calls": [...]}``; every call is
``{"name", "method", "params"?, "timeout_ms"?, "assertions": [...]}`` — ``tools/call`` (params ``{"name",
"arguments"}``), ``resources/read`` (``{"uri"}``), ``prompts/get`` (``{"name", "arguments"}``) or any other request
(its method and params as sent). The assertion kinds are in :mod:`inspector.regression.assertions`.

Files are written diff-friendly: the collection's own keys in a fixed order, the user's data (params, expected
values) with sorted keys, indent 2, a trailing newline, so that saving what was loaded writes the same bytes.
Loading checks everything and raises :class:`CollectionError` naming the file, the call and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from inspector.protocol.jsontypes import json_type_phrase
from inspector.regression.assertions import Assertion, assertion_from_json

__all__ = [
    "FORMAT_VERSION",
    "Collection",
    "CollectionError",
    "SavedCall",
    "call_for",
    "dumps_collection",
    "edited_request",
    "load_collection",
    "loads_collection",
    "parse_params",
    "save_collection",
]

FORMAT_VERSION: Final = 1
KNOWN_METHODS: Final = ("tools/call", "resources/read", "prompts/get")
_COLLECTION_KEYS: Final = frozenset({"$schema", "version", "name", "description", "calls"})
_CALL_KEYS: Final = frozenset({"name", "method", "params", "timeout_ms", "assertions"})


class CollectionError(ValueError):
    """A collection that cannot be used; ``str()`` says where: ``FILE: call 'NAME': field: problem``."""

    def __init__(self, problem: str, *, source: str = "", call: str | None = None, field_name: str = "") -> None:
        self.problem, self.source, self.call, self.field_name = problem, source, call, field_name
        where = [part for part in (source, f"call {call!r}" if call is not None else "", field_name) if part]
        super().__init__(": ".join([*where, problem]))


@dataclass(frozen=True, slots=True)
class SavedCall:
    name: str
    method: str
    params: Mapping[str, Any] | None = None
    assertions: tuple[Assertion, ...] = ()
    timeout_ms: int | None = None

    @property
    def subject(self) -> str | None:
        """The tool or prompt name, the resource URI (None for other requests)."""
        params = self.params or {}
        key = "uri" if self.method == "resources/read" else "name"
        value = params.get(key) if self.method in KNOWN_METHODS else None
        return value if isinstance(value, str) else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "method": self.method}
        if self.params is not None:
            out["params"] = _sorted(self.params)
        if self.timeout_ms is not None:
            out["timeout_ms"] = self.timeout_ms
        out["assertions"] = [assertion.to_json() for assertion in self.assertions]
        return out


@dataclass(frozen=True, slots=True)
class Collection:
    name: str
    calls: tuple[SavedCall, ...] = ()
    description: str = ""
    source: str = field(default="", compare=False)
    """The file it was loaded from ("" for a new one)."""

    def call(self, name: str) -> SavedCall:
        for saved in self.calls:
            if saved.name == name:
                return saved
        raise KeyError(name)

    def with_call(self, saved: SavedCall) -> Collection:
        """This collection with ``saved`` replacing the call of the same name, or appended."""
        calls = list(self.calls)
        for index, existing in enumerate(calls):
            if existing.name == saved.name:
                calls[index] = saved
                break
        else:
            calls.append(saved)
        return replace(self, calls=tuple(calls))

    def without_call(self, name: str) -> Collection:
        return replace(self, calls=tuple(saved for saved in self.calls if saved.name != name))

    def index_of(self, name: str) -> int:
        """The position of the call named ``name`` in the run order (KeyError when there is none)."""
        for index, saved in enumerate(self.calls):
            if saved.name == name:
                return index
        raise KeyError(name)

    def _with_at(self, index: int, saved: SavedCall) -> Collection:
        calls = list(self.calls)
        calls[index] = saved
        return replace(self, calls=tuple(calls))

    def renamed(self, old: str, new: str) -> Collection:
        """The call ``old`` named ``new`` (stripped), in its place; CollectionError for an empty or taken name."""
        index = self.index_of(old)
        name = new.strip()
        if not name:
            raise CollectionError("a call needs a non-empty name", call=old, field_name="name")
        if name != old and any(saved.name == name for saved in self.calls):
            raise CollectionError(
                f"another call is named {name!r} already (names are unique in a collection)",
                call=old,
                field_name="name",
            )
        return self._with_at(index, replace(self.calls[index], name=name))

    def with_request(self, name: str, method: str, params: Mapping[str, Any] | None) -> Collection:
        """The call ``name`` sending ``method`` with ``params`` instead (see :func:`edited_request`)."""
        index = self.index_of(name)
        return self._with_at(index, edited_request(self.calls[index], method, params))

    def copy_name(self, name: str) -> str:
        """A free name for a copy of ``name``: ``name (copy)``, else ``name (copy 2)``, ``name (copy 3)``..."""
        names = {saved.name for saved in self.calls}
        candidate, count = f"{name} (copy)", 2
        while candidate in names:
            candidate, count = f"{name} (copy {count})", count + 1
        return candidate

    def duplicated(self, name: str) -> tuple[Collection, SavedCall]:
        """This collection with a copy of the call ``name`` (see :meth:`copy_name`) right after it, and the copy."""
        index = self.index_of(name)
        copy = replace(self.calls[index], name=self.copy_name(name))
        calls = list(self.calls)
        calls.insert(index + 1, copy)
        return replace(self, calls=tuple(calls)), copy

    def moved(self, name: str, delta: int) -> Collection:
        """The call ``name`` moved ``delta`` places in the run order (negative: earlier), stopping at either end."""
        index = self.index_of(name)
        target = max(0, min(len(self.calls) - 1, index + delta))
        if target == index:
            return self
        calls = list(self.calls)
        calls.insert(target, calls.pop(index))
        return replace(self, calls=tuple(calls))

    def unique_name(self, wanted: str) -> str:
        """``wanted``, or ``wanted (2)``, ``wanted (3)``... when a call has it already."""
        names = {saved.name for saved in self.calls}
        if wanted not in names:
            return wanted
        count = 2
        while f"{wanted} ({count})" in names:
            count += 1
        return f"{wanted} ({count})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": FORMAT_VERSION, "name": self.name}
        if self.description:
            out["description"] = self.description
        out["calls"] = [saved.to_json() for saved in self.calls]
        return out


def call_for(method: str, params: Mapping[str, Any] | None, *, name: str = "") -> SavedCall:
    """A new saved call of a request as sent, with the one assertion every call starts with: outcome ok."""
    from inspector.regression.assertions import outcome

    params = dict(params) if params is not None else None
    if params is not None:
        params.pop("_meta", None)
    subject = SavedCall("", method, params).subject
    title = name or (f"{method} {subject}" if subject else method)
    return SavedCall(title, method, params, (outcome("ok"),))


def parse_params(text: str) -> dict[str, Any] | None:
    """The params typed for a request: a JSON object, or None for an empty text (a request without params).

    CollectionError (``field_name`` "params") says why not: the parse error with its line and column, or what the
    value is instead of an object."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CollectionError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", field_name="params"
        ) from None
    if not isinstance(value, dict):
        raise CollectionError(
            f"a JSON object {{...}}, not {json_type_phrase(value)} (leave it empty for a request without params)",
            field_name="params",
        )
    return value


def edited_request(saved: SavedCall, method: str, params: Mapping[str, Any] | None) -> SavedCall:
    """``saved`` sending ``method`` (stripped) with ``params``, its name, assertions and timeout kept.

    CollectionError when a file could not hold the request (the checks a loaded file passes) or one of the
    assertions does not apply to the new method (``field_name`` ``assertions[N]``)."""
    method = method.strip()
    where = {"call": saved.name}
    _check_request(method, params, where)
    for number, assertion in enumerate(saved.assertions):
        try:
            assertion_from_json(assertion.to_json(), method)
        except ValueError as exc:
            raise CollectionError(
                f"{exc} (edit or remove this assertion first)", field_name=f"assertions[{number}]", **where
            ) from None
    return replace(saved, method=method, params=dict(params) if params is not None else None)


def _sorted(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _sorted(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [_sorted(item) for item in value]
    return value


def dumps_collection(collection: Collection) -> str:
    return json.dumps(collection.to_json(), indent=2, ensure_ascii=False) + "\n"


def save_collection(collection: Collection, path: str | Path) -> None:
    """Write atomically (a sibling temporary file renamed over the target)."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(dumps_collection(collection), encoding="utf-8")
    temporary.replace(target)


def _check_keys(found: Mapping[str, Any], allowed: frozenset[str], **where: Any) -> None:
    unknown = sorted(set(found) - allowed)
    if unknown:
        raise CollectionError(f"unknown field (allowed: {', '.join(sorted(allowed))})", field_name=unknown[0], **where)


def _check_request(method: Any, params: Any, where: Mapping[str, Any]) -> str:
    """The checks a call's method and params pass, in a file and in an edit (CollectionError naming the field);
    the method."""
    if not isinstance(method, str) or not method.strip():
        raise CollectionError("a non-empty string (the request's method)", field_name="method", **where)
    if params is not None and not isinstance(params, Mapping):
        raise CollectionError("an object (the request's params) or absent", field_name="params", **where)
    if method in KNOWN_METHODS:
        key = "uri" if method == "resources/read" else "name"
        if not isinstance((params or {}).get(key), str):
            raise CollectionError(f"{method} needs a string {key!r}", field_name=f"params.{key}", **where)
        arguments = (params or {}).get("arguments")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise CollectionError("an object or absent", field_name="params.arguments", **where)
    return method


def _call_from_json(raw: Any, index: int, source: str, names: set[str]) -> SavedCall:
    label = f"calls[{index}]"
    if not isinstance(raw, Mapping):
        raise CollectionError("a call is an object", source=source, field_name=label)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CollectionError("every call has a non-empty string name", source=source, field_name=f"{label}.name")
    where: dict[str, Any] = {"source": source, "call": name}
    if name in names:
        raise CollectionError("two calls have this name (names are unique in a collection)", **where)
    names.add(name)
    _check_keys(raw, _CALL_KEYS, **where)
    params = raw.get("params")
    method = _check_request(raw.get("method"), params, where)
    timeout = raw.get("timeout_ms")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int) or timeout < 1):
        raise CollectionError("a positive whole number of milliseconds", field_name="timeout_ms", **where)
    listed = raw.get("assertions", [])
    if not isinstance(listed, list):
        raise CollectionError("a list of assertions", field_name="assertions", **where)
    assertions: list[Assertion] = []
    for number, item in enumerate(listed):
        try:
            assertions.append(assertion_from_json(item, method))
        except ValueError as exc:
            raise CollectionError(str(exc), field_name=f"assertions[{number}]", **where) from None
    return SavedCall(name, method, dict(params) if params is not None else None, tuple(assertions), timeout)


def _collection_from_json(raw: Any, source: str) -> Collection:
    if not isinstance(raw, Mapping):
        raise CollectionError("a collection is a JSON object", source=source)
    _check_keys(raw, _COLLECTION_KEYS, source=source)
    version = raw.get("version")
    if version != FORMAT_VERSION:
        problem = f"this inspector reads version {FORMAT_VERSION}" + (
            f", not {version!r}" if version is not None else " (the field is missing)"
        )
        raise CollectionError(problem, source=source, field_name="version")
    name = raw.get("name")
    if not isinstance(name, str):
        raise CollectionError("a string (the collection's name)", source=source, field_name="name")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise CollectionError("a string or absent", source=source, field_name="description")
    calls = raw.get("calls")
    if not isinstance(calls, Sequence) or isinstance(calls, str):
        raise CollectionError("a list of calls", source=source, field_name="calls")
    names: set[str] = set()
    saved = tuple(_call_from_json(item, index, source, names) for index, item in enumerate(calls))
    return Collection(name, saved, description, source)


def loads_collection(text: str, source: str = "") -> Collection:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CollectionError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source) from None
    return _collection_from_json(raw, source)


def load_collection(path: str | Path) -> Collection:
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CollectionError(f"cannot read the file ({exc.strerror or exc})", source=source) from None
    except UnicodeDecodeError:
        raise CollectionError("not UTF-8 text", source=source) from None
    return loads_collection(text, source)
