"""What went wrong, as the CLI reports it: a client error turned into a :class:`CliFailure` of the right kind.

The kinds follow the official inspector CLI's classification (see :mod:`inspector.cli.errors`): a 401/403 is
``auth`` (exit 3), a server that cannot be reached (connection refused, DNS, connect timeout) ``unreachable``
(exit 4), a JSON-RPC error response ``protocol`` (exit 1; the server's message, its code as ``jsonrpcCode``),
everything else (a server that would not start, closed, or did not answer) ``connection`` (exit 1).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from inspector.cli.errors import CliFailure
from inspector.client.errors import (
    ConnectFailed,
    ConnectionLost,
    InvalidResponse,
    NotConnected,
    RemoteError,
    RequestCancelled,
    RequestTimeout,
    message_of,
)
from inspector.client.renewal import DeliveryFailed
from inspector.client.tasks import TaskCancelled, TaskFailed
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.transports.base import TransportClosed

if TYPE_CHECKING:
    from inspector.client.connection import Connection

__all__ = ["connect_timed_out", "failure_from", "is_unreachable", "server_error"]

_UNREACHABLE: Final = re.compile(
    r"cannot connect to |connection refused|DNS lookup failed|name or service not known|getaddrinfo|"
    r"network is unreachable|no route to host|connect(?:ion)? timed out",
    re.IGNORECASE,
)
"""What an unreachable server looks like in our transports' messages (``cannot connect to URL: ...``)."""


def is_unreachable(message: str) -> bool:
    """Whether a connect failure's message says the server could not be reached at all."""
    return _UNREACHABLE.search(message) is not None


def _causes(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not other for other in seen) and len(seen) < 16:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _http_status(exc: BaseException) -> tuple[int | None, str | None]:
    """The HTTP status (and URL) a delivery failure carries somewhere in ``exc``'s causes."""
    for cause in _causes(exc):
        error = cause.error if isinstance(cause, DeliveryFailed) else cause
        status = getattr(error, "status", None)
        if isinstance(status, int) and 100 <= status <= 599:
            url = getattr(error, "url", None)
            return status, url if isinstance(url, str) and url else None
    return None, None


def _exit_text(closed: TransportClosed) -> str | None:
    if closed.signal is not None:
        return f"killed by signal {closed.signal}"
    if closed.exit_code is not None:
        return f"exit status {closed.exit_code}"
    return None


def _closed_line(closed: TransportClosed, stderr_tail: list[str]) -> str:
    """``server process exited (exit status 3); last stderr: fatal: something broke``."""
    status = _exit_text(closed)
    text = closed.reason + (f" ({status})" if status else "")
    tail = [line for line in (closed.stderr_tail or tuple(stderr_tail)) if line.strip()]
    if tail:
        text += f"; last stderr: {tail[-1].strip()[:300]}"
    return text


def _last_breach(conn: Connection | None) -> str | None:
    """The last message the session dropped for breaking a limit (``a message of more than ... (limit ...)``)."""
    if conn is None:
        return None
    for diagnostic in reversed(conn.diagnostics):
        if diagnostic.code is DiagnosticCode.LIMIT_EXCEEDED:
            return diagnostic.message.removesuffix("; the rest of it was dropped")
    return None


def server_error(code: int | None, message: str, data: Any, method: str, extra: dict[str, Any]) -> CliFailure:
    """A JSON-RPC error response: the server's message as it sent it (as the official CLI), its code in
    ``jsonrpcCode``; the human line names the method and the code."""
    name = f"{method} failed: " if method else ""
    rpc = f"server returned error {code}: " if code is not None else "server returned an error: "
    return CliFailure(
        "protocol",
        message,
        code=code,
        data=data,
        has_data=data is not None,
        extra=({"method": method} if method else {}) | extra,
        line=f"error: {name}{rpc}{message}",
    )


def connect_timed_out(seconds: float) -> CliFailure:
    """``--connect-timeout`` expired before the connection was open (exit 4, as the official CLI)."""
    ms = round(seconds * 1000)
    return CliFailure(
        "unreachable",
        f"connection timed out after {ms} ms; pass a larger --connect-timeout MS for a slower server",
    )


def _connect_failure(exc: ConnectFailed | DeliveryFailed, message: str) -> CliFailure:
    status, url = _http_status(exc)
    extra: dict[str, Any] = {}
    if status is not None:
        extra["status"] = status
    if url is not None:
        extra["url"] = url
    if status in (401, 403):
        return CliFailure("auth", message, extra=extra)
    if status is None and is_unreachable(message):
        return CliFailure("unreachable", message, extra=extra)
    return CliFailure("connection", message, extra=extra)


def failure_from(exc: BaseException, conn: Connection | None) -> CliFailure:
    """The failure to report for a client error raised while talking to the server of ``conn``."""
    closed = conn.closed_event if conn is not None else None
    lost = closed is not None and not closed.expected
    if isinstance(exc, TaskFailed):
        return server_error(exc.code, exc.message, exc.data, exc.method, {"taskId": exc.task.task_id})
    if isinstance(exc, TaskCancelled):
        return CliFailure("connection", message_of(exc), extra={"taskId": exc.task.task_id})
    if isinstance(exc, RemoteError):
        return server_error(exc.code, exc.message, exc.data, exc.method, {})
    if isinstance(exc, RequestTimeout):
        dropped = _last_breach(conn)
        if dropped is not None:  # the answer may have been the message that broke a limit
            return CliFailure("connection", f"{message_of(exc)}; meanwhile the server sent {dropped}")
        return CliFailure("connection", f"{message_of(exc)} (use --timeout SECONDS to wait longer)")
    if isinstance(exc, InvalidResponse):
        return CliFailure("protocol", f"unusable response: {message_of(exc)}")
    if isinstance(exc, ConnectionLost | ConnectFailed | NotConnected) and lost and closed is not None:
        assert conn is not None
        prefix = "handshake failed: " if isinstance(exc, ConnectFailed) and conn.server is None else ""
        return CliFailure("connection", prefix + _closed_line(closed, list(conn.stderr_tail)))
    if isinstance(exc, ConnectFailed) and exc.code is not None:  # the server refused the opening request
        return server_error(exc.code, message_of(exc), exc.data, "", {})
    if isinstance(exc, ConnectFailed | DeliveryFailed):
        return _connect_failure(exc, message_of(exc))
    if isinstance(exc, RequestCancelled):
        return CliFailure("connection", f"request cancelled: {message_of(exc)}")
    return CliFailure("connection", message_of(exc))
