"""Newline framing (LineFramer) and frame decoding (decode_frame): table-driven, no I/O."""

from __future__ import annotations

import json
import time

import pytest

from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.framing import DecodedFrame, LineFramer, decode_frame


def feed_chunks(framer: LineFramer, data: bytes, size: int) -> list[bytes]:
    lines: list[bytes] = []
    for i in range(0, len(data), size):
        lines += framer.feed(data[i : i + size])
    return lines


# ---------------------------------------------------------------- LineFramer

STREAMS = [
    # (id, stream, expected lines, expected rest for flush())
    ("one line", b'{"a":1}\n', [b'{"a":1}'], None),
    ("two lines", b"a\nb\n", [b"a", b"b"], None),
    ("crlf", b"a\r\nb\r\n", [b"a", b"b"], None),
    ("mixed endings", b"a\r\nb\nc\r\n", [b"a", b"b", b"c"], None),
    ("blank lines skipped", b"\n\na\n\n\nb\n\n", [b"a", b"b"], None),
    ("blank crlf lines skipped", b"\r\n\r\na\r\n\r\n", [b"a"], None),
    ("whitespace-only lines skipped", b"  \n\t\n \r\na\n", [b"a"], None),
    ("inner cr kept", b"a\rb\n", [b"a\rb"], None),
    ("only last cr dropped", b"a\r\r\n", [b"a\r"], None),
    ("surrounding spaces kept", b" a \n", [b" a "], None),
    ("no newline yet", b'{"a":1}', [], b'{"a":1}'),
    ("tail after lines", b"a\nb\nrest", [b"a", b"b"], b"rest"),
    ("tail with cr", b"a\nrest\r", [b"a"], b"rest"),
    ("tail blank", b"a\n   ", [b"a"], None),
    ("tail only cr", b"a\n\r", [b"a"], None),
    ("empty stream", b"", [], None),
    ("nul and high bytes pass through", b"\x00\xff\xfe\n", [b"\x00\xff\xfe"], None),
]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 64, 1 << 16])
@pytest.mark.parametrize(("stream", "expected", "rest"), [s[1:] for s in STREAMS], ids=[s[0] for s in STREAMS])
def test_lines_are_the_same_whatever_the_read_size(stream: bytes, expected: list[bytes], rest, chunk: int) -> None:
    framer = LineFramer()
    assert feed_chunks(framer, stream, chunk) == expected
    assert framer.flush() == rest
    assert framer.pending == 0
    assert framer.flush() is None


def test_partial_line_across_many_reads_completes_once() -> None:
    framer = LineFramer()
    msg = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"x": "y" * 1000}}).encode()
    for i, byte in enumerate(msg):
        assert framer.feed(bytes([byte])) == []
        assert framer.pending == i + 1
    assert framer.feed(b"\r") == []
    assert framer.feed(b"\n") == [msg]
    assert framer.pending == 0


def test_cr_and_lf_in_separate_reads() -> None:
    framer = LineFramer()
    assert framer.feed(b"abc\r") == []
    assert framer.feed(b"\ndef\r") == [b"abc"]
    assert framer.feed(b"\n") == [b"def"]


def test_many_lines_in_one_read_keep_their_order() -> None:
    framer = LineFramer()
    lines = [json.dumps({"jsonrpc": "2.0", "method": "m", "params": {"i": i}}).encode() for i in range(20_000)]
    data = b"\n".join(lines) + b"\n"
    assert framer.feed(data) == lines
    assert framer.pending == 0


def test_lines_and_a_partial_in_one_read() -> None:
    framer = LineFramer()
    assert framer.feed(b"a\nb\nc") == [b"a", b"b"]
    assert framer.pending == 1
    assert framer.feed(b"d\ne") == [b"cd"]
    assert framer.flush() == b"e"


def test_empty_feed_is_a_no_op() -> None:
    framer = LineFramer()
    framer.feed(b"abc")
    assert framer.feed(b"") == []
    assert framer.pending == 3


def test_flush_resets_so_the_framer_can_be_reused() -> None:
    framer = LineFramer()
    framer.feed(b"partial")
    assert framer.flush() == b"partial"
    assert framer.feed(b"next\n") == [b"next"]


def test_fifty_megabyte_line_in_64k_chunks_is_found_once_and_fast() -> None:
    size = 50 * 1024 * 1024
    payload = b'{"jsonrpc":"2.0","id":1,"result":{"text":"' + b"x" * size + b'"}}'
    stream = payload + b"\n" + b'{"after":1}\n'
    framer = LineFramer()
    found: list[bytes] = []
    chunk = 64 * 1024
    start = time.perf_counter()
    for i in range(0, len(stream), chunk):
        found += framer.feed(stream[i : i + chunk])
    elapsed = time.perf_counter() - start
    assert len(found) == 2
    assert found[0] == payload  # whole, byte for byte
    assert found[1] == b'{"after":1}'
    assert framer.pending == 0
    # a quadratic rescan of the buffer would take minutes here (800 reads x up to 50 MB each)
    assert elapsed < 5.0, f"framing 50 MB took {elapsed:.2f} s"


def test_many_small_reads_of_a_long_line_are_linear() -> None:
    """4 MB fed one 256-byte read at a time (16,384 reads): a rescan per read would be ~34 GB of work."""
    framer = LineFramer()
    data = b"y" * (4 * 1024 * 1024)
    start = time.perf_counter()
    for i in range(0, len(data), 256):
        assert framer.feed(data[i : i + 256]) == []
    assert framer.feed(b"\n") == [data]
    assert time.perf_counter() - start < 5.0


# ---------------------------------------------------------------- decode_frame

