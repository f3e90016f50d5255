"""How ``mcp-inspect``'s command line names the server the window opens (``parse_args`` + ``resolve_target``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from inspector.cli.window_target import TargetError, WindowTarget, is_unsaved, resolve_target
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.window.app import USAGE_EXIT, main, parse_args


def _on_path(found: frozenset[str]) -> Callable[[str], str | None]:
    return lambda name: name if "/" in name else (f"/usr/bin/{name}" if name in found else None)


def _resolve(argv: list[str], store: ProfileStore, on_path: frozenset[str] = frozenset({"sh"})) -> WindowTarget | None:
    return resolve_target(parse_args(argv), store, which=_on_path(on_path))


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ProfileStore:
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MCP_INSPECTOR_DATA_DIR", str(tmp_path / "data"))
    saved = ProfileStore()
    saved.create(Profile(name="weather", stdio=StdioSettings(command="weather-server")))
    saved.create(Profile(name="npx", stdio=StdioSettings(command="npx", args=["-y", "pkg"])))
    return saved


def _unsaved(target: WindowTarget | None) -> Profile:
    assert target is not None and target.profile is not None and target.profile_id is None
    assert is_unsaved(target.profile.id)
    return target.profile


def test_window_target_none_given(store: ProfileStore) -> None:
    assert _resolve([], store) is None
    assert _resolve(["--demo"], store) is None


def test_window_target_profile_first_by_name_id_and_any_case(store: ProfileStore) -> None:
    weather = store.find("weather")
    assert weather is not None
    for given in ("weather", "WEATHER", weather.id):
        target = _resolve([given], store, frozenset({"weather"}))  # a program of that name on PATH: the profile wins
        assert target is not None and target.profile_id == weather.id and target.profile is None


def test_window_target_profile_named_like_a_program_wins_over_it(store: ProfileStore) -> None:
    npx = store.find("npx")
    target = _resolve(["npx"], store, frozenset({"npx"}))
    assert npx is not None and target is not None and target.profile_id == npx.id


def test_window_target_url_is_an_unsaved_http_profile(store: ProfileStore) -> None:
    profile = _unsaved(_resolve(["https://Example.com:8443/mcp/"], store))
    assert profile.name == "Example.com:8443/mcp" and profile.transport == "http"
    assert profile.http.url == "https://Example.com:8443/mcp/" and profile.http.headers == []
    assert profile.auth.mode == "oauth"  # logs in if the server asks (the handoff's loginCommand relies on it)
    assert profile.id not in store and store.list_profiles()[-1].name == "npx"


def test_window_target_url_options_before_or_after_it(store: ProfileStore) -> None:
    for argv in (
        ["--transport", "sse", "--header", "Authorization: Bearer t0k", "http://127.0.0.1:9/sse", "--header=X-A: 1"],
        ["http://127.0.0.1:9/sse", "--transport=sse", "--header", "Authorization: Bearer t0k", "--header", "X-A:1"],
    ):
        profile = _unsaved(_resolve(argv, store))
        assert profile.transport == "sse" and profile.name == "127.0.0.1:9/sse"
        assert [(h.name, h.value, h.secret) for h in profile.http.headers] == [
            ("Authorization", "Bearer t0k", True),
            ("X-A", "1", False),
        ]
        assert profile.auth.mode == "none"  # an Authorization header of its own: no OAuth


def test_window_target_after_dashes_is_always_a_command(store: ProfileStore) -> None:
    argv = ["-e", "API_TOKEN=s3cret", "-eMODE=fast", "--", "weather", "-m", "--header", "x", "--"]
    profile = _unsaved(_resolve(argv, store, frozenset({"weather"})))  # a profile's name, but after -- a command
    assert profile.transport == "stdio" and profile.name == "weather"
    assert profile.stdio.command == "weather" and profile.stdio.args == ["-m", "--header", "x", "--"]
    assert [(v.name, v.value, v.secret) for v in profile.stdio.env] == [
        ("API_TOKEN", "s3cret", True),
        ("MODE", "fast", False),
    ]


def test_window_target_demo_over_stdio_names_the_program(store: ProfileStore) -> None:
    profile = _unsaved(_resolve(["--", sys.executable, "-m", "inspector.demo"], store))
    assert profile.name == Path(sys.executable).name and profile.stdio.args == ["-m", "inspector.demo"]


def test_window_target_command_on_path_without_dashes_keeps_its_words(store: ProfileStore) -> None:
    argv = ["-e", "K=V", "uvx", "srv", "--transport", "sse", "-e", "x"]
    profile = _unsaved(_resolve(argv, store, frozenset({"uvx"})))
    assert profile.stdio.command == "uvx" and profile.stdio.args == ["srv", "--transport", "sse", "-e", "x"]
    assert [(v.name, v.value) for v in profile.stdio.env] == [("K", "V")]


def test_window_target_config_file_entries(store: ProfileStore, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    servers = {
        "local": {"command": "node", "args": ["build/index.js", "arg1"], "env": {"GITHUB_TOKEN": "g", "A": "1"}},
        "web": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Api-Key": "k"}},
    }
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    local = _unsaved(_resolve(["--config", str(path), "--server", "local", "-e", "A=2"], store))
    assert local.name == "local" and local.stdio.command == "node" and local.stdio.args == ["build/index.js", "arg1"]
    assert [(v.name, v.value, v.secret) for v in local.stdio.env] == [("GITHUB_TOKEN", "g", True), ("A", "2", False)]
    web = _unsaved(_resolve(["--config", str(path), "--server", "web"], store))
    assert web.name == "web" and web.transport == "http" and web.http.url == "http://127.0.0.1:9/mcp"
    assert [(h.name, h.value, h.secret) for h in web.http.headers] == [("X-Api-Key", "k", True)]
    replaced = _unsaved(_resolve(["--config", str(path), "--server", "web", "--header", "X-B: 2"], store))
    assert [(h.name, h.value) for h in replaced.http.headers] == [("X-B", "2")]
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"mcpServers": {"only": servers["local"]}}), encoding="utf-8")
    assert _unsaved(_resolve(["--config", str(one)], store)).name == "only"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope"], "no saved profile named 'nope', and it is neither an http(s) URL nor a command on PATH "
         "(profiles: 'weather', 'npx')"),
        (["ftp://127.0.0.1/x"], "'ftp://127.0.0.1/x': only http:// and https:// URLs can be opened"),
        (["http://"], "'http://' is not a URL with a host"),
        (["--"], "-- must be followed by the command that starts the server"),
        (["-e", "K=V", "--"], "-- must be followed by the command that starts the server"),
        (["--", "no-such-program", "-x"], "'no-such-program' (after --) is not a command on PATH nor a path to a "
         "program"),
        (["--", "--cli"], "'--cli' (after --) is not a command on PATH nor a path to a program"),
        (["--header", "X: 1", "--", "sh"], "--header 'Name: value' is sent to a URL; a command takes -e KEY=VALUE"),
        (["--transport", "sse", "--", "sh"], "--transport applies to a URL, not to a command (it runs over stdio)"),
        (["-e", "K=V", "http://127.0.0.1:9/mcp"],
         "-e KEY=VALUE sets a command's environment; a URL takes --header 'Name: value'"),
        (["http://127.0.0.1:9/mcp", "--header", "no colon"], "--header 'no colon': give it as 'Name: value'"),
        (["-e", "=V", "--", "sh"], "-e '=V': give it as KEY=VALUE"),
        (["-e", "NOVALUE", "--", "sh"], "-e 'NOVALUE': give it as KEY=VALUE"),
        (["--header", "X: 1"], "--header needs a server to open (a URL, or a command after --)"),
        (["--transport", "http"], "--transport needs a server to open (a URL, or a command after --)"),
        (["--server", "web"], "--server NAME needs --config FILE (a saved profile is given by its name alone)"),
        (["--config", "f.json", "http://127.0.0.1:9/mcp"], "give either --config FILE or a server to open, not both"),
        (["--config", "f.json", "--", "sh"], "give either --config FILE or a server to open, not both"),
        (["weather", "extra"], "unexpected 'extra' after 'weather' (one profile or URL; a command: after --)"),
        (["http://127.0.0.1:9/mcp", "extra"],
         "unexpected 'extra' after 'http://127.0.0.1:9/mcp' (one profile or URL; a command: after --)"),
        (["weather", "--header", "X: 1"], "unexpected '--header' after 'weather' (one profile or URL; a command: "
         "after --)"),
        (["--header", "X: 1", "weather"], "--header does not apply to the saved profile 'weather' (edit the profile)"),
    ],
)  # fmt: skip
def test_window_target_usage_errors_are_one_line_and_exit_4(
    store: ProfileStore, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(TargetError) as raised:
        _resolve(argv, store)
    assert str(raised.value) == message
    assert main(argv) == USAGE_EXIT
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"mcp-inspect: {message}"] and captured.out == ""


def test_window_target_config_problems_are_one_line(
    store: ProfileStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}), encoding="utf-8")
    for argv, expected in (
        (["--config", str(path), "--server", "zz"], f"{path}: no server named 'zz'; defined: a, b"),
        (["--config", str(path)], f"{path} defines several servers; choose one with --server (a, b)"),
        (["--config", str(path), "--server", "a", "--header", "X: 1"],
         "--header and --transport apply to a URL; 'a' is a command"),
    ):  # fmt: skip
        assert main(argv) == USAGE_EXIT
        assert capsys.readouterr().err.splitlines() == [f"mcp-inspect: {expected}"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--demo", "http://127.0.0.1:9/mcp"], "give either --demo or a server to open, not both"),
        (["--demo", "--", "sh"], "give either --demo or a server to open, not both"),
        (
            ["--smoke-test", "weather"],
            "--smoke-test connects to the demo server, not to a profile",
        ),
        (["--transport", "ws", "http://127.0.0.1:9/mcp"], "argument --transport: invalid choice: 'ws'"),
        (["--bogus", "http://127.0.0.1:9/mcp"], "unrecognized arguments: --bogus"),
    ],
)
def test_window_target_option_errors_end_with_one_line_and_exit_4(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == USAGE_EXIT
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"mcp-inspect: {message}") and err[0].startswith("usage: mcp-inspect")
