"""A hostile authorization server (tests/servers/oauth_server.py with hostile knobs, real sockets on 127.0.0.1).

Endpoints on plain http at a non-loopback host in every field that names one, tokens that cannot go in a
header, a token response over the size limit, metadata that is missing, HTML, not JSON, lacks fields or is a
gzip bomb, no registration endpoint. Each case runs over the real CLI (``--auto-approve``: exit 1, one clear
line, no traceback) and in-process (the error names the endpoint or field and the rule). The non-loopback
host ``auth.example.test`` is never resolved: the rule refuses it before any request, and the server's
request log shows nothing was asked past the document that named it.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx2
import pytest
from asynckit import run
from mcp.client.auth import OAuthFlowError
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from memkit import Measured, run_measured
from servers.oauth_server import RawAnswer, RunningServer, ServerOptions, running_server

from inspector.auth import build_oauth_auth
from inspector.auth.interactive import BrowserAuthorizer
from inspector.auth.urls import check_oauth_url, is_loopback_host, oauth_url_problem
from inspector.transports.base import message_of
from inspector.transports.http_common import make_client

EVIL = "http://auth.example.test"
RULE = "is not https (OAuth requires https except on loopback"
ASM_PATH = "/.well-known/oauth-authorization-server"
PRM_PATH = "/.well-known/oauth-protected-resource/mcp"
METADATA_PATHS = {ASM_PATH, PRM_PATH, "/.well-known/openid-configuration", "/.well-known/oauth-protected-resource"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


@cache
def gzip_bomb() -> bytes:
    """128 MiB of JSON whitespace, gzipped to ~130 KB."""
    return gzip.compress(b"{" + b" " * (128 * 1024 * 1024), compresslevel=9)


def html(status: int = 200) -> RawAnswer:
    return RawAnswer(status, b"<!doctype html><title>Login</title>", (("content-type", "text/html"),))


@dataclass(frozen=True)
class Case:
    id: str
    options: Callable[[], ServerOptions]
    expected: tuple[str, ...]
    allowed_paths: frozenset[str] | None = None
    """Every path the server may have been asked for (None: not checked)."""
    max_rss_mb: float | None = None


NO_METADATA = frozenset(METADATA_PATHS)
UNTIL_AUTHORIZE = frozenset({*METADATA_PATHS, "/register", "/authorize"})

CASES = [
    *(
        Case(
            f"http-{name}",
            lambda name=name: ServerOptions(metadata_overrides={name: f"{EVIL}/{name}"}),  # type: ignore[misc]
            ("the authorization server's metadata (http://127.0.0.1:", f"field {name} '{EVIL}/{name}' {RULE}"),
            NO_METADATA,
        )
        for name in ("issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
    ),
    Case(
        "http-authorization_servers",
        lambda: ServerOptions(prm_overrides={"authorization_servers": [EVIL]}),
        ("the protected resource metadata (http://127.0.0.1:", f"field authorization_servers[0] '{EVIL}' {RULE}"),
        frozenset({PRM_PATH}),
    ),
    Case(
        "http-resource_metadata",
        lambda: ServerOptions(challenge_resource_metadata=f"{EVIL}{PRM_PATH}"),
        (f"the MCP server's WWW-Authenticate resource_metadata '{EVIL}{PRM_PATH}' {RULE}",),
        frozenset(),
    ),
    Case(
        "http-redirect-of-authorization",
        lambda: ServerOptions(
            raw={"/authorize": RawAnswer(302, b"", (("location", f"{EVIL}/login"),))},
        ),
        (f"the authorization server's redirect to '{EVIL}/login' {RULE}",),
        UNTIL_AUTHORIZE,
    ),
    Case(
        "token-crlf",
        lambda: ServerOptions(access_token="at-ok\r\nX-Injected: 1"),
        ("refusing the token response: its access_token holds U+000D at position 5", "visible ASCII (RFC 6750)"),
    ),
    Case(
        "token-non-ascii",
        lambda: ServerOptions(access_token="at-\u00e9"),
        ("its access_token holds U+00E9 at position 3", "Authorization header"),
    ),
    Case(
        "token-5-MB",
        lambda: ServerOptions(access_token="at-" + "x" * 5_000_000),
        ("an OAuth response of more than 1 MiB (limit oauth_body_bytes = 1 MiB)",),
        max_rss_mb=300,
    ),
    Case(
        "metadata-404",
        lambda: ServerOptions(metadata_status=404),
        ("the authorization server's metadata could not be read:", f"{ASM_PATH} answered 404 (text/html)"),
    ),
    Case(
        "metadata-500",
        lambda: ServerOptions(metadata_status=500),
        ("the authorization server's metadata could not be read:", f"{ASM_PATH} answered 500 (text/html)"),
    ),
    Case(
        "metadata-html",
        lambda: ServerOptions(raw={ASM_PATH: html()}),
        (
            f"{ASM_PATH} answered 200 with an HTML page (text/html), not JSON",
            "the SDK went on with default endpoints at the MCP server's origin (http://127.0.0.1:",
        ),
    ),
    Case(
        "prm-500",
        lambda: ServerOptions(raw={PRM_PATH: html(500)}),
        (
            "the protected resource metadata could not be read: http://127.0.0.1:",
            f"{PRM_PATH} answered 500 (text/html);",
            "(Protected resource metadata request failed: HTTP 500)",
        ),
    ),
    Case(
        "metadata-not-json",
        lambda: ServerOptions(raw={ASM_PATH: RawAnswer(200, b'{"issuer": "http://127.0.0.1",')}),
        (f"{ASM_PATH} answered 200 (application/json) with something that is not JSON",),
    ),
    Case(
        "metadata-missing-token_endpoint",
        lambda: ServerOptions(metadata_overrides={"token_endpoint": None}),
        (f"{ASM_PATH} answered 200 but its token_endpoint field is missing",),
    ),
    Case(
        "metadata-and-prm-404",
        lambda: ServerOptions(metadata_status=404, raw={PRM_PATH: html(404)}),
        (
            "the protected resource metadata could not be read:",
            f"{PRM_PATH} answered 404 (text/html)",
            "the authorization server's metadata could not be read: http://127.0.0.1:",
        ),
    ),
    Case(
        "metadata-gzip-bomb",
        lambda: ServerOptions(
            raw={
                ASM_PATH: RawAnswer(
                    200, gzip_bomb(), (("content-type", "application/json"), ("content-encoding", "gzip"))
                )
            }
        ),
        ("an OAuth response of more than 1 MiB (limit oauth_body_bytes = 1 MiB)",),
        NO_METADATA,
        max_rss_mb=300,
    ),
    Case(
        "no-registration_endpoint",
        lambda: ServerOptions(dcr=False),
        (
            "the authorization server's metadata (http://127.0.0.1:",
            "has no registration_endpoint: the authorization server offers no dynamic client registration",
            "/register failed: Registration failed: 404",
        ),
    ),
]


def _check_paths(server: RunningServer, case: Case) -> None:
    if case.allowed_paths is None:
        return
    asked = {event["path"] for event in server.events}
    assert asked <= case.allowed_paths, f"asked for {asked - case.allowed_paths}"


# ---------------------------------------------------------------------------------------------------- CLI


def cli(url: str) -> Measured:
    # the readable format: one "error: ..." line (the default prints the same as one {"error": ...} object)
    argv = [
        sys.executable,
        "-m",
        "inspector",
        "--cli",
        url,
        "--method",
        "tools/list",
        "--auto-approve",
        "--format",
        "human",
    ]
    return run_measured([*argv, "--timeout", "20"], timeout=90)


def one_line(result: Measured) -> str:
    assert "Traceback" not in result.stderr and "not holding this lock" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_cli(case: Case) -> None:
    with running_server(case.options()) as server:
        result = cli(server.mcp_url)
        line = one_line(result)
        assert result.returncode == 1, (result.returncode, line)
        assert line.startswith("error: "), line
        for expected in case.expected:
            assert expected in line, line
        assert result.elapsed < 30
        if case.max_rss_mb is not None:
            assert result.peak_rss_mb < case.max_rss_mb, result.peak_rss_mb
        _check_paths(server, case)


# ------------------------------------------------------------------------------------------------ in-process


@dataclass
class MemoryStorage:
    tokens: OAuthToken | None = None
    client: OAuthClientInformationFull | None = None
    stored: list[OAuthToken] = field(default_factory=list)

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.stored.append(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def _initialize(url: str, auth: httpx2.Auth) -> httpx2.Response:
    async with make_client(auth=auth) as client:
        return await client.post(url, json=INITIALIZE, headers=HEADERS)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_in_process(case: Case) -> None:
    with running_server(case.options()) as server:
        storage = MemoryStorage()
        auth = build_oauth_auth(server.mcp_url, auto_approve=True, storage=storage)
        with pytest.raises(Exception) as caught:
            run(lambda: _initialize(server.mcp_url, auth), timeout=30)
        text = message_of(caught.value)
        assert "\n" not in text
        for expected in case.expected:
            assert expected in text, text
        assert storage.stored == []  # nothing refused was kept
        assert auth.steps[-1].status == "failed" and auth.steps[-1].error
        _check_paths(server, case)


def test_the_browser_never_opens_an_http_authorization_endpoint_at_a_non_loopback_host() -> None:
    opened: list[str] = []

    def opener(url: str) -> bool:
        opened.append(url)
        return True

    options = ServerOptions(metadata_overrides={"authorization_endpoint": f"{EVIL}/authorize"})
    with running_server(options) as server:
        auth = build_oauth_auth(server.mcp_url, opener=opener, callback_timeout=5, storage=MemoryStorage())
        with pytest.raises(OAuthFlowError, match=re.escape(f"field authorization_endpoint '{EVIL}/authorize' {RULE}")):
            run(lambda: _initialize(server.mcp_url, auth), timeout=30)
        assert opened == []
        assert {event["path"] for event in server.events} <= NO_METADATA


@pytest.mark.parametrize("url", [f"{EVIL}/authorize?x=1", "https://auth.example.test/a\r\nb", "file:///etc/passwd"])
def test_the_browser_authorizer_checks_the_url_itself(url: str) -> None:
    opened: list[str] = []

    def opener(url: str) -> bool:
        opened.append(url)
        return True

    authorizer = BrowserAuthorizer("http://127.0.0.1:1/callback", opener=opener)

    async def go() -> None:
        await authorizer.redirect_handler(url)

    with pytest.raises(OAuthFlowError, match="refusing to authorize: the authorization URL"):
        run(go)
    assert opened == []


class Delegating(httpx2.Auth):
    """A wrapping Auth that, like many, does not close the flow it delegates to when it is closed itself."""

    def __init__(self, inner: httpx2.Auth) -> None:
        self.inner = inner

    async def async_auth_flow(self, request: httpx2.Request) -> Any:
        flow = self.inner.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return


def test_a_flow_dropped_mid_way_releases_its_lock_from_the_finalizer_task() -> None:
    """A request of the flow fails in ``send`` (the token endpoint refuses connections); the flow generator is
    dropped and later closed by the loop's finalizer, in a task of its own. The SDK's flow lock is released
    there ("The current task is not holding this lock" before) and the next request is not stuck behind it."""
    options = ServerOptions(metadata_overrides={"token_endpoint": "http://127.0.0.1:9/token"})
    with running_server(options) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True, storage=MemoryStorage())

        async def go() -> list[str]:
            failures = []
            async with make_client(auth=Delegating(auth)) as client:
                for _ in range(2):
                    try:
                        await asyncio.wait_for(client.post(server.mcp_url, json=INITIALIZE, headers=HEADERS), 10)
                    except (httpx2.HTTPError, OAuthFlowError) as exc:
                        failures.append(message_of(exc))
                    gc.collect()
                    await asyncio.sleep(0.1)
            return failures

        failures = run(go)  # fails on event-loop errors (the finalizer task's RuntimeError)
        assert len(failures) == 2 and all("connect" in failure.lower() for failure in failures), failures


def test_a_crlf_token_is_not_stored() -> None:
    with running_server(ServerOptions(access_token="at\r\nx")) as server:
        storage = MemoryStorage()
        auth = build_oauth_auth(server.mcp_url, auto_approve=True, storage=storage)
        with pytest.raises(OAuthFlowError, match="U\\+000D at position 2"):
            run(lambda: _initialize(server.mcp_url, auth), timeout=30)
        assert storage.stored == [] and auth.context.current_tokens is None


# ------------------------------------------------------------------------------------------------ the rule


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
        ("http://[::ffff:127.0.0.1]/x", False),
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
