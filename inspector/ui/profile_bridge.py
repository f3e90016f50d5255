"""From a saved profile to what the connection controller needs, and the built-in demo profile.

``connection_settings`` takes a profile whose secrets are resolved (``ProfileStore.resolve_secrets``)
and returns a ``ConnectionSettings`` whose transport factory starts the server with the profile's
command, arguments, environment (secret values included, in memory only) and working directory, and
whose handlers answer the server's requests with dialogs (``GuiRequestHandlers``: the profile's roots,
its sampling auto-reply, its declared capabilities).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QObject, Signal

from inspector.protocol.limits import Limits
from inspector.protocol.session import Timeouts
from inspector.store.profiles import Profile, StdioSettings
from inspector.store.recording import Redactor
from inspector.transports.base import (
    EventSink,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.forwarding import ForwardingTransport
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.select import transport_for_target
from inspector.transports.stdio import StdioTransport
from inspector.ui.controller import ConnectionSettings
from inspector.ui.requests.gui_handlers import GuiRequestHandlers

if TYPE_CHECKING:
    import httpx2

    from inspector.auth import AuthStep

__all__ = [
    "DEMO_HTTP_PROFILE_ID",
    "DEMO_PROFILE_ID",
    "AuthStepFeed",
    "DemoHttpTransport",
    "HttpTransportFactory",
    "ProfileNotConnectable",
    "builtin_profile",
    "connection_settings",
    "demo_http_profile",
    "demo_profile",
    "is_demo",
    "secret_redactor",
]

DEMO_PROFILE_ID: Final = "builtin:demo"
"""The demo profile is never saved; this id marks it in the window state (open tabs)."""
DEMO_HTTP_PROFILE_ID: Final = "builtin:demo-http"
"""The demo server over Streamable HTTP (started by the connection, never saved)."""
DEMO_URL_TIMEOUT: Final = 30.0
"""Seconds the HTTP demo server may take to say where it listens."""


class ProfileNotConnectable(Exception):
    """The profile cannot be used to connect yet (one line for the user)."""


def demo_profile() -> Profile:
    """The bundled demo server, run with this very interpreter."""
    return Profile(
        name="Demo server",
        id=DEMO_PROFILE_ID,
        stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]),
    )


def demo_http_profile() -> Profile:
    """The bundled demo server over Streamable HTTP (a fresh local process per connection)."""
    return Profile(name="Demo server (HTTP)", id=DEMO_HTTP_PROFILE_ID, transport="http")


def builtin_profile(profile_id: str) -> Profile | None:
    """The built-in profile with this id (None for any other id)."""
    if profile_id == DEMO_PROFILE_ID:
        return demo_profile()
    if profile_id == DEMO_HTTP_PROFILE_ID:
        return demo_http_profile()
    return None


def is_demo(profile_id: str) -> bool:
    return profile_id in (DEMO_PROFILE_ID, DEMO_HTTP_PROFILE_ID)


MASK: Final = b"********"
MIN_SECRET_LENGTH: Final = 3
"""Shorter secret values are not masked in recordings (they would mask unrelated text everywhere)."""


def secret_redactor(profile: Profile) -> Redactor | None:
    """A function masking the profile's secret values (as typed and JSON-escaped) in recorded payloads."""
    needles: set[bytes] = set()
    for slot in profile.secret_slots():
        if slot.value is not None and len(slot.value) >= MIN_SECRET_LENGTH:
            needles.add(slot.value.encode("utf-8"))
            needles.add(json.dumps(slot.value, ensure_ascii=True)[1:-1].encode("ascii"))
            needles.add(json.dumps(slot.value, ensure_ascii=False)[1:-1].encode("utf-8"))
    if not needles:
        return None
    ordered = sorted(needles, key=len, reverse=True)

    def redact(data: bytes) -> bytes:
        for needle in ordered:
            if needle in data:
                data = data.replace(needle, MASK)
        return data

    return redact


def _stdio_factory(settings: StdioSettings, env: dict[str, str], limits: Limits) -> Callable[[], Transport]:
    command, args, cwd = settings.command, list(settings.args), settings.cwd or None

    def factory() -> Transport:
        return StdioTransport(command, args, env=env, cwd=cwd, limits=limits)

    return factory


