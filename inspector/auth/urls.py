"""The one rule for every URL an OAuth flow takes from a server: https, or http on loopback only.

OAuth 2.1 (section 1.5) and the MCP authorization spec require TLS for every authorization-server endpoint,
except loopback redirect/test set-ups. This module decides it for any URL that a server handed us
(protected-resource metadata, authorization servers, issuer, authorization / token / registration endpoints,
redirects of the authorization request) before anything is opened in a browser or fetched. Loopback means
127.0.0.0/8, ::1 and ``localhost`` (and its subdomains, RFC 6761).
"""

from __future__ import annotations

import ipaddress
from typing import Final
from urllib.parse import urlsplit

from inspector.transports.base import message_of

__all__ = ["LOOPBACK_RULE", "check_oauth_url", "is_loopback_host", "oauth_url_problem"]

LOOPBACK_RULE: Final = "OAuth requires https except on loopback: 127.0.0.0/8, ::1, localhost"


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def oauth_url_problem(url: str) -> str | None:
    """Why ``url`` may not be used by the OAuth flow (None: it may)."""
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in url):
        return "holds whitespace or control characters"
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError as exc:
        return f"is not a valid URL ({message_of(exc)})"
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        return f"is not an https URL ({scheme or 'no'} scheme; {LOOPBACK_RULE})"
    if not host:
        return "has no host"
    if scheme == "http" and not is_loopback_host(host):
        return f"is not https ({LOOPBACK_RULE})"
    return None


def check_oauth_url(url: str, what: str) -> str:
    """``url`` when it may be used; else ValueError naming ``what`` (e.g. "the authorization server's
    authorization_endpoint") and the rule it breaks."""
    problem = oauth_url_problem(url)
    if problem is not None:
        shown = url if len(url) <= 200 else url[:199] + "\u2026"
        raise ValueError(f"{what} {shown!r} {problem}")
    return url
