"""What every Explore panel (and page) shares for its asyncio work and for asking "is there a live connection".

``PanelTasks(owner, on_error)`` — the one task helper — runs coroutines on the running (qasync) loop and keeps a
reference to each until it ends. A task started with a ``key`` replaces (cancels) the previous task with that key,
so a newer request always wins; ``running(key)``/``cancel(key)`` ask about and stop one, ``cancel_all()`` stops
everything (teardown). An exception escaping a coroutine is logged and goes to ``on_error`` (never "Task exception
was never retrieved"); ``describe_failure(exc)`` is the one line a panel shows for it. A request's own failure:
``failure_line(exc)`` (one line) or ``explanation_of(exc)`` (lines under a banner) say what a server's JSON-RPC
error means (-32020/-32021/-32022 and the other codes with an MCP meaning, read from its data; the wording is
``inspector.protocol.error_codes``'s, which the CLI shares; a banner of its own: ``viewers.error_banner``).
When the owner widget is destroyed every task is cancelled and nothing is reported any more.

``live_connection(controller)`` (defined in ``inspector.ui.connection.controller``, re-exported here for the
panels) is the one answer to "is there a live connection": the controller's connection while it is connected and
open, else None. ``live_server`` (what the handshake established) and ``require_connection`` (raises
``NotConnected``) are built on it.

``gate(widget, reason, tooltip)`` wraps ``inspector.ui.explore.common.gating.set_gated`` for widgets whose own tooltip
changes with their state; reasons come from ``inspector.ui.explore.common.gating.method_gap``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from inspector.client.connection import Connection, ServerInfo
from inspector.client.errors import ClientError, NotConnected, RemoteError
from inspector.protocol.error_codes import error_line, explanation_lines
from inspector.ui.connection.controller import ConnectionController, live_connection
from inspector.ui.explore.common.gating import set_gated

__all__ = [
    "PanelTasks",
    "describe_failure",
    "explanation_of",
    "failure_line",
    "gate",
    "live_connection",
    "live_server",
    "require_connection",
]

_log = logging.getLogger(__name__)


def describe_failure(exc: BaseException) -> str:
    """The one line shown for an unexpected exception of a panel's task."""
    return f"internal error: {type(exc).__name__}: {exc}"


def explanation_of(exc: BaseException, method: str | None = None) -> list[str]:
    """``What it means: ...`` and ``data: ...`` for a server's error (none for other failures). ``method``: the
    request it answered when the error does not say (``RemoteError.method``)."""
    if not isinstance(exc, RemoteError):
        return []
    return explanation_lines(exc.code, exc.message, exc.data, exc.method or method)


def failure_line(exc: ClientError, method: str | None = None) -> str:
    """One line for a failed request: the server's error with what it means, or the client's failure."""
    if isinstance(exc, RemoteError):
        return error_line(exc.code, exc.message, exc.data, exc.method or method)
    return str(exc)


class PanelTasks:
    """Asyncio tasks started by one widget (``owner``); see the module docstring."""

    def __init__(self, owner: QObject, on_error: Callable[[BaseException], None] | None = None) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._keyed: dict[str, asyncio.Task[Any]] = {}
        self._on_error = on_error
        self._dead = False
        owner.destroyed.connect(self._owner_destroyed)

    def spawn(self, coro: Coroutine[Any, Any, Any], *, key: str | None = None) -> asyncio.Task[Any]:
        if key is not None:
            self.cancel(key)
        task: asyncio.Task[Any] = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        if key is not None:
            self._keyed[key] = task
        task.add_done_callback(lambda t: self._done(t, key))
        return task

    def running(self, key: str) -> bool:
        task = self._keyed.get(key)
        return task is not None and not task.done()

    def cancel(self, key: str) -> None:
        task = self._keyed.pop(key, None)
        if task is not None and not task.done():
            task.cancel()

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            if not task.done():
                task.cancel()
        self._keyed.clear()

    def __len__(self) -> int:
        return sum(1 for t in self._tasks if not t.done())

    def _owner_destroyed(self, *_: object) -> None:
        self._dead = True
        self.cancel_all()

    def _done(self, task: asyncio.Task[Any], key: str | None) -> None:
        self._tasks.discard(task)
        if key is not None and self._keyed.get(key) is task:
            del self._keyed[key]
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None or self._dead:
            return
        _log.error("panel task failed", exc_info=exc)
        if self._on_error is not None:
            try:
                self._on_error(exc)
            except RuntimeError:  # the widget went away meanwhile
                pass


def gate(widget: QWidget, reason: str | None, tooltip: str = "") -> None:
    """``set_gated`` (disabled with ``reason`` as its tooltip), or enabled with ``tooltip``."""
    set_gated(widget, reason)
    if reason is None:
        widget.setToolTip(tooltip)


def live_server(controller: ConnectionController) -> ServerInfo | None:
    """What the handshake established, while there is a live connection; None otherwise."""
    return controller.server if live_connection(controller) is not None else None


def require_connection(controller: ConnectionController) -> Connection:
    """The live connection; raises ``NotConnected`` (shown like any other client error) when there is none."""
    conn = live_connection(controller)
    if conn is None:
        raise NotConnected("not connected")
    return conn
