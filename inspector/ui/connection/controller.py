"""One connection's life, as Qt signals: the bridge between the asyncio Connection and the widgets.

Plain state lives here (state, server info, failure, counts); widgets only read it and listen.
Connecting runs as an asyncio task on the qasync loop, so the window never blocks; Cancel and
Reconnect work at any time. Every frame goes to the session's Recording (SQLite), which the log
view reads; the ``messagesAdded`` signal is coalesced by a single-shot timer so a flood of
messages costs the GUI one update per tick, not one per message.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from PySide6.QtCore import QObject, Signal, SignalInstance
from PySide6.QtWidgets import QWidget

from inspector.client.connection import Connection, ServerInfo
from inspector.client.errors import ClientError
from inspector.client.handlers import HeadlessHandlers, ServerRequestHandlers
from inspector.protocol.diagnostics import Severity
from inspector.protocol.events import NotificationReceived
from inspector.protocol.session import Timeouts
from inspector.protocol.versions import DEFAULT_VERSION
from inspector.protocol.wire import RequestId, WireMessage
from inspector.store.paths import describe_os_error
from inspector.store.recording import MEMORY_ONLY, Recording, RecordingError
from inspector.transports.base import StderrLine, Transport, TransportClosed, TransportEvent
from inspector.ui.widgets.timers import coalescer

if TYPE_CHECKING:
    from inspector.ui.connection.auth_view import AuthStepFeed

__all__ = [
    "LONG_LIVED_METHODS",
    "ConnectionController",
    "ConnectionSettings",
    "ConnectionState",
    "ControllerBound",
    "RetryOffer",
    "UrlRequiredExplainer",
    "live_connection",
]

LONG_LIVED_METHODS = frozenset({"subscriptions/listen"})
"""Requests that stay open for the whole connection: never "in flight" for the header's Cancel."""


class RetryOffer(Protocol):
    """A dialog that explains a failure and may offer to try again (``retryRequested``)."""

    @property
    def retryRequested(self) -> SignalInstance: ...


class UrlRequiredExplainer(Protocol):
    """Explains a -32042 error (URL elicitation required) to the user; the window provides one."""

    def __call__(self, error_data: Any, parent: QWidget | None, message: str) -> RetryOffer: ...


@runtime_checkable
class ControllerBound(Protocol):
    """Handlers that follow the controller they connect with (the GUI handlers: URL elicitation completion)."""

    def bind_controller(self, controller: ConnectionController) -> None: ...


class ConnectionState(StrEnum):
    IDLE = "idle"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    FAILED = "failed"
    EXITED = "exited"
    """The server process ended (or the remote closed) after the connection was up."""
    CLOSED = "closed"
    """We disconnected."""


@dataclass(slots=True)
class ConnectionSettings:
    """Everything needed to (re)build a Connection; made from a profile by the caller."""

    label: str
    transport_factory: Callable[[], Transport]
    protocol_version: str = DEFAULT_VERSION
    protocol_era: str = "auto"
    """legacy | modern | auto (the profile's; see inspector.protocol.versions.EraChoice)."""
    capabilities: dict[str, Any] = field(default_factory=dict)
    timeouts: Timeouts = field(default_factory=Timeouts)
    handlers: ServerRequestHandlers | None = None
    explain_url_required: UrlRequiredExplainer | None = None
    """How a -32042 error is explained (None: as a plain error)."""
    auth_feed: AuthStepFeed | None = None
    """Where the OAuth steps of the transports go (None: the settings do not use OAuth; no Authorization tab)."""


