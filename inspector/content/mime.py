"""Choose how to show a payload from its mimeType (and, failing that, its URI's extension)."""

from __future__ import annotations

import mimetypes
from enum import StrEnum
from urllib.parse import urlsplit

__all__ = ["ViewerKind", "choose_viewer", "essence", "guess_mime_type"]


class ViewerKind(StrEnum):
    """The viewer a payload gets."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"
    IMAGE = "image"
    AUDIO = "audio"
    BINARY = "binary"


_JSON_TYPES = frozenset({"application/json", "text/json", "application/schema+json", "application/ld+json"})
_MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown", "text/md"})
_TEXTUAL_APPLICATION_TYPES = frozenset(
    {
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/typescript",
        "application/x-yaml",
        "application/yaml",
        "application/toml",
        "application/sql",
        "application/graphql",
        "application/x-sh",
        "application/x-python",
        "application/x-ndjson",
        "application/jsonl",
        "application/x-httpd-php",
        "application/csv",
    }
)
_EXTRA_EXTENSIONS = {".md": "text/markdown", ".markdown": "text/markdown", ".json": "application/json"}


def essence(mime_type: str | None) -> str:
    """The lower-case ``type/subtype`` of a mimeType, without parameters (``; charset=...``); "" when absent."""
    if not mime_type:
        return ""
    return mime_type.split(";", 1)[0].strip().lower()


def guess_mime_type(uri: str | None) -> str:
    """A mimeType guessed from the extension of a URI's path; "" when there is no good guess."""
    if not uri:
        return ""
    path = urlsplit(uri).path or uri
    dot = path.rfind(".")
    if dot < 0:
        return ""
    extension = path[dot:].lower()
    if extension in _EXTRA_EXTENSIONS:
        return _EXTRA_EXTENSIONS[extension]
    guessed, _ = mimetypes.guess_type("file" + extension, strict=False)
    return guessed or ""


def choose_viewer(mime_type: str | None, uri: str | None = None, *, is_text: bool) -> ViewerKind:
    """The viewer for a payload with this mimeType (guessed from ``uri`` when absent).

    ``is_text`` says whether the payload arrived as text (a ``text`` field) or as bytes (a base64 ``blob``):
    text is never shown in the hex viewer, and bytes of a textual type are only shown as text when the caller
    decodes them (this function just names the viewer).
    """
    kind = essence(mime_type) or guess_mime_type(uri)
    if kind in _JSON_TYPES or kind.endswith("+json"):
        return ViewerKind.JSON
    if kind in _MARKDOWN_TYPES:
        return ViewerKind.MARKDOWN
    if kind.startswith("image/"):
        if is_text and kind != "image/svg+xml":
            return ViewerKind.TEXT
        return ViewerKind.IMAGE
    if kind.startswith("audio/"):
        return ViewerKind.TEXT if is_text else ViewerKind.AUDIO
    if kind.startswith("text/") or kind in _TEXTUAL_APPLICATION_TYPES or kind.endswith("+xml"):
        return ViewerKind.TEXT
    return ViewerKind.TEXT if is_text else ViewerKind.BINARY
