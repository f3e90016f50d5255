"""Ending a stored grant at the authorization server (RFC 7009 token revocation) before it is forgotten locally.

Used by ``mcp-inspect --cli --relogin``: the stored refresh token (else the access token) is sent to the
``revocation_endpoint`` of the authorization-server metadata kept with the tokens, authenticated as the client
the tokens were issued to. Nothing is rediscovered: without stored metadata, or metadata without the endpoint,
revocation is skipped and says why. A failure never stops the caller from clearing the local state; the
outcome says what happened so the user can be told the grant may still be valid.
"""

from __future__ import annotations

import base64
import ssl
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import quote

from mcp.shared.auth import OAuthClientInformationFull

from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.urls import check_oauth_url

__all__ = ["DEFAULT_REVOCATION_TIMEOUT", "RevocationOutcome", "revoke_stored_grant"]

DEFAULT_REVOCATION_TIMEOUT: Final = 5.0
"""Seconds the revocation request may take (the official inspector's budget)."""


@dataclass(frozen=True, slots=True)
class RevocationOutcome:
    """What became of the stored grant at the authorization server."""

    status: Literal["revoked", "skipped", "failed"]
    detail: str
    """Why it was skipped or failed (``no_tokens``, ``no_metadata``, ``no_endpoint``, an error), or the hint sent."""
    endpoint: str | None = None


def _client_auth(
    client: OAuthClientInformationFull | None, supported: list[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """(headers, form fields) that authenticate ``client`` at the revocation endpoint (RFC 7009 section 2.1)."""
    if client is None:
        return {}, {}
    secret = client.client_secret
    if not secret:
        return {}, {"client_id": client.client_id}
    method = client.token_endpoint_auth_method
    if method not in ("client_secret_basic", "client_secret_post") or method not in supported:
        method = "client_secret_basic" if "client_secret_basic" in supported else "client_secret_post"
    if method == "client_secret_post":
        return {}, {"client_id": client.client_id, "client_secret": secret}
    pair = f"{quote(client.client_id, safe='')}:{quote(secret, safe='')}"  # RFC 6749 section 2.3.1
    return {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode("ascii")}, {}


def revoke_stored_grant(
    storage: KeyringTokenStorage,
    *,
    client: OAuthClientInformationFull | None = None,
    timeout: float = DEFAULT_REVOCATION_TIMEOUT,
    verify: ssl.SSLContext | bool = True,
) -> RevocationOutcome:
    """Revoke the grant stored in ``storage`` (blocking, at most ``timeout`` seconds); the local state is left
    as it is (the caller clears it). ``client``: the pre-registered client the tokens belong to (default: the
    stored registration)."""
    import httpx2

    tokens = storage.stored_tokens()
    if tokens is None or not (tokens.refresh_token or tokens.access_token):
        return RevocationOutcome("skipped", "no_tokens")
    metadata = storage.stored_server_metadata()
    if metadata is None:
        return RevocationOutcome("skipped", "no_metadata")
    if metadata.revocation_endpoint is None:
        return RevocationOutcome("skipped", "no_endpoint")
    endpoint = str(metadata.revocation_endpoint)
    try:
        check_oauth_url(endpoint, "the authorization server's revocation_endpoint")
    except ValueError as exc:
        return RevocationOutcome("failed", str(exc), endpoint)
    hint = "refresh_token" if tokens.refresh_token else "access_token"
    token = tokens.refresh_token or tokens.access_token
    supported = list(metadata.revocation_endpoint_auth_methods_supported or ["client_secret_basic"])
    headers, fields = _client_auth(client if client is not None else storage.stored_client_info(), supported)
    headers["Accept"] = "application/json"
    form = {"token": token, "token_type_hint": hint, **fields}
    try:
        with (
            httpx2.Client(timeout=timeout, verify=verify, follow_redirects=False) as http,
            http.stream("POST", endpoint, data=form, headers=headers) as response,  # the body is not read
        ):
            status, reason = response.status_code, response.reason_phrase
    except httpx2.HTTPError as exc:
        return RevocationOutcome("failed", str(exc).strip() or type(exc).__name__, endpoint)
    if status != 200:
        return RevocationOutcome("failed", f"the revocation endpoint answered {status} {reason}".rstrip(), endpoint)
    return RevocationOutcome("revoked", hint, endpoint)
