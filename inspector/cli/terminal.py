"""Output safety: what a server sends never reaches the terminal as control sequences or unencodable text.

Servers choose the strings the CLI prints (tool names, descriptions, results, error messages, their stderr).
Printed raw, an ``ESC`` sequence could set the window title, clear the screen or hide text, a C1 control
(U+0080-U+009F, e.g. U+009B CSI) does the same on terminals that honour 8-bit controls, a bidi override
(U+202A-U+202E, U+2066-U+2069) reorders what is shown, and a lone surrogate (``"\\ud800"`` is valid JSON)
cannot be encoded at all, which would end the run without its output.

One set of unsafe characters, two spellings:

* text output (:func:`escape_text`): each one becomes a backslash escape (``\\x1b``, ``\\x9b``, ``\\u202e``,
  ``\\ud800``); ``\\n`` and ``\\t`` are kept where the layout uses them (a CRLF line end is a newline), a
  single-line field escapes ``\\n`` too;
* JSON output (:func:`escape_json`): each one becomes a ``\\uXXXX`` escape inside its string, so the document
  is still exactly the value the server sent (``json.loads`` gives it back, surrogates and all).

:func:`write` is the last step of every line the CLI prints: text the stream's encoding cannot carry is
backslash-escaped (a JSON document: ``\\u``-escaped) instead of failing.
"""

from __future__ import annotations

import re
from typing import Final, TextIO

__all__ = ["UNSAFE", "escape_json", "escape_line", "escape_text", "write"]

_BIDI: Final = "\u202a-\u202e\u2066-\u2069"
UNSAFE: Final = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")
"""Characters never printed as they are: C0 controls but ``\\t`` and ``\\n``, DEL, C1 controls, the bidi
embeddings, overrides and isolates, and lone surrogates."""

_UNSAFE_LINE: Final = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")
_UNSAFE_JSON: Final = re.compile(f"[\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
"""What ``json.dumps(ensure_ascii=False)`` leaves raw that must not be: it escapes C0 controls itself; U+2028
and U+2029 are escaped too (line breaks to some readers)."""

_NAMED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _backslash(match: re.Match[str]) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _unicode(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_text(text: str) -> str:
    """``text`` safe for a terminal, keeping its lines (``\\n``) and tabs; CRLF becomes a newline."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return UNSAFE.sub(_backslash, text)


def escape_line(text: str) -> str:
    """``text`` safe for a terminal as part of one line: newlines are escaped too (tabs kept)."""
    return _UNSAFE_LINE.sub(_backslash, text)


def escape_json(document: str) -> str:
    """A JSON text from ``json.dumps(..., ensure_ascii=False)`` with every unsafe character ``\\u``-escaped.

    Such characters only occur inside strings there, where the escape means the same character: the
    document still parses to the same value.
    """
    return _UNSAFE_JSON.sub(_unicode, document)


def _ascii_json(document: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code <= 0xFFFF:
            return f"\\u{code:04x}"
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

    return re.sub(r"[^\x00-\x7f]", escape, document)


def write(stream: TextIO, text: str, *, json: bool = False) -> None:
    """Write ``text`` (already escaped) and flush; what the stream's encoding cannot carry is escaped
    (``\\xe9`` in text, ``\\u00e9`` in a JSON document) instead of raising."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        if json:
            stream.write(_ascii_json(text))
        else:
            encoding = getattr(stream, "encoding", None) or "ascii"
            stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
    stream.flush()
