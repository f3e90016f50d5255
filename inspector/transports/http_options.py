"""``HttpOptions``: what the Streamable HTTP and the legacy HTTP+SSE transports are both built from.

One frozen value, made once by whoever builds a transport (``select.transport_for_target``, the window's
profile bridge through it, the CLI) and handed on whole: the Streamable HTTP transport gives its own to the
legacy transport it falls back to.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import httpx2

from inspector.protocol.limits import DEFAULT_LIMITS, Limits

__all__ = ["HttpOptions"]


@dataclass(frozen=True, slots=True)
class HttpOptions:
    """``timeout``: connecting, and short exchanges (notifications, DELETE); ``read_timeout``: the longest
    silence on a response or stream (None: none); ``endpoint_timeout``: how long the legacy transport waits for
    the ``endpoint`` event; ``secret_headers``: header names masked in the log (besides the always-secret
    ones); ``limits``: the bounds on what is read."""

    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    auth: httpx2.Auth | None = None
    ca_bundle: str | None = None
    timeout: float = 30.0
    secret_headers: frozenset[str] = frozenset()
    read_timeout: float | None = 300.0
    endpoint_timeout: float = 10.0
    limits: Limits = DEFAULT_LIMITS

    def __post_init__(self) -> None:
        object.__setattr__(self, "headers", MappingProxyType(dict(self.headers)))
        object.__setattr__(self, "secret_headers", frozenset(name.lower() for name in self.secret_headers))

    def with_changes(self, **changes: Any) -> HttpOptions:
        """A copy with the named options changed (``headers=``, ``timeout=``, …); TypeError for unknown names."""
        return dataclasses.replace(self, **changes) if changes else self
