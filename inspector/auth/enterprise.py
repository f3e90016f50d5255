"""Enterprise-managed authorization (SEP-990), leg 1: the user's ID token for an ID-JAG at the enterprise IdP.

The user signed in to the enterprise identity provider (OIDC) and the client kept the ID token. For each MCP
server the client asks the IdP for an Identity Assertion JWT Authorization Grant (ID-JAG) with an RFC 8693
token exchange: ``grant_type=urn:ietf:params:oauth:grant-type:token-exchange``, the ID token as
``subject_token`` (type ``...:id_token``), ``requested_token_type=...:id-jag``, ``audience`` = the MCP
authorization server's issuer, ``resource`` = the MCP server. The IdP applies its policy and answers with the
ID-JAG in ``access_token`` (``issued_token_type`` id-jag, ``token_type`` N_A). Leg 2 - the ID-JAG as the
assertion of a jwt-bearer grant at the MCP authorization server - is the provider's
(:mod:`inspector.auth.grants`).

The IdP is configuration, never discovery from the MCP server: its token endpoint is given, or read from the
configured issuer's metadata (OIDC discovery, then RFC 8414). Requests go through a client of our own (the
IdP is a third party, not the MCP server's transport), bounded like the transports', under the OAuth URL rule.
"""

from __future__ import annotations

import base64
import json
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import quote

import httpx2
from mcp.client.auth import OAuthFlowError, OAuthTokenError

from inspector.auth.assertions import AssertionSource
from inspector.auth.metadata import short
from inspector.auth.steps import AuthStepKind, StepRecorder, exchange_of
from inspector.auth.urls import check_oauth_url
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import message_of
from inspector.transports.http_common import bounded

__all__ = [
    "ID_JAG_TOKEN_TYPE",
    "ID_TOKEN_TYPE",
    "TOKEN_EXCHANGE_GRANT",
    "EnterpriseOptions",
    "IdJagExchange",
    "token_exchange_form",
]

TOKEN_EXCHANGE_GRANT: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id-jag"
_DISCOVERY_PATHS: Final = ("/.well-known/openid-configuration", "/.well-known/oauth-authorization-server")


@dataclass(frozen=True)
class EnterpriseOptions:
    """The enterprise IdP and the user's identity assertion there."""

    id_token: AssertionSource
    """The OpenID ID token from the user's sign-in at the IdP (text, or a file read on every use)."""
    idp_issuer: str | None = None
    idp_token_endpoint: str | None = None
    """Used as it is; else read from ``idp_issuer``'s metadata."""
    idp_client_id: str | None = None
    """This client at the IdP (it differs from the client id at the MCP authorization server)."""
    idp_client_secret: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.idp_issuer and not self.idp_token_endpoint:
            raise ValueError("enterprise-managed authorization needs the IdP's issuer or token endpoint")
        for name in ("idp_issuer", "idp_token_endpoint"):
            value = getattr(self, name)
            if value:
                check_oauth_url(value, f"the IdP {name.removeprefix('idp_').replace('_', ' ')}")
        if self.idp_client_secret and not self.idp_client_id:
            raise ValueError("an IdP client secret needs the IdP client id it belongs to")


def token_exchange_form(
    id_token: str, *, audience: str, resource: str, scope: str | None, client_id: str | None, with_secret: bool
) -> dict[str, str]:
    """The RFC 8693 request for an ID-JAG (client authentication aside)."""
    form = {
        "grant_type": TOKEN_EXCHANGE_GRANT,
        "requested_token_type": ID_JAG_TOKEN_TYPE,
        "subject_token": id_token,
        "subject_token_type": ID_TOKEN_TYPE,
        "audience": audience,
        "resource": resource,
    }
    if scope:
        form["scope"] = scope
    if client_id and not with_secret:
        form["client_id"] = client_id  # a public client names itself (RFC 6749 section 3.2.1)
    return form


def _answer(response: httpx2.Response, body: bytes) -> dict[str, Any]:
    try:
        value: Any = json.loads(body)
    except ValueError:
        value = None
    if response.status_code != 200:
        if isinstance(value, dict) and isinstance(value.get("error"), str):
            described = value.get("error_description")
            detail = value["error"] + (f": {described}" if isinstance(described, str) and described else "")
        else:
            detail = short(body.decode("utf-8", "replace")) or "no body"
        raise OAuthTokenError(
            f"the IdP refused the token exchange for an ID-JAG (HTTP {response.status_code}: {detail})"
        )
    if not isinstance(value, dict):
        raise OAuthTokenError("the IdP's token exchange answer is not a JSON object")
    return value


