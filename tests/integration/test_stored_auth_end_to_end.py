"""Stored authorization end to end: a login made the window's way, used, awaited and revoked by the CLI.

The OAuth-protected server is tests/servers/oauth_server.py (in a thread); "the keyring" is a throw-away file
shared by the test and the processes it starts (tests/filekeyring.py, tests/storedauthkit.py), never the real one.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from servers.oauth_server import RawAnswer, RunningServer, running_server
from sidebyside import ours
from storedauthkit import SharedStore, login_like_the_window


@pytest.fixture
def server() -> Iterator[RunningServer]:
    with running_server() as srv:
        srv.layer.options.metadata_overrides["revocation_endpoint"] = f"{srv.base_url}/revoke"
        srv.layer.options.raw["/revoke"] = RawAnswer(status=200, body=b"", headers=())
        yield srv


@pytest.fixture
def store(tmp_path: Path) -> SharedStore:
    return SharedStore(tmp_path / "shared")


def _events(server: RunningServer, path: str) -> list[dict[str, Any]]:
    return [event for event in server.events if event["path"] == path]


def _tool_names(stdout: str) -> list[str]:
    return sorted(tool["name"] for tool in json.loads(stdout)["tools"])


def _error(stderr: str) -> dict[str, Any]:
    lines = [line for line in stderr.splitlines() if line.startswith("{")]
    assert len(lines) == 1, stderr
    error: dict[str, Any] = json.loads(lines[0])["error"]
    return error


def test_a_token_the_window_stored_is_used_by_the_cli(server: RunningServer, store: SharedStore) -> None:
    login_like_the_window(server.mcp_url, store)
    assert store.indexed() == [server.mcp_url]
    token = store.tokens(server.mcp_url)
    assert token is not None
    for flags in (["--use-stored-auth"], ["--stored-auth-only"], []):  # (none: on the server's 401, no terminal)
        registered = len(_events(server, "/register"))
        result = ours(*flags, "--method", "tools/list", server.mcp_url, env=store.env())
        assert result.returncode == 0, result.stderr
        assert _tool_names(result.stdout) == ["admin_action", "whoami"]
        assert len(_events(server, "/register")) == registered  # nothing new registered: the stored token did it
    listed = ours("--list-stored-auth", env=store.env())
    assert json.loads(listed.stdout)["storedServerUrls"] == [server.mcp_url]
    assert token["access_token"] not in listed.stdout


def test_wait_for_auth_goes_on_once_the_window_logged_in(server: RunningServer, store: SharedStore) -> None:
    argv = [sys.executable, "-m", "inspector", "--cli", "--wait-for-auth", "60", "--method", "tools/list"]
    env = {**os.environ, **store.env()}
    with subprocess.Popen(
        [*argv, "--server-url", server.mcp_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as proc:
        time.sleep(1.5)
        assert proc.poll() is None, proc.communicate()  # still waiting: nothing stored yet
        assert not any(event["path"] == "/mcp" for event in server.events)  # and not connected
        login_like_the_window(server.mcp_url, store)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert _tool_names(out) == ["admin_action", "whoami"]


def test_relogin_revokes_then_forgets_and_nobody_logs_in_without_a_terminal(
    server: RunningServer, store: SharedStore
) -> None:
    login_like_the_window(server.mcp_url, store)
    stored = store.tokens(server.mcp_url)
    assert stored is not None and stored.get("refresh_token")
    registered = len(_events(server, "/register"))
    (key,) = [key for key in store.stored_keys() if key.startswith(f"oauth/{server.mcp_url}/client/")]
    client = json.loads(store.keyring().get_password("mcp-inspector-desktop", key) or "{}")
    result = ours("--relogin", "--method", "tools/list", server.mcp_url, env=store.env(), timeout=60)
    assert result.returncode == 3, result.stderr  # forgotten; a new login would need a person
    assert _error(result.stderr)["code"] == "auth_required"
    (revocation,) = _events(server, "/revoke")
    assert revocation["method"] == "POST"
    assert revocation["form"]["token"] == stored["refresh_token"]
    assert revocation["form"]["token_type_hint"] == "refresh_token"
    # authenticated as the client the tokens were issued to (a confidential one here: HTTP Basic, RFC 7009 2.1)
    basic = base64.b64decode(revocation["authorization"].removeprefix("Basic ")).decode()
    assert basic == f"{client['client_id']}:{client['client_secret']}"
    assert store.stored_keys() == [] and store.indexed() == []  # tokens and registration forgotten
    assert len(_events(server, "/register")) == registered  # no registration for a login that cannot happen


def test_no_revoke_only_forgets(server: RunningServer, store: SharedStore) -> None:
    login_like_the_window(server.mcp_url, store)
    result = ours("--relogin", "--no-revoke", "--method", "tools/list", server.mcp_url, env=store.env())
    assert result.returncode == 3, result.stderr
    assert _events(server, "/revoke") == []
    assert store.tokens(server.mcp_url) is None


def test_a_failed_revocation_is_a_warning_and_the_token_is_forgotten(server: RunningServer, store: SharedStore) -> None:
    server.layer.options.raw["/revoke"] = RawAnswer(status=503, body=b"down", headers=(("content-type", "text/plain"),))
    login_like_the_window(server.mcp_url, store)
    result = ours("--relogin", "--method", "tools/list", server.mcp_url, env=store.env())
    assert result.returncode == 3
    assert "could not revoke the OAuth grant" in result.stderr and "503" in result.stderr
    assert store.tokens(server.mcp_url) is None
    quiet = ours("--relogin", "-q", "--method", "tools/list", server.mcp_url, env=store.env())
    assert "could not revoke" not in quiet.stderr  # (nothing left to revoke anyway, and -q says nothing)


_BROWSER = """
import sys
with open(sys.argv[1], "a", encoding="utf-8") as handle:
    handle.write(sys.argv[2] + "\\n")
"""


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_the_interactive_login_listens_on_the_callback_url(
    server: RunningServer, store: SharedStore, tmp_path: Path
) -> None:
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.py"
    script.write_text(_BROWSER)
    callback = f"http://localhost:{_free_port()}/my/callback"
    env = {
        **os.environ,
        **store.env(),
        "BROWSER": f"{sys.executable} {script} {opened} %s",
        "MCP_AUTO_OPEN_ENABLED": "true",  # no terminal here: open the browser anyway, as the official CLI
    }
    argv = [sys.executable, "-m", "inspector", "--cli", server.mcp_url, "--method", "tools/list"]
    with subprocess.Popen(
        [*argv, "--callback-url", callback],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as proc:
        deadline = time.monotonic() + 60
        while not opened.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert opened.exists(), proc.communicate()
        authorization_url = opened.read_text().strip()
        answer = httpx2.get(authorization_url, follow_redirects=False)  # the "browser": the AS approves at once
        location = answer.headers["location"]
        assert location.startswith(callback + "?")
        page = httpx2.get(location.replace("localhost", "127.0.0.1"))
        assert page.status_code == 200 and "Authorization complete" in page.text
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert _tool_names(out) == ["admin_action", "whoami"]
    (authorize,) = _events(server, "/authorize")
    assert authorize["query"]["redirect_uri"] == callback
    assert store.tokens(server.mcp_url) is not None  # the login is kept for the window too
