"""``mcp-inspect --cli`` against a server that misbehaves on purpose.

Every mode ends within its timeout, with the documented exit code, one clear line (``--format human``) or one
``{"error": ...}`` envelope (the default and ``--format json``) on stderr after whatever the server itself wrote
there, and never a traceback; ``--strict`` turns protocol violations into exit 6.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")
CALL = ("--method", "tools/call", "--tool-name", "t", "--tool-arg", "text=hi")
LIST = ("--method", "tools/list")

# mode -> (method args, exit code, exit code with --strict, fragment of stdout or of the stderr line, human format)
CASES: dict[str, tuple[tuple[str, ...], int, int, str]] = {
    "banner": (CALL, 0, 6, "echo: hi"),
    "invalid-utf8": (CALL, 0, 6, "echo: hi"),
    "result-and-error": (CALL, 0, 6, "echo: hi"),
    "unknown-id": (CALL, 0, 6, "echo: hi"),
    "duplicate-id": (CALL, 0, 6, "echo: hi"),
    "id-type": (CALL, 0, 6, "echo: hi"),
    "invalid-tools-list": (LIST, 0, 6, "4 tools"),
    # the CLI declares sampling (answered by the headless handlers), so this request is legitimate here
    "undeclared-sampling": (CALL, 0, 0, "automatic reply from mcp-inspect"),
    "unknown-method-request": (CALL, 0, 0, "-32601"),
    "flood": ((*CALL, "--timeout", "100"), 0, 0, "echo: hi"),
    "deep-json": (CALL, 1, 6, "nested too deeply"),
    "crash": (CALL, 1, 1, "error: server process exited (exit status 3); last stderr: fatal: something broke"),
    "silent": (CALL, 1, 1, "timed out after 2 s"),
    "close-stdout": (CALL, 1, 1, "closed stdout"),
    "batch": (CALL, 0, 6, "echo: hi"),
    "bad-jsonrpc": (CALL, 0, 6, "echo: hi"),
    "notify-before-init": (CALL, 0, 0, "echo: hi"),
    "slow-init": (CALL, 1, 1, "initialize timed out after 2 s"),
    "bad-version": (CALL, 1, 6, "1999-01-01"),
}
# violations only the schema check (mcp-types) finds: it runs under --strict, not in a plain one-shot run
SCHEMA_ONLY = {"invalid-tools-list"}
LIMIT = 120.0  # seconds a run may take, flood and all
SERVER_STDERR = {"fatal: something broke"}
"""What the misbehaving server itself writes on stderr (crash mode), passed through as the official CLI does."""


def start(mode: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "inspector",
            "--cli",
            "--timeout",
            "2",
            *args,
            "--",
            sys.executable,
            SERVER,
            "--mode",
            mode,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"no exit within {LIMIT} s") from None
    assert "Traceback" not in err, err
    return proc.returncode, out, err


@pytest.mark.parametrize("mode", list(CASES))
def test_mode(mode: str) -> None:
    method, code, strict_code, fragment = CASES[mode]
    began = time.monotonic()
    plain = start(mode, *method, "--format", "human")
    default = start(mode, *method)
    strict = start(mode, *method, "--strict")
    as_json = start(mode, *method, "--strict", "--format", "json")
    rc, out, err = finish(plain)
    drc, dout, derr = finish(default)
    src, _, serr = finish(strict)
    jrc, jout, jerr = finish(as_json)
    assert time.monotonic() - began < LIMIT

    assert rc == code, err
    assert drc == code, derr
    assert src == strict_code, serr
    assert jrc == strict_code, jerr
    assert fragment in out + err

    ours = [line for line in err.splitlines() if line not in SERVER_STDERR]  # the server's own is passed through
    if code == 0:
        if strict_code == 6 and mode not in SCHEMA_ONLY:
            assert len(ours) == 1 and "violated the protocol" in ours[0] and "--strict" in ours[0], err
        else:
            assert ours == [], err
        json.loads(dout)  # the result, as pretty JSON
    else:  # one clear line (after the count line of the violations seen on the way, if any)
        counted = [line for line in ours[:-1] if "violated the protocol" in line]
        assert ours[:-1] == counted and len(counted) == (1 if strict_code == 6 else 0), err
        assert ours[-1].startswith("error: ")
        assert dout == "" and json.loads(derr.splitlines()[-1])["error"]["code"] == "error"  # the envelope

    if strict_code == 6:
        assert json.loads(serr.splitlines()[-1])["error"]["code"] == "protocol_violation"
        error = json.loads(jerr.splitlines()[-1])["error"]
        assert (error["code"], error["kind"]) == ("protocol_violation", "violation")
        if code != 0:
            assert "cause" in error
    elif strict_code != 0:
        error = json.loads(jerr.splitlines()[-1])["error"]
        assert (error["code"], error["kind"]) == ("error", "connection")
    if code == 0:
        # json stdout is exactly one object with the result, violations or not
        assert list(json.loads(jout)) == ["result"]


def test_big_result() -> None:
    proc = start("big-result", *CALL, "--format", "json")
    rc, out, err = finish(proc)
    assert rc == 0, err
    result = json.loads(out)["result"]
    assert len(result["content"][0]["text"]) >= 50 * 1024 * 1024
    assert err == ""


def test_crash_json_error() -> None:
    rc, out, err = finish(start("crash", *CALL, "--format", "json"))
    assert rc == 1 and out == ""
    server_line, envelope = err.splitlines()
    assert server_line == "fatal: something broke"
    assert json.loads(envelope) == {
        "error": {
            "code": "error",
            "message": "server process exited (exit status 3); last stderr: fatal: something broke",
            "kind": "connection",
        }
    }
    rc, out, err = finish(start("crash", *CALL, "--format", "json", "--quiet"))
    assert rc == 1 and out == ""
    assert err.splitlines() == [envelope]  # --quiet: not even the server's own stderr


def test_load_against_a_crashing_server_stops_with_a_summary() -> None:
    rc, out, err = finish(start("crash", "--load", "--tool-name", "t", "--load-requests", "50"))
    assert rc == 1
    summary = json.loads(out)
    assert summary["errors"] >= 1 and summary["ok"] == 0
    assert "server process exited (exit status 3)" in err
    assert json.loads(err.strip().splitlines()[-1])["error"]["code"] == "error"
