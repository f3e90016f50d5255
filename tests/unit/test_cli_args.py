"""Command-line parsing of ``mcp-inspect --cli``: the official CLI's flags, intermixed TARGET, usage errors."""

from __future__ import annotations

import pytest

from inspector.cli.args import (
    DEFAULT_LOAD_CONCURRENCY,
    DEFAULT_LOAD_DURATION,
    HelpRequested,
    parse_args,
    parse_pair,
    sniff_format,
    split_argv,
)
from inspector.cli.errors import UsageError
from inspector.cli.exitcodes import ExitCode


def usage_error(argv: list[str]) -> str:
    with pytest.raises(UsageError) as info:
        parse_args(argv)
    assert info.value.exit_code == ExitCode.ERROR  # as the official CLI: usage errors exit 1
    return info.value.message


@pytest.mark.parametrize(
    ("argv", "target", "method"),
    [
        (["python", "server.py", "--method", "tools/list"], ["python", "server.py"], "tools/list"),
        (["--method", "tools/list", "python", "server.py"], ["python", "server.py"], "tools/list"),
        (["--method", "tools/list", "--", "python", "server.py"], ["python", "server.py"], "tools/list"),
        (["--method=ping", "python", "-m", "mod", "-x"], ["python", "-m", "mod", "-x"], "ping"),
        # the server's own clashing flags go after --
        (
            ["--method", "ping", "--", "srv", "--timeout", "5", "--method"],
            ["srv", "--timeout", "5", "--method"],
            "ping",
        ),
        (["--cli", "srv", "--method", "ping"], ["srv"], "ping"),
        # the official form: the command first, then '--', then our options
        (["srv", "a", "--", "--method", "ping"], ["srv", "a"], "ping"),
        (["--method", "initialize", "srv"], ["srv"], "initialize"),
        (["srv", "-", "--method", "ping"], ["srv", "-"], "ping"),
    ],
)
def test_target_and_options_intermix(argv: list[str], target: list[str], method: str) -> None:
    opts = parse_args(argv)
    assert opts.target == target
    assert opts.method == method
    assert opts.format == "text"
    assert opts.timeout == 60.0
    assert opts.protocol_version == "2025-11-25"
    assert not opts.strict


def test_all_tool_call_flags() -> None:
    opts = parse_args(
        [
            "node", "build/index.js", "--method", "tools/call", "--tool-name", "add",
            "--tool-arg", "a=1", "b=2", "--tool-arg", "c=x=y", "-e", "K=V", "-eK2=", "--cwd", "/tmp",
            "--format", "json", "--timeout", "2.5", "--strict", "--protocol-version", "2025-06-18",
        ]
    )  # fmt: skip
    assert opts.target == ["node", "build/index.js"]
    assert opts.tool_name == "add"
    assert opts.tool_arg_pairs == [("a", "1"), ("b", "2"), ("c", "x=y")]
    assert opts.env == {"K": "V", "K2": ""}
    assert opts.cwd == "/tmp"
    assert opts.format == "json"
    assert opts.timeout == 2.5
    assert opts.strict
    assert opts.protocol_version == "2025-06-18"


def test_variadic_tool_arg_stops_at_non_pairs() -> None:
    # after the pairs, a token without '=' starts (or continues) the server command
    opts = parse_args(["--method", "tools/call", "--tool-name", "t", "--tool-arg", "a=1", "b=2", "srv", "x=1"])
    assert opts.tool_arg_pairs == [("a", "1"), ("b", "2")]
    assert opts.target == ["srv", "x=1"]


def test_tool_args_json_and_prompt_args() -> None:
    opts = parse_args(["s", "--method", "tools/call", "--tool-name", "t", "--tool-args-json", '{"a": [1, 2]}'])
    assert opts.tool_args_json == {"a": [1, 2]}
    opts = parse_args(["s", "--method", "prompts/get", "--prompt-name", "p", "--prompt-args", "a=1", "b=two"])
    assert opts.prompt_args == {"a": "1", "b": "two"}
    assert opts.prompt_name == "p"


def test_other_methods() -> None:
    assert parse_args(["s", "--method", "resources/read", "--uri", "demo://x"]).uri == "demo://x"
    assert parse_args(["s", "--method", "logging/setLevel", "--log-level", "debug"]).log_level == "debug"
    for method in ("ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list"):
        assert parse_args(["s", "--method", method]).method == method


