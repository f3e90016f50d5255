"""Which transport a TARGET means: a command line (stdio) or a URL (Streamable HTTP or legacy SSE).

* ``http://`` / ``https://`` URL whose path ends in ``/sse``: the legacy HTTP+SSE transport;
* any other URL: Streamable HTTP, falling back to legacy SSE at the same URL when the first POST is
  answered 400, 404 or 405 (inside the transport, see :mod:`inspector.transports.http`);
* anything else: a command line for the stdio transport (a string is split like a shell would).

``transport=`` ("stdio", "http", "sse"; ``--transport`` on the command line) overrides the guess, and
switches the fallback off: ``http`` means Streamable HTTP only.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Mapping, Sequence
from typing import Literal, get_args

import httpx2

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import Transport
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.http_options import HttpOptions
from inspector.transports.sse import LegacySseTransport
from inspector.transports.stdio import StdioTransport

__all__ = ["TRANSPORT_NAMES", "TransportName", "is_url", "transport_for_target", "transport_name_for"]

TransportName = Literal["stdio", "http", "sse"]
TRANSPORT_NAMES: tuple[str, ...] = get_args(TransportName)
_NAMES: dict[str, TransportName] = {
    "stdio": "stdio",
    "http": "http",
    "sse": "sse",
    "streamable-http": "http",
    "streamablehttp": "http",
    "streamable_http": "http",
}


def is_url(target: str) -> bool:
    return target.strip().lower().startswith(("http://", "https://"))


def transport_name_for(target: str | Sequence[str], transport: str | None = None) -> TransportName:
    """The transport a target gets (``transport`` wins when given); raises ValueError for a mismatch."""
    first = target if isinstance(target, str) else (target[0] if target else "")
    url = is_url(first)
    if transport is not None:
        name = _NAMES.get(transport.strip().lower())
        if name is None:
            raise ValueError(f"unknown transport {transport!r}; expected one of {', '.join(TRANSPORT_NAMES)}")
        if name == "stdio" and url:
            raise ValueError(f"--transport stdio needs a command, not a URL ({first})")
        if name != "stdio" and not url:
            raise ValueError(f"--transport {name} needs an http:// or https:// URL, not {first!r}")
        return name
    if not url:
        return "stdio"
    try:
        path = httpx2.URL(first.strip()).path.rstrip("/")
    except (httpx2.InvalidURL, ValueError) as exc:
        raise ValueError(f"invalid URL {first!r}: {exc}") from None
    return "sse" if path.endswith("/sse") else "http"


def transport_for_target(
    target: str | Sequence[str],
    *,
    transport: str | None = None,
    headers: Mapping[str, str] | None = None,
    auth: httpx2.Auth | None = None,
    ca_bundle: str | None = None,
    timeout: float = 30.0,
    secret_headers: Collection[str] = (),
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Transport:
    """A transport for ``target``: a URL, a command line string, or ``[command, *args]``.

    HTTP options (headers, auth, ca_bundle, timeout, secret_headers) apply to URLs, ``env`` and ``cwd`` to
    commands, ``limits`` to every transport.
    Raises ValueError for an empty target or a ``transport`` that does not fit it.
    """
    parts = shlex.split(target) if isinstance(target, str) and not is_url(target) else target
    if not parts:
        raise ValueError("no target given")
    name = transport_name_for(parts, transport)
    if name == "stdio":
        command, *args = [parts] if isinstance(parts, str) else list(parts)
        return StdioTransport(command, args, env=env, cwd=cwd, limits=limits)
    url = (parts if isinstance(parts, str) else parts[0]).strip()
    options = HttpOptions(
        headers=headers or {},
        auth=auth,
        ca_bundle=ca_bundle,
        timeout=timeout,
        secret_headers=frozenset(secret_headers),
        limits=limits,
    )
    if name == "sse":
        return LegacySseTransport(url, options.with_changes(read_timeout=None))  # a quiet event stream is fine
    return StreamableHttpTransport(url, options, sse_fallback=transport is None)
