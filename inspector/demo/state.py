"""Mutable state shared by the demo server's tools and resources (one instance per server)."""

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
from mcp.server.connection import Connection
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus

from inspector.demo.tasks import TaskStore

__all__ = ["DemoState", "ResourceSubscriptions", "connection_of"]

CLOCK_URI = "demo://clock"

INITIAL_FILES: dict[str, str] = {
    "README.md": "# Virtual files\n\nServed by the `demo://files/{+path}` template.\n",
    "notes/todo.txt": "- write the demo server\n- inspect it\n",
    "notes/ideas.txt": "An inspector that never freezes.\n",
    "src/main.py": 'print("hello from the demo server")\n',
    "src/util/strings.py": "def shout(text: str) -> str:\n    return text.upper() + '!'\n",
    "data/people.csv": "id,name,email\n1,Ada Lovelace,ada@example.com\n2,Alan Turing,alan@example.com\n",
}

USERS: dict[str, dict[str, Any]] = {
    "ada": {"id": "ada", "name": "Ada Lovelace", "email": "ada@example.com", "roles": ["admin"], "born": 1815},
    "alan": {"id": "alan", "name": "Alan Turing", "email": "alan@example.com", "roles": ["dev"], "born": 1912},
    "grace": {"id": "grace", "name": "Grace Hopper", "email": "grace@example.com", "roles": ["dev"], "born": 1906},
    "edsger": {"id": "edsger", "name": "Edsger Dijkstra", "email": "ewd@example.com", "roles": [], "born": 1930},
    "barbara": {"id": "barbara", "name": "Barbara Liskov", "email": "liskov@example.com", "roles": [], "born": 1939},
}


def connection_of(session: ServerSession) -> Connection | None:
    """The connection behind a per-request ``ServerSession``.

    mcp 2.3.0 builds a fresh ``ServerSession`` proxy per request and exposes no public accessor for the
    ``Connection`` it wraps; resource subscriptions and the per-connection log level must outlive a request,
    so they are keyed by the connection (and cleaned up through its ``exit_stack``).
    """
    connection = getattr(session, "_connection", None)
    return connection if isinstance(connection, Connection) else None


@dataclass
class _Subscriber:
    session: ServerSession
    uris: set[str] = field(default_factory=set)


class ResourceSubscriptions:
    """``resources/subscribe`` bookkeeping for handshake-era connections, keyed by connection."""

    def __init__(self) -> None:
        self._subscribers: dict[int, _Subscriber] = {}

    def subscribe(self, session: ServerSession, uri: str) -> None:
        connection = connection_of(session)
        key = id(connection) if connection is not None else id(session)
        subscriber = self._subscribers.get(key)
        if subscriber is None:
            subscriber = self._subscribers[key] = _Subscriber(session)
            if connection is not None:
                connection.exit_stack.callback(self._subscribers.pop, key, None)
        subscriber.uris.add(uri)

    def unsubscribe(self, session: ServerSession, uri: str) -> None:
        connection = connection_of(session)
        key = id(connection) if connection is not None else id(session)
        subscriber = self._subscribers.get(key)
        if subscriber is not None:
            subscriber.uris.discard(uri)
            if not subscriber.uris:
                del self._subscribers[key]

    def sessions_for(self, uri: str) -> list[tuple[int, ServerSession]]:
        return [(key, sub.session) for key, sub in self._subscribers.items() if uri in sub.uris]

    def drop(self, key: int) -> None:
        self._subscribers.pop(key, None)

    def count(self, uri: str) -> int:
        return sum(1 for sub in self._subscribers.values() if uri in sub.uris)

    async def notify_updated(self, uri: str, *, timeout: float = 2.0) -> int:
        """Send ``notifications/resources/updated`` to every subscriber of ``uri``; returns how many got it."""
        sent = 0
        for key, session in self.sessions_for(uri):
            try:
                with anyio.fail_after(timeout):
                    await session.send_resource_updated(uri)
                sent += 1
            except Exception:
                # The peer went away (closed stream) or stopped reading: forget it.
                self.drop(key)
        return sent


def print_to_stderr(line: str) -> None:
    """A line on this process's stderr (the demo as a process)."""
    print(line, file=sys.stderr, flush=True)


@dataclass
class DemoState:
    """Everything the demo server mutates at runtime."""

    clock_interval: float = 2.0
    started: float = field(default_factory=time.monotonic)
    files: dict[str, str] = field(default_factory=lambda: dict(INITIAL_FILES))
    subscriptions: ResourceSubscriptions = field(default_factory=ResourceSubscriptions)
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)
    tasks: TaskStore = field(default_factory=TaskStore)
    bonus_enabled: bool = False
    clock_ticks: int = 0
    stderr: Callable[[str], None] = print_to_stderr
    """Where the server writes a line for its stderr (the process's; in memory, the transport's)."""

    def clock_text(self) -> str:
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        return f"{now} tick={self.clock_ticks} uptime={time.monotonic() - self.started:.1f}s\n"
