"""``inspector.cli.main``: every outcome becomes an exit code and at most one line, never a traceback."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main as cli_main
from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode


def test_help_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main.main(["--help"]) == ExitCode.SUCCESS
    assert "exit codes:" in capsys.readouterr().out
    assert cli_main.main(["srv"]) == ExitCode.USAGE
    assert capsys.readouterr().err.startswith("usage error: --method is required")
    assert cli_main.main(["srv", "--format", "json"]) == ExitCode.USAGE
    assert json.loads(capsys.readouterr().err)["error"]["kind"] == "usage"


def fail_with(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    def execute(opts: CliOptions, overview: bool) -> int:
        raise exc

    monkeypatch.setattr(cli_main, "_execute", execute)


def test_keyboard_interrupt_is_quiet(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, KeyboardInterrupt())
    assert cli_main.main(["srv", "--method", "ping"]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_failures_print_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, CliFailure("connection", "server process exited (exit status 3)"))
    assert cli_main.main(["srv", "--method", "ping"]) == ExitCode.CONNECTION
    assert capsys.readouterr().err == "error: server process exited (exit status 3)\n"


def test_internal_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, ZeroDivisionError("division by zero"))
    monkeypatch.delenv(cli_main.DEBUG_ENV, raising=False)
    assert cli_main.main(["srv", "--method", "ping"]) == ExitCode.CONNECTION
    err = capsys.readouterr().err
    assert (
        err
        == "error: internal error: ZeroDivisionError: division by zero (set MCP_INSPECT_DEBUG=1 for the traceback)\n"
    )

    assert cli_main.main(["srv", "--method", "ping", "--format", "json"]) == ExitCode.CONNECTION
    assert json.loads(capsys.readouterr().err)["error"]["kind"] == "internal"

    monkeypatch.setenv(cli_main.DEBUG_ENV, "1")
    assert cli_main.main(["srv", "--method", "ping"]) == ExitCode.CONNECTION
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().endswith("internal error: ZeroDivisionError: division by zero")
