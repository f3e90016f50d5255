"""OAuth end to end against tests/servers/oauth_server.py (the SDK's auth support on 127.0.0.1).

The MCP requests are plain httpx2 requests (initialize, tools/call) so these tests only depend on
inspector.auth; the last test also goes through the inspector's own Connection + HTTP transport when
that transport exists.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import importlib.util
import json
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

import httpx2
import pytest
from keyringkit import MemoryKeyring
from mcp.client.auth import OAuthFlowError
from servers.oauth_server import ADMIN, READ, RunningServer, ServerOptions, running_server

from inspector.auth import AuthStepKind, InspectorOAuthProvider, build_oauth_auth, clear_stored_authorization
from inspector.store.secrets import SERVICE_NAME

T = TypeVar("T")
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def run(coro_fn: Callable[[], Coroutine[Any, Any, T]], timeout: float = 60.0) -> T:
    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), timeout)

    return asyncio.run(main())


@pytest.fixture
def server() -> Iterator[RunningServer]:
    with running_server() as srv:
        yield srv


def _message(response: httpx2.Response) -> dict[str, Any]:
    if "text/event-stream" in response.headers.get("content-type", ""):
        for line in response.text.splitlines():
            if line.startswith("data:"):
                message: dict[str, Any] = json.loads(line[5:])
                return message
    parsed: dict[str, Any] = response.json()
    return parsed


class McpHttp:
    """Just enough Streamable HTTP to initialize and call tools."""

    def __init__(self, url: str, auth: httpx2.Auth) -> None:
        self.url = url
        self.client = httpx2.AsyncClient(auth=auth, timeout=20)
        self.headers = dict(HEADERS)
        self.next_id = 1

    async def __aenter__(self) -> McpHttp:
        try:
            params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
            response = await self.post("initialize", params)
            assert response.status_code == 200, response.text
            self.headers["Mcp-Session-Id"] = response.headers["mcp-session-id"]
            self.headers["MCP-Protocol-Version"] = "2025-11-25"
            await self.client.post(
                self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers
            )
        except BaseException:
            # __aexit__ does not run when __aenter__ fails (an OAuth refusal, a timeout): close the client here,
            # or its pooled connection is left to the garbage collector (an unclosed-socket ResourceWarning).
            await self.client.aclose()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()

    async def post(self, method: str, params: dict[str, Any] | None = None) -> httpx2.Response:
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        return await self.client.post(self.url, json=body, headers=self.headers)

    async def call_tool(self, name: str) -> str:
        response = await self.post("tools/call", {"name": name, "arguments": {}})
        assert response.status_code == 200, response.text
        result = _message(response)["result"]
        text: str = result["content"][0]["text"]
        return text


def _events(server: RunningServer, path: str) -> list[dict[str, Any]]:
    return [event for event in server.events if event["path"] == path]


def _s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def _whoami(server: RunningServer, auth: httpx2.Auth) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        async with McpHttp(server.mcp_url, auth) as mcp:
            found: dict[str, Any] = json.loads(await mcp.call_tool("whoami"))
            return found

    return run(go)


def test_headless_flow_end_to_end_with_dynamic_registration(server: RunningServer) -> None:
    auth = build_oauth_auth(server.mcp_url, auto_approve=True)
    who = _whoami(server, auth)
    assert who["scopes"] == [READ]
    registration = _events(server, "/register")
    assert len(registration) == 1 and who["client_id"] == auth.context.client_info.client_id  # type: ignore[union-attr]
    authorize = _events(server, "/authorize")[0]["query"]
    token = _events(server, "/token")[0]["form"]
    assert authorize["code_challenge_method"] == "S256"
    assert _s256(token["code_verifier"]) == authorize["code_challenge"]
    assert authorize["resource"] == token["resource"] == server.mcp_url
    assert authorize["redirect_uri"].startswith("http://127.0.0.1:")
    kinds = [step.kind for step in auth.steps]
    assert kinds[:5] == [
        AuthStepKind.CHALLENGE,
        AuthStepKind.DISCOVERY,
        AuthStepKind.REGISTRATION,
        AuthStepKind.AUTHORIZATION,
        AuthStepKind.TOKEN,
    ]
    assert auth.steps[3].details.get("iss") == server.base_url


def test_step_up_on_insufficient_scope(server: RunningServer) -> None:
    auth = build_oauth_auth(server.mcp_url, auto_approve=True)

    async def go() -> tuple[str, str]:
        async with McpHttp(server.mcp_url, auth) as mcp:
            return await mcp.call_tool("whoami"), await mcp.call_tool("admin_action")

    who, admin = run(go)
    assert json.loads(who)["scopes"] == [READ] and admin == "admin ok"
    scopes = [event["query"].get("scope") for event in _events(server, "/authorize")]
    assert scopes == [READ, f"{READ} {ADMIN}"]
    assert len(_events(server, "/register")) == 1


def test_preregistered_client_without_dynamic_registration() -> None:
    options = ServerOptions(dcr=False, preregistered={"inspector-app": ("app-secret", "client_secret_basic")})
    with running_server(options) as server:
        auth = build_oauth_auth(
            server.mcp_url, auto_approve=True, client_id="inspector-app", client_secret="app-secret"
        )
        assert _whoami(server, auth)["client_id"] == "inspector-app"
        assert _events(server, "/register") == []
        token = _events(server, "/token")[0]
        assert token["authorization"].startswith("Basic ") and "client_secret" not in token["form"]


def test_cimd_client_id(memory_keyring: MemoryKeyring) -> None:
    with running_server(ServerOptions(cimd=True)) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True, cimd_url="https://inspector.example/client.json")
        assert _whoami(server, auth)["client_id"] == "https://inspector.example/client.json"
        assert _events(server, "/register") == []


@pytest.mark.parametrize("at_root", [False, True])
def test_well_known_fallbacks_without_resource_metadata_in_the_challenge(at_root: bool) -> None:
    with running_server(ServerOptions(resource_metadata_in_challenge=False, prm_at_root=at_root)) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        assert _whoami(server, auth)["scopes"] == [READ]
        prm = [e["path"] for e in server.events if "oauth-protected-resource" in e["path"]]
        expected = ["/.well-known/oauth-protected-resource/mcp"]
        if at_root:
            expected.append("/.well-known/oauth-protected-resource")
        assert prm == expected


@pytest.mark.parametrize("iss", ["wrong", "omit"])
def test_iss_mismatch_is_rejected(iss: Literal["wrong", "omit"]) -> None:
    with running_server(ServerOptions(iss=iss)) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        with pytest.raises(OAuthFlowError, match="iss"):
            _whoami(server, auth)
        assert _events(server, "/token") == []


def test_refresh_when_the_access_token_expires() -> None:
    with running_server(ServerOptions(access_token_ttl=1)) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)

        async def go() -> list[str]:
            async with McpHttp(server.mcp_url, auth) as mcp:
                first = await mcp.call_tool("whoami")
                await asyncio.sleep(1.3)
                second = await mcp.call_tool("whoami")
                return [first, second]

        assert all(json.loads(text)["scopes"] == [READ] for text in run(go))
        grants = [event["form"]["grant_type"] for event in _events(server, "/token")]
        assert grants == ["authorization_code", "refresh_token"]
        assert len(_events(server, "/authorize")) == 1
        assert any(step.kind == AuthStepKind.REFRESH for step in auth.steps)


def test_a_token_the_server_dropped_is_refreshed_not_reauthorized(server: RunningServer) -> None:
    auth = build_oauth_auth(server.mcp_url, auto_approve=True)

    async def go() -> None:
        async with McpHttp(server.mcp_url, auth) as mcp:
            await mcp.call_tool("whoami")
            server.provider.expire_all()
            await mcp.call_tool("whoami")

    run(go)
    grants = [event["form"]["grant_type"] for event in _events(server, "/token")]
    assert grants == ["authorization_code", "refresh_token"]
    assert len(_events(server, "/authorize")) == 1


def test_tokens_live_in_the_keyring_not_on_disk_and_clear_forgets_them(
    server: RunningServer, memory_keyring: MemoryKeyring, session_dirs: dict[str, Path]
) -> None:
    first = build_oauth_auth(server.mcp_url, auto_approve=True)
    _whoami(server, first)
    tokens = first.context.current_tokens
    assert tokens is not None and tokens.refresh_token
    stored = {name: value for (service, name), value in memory_keyring.passwords.items() if service == SERVICE_NAME}
    # the registration is keyed by the issuer of the authorization server that issued it
    assert set(stored) == {
        f"oauth/{server.mcp_url}/tokens",
        f"oauth/{server.mcp_url}/client/{server.base_url}",
        f"oauth/{server.mcp_url}/issuers",
    }
    assert tokens.access_token in stored[f"oauth/{server.mcp_url}/tokens"]
    for root in session_dirs.values():
        files = [p for p in root.rglob("*") if p.is_file()] if root.exists() else []
        for path in files:
            content = path.read_bytes()
            assert tokens.access_token.encode() not in content and tokens.refresh_token.encode() not in content

    # a new session reuses the stored tokens: no new authorization
    second = build_oauth_auth(server.mcp_url, auto_approve=True)
    _whoami(server, second)
    assert len(_events(server, "/authorize")) == 1

    clear_stored_authorization(server.mcp_url)
    assert not any(service == SERVICE_NAME for service, _ in memory_keyring.passwords)
    third = build_oauth_auth(server.mcp_url, auto_approve=True)
    _whoami(server, third)
    assert len(_events(server, "/authorize")) == 2 and len(_events(server, "/register")) == 2


def _browser(opened: list[str]) -> Callable[[str], bool]:
    """Plays the browser: follows the authorization redirects (to the loopback callback) in a thread."""

    def open_url(url: str) -> bool:
        opened.append(url)

        def visit() -> None:
            with httpx2.Client(follow_redirects=True, timeout=10) as client:
                client.get(url)

        threading.Thread(target=visit, daemon=True).start()
        return True

    return open_url


def test_interactive_flow_with_browser_and_loopback_callback(server: RunningServer) -> None:
    opened: list[str] = []
    auth = build_oauth_auth(server.mcp_url, opener=_browser(opened), callback_timeout=20)
    assert _whoami(server, auth)["scopes"] == [READ]
    assert len(opened) == 1 and opened[0].startswith(f"{server.base_url}/authorize?")
    redirect = _events(server, "/authorize")[0]["query"]["redirect_uri"]
    port = int(redirect.split(":")[2].split("/")[0])
    with pytest.raises(OSError):  # the callback is closed after use
        run(lambda: asyncio.open_connection("127.0.0.1", port))
    authorization = next(step for step in auth.steps if step.kind == AuthStepKind.AUTHORIZATION)
    assert authorization.details["state"] == "matches" and authorization.details["iss"] == server.base_url


def test_interactive_flow_times_out_when_nobody_authorizes(server: RunningServer) -> None:
    auth = build_oauth_auth(server.mcp_url, opener=lambda url: False, callback_timeout=0.5)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        _whoami(server, auth)
    assert time.monotonic() - started < 10
    assert auth.steps[-1].status == "failed"


HAS_HTTP_TRANSPORT = importlib.util.find_spec("inspector.transports.http") is not None


@pytest.mark.skipif(not HAS_HTTP_TRANSPORT, reason="inspector/transports/http.py does not exist yet")
def test_connection_over_streamable_http_with_oauth(server: RunningServer) -> None:
    from inspector.client.connection import Connection
    from inspector.transports.http import StreamableHttpTransport

    auth: InspectorOAuthProvider = build_oauth_auth(server.mcp_url, auto_approve=True)

    async def go() -> list[str]:
        async with Connection(StreamableHttpTransport(server.mcp_url, auth=auth)) as connection:
            tools = await connection.list_tools()
            return sorted(tool["name"] for tool in tools["tools"])

    assert run(go) == ["admin_action", "whoami"]
