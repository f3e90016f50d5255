"""The loopback redirect receiver for interactive authorization (RFC 8252 section 7.3).

:class:`LoopbackCallback` listens on 127.0.0.1 (or ::1 when asked) only, never a wildcard address, on a random
port unless one is given, for ``GET <path>?code=...&state=...``. A request whose ``state`` is not the expected one is
answered 400 and ignored (the wait goes on); the first request with the right state ends the wait, gets a
small "you may close this window" page, and closes the listener. The listener also closes on timeout or
cancellation, so it never outlives one authorization.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import logging
import secrets
import socket
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from mcp.client.auth import OAuthFlowError

__all__ = ["HOST", "CallbackResult", "LoopbackCallback", "free_loopback_port", "listen_host"]

log = logging.getLogger(__name__)

HOST: Final = "127.0.0.1"
_MAX_HEAD: Final = 16 * 1024
_READ_TIMEOUT: Final = 10.0
_PAGE: Final = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Inspector - {title}</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>{title}</h1><p>{text}</p></body></html>
"""


def _loopback_literal(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen_host(hostname: str) -> str | None:
    """The address to listen on for a redirect URI naming ``hostname``: itself for a loopback IP (127.0.0.0/8,
    ::1), 127.0.0.1 for ``localhost``; None for anything else (not loopback)."""
    host = hostname.strip("[]").lower().rstrip(".")
    if host == "localhost":
        return HOST
    return host if _loopback_literal(host) else None


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True, slots=True)
class CallbackResult:
    """The query of the redirect that ended the wait."""

    code: str | None
    state: str
    iss: str | None = None
    error: str | None = None
    error_description: str | None = None


def _page(title: str, text: str) -> bytes:
    return _PAGE.format(title=html.escape(title), text=html.escape(text)).encode("utf-8")


class LoopbackCallback:
    """A one-shot HTTP receiver on ``http://127.0.0.1:<port><path>``.

    Use ``async with LoopbackCallback() as cb``, give ``cb.redirect_uri`` to the authorization server,
    ``cb.expect_state(state)`` once the state is known, then ``await cb.wait()``.
    """

    def __init__(self, *, host: str = HOST, port: int = 0, path: str = "/callback", timeout: float = 300.0) -> None:
        if not path.startswith("/"):
            raise ValueError("the callback path must start with '/'")
        if not _loopback_literal(host):
            raise ValueError(f"the callback listens on a loopback address only (127.0.0.1, ::1), not {host}")
        self.host = host
        self._requested_port = port
        self.path = path
        self.timeout = timeout
        self.port: int | None = None
        self.rejected = 0
        """How many requests were refused (wrong path, method or state)."""
        self._server: asyncio.Server | None = None
        self._expected_state: str | None = None
        self._result: asyncio.Future[CallbackResult] | None = None

    @property
    def redirect_uri(self) -> str:
        if self.port is None:
            raise RuntimeError("the callback is not listening yet")
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}{self.path}"

    @property
    def listening(self) -> bool:
        return self._server is not None and self._server.is_serving()

    async def start(self) -> None:
        """Bind 127.0.0.1 or ::1 (a random port unless one was given) and start answering."""
        if self._server is not None:
            return
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(
            self._handle, host=self.host, port=self._requested_port, limit=_MAX_HEAD
        )
        self.port = self._server.sockets[0].getsockname()[1]
        log.debug("OAuth callback listening on %s", self.redirect_uri)

    def expect_state(self, state: str) -> None:
        """Only a redirect carrying exactly this ``state`` is accepted."""
        self._expected_state = state

    async def wait(self) -> CallbackResult:
        """The accepted redirect; raises TimeoutError after ``timeout`` s, OAuthFlowError on an error redirect.

        The listener is closed when this returns or raises.
        """
        if self._result is None:
            await self.start()
        assert self._result is not None
        try:
            result = await asyncio.wait_for(asyncio.shield(self._result), self.timeout)
        except TimeoutError:
            raise TimeoutError(f"no authorization redirect arrived within {self.timeout:g} s") from None
        finally:
            await self.close()
        if result.error is not None:
            detail = f": {result.error_description}" if result.error_description else ""
            raise OAuthFlowError(f"authorization failed: {result.error}{detail}")
        return result

    async def close(self) -> None:
        """Stop listening (idempotent)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5.0)
        if self._result is not None and not self._result.done():
            self._result.cancel()

    async def __aenter__(self) -> LoopbackCallback:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- one connection ------------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _READ_TIMEOUT)
            status, body, result = self._answer(head)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            status, body, result = 400, _page("Bad request", "The request could not be read."), None
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}.get(status, "Error")
        headers = (
            f"HTTP/1.1 {status} {reason}\r\n"
            "Content-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            "Cache-Control: no-store\r\n"
            "Referrer-Policy: no-referrer\r\n"
            "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            "Connection: close\r\n\r\n"
        )
        try:
            writer.write(headers.encode("ascii") + body)
            await asyncio.wait_for(writer.drain(), _READ_TIMEOUT)
        except (ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
        if result is not None and self._result is not None and not self._result.done():
            self._result.set_result(result)
            server = self._server
            if server is not None:
                server.close()  # no further connections; wait() finishes the clean-up

    def _answer(self, head: bytes) -> tuple[int, bytes, CallbackResult | None]:
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = request_line.split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            return 400, _page("Bad request", "The request could not be read."), None
        method, target = parts[0], parts[1]
        url = urlsplit(target)
        if url.path != self.path:
            self.rejected += 1
            return 404, _page("Not found", "This address only receives the authorization redirect."), None
        if method != "GET":
            self.rejected += 1
            return 405, _page("Method not allowed", "Only GET is accepted here."), None
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        state = query.get("state")
        expected = self._expected_state
        if state is None or expected is None or not secrets.compare_digest(state.encode(), expected.encode()):
            self.rejected += 1
            log.warning("OAuth callback with a missing or wrong state parameter was ignored")
            text = "The state parameter does not match the authorization in progress; this request was ignored."
            return 400, _page("Authorization not accepted", text), None
        result = CallbackResult(
            code=query.get("code") or None,
            state=state,
            iss=query.get("iss"),
            error=query.get("error") or (None if query.get("code") else "missing_code"),
            error_description=query.get("error_description"),
        )
        if result.error is not None:
            text = f"The authorization server reported an error ({result.error}). You may close this window."
            return 200, _page("Authorization failed", text), result
        return 200, _page("Authorization complete", "You may close this window and return to MCP Inspector."), result
