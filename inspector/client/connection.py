"""Connection = transport + session, with an awaitable API for every MCP method of both eras.

The session (sans-I/O) decides; this class moves bytes, keeps futures keyed by request id
(:mod:`inspector.client.outstanding`), runs the server-request handlers as tasks, and arms one timer for the
nearest deadline.

Eras (``protocol_era``): ``legacy`` opens with ``initialize``; ``modern`` with ``server/discover``
(2026-07-28); ``auto`` (the default) tries ``server/discover`` first and falls back to ``initialize`` on any
answer that is not a valid modern one, or when none comes within ``discover_timeout`` (stdio only: over HTTP
every POST gets a status, and authorizing may take long, so the request timeout applies) — never keyed on one
error code; a modern server refusing the version (-32022) is not a reason to fall back. Which era was chosen
and why is in :attr:`ServerInfo.era` / :attr:`ServerInfo.era_reason`. Sessions are built by the one factory
``inspector.protocol.session.new_session``, here and in renewal.

Multi-round-trip requests (2026-07-28): an ``input_required`` answer is answered through the same
``handlers`` as the handshake era's server requests, one input after another, and the request is retried
under a new id; the caller awaits one logical request throughout.

Session expiry and requests the transport could not deliver (HTTP): see :mod:`inspector.client.renewal`.

Every background task (the writer, each server-request handler, the re-initialization after a session
expired) and every callback of the transport or the timer is supervised: an exception nobody expected (a
transport raising what it should not, a broken recorder or callback, a bug) ends the connection as a lost
one, with one line naming what failed (:meth:`Connection._broken`), so that every pending request fails at
once instead of at its timeout, and the transport is closed. Nothing ends as "Task exception was never
retrieved".
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from inspector.client.answering import Answering
from inspector.client.discover_cache import SHARED as SHARED_DISCOVER
from inspector.client.discover_cache import DiscoverCache
from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectFailed,
    ConnectionLost,
    InvalidResponse,
    NotConnected,
    RemoteError,
    RequestCancelled,
    RequestTimeout,
    describe_exception,
    message_of,
)
from inspector.client.handlers import (
    HeadlessHandlers,
    ServerRequestHandlers,
)
from inspector.client.listen import Listening, Subscription, subscription_id
from inspector.client.outstanding import Outstanding, ProgressCallback
from inspector.client.renewal import DeliveryFailed, SessionRenewal
from inspector.protocol import session as _session
from inspector.protocol.diagnostics import Diagnostic, Severity
from inspector.protocol.events import (
    HandshakeCompleted,
    HandshakeFailed,
    InputRequested,
    NotificationReceived,
    ProgressReceived,
    Received,
    RequestCancelledByServer,
    RequestFailed,
    RequestReceived,
    ResponseReceived,
)
from inspector.protocol.jsonrpc import (
    HEADER_MISMATCH,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from inspector.protocol.limits import Limits
from inspector.protocol.mcp_headers import is_header_mismatch
from inspector.protocol.pagination import Paginator
from inspector.protocol.result_cache import CACHEABLE_METHODS, ResultCache
from inspector.protocol.session import ClientSession, SessionOffer, SessionState, Timeouts, new_session
from inspector.protocol.versions import DEFAULT_VERSION, MODERN_VERSION, MODERN_VERSIONS, Era, EraChoice, era_of
from inspector.protocol.wire import RequestId, WireMessage
from inspector.transports.base import (
    DataReceived,
    FrameReceived,
    SendFailed,
    SessionExpired,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)

__all__ = ["Connection", "DeliveryFailed", "ProgressCallback", "Recorder", "ServerInfo"]

MODERN_ERRORS: Final = frozenset({HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION})
"""JSON-RPC errors only a 2026-07-28 server sends: an answer with one of them is no reason to try initialize."""
DISCOVER_TIMEOUT: Final = 5.0
"""Seconds ``auto`` waits for an answer to server/discover before it tries initialize."""


class Recorder(Protocol):
    """Where the connection records traffic (``inspector.store.recording.Recording``).

    A recorder that writes in the background may also have ``backlogged`` and ``drained`` (bools): while
    it is backlogged the transport stops reading until it has drained.
    """

    def record_message(self, msg: WireMessage) -> None: ...

    def record_transport(self, event: TransportEvent) -> None: ...


BACKLOG_POLL: Final = 0.005
"""Seconds between looks at a backlogged recorder."""


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What the handshake established."""

    protocol_version: str
    server_info: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    result: dict[str, Any]
    elapsed: float
    """Seconds from starting the transport to the end of the handshake."""
    era: Era = Era.HANDSHAKE
    era_reason: str = ""
    """Why this era: what was asked for, and in ``auto`` what the server's answer to server/discover was."""


