"""Stored authorization side by side with the official inspector CLI: the refused flag combinations (same exit
code, same error code), ``--list-stored-auth`` and ``--print-handoff`` (the official keys that mean something
for us), and ``--use-stored-auth`` / ``--stored-auth-only`` / ``--wait-for-auth`` / ``--relogin`` against an
OAuth-protected server (tests/servers/oauth_server.py) with and without a stored token.

The official CLI's store is its OAuth state file in a throw-away HOME (its secrets in a file there, never the
OS keyring: ``MCP_INSPECTOR_SECRET_STORE=file``); ours is a throw-away keyring file and config dir
(tests/storedauthkit.py). A token is obtained once, the way our window logs in, and given to both.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from servers.oauth_server import RunningServer, running_server
from sidebyside import Outcome, official, ours
from storedauthkit import SharedStore, login_like_the_window

pytestmark = pytest.mark.node

UNREACHABLE = "http://127.0.0.1:9/mcp"  # the discard port: nothing listens (a check that did not fire: exit 4)
OFFICIAL_ENV = {"MCP_INSPECTOR_SECRET_STORE": "file", "MCP_OAUTH_CALLBACK_URL": ""}


@pytest.fixture
def store(tmp_path: Path) -> SharedStore:
    return SharedStore(tmp_path / "ours")


@pytest.fixture
def server() -> Iterator[RunningServer]:
    with running_server() as srv:
        yield srv


def run_both(
    tmp_path: Path, store: SharedStore, *args: str, env: dict[str, str] | None = None
) -> tuple[Outcome, Outcome]:
    theirs = official(*args, home=tmp_path / "home", env={**OFFICIAL_ENV, **(env or {})}, timeout=120)
    mine = ours(*args, home=tmp_path / "ours-home", env={**store.env(), **(env or {})}, timeout=120)
    return theirs, mine


def error_of(outcome: Outcome) -> dict[str, Any]:
    """The one ``{"error": ...}`` envelope on stderr (other stderr lines are warnings)."""
    lines = [line for line in outcome.stderr.splitlines() if line.startswith('{"error"')]
    assert len(lines) == 1, outcome.stderr
    error: dict[str, Any] = json.loads(lines[0])["error"]
    return error


def one_object(outcome: Outcome) -> dict[str, Any]:
    assert outcome.returncode == 0, outcome.stderr
    lines = outcome.stdout.splitlines()
    assert len(lines) == 1, outcome.stdout  # one JSON object on one line
    value: dict[str, Any] = json.loads(lines[0])
    return value


def give_official_the_token(tmp_path: Path, url: str, access_token: str) -> None:
    """What the web inspector leaves behind after a login: the token in the OAuth state file."""
    state = tmp_path / "home" / ".mcp-inspector" / "storage" / "oauth.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({"servers": {url: {"tokens": {"access_token": access_token, "token_type": "Bearer"}}}}))


def stored_token(server: RunningServer, store: SharedStore, tmp_path: Path) -> str:
    """Log in once (as the window), and give the token to the official CLI's store too."""
    login_like_the_window(server.mcp_url, store)
    tokens = store.tokens(server.mcp_url)
    assert tokens is not None
    give_official_the_token(tmp_path, server.mcp_url, tokens["access_token"])
    return str(tokens["access_token"])


# ------------------------------------------------------------------------------------------ refusals

