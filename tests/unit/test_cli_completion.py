"""``--completion``: the flags the scripts are generated from, and the scripts' content (the shells run them in
tests/integration/test_cli_completion_shells.py)."""

from __future__ import annotations

import pytest

from inspector.cli.args import parse_args
from inspector.cli.completion import SHELLS, Flag, completion_flags, completion_script
from inspector.cli.errors import UsageError
from inspector.cli.parser import FORMATS, LOG_LEVELS, METHODS, NOT_BUILT_METHODS, build_parser
from inspector.protocol.limits import Limits


def by_name() -> dict[str, Flag]:
    return {name: flag for flag in completion_flags() for name in flag.names}


def test_every_visible_option_of_the_parser_is_offered() -> None:
    flags = by_name()
    for action in build_parser()._actions:
        for name in action.option_strings:
            assert (name in flags) == (name != "--cli"), name  # --cli is hidden: it is the mode, offered first


def test_value_kinds() -> None:
    flags = by_name()
    assert flags["--format"].choices == FORMATS
    assert flags["--log-level"].choices == LOG_LEVELS
    assert flags["--method"].choices == tuple(m for m in METHODS if m not in NOT_BUILT_METHODS)
    assert flags["--transport"].choices == ("stdio", "http", "sse")
    assert flags["--protocol-era"].choices == ("legacy", "modern", "auto")
    assert flags["--output-format"].choices == ("json", "raw")
    assert flags["--completion"].choices == SHELLS
    assert "2025-11-25" in flags["--protocol-version"].choices
    assert flags["--limit"].choices == tuple(f"{name}=" for name in Limits.names()) and flags["--limit"].no_space
    for name in ("--output", "--config", "--catalog", "--client-config", "--client-key", "--assertion-file"):
        assert flags[name].value == "file", name
    assert flags["--cwd"].value == "dir"
    assert flags["--server"].value == "server"
    for name in ("--tool-name", "--load-rate", "--header", "-e", "--timeout"):
        assert flags[name].value == "free", name
    for name in ("--load", "--probe", "-q", "--quiet", "--strict"):
        assert flags[name].value == "none", name
    assert flags["-q"] is flags["--quiet"]
    assert flags["--method"].description == "method to invoke"
    assert flags["--format"].description == "text, json or human"
    assert "not available" in flags["--verify"].description
    assert all(flag.description for flag in completion_flags())


@pytest.mark.parametrize("shell", SHELLS)
def test_each_script_names_the_command_and_every_option(shell: str) -> None:
    script = completion_script(shell)
    assert script.endswith("\n")
    assert "mcp-inspect" in script.splitlines()[0] or script.startswith("#compdef mcp-inspect\n")
    for flag in completion_flags():
        for name in flag.names:
            spelled = name if shell != "fish" else (f"-l {name[2:]}" if name.startswith("--") else f"-s {name[1:]}")
            assert spelled in script, (shell, name)
    assert "servers/list" in script  # --server asks the catalog


def test_unknown_shell_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown shell 'tcsh'"):
        completion_script("tcsh")
    with pytest.raises(UsageError, match="invalid choice: 'tcsh'"):
        parse_args(["--completion", "tcsh"])
    assert parse_args(["--completion", "zsh"]).completion == "zsh"
