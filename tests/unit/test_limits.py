"""The limits object (sizes, overrides, breach messages), the bounded line framer and the session's handling of
an oversized frame: table-driven and property-based, no I/O."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sessionkit import ready_session

from inspector.cli.args import parse_args
from inspector.cli.errors import UsageError
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.events import RequestFailed
from inspector.protocol.framing import HEAD_BYTES, LineFramer, OversizedLine
from inspector.protocol.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from inspector.protocol.sizes import GiB, KiB, MiB, format_size, parse_size
from inspector.store.profiles import Profile
from inspector.store.profiles.json_values import ProfileFormatError


@pytest.mark.parametrize(
    ("text", "size"),
    [("42", 42), (42, 42), ("1KB", 1000), ("1kib", 1024), ("64MiB", 64 * MiB), ("1.5 KB", 1500), ("2GiB", 2 * GiB)],
)
def test_parse_size(text: str | int, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "x", "-1", "1 PB", "1..2", "MiB"])
def test_parse_size_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


@given(st.integers(min_value=0, max_value=1 << 40))
def test_format_size_round_trips_whole_units(size: int) -> None:
    shown = format_size(size)
    value, _, unit = shown.partition(" ")
    if unit == "B":
        assert int(value) == size < KiB
    else:
        factor = {"KiB": KiB, "MiB": MiB, "GiB": GiB}[unit]
        assert 1 <= float(value) and (unit == "GiB" or float(value) <= 1024)
        assert abs(float(value) * factor - size) <= factor * 0.005 + 1


def test_defaults_are_documented_and_well_above_the_promised_payloads() -> None:
    from inspector.protocol.limits import limit_docs

    assert DEFAULT_LIMITS.message_bytes >= 200 * MiB  # the window promises to show 50 MB results
    assert set(limit_docs()) == set(Limits.names())
    assert all(limit_docs().values())


def test_overrides_by_name_and_size_text() -> None:
    limits = DEFAULT_LIMITS.overridden({"message-bytes": "1MiB", "reconnects_per_minute": 3})
    assert limits.message_bytes == MiB and limits.reconnects_per_minute == 3
    assert limits.sse_line_bytes == DEFAULT_LIMITS.sse_line_bytes
    for bad in ({"nope": 1}, {"message_bytes": "lots"}, {"message_bytes": 0}, {"message_bytes": True}):
        with pytest.raises(ValueError):
            DEFAULT_LIMITS.overridden(bad)


def test_breach_message_names_the_limit_and_the_figure() -> None:
    breach = DEFAULT_LIMITS.exceeded("message_bytes", "a message", 300 * MiB)
    assert isinstance(breach, LimitExceeded)
    assert str(breach) == "a message of 300 MiB (limit message_bytes = 256 MiB)"
    unknown = DEFAULT_LIMITS.exceeded("message_bytes", "a message")
    assert str(unknown) == "a message of more than 256 MiB (limit message_bytes = 256 MiB)"
    ratio = DEFAULT_LIMITS.exceeded("decompression_ratio", "the body's decompression ratio", 1000)
    assert "1000" in str(ratio) and "decompression_ratio = 100" in str(ratio)


# ---------------------------------------------------------------- framer


def test_framer_drops_an_oversized_line_and_goes_on() -> None:
    framer = LineFramer(max_line=10)
    assert framer.feed(b"ok\n0123456789AB") == [b"ok", OversizedLine(b"0123456789AB", 12, 10, False)]
    assert framer.dropping and framer.pending == 0
    assert framer.feed(b"x" * 100_000) == []
    assert framer.pending == 0  # nothing of the dropped line is kept
    assert framer.feed(b"yy\nnext\n") == [b"next"]
    assert not framer.dropping


def test_framer_reports_a_whole_oversized_line_with_its_size() -> None:
    framer = LineFramer(max_line=4)
    assert framer.feed(b"abcdefgh\r\nfine\n") == [OversizedLine(b"abcdefgh", 8, 4, True), b"fine"]


def test_framer_keeps_only_the_head_of_a_huge_line() -> None:
    framer = LineFramer(max_line=HEAD_BYTES * 4)
    out = framer.feed(b"z" * (HEAD_BYTES * 8))
    assert len(out) == 1 and isinstance(out[0], OversizedLine) and len(out[0].head) == HEAD_BYTES


lines_st = st.lists(st.binary(min_size=1, max_size=40).filter(lambda b: b"\n" not in b and b.strip()), max_size=12)


@given(lines_st, st.integers(min_value=1, max_value=30), st.integers(min_value=1, max_value=17))
def test_framer_with_a_limit_is_chunking_invariant(lines: list[bytes], limit: int, chunk: int) -> None:
    """Short lines come out whole, each long one as exactly one OversizedLine, however the bytes are cut."""
    data = b"".join(line + b"\n" for line in lines)
    framer = LineFramer(max_line=limit)
    out: list[bytes | OversizedLine] = []
    for i in range(0, len(data), chunk):
        out += framer.feed(data[i : i + chunk])
    expected = [line.rstrip(b"\r") for line in lines]
    assert len(out) == len([e for e in expected if e.strip() or len(e) > limit])
    kept = iter(out)
    for line in expected:
        if len(line) > limit:
            got = next(kept)
            assert isinstance(got, OversizedLine) and line.startswith(got.head[: len(line)])
        elif line.strip():
            assert next(kept) == line
    assert framer.pending <= limit


# ---------------------------------------------------------------- session


def test_session_fails_the_answer_an_oversized_frame_was() -> None:
    session, _clock = ready_session(limits=DEFAULT_LIMITS.replace(message_bytes=64))
    rid = session.send_request("tools/list", {})
    session.pop_outgoing()
    big = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": [], "pad": "x" * 200}}).encode()
    received = session.receive_data(big[:100])
    assert len(received) == 1
    [wire] = [r.wire for r in received]
    assert [d.code for d in wire.diagnostics] == [DiagnosticCode.LIMIT_EXCEEDED]
    assert "limit message_bytes = 64 B" in wire.diagnostics[0].message
    [failed] = received[0].events
    assert isinstance(failed, RequestFailed) and failed.request_id == rid
    assert session.pop_outgoing() == []  # no parse-error reply for what was not read
    assert session.receive_data(big[100:] + b"\n") == []  # the rest is dropped
    assert rid not in session.pending


def test_cli_limit_flag() -> None:
    opts = parse_args(["--limit", "message_bytes=2MiB", "header_bytes=8KiB", "--method", "tools/list", "srv"])
    assert opts.limits.message_bytes == 2 * MiB and opts.limits.header_bytes == 8 * KiB
    assert opts.target == ["srv"]
    with pytest.raises(UsageError, match="unknown limit"):
        parse_args(["--limit", "bogus=1", "--method", "tools/list", "srv"])
    with pytest.raises(UsageError, match="--limit"):
        parse_args(["--limit", "message_bytes", "--method", "tools/list", "srv"])


def test_profile_limits_round_trip_and_validation() -> None:
    profile = Profile.from_json({"name": "p", "limits": {"message_bytes": "64MiB", "stderr-line-bytes": 100}})
    assert profile.limits == {"message_bytes": 64 * MiB, "stderr_line_bytes": 100}
    assert profile.effective_limits().message_bytes == 64 * MiB
    assert Profile.from_json(profile.to_json()).limits == profile.limits
    assert "limits" not in Profile(name="q").to_json()
    with pytest.raises(ProfileFormatError, match="limits"):
        Profile.from_json({"name": "p", "limits": {"message_bytes": "huge"}})


def test_readme_lists_every_limit_with_its_default() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for name in Limits.names():
        default = DEFAULT_LIMITS.show(name).split(" = ")[1]
        assert f"| `{name}` | {default} |" in readme, name


@pytest.mark.parametrize("value", ["caf\u00e9", "a\x01b", "tab\tok\x7f", "\u202eevil"])
def test_cli_header_values_that_cannot_be_sent_are_usage_errors(value: str) -> None:
    with pytest.raises(UsageError, match="--header X: the value holds U\\+"):
        parse_args(["--header", f"X: {value}", "--method", "tools/list", "https://example.com/mcp"])