REFUSED = [
    pytest.param(["--no-revoke", "--method", "tools/list", "--server-url", UNREACHABLE], "--no-revoke", id="no-revoke"),
    pytest.param(
        ["--relogin", "--stored-auth-only", "--method", "tools/list", "--server-url", UNREACHABLE],
        "--relogin",
        id="relogin+stored-auth-only",
    ),
    pytest.param(
        ["--relogin", "--use-stored-auth", "--method", "tools/list", "--server-url", UNREACHABLE],
        "--relogin",
        id="relogin+use-stored-auth",
    ),
    pytest.param(
        ["--relogin", "--wait-for-auth", "1", "--method", "tools/list", "--server-url", UNREACHABLE],
        "--relogin",
        id="relogin+wait-for-auth",
    ),
    pytest.param(["--relogin", "--list-stored-auth"], "--relogin", id="relogin+list-stored-auth"),
    pytest.param(["--relogin", "--print-handoff", "--server-url", UNREACHABLE], "--relogin", id="relogin+handoff"),
    pytest.param(["--relogin", "--method", "servers/list"], "--relogin", id="relogin+servers/list"),
    pytest.param(["--relogin", "--method", "tools/list", "no-such-command-xyz"], "--relogin", id="relogin+stdio"),
    pytest.param(
        ["--use-stored-auth", "--method", "tools/list", "no-such-command-xyz"], "--use-stored-auth", id="stored+stdio"
    ),
    pytest.param(
        ["--wait-for-auth", "0", "--method", "tools/list", "--server-url", UNREACHABLE], "--wait-for-auth", id="wait-0"
    ),
    pytest.param(
        ["--wait-for-auth", "soon", "--method", "tools/list", "--server-url", UNREACHABLE],
        "--wait-for-auth",
        id="wait-nan",
    ),
    pytest.param(["--print-handoff"], "--print-handoff", id="handoff-without-url"),
    pytest.param(
        ["--callback-url", "http://example.com/cb", "--method", "tools/list", "--server-url", UNREACHABLE],
        "loopback",
        id="callback-not-loopback",
    ),
    pytest.param(
        ["--callback-url", "https://127.0.0.1/cb", "--method", "tools/list", "--server-url", UNREACHABLE],
        "http",
        id="callback-https",
    ),
    pytest.param(
        ["--callback-url", "not a url", "--method", "tools/list", "--server-url", UNREACHABLE],
        "URL",
        id="callback-garbage",
    ),
]


@pytest.mark.parametrize(("args", "word"), REFUSED)
def test_refused_the_same_way(tmp_path: Path, store: SharedStore, args: list[str], word: str) -> None:
    theirs, mine = run_both(tmp_path, store, *args)
    assert (theirs.returncode, mine.returncode) == (1, 1), (theirs.stderr, mine.stderr)
    for outcome in (theirs, mine):
        error = error_of(outcome)
        assert error["code"] == "error"
        assert word.lower() in error["message"].lower(), error
    assert mine.stdout == ""


def test_a_bad_callback_url_in_the_environment_is_refused_the_same_way(tmp_path: Path, store: SharedStore) -> None:
    args = ("--method", "tools/list", "--server-url", UNREACHABLE)
    theirs, mine = run_both(tmp_path, store, *args, env={"MCP_OAUTH_CALLBACK_URL": "http://192.0.2.1:6276/cb"})
    assert (theirs.returncode, mine.returncode) == (1, 1)
    assert error_of(theirs)["code"] == error_of(mine)["code"] == "error"
    assert "loopback" in error_of(mine)["message"]


# ------------------------------------------------------------------------------------------ offline commands


def test_list_stored_auth_with_nothing_stored(tmp_path: Path, store: SharedStore) -> None:
    theirs, mine = (one_object(o) for o in run_both(tmp_path, store, "--list-stored-auth"))
    assert set(theirs) <= set(mine)  # oauthStatePath, storedServerUrls
    assert theirs["storedServerUrls"] == mine["storedServerUrls"] == []
    assert isinstance(theirs["oauthStatePath"], str) and mine["oauthStatePath"] is None  # a keyring, not a file
    assert mine["store"]["kind"] == "keyring" and mine["store"]["persistent"] is True


def test_list_stored_auth_lists_the_url_with_a_token(server: RunningServer, store: SharedStore, tmp_path: Path) -> None:
    token = stored_token(server, store, tmp_path)
    theirs, mine = run_both(tmp_path, store, "--list-stored-auth", "--format", "json")
    assert one_object(theirs)["storedServerUrls"] == one_object(mine)["storedServerUrls"] == [server.mcp_url]
    assert token not in mine.stdout


