"""What the HTTP transports share: the client (TLS trust), masking secrets, and one-line error messages.

TLS: the certificates the system trusts, as httpx2 sets them up (``truststore`` on Windows and macOS, the
OpenSSL CA paths on Linux, ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set), plus an optional per-profile CA
bundle (a PEM file or a directory of hashed certificates) for servers with a private CA.

Masking: ``Authorization``, ``Proxy-Authorization``, ``Cookie`` and ``Set-Cookie`` are always masked, and
so is every header the profile marks secret; a password in a URL is masked too. Masking happens before an
``HttpExchange`` event exists, so no consumer ever sees a secret value.

Bounds: every response read through a client from :func:`make_client` is bounded while it is read (headers,
decoded body, compression ratio; see :mod:`inspector.transports.http_bounded`), the requests of an auth flow
included.

Errors: :func:`request_error_message` turns an httpx2 exception into one line ("cannot connect to
http://127.0.0.1:9/mcp: connection refused"); :func:`status_error` does the same for an answer that is
not what an MCP endpoint sends (an HTML page, a 5xx, a 401/403 as :class:`HttpAuthError`).
"""

from __future__ import annotations

import errno
import json
import re
import socket
import ssl
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Final

import httpx2

from inspector.protocol.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from inspector.transports.base import MASK, TransportError, message_of
from inspector.transports.http_bounded import BoundedTransport, HttpLimitError

__all__ = [
    "ALWAYS_SECRET",
    "HttpAuthError",
    "HttpError",
    "body_summary",
    "bounded",
    "is_html",
    "limit_breach",
    "make_client",
    "mask_headers",
    "mask_url",
    "request_error_message",
    "same_origin",
    "ssl_context",
    "status_error",
]

ALWAYS_SECRET: Final = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"})
"""Headers masked in every log (a DPoP proof is bound to one request but still a credential)."""
_SUMMARY_CHARS: Final = 200
_TITLE: Final = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAG: Final = re.compile(r"<[^>]*>")