class AuthStepFeed(QObject):
    """Where an OAuth profile's authorization steps go: ``stepChanged(generation, step)``.

    Each transport the factory builds has its own OAuth provider (a new ``generation``); its steps keep
    their index when they change, so a view replaces the row of that index.
    """

    stepChanged = Signal(int, object)

    def __init__(self, server_url: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server_url = server_url
        self.generation = 0

    def next_generation(self) -> Callable[[AuthStep], None]:
        self.generation += 1
        generation = self.generation
        return lambda step: self.stepChanged.emit(generation, step)


class HttpTransportFactory:
    """Builds the transport of an HTTP/SSE profile (secrets resolved), with its headers and auth."""

    def __init__(self, profile: Profile, limits: Limits) -> None:
        self.url = profile.http.url.strip()
        self.limits = limits
        self.transport = profile.transport
        self.headers = {h.name: h.value or "" for h in profile.http.headers if h.name}
        self.secret_headers = [h.name for h in profile.http.headers if h.name and h.secret]
        self.ca_bundle = profile.http.ca_bundle.strip() or None
        self.auth = copy.deepcopy(profile.auth)
        self.auth_feed = AuthStepFeed(self.url) if self.auth.mode == "oauth" else None

    def _auth(self) -> httpx2.Auth | None:
        a = self.auth
        if a.mode == "bearer":
            from inspector.auth import bearer_auth  # slow import: only when used

            return bearer_auth(a.bearer_token or "")
        if a.mode == "oauth" and self.auth_feed is not None:
            from inspector.auth import build_oauth_auth  # slow import: only when used

            return build_oauth_auth(
                self.url,
                client_id=a.client_id or None,
                client_secret=a.client_secret or None,
                cimd_url=a.cimd_url or None,
                scopes=list(a.scopes) or None,
                on_step=self.auth_feed.next_generation(),
                limits=self.limits,
            )
        return None

    def __call__(self) -> Transport:
        return transport_for_target(
            self.url,
            transport=self.transport,
            headers=self.headers,
            auth=self._auth(),
            ca_bundle=self.ca_bundle,
            secret_headers=self.secret_headers,
            limits=self.limits,
        )


class DemoHttpTransport(ForwardingTransport):
    """Starts ``python -m inspector.demo --http 0``, reads its URL from stderr, talks Streamable HTTP to it.

    The process belongs to this transport: it is stopped when the transport closes (or fails to start);
    its stderr lines after the URL are forwarded as StderrLine events.
    """

    def __init__(self, timeout: float = DEMO_URL_TIMEOUT) -> None:
        self.timeout = timeout
        self.process: asyncio.subprocess.Process | None = None
        self.url: str | None = None
        self._inner: StreamableHttpTransport | None = None
        self._sink: EventSink | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closed = False

    def describe(self) -> str:
        if self._inner is not None:
            return self._inner.describe()
        return f"{sys.executable} -m inspector.demo --http 0"

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None or self._closed:
            raise TransportError("transport already started")
        self._sink = sink
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "inspector.demo", "--http", "0",
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
        except OSError as exc:
            raise TransportError(f"cannot start the demo server: {exc}") from exc
        sink(TransportNote(f"demo server started, pid {self.process.pid}"))
        try:
            self.url = await asyncio.wait_for(self._read_url(), self.timeout)
        except (TimeoutError, TransportError) as exc:
            await self._stop_process()
            raise TransportError(f"the demo server did not start: {exc or 'no URL in time'}") from None
        self._reader = asyncio.get_running_loop().create_task(self._forward_stderr())
        self._inner = StreamableHttpTransport(self.url)
        self._inner.set_era(self.era)
        try:
            await self._inner.start(self._on_event)
        except BaseException:
            await self._stop_process()
            raise

    async def _read_url(self) -> str:
        assert self.process is not None and self.process.stderr is not None
        while True:
            raw = await self.process.stderr.readline()
            if not raw:
                raise TransportError("it exited before listening")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if self._sink is not None:
                self._sink(StderrLine(line))
            if line.startswith("listening on "):
                return line.removeprefix("listening on ").strip()

    async def _forward_stderr(self) -> None:
        process = self.process
        if process is None or process.stderr is None:
            return
        while raw := await process.stderr.readline():
            if self._sink is not None and not self._closed:
                self._sink(StderrLine(raw.decode("utf-8", "replace").rstrip("\r\n")))

    def _on_event(self, event: TransportEvent) -> None:
        if self._sink is not None:
            self._sink(event)

    async def close(self) -> None:
        if self._closed:
            return
        inner = self._inner
        if inner is not None:
            await inner.close()  # emits TransportClosed(expected=True)
        self._closed = True
        await self._stop_process()
        if inner is None and self._sink is not None:
            self._sink(TransportClosed("closed", expected=True))

    async def _stop_process(self) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None


def _check_http(profile: Profile) -> None:
    url = profile.http.url.strip()
    if not url:
        raise ProfileNotConnectable(f'"{profile.name}" has no server URL')
    if not url.lower().startswith(("http://", "https://")):
        raise ProfileNotConnectable(f'"{profile.name}" needs an http:// or https:// URL, not {url!r}')
    if profile.auth.mode == "oauth" and profile.auth.client_secret and not profile.auth.client_id:
        raise ProfileNotConnectable(f'"{profile.name}" has an OAuth client secret but no client id')


def _transport_factory(profile: Profile) -> Callable[[], Transport]:
    if profile.id == DEMO_HTTP_PROFILE_ID:
        return DemoHttpTransport
    if profile.transport == "stdio":
        if not profile.stdio.command.strip():
            raise ProfileNotConnectable(f'"{profile.name}" has no command to run')
    else:
        _check_http(profile)
    missing = profile.unresolved_secrets()
    if missing:
        raise ProfileNotConnectable(
            f'"{profile.name}" needs a value for {", ".join(missing)} (edit the profile to enter it)'
        )
    try:
        limits = profile.effective_limits()
    except ValueError as exc:
        raise ProfileNotConnectable(f'"{profile.name}" has a bad limit: {exc}') from None
    if profile.transport == "stdio":
        env = {var.name: var.value or "" for var in profile.stdio.env if var.name}
        return _stdio_factory(profile.stdio, env, limits)
    return HttpTransportFactory(profile, limits)


def connection_settings(profile: Profile) -> ConnectionSettings:
    """ConnectionSettings for a profile with its secrets resolved; ProfileNotConnectable if it cannot be used."""
    factory = _transport_factory(profile)
    t = profile.timeouts
    timeouts = Timeouts(request=t.request, reset_on_progress=t.reset_on_progress, max_total=t.max_total)
    roots: list[dict[str, Any]] = [
        {"uri": root.uri, **({"name": root.name} if root.name else {})} for root in profile.roots
    ]
    capabilities = profile.client_capabilities(profile.protocol_version)
    handlers = GuiRequestHandlers(
        label=profile.name, roots=roots, auto_reply=profile.sampling_auto_reply, capabilities=capabilities
    )
    return ConnectionSettings(
        label=profile.name,
        transport_factory=factory,
        protocol_version=profile.protocol_version,
        protocol_era=profile.protocol_era,
        capabilities=capabilities,
        timeouts=timeouts,
        handlers=handlers,
    )