def test_print_handoff_keeps_the_official_keys(tmp_path: Path, store: SharedStore) -> None:
    theirs, mine = (
        one_object(o) for o in run_both(tmp_path, store, "--print-handoff", "--server-url", "http://127.0.0.1:9/sse")
    )
    shared = {"serverUrl", "deepLink", "portForwardCmd", "oauthStatePath", "apiToken", "note"}
    assert shared <= set(theirs) and shared <= set(mine)
    assert theirs["serverUrl"] == mine["serverUrl"] == "http://127.0.0.1:9/sse"
    assert "transport=sse" in theirs["deepLink"] and mine["transport"] == "sse"
    for key in ("deepLink", "portForwardCmd", "oauthStatePath", "apiToken"):  # web-inspector things: none here
        assert mine[key] is None, key
    assert (
        mine["waitCommand"]
        == "mcp-inspect --cli --server-url http://127.0.0.1:9/sse --wait-for-auth 600 --method tools/list"
    )
    assert mine["loginCommand"] == "mcp-inspect http://127.0.0.1:9/sse --transport sse"
    assert mine["tokenStored"] is False


# ------------------------------------------------------------------------------------------ connecting


def test_use_stored_auth_without_a_token(tmp_path: Path, store: SharedStore) -> None:
    theirs, mine = run_both(tmp_path, store, "--use-stored-auth", "--method", "tools/list", "--server-url", UNREACHABLE)
    assert (theirs.returncode, mine.returncode) == (3, 3)  # before connecting: not "unreachable"
    assert error_of(theirs)["code"] == error_of(mine)["code"] == "no_stored_token"
    assert error_of(theirs)["url"] == error_of(mine)["url"] == UNREACHABLE


def test_wait_for_auth_times_out_the_same_way(tmp_path: Path, store: SharedStore) -> None:
    args = ("--wait-for-auth", "1", "--method", "tools/list", "--server-url", UNREACHABLE)
    theirs, mine = run_both(tmp_path, store, *args)
    assert (theirs.returncode, mine.returncode) == (3, 3)
    assert error_of(theirs)["code"] == error_of(mine)["code"] == "auth_wait_timeout"


def test_stored_auth_only_without_a_token(server: RunningServer, tmp_path: Path, store: SharedStore) -> None:
    theirs, mine = run_both(tmp_path, store, "--stored-auth-only", "--method", "tools/list", server.mcp_url)
    assert (theirs.returncode, mine.returncode) == (3, 3)
    assert error_of(theirs)["code"] == error_of(mine)["code"] == "auth_required"
    assert not any(event["path"] in ("/register", "/authorize") for event in server.events)  # no login began


def test_stored_auth_only_with_a_stored_token(server: RunningServer, tmp_path: Path, store: SharedStore) -> None:
    stored_token(server, store, tmp_path)
    registered = len([e for e in server.events if e["path"] == "/register"])
    for flag in ("--stored-auth-only", "--use-stored-auth"):
        theirs, mine = run_both(tmp_path, store, flag, "--method", "tools/list", "--server-url", server.mcp_url)
        assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr, mine.stderr)
        names = [sorted(tool["name"] for tool in json.loads(o.stdout)["tools"]) for o in (theirs, mine)]
        assert names[0] == names[1] == ["admin_action", "whoami"]
    assert len([e for e in server.events if e["path"] == "/register"]) == registered  # the stored token sufficed


def test_relogin_without_a_terminal(server: RunningServer, tmp_path: Path, store: SharedStore) -> None:
    stored_token(server, store, tmp_path)
    theirs, mine = run_both(tmp_path, store, "--relogin", "--method", "tools/list", "--server-url", server.mcp_url)
    assert (theirs.returncode, mine.returncode) == (3, 3)  # forgotten, and nobody to log in again
    assert error_of(theirs)["code"] == error_of(mine)["code"] == "auth_required"
    assert store.tokens(server.mcp_url) is None
    listed = run_both(tmp_path, store, "--list-stored-auth")
    assert [one_object(o)["storedServerUrls"] for o in listed] == [[], []]
