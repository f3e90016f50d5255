"""Resource subscriptions as plain state: which URIs are subscribed, how often they changed, their last text.

``SubscriptionBook`` is an ordered, evented container (napari style): listeners hear ``inserting``/``inserted``,
``removing``/``removed`` and ``changed`` with the row index, so a Qt model can stay a thin adapter. The panel
drives it: ``add`` when subscribing, ``mark_active`` / ``mark_failed`` with the server's answer,
``record_notification`` on ``notifications/resources/updated`` and ``record_read`` with the re-read result,
which returns the previous and the new text for a diff. ``mark_all_stale`` on disconnect keeps the list so the
subscriptions can be sent again after a reconnect.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

__all__ = [
    "BookListener",
    "Subscription",
    "SubscriptionBook",
    "SubscriptionState",
    "TextChange",
    "contents_text",
]


class SubscriptionState(StrEnum):
    SUBSCRIBING = "subscribing"
    ACTIVE = "active"
    FAILED = "failed"
    STALE = "stale"
    """Subscribed in an earlier connection; not (yet) sent again."""
    UNSUBSCRIBING = "unsubscribing"


@dataclass(slots=True)
class Subscription:
    uri: str
    state: SubscriptionState = SubscriptionState.SUBSCRIBING
    subscribed_at: float | None = None
    update_count: int = 0
    """notifications/resources/updated received for this URI."""
    last_update: float | None = None
    """Wall-clock time (``time.time()``) of the last notification."""
    read_count: int = 0
    last_text: str | None = None
    previous_text: str | None = None
    last_result: Any = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class TextChange:
    """The text of a resource before and after an update."""

    old: str
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


class BookListener(Protocol):
    def inserting(self, index: int) -> None: ...
    def inserted(self, index: int) -> None: ...
    def removing(self, index: int) -> None: ...
    def removed(self, index: int) -> None: ...
    def changed(self, index: int) -> None: ...


@dataclass(slots=True)
class SubscriptionBook:
    """Subscriptions in the order they were made. ``clock`` gives wall-clock seconds (injectable for tests)."""

    clock: Callable[[], float] = time.time
    _items: list[Subscription] = field(default_factory=list)
    _listeners: list[BookListener] = field(default_factory=list)

    # --- reading ---------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Subscription]:
        return iter(list(self._items))

    def __contains__(self, uri: object) -> bool:
        return self.index_of(uri) >= 0

    def at(self, index: int) -> Subscription:
        return self._items[index]

    def get(self, uri: str) -> Subscription | None:
        index = self.index_of(uri)
        return self._items[index] if index >= 0 else None

    def index_of(self, uri: object) -> int:
        return next((i for i, s in enumerate(self._items) if s.uri == uri), -1)

    def uris(self) -> list[str]:
        return [s.uri for s in self._items]

    def is_subscribed(self, uri: str) -> bool:
        """Subscribed (or being subscribed) in the current connection."""
        sub = self.get(uri)
        return sub is not None and sub.state in (SubscriptionState.SUBSCRIBING, SubscriptionState.ACTIVE)

    # --- listeners -------------------------------------------------------------------------------------------

    def add_listener(self, listener: BookListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: BookListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # --- changing --------------------------------------------------------------------------------------------

    def add(self, uri: str) -> Subscription:
        """Start (or restart) a subscription; it is SUBSCRIBING until ``mark_active`` or ``mark_failed``."""
        existing = self.get(uri)
        if existing is not None:
            existing.state = SubscriptionState.SUBSCRIBING
            existing.error = None
            self._changed(uri)
            return existing
        sub = Subscription(uri)
        index = len(self._items)
        for listener in list(self._listeners):
            listener.inserting(index)
        self._items.append(sub)
        for listener in list(self._listeners):
            listener.inserted(index)
        return sub

    def mark_active(self, uri: str) -> None:
        sub = self.get(uri)
        if sub is not None:
            sub.state = SubscriptionState.ACTIVE
            sub.subscribed_at = self.clock()
            sub.error = None
            self._changed(uri)

    def mark_failed(self, uri: str, error: str) -> None:
        sub = self.get(uri)
        if sub is not None:
            sub.state = SubscriptionState.FAILED
            sub.error = error
            self._changed(uri)

    def record_error(self, uri: str, error: str) -> None:
        """Note a problem (e.g. a failed re-read) without changing the subscription's state."""
        sub = self.get(uri)
        if sub is not None:
            sub.error = error
            self._changed(uri)

    def mark_unsubscribing(self, uri: str) -> None:
        sub = self.get(uri)
        if sub is not None:
            sub.state = SubscriptionState.UNSUBSCRIBING
            self._changed(uri)

    def mark_all_stale(self) -> None:
        for sub in self._items:
            if sub.state is not SubscriptionState.STALE:
                sub.state = SubscriptionState.STALE
                self._changed(sub.uri)

    def stale(self) -> list[str]:
        return [s.uri for s in self._items if s.state is SubscriptionState.STALE]

    def remove(self, uri: str) -> bool:
        index = self.index_of(uri)
        if index < 0:
            return False
        for listener in list(self._listeners):
            listener.removing(index)
        del self._items[index]
        for listener in list(self._listeners):
            listener.removed(index)
        return True

    def clear(self) -> None:
        while self._items:
            self.remove(self._items[-1].uri)

    def record_notification(self, uri: str) -> Subscription | None:
        """Count a ``notifications/resources/updated``; None when ``uri`` is not subscribed (then nothing changes)."""
        sub = self.get(uri)
        if sub is None or sub.state in (SubscriptionState.STALE, SubscriptionState.UNSUBSCRIBING):
            return None
        sub.update_count += 1
        sub.last_update = self.clock()
        self._changed(uri)
        return sub

    def record_read(self, uri: str, result: Any) -> TextChange | None:
        """Keep a read result; returns the previous and the new text when there was an earlier read."""
        sub = self.get(uri)
        if sub is None:
            return None
        text = contents_text(result)
        previous = sub.last_text
        sub.previous_text = previous
        sub.last_text = text
        sub.last_result = result
        sub.read_count += 1
        self._changed(uri)
        return TextChange(previous, text) if previous is not None else None

    def _changed(self, uri: str) -> None:
        index = self.index_of(uri)
        if index >= 0:
            for listener in list(self._listeners):
                listener.changed(index)


