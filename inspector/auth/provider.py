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
* the token endpoint auth method of a client without one chosen from the server's metadata;
* the OAuth URL rule (:mod:`inspector.auth.urls`) on the challenge's ``resource_metadata``, on the URL fields
  of each metadata document as it arrives, on the endpoints before authorizing and on every request of the
  flow before it is sent;
* tokens that cannot go in an ``Authorization`` header refused before they are stored;
* when the SDK fell back to default endpoints at the MCP server's origin and that failed, an error saying
  what was wrong with the metadata (:mod:`inspector.auth.metadata`), or that there is no registration_endpoint;
* a flow lock any task may release (see :class:`_FlowLock`).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from types import TracebackType
from typing import Literal, cast

import anyio
import httpx2
from mcp.client.auth import (
    AuthorizationCodeResult,
    OAuthClientProvider,
    OAuthFlowError,
    OAuthRegistrationError,
    TokenStorage,
)
from mcp.client.auth.utils import extract_field_from_www_auth, extract_resource_metadata_from_www_auth, union_scopes
from mcp.shared.auth import OAuthClientMetadata

from inspector.auth.metadata import DiscoveryLog, Document, check_document_urls, document_of, short
from inspector.auth.steps import AuthStep, AuthStepKind, StepRecorder, StepStatus, classify_request, exchange_of
from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.urls import check_oauth_url
from inspector.transports.base import message_of

__all__ = ["InspectorOAuthProvider"]

_Action = Literal["continue", "stop", "refresh"]
MAX_STEP_UPS = 1
"""Step-up authorizations per challenged scope set (after that the 403 is returned as it is)."""


def _scope_set(scope: str | None) -> frozenset[str]:
    return frozenset(scope.split()) if scope else frozenset()


class _FlowLock:
    """The lock the SDK holds around one auth flow, releasable from any task.

    The SDK keeps ``context.lock`` (an ``anyio.Lock``) across the yields of its flow generator. When whoever
    drives the flow drops it without closing it (an exception in ``send``, a wrapping ``httpx2.Auth`` that
    does not close the flow it delegates to), the generator is closed later by the event loop's async-
    generator finalizer in a task of its own; an ``anyio.Lock`` refuses to be released there ("The current
    task is not holding this lock"), the finalizer task dies with a traceback, and the lock stays held, so
    the next request hangs. A semaphore of one has no owner: the flow that ends releases it, wherever."""

    def __init__(self) -> None:
        self._semaphore = anyio.Semaphore(1)

    async def __aenter__(self) -> None:
        await self._semaphore.acquire()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._semaphore.release()


