"""A hostile authorization server: endpoints on plain http at a non-loopback host, tokens that cannot go in a
header, a token response over the size limit. Each run of the real CLI (``--auto-approve``) ends with one clear
line naming the endpoint or field and the rule, no traceback, and nothing fetched that breaks the rule."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from memkit import run_measured
from servers.oauth_server import ServerOptions, running_server

from inspector.auth.urls import check_oauth_url, is_loopback_host, oauth_url_problem

EVIL = "http://auth.example.test"


def cli(url: str) -> Any:
    argv = [sys.executable, "-m", "inspector", "--cli", url, "--method", "tools/list", "--auto-approve"]
    return run_measured([*argv, "--timeout", "20"], timeout=90)


def one_line(result: Any) -> str:
    assert "Traceback" not in result.stderr and "not holding this lock" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("field", ["authorization_endpoint", "token_endpoint", "registration_endpoint"])
def test_an_http_endpoint_at_a_non_loopback_host_is_refused_before_anything_is_fetched(field: str) -> None:
    options = ServerOptions(metadata_overrides={field: f"{EVIL}/{field}"})
    with running_server(options) as server:
        result = cli(server.mcp_url)
        line = one_line(result)
        assert result.returncode != 0
        assert field in line and "is not https" in line and "except on loopback" in line, line
        # nothing was asked of the authorization server past its metadata (no /authorize, /token)
        paths = {event["path"] for event in server.events}
        assert "/authorize" not in paths and "/token" not in paths, paths


@pytest.mark.parametrize(
    ("token", "shown"), [("at-ok\r\nX-Injected: 1", "U+000D at position 5"), ("at-\u00e9", "U+00E9 at position 3")]
)
def test_a_token_that_cannot_go_in_a_header_is_refused_with_one_line(token: str, shown: str) -> None:
    with running_server(ServerOptions(access_token=token)) as server:
        result = cli(server.mcp_url)
        line = one_line(result)
        assert result.returncode != 0
        assert "access_token" in line and shown in line and "visible ASCII" in line, line


def test_a_5_mb_token_breaks_the_oauth_body_limit() -> None:
    with running_server(ServerOptions(access_token="at-" + "x" * 5_000_000)) as server:
        result = cli(server.mcp_url)
        line = one_line(result)
        assert result.returncode != 0
        assert "oauth_body_bytes = 1 MiB" in line, line
        assert result.peak_rss_mb < 300


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://auth.example.com/authorize", True),
        ("http://127.0.0.1:8080/authorize", True),
        ("http://127.5.6.7/x", True),
        ("http://[::1]:9/x", True),
        ("http://localhost/x", True),
        ("http://app.localhost/x", True),
        ("http://auth.example.test/authorize", False),
        ("http://10.0.0.1/x", False),
        ("http://localhost.evil.test/x", False),
        ("ftp://auth.example.com/x", False),
        ("javascript:alert(1)", False),
        ("https://auth.example.com/a b", False),
        ("https:///nohost", False),
    ],
)
def test_the_rule(url: str, ok: bool) -> None:
    assert (oauth_url_problem(url) is None) is ok
    if not ok:
        with pytest.raises(ValueError, match="the thing"):
            check_oauth_url(url, "the thing")


def test_loopback_hosts() -> None:
    assert is_loopback_host("127.0.0.1") and is_loopback_host("[::1]") and is_loopback_host("LOCALHOST.")
    assert not is_loopback_host("128.0.0.1") and not is_loopback_host("example.com")


@pytest.mark.parametrize("status", [404, 500])
def test_unreadable_metadata_is_named_instead_of_the_fallbacks_failure(status: int) -> None:
    with running_server(ServerOptions(metadata_status=status)) as server:
        result = cli(server.mcp_url)
        line = one_line(result)
        assert result.returncode != 0
        assert "the authorization server's metadata could not be read" in line, line
        assert f"oauth-authorization-server answered {status} (text/html)" in line, line
