"""The ``Mcp-*`` HTTP headers a request carried, checked against its body (Qt-free; the log's HTTP exchange view).

A 2026-07-28 POST mirrors parts of its body into headers (see :mod:`inspector.protocol.mcp_headers`, the one
copy of the rules, which the engine also uses to compute them). :func:`check_headers` takes the body and the
headers as sent and gives one :class:`HeaderVerdict` per header that should or did travel: ``pass``, ``fail``
with the rule that failed in words, or ``info`` where there is nothing to check it against (the handshake era,
whose requests mirror nothing of the body; a tool whose ``x-mcp-header`` annotations are not known).

``tool_params`` are the annotations of the tools listed so far (:func:`tool_params_from_pages` builds them from
``tools/list`` results in the order they arrived, with the same rules the engine applies).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.protocol import mcp_headers as mh
from inspector.protocol.envelope import PROTOCOL_VERSION_KEY
from inspector.protocol.jsonpath import format_path

_VERSION_FIELD: Final = format_path(["params", "_meta", PROTOCOL_VERSION_KEY], root="")

__all__ = ["HeaderVerdict", "Status", "check_headers", "tool_params_from_pages"]

Status = Literal["pass", "fail", "info"]

_CHECKED_PREFIX: Final = "mcp-"


@dataclass(frozen=True, slots=True)
class HeaderVerdict:
    header: str
    """The header's name as the spec writes it (``Mcp-Param-Region``)."""
    sent: str | None
    """The value as sent (None: not sent)."""
    expected: str | None
    """What the body says it should carry (None: it should not be sent, or nothing to compare with)."""
    status: Status
    rule: str
    """Why it passes or fails, in words."""

    @property
    def ok(self) -> bool:
        return self.status != "fail"


def _lookup(headers: Sequence[tuple[str, str]], name: str) -> list[str]:
    wanted = name.lower()
    return [value for key, value in headers if key.lower() == wanted]


def _one(headers: Sequence[tuple[str, str]], name: str) -> tuple[str | None, str | None]:
    """(the value sent, or None; a problem when it was sent more than once)."""
    values = _lookup(headers, name)
    if not values:
        return None, None
    if len(values) > 1:
        return values[0], f"sent {len(values)} times; a request carries each Mcp-* header once"
    return values[0], None


def _quoted(value: object) -> str:
    text = str(value)
    return f'"{text}"' if len(text) <= 80 else f'"{text[:79]}…"'


def check_headers(
    body: Any,
    headers: Sequence[tuple[str, str]],
    tool_params: Mapping[str, mh.HeaderParams] | None = None,
) -> list[HeaderVerdict]:
    """The verdicts on one request's ``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name`` and ``Mcp-Param-*``.

    ``body``: the JSON-RPC request (parsed); ``headers``: (name, value) pairs as sent; ``tool_params``: tool
    name -> its valid annotations (None: not known, so ``Mcp-Param-*`` cannot be judged). Never raises.
    """
    if not isinstance(body, Mapping) or not isinstance(body.get("method"), str):
        return []
    method: str = body["method"]
    params = body.get("params") if isinstance(body.get("params"), Mapping) else None
    meta = params.get("_meta") if params is not None and isinstance(params.get("_meta"), Mapping) else None
    version = meta.get(PROTOCOL_VERSION_KEY) if meta is not None else None
    if not isinstance(version, str):
        return _handshake(headers)
    verdicts = [
        _exact(
            headers,
            mh.PROTOCOL_VERSION_HEADER,
            version,
            format_path(["params", "_meta", PROTOCOL_VERSION_KEY], root=""),
        ),
        _exact(headers, mh.METHOD_HEADER, method, "the body's method"),
        _name(headers, method, params),
    ]
    verdicts.extend(_params(headers, method, params, tool_params))
    return [v for v in verdicts if v is not None]


