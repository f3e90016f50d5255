"""inspector.content: viewer choice by mimeType, text previews, JSON, hex dumps, diffs, media facts, highlighting."""

from __future__ import annotations

import subprocess
import sys

import pytest

from inspector.content.diff import DIFF_SIZE_LIMIT, DiffLineKind, diff_texts
from inspector.content.hexdump import hex_dump, hex_line
from inspector.content.highlight import HIGHLIGHT_LIMIT, HIGHLIGHT_LINE_LIMIT, highlight_html, language_for
from inspector.content.media import describe_audio, mime_mismatch, sniff_mime_type, suffix_for
from inspector.content.mime import ViewerKind, choose_viewer, essence, guess_mime_type
from inspector.content.text import (
    break_long_lines,
    format_duration,
    parse_json,
    pretty_json,
    pretty_json_preview,
    preview_text,
    shorten,
)
from inspector.demo.media import make_png, make_wav


@pytest.mark.parametrize(
    ("mime", "uri", "is_text", "viewer"),
    [
        ("text/plain", None, True, ViewerKind.TEXT),
        ("text/plain; charset=utf-8", None, True, ViewerKind.TEXT),
        ("application/json", None, True, ViewerKind.JSON),
        ("application/vnd.api+json", None, True, ViewerKind.JSON),
        ("text/markdown", None, True, ViewerKind.MARKDOWN),
        ("image/png", None, False, ViewerKind.IMAGE),
        ("image/svg+xml", None, True, ViewerKind.IMAGE),
        ("image/png", None, True, ViewerKind.TEXT),
        ("audio/wav", None, False, ViewerKind.AUDIO),
        ("application/octet-stream", None, False, ViewerKind.BINARY),
        ("application/pdf", None, False, ViewerKind.BINARY),
        ("application/pdf", None, True, ViewerKind.TEXT),
        ("text/x-python", None, False, ViewerKind.TEXT),
        ("application/xml", None, True, ViewerKind.TEXT),
        (None, "demo://docs/readme.md", True, ViewerKind.MARKDOWN),
        (None, "file:///tmp/data.json", True, ViewerKind.JSON),
        (None, "file:///tmp/photo.png", False, ViewerKind.IMAGE),
        (None, "demo://clock", True, ViewerKind.TEXT),
        (None, "demo://blob", False, ViewerKind.BINARY),
        ("", None, False, ViewerKind.BINARY),
    ],
)
def test_choose_viewer(mime: str | None, uri: str | None, is_text: bool, viewer: ViewerKind) -> None:
    assert choose_viewer(mime, uri, is_text=is_text) is viewer


def test_essence_and_guess() -> None:
    assert essence(" Text/HTML ; charset=UTF-8") == "text/html"
    assert essence(None) == ""
    assert guess_mime_type("https://x/y/readme.MD?x=1") == "text/markdown"
    assert guess_mime_type("demo://no-extension") == ""


def test_preview_text_cuts_at_a_line_break_near_the_limit() -> None:
    text = "\n".join(f"line {i:05d}" for i in range(1000))
    preview = preview_text(text, 1000)
    assert preview.truncated and preview.total == len(text)
    assert len(preview.text) <= 1000 and text.startswith(preview.text) and not preview.text.endswith("\n")
    assert preview_text("short", 1000).truncated is False


def test_preview_text_without_line_breaks_cuts_at_the_limit() -> None:
    preview = preview_text("x" * 5000, 1000)
    assert len(preview.text) == 1000 and preview.truncated


