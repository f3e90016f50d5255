"""The HTTP headers a 2026-07-28 request carries over Streamable HTTP (sans-I/O, plain JSON values in and out).

Every POST mirrors parts of its body into headers so intermediaries can route without parsing it:
``MCP-Protocol-Version`` (the ``_meta`` protocol version), ``Mcp-Method`` (the method), ``Mcp-Name``
(``params.name`` of ``tools/call`` and ``prompts/get``, ``params.uri`` of ``resources/read``) and one
``Mcp-Param-{Name}`` per tool argument whose property schema carries an ``x-mcp-header`` annotation.

Values that are not plain header-safe ASCII travel as ``=?base64?{UTF-8 as Base64}?=``. A tool whose
annotations break the spec's rules is dropped from ``tools/list`` by the client (:func:`filter_tools`);
the reasons become diagnostics. A server that finds headers and body disagree answers ``-32020``
(:func:`is_header_mismatch`); the client should list tools again and retry.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.jsonrpc import HEADER_MISMATCH
from inspector.protocol.jsontypes import json_type_phrase

__all__ = [
    "ALLOWED_PARAM_TYPES",
    "MAX_SAFE_INTEGER",
    "METHOD_HEADER",
    "NAME_HEADER",
    "NAME_SOURCES",
    "PARAM_HEADER_PREFIX",
    "PROTOCOL_VERSION_HEADER",
    "X_MCP_HEADER",
    "HeaderParam",
    "HeaderParams",
    "ParamHeaders",
    "ParamNote",
    "ToolDropped",
    "decode_header_value",
    "encode_header_value",
    "encode_params",
    "filter_tools",
    "header_params_by_tool",
    "is_header_mismatch",
    "is_plain_header_value",
    "param_headers",
    "request_headers",
    "standard_headers",
    "tool_header_params",
]

PROTOCOL_VERSION_HEADER: Final = "MCP-Protocol-Version"
METHOD_HEADER: Final = "Mcp-Method"
NAME_HEADER: Final = "Mcp-Name"
PARAM_HEADER_PREFIX: Final = "Mcp-Param-"
X_MCP_HEADER: Final = "x-mcp-header"

NAME_SOURCES: Final[Mapping[str, str]] = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    # the io.modelcontextprotocol/tasks extension (SEP-2663): routed to the instance holding the task
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
"""Methods that carry ``Mcp-Name``, and the ``params`` member it mirrors."""

ALLOWED_PARAM_TYPES: Final = ("string", "integer", "boolean")
"""The property types ``x-mcp-header`` may annotate (``number`` is explicitly excluded)."""

MAX_SAFE_INTEGER: Final = 2**53 - 1
"""Integers mirrored into headers must lie within +-(2**53 - 1)."""

_SENTINEL_PREFIX: Final = "=?base64?"
_SENTINEL_SUFFIX: Final = "?="
_TCHAR_PUNCTUATION: Final = frozenset("!#$%&'*+-.^_`|~")

# JSON Schema keywords whose values are schemas (2020-12, plus the draft-07 spellings). Crossing any of
# them leaves the "properties only" chain: an annotation found beyond one makes the tool invalid. Keywords
# whose values are instance data (default, const, enum, examples) are not entered, and $ref is never
# followed, so whatever sits there is data, not an annotation.
_ONE_SCHEMA: Final = frozenset(
    {
        "additionalItems",
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "items",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SCHEMA_LIST: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_SCHEMA_MAP: Final = frozenset({"$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties"})


# --- value encoding ---------------------------------------------------------------------------------


def is_plain_header_value(value: str) -> bool:
    """True when ``value`` can be sent as it is: visible ASCII and inner spaces, no edge spaces, no sentinel look.

    Tabs count as control characters here (allowed by RFC 9110 but not "safely represented").
    """
    if any(not (0x20 <= ord(ch) <= 0x7E) for ch in value):
        return False
    if value and (value[0] == " " or value[-1] == " "):
        return False
    return not (value.startswith(_SENTINEL_PREFIX) and value.endswith(_SENTINEL_SUFFIX))


def encode_header_value(value: str) -> str:
    """``value`` as it goes into ``Mcp-Name`` or ``Mcp-Param-*``: as is when plain, else the Base64 sentinel form.

    Raises ``UnicodeEncodeError`` for a string with a lone surrogate, which has no UTF-8 form to carry.
    """
    if is_plain_header_value(value):
        return value
    payload = base64.b64encode(value.encode("utf-8")).decode("ascii")
    return f"{_SENTINEL_PREFIX}{payload}{_SENTINEL_SUFFIX}"


def decode_header_value(value: str) -> str | None:
    """The original string of a header value (inverse of :func:`encode_header_value`).

    A value without the sentinel is literal. A sentinel whose payload is not canonical Base64 of UTF-8
    gives None (a corrupt header must never read as some other value).
    """
    if not (
        len(value) >= len(_SENTINEL_PREFIX) + len(_SENTINEL_SUFFIX)
        and value.startswith(_SENTINEL_PREFIX)
        and value.endswith(_SENTINEL_SUFFIX)
    ):
        return value
    payload = value[len(_SENTINEL_PREFIX) : -len(_SENTINEL_SUFFIX)]
    try:
        raw = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return None
    if base64.b64encode(raw).decode("ascii") != payload:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


# --- standard headers -------------------------------------------------------------------------------


def standard_headers(method: str, params: Mapping[str, Any] | None, protocol_version: str) -> dict[str, str]:
    """``MCP-Protocol-Version``, ``Mcp-Method`` and, where the spec asks for it, ``Mcp-Name``.

    ``Mcp-Name`` is omitted when the body has no string to mirror (the server judges such a request).
    The version and the method are sent only when they are plain header values (``Mcp-Method`` has no
    Base64 form; a method that cannot be sent as is leaves the header out rather than forging one).
    """
    headers: dict[str, str] = {}
    if is_plain_header_value(protocol_version):
        headers[PROTOCOL_VERSION_HEADER] = protocol_version
    if is_plain_header_value(method):
        headers[METHOD_HEADER] = method
    source = NAME_SOURCES.get(method)
    if source is not None and isinstance(params, Mapping):
        name = params.get(source)
        if isinstance(name, str):
            try:
                headers[NAME_HEADER] = encode_header_value(name)
            except UnicodeEncodeError:
                pass
    return headers


# --- x-mcp-header annotations -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeaderParam:
    """One annotated property: ``Mcp-Param-{header}`` mirrors the argument at ``path``."""

    header: str
    """The ``x-mcp-header`` value as the server wrote it."""
    path: tuple[str, ...]
    """The chain of ``properties`` keys from the schema root to the property."""
    type: str
    """The property's declared type: one of :data:`ALLOWED_PARAM_TYPES`."""

    @property
    def header_name(self) -> str:
        return PARAM_HEADER_PREFIX + self.header

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True, slots=True)
class HeaderParams:
    """A tool's annotated properties, or why its annotations make the tool invalid."""

    params: tuple[HeaderParam, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class ToolDropped:
    """A tool left out of a ``tools/list`` page because of its ``x-mcp-header`` annotations."""

    index: int
    """Its position in the page's ``tools`` array."""
    name: str | None
    problems: tuple[str, ...]
    tool: Any = field(default=None, compare=False, repr=False)
    """The tool as the server listed it (so a client can show what it left out)."""

    @property
    def message(self) -> str:
        who = f"tool {json.dumps(self.name, ensure_ascii=False)}" if self.name is not None else f"tool #{self.index}"
        return f"{who} was dropped: invalid x-mcp-header annotation: " + "; ".join(self.problems)


def _pointer(parts: Sequence[str]) -> str:
    """A JSON Pointer into the input schema (``/properties/a/items``), ``/`` and ``~`` escaped."""
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts) or "/"