class IdJagExchange:
    """Performs leg 1 (see the module docstring) with its own bounded HTTP client."""

    def __init__(
        self,
        options: EnterpriseOptions,
        *,
        recorder: StepRecorder | None = None,
        verify: ssl.SSLContext | bool = True,
        timeout: float = 30.0,
        limits: Limits = DEFAULT_LIMITS,
        client_factory: Callable[[], httpx2.AsyncClient] | None = None,
    ) -> None:
        self.options = options
        self._recorder = recorder
        self._verify = verify
        self._timeout = timeout
        self._limits = limits
        self._client_factory = client_factory
        self._token_endpoint = options.idp_token_endpoint

    def _client(self) -> httpx2.AsyncClient:
        if self._client_factory is not None:
            return self._client_factory()
        client = httpx2.AsyncClient(verify=self._verify, timeout=self._timeout, follow_redirects=False)
        return bounded(client, self._limits)

    async def _send(self, client: httpx2.AsyncClient, request: httpx2.Request) -> tuple[httpx2.Response, bytes]:
        started = time.monotonic()
        try:
            response = await client.send(request, follow_redirects=False)
            body = await response.aread()
        except httpx2.HTTPError as exc:
            raise OAuthFlowError(f"the IdP request to {request.url} failed: {message_of(exc)}") from exc
        if self._recorder is not None:
            self._recorder.add(AuthStepKind.TOKEN_EXCHANGE, exchange_of(request, response, time.monotonic() - started))
        return response, body

    async def _discover(self, client: httpx2.AsyncClient) -> str:
        issuer = self.options.idp_issuer
        assert issuer is not None
        base = issuer.rstrip("/")
        for path in _DISCOVERY_PATHS:
            response, body = await self._send(client, client.build_request("GET", base + path))
            if response.status_code != 200:
                continue
            try:
                value: Any = json.loads(body)
            except ValueError:
                continue
            endpoint = value.get("token_endpoint") if isinstance(value, dict) else None
            if isinstance(endpoint, str) and endpoint:
                return check_oauth_url(endpoint, f"the IdP metadata ({base + path}) field token_endpoint")
        raise OAuthFlowError(f"the IdP {issuer} publishes no metadata with a token_endpoint")

    async def id_jag(self, *, audience: str, resource: str, scope: str | None) -> str:
        """An ID-JAG for the MCP authorization server ``audience`` and the MCP server ``resource``."""
        opts = self.options
        try:
            id_token = opts.id_token.read()
        except ValueError as exc:
            raise OAuthFlowError(f"enterprise-managed authorization: {message_of(exc)}") from None
        if self._recorder is not None:
            self._recorder.begin(
                AuthStepKind.TOKEN_EXCHANGE,
                "ID-JAG from the enterprise IdP (token exchange)",
                {"audience": audience, "resource": resource, "idp": opts.idp_issuer or opts.idp_token_endpoint or ""},
            )
        async with self._client() as client:
            try:
                if self._token_endpoint is None:
                    self._token_endpoint = await self._discover(client)
                endpoint = check_oauth_url(self._token_endpoint, "the IdP token endpoint")
            except ValueError as exc:
                raise OAuthFlowError(f"refusing the token exchange: {message_of(exc)}") from None
            with_secret = bool(opts.idp_client_secret)
            form = token_exchange_form(
                id_token,
                audience=audience,
                resource=resource,
                scope=scope,
                client_id=opts.idp_client_id,
                with_secret=with_secret,
            )
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
            if with_secret:
                pair = f"{quote(opts.idp_client_id or '', safe='')}:{quote(opts.idp_client_secret or '', safe='')}"
                headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
            response, body = await self._send(client, httpx2.Request("POST", endpoint, data=form, headers=headers))
        value = _answer(response, body)
        issued_type = value.get("issued_token_type")
        if issued_type != ID_JAG_TOKEN_TYPE:
            raise OAuthTokenError(f"the IdP issued a {issued_type or 'token of no stated type'}, not an ID-JAG")
        token = value.get("access_token")
        if not isinstance(token, str) or token.count(".") != 2:
            raise OAuthTokenError("the IdP's answer holds no ID-JAG (access_token is not a JWT)")
        if self._recorder is not None:
            self._recorder.update(
                summary="ID-JAG received from the enterprise IdP", details={"issued_token_type": issued_type}
            )
            self._recorder.finish()
        return token
