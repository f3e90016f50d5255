"""The ``mcp-inspect`` entry point: mode selection, help, usage errors, and what each mode imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clikit import run_inspector

from inspector.__main__ import main


def run(*args: str, timeout: float = 90, importtime: bool = False) -> subprocess.CompletedProcess[str]:
    return run_inspector(*args, timeout=timeout, python_flags=("-X", "importtime") if importtime else ())


def imported(stderr: str) -> set[str]:
    """Module names from ``-X importtime`` output."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def test_window_mode_usage_errors_exit_4_before_opening_anything() -> None:
    proc = run("some", "thing")  # neither a profile, a URL nor a command on PATH
    assert proc.returncode == 4
    assert "no saved profile named 'some', and it is neither an http(s) URL nor a command on PATH" in proc.stderr
    proc = run("no-such-profile")
    assert proc.returncode == 4
    assert "no saved profile named 'no-such-profile'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_help_and_version() -> None:
    proc = run("--cli", "--help")
    assert proc.returncode == 0
    assert "exit codes" in proc.stdout and "--tool-arg" in proc.stdout
    assert proc.stderr == ""
    from inspector import __version__

    for flag in ("--version", "-V"):  # as the official CLI: the version alone, so scripts can compare it
        proc = run("--cli", flag)
        assert proc.returncode == 0 and proc.stdout == f"{__version__}\n"


def test_cli_demo_target() -> None:
    proc = run("--cli", "--demo", "--method", "tools/list")
    assert proc.returncode == 0, proc.stderr
    assert "echo" in proc.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "human"])
def test_usage_error_exit_1(fmt: str) -> None:
    proc = run("--cli", "--format", fmt, "--metod", "tools/list", "python", "server.py")
    assert proc.returncode == 1
    assert proc.stdout == ""
    message = "unknown option --metod (did you mean --method?)"
    if fmt == "human":
        assert proc.stderr.startswith(f"usage error: {message}") and proc.stderr.count("\n") == 1
    else:  # the official envelope, in its default format too
        error = json.loads(proc.stderr)["error"]
        assert (error["code"], error["kind"]) == ("error", "usage")
        assert error["message"].startswith(message)


def test_unreachable_http_target_exits_4() -> None:
    proc = run("--cli", "http://127.0.0.1:9/mcp", "--method", "tools/list")
    assert proc.returncode == 4
    assert json.loads(proc.stderr)["error"]["code"] == "unreachable"
    assert "connection refused" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_cli_flag_after_double_dash_belongs_to_the_server() -> None:
    proc = run("--", "--cli")  # a command for the window to start, not the CLI's flag
    assert proc.returncode == 4
    assert "'--cli' (after --) is not a command on PATH" in proc.stderr


def test_cli_imports_no_qt_and_starts_lean() -> None:
    proc = run("--cli", "--help", importtime=True)
    assert proc.returncode == 0
    names = imported(proc.stderr)
    assert "inspector.cli.args" in names
    for heavy in ("asyncio", "pydantic", "mcp_types", "jsonschema", "PySide6", "inspector.client.connection"):
        assert heavy not in names, heavy

    proc = run("--cli", "--demo", "--method", "ping", importtime=True)
    assert proc.returncode == 0, proc.stderr
    names = imported(proc.stderr)
    for forbidden in (
        "PySide6",
        "qasync",
        "inspector.ui",
        "jsonschema",
        "mcp",
        "httpx",
        "httpx2",
        "inspector.cli.load",
    ):
        assert forbidden not in names, forbidden


def test_window_mode_imports_nothing_of_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    before = set(sys.modules)
    assert main(["--bogus-window-flag"]) == 4
    assert not {m for m in set(sys.modules) - before if m.startswith("inspector.cli")}
    assert "unrecognized arguments: --bogus-window-flag" in capsys.readouterr().err