def _positions(root: dict[str, Any]) -> Iterator[tuple[tuple[str, ...] | None, tuple[str, ...], dict[str, Any]]]:
    """Every schema object under ``root`` in document order: (properties path or None, pointer parts, schema).

    The properties path is None once any keyword other than ``properties`` was crossed. Iterative, so
    a deeply nested schema cannot exhaust the stack.
    """
    stack: list[tuple[tuple[str, ...] | None, tuple[str, ...], Any]] = [((), (), root)]
    while stack:
        path, where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield path, where, node
        children: list[tuple[tuple[str, ...] | None, tuple[str, ...], Any]] = []
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    children.append((None if path is None else (*path, name), (*where, key, name), sub))
            elif key in _SCHEMA_LIST and isinstance(value, list):
                children.extend((None, (*where, key, str(i)), sub) for i, sub in enumerate(value))
            elif key in _ONE_SCHEMA:
                children.append((None, (*where, key), value))
            elif key in _SCHEMA_MAP and isinstance(value, dict):
                children.extend((None, (*where, key, name), sub) for name, sub in value.items())
        stack.extend(reversed(children))


def _token_problem(header: str) -> str | None:
    """Why ``header`` is not an RFC 9110 token (``1*tchar``), or None."""
    if not header:
        return "is empty"
    for i, ch in enumerate(header):
        code = ord(ch)
        if code < 0x20 or code == 0x7F:
            return f"contains the control character U+{code:04X} at position {i}"
        if code > 0x7F:
            return f"contains the non-ASCII character U+{code:04X} at position {i}"
        if not (ch.isalnum() or ch in _TCHAR_PUNCTUATION):
            return f"contains {ch!r} at position {i}, which a header name cannot hold"
    return None


