"""Exit codes and default output, side by side with the official inspector CLI (tests/sidebyside.py).

For each class of outcome -- a result, an ``isError`` result, an unknown tool, a JSON-RPC error response, an
unreachable URL, a server that cannot be spawned, a usage error, ``--output`` (raw and json, and the two
refusals), ``--quiet``, ``--method initialize``, ``--metadata``/``--tool-metadata`` -- both CLIs run the same
command line against server-everything and the bundled demo, and must agree on the exit code, the stdout JSON
and the envelope's ``code`` (``{"error": {"code": ...}}``, the last line of stderr). Wording is not compared.
"""

from __future__ import annotations

import json
import re
import socket
import sys
from pathlib import Path
from typing import Any

import nodetools
import pytest
from sidebyside import Outcome, both
from sidebyside import ours as ours_only

pytestmark = pytest.mark.node

REPO = Path(__file__).resolve().parents[2]
DEMO = [sys.executable, "-m", "inspector.demo"]
META_ECHO = [sys.executable, str(REPO / "tests" / "servers" / "meta_echo.py")]
MCP_ERROR = re.compile(r"MCP error (-?\d+)")


def everything() -> list[str]:
    return nodetools.require_server_everything("stdio")


def envelope(outcome: Outcome) -> dict[str, Any]:
    """The ``error`` object of the envelope that ends stderr (after whatever the server wrote there)."""
    lines = outcome.stderr.strip().splitlines()
    assert lines, outcome
    document = json.loads(lines[-1])
    assert list(document) == ["error"], outcome.stderr
    error: dict[str, Any] = document["error"]
    assert isinstance(error.get("code"), str) and isinstance(error.get("message"), str), error
    return error


