"""Handing things to the desktop: web links open in the browser (http and https only)."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

__all__ = ["is_web_url", "open_web_url"]


def is_web_url(url: str) -> bool:
    """Only http and https URLs with a host are ever opened."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def open_web_url(url: str) -> bool:
    """Open an http/https URL in the browser; anything else is refused (False)."""
    if not is_web_url(url):
        return False
    return bool(QDesktopServices.openUrl(QUrl(url.strip())))
