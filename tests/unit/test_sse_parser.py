"""The sans-I/O SSE parser: fields, multi-line data, comments, BOM, line endings, ids and retry, any chunking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.transports.sse_parser import SseError, SseEvent, SseParser


def parse(data: bytes) -> tuple[list[SseEvent], SseParser]:
    parser = SseParser()
    events = parser.feed(data)
    return events, parser


def test_message_with_id_and_event_type() -> None:
    events, parser = parse(b'event: update\nid: 7\ndata: {"a": 1}\n\n')
    assert events == [SseEvent("update", '{"a": 1}', "7", None)]
    assert parser.last_event_id == "7" and parser.events == 1


def test_default_type_is_message_and_id_persists() -> None:
    events, _ = parse(b"id: 1\ndata: a\n\ndata: b\n\n")
    assert [(e.event, e.data, e.id) for e in events] == [("message", "a", "1"), ("message", "b", "1")]


def test_multi_line_data_joined_with_newline() -> None:
    events, _ = parse(b"data: first\ndata:second\ndata:  third\ndata\n\n")
    assert events[0].data == "first\nsecond\n third\n"


def test_one_space_after_colon_is_dropped_only() -> None:
    events, _ = parse(b"data:no space\n\ndata:   three\n\n")
    assert [e.data for e in events] == ["no space", "  three"]


def test_comments_are_ignored_and_counted() -> None:
    events, parser = parse(b": keep-alive\n:\ndata: x\n: another\n\n")
    assert [e.data for e in events] == ["x"]
    assert parser.comments == 3


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending(eol: bytes) -> None:
    events, _ = parse(eol.join([b"id: 3", b"data: a", b"data: b", b"", b"data: c", b"", b""]))
    assert [(e.data, e.id) for e in events] == [("a\nb", "3"), ("c", "3")]


def test_leading_bom_is_dropped_once() -> None:
    events, _ = parse(b"\xef\xbb\xbfdata: x\n\n")
    assert events[0].data == "x"
    events, _ = parse(b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n")
    assert events == []  # the second BOM makes the field name "\ufeffdata": unknown, ignored


def test_priming_event_sets_the_id_and_dispatches_empty_data() -> None:
    events, parser = parse(b"id: s-0\nretry: 250\ndata:\n\n")
    assert events == [SseEvent("message", "", "s-0", 250)]
    assert parser.retry == 250


def test_block_without_data_sets_id_without_dispatch() -> None:
    events, parser = parse(b"id: 42\n\n")
    assert events == [] and parser.last_event_id == "42"


def test_retry_needs_ascii_digits() -> None:
    _, parser = parse(b"retry: 100\n\nretry: 1x\n\nretry: -5\n\nretry: \xd9\xa3\n\n")
    assert parser.retry == 100


def test_id_with_nul_is_ignored_and_empty_id_resets() -> None:
    events, parser = parse(b"id: good\ndata: a\n\nid: ba\x00d\ndata: b\n\nid\ndata: c\n\n")
    assert [e.id for e in events] == ["good", "good", ""]
    assert parser.last_event_id == ""


def test_unknown_fields_and_lines_without_colon() -> None:
    events, _ = parse(b"foo: bar\nevent\ndata: x\n\n")
    assert events == [SseEvent("message", "x", None, None)]


def test_invalid_utf8_becomes_replacement_character() -> None:
    events, _ = parse(b"data: a\xffb\n\n")
    assert events[0].data == "a\ufffdb"


def test_unfinished_event_is_discarded_at_close() -> None:
    parser = SseParser()
    assert parser.feed(b"data: complete\n\ndata: half") == [SseEvent("message", "complete", None, None)]
    assert parser.pending
    assert parser.close() is True
    assert not parser.pending


def test_close_after_a_clean_end_reports_nothing_pending() -> None:
    parser = SseParser()
    parser.feed(b"data: x\n\n")
    assert parser.close() is False


def test_size_limit() -> None:
    parser = SseParser(max_event_chars=10)
    with pytest.raises(SseError):
        parser.feed(b"data: 0123456789abcdef\n\n")
    parser = SseParser(max_event_chars=10)
    with pytest.raises(SseError):
        parser.feed(b"data: 01234\ndata: 56789\n\n")


def test_a_large_event_in_many_chunks() -> None:
    payload = ("x" * 1000 + "\u00e9") * 2000
    data = f"data: {payload}\n\n".encode()
    parser = SseParser()
    events: list[SseEvent] = []
    for start in range(0, len(data), 4093):
        events += parser.feed(data[start : start + 4093])
    assert [e.data for e in events] == [payload]


# -- any chunking gives the same events -----------------------------------------------------------------------

_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=12)
_LINE = st.one_of(
    st.builds(lambda v: f"data: {v}", _TEXT),
    st.builds(lambda v: f"data:{v}", _TEXT),
    st.builds(lambda v: f"id: {v}", _TEXT),
    st.builds(lambda v: f"event: {v}", _TEXT),
    st.builds(lambda v: f"retry: {v}", st.integers(0, 10_000)),
    st.builds(lambda v: f": {v}", _TEXT),
    st.just(""),
    st.just("data"),
)


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    lines = draw(st.lists(_LINE, max_size=30))
    eols = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(lines), max_size=len(lines)))
    bom = draw(st.booleans())
    text = "".join(line + eol for line, eol in zip(lines, eols, strict=True))
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=12)))
    return data, cuts


@settings(max_examples=300, deadline=None)
@given(streams())
def test_chunk_boundaries_do_not_matter(case: tuple[bytes, list[int]]) -> None:
    data, cuts = case
    whole = SseParser()
    expected = whole.feed(data)
    whole_unfinished = whole.close()
    split = SseParser()
    got: list[SseEvent] = []
    for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
        got += split.feed(data[start:end])
    assert got == expected
    assert split.close() == whole_unfinished
    assert (split.last_event_id, split.retry, split.comments) == (whole.last_event_id, whole.retry, whole.comments)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.lists(st.integers(0, 200), max_size=8))
def test_arbitrary_bytes_never_crash_and_split_the_same(data: bytes, cuts: list[int]) -> None:
    whole = SseParser().feed(data)
    split = SseParser()
    got: list[SseEvent] = []
    bounds = sorted(min(c, len(data)) for c in cuts)
    for start, end in zip([0, *bounds], [*bounds, len(data)], strict=True):
        got += split.feed(data[start:end])
    assert got == whole
