"""An OAuth-protected MCP server on 127.0.0.1 for testing the inspector's authorization (SDK auth only).

One process serves both roles, built from the SDK's auth support:

* the MCP server (``/mcp``): an ``MCPServer`` with ``auth=AuthSettings(...)`` and the in-memory
  authorization-server provider below, so the SDK's bearer middleware answers 401 with
  ``resource_metadata``, checks the required scope (``mcp:read``) and that each token was issued for this
  resource (RFC 8707), and the SDK serves the protected-resource metadata at
  ``/.well-known/oauth-protected-resource/mcp``;
* the authorization server (issuer = the base URL): the SDK's ``/authorize``, ``/token`` and ``/register``
  handlers. The provider approves at once (no login page): ``/authorize`` redirects straight back with
  ``code``, ``state`` and the RFC 9207 ``iss``. Every client may use any loopback redirect port
  (RFC 8252 section 7.3) and every registered client may ask for all scopes.

A thin ASGI layer in front adds what the SDK does not do on its own: the authorization-server metadata
with ``authorization_response_iss_parameter_supported`` (and ``client_id_metadata_document_supported``
with ``cimd``), step-up (``tools/call`` of ``admin_action`` needs ``mcp:admin``: 403 ``insufficient_scope``
with the wider ``scope``), the test knobs of :class:`ServerOptions`, and ``/_test/events`` (every request
to the authorization server, with its query/form/JSON) and ``/_test/expire`` (expire all access tokens).
The auth extensions (DPoP, client credentials, jwt-bearer, the enterprise IdP at ``/idp``) are in
tests/servers/oauth_extensions.py, switched on by ``ServerOptions.extensions``.

Run ``python tests/servers/oauth_server.py [--port N] [--no-dcr] [--client ID:SECRET[:METHOD]] ...``; it
prints ``LISTENING <mcp url>`` when ready. Tests use :func:`running_server` (a thread).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl

import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import InvalidRedirectUriError, OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if __package__ in (None, ""):  # run as a script (python tests/servers/oauth_server.py): tests/ is not on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from servers.oauth_extensions import ExtensionOptions, Extensions, Problem, form_of

READ, ADMIN = "mcp:read", "mcp:admin"
ALL_SCOPES = [READ, ADMIN]
ADMIN_TOOL = "admin_action"
WRONG_ISSUER = "https://evil.example.com"


@dataclass
class ServerOptions:
    dcr: bool = True
    """Dynamic client registration (``/register`` and ``registration_endpoint``)."""
    cimd: bool = False
    """Advertise CIMD; any https ``client_id`` is then accepted as a public client (nothing is fetched)."""
    preregistered: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    """client_id -> (secret, token endpoint auth method)."""
    resource_metadata_in_challenge: bool = True
    """False: 401/403 carry no ``resource_metadata`` (the client must try the well-known URLs)."""
    prm_at_root: bool = False
    """Serve the protected-resource metadata at the root well-known URL instead of the path one."""
    access_token_ttl: int = 3600
    iss: Literal["correct", "wrong", "omit"] = "correct"
    advertise_iss: bool = True
    advertise_pkce: bool = True
    access_token: str | None = None
    """Issue this access token instead of a random one (hostile values: CR/LF, megabytes)."""
    metadata_overrides: dict[str, Any] = field(default_factory=dict)
    """Merged into the authorization-server metadata (e.g. an ``http://`` endpoint at a non-loopback host);
    a value of None removes the field."""
    prm_overrides: dict[str, Any] = field(default_factory=dict)
    """Merged into the protected-resource metadata the same way."""
    metadata_status: int = 200
    """Status of the authorization-server metadata answer; anything else is answered with an HTML page, and
    registration is not offered at the MCP server's origin either (what a misconfigured server looks like)."""
    challenge_resource_metadata: str | None = None
    """The ``resource_metadata`` URL put in 401/403 challenges instead of the one this server serves."""
    raw: dict[str, RawAnswer] = field(default_factory=dict)
    """path -> the exact answer to any request for it (bodies that are not JSON, gzip bombs, redirects)."""
    extensions: ExtensionOptions = field(default_factory=ExtensionOptions)
    """DPoP, client credentials, jwt-bearer, the enterprise IdP (tests/servers/oauth_extensions.py)."""


@dataclass(frozen=True)
class RawAnswer:
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("content-type", "application/json"),)


