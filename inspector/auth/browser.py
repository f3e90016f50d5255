"""Opening the authorization URL in the system browser: only http and https URLs, ever."""

from __future__ import annotations

import logging
import webbrowser
from collections.abc import Callable
from urllib.parse import urlsplit

from inspector.transports.base import message_of

__all__ = ["BrowserOpener", "check_browser_url", "open_in_browser"]

log = logging.getLogger(__name__)

BrowserOpener = Callable[[str], bool]
"""Opens a URL somewhere a person can see it; False when it could not."""


def check_browser_url(url: str) -> str:
    """``url`` if it is an absolute http(s) URL with a host and no whitespace or control characters."""
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        raise ValueError("refusing to open a URL containing whitespace or control characters")
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"refusing to open an invalid URL: {message_of(exc)}") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError(f"refusing to open a {parts.scheme or 'scheme-less'} URL in the browser (only http/https)")
    if not parts.hostname:
        raise ValueError("refusing to open a URL without a host")
    return url


def _system_opener(url: str) -> bool:
    return webbrowser.open(url, new=2)


def open_in_browser(url: str, *, opener: BrowserOpener | None = None) -> bool:
    """Open ``url`` (http/https only, else ValueError) with ``opener`` (default: the system browser).

    Returns False when nothing could open it; the caller then shows the URL to the user.
    """
    check_browser_url(url)
    try:
        return bool((opener or _system_opener)(url))
    except webbrowser.Error as exc:
        log.warning("could not open a browser: %s", message_of(exc))
        return False
