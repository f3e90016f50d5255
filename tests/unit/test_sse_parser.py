"""The sans-I/O SSE parser: fields, multi-line data, comments, BOM, line endings, ids and retry, any chunking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
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


# -- limits: the data of one event (message_bytes), every other line (sse_line_bytes) --------------------------

SMALL = DEFAULT_LIMITS.replace(message_bytes=20, sse_line_bytes=12)


def bounded(data: bytes, limits: Limits = SMALL, cuts: list[int] | None = None) -> tuple[list[SseEvent], SseParser]:
    parser = SseParser(limits=limits)
    events: list[SseEvent] = []
    bounds = sorted(min(c, len(data)) for c in cuts or [])
    for start, end in zip([0, *bounds], [*bounds, len(data)], strict=True):
        events += parser.feed(data[start:end])
    return events, parser


def test_data_up_to_the_limit_passes_and_one_byte_more_breaks_it() -> None:
    events, parser = bounded(b"data: " + b"x" * 20 + b"\n\n")
    assert [len(e.data) for e in events] == [20] and parser.breach is None
    events, parser = bounded(b"data: " + b"x" * 21 + b"\n\n")
    assert events == [] and parser.breach is not None
    assert str(parser.breach) == "an SSE event's data of more than 20 B (limit message_bytes = 20 B)"


def test_data_lines_add_up_with_their_newlines() -> None:
    _, parser = bounded(b"data: " + b"x" * 10 + b"\ndata: " + b"y" * 9 + b"\n\n")  # 10 + 1 + 9 = 20
    assert parser.breach is None
    _, parser = bounded(b"data: " + b"x" * 10 + b"\ndata: " + b"y" * 10 + b"\n\n")
    assert parser.breach is not None and parser.breach.name == "message_bytes"
    _, parser = bounded(b"data\n" * 30)  # empty data lines (no colon) count their newlines too
    assert parser.breach is not None and parser.breach.name == "message_bytes"


def test_data_is_counted_in_utf8_bytes() -> None:
    _, parser = bounded("data: {}\n\n".format("\u00e9" * 10).encode())  # 20 bytes
    assert parser.breach is None
    _, parser = bounded("data: {}\n\n".format("\u00e9" * 11).encode())
    assert parser.breach is not None


@pytest.mark.parametrize(
    ("line", "what"),
    [
        (b": " + b"c" * 20, "an SSE comment line"),
        (b"id: " + b"7" * 20, "an SSE 'id' line"),
        (b"event: " + b"e" * 20, "an SSE 'event' line"),
        (b"retry: " + b"1" * 20, "an SSE 'retry' line"),
        (b"x" * 20, "an SSE line"),
    ],
)
def test_any_other_line_is_bounded_by_sse_line_bytes(line: bytes, what: str) -> None:
    events, parser = bounded(b"data: a\n\n" + line + b"\ndata: b\n\n")
    assert [e.data for e in events] == ["a"]  # the event before the breach is delivered
    assert parser.breach is not None
    assert str(parser.breach) == f"{what} of more than 12 B (limit sse_line_bytes = 12 B)"
    assert parser.feed(b"data: c\n\n") == []  # nothing after a breach


def test_a_line_that_never_ends_is_caught_while_it_arrives() -> None:
    parser = SseParser(limits=DEFAULT_LIMITS.replace(message_bytes=1000, sse_line_bytes=100))
    parser.feed(b"data: ")
    fed = 0
    while parser.breach is None and fed < 10_000:
        parser.feed(b"x" * 64)
        fed += 64
    assert parser.breach is not None and parser.breach.name == "message_bytes" and fed <= 1064
    parser = SseParser(limits=DEFAULT_LIMITS.replace(sse_line_bytes=100))
    parser.feed(b":")
    for _ in range(10):
        parser.feed(b"k" * 64)
    assert parser.breach is not None and parser.breach.name == "sse_line_bytes"


def test_bound_data_switches_the_limit_of_the_data() -> None:
    parser = SseParser(limits=DEFAULT_LIMITS.replace(message_bytes=100, sse_line_bytes=16))
    parser.bound_data("sse_line_bytes", "the endpoint event")
    assert parser.feed(b"event: endpoint\ndata: /msg?s=123\n\n")[0].data == "/msg?s=123"
    parser.bound_data("message_bytes", "an SSE event's data")
    assert parser.feed(b"data: " + b"m" * 100 + b"\n\n")[0].data == "m" * 100
    parser.bound_data("sse_line_bytes", "the endpoint event")
    parser.feed(b"event: endpoint\ndata: /messages?s=123456\n\n")
    assert str(parser.breach) == "the endpoint event of more than 16 B (limit sse_line_bytes = 16 B)"


def test_the_prefix_of_a_data_line_is_not_judged_as_another_line() -> None:
    tiny = DEFAULT_LIMITS.replace(message_bytes=50, sse_line_bytes=2)
    events, parser = bounded(b"data: hello\n\n", tiny, cuts=[1, 2, 3, 4, 5, 6])
    assert [e.data for e in events] == ["hello"] and parser.breach is None


_BOUNDED = DEFAULT_LIMITS.replace(message_bytes=24, sse_line_bytes=10)


@settings(max_examples=300, deadline=None)
@given(streams())
def test_chunk_boundaries_do_not_matter_with_limits(case: tuple[bytes, list[int]]) -> None:
    data, cuts = case
    whole, whole_parser = bounded(data, _BOUNDED)
    got, split_parser = bounded(data, _BOUNDED, cuts)
    assert got == whole
    if whole_parser.breach is None:
        assert split_parser.breach is None
    else:
        assert split_parser.breach is not None
        assert str(split_parser.breach) == str(whole_parser.breach)
    assert split_parser.last_event_id == whole_parser.last_event_id
    for event in got:
        assert len(event.data.encode()) <= _BOUNDED.message_bytes


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=8))
def test_arbitrary_bytes_with_limits_split_the_same(data: bytes, cuts: list[int]) -> None:
    whole, whole_parser = bounded(data, _BOUNDED)
    got, split_parser = bounded(data, _BOUNDED, cuts)
    assert got == whole
    assert (split_parser.breach is None) == (whole_parser.breach is None)
    if whole_parser.breach is not None and split_parser.breach is not None:
        assert split_parser.breach.name == whole_parser.breach.name
