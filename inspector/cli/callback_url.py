"""``--callback-url``: where the CLI's interactive OAuth login receives the authorization redirect.

The official inspector CLI's rules: the flag, else ``$MCP_OAUTH_CALLBACK_URL``, else
``http://127.0.0.1:6276/oauth/callback``; an ``http`` URL whose host is loopback (``localhost``, 127.0.0.0/8,
``[::1]``), because the authorization code arrives over plain http and must not be receivable from the network
(a browser elsewhere reaches it through a port forward). Only host, port and path count; a missing port is 80.
Port 0 means a free port chosen when the login starts.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from inspector.cli.errors import UsageError

__all__ = ["CALLBACK_URL_ENV", "DEFAULT_CALLBACK_URL", "CallbackUrl", "callback_url"]

CALLBACK_URL_ENV: Final = "MCP_OAUTH_CALLBACK_URL"
DEFAULT_CALLBACK_URL: Final = "http://127.0.0.1:6276/oauth/callback"


@dataclass(frozen=True, slots=True)
class CallbackUrl:
    """A checked callback URL."""

    host: str
    """As given (``localhost``, ``127.0.0.1``, ``::1`` without brackets)."""
    port: int
    path: str
    given: bool
    """True when it came from --callback-url or the environment (False: the default)."""

    def redirect_uri(self, port: int | None = None) -> str:
        """The redirect URI registered and sent to the authorization server (``port`` replaces a port 0)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port if port is None else port}{self.path}"


def _is_loopback(host: str) -> bool:
    name = host.lower().rstrip(".")
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback and (address.version == 4 or name == "::1")


def callback_url(given: str | None, environ: dict[str, str] | None = None) -> CallbackUrl:
    """The callback URL of ``--callback-url`` (``given``), else of the environment, else the default;
    UsageError for one that is not a loopback http URL."""
    env = os.environ if environ is None else environ
    raw = (given or "").strip() or env.get(CALLBACK_URL_ENV, "").strip()
    source = "--callback-url" if (given or "").strip() else CALLBACK_URL_ENV
    if not raw:
        return CallbackUrl("127.0.0.1", 6276, "/oauth/callback", given=False)
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as exc:
        raise UsageError(f"{source}: not a usable URL ({exc}): {raw!r}") from None
    if parts.scheme.lower() != "http":
        raise UsageError(f"{source} must be an http:// URL (the redirect is received on loopback), not {raw!r}")
    host = parts.hostname or ""
    if not host:
        raise UsageError(f"{source} needs a host (127.0.0.1, localhost or [::1]): {raw!r}")
    if not _is_loopback(host):
        raise UsageError(
            f"{source} must name a loopback host (localhost, 127.0.0.1, [::1]), not {host!r}: the authorization "
            "code arrives over plain http, so a listener reachable from the network could have it intercepted; "
            "use 127.0.0.1 and forward the port when the browser runs elsewhere"
        )
    return CallbackUrl(host, 80 if port is None else port, parts.path or "/", given=True)