class Connection:
    """One live session with one server."""

    def __init__(
        self,
        transport: Transport,
        *,
        protocol_version: str = DEFAULT_VERSION,
        capabilities: dict[str, Any] | None = None,
        client_info: dict[str, Any] | None = None,
        handlers: ServerRequestHandlers | None = None,
        timeouts: Timeouts | None = None,
        recorder: Recorder | None = None,
        on_notification: Callable[[NotificationReceived], None] | None = None,
        on_message: Callable[[WireMessage], None] | None = None,
        on_transport_event: Callable[[TransportEvent], None] | None = None,
        validate: bool = True,
        limits: Limits | None = None,
        protocol_era: EraChoice | str = EraChoice.AUTO,
        discover_timeout: float = DISCOVER_TIMEOUT,
        listen_for_changes: bool = False,
        log_level: str | None = None,
        reuse_discover: bool = True,
        discover_cache: DiscoverCache | None = None,
    ) -> None:
        """``limits``: what the session bounds (a message's size); None: the transport's own limits.
        ``protocol_version``: the version offered in its era (a handshake-era one is offered by ``initialize``
        in ``legacy`` and ``auto``; 2026-07-28 means ``modern`` unless ``protocol_era`` says otherwise).
        ``listen_for_changes``: in 2026-07-28, open a ``subscriptions/listen`` stream for the list changes the
        server declares (``listChanged``) right after connecting, so that those notifications arrive as they do
        in the handshake era (a window keeps its lists fresh with them). ``log_level``: in 2026-07-28 the level
        every request asks log messages for (None: none; ``set_logging_level`` changes it)."""
        self.transport = transport
        transport.backpressure = self._backpressure
        self.timeouts = timeouts or Timeouts()
        choice = EraChoice(protocol_era)
        if era_of(protocol_version) is Era.MODERN:
            if choice is EraChoice.LEGACY:
                raise ValueError(f"protocol version {protocol_version} is not a handshake-era (legacy) version")
            choice = EraChoice.MODERN if choice is EraChoice.MODERN or protocol_era == EraChoice.AUTO else choice
            handshake_version = DEFAULT_VERSION
        else:
            handshake_version = protocol_version
        self.protocol_era = choice
        self.discover_timeout = discover_timeout
        caps = dict(capabilities or {})
        self._offers = {
            Era.HANDSHAKE: SessionOffer(handshake_version, caps, client_info),
            Era.MODERN: SessionOffer(MODERN_VERSION, caps, client_info),
        }
        self._validate = validate
        self._limits = limits if limits is not None else transport.limits
        self._ids = itertools.count(1)
        """Shared by every session of this connection, so that ids stay unique across sessions."""
        self._era = Era.HANDSHAKE if choice is EraChoice.LEGACY else Era.MODERN
        self._log_level = log_level
        self.session = self.new_session()
        self.outstanding = Outstanding()
        self.renewal = SessionRenewal(self)
        self.handlers: ServerRequestHandlers = handlers or HeadlessHandlers()
        self.recorder = recorder
        self.on_notification = on_notification
        self.on_message = on_message
        self.on_transport_event = on_transport_event
        self.diagnostics: list[Diagnostic] = []
        self.stderr_tail: deque[str] = deque(maxlen=50)
        self.server: ServerInfo | None = None
        self.closed_event: TransportClosed | None = None
        self.answering = Answering(self)
        """Answers the server's requests and the input its input_required results ask for."""
        self._streams: dict[RequestId, Callable[[NotificationReceived], None]] = {}
        """Open ``subscriptions/listen`` requests -> who gets the notifications that carry their id."""
        self.listening = Listening(self)
        self.reuse_discover = reuse_discover
        self.discover_cache = discover_cache if discover_cache is not None else SHARED_DISCOVER
        self._from_cache: str | None = None
        self._discover_findings: set[int] = set()
        """Diagnostics of the answer to server/discover (by identity): information, should auto fall back."""
        self.cache = ResultCache()
        """2026-07-28 results kept while their ``ttlMs`` says they are fresh (see :meth:`request`)."""
        self.listen_for_changes = listen_for_changes
        self._sendq: deque[WireMessage] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = False
        self._closing = False
        self._close_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Connection:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> ServerInfo:
        """Start the transport and run the handshake. Raises ConnectFailed with one clear line."""
        if self._started:
            raise ClientError("connect() was already called on this connection")
        self._started = True
        self._loop = asyncio.get_running_loop()
        t0 = time.monotonic()
        try:
            await self.transport.start(self._on_transport_event)
        except TransportError as exc:
            raise ConnectFailed(message_of(exc)) from None
        except OSError as exc:
            raise ConnectFailed(f"could not start {self.transport.describe()}: {message_of(exc)}") from None
        except Exception as exc:  # what a transport must not raise (e.g. a header httpx2 cannot encode)
            raise ConnectFailed(f"could not start {self.transport.describe()}: {describe_exception(exc)}") from None
        if self.closed_event is not None:
            raise ConnectFailed(self._lost_reason(self.closed_event))
        if self.protocol_era is EraChoice.AUTO:
            result, reason = await self._open_auto()
        else:
            result = await self._open(self._era)
            reason = f"{self.protocol_era.value} asked for ({self._from_cache or self.session.opening_method})"
        s = self.session
        self.server = ServerInfo(
            s.protocol_version, s.server_info, s.server_capabilities, s.instructions, result,
            time.monotonic() - t0, s.era, reason,
        )  # fmt: skip
        if self.listen_for_changes and s.era is Era.MODERN:
            await self.listening.for_changes()
        return self.server

    def _cached_discover(self, era: Era) -> dict[str, Any] | None:
        """A fresh public server/discover answer of this HTTP endpoint from an earlier connection, opened from
        without a round trip (None: none, or it no longer opens this session)."""
        endpoint = self.transport.endpoint
        if era is not Era.MODERN or not self.reuse_discover or endpoint is None:
            return None
        hit = self.discover_cache.get(endpoint)
        if hit is None:
            return None
        if not any(isinstance(ev, HandshakeCompleted) for ev in self.session.open_from(hit.result)):
            self.session = self.new_session()  # (it named what it could not use; ask the server instead)
            return None
        left = hit.expires_at - time.monotonic()
        self.cache.put("server/discover", None, hit.result)
        self._from_cache = f"server/discover answered from an earlier connection to {endpoint} (fresh for {left:.0f} s)"
        self._note(self._from_cache)
        return hit.result

    async def discover(self, *, fresh: bool = False) -> dict[str, Any]:
        """2026-07-28: the server's ``server/discover`` answer (this connection's, while fresh, unless ``fresh``)."""
        result: dict[str, Any] = await self.request("server/discover", fresh=fresh)
        return result

    def new_session(self) -> ClientSession:
        """A fresh session of the era in use (the one factory; renewal uses it too)."""
        session = new_session(
            self._offers[self._era],
            id_generator=self._ids,
            clock=time.monotonic,
            default_timeouts=self.timeouts,
            validate=self._validate,
            limits=self._limits,
        )
        session.cancel_notifies = not self.transport.cancels_by_closing
        session.header_rules = self.transport.carries_headers
        session.log_level = self._log_level
        return session

    async def _open_auto(self) -> tuple[Any, str]:
        """server/discover first; initialize when the answer is not a valid modern one or does not come."""
        try:
            # over HTTP a legacy server answers the POST with a status at once; the time until the answer may
            # be an OAuth flow (401, metadata, registration, consent), which a short timeout would cut
            timeout = None if self.transport.carries_headers else self.discover_timeout
            result = await self._open(Era.MODERN, timeout=timeout, fallible=True)
        except _NotModern as exc:
            if self.closed_event is not None:
                raise ConnectFailed(self._lost_reason(self.closed_event)) from None
            # what the probe found wrong is not the server's fault: its era has no server/discover
            answer = self._discover_findings
            self.diagnostics = [_as_probe_finding(d) if id(d) in answer else d for d in self.diagnostics]
            self._note(f"server/discover {exc}; trying initialize (handshake era)")
            self._era = Era.HANDSHAKE
            self.session = self.new_session()
            try:
                result = await self._open(Era.HANDSHAKE)
            except ConnectFailed as failed:
                if failed.code in MODERN_ERRORS:  # a 2026-07-28 server after all: what discover got is the news
                    why = f"server/discover {exc}; initialize, tried next, got a 2026-07-28 error: {message_of(failed)}"
                else:
                    why = f"{message_of(failed)} (server/discover before it {exc})"
                raise ConnectFailed(why, failed.code, failed.data) from failed.__cause__
            return result, f"auto: server/discover {exc}, so initialize"
        if self._from_cache is not None:
            return result, f"auto: {self._from_cache}"
        return result, "auto: the server answered server/discover with 2026-07-28"

    async def _open(
        self, era: Era, *, timeout: float | None = None, fallible: bool = False, retried: bool = False
    ) -> Any:
        """Run the opening exchange of ``era`` on ``self.session``. With ``fallible``, what says the server
        is not a modern one raises ``_NotModern`` (the caller tries initialize) instead of ConnectFailed.
        A modern refusal of the version (-32022) naming a modern version we speak is retried once with it."""
        assert self._loop is not None
        self._era = era
        self.transport.set_era(era)
        self.session.cancel_notifies = not self.transport.cancels_by_closing
        self.session.header_rules = self.transport.carries_headers
        cached = self._cached_discover(era)
        if cached is not None:
            return cached
        timeouts = self.timeouts if timeout is None else replace(self.timeouts, request=timeout, max_total=timeout)
        rid = self.session.start(timeouts=timeouts)
        what = self.session.opening_method
        fut = self._loop.create_future()
        self.outstanding.add(rid, fut)
        self._pump()
        try:
            result = await fut
            if era is Era.MODERN:
                self.cache.put("server/discover", None, result)
                if self.reuse_discover and self.transport.endpoint is not None:
                    self.discover_cache.put(self.transport.endpoint, result)
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
                    self._note(
                        f"{what}: the server refused version {self.session.offered_version}; retrying with {version}"
                    )
                    self._offers[Era.MODERN] = replace(self._offers[Era.MODERN], protocol_version=version)
                    self.session = self.new_session()
                    return await self._open(era, timeout=timeout, fallible=False, retried=True)
            if fallible and exc.code not in MODERN_ERRORS:  # a modern error says: a modern server; no fallback
                what = "was refused" if exc.code is not None else "got an answer that is not a 2026-07-28 one"
                raise _NotModern(f"{what} ({message_of(exc)})") from None
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
            await self.close()
        except Exception:  # closing after a failure must not mask the failure
            pass

    async def close(self) -> None:
        """Close the transport and fail whatever is still pending; idempotent (a second call waits for the
        first to finish)."""
        if self._close_task is None:
            self._closing = True
            self._close_task = asyncio.get_running_loop().create_task(self._close(), name="connection-close")
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self.answering.cancel_all()
        await self.listening.close()
        self.renewal.stop(NotConnected("connection closed"))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        writer = self._writer
        if writer is not None and not writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(writer), 1.0)
            except (TimeoutError, Exception):  # best effort flush before closing
                writer.cancel()
        if self._started:
            await self.transport.close()
        self._fail_all(NotConnected("connection closed"))
        if self.recorder is not None and hasattr(self.recorder, "flush"):
            self.recorder.flush()

    @property
    def is_open(self) -> bool:
        return self.session.state is SessionState.READY and self.closed_event is None and not self._closing

    # ------------------------------------------------------------------ requests

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        forced: bool = False,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        progress: bool | None = None,
        fresh: bool = False,
    ) -> Any:
        """Send a request and return its raw result (of the last round, for a multi-round-trip request).
        ``timeout`` overrides the per-request period (of each round).

        2026-07-28: a cacheable result (``ttlMs``) still fresh in :attr:`cache` is returned without asking
        the server (a note in the log says so); ``fresh=True`` always asks (and stores the new answer)."""
        cacheable = self.session.era is Era.MODERN and method in CACHEABLE_METHODS and not forced
        if cacheable and not fresh:
            hit = self.cache.get(method, params)
            if hit is not None:
                left = hit.expires_at - time.monotonic()
                self._note(f"{method}: answered from the cache (fresh for {left:.1f} s more, {hit.scope or 'private'})")
                return hit.result
        result = await self._send(
            method, params, forced=forced, timeout=timeout, on_progress=on_progress, progress=progress
        )
        if cacheable:
            self.cache.put(method, params, result)
        return result

    async def _send(
        self,
        method: str,
        params: dict[str, Any] | None,
        *,
        forced: bool,
        timeout: float | None,
        on_progress: ProgressCallback | None,
        progress: bool | None,
    ) -> Any:
        await self.renewal.wait()
        if not self.is_open:
            raise NotConnected(self._not_open_reason())
        timeouts = self.timeouts if timeout is None else replace(self.timeouts, request=timeout)
        want_progress = on_progress is not None if progress is None else progress
        try:
            rid = self.session.send_request(method, params, forced=forced, progress=want_progress, timeouts=timeouts)
        except _session.CapabilityNotDeclared as exc:
            raise CapabilityNotDeclared(exc.method, exc.capability) from None
        except _session.LocalProtocolError as exc:
            raise NotConnected(message_of(exc)) from None
        assert self._loop is not None
        fut: asyncio.Future[Any] = self._loop.create_future()
        self.outstanding.add(rid, fut, on_progress)
        self._pump()
        try:
            return await fut
        except asyncio.CancelledError:
            rid = self.outstanding.current_id(rid)
            self.answering.stop_input(rid)
            if rid in self.session.pending or self.session.waiting_for_input(rid):
                self.session.cancel(rid, "cancelled by the client")
                self.outstanding.take(rid)
                self._abandon([rid])
                self._pump()
            raise

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self.renewal.wait()
        if not self.is_open:
            raise NotConnected(self._not_open_reason())
        self.session.send_notification(method, params)
        self._pump()

    @property
    def era(self) -> Era:
        """The era of the session in use."""
        return self.session.era

    async def ping(self) -> Any:
        """``ping``; 2026-07-28 has none, so there it asks ``server/discover`` (the cheapest round trip) and,
        like a ping, returns an empty result."""
        if self.session.era is Era.MODERN:
            await self.request("server/discover", fresh=True)
            return {}
        return await self.request("ping")

    async def _list(
        self, method: str, key: str, params: dict[str, Any] | None = None, *, fresh: bool = False
    ) -> dict[str, Any]:
        pager = Paginator(key, params)
        while not pager.done:
            pager.add_page(await self.request(method, pager.next_params(), fresh=fresh))
        self.diagnostics.extend(pager.diagnostics)
        return pager.merged()

    async def list_tools(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("tools/list", "tools", fresh=fresh)

    async def list_resources(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("resources/list", "resources", fresh=fresh)

    async def list_resource_templates(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("resources/templates/list", "resourceTemplates", fresh=fresh)

    async def list_prompts(self, *, fresh: bool = False) -> dict[str, Any]:
        return await self._list("prompts/list", "prompts", fresh=fresh)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout: float | None = None,
        forced: bool = False,
    ) -> Any:
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        # a progress token is always offered so that progress can keep a long call alive
        try:
            return await self.request(
                "tools/call", params, on_progress=on_progress, timeout=timeout, progress=True, forced=forced
            )
        except RemoteError as exc:
            if self.session.era is not Era.MODERN or not is_header_mismatch(exc.code):
                raise
        # -32020: the headers we derived from the tool's x-mcp-header annotations disagree with the server's;
        # our copy of the tool list may be stale: list again once and retry once
        self._note(f"tools/call {name}: the server reported a header mismatch (-32020); re-listing tools, retrying")
        await self.list_tools(fresh=True)
        return await self.request(
            "tools/call", params, on_progress=on_progress, timeout=timeout, progress=True, forced=forced
        )

    async def read_resource(self, uri: str, *, fresh: bool = False) -> Any:
        return await self.request("resources/read", {"uri": uri}, fresh=fresh)

    async def subscribe_resource(self, uri: str) -> Any:
        """``resources/subscribe``; in 2026-07-28 the URI joins the connection's listen stream for resource
        updates (see :class:`inspector.client.listen.Listening`)."""
        if self.session.era is not Era.MODERN:
            return await self.request("resources/subscribe", {"uri": uri})
        await self.listening.subscribe(uri)
        return {}

    async def unsubscribe_resource(self, uri: str) -> Any:
        if self.session.era is not Era.MODERN:
            return await self.request("resources/unsubscribe", {"uri": uri})
        await self.listening.unsubscribe(uri)
        return {}

    async def listen(
        self,
        notifications: dict[str, Any],
        on_notification: Callable[[NotificationReceived], None] | None = None,
    ) -> Subscription:
        """2026-07-28: open a ``subscriptions/listen`` stream (see :mod:`inspector.client.listen`)."""
        return await self.listening.open(notifications, on_notification)

    @property
    def change_listen(self) -> Subscription | None:
        """The stream ``listen_for_changes`` opened (None: none)."""
        return self.listening.changes

    def start_stream(
        self,
        method: str,
        params: dict[str, Any] | None,
        on_notification: Callable[[NotificationReceived], None],
        timeouts: Timeouts,
    ) -> tuple[RequestId, asyncio.Future[Any]]:
        """Send a long-lived request whose notifications carry its id (``subscriptions/listen``): returns its
        id and the future of its final answer; those notifications go to ``on_notification``."""
        if not self.is_open:
            raise NotConnected(self._not_open_reason())
        try:
            rid = self.session.send_request(method, params, timeouts=timeouts)
        except _session.LocalProtocolError as exc:
            raise NotConnected(message_of(exc)) from None
        assert self._loop is not None
        fut: asyncio.Future[Any] = self._loop.create_future()
        fut.add_done_callback(functools.partial(self._stream_ended, rid))
        self.outstanding.add(rid, fut)
        self._streams[rid] = on_notification
        self._pump()
        return rid, fut

    def stop_stream(self, rid: RequestId | None) -> None:
        """Cancel a stream of :meth:`start_stream` (nothing when it already ended)."""
        if rid is None:
            return
        self._streams.pop(rid, None)
        if rid in self.session.pending:
            self.session.cancel(rid, "closed by the client")
            self.outstanding.take(rid)
            self._abandon([rid])
            self._pump()

    def _stream_ended(self, rid: RequestId, fut: asyncio.Future[Any]) -> None:
        self._streams.pop(rid, None)
        if not fut.cancelled():
            fut.exception()  # retrieved: the subscription reads it, or nobody does

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> Any:
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return await self.request("prompts/get", params)

    async def complete(
        self, ref: dict[str, Any], argument: dict[str, str], context: dict[str, Any] | None = None
    ) -> Any:
        params: dict[str, Any] = {"ref": ref, "argument": argument}
        if context is not None:
            params["context"] = context
        return await self.request("completion/complete", params)

    async def set_logging_level(self, level: str) -> Any:
        """``logging/setLevel``; in 2026-07-28 the level rides in every request's ``_meta`` from now on."""
        if self.session.era is Era.MODERN:
            self.session.log_level = self._log_level = level
            return {}
        return await self.request("logging/setLevel", {"level": level})

    async def send_roots_list_changed(self) -> None:
        """The roots changed. 2026-07-28 has no such notification (roots are asked for per request): nothing."""
        if self.session.era is Era.MODERN:
            return
        await self.notify("notifications/roots/list_changed")

    @property
    def violations(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.VIOLATION]

    # ------------------------------------------------------------------ inbound

    def _backpressure(self) -> Awaitable[None] | None:
        recorder = self.recorder
        if recorder is None or self._loop is None or not getattr(recorder, "backlogged", False):
            return None
        return self._recorder_drained(recorder, self._loop)

    @staticmethod
    async def _recorder_drained(recorder: Recorder, loop: asyncio.AbstractEventLoop) -> None:
        # The connection's loop, not asyncio.sleep(): a reader's step may run outside the running loop (the
        # window's last event processing at shutdown).
        while not getattr(recorder, "drained", True):
            pause: asyncio.Future[None] = loop.create_future()
            loop.call_later(BACKLOG_POLL, _resolve, pause)
            await pause

    def _on_transport_event(self, event: TransportEvent) -> None:
        """The transport's sink: whatever goes wrong handling an event ends the connection with one line (a
        transport only logs what its sink raises, and the event would be lost)."""
        try:
            self._handle_transport_event(event)
        except Exception as exc:
            self._broken(f"internal error handling {_event_name(event)}: {describe_exception(exc)}")

    def _handle_transport_event(self, event: TransportEvent) -> None:
        if isinstance(event, DataReceived):
            for rec in self.session.receive_data(event.data):
                self._on_received(rec)
        elif isinstance(event, FrameReceived):
            self._on_received(self.session.receive_frame(event.data))
        else:
            if self.recorder is not None:
                self.recorder.record_transport(event)
            if self.on_transport_event is not None:
                self.on_transport_event(event)
            if isinstance(event, StderrLine):
                self.stderr_tail.append(event.line)
            elif isinstance(event, TransportClosed):
                for rec in self.session.end_of_data():
                    self._on_received(rec)
                self._on_closed(event)
            elif isinstance(event, SessionExpired):
                self.renewal.on_session_expired(event)
            elif isinstance(event, SendFailed):
                self.renewal.on_send_failed(event)
        self._pump()

    def _on_received(self, rec: Received) -> None:
        wire = rec.wire
        if wire.diagnostics:
            self.diagnostics.extend(wire.diagnostics)
            if self.session.era is Era.MODERN and self.session.is_opening(wire.id):  # (auto may call it a probe)
                self._discover_findings.update(id(d) for d in wire.diagnostics)
        if self.recorder is not None:
            self.recorder.record_message(wire)
        if self.on_message is not None:
            self.on_message(wire)
        for ev in rec.events:
            if isinstance(ev, ResponseReceived):
                self.renewal.answered()
                self.outstanding.resolve(ev.request_id, ev.result)
            elif isinstance(ev, RequestFailed):
                self._fail_request(ev)
            elif isinstance(ev, InputRequested):
                self.renewal.answered()
                self.answering.input(ev)
            elif isinstance(ev, HandshakeCompleted):
                if self.session.era is Era.HANDSHAKE:
                    self.transport.on_negotiated(ev.protocol_version)
                if wire.id is not None:
                    self.outstanding.resolve(wire.id, ev.result)
            elif isinstance(ev, HandshakeFailed):
                self.outstanding.fail_all(ConnectFailed(ev.reason, ev.code, ev.data))
            elif isinstance(ev, ProgressReceived):
                cb = self.outstanding.progress(ev.request_id)
                if cb is not None:
                    cb(ev.progress, ev.total, ev.message)
            elif isinstance(ev, NotificationReceived):
                if len(self.cache):
                    self.cache.on_notification(ev.method, ev.params)
                route = self._streams.get(subscription_id(ev)) if self._streams else None
                if route is not None:
                    route(ev)
                if self.on_notification is not None:
                    self.on_notification(ev)
            elif isinstance(ev, RequestReceived):
                self.answering.request(ev, wire)
            elif isinstance(ev, RequestCancelledByServer):
                self.answering.withdrawn(ev.id)

    def _fail_request(self, ev: RequestFailed) -> None:
        fut, _ = self.outstanding.take(ev.request_id)
        if fut is None or fut.done():
            return
        exc: ClientError
        if ev.kind == "error":
            exc = RemoteError(ev.code, ev.reason, ev.data, method=ev.method)
        elif ev.kind == "timeout":
            exc = RequestTimeout(ev.reason)
        elif ev.kind == "invalid":
            exc = InvalidResponse(f"{ev.method}: {ev.reason}")
        elif ev.kind == "cancelled":
            exc = RequestCancelled(ev.reason)
        else:
            exc = ConnectionLost(ev.reason, self.closed_event)
        fut.set_exception(exc)

    def _on_closed(self, event: TransportClosed) -> None:
        if self.closed_event is not None:
            return  # the connection already ended (see _broken); the transport closing now changes nothing
        self.closed_event = event
        reason = self._lost_reason(event)
        for failed in self.session.connection_lost(reason):
            self._fail_request(failed)
        self._fail_all(ConnectionLost(reason, event))
        self.renewal.stop(ConnectionLost(reason, event))
        self.answering.cancel_all()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _lost_reason(self, event: TransportClosed) -> str:
        if event.stderr_tail or not self.stderr_tail:
            return event.describe()
        return replace(event, stderr_tail=tuple(self.stderr_tail)).describe()

    def _fail_all(self, exc: ClientError) -> None:
        self.outstanding.fail_all(exc)

    def _not_open_reason(self) -> str:
        if self.closed_event is not None:
            return f"not connected: {self._lost_reason(self.closed_event)}"
        if self.session.failure:
            return f"not connected: {self.session.failure}"
        return f"not connected (session {self.session.state.value})"

    # ------------------------------------------------------------------ renewal's host (RenewalHost)

    @property
    def ending(self) -> bool:
        return self._closing or self.closed_event is not None or self._loop is None

    def take_unsent(self) -> list[WireMessage]:
        unsent = list(self._sendq)
        self._sendq.clear()
        return unsent

    def drop_server_requests(self) -> None:
        self.answering.cancel_all()

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        return self._spawn(coro, what)

    def pump(self) -> None:
        self._pump()

    def note(self, message: str) -> None:
        self._note(message)

    def renewed(self, result: dict[str, Any], elapsed: float) -> None:
        s = self.session
        era_reason = self.server.era_reason if self.server is not None else ""
        self.server = ServerInfo(
            s.protocol_version, s.server_info, s.server_capabilities, s.instructions, result, elapsed, s.era,
            era_reason,
        )  # fmt: skip

    def _note(self, message: str) -> None:
        """A line in the traffic log from the connection itself (recorded and passed on like a transport's)."""
        self._on_transport_event(TransportNote(message))

    # ------------------------------------------------------------------ outbound and time

    def _pump(self) -> None:
        """Send whatever the session queued, and re-arm the deadline timer. What goes wrong on the way (the
        recorder or ``on_message`` raising) ends the connection with one line."""
        try:
            self._pump_out()
        except Exception as exc:
            self._broken(f"internal error sending: {describe_exception(exc)}")

    def _pump_out(self) -> None:
        out = self.session.pop_outgoing()
        if out:
            for wire in out:
                if self.recorder is not None:
                    self.recorder.record_message(wire)
                if self.on_message is not None:
                    self.on_message(wire)
            if self.closed_event is None:
                self._sendq.extend(out)
                if self._writer is None and self._loop is not None:
                    self._writer = self._spawn(self._write_loop(), "the connection's writer")
        self._arm_timer()

    async def _write_loop(self) -> None:
        try:
            while self._sendq:
                wire = self._sendq.popleft()
                try:
                    if wire.headers:
                        await self.transport.send(wire.raw, wire.headers)
                    else:
                        await self.transport.send(wire.raw)
                except TransportError:
                    self._sendq.clear()
                    return  # the transport reports the close itself (TransportClosed)
                except Exception as exc:  # what a transport must not raise: the connection cannot go on
                    self._sendq.clear()
                    what = wire.method or wire.kind.value
                    self._broken(f"the transport failed to send {what}: {describe_exception(exc)}")
                    return
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    def _arm_timer(self) -> None:
        if self._loop is None or self.closed_event is not None:
            return
        deadline = self.session.next_deadline()
        if deadline is None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = self._timer_at = None
            return
        if self._timer is not None and self._timer_at is not None and self._timer_at <= deadline:
            return  # an earlier (or equal) wake-up is already armed; it re-arms when it fires
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, deadline - time.monotonic())
        self._timer_at = deadline
        self._timer = self._loop.call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        try:
            self._check_deadlines()
        except Exception as exc:
            self._broken(f"internal error checking deadlines: {describe_exception(exc)}")

    def _check_deadlines(self) -> None:
        self._timer = self._timer_at = None
        timed_out = self.session.check_timeouts()
        for failed in timed_out:
            self._fail_request(failed)
        self._abandon([failed.request_id for failed in timed_out])
        self._pump()

    def _abandon(self, request_ids: list[RequestId]) -> None:
        """These requests ended unanswered (timed out, cancelled): the transport stops working for them
        (an HTTP transport stops resuming their response streams)."""
        if request_ids:
            self.transport.abandon(request_ids)

    # ------------------------------------------------------------------ supervision

    def _spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """A background task of this connection; an exception it ends with ends the connection (``_broken``)."""
        assert self._loop is not None
        task = self._loop.create_task(coro, name=f"connection: {what}")
        task.add_done_callback(functools.partial(self._task_done, what))
        return task

    def _task_done(self, what: str, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()  # (retrieved: never "Task exception was never retrieved")
        if exc is not None:
            self._broken(f"internal error in {what}: {describe_exception(exc)}")

    def _broken(self, reason: str) -> None:
        """Something failed that nobody expected: the connection is lost, with ``reason`` as its one line.

        Everything pending fails now with ``ConnectionLost`` (as when the transport closes), the failure is
        recorded and reported like a transport's closing (``TransportClosed``, unexpected), and the transport
        is closed in the background (``close()`` waits for it)."""
        if self.closed_event is not None:
            return
        event = TransportClosed(f"the connection failed: {reason}", expected=False)
        try:
            self._handle_transport_event(event)
        except Exception:  # the recorder or a callback is what broke: end the connection without them
            if self.closed_event is None:
                self.closed_event = event
            self._fail_all(ConnectionLost(event.reason, event))
        if self._loop is not None and self._started and self._close_task is None:
            self._closing = True
            self._close_task = self._loop.create_task(self._close(), name="connection-close")
            self._close_task.add_done_callback(_retrieve)


def _retrieve(task: asyncio.Task[None]) -> None:
    """Done callback of a task nobody may await: its exception is taken (and dropped) so it is never logged."""
    if not task.cancelled():
        task.exception()


def _event_name(event: TransportEvent) -> str:
    return {"DataReceived": "data", "FrameReceived": "a message"}.get(type(event).__name__, type(event).__name__)


class _NotModern(Exception):
    """auto: the answer to server/discover says the server is not a modern one (the reason is the text)."""


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