def test_load_defaults_and_values() -> None:
    opts = parse_args(["s", "--load", "--tool-name", "echo", "--tool-arg", "message=hi"])
    assert opts.load and opts.method == "tools/call"
    # the official defaults: 10 in flight for 10 s
    assert (opts.load_concurrency, opts.load_requests, opts.load_duration) == (10, None, 10.0)
    assert (DEFAULT_LOAD_CONCURRENCY, DEFAULT_LOAD_DURATION) == (10, 10.0)
    opts = parse_args(["s", "--load", "--tool-name", "e", "--load-concurrency", "8", "--load-requests", "1000"])
    assert (opts.load_concurrency, opts.load_requests, opts.load_duration) == (8, 1000, None)
    opts = parse_args(["s", "--load", "--tool-name", "e", "--load-duration", "1.5", "--load-rate", "20"])
    assert (opts.load_duration, opts.load_rate, opts.load_requests) == (1.5, 20.0, None)
    opts = parse_args(["s", "--method", "tools/call", "--load", "--tool-name", "e"])
    assert opts.load


def test_config_and_demo_sources() -> None:
    opts = parse_args(["--config", "mcp.json", "--server", "time", "--method", "tools/list"])
    assert (opts.config, opts.server, opts.target) == ("mcp.json", "time", [])
    opts = parse_args(["--demo", "--method", "tools/list"])
    assert opts.demo and opts.target == []


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--metod", "tools/list", "srv"], "did you mean --method"),
        (["--bogus", "srv", "--method", "ping"], "unknown option --bogus"),
        (["srv"], "--method is required"),
        (["srv", "--metod", "tools/list"], "unknown option --metod (did you mean --method?)"),
        (["srv", "--tool-nmae", "x", "--method", "ping"], "unknown option --tool-nmae (did you mean --tool-name?)"),
        (["srv", "--", "--port", "3"], "unknown option --port"),
        (["srv", "--", "--method", "ping", "extra"], "with the server command first"),
        (["srv", "--method", "nope"], "unsupported method: nope"),
        (["srv", "--method", "tools/lst"], "did you mean tools/list?"),
        (["srv", "--method"], "--method needs a value"),
        (["srv", "--method", "--strict"], "--method needs a value"),
        (["srv", "--method", "tools/call"], "needs --tool-name"),
        (["srv", "--method", "resources/read"], "needs --uri"),
        (["srv", "--method", "prompts/get"], "needs --prompt-name"),
        (["srv", "--method", "logging/setLevel"], "needs --log-level"),
        (["srv", "--method", "logging/setLevel", "--log-level", "loud"], "invalid choice"),
        (["srv", "--method", "tools/list", "--tool-name", "x"], "--tool-name is only used with --method tools/call"),
        (["srv", "--method", "tools/list", "--uri", "x"], "--uri is only used with --method resources/read"),
        (["srv", "--method", "ping", "--prompt-args", "a=1"], "--prompt-args is only used with --method prompts/get"),
        (["srv", "--method", "tools/call", "--tool-name", "t", "--tool-arg", "novalue"], "expects KEY=VALUE"),
        (["srv", "--method", "tools/call", "--tool-name", "t", "--tool-arg", "=v"], "expects KEY=VALUE"),
        (["srv", "--method", "tools/call", "--tool-name", "t", "--tool-args-json", "{"], "not valid JSON"),
        (["srv", "--method", "tools/call", "--tool-name", "t", "--tool-args-json", "[1]"], "must be a JSON object"),
        (["srv", "--method", "ping", "-e", "NOEQUALS"], "-e expects KEY=VALUE"),
        (["srv", "--method", "ping", "--format", "yaml"], "invalid choice"),
        (["srv", "--method", "ping", "--timeout", "0"], "positive"),
        (["srv", "--method", "ping", "--timeout", "soon"], "number of seconds"),
        (["srv", "--method", "ping", "--strict=yes"], "does not take a value"),
        (["srv", "--method", "ping", "--load-requests", "5"], "--load-requests requires --load"),
        (["srv", "--method", "ping", "--load-rate", "5"], "--load-rate requires --load"),
        (["srv", "--load", "--method", "tools/list"], "--load requires --method tools/call"),
        (["srv", "--load", "--tool-name", "t", "--output", "x"], "cannot be combined with --output"),
        (["srv", "--load", "--tool-name", "t", "--load-duration", "0"], "positive number"),
        (["srv", "--load"], "--load needs --tool-name"),
        (["srv", "--load", "--tool-name", "t", "--load-concurrency", "0"], "positive integer"),
        (["srv", "--load", "--tool-name", "t", "--load-requests", "many"], "positive integer"),
        (["srv", "--config", "c.json", "--method", "ping"], "not TARGET and --config"),
        (["--demo", "--config", "c.json", "--method", "ping"], "not --config and --demo"),
        (["srv", "--server", "x", "--method", "ping"], "--server names a catalog entry"),
        (["srv", "--transport", "http", "--method", "ping"], "--transport http needs --server-url"),
        (["srv", "--server-url", "http://h/mcp", "--method", "ping"], "one way only"),
        (["--server-url", "ftp://h", "--method", "ping"], "must be an http:// or https:// URL"),
        (["--server-url", "http://h/mcp", "--method", "ping", "--connect-timeout", "-1"], "0 (no timeout)"),
        (["srv", "--method", "ping", "--metadata", "a"], "expects KEY=VALUE"),
        (["srv", "--method", "ping", "--metadata", "a=1e400"], "numbers must be finite"),
        (
            ["srv", "--method", "ping", "--tool-metadata", "a=1"],
            "--tool-metadata is only used with --method tools/call",
        ),
        (
            ["srv", "--method", "tools/call", "--tool-name", "t", "--tool-arg", "a=1", "--tool-args-json", "{}"],
            "cannot be combined with --tool-arg",
        ),
        (["srv", "--method", "ping", "--output-format", "raw"], "--output-format requires --output"),
        (["srv", "--method", "ping", "--output", "f", "--output-format", "raw"], "raw requires --method tools/call"),
        (["srv", "--method", "ping", "--rename", "x"], "--rename is only used with --method servers/edit"),
        (["srv", "--method", "tools/list", "--verify"], "not available in mcp-inspect yet"),
        (["srv", "--method", "tools/list", "--app-info"], "MCP Apps is not available"),
        (["srv", "--method", "tools/list", "--advertise-apps"], "MCP Apps is not available"),
        (["srv", "--method", "skills/list"], "Skills (SEP-2640) is not available"),
        (["srv", "--method", "resources/directory/read", "--cursor", "c"], "not available in mcp-inspect yet"),
        (["srv", "--method", "ping", "--completion", "tcsh"], "invalid choice"),
        (["srv", "--transport", "carrier-pigeon", "--method", "ping"], "--transport must be stdio"),
        (["srv", "--header", "A: b", "--method", "ping"], "--header is for HTTP targets"),
    ],
)
def test_usage_errors(argv: list[str], fragment: str) -> None:
    assert fragment in usage_error(argv)