def same_failure(pair: tuple[Outcome, Outcome], exit_code: int, code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    theirs, ours = pair
    assert (theirs.returncode, ours.returncode) == (exit_code, exit_code), pair
    mine, official = envelope(ours), envelope(theirs)
    assert (official["code"], mine["code"]) == (code, code), (official, mine)
    return official, mine


def same_result(pair: tuple[Outcome, Outcome], exit_code: int = 0) -> tuple[Any, Any]:
    theirs, ours = pair
    assert (theirs.returncode, ours.returncode) == (exit_code, exit_code), pair
    return json.loads(theirs.stdout), json.loads(ours.stdout)


@pytest.fixture(params=["everything", "demo"])
def server(request: pytest.FixtureRequest) -> list[str]:
    return everything() if request.param == "everything" else DEMO


# --- results --------------------------------------------------------------------------------------------------


def test_a_result_is_the_same_pretty_json(tmp_path: Path, server: list[str]) -> None:
    echo = ("--tool-arg", "message=hi")  # both servers have an echo tool with a "message" argument
    theirs, ours = same_result(both(*server, "--method", "tools/call", "--tool-name", "echo", *echo, home=tmp_path))
    assert ours["content"] == theirs["content"]
    assert ours.get("isError", False) == theirs.get("isError", False)
    pair = both(*server, "--method", "tools/call", "--tool-name", "echo", *echo, "-q", home=tmp_path)
    # pretty-printed with two spaces, as JSON.stringify(result, null, 2)
    assert pair[1].stdout.startswith('{\n  "content": [\n    {\n') and pair[1].stdout.endswith("\n}\n")
    assert pair[0].stdout.startswith('{\n  "content": [\n    {\n')


def test_json_format_is_one_result_object(tmp_path: Path) -> None:
    args = ("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi", "--format", "json")
    theirs, ours = both(*everything(), *args, home=tmp_path)
    assert (theirs.returncode, ours.returncode) == (0, 0)
    assert ours.stdout.count("\n") == 1 and list(json.loads(ours.stdout)) == ["result"]
    assert json.loads(ours.stdout)["result"]["content"] == json.loads(theirs.stdout)["result"]["content"]


def test_is_error_prints_the_result_and_exits_5(tmp_path: Path) -> None:
    # server-everything: echo without its required argument is an isError result (input validation)
    pair = both(*everything(), "--method", "tools/call", "--tool-name", "echo", home=tmp_path)
    same_failure(pair, 5, "tool_is_error")
    theirs, ours = (json.loads(outcome.stdout) for outcome in pair)
    assert ours == theirs and ours["isError"] is True
    pair = both(*DEMO, "--method", "tools/call", "--tool-name", "business_error", home=tmp_path)
    same_failure(pair, 5, "tool_is_error")
    assert json.loads(pair[1].stdout)["content"] == json.loads(pair[0].stdout)["content"]


def test_unknown_tool_exits_5_tool_not_found(tmp_path: Path, server: list[str]) -> None:
    pair = both(*server, "--method", "tools/call", "--tool-name", "no_such_tool", home=tmp_path)
    same_failure(pair, 5, "tool_not_found")
    assert (pair[0].stdout, pair[1].stdout) == ("", "")


def test_a_json_rpc_error_response_exits_1_with_the_servers_message(tmp_path: Path, server: list[str]) -> None:
    uri = "nope://missing" if server is not DEMO else "demo://missing"
    pair = both(*server, "--method", "resources/read", "--uri", uri, home=tmp_path)
    official, mine = same_failure(pair, 1, "error")
    assert mine["message"] == official["message"]  # as the server sent it
    assert isinstance(mine["jsonrpcCode"], int) and mine["method"] == "resources/read"  # ours, besides
    if server is not DEMO:  # server-everything's TypeScript SDK spells the code into the message itself
        found = MCP_ERROR.search(official["message"])
        assert found is not None and int(found.group(1)) == mine["jsonrpcCode"]
    assert (pair[0].stdout, pair[1].stdout) == ("", "")
    as_json = ours_only(*server, "--method", "resources/read", "--uri", uri, "--format", "json", home=tmp_path)
    assert (as_json.returncode, envelope(as_json)["code"]) == (1, "error")  # the same envelope with --format json


# --- failures before any result ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_an_unreachable_url_exits_4(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_free_port()}/mcp"
    for fmt in ("text", "json"):
        pair = both(url, "--method", "tools/list", "--format", fmt, home=tmp_path)
        same_failure(pair, 4, "unreachable")
        assert (pair[0].stdout, pair[1].stdout) == ("", "")


def test_a_server_that_never_answers_is_unreachable_after_the_connect_timeout(tmp_path: Path) -> None:
    pair = both("sleep", "30", "--method", "tools/list", "--connect-timeout", "800", home=tmp_path, timeout=60)
    same_failure(pair, 4, "unreachable")


def test_a_command_that_cannot_be_spawned_exits_1(tmp_path: Path) -> None:
    pair = both(str(tmp_path / "no-such-server"), "--method", "tools/list", home=tmp_path)
    same_failure(pair, 1, "error")


@pytest.mark.parametrize(
    "args",
    [
        ("--method", "tools/call"),  # no --tool-name
        ("--method", "no/such-method"),
        ("--method", "tools/list", "--output-format", "raw"),  # --output-format without --output
        ("--method", "tools/list", "--output", "x.bin", "--output-format", "raw"),  # raw of a list
    ],
    ids=["no-tool-name", "unsupported-method", "output-format-alone", "raw-of-a-list"],
)
def test_usage_errors_exit_1_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    for fmt in ("text", "json"):
        pair = both(*everything(), *args, "--format", fmt, home=tmp_path, cwd=tmp_path)
        same_failure(pair, 1, "error")
        assert (pair[0].stdout, pair[1].stdout) == ("", "")


# --- --output, --quiet -------------------------------------------------------------------------------------------


def _wrote(outcome: Outcome) -> str:
    """The ``Wrote N bytes (fmt) to PATH`` line (the last of stderr)."""
    return outcome.stderr.strip().splitlines()[-1]


def test_output_raw_writes_the_same_bytes(tmp_path: Path) -> None:
    ours_file, theirs_file = tmp_path / "ours.txt", tmp_path / "theirs.txt"
    args = ("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hé", "--output-format", "raw")
    theirs, _ = both(*everything(), *args, "--output", str(theirs_file), home=tmp_path)
    _, ours = both(*everything(), *args, "--output", str(ours_file), home=tmp_path)
    assert (theirs.returncode, ours.returncode, theirs.stdout, ours.stdout) == (0, 0, "", "")
    assert ours_file.read_bytes() == theirs_file.read_bytes() == "Echo: hé".encode()
    assert _wrote(ours) == _wrote(theirs).replace(str(theirs_file), str(ours_file))
    # one binary block and no text: its decoded bytes (the demo's blob resource)
    image_args = ("--method", "resources/read", "--uri", "demo://images/logo.png", "--output-format", "raw")
    both(*DEMO, *image_args, "--output", str(theirs_file), home=tmp_path)
    _, ours = both(*DEMO, *image_args, "--output", str(ours_file), home=tmp_path)
    assert ours.returncode == 0
    assert ours_file.read_bytes() == theirs_file.read_bytes() and ours_file.read_bytes().startswith(b"\x89PNG")


def test_output_json_writes_the_whole_result_and_says_so_on_stdout_with_format_json(tmp_path: Path) -> None:
    ours_file, theirs_file = tmp_path / "ours.json", tmp_path / "theirs.json"
    args = ("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi", "--format", "json")
    theirs, _ = both(*everything(), *args, "--output", str(theirs_file), home=tmp_path)
    _, ours = both(*everything(), *args, "--output", str(ours_file), home=tmp_path)
    assert (theirs.returncode, ours.returncode) == (0, 0)
    assert json.loads(ours_file.read_text()) == json.loads(theirs_file.read_text())
    assert ours_file.read_bytes() == theirs_file.read_bytes()
    official, mine = json.loads(theirs.stdout), json.loads(ours.stdout)
    assert official == {"output": {"path": str(theirs_file), "format": "json", "bytes": len(theirs_file.read_bytes())}}
    assert mine == {"output": {"path": str(ours_file), "format": "json", "bytes": len(ours_file.read_bytes())}}


def test_output_refusals(tmp_path: Path) -> None:
    args = ("--method", "tools/call", "--tool-name", "two_images", "--output", str(tmp_path / "x"))
    same_failure(both(*META_ECHO, *args, "--output-format", "raw", home=tmp_path), 1, "output_not_raw")
    missing_dir = str(tmp_path / "missing" / "x.json")
    pair = both(*everything(), "--method", "tools/list", "--output", missing_dir, home=tmp_path)
    same_failure(pair, 1, "output_write_failed")


def test_quiet_leaves_only_the_result_or_the_envelope(tmp_path: Path) -> None:
    # server-everything writes "Starting default (STDIO) server..." on stderr: both pass it through unless -q
    args = ("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi")
    loud_theirs, loud_ours = both(*everything(), *args, home=tmp_path)
    assert loud_theirs.stderr == loud_ours.stderr == "Starting default (STDIO) server...\n"
    theirs, ours = both(*everything(), *args, "-q", home=tmp_path)
    assert (theirs.returncode, ours.returncode, theirs.stderr, ours.stderr) == (0, 0, "", "")
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)
    pair = both(*everything(), "--method", "tools/call", "--tool-name", "nope", "--quiet", home=tmp_path)
    same_failure(pair, 5, "tool_not_found")
    assert [len(outcome.stderr.splitlines()) for outcome in pair] == [1, 1]
    pair = both(*everything(), *args, "--output", str(tmp_path / "o.json"), "-q", home=tmp_path)
    assert [(o.returncode, o.stdout, o.stderr) for o in pair] == [(0, "", ""), (0, "", "")]


