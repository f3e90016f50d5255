"""The per-request ``_meta`` envelope of 2026-07-28 and the reserved keys results and notifications carry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "LOG_LEVEL_KEY",
    "PROTOCOL_VERSION_KEY",
    "SERVER_INFO_KEY",
    "SUBSCRIPTION_ID_KEY",
    "TRACE_KEYS",
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
) -> dict[str, Any]:
    """``params`` with the envelope in ``_meta``. What the caller put in ``_meta`` (a progress token, trace
    context, its own keys) is kept; the envelope's own keys are ours."""
    out = dict(params or {})
    meta = dict(meta_of(out))
    meta[PROTOCOL_VERSION_KEY] = protocol_version
    meta[CLIENT_CAPABILITIES_KEY] = dict(capabilities)
    if client_info:
        meta[CLIENT_INFO_KEY] = dict(client_info)
    if log_level is not None:
        meta[LOG_LEVEL_KEY] = log_level
    out["_meta"] = meta
    return out