class HttpError(TransportError):
    """An HTTP answer that is not a usable MCP answer (error status, HTML page, unexpected content)."""

    def __init__(self, message: str, *, status: int | None = None, url: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.url = url


class HttpAuthError(HttpError):
    """401 or 403: the server wants (other) credentials. ``www_authenticate`` is the challenge, if any.

    An OAuth provider passed as ``auth`` answers a 401 itself; this error reaches the caller when there is
    no such provider or it could not obtain a token the server accepts.
    """

    def __init__(self, message: str, *, status: int, url: str = "", www_authenticate: str | None = None) -> None:
        super().__init__(message, status=status, url=url)
        self.www_authenticate = www_authenticate


# ---------------------------------------------------------------------------------------------- client


def ssl_context(ca_bundle: str | None = None) -> ssl.SSLContext:
    """The system trust store (httpx2's default context), plus ``ca_bundle`` when given."""
    import httpcore2

    ctx = httpcore2.default_ssl_context()
    if ca_bundle:
        path = Path(ca_bundle).expanduser()
        try:
            if path.is_dir():
                ctx.load_verify_locations(capath=str(path))
            else:
                ctx.load_verify_locations(cafile=str(path))
        except (OSError, ssl.SSLError) as exc:
            raise TransportError(f"cannot load the CA bundle {ca_bundle}: {message_of(exc)}") from exc
    return ctx


def make_client(
    *,
    headers: dict[str, str] | None = None,
    auth: httpx2.Auth | None = None,
    ca_bundle: str | None = None,
    timeout: float = 30.0,
    read_timeout: float | None = 300.0,
    limits: Limits = DEFAULT_LIMITS,
) -> httpx2.AsyncClient:
    """An AsyncClient for one transport. Redirects are not followed here (the transports follow those that
    stay on the endpoint's origin themselves); ``read_timeout`` is the longest silence on a response.

    Every transport of the client (the direct one and those for proxies from the environment) is wrapped
    in a :class:`BoundedTransport` with ``limits``, so every response it reads is bounded, whoever sends the
    request (an ``auth`` flow too)."""
    client = httpx2.AsyncClient(
        headers=headers,
        auth=auth,
        verify=ssl_context(ca_bundle),
        timeout=httpx2.Timeout(timeout, read=read_timeout),
        follow_redirects=False,
    )
    return bounded(client, limits)


def bounded(client: httpx2.AsyncClient, limits: Limits = DEFAULT_LIMITS) -> httpx2.AsyncClient:
    """``client`` with every one of its transports wrapped in a :class:`BoundedTransport` (for clients built
    elsewhere, e.g. the headless OAuth flow's)."""
    # httpx2 builds the transports (the proxies from the environment, NO_PROXY) itself; wrap each of them.
    client._transport = BoundedTransport(client._transport, limits)
    client._mounts = {
        pattern: None if transport is None else BoundedTransport(transport, limits)
        for pattern, transport in client._mounts.items()
    }
    return client


def limit_breach(exc: BaseException) -> LimitExceeded | None:
    """The limit an exception (or one of its causes) reports as broken, or None."""
    for cause in _causes(exc):
        if isinstance(cause, HttpLimitError):
            return cause.breach
        if isinstance(cause, LimitExceeded):
            return cause
    return None


def same_origin(a: httpx2.URL, b: httpx2.URL) -> bool:
    """Same scheme, host and port (httpx2 normalises default ports away and lower-cases hosts)."""
    return (a.scheme, a.host, a.port) == (b.scheme, b.host, b.port)


# ---------------------------------------------------------------------------------------------- masking


def mask_headers(headers: Iterable[tuple[str, str]], secret: Collection[str] = ()) -> tuple[tuple[str, str], ...]:
    """The headers with every secret value replaced by ``MASK``; ``secret`` names are case-insensitive."""
    names = ALWAYS_SECRET | {name.lower() for name in secret}
    return tuple((name, MASK if name.lower() in names else value) for name, value in headers)


def mask_url(url: str | httpx2.URL) -> str:
    """The URL with the password of its userinfo (if any) masked."""
    parsed = httpx2.URL(url) if isinstance(url, str) else url
    if not parsed.password:
        return str(parsed)
    host = parsed.netloc.decode("ascii").rpartition("@")[2]
    user = parsed.userinfo.decode("ascii").partition(":")[0]
    fragment = f"#{parsed.fragment}" if parsed.fragment else ""
    return f"{parsed.scheme}://{user}:{MASK}@{host}{parsed.raw_path.decode('ascii')}{fragment}"


# ---------------------------------------------------------------------------------------------- errors


def _causes(exc: BaseException) -> Iterable[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def request_error_message(exc: Exception, url: str | httpx2.URL) -> str:
    """One line for a request that got no HTTP answer (connection refused, DNS, TLS, timeouts)."""
    breach = limit_breach(exc)
    if breach is not None:
        return str(breach)
    where = mask_url(url)
    host = httpx2.URL(url).host if isinstance(url, str) else url.host
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            detail = cause.verify_message or cause.reason or str(cause)
            return f"TLS certificate verification failed for {where}: {detail}"
        if isinstance(cause, ssl.SSLError):
            return f"TLS handshake with {where} failed: {cause.reason or cause}"
        if isinstance(cause, socket.gaierror):
            return f"cannot connect to {where}: host {host!r} not found (DNS lookup failed)"
        if isinstance(cause, ConnectionRefusedError) or getattr(cause, "errno", None) == errno.ECONNREFUSED:
            return f"cannot connect to {where}: connection refused"
    if isinstance(exc, httpx2.ConnectTimeout):
        return f"cannot connect to {where}: timed out"
    if isinstance(exc, httpx2.ReadTimeout):
        return f"no data from {where} within the read timeout"
    if isinstance(exc, httpx2.ConnectError):
        return f"cannot connect to {where}: {message_of(exc)}"
    if isinstance(exc, httpx2.RemoteProtocolError):
        return f"the connection to {where} broke: {str(exc).strip() or 'the server closed it'}"
    if isinstance(exc, httpx2.DecodingError):
        return f"the answer from {where} cannot be decoded: {message_of(exc)}"
    return f"HTTP request to {where} failed: {message_of(exc)}"


def is_html(content_type: str, body: bytes) -> bool:
    """An HTML page (by content type, or by its first bytes when the content type says nothing useful)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media in ("text/html", "application/xhtml+xml"):
        return True
    if media in ("application/json", "text/event-stream"):
        return False
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html"))


def body_summary(body: bytes, content_type: str = "") -> str:
    """A short line describing a body: its JSON-RPC error message, an HTML page's title, or its first line."""
    text = body[:65536].decode("utf-8", "replace")
    if is_html(content_type, body):
        title = _TITLE.search(text)
        text = _TAG.sub(" ", title.group(1)) if title else _TAG.sub(" ", text)
    else:
        error = _jsonrpc_error_text(body)
        if error is not None:
            return error
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= _SUMMARY_CHARS else line[: _SUMMARY_CHARS - 1] + "\u2026"
    return ""


def _jsonrpc_error_text(body: bytes) -> str | None:
    if not body.lstrip().startswith(b"{") or len(body) > 65536:
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    error = value.get("error") if isinstance(value, dict) else None
    if not isinstance(error, dict):
        return None
    message = error.get("message")
    code = error.get("code")
    text = message if isinstance(message, str) else json.dumps(error)
    return f"{text} (JSON-RPC error {code})" if isinstance(code, int) else text


def status_error(response: httpx2.Response, body: bytes) -> HttpError:
    """The error for an answer an MCP client cannot use (status >= 300, an HTML page, unknown content)."""
    status = response.status_code
    url = mask_url(response.request.url)
    content_type = response.headers.get("content-type", "")
    summary = body_summary(body, content_type)
    if status in (401, 403):
        challenge = response.headers.get("www-authenticate")
        word = "unauthorized" if status == 401 else "forbidden"
        detail = challenge or summary or response.reason_phrase
        return HttpAuthError(f"{word} ({status}): {detail}", status=status, url=url, www_authenticate=challenge)
    if status >= 500:
        return HttpError(f"server error {status}: {summary or response.reason_phrase}", status=status, url=url)
    if status >= 300:
        reason = f"HTTP {status} {response.reason_phrase}".rstrip()
        return HttpError(f"{reason}: {summary}" if summary else reason, status=status, url=url)
    media = content_type.split(";", 1)[0].strip() or "no content type"
    if is_html(content_type, body):
        return HttpError(
            f"the server answered with an HTML page (status {status}, {media}) \u2014 is this the MCP endpoint?",
            status=status,
            url=url,
        )
    detail = f": {summary}" if summary else ""
    return HttpError(
        f"unexpected content type {media} (status {status}); an MCP endpoint answers with application/json "
        f"or text/event-stream{detail}",
        status=status,
        url=url,
    )
