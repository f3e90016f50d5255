"""``--replay RECORDING TARGET... [--ignore JSONPATH ...]`` on the command line."""

from __future__ import annotations

import pytest

from inspector.cli.args import HelpRequested, parse_args
from inspector.cli.errors import UsageError


def test_replay_takes_the_recording_and_a_target() -> None:
    opts = parse_args(
        ["--replay", "s.sqlite3", "--ignore", "$..timestamp", "--ignore", "$.result.x", "python", "srv.py"]
    )
    assert opts.replay == "s.sqlite3"
    assert opts.ignore == ("$..timestamp", "$.result.x")
    assert opts.target == ["python", "srv.py"]
    assert opts.method is None
    url = parse_args(["--replay", "s.sqlite3", "--format", "json", "http://127.0.0.1:1/mcp"])
    assert url.url == "http://127.0.0.1:1/mcp" and url.format == "json"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ignore", "$.x", "python", "srv.py", "--method", "tools/list"], "--ignore requires --replay"),
        (["--replay", "s.sqlite3", "--method", "tools/list", "python", "srv.py"], "cannot be combined with --method"),
        (["--replay", "s.sqlite3", "--probe", "python", "srv.py"], "cannot be combined with --probe"),
        (["--replay", "s.sqlite3", "--ignore", "result.x", "python", "srv.py"], r"starting with \$"),
        (["--replay", " ", "python", "srv.py"], "requires a recording"),
    ],
)
def test_replay_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_args(argv)


def test_help_lists_replay() -> None:
    with pytest.raises(HelpRequested) as raised:
        parse_args(["--help"])
    text = str(raised.value)
    assert "--replay RECORDING" in text and "--ignore JSONPATH" in text