LOOPBACK_REDIRECTS: list[AnyUrl] = [AnyUrl("http://127.0.0.1/callback"), AnyUrl("http://127.0.0.1/oauth/callback")]
"""What pre-registered and CIMD clients registered: the window's path and the CLI's default (the official CLI's),
on any loopback port."""


class LoopbackClient(OAuthClientInformationFull):
    """A client whose loopback redirect URIs match on any port (RFC 8252 section 7.3)."""

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        if redirect_uri is not None and redirect_uri.host in ("127.0.0.1", "localhost", "::1", "[::1]"):
            for registered in self.redirect_uris or []:
                if (registered.scheme, registered.host, registered.path) == (
                    redirect_uri.scheme,
                    redirect_uri.host,
                    redirect_uri.path,
                ):
                    return redirect_uri
            raise InvalidRedirectUriError(f"Redirect URI '{redirect_uri}' not registered for client")
        return super().validate_redirect_uri(redirect_uri)


class Provider:
    """An in-memory, auto-approving ``OAuthAuthorizationServerProvider``."""

    def __init__(self, issuer: str, options: ServerOptions) -> None:
        self.issuer = issuer
        self.options = options
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.trusted: list[Provider] = [self]
        """Whose access tokens the MCP server accepts (tests of an authorization-server change edit it)."""
        for client_id, (secret, method) in options.preregistered.items():
            self.clients[client_id] = LoopbackClient(
                client_id=client_id,
                client_secret=secret,
                token_endpoint_auth_method=method,
                redirect_uris=LOOPBACK_REDIRECTS,
                scope=" ".join(ALL_SCOPES),
            )

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        if client_id in self.clients:
            return self.clients[client_id]
        if self.options.cimd and client_id.startswith("https://"):
            return LoopbackClient(
                client_id=client_id,
                token_endpoint_auth_method="none",
                redirect_uris=LOOPBACK_REDIRECTS,
                scope=" ".join(ALL_SCOPES),
            )
        return None

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        client_info.scope = " ".join(ALL_SCOPES)  # RFC 7591: the server may widen what was asked for
        self.clients[client_info.client_id] = LoopbackClient.model_validate(client_info.model_dump())

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [READ],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        iss = {"correct": self.issuer, "wrong": WRONG_ISSUER, "omit": None}[self.options.iss]
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=iss)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = f"at-{secrets.token_urlsafe(24)}", f"rt-{secrets.token_urlsafe(24)}"
        if self.options.access_token is not None:
            access = self.options.access_token
        ttl = self.options.access_token_ttl
        # the server-side expiry is rounded down to a second: +1 so the client (which knows `ttl`) refreshes first
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=int(time.time()) + ttl + 1, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource)
        return OAuthToken(access_token=access, expires_in=ttl, scope=" ".join(scopes), refresh_token=refresh)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)  # rotate
        return self._issue(client.client_id, scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = next((p.access[token] for p in self.trusted if token in p.access), None)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    async def exchange_identity_assertion(self, client: OAuthClientInformationFull, params: Any) -> OAuthToken:
        raise TokenError(error="unsupported_grant_type", error_description="not supported here")

    def expire_all(self) -> None:
        for token in self.access.values():
            token.expires_at = int(time.time()) - 1


def build_mcp(base_url: str, provider: Provider) -> MCPServer:
    mcp = MCPServer(
        "oauth-test",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base_url,  # type: ignore[arg-type]  # a str keeps the path-less form
            resource_server_url=f"{base_url}/mcp",  # type: ignore[arg-type]
            required_scopes=[READ],
            client_registration_options=ClientRegistrationOptions(
                enabled=provider.options.dcr, valid_scopes=ALL_SCOPES, default_scopes=[READ]
            ),
            validate_token_resource=True,
        ),
    )

    @mcp.tool()
    def whoami() -> str:
        """The client id and scopes of the access token used."""
        token = get_access_token()
        return json.dumps({"client_id": token.client_id, "scopes": token.scopes} if token else None)

    @mcp.tool(name=ADMIN_TOOL)
    def admin_action() -> str:
        """Needs the mcp:admin scope (step-up)."""
        return "admin ok"

    return mcp