class ConnectionController(QObject):
    stateChanged = Signal(object)
    """The new ``ConnectionState`` (the enum itself)."""
    messagesAdded = Signal()
    """New frames are in the recording (coalesced)."""
    stderrLine = Signal(str)
    notificationReceived = Signal(object)
    diagnosticsChanged = Signal(int)

    COALESCE_MS = 50

    def __init__(
        self,
        settings: ConnectionSettings,
        *,
        recording_factory: Callable[[str, str], Recording] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.state = ConnectionState.IDLE
        self.server: ServerInfo | None = None
        self.failure: str | None = None
        self.exit_info: TransportClosed | None = None
        self.connected_at: float | None = None
        self.diagnostic_count = 0
        self.violation_count = 0
        self.connection: Connection | None = None
        self.recording: Recording | None = None
        self._recording_factory = recording_factory or (
            lambda label, target: Recording.create_or_memory(label=label, target=target)
        )
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._pending_update = False
        self._flush_timer = coalescer(self, self.COALESCE_MS, self._emit_messages)

    # -------------------------------------------------------------- commands

    def start(self) -> None:
        """Connect (or reconnect) without blocking; progress is reported through stateChanged.

        The session's recording exists when this returns (the log view can attach to it at once).
        """
        if self._task is not None and not self._task.done():
            return
        self.ensure_recording()
        self._task = asyncio.get_event_loop().create_task(self._run_connect())
        self._begin()  # "connecting" shows at once, not on the loop's next turn

    def _begin(self) -> None:
        self.failure = None
        self.exit_info = None
        self.server = None
        self._set_state(ConnectionState.CONNECTING)

    def ensure_recording(self) -> Recording:
        """The session's recording, created on first use (one per controller, kept across reconnects).

        When no file can be made (the data dir cannot be written) the session records in memory and
        ``storage_note`` says so; ``RecordingError`` only when not even that works.
        """
        return self._new_recording()

    @property
    def storage_note(self) -> str | None:
        """Why the session's recording is kept in memory only (None: it is a file, or there is none yet)."""
        return self.recording.storage_note if self.recording is not None else None

    @property
    def busy(self) -> bool:
        """A connection attempt is in progress."""
        return self._task is not None and not self._task.done()

    def cancel(self) -> None:
        """Stop a connection attempt in progress."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def requests_in_flight(self) -> list[RequestId]:
        """Our requests of this connection still awaiting their answer (long-lived streams left out)."""
        conn = self.connection
        if conn is None or self.state is not ConnectionState.CONNECTED:
            return []
        pending = conn.session.pending
        return [
            rid
            for rid in conn.outstanding.ids()
            if (entry := pending.get(rid)) is None or entry.method not in LONG_LIVED_METHODS
        ]

    def cancel_requests(self) -> int:
        """Stop waiting for every request in flight: each is cancelled (``notifications/cancelled``) and its
        caller gets ``CancelledError``, as when it cancels itself. Returns how many were cancelled."""
        conn = self.connection
        cancelled = 0
        for rid in self.requests_in_flight():
            future = conn.outstanding.future(rid) if conn is not None else None
            if future is not None and not future.done():
                future.cancel()
                cancelled += 1
        if cancelled:
            self._schedule_update()
        return cancelled

    def stop(self) -> None:
        """Disconnect (or abandon a connection attempt) without blocking."""
        self._spawn(self.close_connection())

    async def close_connection(self) -> None:
        attempt = self._task
        if attempt is not None and not attempt.done():
            attempt.cancel()
            await asyncio.wait([attempt])  # the attempt closes its own transport
            self._set_state(ConnectionState.CLOSED)
        await self._close(ConnectionState.CLOSED)

    def reconnect(self) -> None:
        async def again() -> None:
            attempt = self._task
            if attempt is not None and not attempt.done():
                attempt.cancel()
                await asyncio.wait([attempt])  # let the cancelled attempt finish closing its transport
            await self._close(ConnectionState.CLOSED)
            self.start()

        self._spawn(again())

    async def aclose(self) -> None:
        """Close for good (tab closed, app quitting)."""
        await self.close_connection()
        if self.recording is not None:
            self.recording.close()

    # -------------------------------------------------------------- internals

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a background step, keeping a reference so the task cannot be garbage-collected midway."""
        task = asyncio.get_event_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _set_state(self, state: ConnectionState) -> None:
        if state is not self.state:
            self.state = state
            self.stateChanged.emit(state)

    def _new_recording(self) -> Recording:
        if self.recording is None:
            label, target = self.settings.label, self.settings.transport_factory().describe()
            try:
                self.recording = self._recording_factory(label, target)
            except (OSError, RecordingError, sqlite3.Error) as exc:  # a factory that cannot write: keep it in memory
                reason = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
                try:
                    self.recording = Recording.in_memory(f"{MEMORY_ONLY}: {reason}", label=label, target=target)
                except (RecordingError, sqlite3.Error) as again:
                    raise RecordingError(f"the session cannot be recorded: {reason}; in memory: {again}") from exc
        return self.recording

    async def _run_connect(self) -> None:
        if self.state is not ConnectionState.CONNECTING:
            self._begin()
        recording = self._new_recording()
        s = self.settings
        handlers = s.handlers or HeadlessHandlers()
        if isinstance(handlers, ControllerBound):  # GUI handlers follow this controller's notifications
            handlers.bind_controller(self)
        conn = Connection(
            s.transport_factory(),
            protocol_version=s.protocol_version,
            protocol_era=s.protocol_era,
            listen_for_changes=True,
            reuse_discover=False,  # a (re)connect shows what the server says now (its author restarts it often)
            log_level="debug",  # 2026-07-28: log messages come only for requests that ask; show them all
            capabilities=s.capabilities,
            handlers=handlers,
            timeouts=s.timeouts,
            recorder=recording,
            on_message=self._on_message,
            on_notification=self._on_notification,
            on_transport_event=self._on_transport_event,
        )
        self.connection = conn
        try:
            self.server = await conn.connect()
        except asyncio.CancelledError:
            self.failure = "cancelled"
            await conn.close()
            self._set_state(ConnectionState.FAILED)
            self._schedule_update()
            return
        except ClientError as exc:
            self.failure = str(exc)
            await conn.close()  # idempotent; makes sure no half-started server is left running
            self._set_state(ConnectionState.FAILED)
            self._schedule_update()
            return
        except Exception as exc:  # a bug must show as a failed attempt, not a tab stuck "connecting"
            self.failure = f"internal error: {type(exc).__name__}: {exc}"
            await conn.close()
            self._set_state(ConnectionState.FAILED)
            self._schedule_update()
            return
        self.connected_at = time.monotonic()
        self._set_state(ConnectionState.CONNECTED)
        self._schedule_update()

    async def _close(self, final: ConnectionState) -> None:
        conn = self.connection
        if conn is not None:
            await conn.close()
        if self.state in (ConnectionState.CONNECTED, ConnectionState.CONNECTING):
            self._set_state(final)
        self._schedule_update()

    def _on_message(self, wire: WireMessage) -> None:
        if wire.diagnostics:
            self.diagnostic_count += len(wire.diagnostics)
            self.violation_count += sum(1 for d in wire.diagnostics if d.severity is Severity.VIOLATION)
            self.diagnosticsChanged.emit(self.diagnostic_count)
        self._schedule_update()

    def _on_notification(self, event: NotificationReceived) -> None:
        self.notificationReceived.emit(event)

    def _on_transport_event(self, event: TransportEvent) -> None:
        if isinstance(event, StderrLine):
            self.stderrLine.emit(event.line)
        elif isinstance(event, TransportClosed):
            self.exit_info = event
            if not event.expected and self.state is ConnectionState.CONNECTED:
                self.failure = event.describe()
                self._set_state(ConnectionState.EXITED)
        self._schedule_update()

    def _schedule_update(self) -> None:
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _emit_messages(self) -> None:
        if self.recording is not None and not self.recording.closed:
            # Hand the rows to the recording's writer; a write failure shows in the log view.
            with contextlib.suppress(RecordingError):
                self.recording.flush(wait=False)
        self.messagesAdded.emit()

    def status_text(self) -> str:
        """One line for the status area."""
        if self.state is ConnectionState.CONNECTING:
            return f"Connecting to {self.settings.label}…"
        if self.state is ConnectionState.CONNECTED and self.server is not None:
            return f"Connected · protocol {self.server.protocol_version} · {self.server.elapsed * 1000:.0f} ms"
        if self.state is ConnectionState.FAILED:
            return f"Failed: {self.failure}"
        if self.state is ConnectionState.EXITED:
            return f"Server exited: {self.failure}"
        if self.state is ConnectionState.CLOSED:
            return "Disconnected"
        return "Not connected"


def live_connection(controller: ConnectionController) -> Connection | None:
    """The controller's connection while it is connected and open, else None: the one answer to "is there a
    live connection" (panels, pages and the connection-level views all ask it)."""
    conn = controller.connection
    if controller.state is not ConnectionState.CONNECTED or conn is None or not conn.is_open:
        return None
    return conn
