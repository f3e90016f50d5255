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
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping
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

__all__ = ["ACK_METHOD", "FILTER_KEYS", "Listening", "Subscription", "compare_filters"]

ACK_METHOD: Final = "notifications/subscriptions/acknowledged"
FILTER_KEYS: Final = (
    "toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions",
    "taskIds",  # the io.modelcontextprotocol/tasks extension: notifications/tasks for these tasks
)  # fmt: skip
_LISTS: Final = {"resourceSubscriptions": "resource subscriptions", "taskIds": "task ids"}
_FOREVER: Final = Timeouts(request=None, reset_on_progress=False, max_total=None)


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
        done, _ = await asyncio.wait({waiter, future}, timeout=self.ack_timeout, return_when=asyncio.FIRST_COMPLETED)
        if waiter in done:
            self._task = loop.create_task(self._follow(future), name="subscriptions/listen")
            acknowledged: dict[str, Any] = waiter.result()
            return acknowledged
        waiter.cancel()
        self.conn.stop_stream(self.id)
        if future in done:
            exc = future.exception()
            raise exc if exc is not None else ClientError("the server ended subscriptions/listen before acknowledging")
        future.cancel()
        raise ClientError(f"subscriptions/listen: no acknowledgement within {self.ack_timeout:g} s")

    async def close(self) -> None:
        self.ended = self.ended or "closed by the client"
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self.conn.stop_stream(self.id)

    # ------------------------------------------------------------------ inside

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
            return
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
                self.ended = f"{why}; the connection is closed"
                return
            if not self._window.take(time.monotonic()):
                self.ended = f"{why}; the reconnection budget ({limits.reconnects_per_minute}/min) is spent"
                self.conn.note(f"subscriptions/listen: {self.ended}")
                return
            attempt += 1
            delay = backoff_delay(
                attempt, limits.reconnect_floor_ms, limits.reconnect_floor_ms, limits.reconnect_cap_ms, random.random()
            )
            self.conn.note(f"subscriptions/listen: {why}; listening again in {delay:.1f} s")
            await asyncio.sleep(delay)
            self._acked = asyncio.get_running_loop().create_future()
            future = self._start()
            self.reopened += 1


class Listening:
    """A connection's listen streams: the one for the list changes the server declares (``listen_for_changes``)
    and the one for resource subscriptions (``resources/subscribe`` in 2026-07-28: opened again, with the new
    set of URIs, at each change; a URI the server does not acknowledge fails its subscribe)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.changes: Subscription | None = None
        self._resources: Subscription | None = None
        self._uris: list[str] = []

    async def open(
        self, notifications: Mapping[str, Any], on_notification: Callable[[NotificationReceived], None] | None = None
    ) -> Subscription:
        if self.conn.session.era is not Era.MODERN:
            raise NotConnected("subscriptions/listen exists in 2026-07-28 only (this session is in the handshake era)")
        sub = Subscription(self.conn, notifications, on_notification)
        await sub.open()
        return sub

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
        try:
            self.changes = await self.open(wanted)
        except ClientError as exc:  # the session works without it; say why the lists will not refresh
            self.conn.note(f"subscriptions/listen for list changes failed: {message_of(exc)}")

    async def subscribe(self, uri: str) -> None:
        if uri not in self._uris:
            await self._relisten([*self._uris, uri])
        sub = self._resources
        if sub is not None and uri in sub.refused.get("resourceSubscriptions", []):
            why = f"the server did not acknowledge a subscription to {uri}"
            raise RemoteError(None, why, method="subscriptions/listen")

    async def unsubscribe(self, uri: str) -> None:
        if uri in self._uris:
            await self._relisten([u for u in self._uris if u != uri])

    async def close(self) -> None:
        for sub in (self.changes, self._resources):
            if sub is not None:
                await sub.close()

    async def _relisten(self, uris: list[str]) -> None:
        old, self._resources = self._resources, None
        self._uris = uris
        if old is not None:
            await old.close()
        if uris:
            self._resources = await self.open({"resourceSubscriptions": list(uris)})


def subscription_id(ev: NotificationReceived) -> Any:
    """The ``io.modelcontextprotocol/subscriptionId`` a notification carries (None: not on a listen stream)."""
    return meta_of(ev.params).get(SUBSCRIPTION_ID_KEY)