def _merged(document: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    merged = {**document, **overrides}
    return {key: value for key, value in merged.items() if value is not None}


async def _send_html(send: Any, status: int) -> None:
    body = b"<!doctype html><title>Not here</title><p>nothing to see"
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The already-read ``body`` once, then the real channel (which reports the disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _send_json(send: Send, status: int, body: Any, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    data = json.dumps(body).encode()
    base = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": base + (headers or [])})
    await send({"type": "http.response.body", "body": data})


class TestLayer:
    """The ASGI layer in front of the SDK app (see the module docstring)."""

    def __init__(self, app: ASGIApp, base_url: str, provider: Provider, options: ServerOptions) -> None:
        self.app = app
        self.base_url = base_url
        self.provider = provider
        self.options = options
        self.events: list[dict[str, Any]] = []
        self.prm_url = f"{base_url}/.well-known/oauth-protected-resource" + ("" if options.prm_at_root else "/mcp")
        self.ext = Extensions(base_url, provider, options.extensions)

    def as_metadata(self) -> dict[str, Any]:
        base = self.base_url
        metadata: dict[str, Any] = {
            "issuer": base,
            "authorization_endpoint": f"{base}/authorize",
            "token_endpoint": f"{base}/token",
            "scopes_supported": ALL_SCOPES,
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic", "none"],
        }
        if self.options.dcr:
            metadata["registration_endpoint"] = f"{base}/register"
        if self.options.advertise_pkce:
            metadata["code_challenge_methods_supported"] = ["S256"]
        if self.options.advertise_iss:
            metadata["authorization_response_iss_parameter_supported"] = True
        if self.options.cimd:
            metadata["client_id_metadata_document_supported"] = True
        return _merged(self.ext.metadata(metadata), self.options.metadata_overrides)

    def prm(self) -> dict[str, Any]:
        prm = {
            "resource": f"{self.base_url}/mcp",
            "authorization_servers": [self.base_url],
            "scopes_supported": [READ],
            "bearer_methods_supported": ["header"],
        }
        return _merged(prm, self.options.prm_overrides)

    def _record(self, scope: Scope, body: bytes) -> None:
        headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
        event: dict[str, Any] = {
            "method": scope["method"],
            "path": scope["path"],
            "query": dict(parse_qsl(scope.get("query_string", b"").decode())),
            "authorization": headers.get("authorization", ""),
            "dpop": headers.get("dpop"),
        }
        content_type = headers.get("content-type", "")
        if "x-www-form-urlencoded" in content_type:
            event["form"] = dict(parse_qsl(body.decode()))
        elif "json" in content_type and body:
            with contextlib.suppress(ValueError):
                event["json"] = json.loads(body)
        self.events.append(event)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        body = await _read_body(receive)
        if path in ("/authorize", "/token", "/register", "/revoke", "/idp/token") or path.startswith(
            ("/.well-known/", "/idp/.well-known/")
        ):
            self._record(scope, body)
        raw = self.options.raw.get(path)
        if raw is not None:
            if path not in ("/authorize", "/token", "/register", "/revoke") and not path.startswith("/.well-known/"):
                self._record(scope, body)
            headers = [(k.encode(), v.encode()) for k, v in raw.headers]
            headers.append((b"content-length", str(len(raw.body)).encode()))
            await send({"type": "http.response.start", "status": raw.status, "headers": headers})
            await send({"type": "http.response.body", "body": raw.body})
        elif path == "/_test/events":
            await _send_json(send, 200, self.events)
        elif path == "/_test/expire" and method == "POST":
            self.provider.expire_all()
            await _send_json(send, 200, {"expired": len(self.provider.access)})
        elif path == "/.well-known/oauth-authorization-server" and self.options.metadata_status != 200:
            await _send_html(send, self.options.metadata_status)
        elif path == "/register" and self.options.metadata_status != 200:
            await _send_json(send, 404, {"error": "not_found"})
        elif path == "/.well-known/oauth-authorization-server":
            await _send_json(send, 200, self.as_metadata())
        elif path == "/idp/.well-known/openid-configuration" and self.ext.options.idp:
            await _send_json(send, 200, self.ext.idp_metadata())
        elif path == "/idp/token" and method == "POST" and self.ext.options.idp:
            await self._answer(send, lambda: self.ext.token_exchange(form_of(body)))
        elif path == "/token" and method == "POST" and await self._token(scope, body, receive, send):
            pass
        elif path == "/mcp" and not await self._resource(scope):
            await self._refuse_resource(scope, send)
        elif path == "/.well-known/oauth-protected-resource" and self.options.prm_at_root:
            await _send_json(send, 200, self.prm())
        elif path == "/.well-known/oauth-protected-resource/mcp" and self.options.prm_at_root:
            await _send_json(send, 404, {"error": "not_found"})
        elif path == "/.well-known/oauth-protected-resource/mcp" and self.options.prm_overrides:
            await _send_json(send, 200, self.prm())
        elif path == "/mcp" and method == "POST" and await self._needs_step_up(scope, body):
            challenge = f'Bearer error="insufficient_scope", scope="{READ} {ADMIN}", error_description="needs {ADMIN}"'
            await _send_json(send, 403, {"error": "insufficient_scope"}, [(b"www-authenticate", self._www(challenge))])
        else:
            await self.app(scope, _replay(body, receive), self._rewriting(send))

    @staticmethod
    def _headers(scope: Scope) -> dict[str, str]:
        return {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}

    async def _send_problem(self, send: Send, problem: Problem) -> None:
        self.ext.problems.append(f"{problem.error}: {problem.description}")
        nonce = self.ext.options.as_nonce if problem.error == "use_dpop_nonce" else None
        extra = [(b"dpop-nonce", nonce.encode())] if nonce is not None else []
        body = {"error": problem.error, "error_description": problem.description}
        await _send_json(send, problem.status, body, extra)

    async def _answer(self, send: Send, produce: Callable[[], dict[str, Any]]) -> None:
        """Send ``produce()`` as JSON, or the OAuth error of the Problem it raised."""
        try:
            answer = produce()
        except Problem as problem:
            await self._send_problem(send, problem)
            return
        await _send_json(send, 200, answer)

    async def _token(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> bool:
        """Token requests the extensions answer (True), or pass to the SDK with the DPoP binding added (False:
        the caller passes it on itself when nothing was needed)."""
        ext = self.ext
        headers = self._headers(scope)
        form = form_of(body)
        try:
            jkt = ext.token_proof(headers, f"{self.base_url}/token")
            bound_to = ext.bindings.get(form.get("refresh_token", ""))
            if bound_to is not None and jkt != bound_to:
                raise Problem("invalid_grant", "the refresh token is bound to another DPoP key")
        except Problem as problem:
            await self._send_problem(send, problem)
            return True
        if form.get("grant_type") in ("client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"):

            def issue() -> dict[str, Any]:
                client_id, scopes = ext.grant(form, headers)
                token = self.provider._issue(client_id, scopes, form.get("resource"))
                answer: dict[str, Any] = token.model_dump(exclude_none=True)
                answer.pop("refresh_token", None)  # RFC 6749 section 4.4.3: no refresh token for these grants
                return ext.bind(answer, jkt)

            await self._answer(send, issue)
            return True
        if jkt is None:
            return False
        await self.app(scope, _replay(body, receive), self._binding(send, jkt))
        return True

    def _binding(self, send: Send, jkt: str) -> Send:
        """Rewrite the SDK's token answer into a DPoP-bound one."""
        start: dict[str, Any] = {}

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] == "http.response.body" and start:
                data = message.get("body", b"")
                if start.get("status") == 200:
                    data = json.dumps(self.ext.bind(json.loads(data), jkt)).encode()
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(data)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": data})
                start.clear()
                return
            await send(message)

        return wrapped

    async def _resource(self, scope: Scope) -> bool:
        """Check DPoP at /mcp (True: go on, with a DPoP header handed to the SDK as Bearer)."""
        if self.ext.options.dpop_algs is None:
            return True
        url = f"{self.base_url}{scope['path']}"
        try:
            rewritten = self.ext.resource_request(scope["method"], url, self._headers(scope))
        except Problem as problem:
            self.ext.problems.append(f"{problem.error}: {problem.description}")
            scope["_problem"] = problem
            return False
        if rewritten is not None:
            kept = [(k, v) for k, v in scope.get("headers", []) if k.lower() not in (b"authorization", b"dpop")]
            scope["headers"] = [*kept, (b"authorization", rewritten.encode())]
        return True

    async def _refuse_resource(self, scope: Scope, send: Send) -> None:
        problem: Problem = scope["_problem"]
        challenge = f'DPoP error="{problem.error}", error_description="{problem.description}"'
        headers = [(b"www-authenticate", self._www(challenge))]
        if problem.error == "use_dpop_nonce" and self.ext.options.rs_nonce:
            headers.append((b"dpop-nonce", self.ext.options.rs_nonce.encode()))
        await _send_json(send, 401, {"error": problem.error}, headers)

    async def _needs_step_up(self, scope: Scope, body: bytes) -> bool:
        try:
            message = json.loads(body)
        except ValueError:
            return False
        if not (isinstance(message, dict) and message.get("method") == "tools/call"):
            return False
        if (message.get("params") or {}).get("name") != ADMIN_TOOL:
            return False
        auth = dict(scope.get("headers", [])).get(b"authorization", b"").decode()
        token = await self.provider.load_access_token(auth.removeprefix("Bearer ").strip())
        return token is not None and ADMIN not in token.scopes

    def _www(self, challenge: str) -> bytes:
        if self.options.resource_metadata_in_challenge:
            challenge += f', resource_metadata="{self.options.challenge_resource_metadata or self.prm_url}"'
        return challenge.encode()

    def _rewriting(self, send: Send) -> Send:
        """Point (or not) the SDK's challenges at the metadata URL this server really serves."""

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (401, 403):
                headers = []
                for name, value in message.get("headers", []):
                    if name.lower() == b"www-authenticate":
                        parts = [p for p in value.decode().split(", ") if not p.startswith("resource_metadata=")]
                        text = ", ".join(parts)
                        if self.ext.options.dpop_required and text.startswith("Bearer"):
                            text = "DPoP" + text.removeprefix("Bearer")
                        value = self._www(text)
                    headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        return wrapped


def build_app(base_url: str, options: ServerOptions) -> TestLayer:
    provider = Provider(base_url, options)
    app = build_mcp(base_url, provider).streamable_http_app(host="127.0.0.1")
    return TestLayer(app, base_url, provider, options)


@dataclass
class RunningServer:
    base_url: str
    layer: TestLayer

    @property
    def mcp_url(self) -> str:
        return f"{self.base_url}/mcp"

    @property
    def provider(self) -> Provider:
        return self.layer.provider

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.layer.events


def _bind(port: int = 0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    return sock


@contextlib.contextmanager
def running_server(options: ServerOptions | None = None) -> Iterator[RunningServer]:
    """Serve on 127.0.0.1 (random port) in a background thread for the duration of the ``with``."""
    sock = _bind()
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    layer = build_app(base_url, options or ServerOptions())
    config = uvicorn.Config(layer, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield RunningServer(base_url, layer)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--no-dcr", action="store_true")
    parser.add_argument("--cimd", action="store_true")
    parser.add_argument("--client", action="append", default=[], help="ID:SECRET[:METHOD] (empty SECRET: public)")
    parser.add_argument("--no-resource-metadata", action="store_true")
    parser.add_argument("--prm-at-root", action="store_true")
    parser.add_argument("--access-token-ttl", type=int, default=3600)
    parser.add_argument("--iss", choices=["correct", "wrong", "omit"], default="correct")
    args = parser.parse_args()
    clients: dict[str, tuple[str | None, str]] = {}
    for spec in args.client:
        client_id, _, rest = spec.partition(":")
        secret, _, method = rest.partition(":")
        clients[client_id] = (secret or None, method or ("client_secret_basic" if secret else "none"))
    options = ServerOptions(
        dcr=not args.no_dcr,
        cimd=args.cimd,
        preregistered=clients,
        resource_metadata_in_challenge=not args.no_resource_metadata,
        prm_at_root=args.prm_at_root,
        access_token_ttl=args.access_token_ttl,
        iss=args.iss,
    )
    sock = _bind(args.port)
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    layer = build_app(base_url, options)
    print(f"LISTENING {base_url}/mcp", flush=True)
    uvicorn.Server(uvicorn.Config(layer, log_level="warning", lifespan="on")).run(sockets=[sock])


if __name__ == "__main__":
    main()