def _handshake(headers: Sequence[tuple[str, str]]) -> list[HeaderVerdict]:
    """Before 2026-07-28 only the negotiated version travels, and it mirrors nothing of the body."""
    verdicts: list[HeaderVerdict] = []
    for name, value in headers:
        lowered = name.lower()
        if lowered == mh.PROTOCOL_VERSION_HEADER.lower():
            rule = "the version negotiated by initialize (the handshake era mirrors nothing of the body)"
            verdicts.append(HeaderVerdict(mh.PROTOCOL_VERSION_HEADER, value, None, "info", rule))
        elif lowered.startswith(_CHECKED_PREFIX) and lowered != "mcp-session-id":
            rule = "not defined before 2026-07-28 (this request has no _meta protocol version)"
            verdicts.append(HeaderVerdict(name, value, None, "info", rule))
    return verdicts


def _exact(headers: Sequence[tuple[str, str]], name: str, expected: str, source: str) -> HeaderVerdict:
    sent, twice = _one(headers, name)
    if sent is None:
        if not mh.is_plain_header_value(expected):
            rule = f"not sent: {source} is not a plain header value, so it cannot travel (nothing to mirror it with)"
            return HeaderVerdict(name, None, expected, "info", rule)
        return HeaderVerdict(name, None, expected, "fail", f"missing: every 2026-07-28 request carries {source}")
    if twice is not None:
        return HeaderVerdict(name, sent, expected, "fail", twice)
    if sent != expected:
        rule = f"does not match the body: {_quoted(sent)} here, {_quoted(expected)} in {source}"
        return HeaderVerdict(name, sent, expected, "fail", rule)
    return HeaderVerdict(name, sent, expected, "pass", f"matches {source}")


def _decoded(sent: str) -> tuple[str | None, str]:
    """(the original string, how it travelled)."""
    value = mh.decode_header_value(sent)
    if value is None:
        return None, ""
    return value, (" (Base64-encoded)" if value != sent else "")


def _name(headers: Sequence[tuple[str, str]], method: str, params: Mapping[str, Any] | None) -> HeaderVerdict | None:
    sent, twice = _one(headers, mh.NAME_HEADER)
    source = mh.NAME_SOURCES.get(method)
    if source is None:
        if sent is None:
            return None
        listed = ", ".join(sorted(mh.NAME_SOURCES))
        rule = f"{method} carries no Mcp-Name (only {listed} do)"
        return HeaderVerdict(mh.NAME_HEADER, sent, None, "fail", rule)
    value = params.get(source) if params is not None else None
    where = f"params.{source}"
    if not isinstance(value, str):
        if sent is None:
            return HeaderVerdict(mh.NAME_HEADER, None, None, "info", f"not sent: the body has no string {where}")
        return HeaderVerdict(mh.NAME_HEADER, sent, None, "fail", f"sent, but the body has no string {where}")
    try:
        expected = mh.encode_header_value(value)
    except UnicodeEncodeError:
        return HeaderVerdict(mh.NAME_HEADER, sent, None, "info", f"{where} has no UTF-8 form, so it cannot travel")
    if sent is None:
        return HeaderVerdict(mh.NAME_HEADER, None, expected, "fail", f"missing: {method} mirrors {where} in Mcp-Name")
    if twice is not None:
        return HeaderVerdict(mh.NAME_HEADER, sent, expected, "fail", twice)
    return _compare(mh.NAME_HEADER, sent, expected, value, where)


def _compare(header: str, sent: str, expected: str, value: str, where: str) -> HeaderVerdict:
    decoded, how = _decoded(sent)
    if decoded is None:
        rule = "the =?base64?…?= value is not canonical Base64 of UTF-8, so it cannot be read"
        return HeaderVerdict(header, sent, expected, "fail", rule)
    if decoded != value:
        rule = f"does not match the body: {_quoted(decoded)}{how} here, {_quoted(value)} in {where}"
        return HeaderVerdict(header, sent, expected, "fail", rule)
    if sent != expected and not mh.is_plain_header_value(value):
        rule = f"{where} is not a plain header value, so it must travel Base64-encoded (=?base64?…?=)"
        return HeaderVerdict(header, sent, expected, "fail", rule)
    return HeaderVerdict(header, sent, expected, "pass", f"matches {where}{how}")