# --- initialize, metadata -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_initialize_prints_what_the_opening_established(tmp_path: Path, era: str) -> None:
    servers = [everything(), DEMO] if era == "legacy" else [DEMO]  # (server-everything has no 2026-07-28)
    for server in servers:
        theirs, ours = same_result(both(*server, "--method", "initialize", "--protocol-era", era, home=tmp_path))
        assert set(theirs) <= {"serverInfo", "protocolVersion", "capabilities", "instructions"}
        assert {key: ours[key] for key in theirs} == theirs
        assert ours["era"] == ("handshake" if era == "legacy" else "modern")


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_metadata_reaches_params_meta_as_the_official_sends_it(tmp_path: Path, era: str) -> None:
    args = ("--metadata", "trace=abc", "n=5", "--tool-metadata", "n=7", "tool=yes")
    call = ("--method", "tools/call", "--tool-name", "echo_meta", "--protocol-era", era)
    theirs, ours = same_result(both(*META_ECHO, *args, *call, "-q", home=tmp_path))
    expected = {"trace": "abc", "n": 7, "tool": "yes"}  # tool metadata over general metadata, values as JSON
    assert {key: theirs["structuredContent"]["meta"][key] for key in expected} == expected
    assert {key: ours["structuredContent"]["meta"][key] for key in expected} == expected
    # general metadata goes into every request (tools/list too)
    listing = ("--method", "tools/list", "--protocol-era", era, "-q")
    theirs, ours = same_result(both(*META_ECHO, *args[:3], *listing, home=tmp_path))
    for document in (theirs, ours):
        meta = json.loads(document["tools"][0]["description"])
        assert meta["trace"] == "abc" and meta["n"] == 5 and "tool" not in meta
