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
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

__all__ = ["SseError", "SseEvent", "SseParser"]

_EOL: Final = re.compile(r"[\r\n]")


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

    def __init__(self, *, max_event_chars: int | None = None) -> None:
        """``max_event_chars`` bounds the data of one event (and one line); more raises ``SseError``."""
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")("replace")
        self._max = max_event_chars
        self._line: list[str] = []
        """Pieces of the line still missing its end."""
        self._line_len = 0
        self._skip_lf = False
        """The last chunk ended with CR: a LF at the start of the next one belongs to it."""
        self._data: list[str] = []
        self._data_len = 0
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

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """The events the bytes in ``chunk`` complete (possibly none)."""
        return self._feed_text(self._decoder.decode(chunk))

    def close(self) -> bool:
        """The stream ended: an unfinished event is discarded (the standard says so). True when there was one."""
        self._decoder.decode(b"", final=True)
        unfinished = self.pending
        self._line.clear()
        self._line_len = 0
        self._id_buffer = self.last_event_id
        self._skip_lf = False
        self._reset_event()
        return unfinished

    # ------------------------------------------------------------------ internals

    def _feed_text(self, text: str) -> list[SseEvent]:
        events: list[SseEvent] = []
        if not text:
            return events
        pos = 0
        if self._skip_lf:
            self._skip_lf = False
            if text[0] == "\n":
                pos = 1
        size = len(text)
        while pos < size:
            found = _EOL.search(text, pos)
            if found is None:
                self._line.append(text[pos:])
                self._line_len += size - pos
                if self._max is not None and self._line_len > self._max:
                    raise SseError(f"an event stream line is longer than {self._max} characters")
                break
            end = found.start()
            if self._line:
                self._line.append(text[pos:end])
                line = "".join(self._line)
                self._line.clear()
                self._line_len = 0
            else:
                line = text[pos:end]
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
        return events

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
        self._event = ""
