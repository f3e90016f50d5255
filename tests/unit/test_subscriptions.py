"""SubscriptionBook: plain subscription state with events for a Qt adapter; text snapshots for diffs."""

from __future__ import annotations

import base64
from typing import Any

from inspector.content.subscriptions import SubscriptionBook, SubscriptionState, TextChange, contents_text


class Recorder:
    def __init__(self, book: SubscriptionBook) -> None:
        self.book = book
        self.events: list[tuple[str, int, int]] = []

    def _note(self, kind: str, index: int) -> None:
        self.events.append((kind, index, len(self.book)))

    def inserting(self, index: int) -> None:
        self._note("inserting", index)

    def inserted(self, index: int) -> None:
        self._note("inserted", index)

    def removing(self, index: int) -> None:
        self._note("removing", index)

    def removed(self, index: int) -> None:
        self._note("removed", index)

    def changed(self, index: int) -> None:
        self._note("changed", index)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def _result(text: str, uri: str = "demo://clock") -> dict[str, Any]:
    return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}


def test_lifecycle_and_events() -> None:
    book = SubscriptionBook(clock=Clock())
    rec = Recorder(book)
    book.add_listener(rec)
    sub = book.add("demo://clock")
    assert rec.events == [("inserting", 0, 0), ("inserted", 0, 1)]  # "about to" sees the old length
    assert sub.state is SubscriptionState.SUBSCRIBING and book.is_subscribed("demo://clock")
    assert book.add("demo://clock") is sub and len(book) == 1  # no duplicate
    book.add("demo://other")
    book.mark_active("demo://clock")
    assert book.at(0).state is SubscriptionState.ACTIVE and sub.subscribed_at == 1001.0
    assert "demo://clock" in book and book.uris() == ["demo://clock", "demo://other"]

    rec.events.clear()
    assert book.remove("demo://clock")
    assert rec.events == [("removing", 0, 2), ("removed", 0, 1)]
    assert not book.remove("demo://clock")
    assert book.index_of("demo://other") == 0
    book.remove_listener(rec)
    book.clear()
    assert len(book) == 0 and rec.events[-1] == ("removed", 0, 1)


def test_notifications_count_only_live_subscriptions() -> None:
    clock = Clock()
    book = SubscriptionBook(clock=clock)
    assert book.record_notification("demo://clock") is None
    book.add("demo://clock")
    book.mark_active("demo://clock")
    first = book.record_notification("demo://clock")
    assert first is not None and first.update_count == 1 and first.last_update == clock.now
    book.record_notification("demo://clock")
    assert first.update_count == 2
    book.mark_unsubscribing("demo://clock")
    assert book.record_notification("demo://clock") is None and first.update_count == 2
    book.mark_failed("demo://clock", "boom")
    assert first.state is SubscriptionState.FAILED and first.error == "boom"
    assert not book.is_subscribed("demo://clock")


def test_reads_give_text_changes() -> None:
    book = SubscriptionBook()
    book.add("demo://clock")
    assert book.record_read("demo://clock", _result("tick=1\n")) is None  # the baseline
    change = book.record_read("demo://clock", _result("tick=2\n"))
    assert change == TextChange("tick=1\n", "tick=2\n") and change.changed
    sub = book.get("demo://clock")
    assert sub is not None and sub.read_count == 2 and sub.previous_text == "tick=1\n"
    assert sub.last_result == _result("tick=2\n")
    same = book.record_read("demo://clock", _result("tick=2\n"))
    assert same is not None and not same.changed
    assert book.record_read("demo://unknown", _result("x")) is None


def test_stale_after_disconnect() -> None:
    book = SubscriptionBook()
    rec = Recorder(book)
    book.add_listener(rec)
    for uri in ("a://1", "a://2"):
        book.add(uri)
        book.mark_active(uri)
    rec.events.clear()
    book.mark_all_stale()
    assert book.stale() == ["a://1", "a://2"]
    assert rec.events == [("changed", 0, 2), ("changed", 1, 2)]
    assert book.record_notification("a://1") is None
    book.add("a://1")  # subscribing again in the new connection
    assert book.stale() == ["a://2"] and book.is_subscribed("a://1")


def test_contents_text() -> None:
    assert contents_text(_result("hello")) == "hello"
    png = base64.b64encode(b"\x89PNG....").decode()
    several = {
        "contents": [
            {"uri": "a://1", "text": "one"},
            {"uri": "a://2", "mimeType": "image/png", "blob": png},
            {"uri": "a://3"},
            "junk",
        ]
    }
    lines = contents_text(several).splitlines()
    assert lines[:2] == ["=== a://1 ===", "one"]
    assert lines[3].startswith("<blob image/png, 8 bytes, sha256 ")
    assert lines[5] == "(no text or blob)" and lines[6] == "'junk'"
    assert contents_text({"contents": "nope"}) == "" and contents_text(None) == ""
    assert contents_text({"contents": [{"uri": "a://x", "blob": "!!!"}]}).startswith("<blob")


def test_errors_are_noted_without_changing_the_state() -> None:
    book = SubscriptionBook()
    book.add("a://1")
    book.mark_active("a://1")
    book.record_error("a://1", "re-read failed")
    sub = book.get("a://1")
    assert sub is not None and sub.state is SubscriptionState.ACTIVE and sub.error == "re-read failed"
    book.record_error("a://unknown", "ignored")