def _type_problem(schema: Mapping[str, Any]) -> str | None:
    declared = schema.get("type")
    if declared in ALLOWED_PARAM_TYPES:
        return None
    allowed = "integer, string or boolean"
    if "type" not in schema:
        return f"the property declares no type (it must be {allowed})"
    if declared == "number":
        return f'the property has type "number", which is not permitted (only {allowed})'
    if isinstance(declared, list):
        return f"the property's type is a list ({json.dumps(declared)[:80]}); it must be one of {allowed}"
    return f"the property has type {json.dumps(declared, default=repr)[:80]}; it must be {allowed}"


def tool_header_params(tool: Mapping[str, Any]) -> HeaderParams:
    """The ``x-mcp-header`` annotations of one tool's ``inputSchema``, checked against every rule of the spec.

    Rules: the value is a non-empty RFC 9110 token (no control characters, no non-ASCII, no separators);
    values are case-insensitively unique within the schema; the property has type integer, string or
    boolean; the property is reachable from the root through ``properties`` keys only (never through
    ``items``, composition, conditionals, ``$defs`` or any other keyword; the root itself is no property).
    A tool without an object ``inputSchema`` has nothing to mirror (its shape is judged elsewhere).
    """
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return HeaderParams()
    params: list[HeaderParam] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path, where, node in _positions(schema):
        if X_MCP_HEADER not in node:
            continue
        header = node[X_MCP_HEADER]
        at = f"property {'.'.join(path)!r}" if path else f"inputSchema{_pointer(where)}"
        if not path:
            place = "on the schema root" if path == () else "beyond a keyword other than properties"
            problems.append(
                f"{at}: {X_MCP_HEADER} is {place}; only properties reached through properties keys alone may carry it"
            )
            continue
        if not isinstance(header, str):
            problems.append(f"{at}: {X_MCP_HEADER} must be a string, not {json_type_phrase(header)}")
            continue
        token = _token_problem(header)
        if token is not None:
            problems.append(f"{at}: {X_MCP_HEADER} {json.dumps(header, ensure_ascii=False)} {token}")
            continue
        folded = header.lower()
        if folded in seen:
            problems.append(
                f"{at}: {X_MCP_HEADER} {json.dumps(header)} repeats the one on property {seen[folded]!r} "
                "(names must be unique, ignoring case)"
            )
            continue
        seen[folded] = ".".join(path)
        kind = _type_problem(node)
        if kind is not None:
            problems.append(f"{at}: {X_MCP_HEADER} {json.dumps(header)}: {kind}")
            continue
        params.append(HeaderParam(header, path, node["type"]))
    if problems:
        return HeaderParams((), tuple(problems))
    return HeaderParams(tuple(params))


def filter_tools(tools: Sequence[Any]) -> tuple[list[Any], list[ToolDropped]]:
    """A ``tools/list`` page's tools without the ones whose annotations are invalid, and why each went.

    What is kept is untouched: the same objects in the same order (entries that are not objects too;
    their shape is another check's business).
    """
    kept: list[Any] = []
    dropped: list[ToolDropped] = []
    for index, tool in enumerate(tools):
        if isinstance(tool, dict):
            found = tool_header_params(tool)
            if not found.valid:
                name = tool.get("name")
                dropped.append(ToolDropped(index, name if isinstance(name, str) else None, found.problems, tool))
                continue
        kept.append(tool)
    return kept, dropped


