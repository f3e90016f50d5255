"""One hub per connection for the tasks that run over it (:mod:`inspector.client.tasks`).

It routes task status notifications (``notifications/tasks/status``, 2025-11-25; ``notifications/tasks``,
2026-07-28) to whoever follows those tasks, keeping the last one per task for a follower that registers
late, and (interim) removes the false ``CallToolResult`` violations of task handles.

Why the interim fix: the session validates every ``tools/call`` answer as a ``CallToolResult``, so a task
handle (``CreateTaskResult``, which has no ``content``) gets a schema violation it does not deserve. The hub
removes exactly those diagnostics -- from ``conn.diagnostics`` and from the frame's in-memory record -- for
answers that are task handles of a task-capable request (2025-11-25: the request carried ``params.task``;
2026-07-28: ``resultType: "task"``). A recording on disk keeps them: it stored the frame before the
callback ran. Once the session validates task handles itself there is nothing left to remove.

The hub wraps the connection's ``on_notification`` and ``on_message`` callbacks: ours runs first, then the
callback that was there, with the same argument (its exceptions propagate as before). When someone replaces
ours, :func:`hub_for` wraps theirs on the next use.
"""

from __future__ import annotations

import json
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.events import NotificationReceived
from inspector.protocol.tasks import STATUS_NOTIFICATIONS, Flavour, flavour_for, is_create_task_result
from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage

if TYPE_CHECKING:
    from inspector.client.connection import Connection

__all__ = ["StatusListener", "TaskHub", "hub_for"]

StatusListener = Callable[[str, dict[str, Any]], None]
"""Called with a status notification's method and params, inside the connection's callback."""

RECENT: Final = 256
"""Task ids whose last notification is kept, and task-augmented request ids remembered."""
_STATUS_METHODS: Final = frozenset(STATUS_NOTIFICATIONS.values())


class TaskHub:
    """The task side of one connection (see the module's docstring)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = weakref.ref(conn)
        self._listeners: dict[str, list[StatusListener]] = {}
        self.latest: OrderedDict[str, tuple[str, dict[str, Any]]] = OrderedDict()
        """Task id -> its last status notification (method, params)."""
        self._task_requests: OrderedDict[RequestId, None] = OrderedDict()
        self._prev_notification: Callable[[NotificationReceived], None] | None = None
        self._prev_message: Callable[[WireMessage], None] | None = None
        self._active: set[int] = set()
        """The events and frames being handed on right now: one coming back to us is a loop, not a new one
        (a frame sent from inside a callback is a new object, and is handled)."""
        self.install(conn)

    def install(self, conn: Connection) -> None:
        """Wrap the connection's callbacks (again, when someone replaced ours)."""
        if conn.on_notification != self._on_notification:
            self._prev_notification = conn.on_notification
            conn.on_notification = self._on_notification
        if conn.on_message != self._on_message:
            self._prev_message = conn.on_message
            conn.on_message = self._on_message

    def listen(self, task_id: str, listener: StatusListener) -> None:
        self._listeners.setdefault(task_id, []).append(listener)

    def unlisten(self, task_id: str, listener: StatusListener) -> None:
        listeners = self._listeners.get(task_id, [])
        if listener in listeners:
            listeners.remove(listener)
        if not listeners:
            self._listeners.pop(task_id, None)

    # -- notifications

    def _on_notification(self, ev: NotificationReceived) -> None:
        if id(ev) in self._active:  # a callback that wraps ours and is wrapped by us: it already ran
            return
        self._active.add(id(ev))
        try:
            self._route(ev)
            if self._prev_notification is not None:
                self._prev_notification(ev)
        finally:
            self._active.discard(id(ev))

    def _route(self, ev: NotificationReceived) -> None:
        params = ev.params
        if ev.method not in _STATUS_METHODS or not isinstance(params, dict):
            return
        task_id = params.get("taskId")
        if not isinstance(task_id, str):
            return
        self.latest[task_id] = (ev.method, params)
        self.latest.move_to_end(task_id)
        while len(self.latest) > RECENT:
            self.latest.popitem(last=False)
        for listener in list(self._listeners.get(task_id, ())):
            listener(ev.method, params)

    # -- the interim diagnostics fix

    def _on_message(self, wire: WireMessage) -> None:
        if id(wire) in self._active:
            return
        self._active.add(id(wire))
        try:
            try:
                self._look(wire)
            except (ValueError, TypeError, AttributeError):  # a frame we cannot read: nothing to fix
                pass
            if self._prev_message is not None:
                self._prev_message(wire)
        finally:
            self._active.discard(id(wire))

    def _look(self, wire: WireMessage) -> None:
        if wire.method != "tools/call":
            return
        if wire.direction is Direction.OUT:
            if wire.kind is Kind.REQUEST and wire.id is not None and b'"task"' in wire.raw:
                params = json.loads(wire.raw).get("params")
                if isinstance(params, dict) and isinstance(params.get("task"), dict):
                    self._task_requests[wire.id] = None
                    while len(self._task_requests) > RECENT:
                        self._task_requests.popitem(last=False)
            return
        if wire.kind is not Kind.RESPONSE and wire.kind is not Kind.ERROR:
            return
        asked = wire.id is not None and wire.id in self._task_requests
        if asked:
            del self._task_requests[wire.id]  # type: ignore[arg-type]
        stale = [
            d for d in wire.diagnostics if d.code is DiagnosticCode.SCHEMA and d.message.startswith("tools/call result")
        ]
        conn = self._conn()
        if not stale or conn is None:
            return
        flavour = flavour_for(conn.session.protocol_version)
        if flavour is None or (flavour is Flavour.AUGMENTED and not asked):
            return
        if not is_create_task_result(json.loads(wire.raw).get("result"), flavour):
            return
        wire.diagnostics[:] = [d for d in wire.diagnostics if not any(d is s for s in stale)]
        conn.diagnostics[:] = [d for d in conn.diagnostics if not any(d is s for s in stale)]


_hubs: weakref.WeakKeyDictionary[Connection, TaskHub] = weakref.WeakKeyDictionary()


def hub_for(conn: Connection) -> TaskHub:
    """The connection's hub, created (and its callbacks wrapped) on first use."""
    hub = _hubs.get(conn)
    if hub is None:
        hub = _hubs[conn] = TaskHub(conn)
    else:
        hub.install(conn)
    return hub