def check_token_body(body: bytes, what: str, *, whole: bool = True) -> None:
    """The tokens of a token endpoint's JSON answer go into an ``Authorization`` header: each must be visible
    ASCII (RFC 6750 ``b64token``), else OAuthFlowError naming the field and the rule. With ``whole``, an
    answer that is not a JSON object with a non-empty ``access_token`` is refused too (a refresh answer like
    that is left to the SDK, which then authorizes again)."""
    try:
        value = json.loads(body)
    except ValueError as exc:
        if not whole:
            return
        raise OAuthFlowError(f"the {what} is not JSON ({short(message_of(exc))})") from None
    if not isinstance(value, dict):
        if not whole:
            return
        raise OAuthFlowError(f"the {what} is not a JSON object")
    if whole and (not isinstance(value.get("access_token"), str) or not value["access_token"]):
        raise OAuthFlowError(f"the {what} has no access_token (a non-empty string)")
    for name in ("access_token", "refresh_token", "token_type"):
        token = value.get(name)
        if not isinstance(token, str):
            continue
        bad = next(((i, ch) for i, ch in enumerate(token) if not 0x21 <= ord(ch) <= 0x7E), None)
        if bad is not None:
            raise OAuthFlowError(
                f"refusing the {what}: its {name} holds U+{ord(bad[1]):04X} at position {bad[0]}; a bearer token "
                "must be visible ASCII (RFC 6750), it could not be sent in an Authorization header"
            )


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
        self._discovery = DiscoveryLog()
        """What each metadata URL of this flow answered (for the error message when the flow fails)."""
        self._fallback_registration: str | None = None
        """The URL of a registration sent to the SDK's default endpoint (no ``registration_endpoint``)."""
        self._fallback: str | None = None
        """The first request of this flow sent to a default endpoint at the MCP server's origin (no metadata)."""
        self.context.lock = cast(anyio.Lock, _FlowLock())
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
                if outgoing is not request:  # a refresh before the request
                    outgoing = self._adjust(outgoing, request)
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
                            self._check_challenge(response)
                    else:
                        kind = classify_request(outgoing, request)
                        self.recorder.add(kind, exchange_of(outgoing, response, elapsed))
                        if kind is AuthStepKind.DISCOVERY:
                            await self._check_discovery(outgoing, response)
                    try:
                        outgoing = await inner.asend(response)
                    except StopAsyncIteration:
                        break
                    if outgoing is not request:
                        outgoing = self._adjust(outgoing, request)
            except Exception as exc:
                explained = self._explain(exc)
                self.recorder.fail(message_of(explained))
                if explained is exc:
                    raise
                raise explained from exc
            finally:
                await inner.aclose()
            if not restart:
                self.recorder.finish()
                return

    def _check_challenge(self, response: httpx2.Response) -> None:
        """A new flow starts with the MCP server's challenge: its ``resource_metadata`` URL obeys the rule."""
        self._discovery.clear()
        self._fallback_registration = self._fallback = None
        if response.status_code not in (401, 403):
            return
        url = extract_resource_metadata_from_www_auth(response)
        if url is not None:
            try:
                check_oauth_url(url, "the MCP server's WWW-Authenticate resource_metadata")
            except ValueError as exc:
                raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None

    async def _check_discovery(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """Remember what a metadata URL answered, and check the URL fields of a document as it arrives (before
        the SDK fetches or opens any of them)."""
        document = document_of(request.url)
        body = await response.aread()
        self._discovery.record(document, response, body)
        if response.status_code == 200:
            try:
                check_document_urls(document, str(request.url), body)
            except ValueError as exc:
                raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None

    def _explain(self, exc: Exception) -> Exception:
        """The error to report for ``exc``: what was wrong with the metadata when the SDK went on with its
        default endpoints at the MCP server's origin; an SDK message cut to one line; else ``exc`` itself."""
        if not isinstance(exc, OAuthFlowError):
            return exc
        ctx = self.context
        text = message_of(exc)
        cause = self._discovery.cause(
            have_prm=ctx.protected_resource_metadata is not None, have_asm=ctx.oauth_metadata is not None
        )
        if cause is not None:
            if self._fallback is None:
                return OAuthFlowError(f"{cause} ({short(text)})")
            return OAuthFlowError(
                f"{cause}; the SDK went on with default endpoints at the MCP server's origin "
                f"({short(self._fallback)}), and then: {short(text)}"
            )
        if isinstance(exc, OAuthRegistrationError) and self._fallback_registration and ctx.oauth_metadata:
            source = self._discovery.found.get(Document.ASM)
            where = f"{Document.ASM.value} ({source})" if source else Document.ASM.value
            return OAuthRegistrationError(
                f"{where} has no registration_endpoint: the authorization server offers no dynamic client "
                "registration; use a pre-registered client (client id and secret) or a client metadata URL "
                f"(CIMD) if it supports one (the fallback registration at {short(self._fallback_registration)} "
                f"failed: {short(text)})"
            )
        if short(text) != text:
            return type(exc)(short(text))
        return exc

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
            check_oauth_url(str(request.url), f"the OAuth {kind.value} request's URL")
        except ValueError as exc:
            raise OAuthFlowError(f"refusing to continue authorization: {message_of(exc)}") from None
        metadata = self.context.oauth_metadata
        if kind is AuthStepKind.REGISTRATION and (metadata is None or metadata.registration_endpoint is None):
            self._fallback_registration = str(request.url)
        if self._fallback is None and (
            (kind is AuthStepKind.REGISTRATION and self._fallback_registration)
            or (kind in (AuthStepKind.TOKEN, AuthStepKind.REFRESH) and metadata is None)
        ):
            self._fallback = str(request.url)
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

    def _check_endpoints(self) -> None:
        """The authorization server's endpoints (from its metadata, or the SDK's defaults at the MCP server's
        origin when there was none) obey the OAuth URL rule, before the browser opens or anything is fetched."""
        metadata = self.context.oauth_metadata
        if metadata is None:
            base = self.context.get_authorization_base_url(self.context.server_url)
            fields = {"authorization_endpoint (default, no metadata)": f"{base}/authorize"}
            self._fallback = self._fallback or f"{base}/authorize"
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
                raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None

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
        if response.status_code in (200, 201):
            check_token_body(await response.aread(), "token response")  # before anything is stored
        await super()._handle_token_response(response)
        self._notice_session_only()

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        if response.status_code == 200:
            try:
                check_token_body(await response.aread(), "refresh token response", whole=False)
            except OAuthFlowError:
                self.context.clear_tokens()
                raise
        ok = await super()._handle_refresh_response(response)
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
