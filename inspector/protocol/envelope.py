"""The per-request ``_meta`` envelope of 2026-07-28 and the reserved keys results and notifications carry."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final

__all__ = [
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "LOG_LEVEL_KEY",
    "PROTOCOL_VERSION_KEY",
    "SERVER_INFO_KEY",
    "SUBSCRIPTION_ID_KEY",
    "TRACE_KEYS",
    "declared_extensions",
    "declaring_extensions",
    "enveloped",
    "meta_of",
]

PROTOCOL_VERSION_KEY: Final = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY: Final = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY: Final = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY: Final = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY: Final = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_ID_KEY: Final = "io.modelcontextprotocol/subscriptionId"
TRACE_KEYS: Final = ("traceparent", "tracestate", "baggage")
"""W3C trace context in ``_meta``: passed through as the caller gave it, never made up."""


_EXTRA_EXTENSIONS: ContextVar[Mapping[str, Any] | None] = ContextVar("extra_extensions", default=None)


@contextmanager
def declaring_extensions(extensions: Mapping[str, Any]) -> Iterator[None]:
    """Requests enveloped in this context (the current asyncio task, and the coroutines it awaits) also declare
    ``extensions`` in their per-request ``capabilities.extensions``. In 2026-07-28 capabilities travel with each
    request, so one call may declare what the others do not (the window's "Run as task": the tasks extension
    for that call and its ``tasks/*`` requests only). Nested uses add up. A request keeps what it declared
    for all its rounds (the session reads it once, when the logical request is first sent)."""
    merged = {**(_EXTRA_EXTENSIONS.get() or {}), **extensions}
    token = _EXTRA_EXTENSIONS.set(merged)
    try:
        yield
    finally:
        _EXTRA_EXTENSIONS.reset(token)


def declared_extensions() -> dict[str, Any]:
    """What ``declaring_extensions`` adds in the current context (empty outside one). The session reads it
    when a logical request is first sent and keeps it with the request, so that its later rounds (sent by
    whichever asyncio task answered the input) declare the same, and no other."""
    return dict(_EXTRA_EXTENSIONS.get() or {})


def _with_extra_extensions(capabilities: Mapping[str, Any], extensions: Mapping[str, Any] | None) -> dict[str, Any]:
    out = dict(capabilities)
    extra = _EXTRA_EXTENSIONS.get() if extensions is None else extensions
    if extra:
        declared = out.get("extensions")
        out["extensions"] = {**(declared if isinstance(declared, dict) else {}), **extra}
    return out


def meta_of(value: Any) -> dict[str, Any]:
    """``value["_meta"]`` when it is an object, else an empty dict."""
    if isinstance(value, dict):
        meta = value.get("_meta")
        if isinstance(meta, dict):
            return meta
    return {}


def enveloped(
    params: Mapping[str, Any] | None,
    *,
    protocol_version: str,
    capabilities: Mapping[str, Any],
    client_info: Mapping[str, Any] | None,
    log_level: str | None,
    extensions: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``params`` with the envelope in ``_meta``. What the caller put in ``_meta`` (a progress token, trace
    context, its own keys) is kept; the envelope's own keys are ours. ``extensions``: the extra extensions
    this request declares (``declared_extensions()`` of its logical request; ``{}``: none); None: those of
    the current context."""
    out = dict(params or {})
    meta = dict(meta_of(out))
    meta[PROTOCOL_VERSION_KEY] = protocol_version
    meta[CLIENT_CAPABILITIES_KEY] = _with_extra_extensions(capabilities, extensions)
    if client_info:
        meta[CLIENT_INFO_KEY] = dict(client_info)
    if log_level is not None:
        meta[LOG_LEVEL_KEY] = log_level
    out["_meta"] = meta
    return out
