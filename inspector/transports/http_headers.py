"""Header values of the Streamable HTTP transport: what may go out as a header, and how a server's value is shown.

A value the server sent (a session id, an event id) goes back as a header only when it can go as it came
(:func:`unsendable` says why not: a control character, a lone surrogate, non-ASCII unless sent as UTF-8, more
than ``HEADER_VALUE_MAX`` characters). A message's own headers (protocol version, method, name, parameters)
must be valid field names that the transport does not set itself, with values that can be sent
(:func:`header_problem`). :func:`shown` quotes a server's value for a one-line message.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["HEADER_VALUE_MAX", "TRANSPORT_OWNED", "header_problem", "shown", "unsendable"]

HEADER_VALUE_MAX: Final = 8192
"""The longest session id or event id sent back as a header: servers commonly refuse longer header lines."""
_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP field name (RFC 9110 token)."""
TRANSPORT_OWNED: Final = frozenset(
    {"accept", "content-type", "content-length", "host", "transfer-encoding", "mcp-session-id", "last-event-id"}
)
"""Headers the transport sets itself; a message's own headers may not name them."""


def unsendable(value: str, *, utf8: bool = False) -> str | None:
    """Why ``value`` (from the server) cannot be sent back as an HTTP header value as it is, or None.

    Refused: control characters (tab apart), DEL, and more than ``HEADER_VALUE_MAX`` characters; non-ASCII
    too unless ``utf8`` (then it goes as its UTF-8 bytes)."""
    if len(value) > HEADER_VALUE_MAX:
        return f"it is {len(value)} characters long (more than {HEADER_VALUE_MAX})"
    for at, ch in enumerate(value):
        code = ord(ch)
        if (code < 0x20 and ch != "\t") or code == 0x7F or 0x80 <= code <= 0x9F:
            return f"it holds the control character U+{code:04X} at position {at}"
        if code > 0x7E and not utf8:
            return f"it holds the non-ASCII character U+{code:04X} at position {at}"
        if 0xD800 <= code <= 0xDFFF:
            return f"it holds the lone surrogate U+{code:04X} at position {at}"
    return None


def header_problem(name: str, value: str) -> str | None:
    """Why a message's own header cannot be sent, or None."""
    if not _TOKEN.fullmatch(name):
        return f"{shown(name)} is not a valid HTTP header name"
    if name.lower() in TRANSPORT_OWNED:
        return f"{name} is set by the transport itself"
    problem = unsendable(value)
    return None if problem is None else f"the value of {name} cannot be sent as it is: {problem}"


def shown(value: str) -> str:
    """A server's value in a message: quoted, escaped to ASCII, cut."""
    return ascii(value if len(value) <= 60 else value[:60] + "...")
