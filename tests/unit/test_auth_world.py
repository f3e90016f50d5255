"""Helpers for the inspector.auth unit tests (no tests here): a fake MCP + authorization server behind
``httpx2.MockTransport``.

``FakeWorld`` answers like a protected MCP server (``https://mcp.test/mcp``) and its authorization server
(``issuer``), with knobs for each behaviour the OAuth client must handle, and logs every request.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode

import httpx2
from mcp.client.auth import TokenStorage

from inspector.auth.flow import build_oauth_auth
from inspector.auth.headless import HeadlessAuthorizer
from inspector.auth.provider import InspectorOAuthProvider

T = TypeVar("T")
MCP_URL = "https://mcp.test/mcp"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def run(coro_fn: Callable[[], Coroutine[Any, Any, T]], timeout: float = 30.0) -> T:
    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), timeout)

    return asyncio.run(main())


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


@dataclass
class FakeWorld:
    issuer: str = "https://auth.test"
    as_metadata_url: str | None = None
    """Where the AS metadata is served (default: the RFC 8414 URL of ``issuer``)."""
    prm_url: str | None = "https://mcp.test/.well-known/oauth-protected-resource/mcp"
    www_resource_metadata: bool = True
    www_scope: str | None = None
    prm_scopes: list[str] | None = field(default_factory=lambda: ["read"])
    pkce_methods: list[str] | None = field(default_factory=lambda: ["S256"])
    cimd: bool = False
    dcr: bool = True
    iss_supported: bool = True
    iss_mode: str = "correct"
    auth_methods: list[str] | None = field(
        default_factory=lambda: ["client_secret_basic", "client_secret_post", "none"]
    )
    ttl: int | None = 3600
    registered_method: str | None = "client_secret_post"
    required_scope: str = "read"
    step_up_scope: str | None = None
    """When set: every MCP request needs it too, answered 403 insufficient_scope (scope=this)."""
    grantable: set[str] | None = None
    """Scopes the authorization server grants (None: whatever is asked for)."""
    log: list[httpx2.Request] = field(default_factory=list)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    tokens: dict[str, set[str]] = field(default_factory=dict)
    refresh_tokens: dict[str, set[str]] = field(default_factory=dict)

    # -- plumbing ----------------------------------------------------------------------------------

    def client(self, auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler), auth=auth)

    def requests_to(self, path: str) -> list[httpx2.Request]:
        return [r for r in self.log if r.url.path == path]

    def urls(self) -> list[str]:
        return [str(r.url).split("?")[0] for r in self.log]

    @staticmethod
    def form(request: httpx2.Request) -> dict[str, str]:
        return dict(parse_qsl(request.content.decode()))

    def metadata(self) -> dict[str, Any]:
        iss = self.issuer
        data: dict[str, Any] = {
            "issuer": iss,
            "authorization_endpoint": f"{iss}/authorize",
            "token_endpoint": f"{iss}/token",
            "response_types_supported": ["code"],
        }
        if self.auth_methods is not None:
            data["token_endpoint_auth_methods_supported"] = self.auth_methods
        if self.dcr:
            data["registration_endpoint"] = f"{iss}/register"
        if self.pkce_methods is not None:
            data["code_challenge_methods_supported"] = self.pkce_methods
        if self.iss_supported:
            data["authorization_response_iss_parameter_supported"] = True
        if self.cimd:
            data["client_id_metadata_document_supported"] = True
        return data

    def _challenge(self, status: int, error: str | None, scope: str | None) -> httpx2.Response:
        parts = []
        if error:
            parts.append(f'error="{error}"')
        if scope:
            parts.append(f'scope="{scope}"')
        if self.www_resource_metadata and self.prm_url:
            parts.append(f'resource_metadata="{self.prm_url}"')
        return httpx2.Response(status, headers={"WWW-Authenticate": "Bearer " + ", ".join(parts)}, json={})

    # -- the servers -------------------------------------------------------------------------------

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        self.log.append(request)
        url = str(request.url).split("?")[0]
        if url == MCP_URL:
            return self._mcp(request)
        if url == self.prm_url:
            prm: dict[str, Any] = {"resource": MCP_URL, "authorization_servers": [self.issuer]}
            if self.prm_scopes is not None:
                prm["scopes_supported"] = self.prm_scopes
            return httpx2.Response(200, json=prm)
        metadata_url = self.as_metadata_url or f"{self.issuer}/.well-known/oauth-authorization-server"
        if url == metadata_url:
            return httpx2.Response(200, json=self.metadata())
        if url == f"{self.issuer}/authorize":
            return self._authorize(request)
        if url == f"{self.issuer}/token":
            return self._token(request)
        if url == f"{self.issuer}/register" and self.dcr:
            body = json.loads(request.content)
            reply = {**body, "client_id": "dyn-client"}
            if self.registered_method and self.registered_method != "none":
                reply["client_secret"] = "dyn-secret"
            if self.registered_method:
                reply["token_endpoint_auth_method"] = self.registered_method
            return httpx2.Response(201, json=reply)
        return httpx2.Response(404, json={"error": "not found"})

    def _mcp(self, request: httpx2.Request) -> httpx2.Response:
        auth = request.headers.get("authorization", "")
        scopes = self.tokens.get(auth.removeprefix("Bearer "))
        if scopes is None:
            return self._challenge(401, "invalid_token" if auth else None, self.www_scope)
        if self.required_scope not in scopes:
            return self._challenge(403, "insufficient_scope", self.required_scope)
        if self.step_up_scope and self.step_up_scope not in scopes:
            return self._challenge(403, "insufficient_scope", self.step_up_scope)
        return httpx2.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": {}})

    def _authorize(self, request: httpx2.Request) -> httpx2.Response:
        query = dict(parse_qsl(request.url.query.decode()))
        code = secrets.token_urlsafe(8)
        self.codes[code] = query
        params = {"code": code, "state": query.get("state", "")}
        if self.iss_mode == "correct":
            params["iss"] = self.issuer
        elif self.iss_mode == "wrong":
            params["iss"] = "https://evil.test"
        location = f"{query['redirect_uri']}?{urlencode(params)}"
        return httpx2.Response(302, headers={"Location": location})

    def _issue(self, scopes: set[str]) -> httpx2.Response:
        access, refresh = f"at-{secrets.token_urlsafe(6)}", f"rt-{secrets.token_urlsafe(6)}"
        self.tokens[access] = scopes
        self.refresh_tokens[refresh] = scopes
        body: dict[str, Any] = {"access_token": access, "token_type": "Bearer", "refresh_token": refresh}
        if self.ttl is not None:
            body["expires_in"] = self.ttl
        body["scope"] = " ".join(sorted(scopes))
        return httpx2.Response(200, json=body)

    def _token(self, request: httpx2.Request) -> httpx2.Response:
        form = self.form(request)
        if form.get("grant_type") == "refresh_token":
            scopes = self.refresh_tokens.pop(form.get("refresh_token", ""), None)
            if scopes is None:
                return httpx2.Response(400, json={"error": "invalid_grant"})
            return self._issue(scopes)
        query = self.codes.pop(form.get("code", ""), None)
        if query is None or s256(form.get("code_verifier", "")) != query.get("code_challenge"):
            return httpx2.Response(400, json={"error": "invalid_grant"})
        scopes = set((query.get("scope") or self.required_scope).split())
        return self._issue(scopes & self.grantable if self.grantable is not None else scopes)


def fake_auth(
    world: FakeWorld, *, storage: TokenStorage | None = None, **kwargs: Any
) -> tuple[InspectorOAuthProvider, list[Any]]:
    """``build_oauth_auth`` in auto-approve mode, its authorization requests sent through ``world``."""
    steps: list[Any] = []
    auth = build_oauth_auth(MCP_URL, auto_approve=True, storage=storage, on_step=steps.append, **kwargs)
    redirect = str(auth.context.client_metadata.redirect_uris[0])  # type: ignore[index]
    authorizer = HeadlessAuthorizer(redirect, recorder=auth.recorder, client_factory=world.client)
    auth.context.redirect_handler = authorizer.redirect_handler
    auth.context.callback_handler = authorizer.callback_handler
    return auth, steps


async def call(world: FakeWorld, auth: httpx2.Auth, headers: dict[str, str] | None = None) -> httpx2.Response:
    async with world.client(auth) as client:
        return await client.post(MCP_URL, json=INIT, headers=headers or {"MCP-Protocol-Version": "2025-11-25"})
