"""``subscriptions/listen`` (2026-07-28): one long-lived request whose stream carries the notifications asked for.

A :class:`Subscription` opens the stream with a ``notifications`` filter (``toolsListChanged``,
``promptsListChanged``, ``resourcesListChanged``, ``resourceSubscriptions``), waits for the server's
``notifications/subscriptions/acknowledged`` and compares the acknowledged filter with what was asked: a
difference (a type the server will not send, a URI left out, one added) is a diagnostic on the connection
and is kept in :attr:`Subscription.refused`. Notifications carrying its id in
``_meta["io.modelcontextprotocol/subscriptionId"]`` are passed to ``on_notification`` (they also reach the
connection's own callback). When the stream ends — the server answered it (a graceful end) or the transport
lost it — it is opened again after a backoff, within the reconnection budget of the connection's limits
(``reconnects_per_minute``); when the budget is spent the subscription ends with one note saying so.
``close()`` cancels it (notifications/cancelled on stdio; closing the stream over HTTP).

A subscription's :attr:`Subscription.state` (:class:`ListenState`: connecting, open, re-listening, closed) and
:attr:`Subscription.reason` say where the stream is; :meth:`Listening.watch` hears every change of any of the
connection's streams (a window shows them), :meth:`Listening.relisten` opens them all again, and
:func:`filter_items` lists what was asked and what was acknowledged, item by item.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from inspector.client.errors import ClientError, NotConnected, RemoteError, message_of
from inspector.protocol.capabilities import has_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.envelope import SUBSCRIPTION_ID_KEY, meta_of
from inspector.protocol.events import NotificationReceived
from inspector.protocol.session import Timeouts
from inspector.protocol.versions import Era
from inspector.protocol.wire import RequestId
from inspector.transports.reconnect import ReconnectWindow, backoff_delay

if TYPE_CHECKING:
    from inspector.client.connection import Connection

__all__ = [
    "ACK_METHOD",
    "FILTER_KEYS",
    "FilterItem",
    "ListenState",
    "Listening",
    "Subscription",
    "compare_filters",
    "filter_items",
]

ACK_METHOD: Final = "notifications/subscriptions/acknowledged"
FILTER_KEYS: Final = (
    "toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions",
    "taskIds",  # the io.modelcontextprotocol/tasks extension: notifications/tasks for these tasks
)  # fmt: skip
_LISTS: Final = {"resourceSubscriptions": "resource subscriptions", "taskIds": "task ids"}
_FOREVER: Final = Timeouts(request=None, reset_on_progress=False, max_total=None)


class ListenState(StrEnum):
    CONNECTING = "connecting"
    """The listen request is sent; no acknowledgement yet."""
    OPEN = "open"
    """Acknowledged: the stream carries the notifications."""
    RELISTENING = "re-listening"
    """The stream ended; it is opened again after a backoff."""
    CLOSED = "closed"
    """For good (:attr:`Subscription.reason` says why)."""


@dataclass(frozen=True, slots=True)
class FilterItem:
    """One thing a listen filter can hold: a kind (``toolsListChanged``) or one URI / task id of a list kind."""

    key: str
    value: str | None
    """The URI or task id (None for a kind)."""
    asked: bool
    acknowledged: bool | None
    """None: no acknowledgement yet."""


def filter_items(asked: Mapping[str, Any], acknowledged: Mapping[str, Any] | None) -> list[FilterItem]:
    """Everything asked or acknowledged, one item per kind or list entry, in ``FILTER_KEYS`` order (what was asked
    first within a list)."""
    items: list[FilterItem] = []
    for key in FILTER_KEYS:
        want = asked.get(key)
        got = acknowledged.get(key) if acknowledged is not None else None
        if key in _LISTS:
            wanted = [u for u in want or [] if isinstance(u, str)] if isinstance(want, list) else []
            granted = [u for u in got or [] if isinstance(u, str)] if isinstance(got, list) else []
            for value in dict.fromkeys([*wanted, *granted]):
                ack = None if acknowledged is None else value in granted
                items.append(FilterItem(key, value, value in wanted, ack))
        elif want is True or got is True:
            items.append(FilterItem(key, None, want is True, None if acknowledged is None else got is True))
    return items


def compare_filters(asked: Mapping[str, Any], acknowledged: Any) -> tuple[dict[str, Any], list[str]]:
    """(what was asked and not acknowledged, one line per difference)."""
    ack = acknowledged if isinstance(acknowledged, dict) else {}
    refused: dict[str, Any] = {}
    lines: list[str] = []
    for key in FILTER_KEYS:
        want, got = asked.get(key), ack.get(key)
        if key in _LISTS:
            wanted = [u for u in want or [] if isinstance(u, str)]
            granted = {u for u in got or [] if isinstance(u, str)} if isinstance(got, list) else set()
            missing = [u for u in wanted if u not in granted]
            extra = sorted(granted - set(wanted))
            if missing:
                refused[key] = missing
                lines.append(f"the server did not acknowledge {_LISTS[key]} {', '.join(missing)}")
            if extra:
                lines.append(f"the server acknowledged {_LISTS[key]} nobody asked for: {', '.join(extra)}")
        elif want is True and got is not True:
            refused[key] = True
            lines.append(f"the server will not send {key}")
        elif want is not True and got is True:
            lines.append(f"the server acknowledged {key}, which was not asked for")
    return refused, lines


class Subscription:
    """One ``subscriptions/listen`` stream of a connection (see the module's text)."""

    def __init__(
        self,
        conn: Connection,
        notifications: Mapping[str, Any],
        on_notification: Callable[[NotificationReceived], None] | None = None,
        *,
        ack_timeout: float = 30.0,
    ) -> None:
        self.conn = conn
        self.filter = {k: v for k, v in notifications.items() if k in FILTER_KEYS}
        self.on_notification = on_notification
        self.ack_timeout = ack_timeout
        self.id: RequestId | None = None
        """The id of the listen request in use (it changes when the stream is opened again)."""
        self.acknowledged: dict[str, Any] | None = None
        self.refused: dict[str, Any] = {}
        self.reopened = 0
        self.ended: str | None = None
        """Why the subscription ended for good (None while it lives)."""
        self.state = ListenState.CONNECTING
        self.reason = ""
        """Why the stream is re-listening or closed ("" otherwise)."""
        self.changed_at = time.time()
        """Wall-clock time of the last change of state."""
        self.received = 0
        """Notifications the stream carried (the acknowledgements not counted)."""
        self.last_drop = ""
        """Why the stream last ended before it was opened again ("": it never did)."""
        self.on_change: Callable[[Subscription], None] | None = None
        """Called at every change of state, acknowledgement and notification (:meth:`Listening.watch`)."""
        self._acked: asyncio.Future[dict[str, Any]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._window = ReconnectWindow(max(1, conn.session.limits.reconnects_per_minute))

    @property
    def active(self) -> bool:
        return self._task is not None and not self._task.done()

    async def open(self) -> dict[str, Any]:
        """Open the stream and return the acknowledged filter (raises ClientError when it cannot be opened)."""
        loop = asyncio.get_running_loop()
        self._acked = loop.create_future()
        future = self._start()
        waiter = asyncio.ensure_future(asyncio.shield(self._acked))
        try:
            done, _ = await asyncio.wait(
                {waiter, future}, timeout=self.ack_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        except asyncio.CancelledError:
            waiter.cancel()
            self.conn.stop_stream(self.id)
            self._end("cancelled before the acknowledgement")
            raise
        if waiter in done:
            self._task = loop.create_task(self._follow(future), name="subscriptions/listen")
            acknowledged: dict[str, Any] = waiter.result()
            return acknowledged
        waiter.cancel()
        self.conn.stop_stream(self.id)
        if future in done:
            exc = future.exception()
            error = (
                exc if exc is not None else ClientError("the server ended subscriptions/listen before acknowledging")
            )
        else:
            future.cancel()
            error = ClientError(f"subscriptions/listen: no acknowledgement within {self.ack_timeout:g} s")
        self._end(message_of(error) if isinstance(error, ClientError) else str(error))
        raise error

    async def close(self) -> None:
        self.ended = self.ended or "closed by the client"
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self.conn.stop_stream(self.id)
        self._end(self.ended)

    # ------------------------------------------------------------------ inside

    def _set(self, state: ListenState, reason: str = "") -> None:
        self.state, self.reason, self.changed_at = state, reason, time.time()
        self._changed()

    def _end(self, reason: str) -> None:
        self.ended = self.ended or reason
        if self.state is not ListenState.CLOSED:
            self._set(ListenState.CLOSED, self.ended)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _start(self) -> asyncio.Future[Any]:
        rid, future = self.conn.start_stream(
            "subscriptions/listen", {"notifications": dict(self.filter)}, self._on_notification, _FOREVER
        )
        self.id = rid
        return future

    def _on_notification(self, ev: NotificationReceived) -> None:
        if ev.method == ACK_METHOD:
            params = ev.params or {}
            ack = params.get("notifications")
            self.acknowledged = ack if isinstance(ack, dict) else {}
            self.refused, lines = compare_filters(self.filter, ack)
            for line in lines:
                self.conn.diagnostics.append(
                    Diagnostic(DiagnosticCode.SCHEMA, f"subscriptions/listen: {line}", Severity.INFO)
                )
            if self._acked is not None and not self._acked.done():
                self._acked.set_result(self.acknowledged)
            self._set(ListenState.OPEN, f"listening again after: {self.last_drop}" if self.reopened else "")
            return
        self.received += 1
        self._changed()
        if self.on_notification is not None:
            self.on_notification(ev)

    async def _follow(self, future: asyncio.Future[Any]) -> None:
        attempt = 0
        limits = self.conn.session.limits
        while True:
            why = "the server ended the subscription"
            try:
                await future
            except asyncio.CancelledError:
                raise
            except ClientError as exc:
                why = f"the stream was lost ({message_of(exc)})"
            if not self.conn.is_open:
                self._end(f"{why}; the connection is closed")
                return
            if not self._window.take(time.monotonic()):
                self._end(f"{why}; the reconnection budget ({limits.reconnects_per_minute}/min) is spent")
                self.conn.note(f"subscriptions/listen: {self.ended}")
                return
            attempt += 1
            delay = backoff_delay(
                attempt, limits.reconnect_floor_ms, limits.reconnect_floor_ms, limits.reconnect_cap_ms, random.random()
            )
            self.conn.note(f"subscriptions/listen: {why}; listening again in {delay:.1f} s")
            self.last_drop = why
            self._set(ListenState.RELISTENING, f"{why}; listening again in {delay:.1f} s")
            await asyncio.sleep(delay)
            self._acked = asyncio.get_running_loop().create_future()
            self.acknowledged = None
            future = self._start()
            self.reopened += 1
            self._set(ListenState.CONNECTING, f"re-listening after: {why}")


class Listening:
    """A connection's listen streams: the one for the list changes the server declares (``listen_for_changes``)
    and the one for resource subscriptions (``resources/subscribe`` in 2026-07-28: opened again, with the new
    set of URIs, at each change; a URI the server does not acknowledge fails its subscribe)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.changes: Subscription | None = None
        self.changes_failed: Subscription | None = None
        """The list-changes stream when it could not be opened (its ``reason`` says why)."""
        self._resources: Subscription | None = None
        self._resources_failed: Subscription | None = None
        self._uris: list[str] = []
        self._streams: list[Subscription] = []
        self._watchers: list[Callable[[Subscription], None]] = []
        self._lock = asyncio.Lock()
        """One change of the resource stream at a time (concurrent subscribes would leave a stream behind)."""

    @property
    def resources(self) -> Subscription | None:
        """The stream of resource subscriptions (None: no URI subscribed)."""
        return self._resources

    @property
    def uris(self) -> list[str]:
        """The URIs subscribed (asked for on the resource stream)."""
        return list(self._uris)

    def streams(self) -> list[Subscription]:
        """Every stream opened through :meth:`open` that was not replaced or closed by the client: the live ones
        and those that ended (lost, refused, the budget spent), oldest first."""
        return list(self._streams)

    def watch(self, callback: Callable[[Subscription], None]) -> Callable[[], None]:
        """Call ``callback`` with the stream at every change of any stream (state, acknowledgement, a
        notification, a stream added or dropped); returns the function that stops it."""
        self._watchers.append(callback)

        def unwatch() -> None:
            if callback in self._watchers:
                self._watchers.remove(callback)

        return unwatch

    async def open(
        self, notifications: Mapping[str, Any], on_notification: Callable[[NotificationReceived], None] | None = None
    ) -> Subscription:
        sub = self._new(notifications, on_notification)
        await sub.open()
        return sub

    def _new(
        self, notifications: Mapping[str, Any], on_notification: Callable[[NotificationReceived], None] | None = None
    ) -> Subscription:
        if self.conn.session.era is not Era.MODERN:
            raise NotConnected("subscriptions/listen exists in 2026-07-28 only (this session is in the handshake era)")
        sub = Subscription(self.conn, notifications, on_notification)
        sub.on_change = self._changed
        self._streams.append(sub)
        self._changed(sub)
        return sub

    async def relisten(self) -> None:
        """Open the list-changes and the resource streams again, with what they asked for (the window's
        Re-listen): the old streams are closed first."""
        old, self.changes = self.changes, None
        if old is not None:
            await self._drop(old)
        failed, self.changes_failed = self.changes_failed, None
        if failed is not None:
            self._forget(failed)
        await self.for_changes()
        async with self._lock:
            await self._relisten_locked(self._uris)

    async def for_changes(self) -> None:
        caps = self.conn.session.server_capabilities
        wanted = {
            key: True
            for cap, key in (("tools", "toolsListChanged"), ("prompts", "promptsListChanged"),
                             ("resources", "resourcesListChanged"))
            if has_capability(caps, f"{cap}.listChanged")
        }  # fmt: skip
        if not wanted:
            return
        sub = self._new(wanted)
        try:
            await sub.open()
        except ClientError as exc:  # the session works without it; say why the lists will not refresh
            self.changes_failed = sub
            self.conn.note(f"subscriptions/listen for list changes failed: {message_of(exc)}")
        else:
            self.changes = sub

    async def subscribe(self, uri: str) -> None:
        async with self._lock:
            if uri not in self._uris:
                await self._relisten_locked([*self._uris, uri])
        sub = self._resources
        if sub is not None and uri in sub.refused.get("resourceSubscriptions", []):
            why = f"the server did not acknowledge a subscription to {uri}"
            raise RemoteError(None, why, method="subscriptions/listen")

    async def unsubscribe(self, uri: str) -> None:
        async with self._lock:
            if uri in self._uris:
                await self._relisten_locked([u for u in self._uris if u != uri])

    async def close(self) -> None:
        for sub in (self.changes, self._resources):
            if sub is not None:
                await sub.close()

    async def _relisten_locked(self, uris: list[str]) -> None:
        old, self._resources = self._resources, None
        self._uris = uris
        if old is not None:
            await self._drop(old)
        failed, self._resources_failed = self._resources_failed, None
        if failed is not None:
            self._forget(failed)
        if uris:
            sub = self._new({"resourceSubscriptions": list(uris)})
            try:
                await sub.open()
            except ClientError:
                self._resources_failed = sub
                raise
            self._resources = sub

    async def _drop(self, sub: Subscription) -> None:
        """Close a stream that is replaced: it leaves :meth:`streams`."""
        await sub.close()
        self._forget(sub)

    def _forget(self, sub: Subscription) -> None:
        if sub in self._streams:
            self._streams.remove(sub)
        self._changed(sub)

    def _changed(self, sub: Subscription) -> None:
        for callback in list(self._watchers):
            callback(sub)


def subscription_id(ev: NotificationReceived) -> Any:
    """The ``io.modelcontextprotocol/subscriptionId`` a notification carries (None: not on a listen stream)."""
    return meta_of(ev.params).get(SUBSCRIPTION_ID_KEY)
