"""Building the ``httpx2.Auth`` a Streamable HTTP or SSE transport uses: OAuth, or a plain bearer token.

:func:`build_oauth_auth` wires the SDK's OAuth provider (via :class:`InspectorOAuthProvider`) to the
keyring storage and to either the browser + loopback callback (interactive) or the no-browser
auto-approve authorizer (``--auto-approve``, the probe and the conformance suite).

Client registration follows the spec's order: a pre-registered client (``client_id``, optional
``client_secret`` or private key) is used as it is; otherwise a CIMD URL (``cimd_url``) when the authorization
server advertises ``client_id_metadata_document_supported``; otherwise dynamic client registration. ``grant``
(:class:`~inspector.auth.grants.GrantOptions`) chooses how tokens are obtained (authorization code, client
credentials, jwt-bearer, enterprise-managed) and whether DPoP is used.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Generator, Sequence
from contextlib import AbstractContextManager
from urllib.parse import urlsplit

import httpx2
from mcp.client.auth import TokenStorage
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl

from inspector import __version__
from inspector.auth.browser import BrowserOpener
from inspector.auth.callback import free_loopback_port
from inspector.auth.grants import Grant, GrantOptions
from inspector.auth.headless import HeadlessAuthorizer
from inspector.auth.interactive import BrowserAuthorizer
from inspector.auth.no_interaction import NoInteraction
from inspector.auth.provider import InspectorOAuthProvider
from inspector.auth.steps import StepCallback, StepRecorder
from inspector.auth.storage import KeyringTokenStorage, clear_stored_authorization
from inspector.auth.urls import check_oauth_url
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.store.secrets import SecretStore

__all__ = [
    "DEFAULT_CLIENT_NAME",
    "BearerAuth",
    "bearer_auth",
    "build_oauth_auth",
    "clear_stored_authorization",
    "registered_loopback_redirect",
]

DEFAULT_CLIENT_NAME = "MCP Inspector Desktop"
_CALLBACK_PATH = "/callback"


class BearerAuth(httpx2.Auth):
    """``Authorization: Bearer <token>`` on every request (the profile's bearer mode)."""

    def __init__(self, token: str) -> None:
        token = token.strip()
        if not token or any(ch in token for ch in "\r\n"):
            raise ValueError("a bearer token must be non-empty and on one line")
        self._header = f"Bearer {token}"

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        request.headers["Authorization"] = self._header
        yield request

    def __repr__(self) -> str:
        return "BearerAuth(<token hidden>)"


def bearer_auth(token: str) -> httpx2.Auth:
    """An ``httpx2.Auth`` sending ``token`` as a bearer token (no OAuth)."""
    return BearerAuth(token)


class _WithPreregistered:
    """A caller's ``TokenStorage`` that answers ``get_client_info`` with the pre-registered client."""

    def __init__(self, inner: TokenStorage, client: OAuthClientInformationFull) -> None:
        self.inner = inner
        self.client = client

    async def get_tokens(self) -> OAuthToken | None:
        return await self.inner.get_tokens()

    async def set_tokens(self, tokens: OAuthToken) -> None:
        await self.inner.set_tokens(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        await self.inner.set_client_info(client_info)


def _scope_text(scopes: Sequence[str] | str | None) -> str | None:
    if scopes is None:
        return None
    words = scopes.split() if isinstance(scopes, str) else [w for scope in scopes for w in scope.split()]
    return " ".join(dict.fromkeys(words)) or None


def registered_loopback_redirect(storage: TokenStorage, path: str | None = None) -> str | None:
    """The loopback redirect URI (``http://127.0.0.1:<port><path>``, any path for None) of the stored
    registration, so that it stays valid (the window's and the CLI's logins share registrations); None when
    there is no such registration."""
    if isinstance(storage, KeyringTokenStorage):
        info = storage.stored_client_info()
        for uri in (info.redirect_uris or []) if info is not None else []:
            parts = urlsplit(str(uri))
            if (
                parts.scheme == "http"
                and parts.hostname == "127.0.0.1"
                and parts.port
                and (path is None or parts.path == path)
            ):
                return str(uri)
    return None


def _loopback_redirect(storage: TokenStorage) -> str:
    """The redirect URI of the stored registration when it is ours (so it stays valid), else a new one."""
    return registered_loopback_redirect(storage) or f"http://127.0.0.1:{free_loopback_port()}{_CALLBACK_PATH}"


def build_oauth_auth(
    server_url: str,
    *,
    client_id: str | None = None,
    client_secret: str | None = None,
    cimd_url: str | None = None,
    scopes: Sequence[str] | str | None = None,
    storage: TokenStorage | None = None,
    auto_approve: bool = False,
    on_step: StepCallback | None = None,
    issuer: str | None = None,
    token_endpoint_auth_method: str | None = None,
    redirect_uri: str | None = None,
    client_name: str = DEFAULT_CLIENT_NAME,
    opener: BrowserOpener | None = None,
    callback_timeout: float = 300.0,
    person_waits: Callable[[], AbstractContextManager[None]] | None = None,
    verify: ssl.SSLContext | bool = True,
    secrets: SecretStore | None = None,
    limits: Limits = DEFAULT_LIMITS,
    grant: GrantOptions | None = None,
    no_interaction: str | None = None,
) -> InspectorOAuthProvider:
    """The OAuth ``httpx2.Auth`` for the MCP server at ``server_url``.

    * ``client_id`` / ``client_secret``: a pre-registered client (no registration). ``issuer`` binds it
      to that authorization server; ``token_endpoint_auth_method`` forces how the secret is sent
      (default: what the server supports, basic first).
    * ``cimd_url``: an https Client ID Metadata Document URL, used when the server supports CIMD.
    * ``scopes``: requested instead of the server's choice (and added to on step-up).
    * ``storage``: where tokens live (default: the keyring, per server; session memory without one).
    * ``auto_approve``: no browser - request the authorization URL and read the code from the redirect;
      otherwise open ``opener`` (default: the system browser) and wait ``callback_timeout`` seconds on
      a loopback callback at ``redirect_uri`` (default ``http://127.0.0.1:<random port>/callback``).
    * ``on_step``: called with every :class:`~inspector.auth.steps.AuthStep` as it changes.
    * ``verify``: TLS for the auto-approve requests - pass the transport's ``ssl.SSLContext`` (e.g.
      ``inspector.transports.http_common.ssl_context(ca_bundle)``); discovery, registration and token
      requests go through the transport's own client.
    * ``limits``: bounds what the auto-approve requests read (``oauth_body_bytes`` for the answers, headers,
      decompression); pass the connection's limits (the transport's client bounds the other OAuth requests).
    * ``grant``: the grant, a ``private_key_jwt`` key (``client_id`` is then its client), a workload JWT, the
      enterprise IdP, and the DPoP mode (default: authorization code unless the server offers only client
      credentials to a confidential client; DPoP when the authorization server supports it).
    * ``no_interaction``: why no person may be asked (``--stored-auth-only``, no terminal): stored tokens are used
      and refreshed, grants without a browser run, and the step that would open one raises
      :class:`~inspector.auth.no_interaction.InteractionRefused` with this reason (instead of ``auto_approve``
      or the browser).

    ValueError when the settings contradict each other (a secret without its client, a grant without what
    it needs).
    """
    if urlsplit(server_url).scheme not in ("http", "https"):
        raise ValueError(f"OAuth needs an http(s) server URL, not {server_url!r}")
    if client_secret and not client_id:
        raise ValueError("a client secret needs the client id it belongs to")
    grant = grant if grant is not None else GrantOptions()
    _check_grant(grant, client_id=client_id, client_secret=client_secret)
    if issuer is not None:
        check_oauth_url(issuer, "the client's issuer")
    user_scopes = _scope_text(scopes)
    base_storage: TokenStorage = storage if storage is not None else KeyringTokenStorage(server_url, secrets=secrets)
    keyring_storage = base_storage if isinstance(base_storage, KeyringTokenStorage) else None
    redirect = redirect_uri or _loopback_redirect(base_storage)

    preregistered: OAuthClientInformationFull | None = None
    if client_id:
        preregistered = OAuthClientInformationFull(
            client_id=client_id,
            client_secret=client_secret or None,
            redirect_uris=[AnyUrl(redirect)],
            token_endpoint_auth_method=token_endpoint_auth_method
            or ("private_key_jwt" if grant.client_key is not None else None if client_secret else "none"),
            issuer=issuer,
            scope=user_scopes,
        )
    if keyring_storage is not None:
        keyring_storage.use_preregistered(preregistered)
        final_storage: TokenStorage = keyring_storage
    elif preregistered is not None:
        final_storage = _WithPreregistered(base_storage, preregistered)
    else:
        final_storage = base_storage

    metadata = OAuthClientMetadata(
        redirect_uris=[AnyUrl(redirect)],
        client_name=client_name,
        scope=user_scopes,
        software_id="mcp-inspector-desktop",
        software_version=__version__,
    )
    recorder = StepRecorder(on_step)
    authorizer: HeadlessAuthorizer | BrowserAuthorizer | NoInteraction
    if no_interaction is not None:
        authorizer = NoInteraction(no_interaction)
    elif auto_approve:
        authorizer = HeadlessAuthorizer(redirect, verify=verify, recorder=recorder, limits=limits)
    else:
        authorizer = BrowserAuthorizer(
            redirect, opener=opener, timeout=callback_timeout, recorder=recorder, person_waits=person_waits
        )
    return InspectorOAuthProvider(
        server_url,
        metadata,
        final_storage,
        recorder=recorder,
        redirect_handler=authorizer.redirect_handler,
        callback_handler=authorizer.callback_handler,
        client_metadata_url=cimd_url or None,
        user_scopes=user_scopes,
        grant=grant,
        client_issuer=issuer if client_id else None,
        verify=verify,
        limits=limits,
    )


def _check_grant(grant: GrantOptions, *, client_id: str | None, client_secret: str | None) -> None:
    """What each grant needs, said before anything is sent."""
    if grant.client_key is not None and not client_id:
        raise ValueError("a private key (private_key_jwt) needs the client id it belongs to")
    if grant.client_key is not None and client_secret:
        raise ValueError("a client authenticates with a secret or a private key, not both")
    chosen = grant.grant
    if chosen is Grant.AUTO:
        chosen = (
            Grant.ENTERPRISE
            if grant.enterprise is not None
            else Grant.JWT_BEARER
            if grant.assertion is not None
            else Grant.AUTO
        )
    if chosen in (Grant.JWT_BEARER, Grant.ENTERPRISE) and not client_id:
        raise ValueError(f"the {chosen.value.replace('_', ' ')} grant needs the client id at the authorization server")
    if chosen is Grant.JWT_BEARER and grant.assertion is None:
        raise ValueError("the jwt bearer grant needs a JWT assertion (text or file)")
    if chosen is Grant.ENTERPRISE and grant.enterprise is None:
        raise ValueError("enterprise-managed authorization needs the IdP and an ID token")
    if chosen is Grant.CLIENT_CREDENTIALS and not (client_id and (client_secret or grant.client_key is not None)):
        raise ValueError("the client credentials grant needs a client id with its secret or private key")
