"""The SDK's ``OAuthClientProvider`` with what an inspector needs on top.

The SDK does discovery (``WWW-Authenticate`` ``resource_metadata``, then the path and root well-known
URLs; authorization-server metadata in the spec's order), CIMD or dynamic registration, PKCE S256, the
``resource`` parameter, state and RFC 9207 ``iss`` checks, scope selection, step-up on 403
``insufficient_scope`` (with the SEP-2350 scope union) and refresh before expiry. This subclass adds:

* every step and its HTTP exchanges recorded for the Authorization view (:class:`StepRecorder`);
* a limit on step-up: a 403 for scopes the token already has, or a second step-up for the same scopes,
  is returned as it is instead of re-authorizing again;
* a 401 for a token we sent triggers one refresh (when we have a refresh token) before a full flow;
* the token expiry and authorization-server metadata restored from storage, so a restart refreshes;
* PKCE support checked in the metadata (absent ``code_challenge_methods_supported`` with S256: refuse);
* user-chosen scopes (requested instead of the server's choice; added to on step-up and registration);
* the token endpoint auth method of a client without one chosen from the server's metadata.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import Literal

import httpx2
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, OAuthFlowError, TokenStorage
from mcp.client.auth.utils import extract_field_from_www_auth, union_scopes
from mcp.shared.auth import OAuthClientMetadata

from inspector.auth.steps import AuthStep, AuthStepKind, StepRecorder, StepStatus, classify_request, exchange_of
from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.urls import check_oauth_url

__all__ = ["InspectorOAuthProvider"]

_Action = Literal["continue", "stop", "refresh"]
MAX_STEP_UPS = 1
"""Step-up authorizations per challenged scope set (after that the 403 is returned as it is)."""


def _scope_set(scope: str | None) -> frozenset[str]:
    return frozenset(scope.split()) if scope else frozenset()


class InspectorOAuthProvider(OAuthClientProvider):
    """An ``httpx2.Auth`` for one MCP server; build it with :func:`inspector.auth.flow.build_oauth_auth`."""

    def __init__(
        self,
        server_url: str,
        client_metadata: OAuthClientMetadata,
        storage: TokenStorage,
        *,
        recorder: StepRecorder,
        redirect_handler: Callable[[str], Awaitable[None]] | None = None,
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
        client_metadata_url: str | None = None,
        user_scopes: str | None = None,
    ) -> None:
        super().__init__(
            server_url,
            client_metadata,
            storage,
            redirect_handler=redirect_handler,
            callback_handler=callback_handler,
            client_metadata_url=client_metadata_url,
        )
        self.recorder = recorder
        recorder.describe = self._describe
        self.storage = storage
        self.user_scopes = user_scopes
        self._keyring = storage if isinstance(storage, KeyringTokenStorage) else None
        self._step_ups: dict[frozenset[str], int] = {}
        self._stepping_up = False
        self._metadata_misses: list[str] = []
        """Authorization-server metadata URLs that gave nothing usable in this flow (for the error message)."""
        self._storage_noticed = False

    # -- public extras -----------------------------------------------------------------------------

    @property
    def steps(self) -> list[AuthStep]:
        """Every step so far (latest version of each)."""
        return list(self.recorder.steps)

    def forget(self) -> None:
        """Drop the tokens and registration held in memory and in storage ("clear stored authorization")."""
        self.context.clear_tokens()
        self.context.client_info = None
        self.context.oauth_metadata = None
        self.context.protected_resource_metadata = None
        self._initialized = False
        self._step_ups.clear()
        if self._keyring is not None:
            self._keyring.clear()

    # -- the flow ----------------------------------------------------------------------------------

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        refreshed = False
        while True:
            inner = super().async_auth_flow(request)
            restart = False
            first = True
            try:
                outgoing = await inner.__anext__()
                while True:
                    started = time.monotonic()
                    response = yield outgoing
                    elapsed = time.monotonic() - started
                    if outgoing is request:
                        if response.status_code in (401, 403):
                            self._record_challenge(request, response, elapsed, retried=not first)
                        if first:
                            first = False
                            action = self._first_answer(request, response, refreshed)
                            if action == "stop":
                                return
                            if action == "refresh":
                                restart = refreshed = True
                                break
                    else:
                        kind = classify_request(outgoing, request)
                        self.recorder.add(kind, exchange_of(outgoing, response, elapsed))
                        if kind is AuthStepKind.DISCOVERY:
                            self._note_discovery(outgoing, response)
                    try:
                        outgoing = await inner.asend(response)
                    except StopAsyncIteration:
                        break
                    if outgoing is not request:
                        outgoing = self._adjust(outgoing, request)
            except Exception as exc:
                cause = self._metadata_cause()
                self.recorder.fail(str(exc) or type(exc).__name__)
                if cause is not None and isinstance(exc, OAuthFlowError):
                    # the SDK went on with default endpoints at the MCP server's origin: say what was wrong first
                    raise OAuthFlowError(f"{cause}; then {str(exc) or type(exc).__name__}") from exc
                raise
            finally:
                await inner.aclose()
            if not restart:
                self.recorder.finish()
                return

    def _first_answer(self, request: httpx2.Request, response: httpx2.Response, refreshed: bool) -> _Action:
        """What to do with the server's first answer to ``request`` in this flow."""
        self._stepping_up = False
        if response.status_code == 401:
            sent_token = request.headers.get("authorization", "").lower().startswith("bearer ")
            if sent_token and not refreshed and self.context.can_refresh_token():
                self.context.token_expiry_time = 1.0  # expired: the SDK refreshes before resending
                return "refresh"
            return "continue"
        if response.status_code != 403 or extract_field_from_www_auth(response, "error") != "insufficient_scope":
            return "continue"
        challenged = _scope_set(extract_field_from_www_auth(response, "scope"))
        tokens = self.context.current_tokens
        granted = _scope_set(tokens.scope if tokens is not None else None)
        if challenged and challenged <= granted:
            self.recorder.note(
                AuthStepKind.CHALLENGE,
                "Not re-authorizing: the token already has every scope the server asks for",
                {"scope": " ".join(sorted(challenged))},
            )
            return "stop"
        if self._step_ups.get(challenged, 0) >= MAX_STEP_UPS:
            self.recorder.note(
                AuthStepKind.CHALLENGE,
                "Not re-authorizing: step-up for these scopes was already tried",
                {"scope": " ".join(sorted(challenged))},
            )
            return "stop"
        self._step_ups[challenged] = self._step_ups.get(challenged, 0) + 1
        self._stepping_up = True
        return "continue"

    def _adjust(self, request: httpx2.Request, original: httpx2.Request) -> httpx2.Request:
        """Every request of the flow is checked against the OAuth URL rule before it is sent; a registration
        request also asks for the user's scopes (so the server lets us request them)."""
        kind = classify_request(request, original)
        try:
            check_oauth_url(str(request.url), f"the OAuth {kind.value} request to")
        except ValueError as exc:
            raise OAuthFlowError(f"refusing to continue authorization: {exc}") from None
        if not self.user_scopes or request.method != "POST" or "json" not in request.headers.get("content-type", ""):
            return request
        try:
            body = json.loads(request.content)
        except ValueError:
            return request
        if not isinstance(body, dict) or "redirect_uris" not in body:
            return request
        wanted = union_scopes(body.get("scope"), self.user_scopes)
        if wanted == body.get("scope"):
            return request
        body["scope"] = wanted
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("content-length",)}
        return httpx2.Request(request.method, request.url, json=body, headers=headers, extensions=request.extensions)

    def _record_challenge(
        self, request: httpx2.Request, response: httpx2.Response, elapsed: float, *, retried: bool
    ) -> None:
        details = {"www_authenticate": response.headers.get("www-authenticate", "(none)")}
        for name in ("error", "scope", "resource_metadata"):
            value = extract_field_from_www_auth(response, name)
            if value is not None:
                details[name] = value
        what = "insufficient scope" if details.get("error") == "insufficient_scope" else "authorization required"
        if retried:
            summary = f"The MCP server still answered {response.status_code} with the new token ({what})"
        else:
            summary = f"The MCP server answered {response.status_code} ({what})"
        self.recorder.begin(AuthStepKind.CHALLENGE, summary, details)
        self.recorder.add(AuthStepKind.CHALLENGE, exchange_of(request, response, elapsed))
        self.recorder.finish(StepStatus.FAILED if retried else StepStatus.INFO)

    # -- SDK hooks ---------------------------------------------------------------------------------

    async def _initialize(self) -> None:
        await super()._initialize()
        store = self._keyring
        if store is not None and self.context.current_tokens is not None:
            self.context.token_expiry_time = store.expires_at()
            if self.context.oauth_metadata is None:
                self.context.oauth_metadata = store.stored_server_metadata()

    async def _perform_authorization(self) -> httpx2.Request:
        metadata = self.context.oauth_metadata
        self._check_endpoints()
        if metadata is not None and "S256" not in (metadata.code_challenge_methods_supported or []):
            raise OAuthFlowError(
                "the authorization server does not advertise PKCE S256 support (code_challenge_methods_supported); "
                "refusing to authorize"
            )
        if self.user_scopes:
            current = self.context.client_metadata.scope
            self.context.client_metadata.scope = (
                union_scopes(self.user_scopes, current) if self._stepping_up else self.user_scopes
            )
        return await super()._perform_authorization()

    def _note_discovery(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """Remember why an authorization-server metadata URL gave nothing usable (status, content type)."""
        if "oauth-authorization-server" not in request.url.path and "openid-configuration" not in request.url.path:
            return
        if response.status_code == 200 and "json" in response.headers.get("content-type", ""):
            self._metadata_misses.clear()
            return
        media = response.headers.get("content-type", "no content type").split(";")[0].strip()
        self._metadata_misses.append(f"{request.url} answered {response.status_code} ({media})")

    def _metadata_cause(self) -> str | None:
        """When no authorization-server metadata could be read: which URLs were tried and what they answered."""
        if self.context.oauth_metadata is not None or not self._metadata_misses:
            return None
        return "the authorization server's metadata could not be read: " + "; ".join(self._metadata_misses[-4:])

    def _check_endpoints(self) -> None:
        """The authorization server's endpoints (from its metadata, or the SDK's defaults at the MCP server's
        origin when there was none) obey the OAuth URL rule, before the browser opens or anything is fetched."""
        metadata = self.context.oauth_metadata
        if metadata is None:
            base = self.context.get_authorization_base_url(self.context.server_url)
            fields = {"authorization_endpoint (default, no metadata)": f"{base}/authorize"}
            where = "the MCP server's"
        else:
            fields = {
                name: str(value)
                for name in ("issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
                if (value := getattr(metadata, name, None)) is not None
            }
            where = "the authorization server's metadata field"
        for name, url in fields.items():
            try:
                check_oauth_url(url, f"{where} {name}")
            except ValueError as exc:
                raise OAuthFlowError(f"refusing to authorize: {exc}") from None

    def _check_tokens(self, field_source: str) -> None:
        """Tokens go into an Authorization header: visible ASCII only (RFC 6750 b64token), else refused."""
        tokens = self.context.current_tokens
        if tokens is None:
            return
        for name in ("access_token", "refresh_token"):
            value = getattr(tokens, name, None)
            if not isinstance(value, str):
                continue
            bad = next(((i, ch) for i, ch in enumerate(value) if not 0x21 <= ord(ch) <= 0x7E), None)
            if bad is not None or not value:
                self.context.current_tokens = None
                what = "is empty" if bad is None else f"holds U+{ord(bad[1]):04X} at position {bad[0]}"
                raise OAuthFlowError(
                    f"refusing the {field_source}: its {name} {what}; a bearer token must be visible ASCII "
                    "(RFC 6750), it could not be sent in an Authorization header"
                )

    def _settle_token_auth_method(self) -> None:
        """Give a client with a secret but no token endpoint auth method one the server supports."""
        info = self.context.client_info
        if info is None or info.token_endpoint_auth_method is not None or not info.client_secret:
            return
        metadata = self.context.oauth_metadata
        supported = metadata.token_endpoint_auth_methods_supported if metadata is not None else None
        if supported is None:
            method = "client_secret_basic"  # RFC 8414 section 2: the default
        elif "client_secret_basic" in supported:
            method = "client_secret_basic"
        elif "client_secret_post" in supported:
            method = "client_secret_post"
        else:
            return
        self.context.client_info = info.model_copy(update={"token_endpoint_auth_method": method})

    async def _exchange_token_authorization_code(self, auth_code: str, code_verifier: str) -> httpx2.Request:
        self._settle_token_auth_method()
        return await super()._exchange_token_authorization_code(auth_code, code_verifier)

    async def _refresh_token(self) -> httpx2.Request:
        self._settle_token_auth_method()
        return await super()._refresh_token()

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        await super()._handle_token_response(response)
        self._check_tokens("token response")
        self._notice_session_only()

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        ok = await super()._handle_refresh_response(response)
        if ok:
            self._check_tokens("refresh token response")
        if not ok and self.recorder.current is not None and self.recorder.current.kind == AuthStepKind.REFRESH:
            self.recorder.finish(StepStatus.FAILED, f"refresh refused (HTTP {response.status_code}); authorizing again")
        return ok

    def _notice_session_only(self) -> None:
        if self._storage_noticed or self._keyring is None or self._keyring.persistent:
            return
        self._storage_noticed = True
        self.recorder.note(AuthStepKind.NOTICE, self._keyring.message or "Tokens are kept for this session only")

    # -- step descriptions -------------------------------------------------------------------------

    def _describe(self, kind: AuthStepKind) -> tuple[str, Mapping[str, str]]:
        ctx = self.context
        if kind == AuthStepKind.DISCOVERY:
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
                "storage": "keyring" if self._keyring is None or self._keyring.persistent else "session memory",
            }
            return ("Access token refreshed" if kind == AuthStepKind.REFRESH else "Access token received"), details
        if kind == AuthStepKind.REFRESH:
            return "Refresh refused", {}
        return "", {}
