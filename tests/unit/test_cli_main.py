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
    assert "exit codes" in capsys.readouterr().out
    # a usage error: exit 1 and the official envelope (code "error") on stderr, in text and json formats
    for fmt in ([], ["--format", "json"]):
        assert cli_main.main(["srv", *fmt]) == ExitCode.ERROR
        error = json.loads(capsys.readouterr().err)["error"]
        assert (error["code"], error["kind"]) == ("error", "usage")
        assert error["message"].startswith("--method is required")
    assert cli_main.main(["srv", "--format", "human"]) == ExitCode.ERROR
    assert capsys.readouterr().err.startswith("usage error: --method is required")


def fail_with(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    def execute(opts: CliOptions, overview: bool) -> int:
        raise exc

    monkeypatch.setattr(cli_main, "_execute", execute)


def test_keyboard_interrupt_is_quiet(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, KeyboardInterrupt())
    assert cli_main.main(["srv", "--method", "ping"]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_failures_print_one_envelope(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, CliFailure("connection", "server process exited (exit status 3)"))
    assert cli_main.main(["srv", "--method", "ping"]) == ExitCode.ERROR
    assert json.loads(capsys.readouterr().err) == {
        "error": {"code": "error", "message": "server process exited (exit status 3)", "kind": "connection"}
    }
    assert cli_main.main(["srv", "--method", "ping", "--format", "human"]) == ExitCode.ERROR
    assert capsys.readouterr().err == "error: server process exited (exit status 3)\n"


@pytest.mark.parametrize(
    ("kind", "exit_code", "code"),
    [
        ("unreachable", ExitCode.UNREACHABLE, "unreachable"),
        ("auth", ExitCode.AUTH_REQUIRED, "auth_required"),
        ("tool", ExitCode.TOOL_ERROR, "tool_is_error"),
        ("tool_not_found", ExitCode.TOOL_ERROR, "tool_not_found"),
        ("protocol", ExitCode.ERROR, "error"),
        ("strict", ExitCode.STRICT, "schema_unportable"),
    ],
)
def test_each_kind_has_its_exit_code_and_envelope_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kind: str, exit_code: int, code: str
) -> None:
    fail_with(monkeypatch, CliFailure(kind, "it failed"))  # type: ignore[arg-type]
    assert cli_main.main(["srv", "--method", "ping"]) == exit_code
    assert json.loads(capsys.readouterr().err)["error"]["code"] == code


def test_internal_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fail_with(monkeypatch, ZeroDivisionError("division by zero"))
    monkeypatch.delenv(cli_main.DEBUG_ENV, raising=False)
    assert cli_main.main(["srv", "--method", "ping", "--format", "human"]) == ExitCode.ERROR
    err = capsys.readouterr().err
    assert (
        err
        == "error: internal error: ZeroDivisionError: division by zero (set MCP_INSPECT_DEBUG=1 for the traceback)\n"
    )

    for fmt in ("text", "json"):
        assert cli_main.main(["srv", "--method", "ping", "--format", fmt]) == ExitCode.ERROR
        error = json.loads(capsys.readouterr().err)["error"]
        assert (error["code"], error["kind"]) == ("error", "internal")

    monkeypatch.setenv(cli_main.DEBUG_ENV, "1")
    assert cli_main.main(["srv", "--method", "ping", "--format", "human"]) == ExitCode.ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().endswith("internal error: ZeroDivisionError: division by zero")