def header_params_by_tool(tools: Sequence[Any]) -> dict[str, HeaderParams]:
    """Tool name -> its annotations, for the valid tools of a page that mirror at least one argument.

    The first tool of a name wins (names are meant to be unique); merge pages with ``|``.
    """
    found: dict[str, HeaderParams] = {}
    for tool in tools:
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or tool["name"] in found:
            continue
        params = tool_header_params(tool)
        if params.valid and params.params:
            found[tool["name"]] = params
    return found


# --- Mcp-Param-* for one call -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParamNote:
    """An argument that could not be mirrored as the spec wants (``sent`` says whether a header went anyway)."""

    param: HeaderParam
    reason: str
    sent: bool

    @property
    def message(self) -> str:
        outcome = "sent anyway" if self.sent else "header omitted"
        return f"{self.param.header_name} (argument {self.param.dotted!r}): {self.reason}; {outcome}"


@dataclass(frozen=True, slots=True)
class ParamHeaders:
    headers: dict[str, str]
    notes: tuple[ParamNote, ...] = ()


_ABSENT: Final = object()


def _value_at(arguments: Mapping[str, Any] | None, path: tuple[str, ...]) -> Any:
    node: Any = arguments
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return _ABSENT
        node = node[key]
    return node


def _render(param: HeaderParam, value: Any) -> tuple[str | None, str | None]:
    """(header value or None, note or None) for one present, non-null argument value."""
    if isinstance(value, bool):
        return ("true" if value else "false"), None
    if isinstance(value, int):
        try:
            text = str(value)
        except ValueError:  # beyond Python's int-to-str digit limit
            return None, "the integer is too long to write out"
        if abs(value) > MAX_SAFE_INTEGER:
            return text, "the integer is outside the safe range +-(2**53 - 1)"
        return text, None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None, f"{value!r} is not a JSON number"
        if param.type == "integer" and value.is_integer():
            whole = int(value)
            note = "the integer is outside the safe range +-(2**53 - 1)" if abs(whole) > MAX_SAFE_INTEGER else None
            return str(whole), note
        # As the body writes it, so a server comparing text or numbers both see the same value.
        return json.dumps(value), f"a number with a fraction is not a {param.type}"
    if isinstance(value, str):
        try:
            return encode_header_value(value), None
        except UnicodeEncodeError:
            return None, "the string holds a lone surrogate, which has no UTF-8 form to carry"
    return None, f"{json_type_phrase(value)} cannot be carried in a header"


def encode_params(params: HeaderParams, arguments: Mapping[str, Any] | None) -> ParamHeaders:
    """The ``Mcp-Param-*`` headers of one ``tools/call``, and notes on the arguments that did not fit.

    An argument that is absent or null omits its header. Strings go as is or Base64-wrapped; integers
    in decimal; booleans as ``true``/``false``. A value of another JSON type than declared is mirrored
    as the body carries it when it is a scalar (the server then judges the argument itself); objects,
    lists and strings without a UTF-8 form cannot be carried and are omitted, with a note.
    """
    headers: dict[str, str] = {}
    notes: list[ParamNote] = []
    for param in params.params:
        value = _value_at(arguments, param.path)
        if value is _ABSENT or value is None:
            continue
        text, note = _render(param, value)
        if text is not None:
            headers[param.header_name] = text
        if note is not None:
            notes.append(ParamNote(param, note, sent=text is not None))
    return ParamHeaders(headers, tuple(notes))


def param_headers(params: HeaderParams, arguments: Mapping[str, Any] | None) -> dict[str, str]:
    """The ``Mcp-Param-*`` headers of one ``tools/call`` (see :func:`encode_params` for the notes)."""
    return encode_params(params, arguments).headers


def request_headers(
    method: str,
    params: Mapping[str, Any] | None,
    protocol_version: str,
    tool_params: Mapping[str, HeaderParams],
) -> dict[str, str]:
    """Every mirrored header of one outgoing request: the standard ones and, for ``tools/call``, the tool's."""
    headers = standard_headers(method, params, protocol_version)
    if method == "tools/call" and isinstance(params, Mapping):
        name = params.get("name")
        found = tool_params.get(name) if isinstance(name, str) else None
        if found is not None and found.valid:
            arguments = params.get("arguments")
            headers.update(param_headers(found, arguments if isinstance(arguments, Mapping) else None))
    return headers


def is_header_mismatch(code: object) -> bool:
    """True for the ``-32020`` HeaderMismatch error code (the server found headers and body disagree)."""
    return isinstance(code, int) and not isinstance(code, bool) and code == HEADER_MISMATCH
