"""Syntax highlighting to self-contained HTML (inline styles) with pygments, for code and JSON viewers."""

from __future__ import annotations

from inspector.content.mime import essence

__all__ = ["HIGHLIGHT_LIMIT", "HIGHLIGHT_LINE_LIMIT", "highlight_html", "language_for"]

HIGHLIGHT_LIMIT = 100_000
"""Characters above which text is shown plain: highlighting is for reading, not for megabytes."""

HIGHLIGHT_LINE_LIMIT = 2_000
"""Lines above which text is shown plain (rich text costs per line to lay out)."""

_ALIASES = {
    "application/json": "json",
    "text/json": "json",
    "application/x-ndjson": "json",
    "text/markdown": "markdown",
    "application/javascript": "javascript",
    "application/typescript": "typescript",
    "text/x-typescript": "typescript",
    "application/x-yaml": "yaml",
    "application/yaml": "yaml",
    "application/toml": "toml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/html": "html",
    "text/css": "css",
    "application/sql": "sql",
    "text/x-sh": "bash",
    "application/x-sh": "bash",
}


def language_for(mime_type: str | None, uri: str | None = None) -> str:
    """A pygments lexer alias for a mimeType (``text/x-python`` -> ``python``) or a file name; "" if none fits."""
    from pygments.lexers import get_lexer_for_filename, get_lexer_for_mimetype
    from pygments.util import ClassNotFound

    kind = essence(mime_type)
    if kind in _ALIASES:
        return _ALIASES[kind]
    if kind.startswith("text/x-") and kind != "text/x-markdown":
        candidate = kind.removeprefix("text/x-")
        if _lexer_exists(candidate):
            return candidate
    if kind and kind not in ("text/plain", "application/octet-stream"):
        try:
            return str(get_lexer_for_mimetype(kind).aliases[0])
        except (ClassNotFound, IndexError):
            pass
    if uri:
        name = uri.rsplit("/", 1)[-1]
        if "." in name:
            try:
                return str(get_lexer_for_filename(name).aliases[0])
            except (ClassNotFound, IndexError):
                pass
    return ""


def highlight_html(text: str, language: str, *, dark: bool = False, style: str | None = None) -> str | None:
    """``text`` as a ``<pre>`` of inline-styled HTML; None when the language is unknown or the text too big.
    ``style``: a pygments style (the window's theme says which), else a light or a ``dark`` one."""
    if not language or len(text) > HIGHLIGHT_LIMIT or text.count("\n", 0, HIGHLIGHT_LIMIT) > HIGHLIGHT_LINE_LIMIT:
        return None
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
    formatter = HtmlFormatter(noclasses=True, nobackground=True, style=style or ("monokai" if dark else "friendly"))
    return str(highlight(text, lexer, formatter))


def _lexer_exists(alias: str) -> bool:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        get_lexer_by_name(alias)
    except ClassNotFound:
        return False
    return True