def _params(
    headers: Sequence[tuple[str, str]],
    method: str,
    params: Mapping[str, Any] | None,
    tool_params: Mapping[str, mh.HeaderParams] | None,
) -> list[HeaderVerdict]:
    prefix = mh.PARAM_HEADER_PREFIX.lower()
    sent_params = [(name, value) for name, value in headers if name.lower().startswith(prefix)]
    if method != "tools/call":
        return [
            HeaderVerdict(name, value, None, "fail", f"{method} carries no Mcp-Param-* headers (only tools/call does)")
            for name, value in sent_params
        ]
    name = params.get("name") if params is not None else None
    if tool_params is None or not isinstance(name, str):
        rule = "the tool's x-mcp-header annotations are not known here (no tools/list answer recorded before it)"
        return [HeaderVerdict(n, v, None, "info", rule) for n, v in sent_params]
    found = tool_params.get(name, mh.HeaderParams())
    arguments = params.get("arguments") if params is not None else None
    encoded = mh.encode_params(found, arguments if isinstance(arguments, Mapping) else None)
    notes = {note.param.header_name.lower(): note for note in encoded.notes}
    verdicts: list[HeaderVerdict] = []
    declared: set[str] = set()
    for param in found.params:
        header = param.header_name
        declared.add(header.lower())
        where = f"arguments.{param.dotted}"
        expected = encoded.headers.get(header)
        sent, twice = _one(headers, header)
        note = notes.get(header.lower())
        if expected is None:
            if sent is None:
                why = note.reason if note is not None else f"{where} is absent or null"
                verdicts.append(HeaderVerdict(header, None, None, "pass", f"omitted, as it must be: {why}"))
            else:
                why = note.reason if note is not None else f"{where} is absent or null"
                verdicts.append(HeaderVerdict(header, sent, None, "fail", f"must be omitted: {why}"))
            continue
        if sent is None:
            rule = f"missing: the tool's x-mcp-header {param.header!r} mirrors {where}"
            verdicts.append(HeaderVerdict(header, None, expected, "fail", rule))
        elif twice is not None:
            verdicts.append(HeaderVerdict(header, sent, expected, "fail", twice))
        elif param.type == "string" and isinstance(mh.decode_header_value(expected), str):
            verdict = _compare(header, sent, expected, mh.decode_header_value(expected) or "", where)
            verdicts.append(_noted(verdict, note))
        elif sent != expected:
            rule = f"does not match the body: {_quoted(sent)} here, {_quoted(expected)} from {where}"
            verdicts.append(HeaderVerdict(header, sent, expected, "fail", rule))
        else:
            verdicts.append(_noted(HeaderVerdict(header, sent, expected, "pass", f"matches {where}"), note))
    for sent_name, value in sent_params:
        if sent_name.lower() not in declared:
            suffix = sent_name[len(mh.PARAM_HEADER_PREFIX) :]
            rule = f"the tool {name!r} declares no x-mcp-header {suffix!r}"
            verdicts.append(HeaderVerdict(sent_name, value, None, "fail", rule))
    return verdicts


def _noted(verdict: HeaderVerdict, note: mh.ParamNote | None) -> HeaderVerdict:
    """A passing header whose argument does not fit its declared type: sent anyway, which the server judges."""
    if note is None or verdict.status != "pass":
        return verdict
    return HeaderVerdict(verdict.header, verdict.sent, verdict.expected, "info", f"{verdict.rule}, but {note.reason}")


def tool_params_from_pages(pages: Iterable[Any]) -> dict[str, mh.HeaderParams]:
    """Tool name -> valid annotations, from ``tools/list`` results in the order received (a later listing of a
    tool replaces the earlier; a tool whose annotations are invalid is left out, as the client drops it)."""
    found: dict[str, mh.HeaderParams] = {}
    for page in pages:
        tools = page.get("tools") if isinstance(page, Mapping) else None
        if not isinstance(tools, list):
            continue
        for tool in tools:
            if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
                continue
            params = mh.tool_header_params(tool)
            if params.valid:
                found[tool["name"]] = params
            else:
                found.pop(tool["name"], None)
    return found
