"""The summary and details of each finished step of the OAuth flow, from what the flow holds at that point.

:func:`describe_step` is what the provider gives :attr:`StepRecorder.describe
<inspector.auth.steps.StepRecorder.describe>`: what discovery found, which client was registered or used, what
the token grants and where it is kept.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcp.client.auth.oauth2 import OAuthContext

from inspector.auth.dpop import DPoPSigner
from inspector.auth.grants import Grant
from inspector.auth.steps import AuthStepKind
from inspector.auth.storage import KeyringTokenStorage

__all__ = ["describe_step"]


def _discovery(ctx: OAuthContext) -> tuple[str, Mapping[str, str]]:
    details: dict[str, str] = {}
    prm = ctx.protected_resource_metadata
    if prm is not None:
        details["resource"] = str(prm.resource)
        details["authorization_servers"] = " ".join(str(url) for url in prm.authorization_servers)
        if prm.scopes_supported is not None:
            details["resource_scopes_supported"] = " ".join(prm.scopes_supported)
    metadata = ctx.oauth_metadata
    if metadata is None:
        return "No authorization server metadata found", details
    details["issuer"] = str(metadata.issuer)
    details["authorization_endpoint"] = str(metadata.authorization_endpoint)
    details["token_endpoint"] = str(metadata.token_endpoint)
    if metadata.registration_endpoint is not None:
        details["registration_endpoint"] = str(metadata.registration_endpoint)
    details["pkce"] = " ".join(metadata.code_challenge_methods_supported or []) or "(not advertised)"
    details["cimd_supported"] = str(bool(metadata.client_id_metadata_document_supported)).lower()
    details["iss_parameter_supported"] = str(bool(metadata.authorization_response_iss_parameter_supported))
    return f"Authorization server {metadata.issuer}", details


def describe_step(
    kind: AuthStepKind,
    ctx: OAuthContext,
    *,
    keyring: KeyringTokenStorage | None,
    dpop: DPoPSigner | None,
    dpop_token: str | None,
    grant: Grant | None,
) -> tuple[str, Mapping[str, str]]:
    """The summary and details of a finished step of ``kind`` ("" and none: keep what the step has).

    ``keyring``: the token storage when it is the keyring's (tokens may then be in session memory only);
    ``dpop``: the session's DPoP key; ``dpop_token``: the access token bound to it; ``grant``: the grant of the
    latest authorization."""
    if kind == AuthStepKind.DISCOVERY:
        return _discovery(ctx)
    if kind in (AuthStepKind.REGISTRATION, AuthStepKind.AUTHORIZATION) and ctx.client_info is not None:
        info = ctx.client_info
        details = {"client_id": info.client_id, "client_secret": "issued" if info.client_secret else "none"}
        if kind == AuthStepKind.REGISTRATION:
            return f"Registered client {info.client_id}", details
        details["scope"] = ctx.client_metadata.scope or "(none)"
        return "Authorization code received", details
    if kind in (AuthStepKind.TOKEN, AuthStepKind.REFRESH) and ctx.current_tokens is not None:
        tokens = ctx.current_tokens
        details = {
            "scope": tokens.scope or "(none)",
            "expires_in": str(tokens.expires_in) if tokens.expires_in is not None else "(not given)",
            "refresh_token": "yes" if tokens.refresh_token else "no",
            "storage": "keyring" if keyring is None or keyring.persistent else "session memory",
            "token_type": "DPoP" if dpop_token == tokens.access_token else "Bearer",
        }
        if dpop_token == tokens.access_token and dpop is not None:
            details["dpop_key"] = f"{dpop.algorithm}, thumbprint {dpop.jkt}"
        if kind == AuthStepKind.TOKEN and grant is not None:
            details["grant"] = grant.value
        return ("Access token refreshed" if kind == AuthStepKind.REFRESH else "Access token received"), details
    if kind == AuthStepKind.REFRESH:
        return "Refresh refused", {}
    return "", {}