def test_parse_json() -> None:
    assert parse_json('{"a": 1}').value == {"a": 1}
    assert not parse_json("42", containers_only=True).ok
    assert parse_json("42").ok
    bad = parse_json("{nope")
    assert not bad.ok and "line 1" in bad.error
    assert pretty_json({"é": [1]}) == '{\n  "é": [\n    1\n  ]\n}'


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.0123, "12 ms"), (3.25, "3.2 s"), (125, "2 min 05 s"), (3720, "1 h 02 min"), (-1, "0 ms")]
)
def test_format_duration(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


def test_shorten() -> None:
    assert shorten("a\nb", 10) == "a b"
    assert shorten("x" * 20, 10) == "x" * 9 + "…"


def test_hex_dump_layout() -> None:
    data = b"Hello, world!\n" + bytes(range(0x7E, 0x82))
    dump = hex_dump(data)
    lines = dump.splitlines()
    assert lines[0] == "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 7e 7f  |Hello, world!.~.|"
    assert lines[1].startswith("00000010  80 81") and lines[1].endswith("|..|")
    assert len(lines[1].split("|")[0]) == len(lines[0].split("|")[0])  # columns line up on a short last line


def test_hex_dump_window_and_offsets() -> None:
    data = bytes(range(256)) * 4
    dump = hex_dump(data, start=32, limit=32)
    assert [line[:8] for line in dump.splitlines()] == ["00000020", "00000030"]
    assert hex_dump(b"") == ""
    assert hex_line(b"\x00", 0xABC).startswith("00000abc  00")
    with pytest.raises(ValueError, match="width"):
        hex_dump(b"x", width=1)


def test_diff_texts_classifies_lines() -> None:
    old = "a\nb\nc\nd\n"
    new = "a\nB\nc\nd\ne\n"
    diff = diff_texts(old, new, old_label="v1", new_label="v2")
    kinds = [line.kind for line in diff.lines]
    assert kinds[:3] == [DiffLineKind.HEADER, DiffLineKind.HEADER, DiffLineKind.HUNK]
    assert (diff.added, diff.removed) == (2, 1)
    assert diff.lines[0].text == "--- v1" and diff.lines[1].text == "+++ v2"
    assert [line.text for line in diff.lines if line.kind is DiffLineKind.REMOVED] == ["-b"]
    assert [line.text for line in diff.lines if line.kind is DiffLineKind.ADDED] == ["+B", "+e"]
    assert not diff.identical


def test_diff_texts_identical_and_huge() -> None:
    assert diff_texts("same", "same").identical
    huge = diff_texts("x" * (DIFF_SIZE_LIMIT + 1), "y")
    assert not huge.lines and "too large" in huge.note and not huge.identical
    only_newline = diff_texts("a", "a\n")
    assert only_newline.note and not only_newline.lines


def test_lines_starting_with_dashes_are_not_headers() -> None:
    diff = diff_texts("x\n--- not a header\n", "x\n")
    assert [line.kind for line in diff.lines][-1] is DiffLineKind.REMOVED


def test_media_facts() -> None:
    png = make_png(8, 8)
    wav = make_wav(440, 250)
    assert sniff_mime_type(png) == "image/png"
    assert sniff_mime_type(wav) == "audio/wav"
    assert sniff_mime_type(b"<?xml version='1.0'?><svg></svg>") == "image/svg+xml"
    assert sniff_mime_type(b"plain") == ""
    assert mime_mismatch("image/jpeg", png) == "declared image/jpeg, but the bytes look like image/png"
    assert mime_mismatch("audio/x-wav", wav) == ""
    assert mime_mismatch(None, png) == ""
    assert describe_audio(wav) == "mono · 8000 Hz · 16-bit · 0.25 s"
    assert describe_audio(b"not audio") == ""
    assert suffix_for("audio/wav") == ".wav"
    assert suffix_for("image/png") == ".png"
    assert suffix_for(None, "demo://files/archive.tar") == ".tar"
    assert suffix_for("application/x-unknown-thing") == ".bin"


def test_highlighting() -> None:
    assert language_for("text/x-python") == "python"
    assert language_for("application/json") == "json"
    assert language_for(None, "demo://snippets/review.rs") == "rust"
    assert language_for("text/plain") == ""
    html = highlight_html('{"a": 1}', "json")
    assert html is not None and "<pre" in html and "style=" in html
    assert highlight_html("x", "") is None
    assert highlight_html("x", "no-such-language") is None
    assert highlight_html("x" * (HIGHLIGHT_LIMIT + 1), "json") is None


def test_preview_text_also_limits_lines() -> None:
    text = "\n".join("x" for _ in range(50))
    preview = preview_text(text, 1000, max_lines=10)
    assert preview.truncated and preview.text.count("\n") == 9
    assert preview_text(text, 1000, max_lines=50).truncated is False


def test_pretty_json_preview_stops_early() -> None:
    value = [{"index": i} for i in range(100_000)]
    head, complete = pretty_json_preview(value, limit=1000)
    assert not complete and 1000 < len(head) < 1100
    assert pretty_json(value).startswith(head)
    head, complete = pretty_json_preview(value, limit=10**9, max_lines=100)
    assert not complete and 100 < head.count("\n") < 110
    assert pretty_json_preview({"a": 1}) == ('{\n  "a": 1\n}', True)


def test_break_long_lines_is_for_display_only() -> None:
    text = "short\n" + "y" * 25 + "\nend"
    shown, broken = break_long_lines(text, limit=10)
    assert broken and shown.split("\n") == ["short", "y" * 10, "y" * 10, "y" * 5, "end"]
    assert break_long_lines("fine\nlines", limit=10) == ("fine\nlines", False)


def test_highlighting_skips_many_lines() -> None:
    many = "\n".join("1" for _ in range(HIGHLIGHT_LINE_LIMIT + 5))
    assert highlight_html(many, "json") is None


def test_content_package_never_imports_qt() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import inspector.content as pkg\n"
        "for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'qasync'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