def test_no_abbreviations() -> None:
    # --tool would silently mean --tool-name with argparse's default abbreviation matching
    assert "unknown option --tool" in usage_error(["--tool", "x", "srv", "--method", "ping"])


def test_transport_stdio_is_accepted() -> None:
    assert parse_args(["srv", "--transport", "stdio", "--method", "ping"]).target == ["srv"]


def test_help_lists_exit_codes_and_methods() -> None:
    with pytest.raises(HelpRequested) as info:
        parse_args(["--help"])
    text = str(info.value)
    for line in ("exit codes", "0  success", "1  error", "3  authorization required", "4  server unreachable",
                 "5  tool error", "6  --strict found problems"):  # fmt: skip
        assert line in text
    assert "--tool-arg" in text and "--load-concurrency" in text and "resources/templates/list" in text
    with pytest.raises(HelpRequested):
        parse_args(["srv", "-h"])
    with pytest.raises(HelpRequested) as info:
        parse_args(["--version"])
    from inspector import __version__

    assert str(info.value) == __version__  # as the official -V: the version alone
    with pytest.raises(HelpRequested):
        parse_args(["-V"])


def test_split_argv_normalises_values_for_argparse() -> None:
    ours, target = split_argv(["--uri", "-odd", "srv", "-e", "A=-1", "--tool-arg", "x=-2", "y=3"])
    assert ours == ["--uri=-odd", "-eA=-1", "--tool-arg=x=-2", "--tool-arg=y=3"]
    assert target == ["srv"]
    # -e attached only with '=': a server's -example flag stays the server's
    ours, target = split_argv(["srv", "-example"])
    assert (ours, target) == ([], ["srv", "-example"])


