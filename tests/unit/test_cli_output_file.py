"""``--output PATH --output-format json|raw``: what goes into the file, and the two refusals."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output_file import render_for_file, render_raw, write_result_file

PNG = b"\x89PNG\r\n\x1a\n\x00binary"
B64 = base64.b64encode(PNG).decode("ascii")


def refusal(result: Any, method: str = "tools/call") -> CliFailure:
    with pytest.raises(CliFailure) as caught:
        render_raw(result, method)
    return caught.value


def test_raw_joins_every_text_block_and_embedded_text() -> None:
    result = {
        "content": [
            {"type": "text", "text": "one"},
            {"type": "image", "data": B64, "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "x:1", "text": "two"}},
            {"type": "resource_link", "uri": "x:2", "name": "n"},
            {"type": "text", "text": "thrée"},
        ]
    }
    assert render_raw(result, "tools/call") == "one\ntwo\nthrée".encode()
    contents = {"contents": [{"uri": "a", "text": "x"}, {"uri": "b", "text": "y"}]}
    assert render_raw(contents, "resources/read") == b"x\ny"
    # the other method's list does not count
    assert refusal(contents, "tools/call").envelope_code == "output_not_raw"


def test_raw_is_the_bytes_of_the_one_binary_block() -> None:
    assert render_raw({"content": [{"type": "audio", "data": B64, "mimeType": "audio/wav"}]}, "tools/call") == PNG
    assert render_raw({"contents": [{"uri": "a", "blob": B64}]}, "resources/read") == PNG
    embedded = {"content": [{"type": "resource", "resource": {"uri": "a", "blob": B64}}]}
    assert render_raw(embedded, "tools/call") == PNG
    # as a browser's atob reads base64: whitespace ignored, padding optional
    loose = B64.rstrip("=")[:8] + "\n " + B64.rstrip("=")[8:]
    assert render_raw({"contents": [{"uri": "a", "blob": loose}]}, "resources/read") == PNG


@pytest.mark.parametrize(
    ("result", "says"),
    [
        ({"content": []}, "no text or binary content"),
        ({"content": [{"type": "resource_link", "uri": "x", "name": "n"}]}, "no text or binary content"),
        ({"structuredContent": {"a": 1}}, "no text or binary content"),
        ({"content": [{"type": "image", "data": B64}, {"type": "image", "data": B64}]}, "2 binary blocks"),
        ({"content": [{"type": "image", "data": "not base64!"}]}, "not valid base64"),
        ("not an object", "no text or binary content"),
    ],
)
def test_raw_refuses_a_result_without_one_raw_form(result: Any, says: str) -> None:
    failure = refusal(result)
    assert says in failure.message and "--output-format json" in failure.message
    assert (failure.exit_code, failure.to_json()["code"]) == (ExitCode.ERROR, "output_not_raw")


def test_json_is_the_whole_result_pretty_with_a_final_newline() -> None:
    result = {"content": [{"type": "text", "text": "é"}], "isError": False}
    data = render_for_file(result, "tools/call", "json")
    assert data == (json.dumps(result, indent=2, ensure_ascii=False) + "\n").encode()
    assert b'\n  "content": [\n    {\n' in data
    # a lone surrogate (valid JSON, not UTF-8) is written as its escape; the file still parses
    odd = render_for_file({"text": "a\ud800b"}, "tools/call", "json")
    assert json.loads(odd) == {"text": "a\ud800b"}
    assert render_raw({"content": [{"type": "text", "text": "a\ud800b"}]}, "tools/call") == "a\ufffdb".encode()


def test_write_result_file_replaces_the_file_and_says_what_it_wrote(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old content that is longer")
    written = write_result_file({"content": [{"type": "text", "text": "hi"}]}, "tools/call", str(target), "raw")
    assert written == {"path": str(target), "format": "raw", "bytes": 2}
    assert target.read_bytes() == b"hi"


def test_a_file_that_cannot_be_written_is_output_write_failed(tmp_path: Path) -> None:
    for path in (tmp_path / "missing" / "x.json", tmp_path):
        with pytest.raises(CliFailure) as caught:
            write_result_file({"ok": True}, "ping", str(path))
        failure = caught.value
        assert (failure.exit_code, failure.to_json()["code"]) == (ExitCode.ERROR, "output_write_failed")
        assert str(path) in failure.message
