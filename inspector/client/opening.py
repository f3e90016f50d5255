"""How a connection opens its session: which era, and the opening exchange of that era.

Eras (``protocol_era``): ``legacy`` opens with ``initialize``; ``modern`` with ``server/discover``
(2026-07-28); ``auto`` (the default) tries ``server/discover`` first and falls back to ``initialize`` on any
answer that is not a valid modern one, or when none comes within ``discover_timeout`` (stdio only: over HTTP
every POST gets a status, and authorizing may take long, so the request timeout applies) — never keyed on one
error code; a modern server refusing the version (-32022) is not a reason to fall back; one naming a modern
version we speak is asked again with it. Over HTTP a fresh public ``server/discover`` answer of the same
endpoint from an earlier connection (:mod:`inspector.client.discover_cache`) opens the session without a round
trip.

:class:`Opening` is a collaborator of the connection: it keeps the era in use and what each era offers, and
works through the :class:`OpeningHost` interface (the session in use, the transport, the outstanding
requests, the caches).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any, Final, Protocol

from inspector.client.discover_cache import DiscoverCache
from inspector.client.errors import (
    ConnectFailed,
    ConnectionLost,
    InvalidResponse,
    RemoteError,
    RequestTimeout,
    message_of,
)
from inspector.client.outstanding import Outstanding
from inspector.client.renewal import DeliveryFailed
from inspector.protocol.diagnostics import Diagnostic, Severity
from inspector.protocol.events import HandshakeCompleted
from inspector.protocol.jsonrpc import (
    HEADER_MISMATCH,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from inspector.protocol.result_cache import ResultCache
from inspector.protocol.session import ClientSession, SessionOffer, Timeouts
from inspector.protocol.versions import DEFAULT_VERSION, MODERN_VERSIONS, Era, EraChoice, era_of
from inspector.protocol.wire import WireMessage
from inspector.transports.base import Transport, TransportClosed

__all__ = ["DISCOVER_TIMEOUT", "MODERN_ERRORS", "Opening", "OpeningHost", "choose_era"]

MODERN_ERRORS: Final = frozenset({HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION})
"""JSON-RPC errors only a 2026-07-28 server sends: an answer with one of them is no reason to try initialize."""
DISCOVER_TIMEOUT: Final = 5.0
"""Seconds ``auto`` waits for an answer to server/discover before it tries initialize."""


def choose_era(protocol_version: str, protocol_era: EraChoice | str) -> tuple[EraChoice, str]:
    """The era choice a connection asked for and the version it offers in the handshake era.

    A 2026-07-28 ``protocol_version`` means ``modern`` unless ``protocol_era`` says otherwise (``legacy``
    with it is an error: ValueError); the handshake era then offers the default version."""
    choice = EraChoice(protocol_era)
    if era_of(protocol_version) is not Era.MODERN:
        return choice, protocol_version
    if choice is EraChoice.LEGACY:
        raise ValueError(f"protocol version {protocol_version} is not a handshake-era (legacy) version")
    return EraChoice.MODERN, DEFAULT_VERSION


class OpeningHost(Protocol):
    """What opening needs of the connection."""

    session: ClientSession
    transport: Transport
    timeouts: Timeouts
    outstanding: Outstanding
    cache: ResultCache
    diagnostics: list[Diagnostic]
    closed_event: TransportClosed | None
    protocol_era: EraChoice
    discover_timeout: float
    reuse_discover: bool
    discover_cache: DiscoverCache

    def new_session(self) -> ClientSession: ...

    def pump(self) -> None: ...

    def note(self, message: str) -> None: ...

    def lost_reason(self, event: TransportClosed) -> str:
        """The one line that says why the transport closed."""
        ...

    async def close(self) -> None: ...


class _NotModern(Exception):
    """auto: the answer to server/discover says the server is not a modern one (the reason is the text)."""


class Opening:
    """The era in use and the opening of the session (see the module's docstring)."""

    def __init__(self, host: OpeningHost, choice: EraChoice, offers: dict[Era, SessionOffer]) -> None:
        self._host = host
        self._offers = offers
        self.era = Era.HANDSHAKE if choice is EraChoice.LEGACY else Era.MODERN
        """The era of the session in use, or to be opened next."""
        self._from_cache: str | None = None
        self.fallback: str | None = None
        """``auto`` only: why server/discover did not open the session (what its answer was), so initialize did;
        None when it did, or when an era was asked for."""
        self._discover_findings: set[int] = set()
        """Diagnostics of the answer to server/discover (by identity): information, should auto fall back."""

    @property
    def offer(self) -> SessionOffer:
        """What a new session of the era in use offers."""
        return self._offers[self.era]

    def saw(self, wire: WireMessage) -> None:
        """An inbound message with diagnostics: those of the answer to server/discover are kept (by identity),
        for auto to call them a probe's findings should it fall back."""
        session = self._host.session
        if session.era is Era.MODERN and session.is_opening(wire.id):
            self._discover_findings.update(id(d) for d in wire.diagnostics)

    async def run(self) -> tuple[Any, str]:
        """Open the session in the era asked for: the opening's result, and why this era."""
        if self._host.protocol_era is EraChoice.AUTO:
            return await self._auto()
        result = await self._open(self.era)
        how = self._from_cache or self._host.session.opening_method
        return result, f"{self._host.protocol_era.value} asked for ({how})"

    async def _auto(self) -> tuple[Any, str]:
        """server/discover first; initialize when the answer is not a valid modern one or does not come."""
        host = self._host
        try:
            # over HTTP a legacy server answers the POST with a status at once; the time until the answer may
            # be an OAuth flow (401, metadata, registration, consent), which a short timeout would cut
            timeout = None if host.transport.carries_headers else host.discover_timeout
            result = await self._open(Era.MODERN, timeout=timeout, fallible=True)
        except _NotModern as exc:
            if host.closed_event is not None:
                raise ConnectFailed(host.lost_reason(host.closed_event)) from None
            # what the probe found wrong is not the server's fault: its era has no server/discover
            answer = self._discover_findings
            host.diagnostics[:] = [_as_probe_finding(d) if id(d) in answer else d for d in host.diagnostics]
            host.note(f"server/discover {exc}; trying initialize (handshake era)")
            self.fallback = str(exc)
            self.era = Era.HANDSHAKE
            host.session = host.new_session()
            try:
                result = await self._open(Era.HANDSHAKE)
            except ConnectFailed as failed:
                if failed.code in MODERN_ERRORS:  # a 2026-07-28 server after all: what discover got is the news
                    why = f"server/discover {exc}; initialize, tried next, got a 2026-07-28 error: {message_of(failed)}"
                elif message_of(failed) in str(exc):  # the same cause twice (an unreachable server, refused auth)
                    why = message_of(failed)
                else:
                    why = f"{message_of(failed)} (server/discover before it {exc})"
                raise ConnectFailed(why, failed.code, failed.data) from failed.__cause__
            return result, f"auto: server/discover {exc}, so initialize"
        if self._from_cache is not None:
            return result, f"auto: {self._from_cache}"
        return result, "auto: the server answered server/discover with 2026-07-28"

    def _cached_discover(self, era: Era) -> dict[str, Any] | None:
        """A fresh public server/discover answer of this HTTP endpoint from an earlier connection, opened from
        without a round trip (None: none, or it no longer opens this session)."""
        host = self._host
        endpoint = host.transport.endpoint
        if era is not Era.MODERN or not host.reuse_discover or endpoint is None:
            return None
        hit = host.discover_cache.get(endpoint)
        if hit is None:
            return None
        if not any(isinstance(ev, HandshakeCompleted) for ev in host.session.open_from(hit.result)):
            host.session = host.new_session()  # (it named what it could not use; ask the server instead)
            return None
        left = hit.expires_at - time.monotonic()
        host.cache.put("server/discover", None, hit.result)
        self._from_cache = f"server/discover answered from an earlier connection to {endpoint} (fresh for {left:.0f} s)"
        host.note(self._from_cache)
        return hit.result

    async def _open(
        self, era: Era, *, timeout: float | None = None, fallible: bool = False, retried: bool = False
    ) -> Any:
        """Run the opening exchange of ``era`` on the host's session. With ``fallible``, what says the server
        is not a modern one raises ``_NotModern`` (the caller tries initialize) instead of ConnectFailed.
        A modern refusal of the version (-32022) naming a modern version we speak is retried once with it."""
        host = self._host
        self.era = era
        host.transport.set_era(era)
        host.session.cancel_notifies = not host.transport.cancels_by_closing
        host.session.header_rules = host.transport.carries_headers
        cached = self._cached_discover(era)
        if cached is not None:
            return cached
        timeouts = host.timeouts if timeout is None else replace(host.timeouts, request=timeout, max_total=timeout)
        rid = host.session.start(timeouts=timeouts)
        what = host.session.opening_method
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        host.outstanding.add(rid, fut)
        host.pump()
        try:
            result = await fut
            if era is Era.MODERN:
                host.cache.put("server/discover", None, result)
                if host.reuse_discover and host.transport.endpoint is not None:
                    host.discover_cache.put(host.transport.endpoint, result)
            return result
        except ConnectionLost as exc:
            raise ConnectFailed(message_of(exc)) from None
        except RequestTimeout as exc:
            if fallible:
                raise _NotModern(f"got no answer within {timeouts.request or 0:g} s") from None
            await self._abort()
            raise ConnectFailed(f"no answer to {what}: {message_of(exc)}") from None
        except ConnectFailed as exc:
            if exc.code == UNSUPPORTED_PROTOCOL_VERSION and era is Era.MODERN and not retried:
                version = _supported_modern(exc.data)
                if version is not None:  # a modern server that wants another (or the same) modern version
                    host.note(
                        f"{what}: the server refused version {host.session.offered_version}; retrying with {version}"
                    )
                    self._offers[Era.MODERN] = replace(self._offers[Era.MODERN], protocol_version=version)
                    host.session = host.new_session()
                    return await self._open(era, timeout=timeout, fallible=False, retried=True)
            if fallible and exc.code not in MODERN_ERRORS:  # a modern error says: a modern server; no fallback
                how = "was refused" if exc.code is not None else "got an answer that is not a 2026-07-28 one"
                raise _NotModern(f"{how} ({message_of(exc)})") from None
            await self._abort()
            raise ConnectFailed(_explain_refusal(exc), exc.code, exc.data) from None
        except (RemoteError, InvalidResponse) as exc:
            if fallible:
                raise _NotModern(f"got an unusable answer ({message_of(exc)})") from None
            await self._abort()
            raise ConnectFailed(message_of(exc)) from None
        except DeliveryFailed as exc:
            if fallible:  # an HTTP error without a 2026-07-28 error in it (an authorization one too: a legacy
                # server may let initialize through; the spec: fall back unless the body is a modern error)
                raise _NotModern(f"could not be delivered ({message_of(exc)})") from None
            await self._abort()
            raise ConnectFailed(message_of(exc)) from exc  # __cause__.error: e.g. HttpAuthError for the OAuth layer
        except asyncio.CancelledError:
            await self._abort()
            raise

    async def _abort(self) -> None:
        try:
            await self._host.close()
        except Exception:  # closing after a failure must not mask the failure
            pass


def _as_probe_finding(d: Diagnostic) -> Diagnostic:
    """A finding about the answer to auto's server/discover probe, once the server turned out not to be a
    2026-07-28 one: information, not a violation of its own era."""
    return replace(d, severity=Severity.INFO, message=f"server/discover (auto's probe): {d.message}")


def _supported_modern(data: Any) -> str | None:
    """The modern version to retry with, from -32022's ``data.supported`` (None: none we speak)."""
    supported = data.get("supported") if isinstance(data, dict) else None
    if not isinstance(supported, list):
        return None
    ours = [v for v in supported if isinstance(v, str) and v in MODERN_VERSIONS]
    return ours[-1] if ours else None


def _explain_refusal(exc: ConnectFailed) -> str:
    """The refusal of the opening request, with what -32022 says (the versions the server supports)."""
    if exc.code == UNSUPPORTED_PROTOCOL_VERSION and isinstance(exc.data, dict):
        supported = exc.data.get("supported")
        if isinstance(supported, list) and all(isinstance(v, str) for v in supported):
            return f"{message_of(exc)} (the server supports {', '.join(supported) or 'no version'})"
    return message_of(exc)