def contents_text(result: Any) -> str:
    """A text snapshot of a ``resources/read`` result for diffs: text entries as sent, blobs summarised.

    Several entries are separated by a header line naming each URI; a blob becomes one line with its size and
    SHA-256, so a changed image still shows up as a changed line.
    """
    contents = result.get("contents") if isinstance(result, dict) else result
    if not isinstance(contents, list):
        return ""
    parts: list[str] = []
    several = len(contents) > 1
    for entry in contents:
        if not isinstance(entry, dict):
            parts.append(repr(entry))
            continue
        uri = entry.get("uri")
        if several:
            parts.append(f"=== {uri} ===")
        text = entry.get("text")
        if isinstance(text, str):
            parts.append(text)
        elif isinstance(entry.get("blob"), str):
            parts.append(_blob_line(entry["blob"], entry.get("mimeType")))
        else:
            parts.append("(no text or blob)")
    return "\n".join(parts)


def _blob_line(blob: str, mime_type: object) -> str:
    try:
        data = base64.b64decode(blob, validate=False)
    except (binascii.Error, ValueError):
        return f"<blob: invalid base64, {len(blob):,} characters>"
    digest = hashlib.sha256(data).hexdigest()[:16]
    kind = mime_type if isinstance(mime_type, str) else "no mimeType"
    return f"<blob {kind}, {len(data):,} bytes, sha256 {digest}>"
