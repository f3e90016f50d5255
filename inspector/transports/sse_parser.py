"""Server-Sent Events, sans-I/O: bytes in, events out (the WHATWG "event stream interpretation").

``SseParser.feed(chunk)`` takes the bytes of a ``text/event-stream`` body exactly as they arrive, split
anywhere (inside a line, a CRLF pair, a UTF-8 sequence or the leading BOM), and returns the events
completed by that chunk. The parser follows the HTML standard:

* the stream is UTF-8 (invalid bytes become U+FFFD); one leading byte order mark is dropped;
* lines end with CRLF, LF or CR; an empty line dispatches the event being built;
* a line starting with ``:`` is a comment (counted in ``comments``, otherwise ignored);
* ``field: value`` (one space after the colon is dropped; a line without a colon is a field with an empty
  value); the fields are ``event``, ``data`` (several lines join with ``\\n``), ``id`` (ignored when it
  contains NUL; it persists from event to event) and ``retry`` (ASCII digits only, milliseconds);
  unknown fields are ignored;
* a blank line after lines without any ``data`` field dispatches nothing, but an ``id`` among them still
  becomes the last event id; ``data:`` with an empty value *is* dispatched, with empty data (MCP servers
  "prime" a stream with ``id: X`` + ``data:``); at the end of the stream an unfinished event is discarded.

Bounds (``limits``): the data of one event (its ``data`` lines joined, in UTF-8 bytes) is at most
``limits.message_bytes`` (or another limit, see :meth:`SseParser.bound_data`), and any other line (``id``,
``event``, ``retry``, a comment, an unknown field) at most ``limits.sse_line_bytes``. Both are checked
while a line is still arriving, so a line that never ends is caught after at most one chunk more than the
limit. A breach is kept in ``SseParser.breach`` (a :class:`LimitExceeded`); ``feed`` still returns the
events completed before it, and everything after it is ignored. Where the breach is found does not depend on
how the stream was cut into chunks.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

from inspector.protocol.limits import LimitExceeded, Limits

__all__ = ["SseError", "SseEvent", "SseParser"]

_EOL: Final = re.compile(r"[\r\n]")
_DATA: Final = "data:"
_HEAD: Final = 16
"""Characters of a line kept to tell its field (for the bound and the message) while it still arrives."""
_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,15}")


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class SseError(Exception):
    """The stream cannot be parsed further (an event larger than the parser's limit)."""


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    event: str
    """The event type; ``"message"`` when the stream gave none."""
    data: str
    id: str | None
    """The last event id as of this event (set by this event or an earlier one); None when never set."""
    retry: int | None
    """The reconnection time in milliseconds as of this event; None when never set."""


class SseParser:
    """Incremental event-stream parser. Not thread-safe; one per response stream."""

    def __init__(self, *, max_event_chars: int | None = None, limits: Limits | None = None) -> None:
        """``max_event_chars`` bounds the data of one event (and one line); more raises ``SseError``.
        ``limits``: the bounds of the module docstring (None: unbounded); a breach sets ``breach``."""
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")("replace")
        self._max = max_event_chars
        self._limits = limits
        self._data_limit = "message_bytes"
        self._data_what = "an SSE event's data"
        self.breach: LimitExceeded | None = None
        """The limit the stream broke (then nothing more is parsed), or None."""
        self._line: list[str] = []
        """Pieces of the line still missing its end."""
        self._line_len = 0
        self._line_bytes = 0
        self._line_head = ""
        """The first ``_HEAD`` characters of the unfinished line."""
        self._skip_lf = False
        """The last chunk ended with CR: a LF at the start of the next one belongs to it."""
        self._data: list[str] = []
        self._data_len = 0
        self._data_bytes = 0
        """UTF-8 bytes of the event's data so far (its lines joined with ``\\n``)."""
        self._event = ""
        self._id_buffer: str | None = None
        self.last_event_id: str | None = None
        """The id as of the last dispatch (empty-data events included)."""
        self.retry: int | None = None
        """The latest valid ``retry`` value, in milliseconds."""
        self.comments = 0
        """Comment lines seen (keep-alives)."""
        self.events = 0
        """Events dispatched so far."""

    @property
    def pending(self) -> bool:
        """True while an event (or a line) has been started but not finished."""
        return bool(self._line or self._data or self._event or self._id_buffer != self.last_event_id)

    def bound_data(self, name: str, what: str) -> None:
        """From now on the data of one event is bounded by the limit ``name`` (a field of ``Limits``), and a
        breach says ``what`` broke it (e.g. ``"the endpoint event"``)."""
        self._data_limit = name
        self._data_what = what

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """The events the bytes in ``chunk`` complete (possibly none); after a breach, none."""
        if self.breach is not None:
            return []
        events: list[SseEvent] = []
        try:
            self._feed_text(self._decoder.decode(chunk), events)
        except LimitExceeded as exc:
            self.breach = exc
            self._clear_line()
            self._reset_event()
        return events

    def close(self) -> bool:
        """The stream ended: an unfinished event is discarded (the standard says so). True when there was one."""
        self._decoder.decode(b"", final=True)
        unfinished = self.pending
        self._clear_line()
        self._id_buffer = self.last_event_id
        self._skip_lf = False
        self._reset_event()
        return unfinished

    # ------------------------------------------------------------------ internals

    def _feed_text(self, text: str, events: list[SseEvent]) -> None:
        if not text:
            return
        pos = 0
        if self._skip_lf:
            self._skip_lf = False
            if text[0] == "\n":
                pos = 1
        size = len(text)
        while pos < size:
            found = _EOL.search(text, pos)
            if found is None:
                piece = text[pos:]
                self._line.append(piece)
                self._line_len += size - pos
                if self._max is not None and self._line_len > self._max:
                    raise SseError(f"an event stream line is longer than {self._max} characters")
                if self._limits is not None:
                    if len(self._line_head) < _HEAD:
                        self._line_head += piece[: _HEAD - len(self._line_head)]
                    self._line_bytes += _utf8_len(piece)
                    self._check_line(self._line_head, self._line_bytes, finished=False)
                break
            end = found.start()
            if self._line:
                self._line.append(text[pos:end])
                line = "".join(self._line)
                self._clear_line()
            else:
                line = text[pos:end]
            if self._limits is not None:
                self._check_line(line[:_HEAD], _utf8_len(line), finished=True)
            if text[end] == "\r":
                if end + 1 < size:
                    pos = end + 2 if text[end + 1] == "\n" else end + 1
                else:
                    self._skip_lf = True
                    pos = end + 1
            else:
                pos = end + 1
            event = self._process_line(line)
            if event is not None:
                events.append(event)

    def _clear_line(self) -> None:
        self._line.clear()
        self._line_len = 0
        self._line_bytes = 0
        self._line_head = ""

    def _check_line(self, head: str, size: int, *, finished: bool) -> None:
        """Raise the breach of a line (unfinished: ``size`` bytes so far) that is too long for its kind."""
        limits = self._limits
        assert limits is not None
        if head.startswith(_DATA):
            value = size - len(_DATA) - (1 if head.startswith(" ", len(_DATA)) else 0)
            total = self._data_bytes + (1 if self._data else 0) + max(0, value)
            if total > getattr(limits, self._data_limit):
                raise limits.exceeded(self._data_limit, self._data_what, None)
            return
        if not finished and _DATA.startswith(head):
            return  # may still become a data line
        if size > limits.sse_line_bytes:
            raise limits.exceeded("sse_line_bytes", self._line_what(head), None)

    @staticmethod
    def _line_what(head: str) -> str:
        if head.startswith(":"):
            return "an SSE comment line"
        name = head.partition(":")[0] if ":" in head else ""
        return f"an SSE {name!r} line" if _NAME.fullmatch(name) else "an SSE line"

    def _process_line(self, line: str) -> SseEvent | None:
        if not line:
            return self._dispatch()
        colon = line.find(":")
        if colon == 0:
            self.comments += 1
            return None
        if colon < 0:
            name, value = line, ""
        else:
            name = line[:colon]
            value = line[colon + 2 :] if line.startswith(" ", colon + 1) else line[colon + 1 :]
        if name == "data":
            if self._limits is not None:
                self._data_bytes += _utf8_len(value) + (1 if self._data else 0)
                if self._data_bytes > getattr(self._limits, self._data_limit):  # ("data" lines, no colon)
                    raise self._limits.exceeded(self._data_limit, self._data_what, None)
            self._data.append(value)
            self._data_len += len(value) + 1
            if self._max is not None and self._data_len > self._max:
                raise SseError(f"an event is larger than {self._max} characters")
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._id_buffer = value
        elif name == "retry":
            if value and value.isascii() and value.isdigit():
                self.retry = int(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        self.last_event_id = self._id_buffer
        if not self._data:
            self._event = ""
            return None
        data = "\n".join(self._data)
        event = SseEvent(self._event or "message", data, self.last_event_id, self.retry)
        self._reset_event()
        self.events += 1
        return event

    def _reset_event(self) -> None:
        self._data.clear()
        self._data_len = 0
        self._data_bytes = 0
        self._event = ""
