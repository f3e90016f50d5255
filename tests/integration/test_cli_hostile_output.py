"""What a hostile server says never reaches the terminal raw, and never stops the CLI from printing.

The server (tests/servers/misbehaving.py) puts terminal attacks (ESC sequences, C1 controls, DEL, bidi
overrides) in every string it sends, or lone surrogates (valid JSON escapes, not encodable as UTF-8). Every text
path of the CLI is run against it (results, listings, error answers, the stderr tail of a crash, the probe
report, --load) and no raw control character may reach stdout or stderr: in the readable ``--format human``, and in
the default format and ``--format json``, which keep the strings exactly (as JSON escapes).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from servers.misbehaving import EVIL, SURROGATE

SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")
LIMIT = 90.0
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What must never be printed: the server's controls as they are (``\\n`` and ``\\t`` are ours)."""

CALL_T = ("--method", "tools/call", "--tool-name", "t", "--tool-arg", "text=hi")
TEXT_RUNS: dict[str, tuple[tuple[str, ...], int]] = {
    "tools/list": (("--method", "tools/list"), 0),
    "tools/call": (CALL_T, 0),
    "error answer": (("--method", "tools/call", "--tool-name", "nope"), 5),  # tool_not_found, the answer its cause
    "error answer --strict": (("--method", "tools/call", "--tool-name", "nope", "--strict"), 5),
    "crash stderr": (("--method", "tools/call", "--tool-name", "t", "--tool-arg", "text=crash"), 1),
    "resources/list": (("--method", "resources/list"), 0),
    "prompts/list": (("--method", "prompts/list"), 0),
    "probe": (("--probe",), 0),
    "load": (("--load", "--tool-name", "t", "--tool-arg", "text=crash", "--load-requests", "3"), 1),
}


def start(mode: str, *args: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "inspector", "--cli", "--timeout", "10", *args, "--"]
    return subprocess.Popen(
        [*argv, sys.executable, SERVER, "--mode", mode, "--max-lifetime", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )


def finish(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr (strict UTF-8: what the CLI prints always is)."""
    try:
        out, err = proc.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"no exit within {LIMIT} s") from None
    text_out, text_err = out.decode("utf-8"), err.decode("utf-8")
    assert "Traceback" not in text_err, text_err
    assert "internal error" not in text_err, text_err
    return proc.returncode, text_out, text_err


@pytest.mark.parametrize("fmt", ["human", "text"])
def test_no_raw_control_character_reaches_the_terminal(fmt: str) -> None:
    procs = {name: start("escapes", "--format", fmt, *args) for name, (args, _) in TEXT_RUNS.items()}
    for name, proc in procs.items():
        rc, out, err = finish(proc)
        assert rc == TEXT_RUNS[name][1], (name, out, err)
        for stream in (out, err):
            found = RAW.search(stream)
            assert found is None, (name, repr(found.group()), stream[max(0, found.start() - 80) : found.end() + 80])
        # JSON (the probe's report; everything in the default format) escapes as \u001b, the readable text as \x1b
        json_escaped = name == "probe" or (fmt == "text" and name != "load")
        shown = "\\u001b]0;pwned\\u0007" if json_escaped else "\\x1b]0;pwned\\x07"
        assert shown in out + err, (name, out, err)
        if name == "error answer":
            assert len(err.strip().splitlines()) == 1, (name, err)  # still one line
        if name == "crash stderr":  # the server's own stderr (passed through, escaped), then our one line
            assert len(err.strip().splitlines()) == 2, (name, err)
            assert err.startswith("fatal: \\x1b]0;pwned\\x07"), err
        if fmt == "text" and name in ("error answer", "crash stderr", "load"):
            json.loads(err.strip().splitlines()[-1])  # the envelope, whole
        if name == "probe":
            report = json.loads(out)  # the report is printed, and parses to what the server sent
            assert report["server"]["name"] == "misbehaving" + EVIL
            assert any(step.get("name") == "evil" + EVIL for step in report["steps"])


def test_text_escapes_keep_the_layout() -> None:
    rc, out, err = finish(start("escapes", "--method", "tools/list", "--format", "human"))
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "2 tools"
    assert lines[3].startswith(
        "- evil\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\x1b[8mhidden\\x1b[0m\\x9b31m\\x7f\\u202egnp.exe"
    )
    assert len(lines) == 5  # nothing the server sent added or removed a line


def test_json_format_keeps_the_strings_exactly_and_escaped() -> None:
    ok = start("escapes", *CALL_T, "--format", "json")
    failed = start("escapes", "--method", "tools/call", "--tool-name", "nope", "--format", "json")
    rc, out, err = finish(ok)
    assert rc == 0 and err == "", err
    assert RAW.search(out) is None and "\u009b" not in out
    result = json.loads(out)["result"]
    assert result["content"][0]["text"] == f"echo: hi {EVIL}"
    assert result["structuredContent"] == {"evil": EVIL}
    rc, out, err = finish(failed)
    assert rc == 5 and out == ""
    assert RAW.search(err) is None
    error = json.loads(err)["error"]
    assert error["code"] == "tool_not_found"
    assert error["cause"] == f"Unknown tool 'nope'{EVIL}"
    assert error["failure"]["data"] == EVIL


@pytest.mark.parametrize("fmt", ["human", "json"])
def test_lone_surrogates_are_printed_escaped(fmt: str) -> None:
    call = start("lone-surrogate", *CALL_T, "--format", fmt)
    listing = start("lone-surrogate", "--method", "tools/list", "--format", fmt)
    error = start("lone-surrogate", "--method", "tools/call", "--tool-name", "nope", "--format", fmt)
    probe = start("lone-surrogate", "--probe", "--format", fmt)

    rc, out, err = finish(call)
    assert rc == 0, err
    if fmt == "json":
        result = json.loads(out)["result"]
        assert result["content"][0]["text"] == f"echo: hi {SURROGATE}"
        assert result["structuredContent"] == {"bad": SURROGATE}
    else:
        assert out.startswith("echo: hi \\ud800\n")
        assert '"bad": "\\ud800"' in out

    rc, out, err = finish(listing)
    assert rc == 0, err
    if fmt == "json":
        assert json.loads(out)["result"]["tools"][0]["description"] == f"odd {SURROGATE} \udc80"
    else:
        assert "- t: odd \\ud800 \\udc80" in out

    rc, out, err = finish(error)
    assert rc == 5 and out == ""
    if fmt == "json":
        assert json.loads(err)["error"]["cause"] == f"Unknown tool 'nope'{SURROGATE}"
    else:
        assert err == ("error: tool 'nope' is not in the server's tools/list (the call: Unknown tool 'nope'\\ud800)\n")

    rc, out, err = finish(probe)
    assert rc == 0, err
    report = json.loads(out)
    steps = {step["method"]: step for step in report["steps"]}
    assert steps["tools/call"]["outcome"] == "ok"
    assert report["exitCode"] == 0
