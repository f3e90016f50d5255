"""The client registration an OAuth flow uses: bound to its authorization server, asking for the user's scopes.

:func:`bind_registration` applies MCP 2026-07-28 client registration: the registration belongs to the
authorization server's issuer (:mod:`inspector.auth.storage`); when the protected-resource metadata names another
server, the registration stored for that one is used or the client registers there, and a pre-registered client
bound to another issuer is refused, never sent there. :func:`with_user_scopes` makes a dynamic registration
request ask for the user-chosen scopes too (so the server lets the client request them).
"""

from __future__ import annotations

import json

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.client.auth.oauth2 import OAuthContext
from mcp.client.auth.utils import credentials_match_issuer, issuers_match, union_scopes

from inspector.auth.steps import AuthStepKind, StepRecorder
from inspector.auth.storage import KeyringTokenStorage

__all__ = ["bind_registration", "with_user_scopes"]


def bind_registration(
    ctx: OAuthContext,
    issuer: str,
    *,
    client_issuer: str | None,
    store: KeyringTokenStorage | None,
    recorder: StepRecorder,
) -> bool:
    """Use the client registration that belongs to the authorization server ``issuer``: a configured client
    bound to another server (``client_issuer``) is refused; a stored registration at another server is set aside
    (with the tokens it got) for the one ``store`` holds for ``issuer``, or for none, so the SDK registers there.
    True when the tokens of the other server were dropped."""
    if client_issuer is not None and not issuers_match(client_issuer, issuer):
        raise OAuthFlowError(
            f"the configured client belongs to the authorization server {client_issuer}, but the MCP server "
            f"now names {issuer}: its credentials are not sent there; configure the client registered at {issuer}"
        )
    info = ctx.client_info
    if store is None or store.preregistered is not None:
        return False
    if info is not None:
        if info.issuer is not None and issuers_match(info.issuer, issuer):
            return False  # bound to this server
        portable = credentials_match_issuer(info, issuer, ctx.client_metadata_url)
        if portable and (info.issuer is not None or store.registration_for(issuer) is None):
            return False  # CIMD, or bound to no server with nothing better stored
    stored = store.registration_for(issuer)
    dropped = info is not None and info.issuer is not None
    if dropped:
        ctx.clear_tokens()  # issued by the other server
        ctx.oauth_metadata = None
    ctx.client_info = stored
    if stored is not None:
        store.use_client(stored)
    if info is not None and info.issuer is not None:
        recorder.note(
            AuthStepKind.NOTICE,
            f"The authorization server changed to {issuer}: "
            + ("using the client registered there earlier" if stored else "registering there"),
            {"previous_issuer": info.issuer, "issuer": issuer},
        )
    return dropped


def with_user_scopes(request: httpx2.Request, user_scopes: str | None) -> httpx2.Request:
    """The dynamic registration request ``request`` asking for ``user_scopes`` as well as the scopes it asks
    for (any other request, or one already asking for them, is returned as it is)."""
    if not user_scopes or request.method != "POST" or "json" not in request.headers.get("content-type", ""):
        return request
    try:
        body = json.loads(request.content)
    except ValueError:
        return request
    if not isinstance(body, dict) or "redirect_uris" not in body:
        return request
    wanted = union_scopes(body.get("scope"), user_scopes)
    if wanted == body.get("scope"):
        return request
    body["scope"] = wanted
    headers = {k: v for k, v in request.headers.items() if k.lower() not in ("content-length",)}
    return httpx2.Request(request.method, request.url, json=body, headers=headers, extensions=request.extensions)