VALID = [
    ("object", b'{"jsonrpc":"2.0","id":1,"result":{}}', {"jsonrpc": "2.0", "id": 1, "result": {}}),
    ("array", b"[1,2]", [1, 2]),
    ("scalar", b"42", 42),
    ("null", b"null", None),
    ("string", b'"hi"', "hi"),
    ("utf-8 text", '{"t":"héllo ✓ 𝄞"}'.encode(), {"t": "héllo ✓ 𝄞"}),
    ("bom is tolerated", b'\xef\xbb\xbf{"a":1}', {"a": 1}),
    ("surrounding whitespace", b'  {"a":1}\t ', {"a": 1}),
    ("escaped surrogate pair", b'"\\ud834\\udd1e"', "𝄞"),
    ("moderately deep", b"[" * 500 + b"]" * 500, json.loads("[" * 500 + "]" * 500)),
]


@pytest.mark.parametrize(("raw", "value"), [v[1:] for v in VALID], ids=[v[0] for v in VALID])
def test_decode_valid(raw: bytes, value: object) -> None:
    decoded = decode_frame(raw)
    assert decoded == DecodedFrame(raw, value=value, ok=True)
    assert decoded.diagnostic is None


DEEP = 200_000
INVALID = [
    # (id, raw, code, text in message)
    ("banner", b"Server starting on stdio...", DiagnosticCode.INVALID_JSON, "not JSON"),
    ("truncated", b'{"jsonrpc":"2.0","id":1,"res', DiagnosticCode.INVALID_JSON, "line 1"),
    ("two values", b'{"a":1}{"b":2}', DiagnosticCode.INVALID_JSON, "Extra data"),
    ("single quotes", b"{'a':1}", DiagnosticCode.INVALID_JSON, "not JSON"),
    ("trailing comma", b'{"a":1,}', DiagnosticCode.INVALID_JSON, "not JSON"),
    ("control char in string", b'{"a":"\x01"}', DiagnosticCode.INVALID_JSON, "not JSON"),
    ("bare bom", b"\xef\xbb\xbf", DiagnosticCode.INVALID_JSON, "not JSON"),
    ("huge integer", b"1" * 5000, DiagnosticCode.INVALID_JSON, "not JSON"),
    ("latin-1", b'{"t":"caf\xe9"}', DiagnosticCode.INVALID_UTF8, "0xe9 at offset 9"),
    ("lone continuation byte", b"\x80", DiagnosticCode.INVALID_UTF8, "0x80 at offset 0"),
    ("overlong encoding", b'"\xc0\xaf"', DiagnosticCode.INVALID_UTF8, "0xc0 at offset 1"),
    ("encoded surrogate", b'"\xed\xa0\x80"', DiagnosticCode.INVALID_UTF8, "0xed"),
    ("truncated multibyte", b'{"t":"\xe2\x9c"}', DiagnosticCode.INVALID_UTF8, "0xe2"),
    ("deep arrays", b"[" * DEEP + b"]" * DEEP, DiagnosticCode.JSON_TOO_DEEP, "too deeply"),
    ("deep arrays unterminated", b"[" * DEEP, DiagnosticCode.JSON_TOO_DEEP, "too deeply"),
    ("deep objects", b'{"a":' * DEEP + b"1" + b"}" * DEEP, DiagnosticCode.JSON_TOO_DEEP, "too deeply"),
    (
        "deep inside a response",
        b'{"jsonrpc":"2.0","id":3,"result":' + b"[" * DEEP + b"]" * DEEP + b"}",
        DiagnosticCode.JSON_TOO_DEEP,
        "too deeply",
    ),
]


@pytest.mark.parametrize(("raw", "code", "text"), [v[1:] for v in INVALID], ids=[v[0] for v in INVALID])
def test_decode_invalid_is_a_diagnostic_with_the_raw_bytes(raw: bytes, code: DiagnosticCode, text: str) -> None:
    decoded = decode_frame(raw)  # never raises
    assert not decoded.ok
    assert decoded.value is None
    assert decoded.raw is raw
    diag = decoded.diagnostic
    assert diag is not None
    assert diag.code is code
    assert diag.severity is Severity.VIOLATION
    assert diag.raw == raw
    assert text in diag.message
    shown = diag.to_json()
    assert shown["code"] == code.value
    assert len(str(shown["raw"])) <= 4 * 200  # the export is capped, whatever the frame size


def test_decode_raw_export_is_readable_for_invalid_utf8() -> None:
    diag = decode_frame(b"caf\xe9 au lait").diagnostic
    assert diag is not None
    assert diag.to_json()["raw"] == "caf\\xe9 au lait"


@pytest.mark.parametrize("token", [b"NaN", b"Infinity", b"-Infinity"])
def test_decode_rejects_non_json_number_constants(token: bytes) -> None:
    decoded = decode_frame(b'{"jsonrpc":"2.0","id":1,"result":{"x":' + token + b"}}")
    assert not decoded.ok
    assert decoded.diagnostic is not None
    assert decoded.diagnostic.code is DiagnosticCode.INVALID_JSON


def test_framer_and_decoder_together_on_a_noisy_stream() -> None:
    stream = (
        b"Starting server...\r\n"
        b'{"jsonrpc":"2.0","id":1,"result":{}}\r\n'
        b"\r\n"
        b"\xff\xfe garbage\n"
        b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'
    )
    framer = LineFramer()
    frames = feed_chunks(framer, stream, 9)
    rest = framer.flush()
    assert rest is not None
    decoded = [decode_frame(f) for f in [*frames, rest]]
    assert [d.ok for d in decoded] == [False, True, False, True]
    assert [d.diagnostic.code for d in decoded if d.diagnostic] == [
        DiagnosticCode.INVALID_JSON,
        DiagnosticCode.INVALID_UTF8,
    ]
