"""What a JSON-RPC error from the server means, in one sentence (sans-I/O; never raises on any ``data``).

The codes with an MCP meaning: ``-32020`` HeaderMismatch, ``-32021`` MissingRequiredClientCapability
(``data.requiredCapabilities``: the client capabilities the server needs), ``-32022``
UnsupportedProtocolVersion (``data.supported``, ``data.requested``), resource not found (``-32602`` on
``resources/read`` in 2026-07-28, ``-32002`` before, still accepted) and ``-32042`` URL elicitation
required (2025-11-25). The sentence may quote what the server sent; the caller escapes it for display.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from inspector.protocol.jsonrpc import (
    ERROR_NAMES,
    HEADER_MISMATCH,
    INVALID_PARAMS,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    RESOURCE_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    URL_ELICITATION_REQUIRED,
)

__all__ = [
    "error_heading",
    "error_line",
    "explain_error",
    "explanation_lines",
    "is_resource_not_found",
    "not_found_uri",
    "relisting_helps",
    "required_capabilities",
    "unsupported_versions",
]

_MAX_TEXT: Final = 120
_MAX_ITEMS: Final = 12


def _short(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _listing(names: list[str]) -> str:
    shown = ", ".join(_short(name) for name in names[:_MAX_ITEMS])
    return shown + (f" and {len(names) - _MAX_ITEMS} more" if len(names) > _MAX_ITEMS else "")


def _is_code(code: object, wanted: int) -> bool:
    return isinstance(code, int) and not isinstance(code, bool) and code == wanted


def required_capabilities(data: Any) -> list[str]:
    """The capability names in ``data.requiredCapabilities`` (a ClientCapabilities object).

    A capability with sub-capabilities reads ``elicitation.url``; a list of strings is accepted too
    (some servers send one). Whatever else is there is skipped.
    """
    if not isinstance(data, Mapping):
        return []
    required = data.get("requiredCapabilities")
    names: list[str] = []
    if isinstance(required, Mapping):
        for name, value in required.items():
            if not isinstance(name, str):
                continue
            subs = [sub for sub in value if isinstance(sub, str)] if isinstance(value, Mapping) else []
            if subs:
                names.extend(f"{name}.{sub}" for sub in subs)
            else:
                names.append(name)
    elif isinstance(required, list):
        names = [name for name in required if isinstance(name, str)]
    return names


def unsupported_versions(data: Any) -> tuple[list[str], str | None]:
    """(``data.supported`` as strings, ``data.requested`` if a string) of an UnsupportedProtocolVersion error."""
    if not isinstance(data, Mapping):
        return [], None
    supported = data.get("supported")
    requested = data.get("requested")
    versions = [v for v in supported if isinstance(v, str)] if isinstance(supported, list) else []
    return versions, requested if isinstance(requested, str) else None


def not_found_uri(data: Any) -> str | None:
    """``data.uri`` of a resource-not-found error, when it is a string."""
    if isinstance(data, Mapping) and isinstance(data.get("uri"), str):
        return str(data["uri"])
    return None


def is_resource_not_found(code: object, data: Any, method: str | None) -> bool:
    """``-32002`` (up to 2025-11-25), or ``-32602`` answering ``resources/read`` with the ``uri`` in ``data``."""
    if _is_code(code, RESOURCE_NOT_FOUND):
        return True
    return _is_code(code, INVALID_PARAMS) and method == "resources/read" and not_found_uri(data) is not None


def _url_elicitation(data: Any) -> str:
    urls: list[str] = []
    elicitations = data.get("elicitations") if isinstance(data, Mapping) else None
    for item in elicitations if isinstance(elicitations, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("url"), str):
            urls.append(item["url"])
    text = "the server needs the user to complete a step in the browser first (URL elicitation required)"
    return text + (f": {_listing(urls)}" if urls else "")


def explain_error(code: object, message: object, data: Any, method: str | None) -> str | None:
    """One sentence saying what the error means for the codes that carry an MCP meaning; None for the rest.

    ``message`` is the server's own text (unused for the sentence, which says what the code means).
    """
    if _is_code(code, HEADER_MISMATCH):
        text = "the server found the request's Mcp-* HTTP headers missing, malformed or not matching the body"
        if method == "tools/call":
            text += " (the tool's x-mcp-header annotations may have changed: list the tools again and retry)"
        return text
    if _is_code(code, MISSING_REQUIRED_CLIENT_CAPABILITY):
        names = required_capabilities(data)
        if names:
            noun = "capability" if len(names) == 1 else "capabilities"
            return f"the server requires the client {noun} {_listing(names)}, which this request did not declare"
        return "the server requires a client capability this request did not declare (it did not say which)"
    if _is_code(code, UNSUPPORTED_PROTOCOL_VERSION):
        supported, requested = unsupported_versions(data)
        text = "the server does not support protocol version " + (
            _short(requested) if requested is not None else "the request asked for"
        )
        if supported:
            return text + f"; it supports {_listing(supported)}"
        return text + " (it did not say which versions it supports)"
    if is_resource_not_found(code, data, method):
        uri = not_found_uri(data)
        return "resource not found" + (f": {_short(uri)}" if uri is not None else "")
    if _is_code(code, URL_ELICITATION_REQUIRED):
        return _url_elicitation(data)
    return None


_MAX_DATA: Final = 300


def error_heading(code: object) -> str:
    """``JSON-RPC error -32020 · Header mismatch``: the title every view of a server's error shows."""
    if not isinstance(code, int) or isinstance(code, bool):
        return "JSON-RPC error (no code)"
    name = ERROR_NAMES.get(code, "Server error" if -32099 <= code <= -32000 else "Application error")
    return f"JSON-RPC error {code} · {name}"


def _data_text(data: Any) -> str:
    try:
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(data)
    return text if len(text) <= _MAX_DATA else text[: _MAX_DATA - 1] + "…"


def explanation_lines(
    code: object, message: object, data: Any, method: str | None, *, with_data: bool = True
) -> list[str]:
    """The lines a view adds under a server's error: ``What it means: ...`` for the codes with an MCP meaning
    (read from ``data``), then ``data: {...}`` (shortened)
    unless the view shows the data itself. Plain text: the caller escapes it for display."""
    lines: list[str] = []
    meaning = explain_error(code, message, data, method)
    if meaning is not None:
        lines.append("What it means: " + meaning[:1].upper() + meaning[1:] + ".")
    if with_data and data is not None:
        lines.append("data: " + _data_text(data))
    return lines


def relisting_helps(code: object, method: str | None) -> bool:
    """A ``-32020`` HeaderMismatch on ``tools/call``: listing the tools again (their ``x-mcp-header``
    annotations may have changed) and retrying can fix it. Elsewhere the mirrored headers come from the
    request alone (``Mcp-Method``, ``Mcp-Name``, ``MCP-Protocol-Version``), so re-listing changes nothing."""
    return _is_code(code, HEADER_MISMATCH) and method == "tools/call"


def error_line(code: object, message: object, data: Any, method: str | None) -> str:
    """One line for a server's error where a view has room for one (a status line, a history row):
    ``error -32021 (Missing required client capability): <message> — <what it means>``."""
    label = f"error {code}" if isinstance(code, int) and not isinstance(code, bool) else "error"
    name = ERROR_NAMES.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
    text = f"{label} ({name})" if name else label
    if isinstance(message, str) and message:
        text += f": {_short(message)}"
    meaning = explain_error(code, message, data, method)
    return text + (f" — {meaning}" if meaning is not None else "")
