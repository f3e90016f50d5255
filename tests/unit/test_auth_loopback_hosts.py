"""The loopback hosts an interactive login may receive its redirect on (``--callback-url``), and the refusal
of a login nobody may do (``--stored-auth-only``, no terminal)."""

from __future__ import annotations

import socket

import httpx2
import pytest
from test_auth_world import run

from inspector.auth.callback import LoopbackCallback, listen_host
from inspector.auth.flow import build_oauth_auth
from inspector.auth.interactive import BrowserAuthorizer
from inspector.auth.no_interaction import InteractionRefused, NoInteraction, interaction_refused


@pytest.mark.parametrize(
    ("hostname", "listen"),
    [("localhost", "127.0.0.1"), ("127.0.0.1", "127.0.0.1"), ("127.1.2.3", "127.1.2.3"), ("[::1]", "::1")],
)
def test_loopback_names_and_where_they_are_received(hostname: str, listen: str) -> None:
    assert listen_host(hostname) == listen


@pytest.mark.parametrize("hostname", ["example.com", "10.0.0.1", "0.0.0.0", "::", "localhost.example.com", ""])
def test_anything_else_is_not_loopback(hostname: str) -> None:
    assert listen_host(hostname) is None


@pytest.mark.parametrize(
    "uri", ["https://127.0.0.1:1/cb", "http://example.com:1/cb", "http://0.0.0.0:1/cb", "http://127.0.0.1:99999/cb"]
)
def test_an_interactive_redirect_must_be_http_on_loopback(uri: str) -> None:
    with pytest.raises(ValueError, match="redirect URI"):
        BrowserAuthorizer(uri)


def test_a_redirect_without_a_port_is_port_80() -> None:
    assert BrowserAuthorizer("http://localhost/cb")._port == 80


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_the_callback_listens_where_the_redirect_uri_says() -> None:
    port = _free_port()
    opened: list[str] = []

    async def go() -> str | None:
        authorizer = BrowserAuthorizer(f"http://localhost:{port}/my/cb", opener=opened.append, timeout=10)  # type: ignore[arg-type]
        await authorizer.redirect_handler("https://as.test/authorize?state=s1")
        async with httpx2.AsyncClient() as browser:  # what the authorization server redirects the browser to
            wrong = await browser.get(f"http://127.0.0.1:{port}/callback?code=c0&state=s1")
            page = await browser.get(f"http://127.0.0.1:{port}/my/cb?code=c1&state=s1")
        assert (wrong.status_code, page.status_code) == (404, 200)
        result = await authorizer.callback_handler()
        return result.code

    assert run(go) == "c1"
    assert opened == ["https://as.test/authorize?state=s1"]


def test_the_callback_can_listen_on_ipv6_loopback() -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")

    async def go() -> str:
        async with LoopbackCallback(host="::1") as callback:
            return callback.redirect_uri

    assert run(go).startswith("http://[::1]:")


def test_a_login_nobody_may_do_is_refused_with_the_reason() -> None:
    refusing = NoInteraction("--stored-auth-only is set")
    with pytest.raises(InteractionRefused, match="--stored-auth-only is set"):
        run(lambda: refusing.redirect_handler("https://as.test/authorize"))
    wrapped = RuntimeError("transport failed")
    wrapped.__cause__ = InteractionRefused("x")
    assert interaction_refused(wrapped) is wrapped.__cause__
    assert interaction_refused(RuntimeError("other")) is None


def test_build_oauth_auth_without_interaction_uses_the_refusal() -> None:
    auth = build_oauth_auth("https://mcp.test/mcp", no_interaction="nobody is there")
    handler = auth.context.redirect_handler
    assert handler is not None

    async def go() -> None:
        await handler("https://as.test/authorize")

    with pytest.raises(InteractionRefused, match="nobody is there"):
        run(go)
