"""inspector.cli.stored_auth and callback_url: the combination rules, --list-stored-auth, --print-handoff."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from keyringkit import MemoryKeyring
from mcp.shared.auth import OAuthToken
from test_auth_world import run

from inspector.auth.storage import KeyringTokenStorage
from inspector.cli.args import CliOptions
from inspector.cli.callback_url import CALLBACK_URL_ENV, callback_url
from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode
from inspector.cli.stored_auth import check_stored_auth, list_stored_auth, prepare_stored_auth, print_handoff
from inspector.store.profiles import Profile, ProfileStore

URL = "http://127.0.0.1:9/mcp"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv(CALLBACK_URL_ENV, raising=False)
    return tmp_path


def remote(**fields: object) -> CliOptions:
    return CliOptions(target=[URL], url=URL, method="tools/list", **fields)  # type: ignore[arg-type]


def refused(opts: CliOptions) -> str:
    with pytest.raises(UsageError) as info:
        check_stored_auth(opts)
    assert info.value.exit_code == ExitCode.ERROR and info.value.envelope_code == "error"
    return info.value.message


@pytest.mark.parametrize(
    ("opts", "words"),
    [
        (remote(relogin=True, stored_auth_only=True), "--relogin cannot be combined with --stored-auth-only"),
        (remote(relogin=True, use_stored_auth=True), "--relogin cannot be combined with --use-stored-auth"),
        (remote(relogin=True, wait_for_auth=5.0), "--relogin cannot be combined with --use-stored-auth"),
        (remote(relogin=True, list_stored_auth=True), "--relogin cannot be combined with --list-stored-auth"),
        (remote(relogin=True, print_handoff=True), "--relogin cannot be combined with --list-stored-auth"),
        (CliOptions(method="servers/list", relogin=True), "--method servers/list"),
        (remote(no_revoke=True), "--no-revoke requires --relogin"),
        (CliOptions(target=["python", "s.py"], method="ping", relogin=True), "--relogin requires a server URL"),
        (CliOptions(target=["s"], method="ping", use_stored_auth=True), "--use-stored-auth requires a server URL"),
        (CliOptions(demo=True, method="ping", wait_for_auth=1.0), "--wait-for-auth requires a server URL"),
        (remote(wait_for_auth=0.0), "positive number"),
        (CliOptions(print_handoff=True), "--print-handoff requires a server URL"),
        (remote(stored_auth_only=True, auto_approve=True), "--auto-approve"),
        (remote(use_stored_auth=True, headers=[("Authorization", "Bearer x")]), "--header Authorization"),
        (remote(callback_url="http://example.com/cb"), "loopback"),
        (remote(callback_url="https://127.0.0.1/cb"), "http://"),
        (remote(callback_url="http://127.0.0.1:99999/cb"), "not a usable URL"),
        (remote(callback_url="http:///cb"), "needs a host"),
    ],
)
def test_refused_combinations(config: Path, opts: CliOptions, words: str) -> None:
    assert words in refused(opts)


@pytest.mark.parametrize(
    "opts",
    [
        remote(relogin=True, no_revoke=True),
        remote(use_stored_auth=True),
        remote(stored_auth_only=True),
        remote(wait_for_auth=0.5),
        CliOptions(target=["python", "s.py"], method="ping", stored_auth_only=True),  # a no-op for stdio
        CliOptions(server="remote-entry", method="ping", use_stored_auth=True),  # a catalog entry may be a URL
        CliOptions(list_stored_auth=True, callback_url="http://example.com/x"),  # offline: not checked
        CliOptions(method="servers/list", use_stored_auth=True),
        remote(callback_url="http://localhost/cb"),
        remote(callback_url="http://[::1]:0/cb"),
    ],
)
def test_accepted_combinations(config: Path, opts: CliOptions) -> None:
    check_stored_auth(opts)


def test_the_environment_callback_url_is_checked_too(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CALLBACK_URL_ENV, "http://10.0.0.1:6276/cb")
    assert CALLBACK_URL_ENV in refused(remote())
    assert "--callback-url" not in refused(remote())


@pytest.mark.parametrize(
    ("given", "env", "uri", "explicit"),
    [
        (None, "", "http://127.0.0.1:6276/oauth/callback", False),
        (None, "http://localhost:7000/x", "http://localhost:7000/x", True),
        ("http://127.0.0.2/cb?ignored=1", "http://localhost:7000/x", "http://127.0.0.2:80/cb", True),
        ("http://[::1]:8123", "", "http://[::1]:8123/", True),
    ],
)
def test_callback_url_sources(given: str | None, env: str, uri: str, explicit: bool) -> None:
    chosen = callback_url(given, {CALLBACK_URL_ENV: env})
    assert (chosen.redirect_uri(), chosen.given) == (uri, explicit)


def test_callback_url_port_zero_takes_a_port_when_used() -> None:
    assert callback_url("http://127.0.0.1:0/cb", {}).redirect_uri(5123) == "http://127.0.0.1:5123/cb"


def _store_token(url: str) -> None:
    run(lambda: KeyringTokenStorage(url).set_tokens(OAuthToken(access_token="a-secret", expires_in=60)))


def test_list_stored_auth_prints_the_urls_with_a_token(
    config: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    _store_token("HTTP://Example.COM/mcp")
    _store_token(URL)
    KeyringTokenStorage(URL).secrets.delete(f"oauth/{URL}/tokens")  # gone from the keyring: stale index entry
    assert list_stored_auth(CliOptions(list_stored_auth=True)) == ExitCode.SUCCESS
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object, one line
    listed = json.loads(out)
    assert listed["storedServerUrls"] == ["http://example.com/mcp"]
    assert listed["oauthStatePath"] is None
    assert listed["store"]["kind"] == "keyring" and listed["store"]["persistent"] is True
    assert "a-secret" not in out


def test_list_stored_auth_for_people(
    config: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    list_stored_auth(CliOptions(list_stored_auth=True, format="human"))
    assert capsys.readouterr().out == "(no stored OAuth tokens)\n"


def test_print_handoff_without_a_profile(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert print_handoff(CliOptions(print_handoff=True, url=URL + "#frag", method="ping")) == ExitCode.SUCCESS
    handoff = json.loads(capsys.readouterr().out)
    assert handoff["serverUrl"] == URL
    for key in ("deepLink", "portForwardCmd", "oauthStatePath", "apiToken", "profile"):
        assert handoff[key] is None, key
    assert shlex.split(handoff["loginCommand"]) == ["mcp-inspect", URL]  # the window opens the URL itself
    assert URL in " ".join(handoff["loginSteps"])
    assert shlex.split(handoff["waitCommand"]) == [
        "mcp-inspect", "--cli", "--server-url", URL, "--wait-for-auth", "600", "--method", "ping",
    ]  # fmt: skip
    assert handoff["tokenStored"] is False and handoff["transport"] == "http"


def test_print_handoff_login_command_opens_the_url_shell_quoted(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "http://127.0.0.1:9/sse?team=a&b=c"
    print_handoff(CliOptions(print_handoff=True, url=url))
    handoff = json.loads(capsys.readouterr().out)
    assert handoff["loginCommand"] == "mcp-inspect 'http://127.0.0.1:9/sse?team=a&b=c' --transport sse"
    assert handoff["profile"] is None


def test_print_handoff_names_the_profile_that_logs_in(
    config: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ProfileStore()
    store.create(Profile(name="other", transport="http"))
    plain = Profile(name="Plain one", transport="sse")
    plain.http.url = "http://127.0.0.1:9/sse"
    store.create(plain)
    profile = Profile(name="My server", transport="sse")
    profile.http.url = "http://127.0.0.1:9/sse"
    profile.auth.mode = "oauth"
    store.create(profile)
    _store_token("http://127.0.0.1:9/sse")
    print_handoff(CliOptions(print_handoff=True, url="http://127.0.0.1:9/sse", method="tools/call"))
    handoff = json.loads(capsys.readouterr().out)
    assert handoff["loginCommand"] == "mcp-inspect 'My server'"
    assert handoff["profile"] == {"id": profile.id, "name": "My server", "authorization": "oauth"}
    assert handoff["transport"] == "sse" and handoff["tokenStored"] is True
    assert shlex.split(handoff["waitCommand"])[-1] == "tools/list"  # a method that needs no arguments


def test_use_stored_auth_without_a_token_is_auth_required(config: Path, memory_keyring: MemoryKeyring) -> None:
    _store_token("http://127.0.0.1:9/other")
    with pytest.raises(CliFailure) as info:
        prepare_stored_auth(remote(use_stored_auth=True), URL)
    failure = info.value
    assert failure.exit_code == ExitCode.AUTH_REQUIRED and failure.envelope_code == "no_stored_token"
    assert failure.to_json()["url"] == URL and "http://127.0.0.1:9/other" in failure.message
    _store_token(URL)
    prepare_stored_auth(remote(use_stored_auth=True), URL)  # now it is there


def test_wait_for_auth_times_out(config: Path, memory_keyring: MemoryKeyring) -> None:
    with pytest.raises(CliFailure) as info:
        prepare_stored_auth(remote(wait_for_auth=0.2), URL)
    assert info.value.exit_code == ExitCode.AUTH_REQUIRED and info.value.envelope_code == "auth_wait_timeout"


def test_relogin_forgets_the_stored_token(config: Path, memory_keyring: MemoryKeyring) -> None:
    _store_token(URL)
    prepare_stored_auth(remote(relogin=True), URL)  # no metadata stored: nothing to revoke, nothing said
    assert not KeyringTokenStorage(URL).has_stored_token()