def test_sniff_format() -> None:
    assert sniff_format(["--format", "json", "--bogus"]) == "json"
    assert sniff_format(["--format=json"]) == "json"
    assert sniff_format(["--format", "text"]) == "text"
    assert sniff_format(["--format", "human", "srv"]) == "human"


def test_parse_pair() -> None:
    assert parse_pair("a=b=c", "--x") == ("a", "b=c")
    assert parse_pair("a=", "--x") == ("a", "")
    with pytest.raises(UsageError):
        parse_pair("a", "--x")


def test_metadata_values_are_json_when_they_parse() -> None:
    opts = parse_args(
        ["--server-url", "http://h/mcp", "--method", "tools/call", "--tool-name", "t",
         "--metadata", "a=1", 'b={"x": [2]}', "c=plain", "d=true", "--tool-metadata", "a=2", "e=null"]
    )  # fmt: skip
    assert opts.url == "http://h/mcp" and opts.target == ["http://h/mcp"]
    assert opts.metadata == {"a": 1, "b": {"x": [2]}, "c": "plain", "d": True}
    assert opts.tool_metadata == {"a": 2, "e": None}


def test_connect_timeout_in_ms() -> None:
    assert parse_args(["srv", "--method", "ping"]).connect_timeout == 15.0
    assert parse_args(["srv", "--method", "ping", "--connect-timeout", "2500"]).connect_timeout == 2.5
    assert parse_args(["srv", "--method", "ping", "--connect-timeout", "0"]).connect_timeout is None


def test_commands_without_a_server() -> None:
    assert parse_args(["--completion", "bash"]).completion == "bash"
    assert parse_args(["--method", "servers/list"]).method == "servers/list"
    assert parse_args(["--list-stored-auth"]).list_stored_auth
    # no server at all: the one entry of the default catalog (inspector.cli.config says when there is none)
    assert parse_args(["--method", "tools/list"]).target == []
    opts = parse_args(["--server", "time", "--method", "tools/list"])
    assert (opts.server, opts.config, opts.target) == ("time", None, [])


def test_header_takes_several_values_but_not_a_url() -> None:
    opts = parse_args(["--method", "ping", "--header", "A: 1", "B: 2", "http://h/mcp"])
    assert opts.headers == [("A", "1"), ("B", "2")]
    assert opts.url == "http://h/mcp"


def test_unknown_options_after_the_command_go_to_the_server_but_are_listed() -> None:
    # as the official CLI: a script's `uvx mcp-server-time --local-timezone UTC` keeps working
    opts = parse_args(["uvx", "mcp-server-time", "--local-timezone", "UTC", "--method", "tools/list", "-x"])
    assert opts.target == ["uvx", "mcp-server-time", "--local-timezone", "UTC", "-x"]
    assert opts.passed_to_server == ["--local-timezone"]  # (single-dash ones, python -m, pass without a word)
    # after '--' (options first) nothing is listed: the user said it is the server's
    opts = parse_args(["--method", "ping", "--", "srv", "--port", "3", "--method", "x"])
    assert opts.target == ["srv", "--port", "3", "--method", "x"]
    assert opts.passed_to_server == []


def test_readme_documents_every_flag_and_exit_code() -> None:
    from pathlib import Path

    from inspector.cli.argv import option_arity
    from inspector.cli.exitcodes import ExitCode

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    cli = readme[readme.index("## CLI reference") : readme.index("## Layout")]
    missing = [flag for flag in option_arity() if flag not in ("--cli", "-h") and f"`{flag}" not in cli]
    assert missing == []
    for code in ExitCode:
        if code not in (ExitCode.NO_APP, *range(7, 10)):
            assert f"| {int(code)} |" in cli, code
