"""One object with every bound on what is read from a server, and the one-line message for a breach.

Everything a server sends is bounded *while it is read* (never read whole and then checked): a message
(a stdio line, an HTTP JSON body, an SSE event's data), the decompressed size and ratio of any HTTP body
(MCP responses, SSE streams, OAuth metadata, registration and token responses), a single SSE line other
than ``data``, a response header, a stderr line, and the bodies of the OAuth exchanges. Reconnections
(stream resumption, re-listening) have a budget too. Sans-I/O: plain data and pure functions.

Defaults are documented on each field; they are overridden per profile (``limits`` in the profile JSON) and
on the command line (``--limit NAME=VALUE``, e.g. ``--limit message_bytes=64MiB``); sizes are read and
written by :mod:`inspector.protocol.sizes`.

A breach is described by :class:`LimitExceeded` (an exception, also usable as data): it names the limit,
its value and the figure that broke it, e.g. ``a message of more than 256 MiB (limit message_bytes =
256 MiB)``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.sizes import GiB, KiB, MiB, format_size, parse_size

__all__ = [
    "DEFAULT_LIMITS",
    "GiB",
    "KiB",
    "LimitExceeded",
    "Limits",
    "MiB",
    "limit_docs",
    "parse_size",
]


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds in force for one connection. Every field is an ``int``; sizes are bytes."""

    message_bytes: int = 256 * MiB
    """One JSON-RPC message as read: a stdio line, an HTTP JSON body, one SSE event's data (well above the
    50 MB payloads the window promises to show)."""
    decompressed_bytes: int = 256 * MiB
    """A whole HTTP body after Content-Encoding is undone (a long-lived SSE stream: per event, see
    ``message_bytes``; its ratio is still checked)."""
    decompression_ratio: int = 100
    """Decoded bytes per encoded byte of an HTTP body, checked once the decoded part passed
    ``ratio_grace_bytes`` (a gzip bomb inflates ~1000:1; JSON compresses 5-20:1)."""
    ratio_grace_bytes: int = 16 * MiB
    """Decoded bytes of a body before the ratio is checked (small bodies may compress as they like)."""
    sse_line_bytes: int = 64 * KiB
    """One SSE line other than ``data`` (``id``, ``event``, ``retry``, comments, unknown fields), and the
    legacy transport's ``endpoint`` event."""
    header_bytes: int = 64 * KiB
    """The response headers of one HTTP answer, all together (names, values)."""
    stderr_line_bytes: int = 64 * KiB
    """One line the server writes on stderr; a longer one is cut there (the rest of it is dropped)."""
    oauth_body_bytes: int = 1 * MiB
    """One OAuth response body (protected-resource and authorization-server metadata, client registration,
    token responses) and so any token in it."""
    error_body_bytes: int = 64 * KiB
    """What is read of an HTTP error answer (for its message); the rest is not read."""
    reconnect_floor_ms: int = 250
    """Shortest wait before resuming a stream, whatever ``retry`` the server sent."""
    reconnect_cap_ms: int = 30_000
    """Longest wait between two attempts (the backoff doubles up to here, with jitter)."""
    reconnects_per_request: int = 5
    """Attempts in a row to resume one request's response stream, or to re-open the listening stream, without a
    JSON-RPC message coming through, before giving up (a stream that delivered a message starts the count
    again; ``reconnects_per_minute`` still bounds the whole)."""
    reconnects_per_minute: int = 30
    """Attempts to resume or re-open streams per connection in any 60 seconds."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    def replace(self, **changes: int) -> Limits:
        return dataclasses.replace(self, **changes)

    def overridden(self, overrides: Mapping[str, Any] | None) -> Limits:
        """These limits with ``overrides`` (name -> int or size text) applied; raises ValueError naming a
        bad name or value."""
        if not overrides:
            return self
        known = set(self.names())
        changes: dict[str, int] = {}
        for name, value in overrides.items():
            key = str(name).strip().replace("-", "_")
            if key not in known:
                raise ValueError(f"unknown limit {name!r}; known: {', '.join(self.names())}")
            try:
                number = parse_size(value) if isinstance(value, (str, int)) else None
            except ValueError as exc:
                raise ValueError(f"limit {key}: {exc}") from None
            if number is None or number < 0 or (number == 0 and not key.startswith("reconnect")):
                raise ValueError(f"limit {key} must be a positive number, not {value!r}")
            changes[key] = number
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.names()}

    def show(self, name: str) -> str:
        """``message_bytes = 256 MiB`` (sizes in bytes shown for people)."""
        value: int = getattr(self, name)
        return f"{name} = {format_size(value) if name.endswith('_bytes') else value}"

    def exceeded(self, name: str, what: str, figure: int | None = None) -> LimitExceeded:
        """The breach of limit ``name`` by ``what`` (e.g. "a message", "the decoded body"); ``figure`` is how
        much was seen (None: more than the limit, how much more is unknown)."""
        return LimitExceeded(name, getattr(self, name), what, figure, self.show(name))


@functools.cache
def limit_docs() -> dict[str, str]:
    """Each limit's documentation (its field docstring), for the README and help texts."""
    import ast
    import inspect

    docs: dict[str, str] = {}
    try:
        tree = ast.parse(inspect.getsource(Limits))
    except (OSError, TypeError, SyntaxError):
        return docs
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for first, second in itertools.pairwise(body):
        if (
            isinstance(first, ast.AnnAssign)
            and isinstance(first.target, ast.Name)
            and isinstance(second, ast.Expr)
            and isinstance(second.value, ast.Constant)
            and isinstance(second.value.value, str)
        ):
            docs[first.target.id] = " ".join(second.value.value.split())
    return docs


DEFAULT_LIMITS: Final = Limits()


class LimitExceeded(Exception):
    """Something read from a server broke a limit. ``str()`` is the one line for people."""

    def __init__(self, name: str, limit: int, what: str, figure: int | None, shown: str | None = None) -> None:
        self.name = name
        self.limit = limit
        self.what = what
        self.figure = figure
        shown = shown or f"{name} = {limit}"
        if figure is None:
            amount = f"more than {format_size(limit)}" if name.endswith("_bytes") else f"more than {limit}"
        elif name.endswith("_bytes"):
            amount = format_size(figure)
        else:
            amount = str(figure)
        super().__init__(f"{what} of {amount} (limit {shown})")

    @property
    def message(self) -> str:
        return str(self)
