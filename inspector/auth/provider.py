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
* a flow lock any task may release (see :class:`_FlowLock`);
* client registrations bound to their authorization server's issuer (:mod:`inspector.auth.storage`): when the
  protected-resource metadata names another server, the registration stored for that one is used or the
  client registers there, and a pre-registered client bound to another issuer is refused, never sent there;
* grants other than authorization code (:mod:`inspector.auth.grants`): client credentials, jwt-bearer
  (workload identity) and enterprise-managed authorization (an ID-JAG from the enterprise IdP,
  :mod:`inspector.auth.enterprise`); ``private_key_jwt`` client authentication on every token request; a grant
  the authorization server refused is not retried with the same credentials;
* DPoP (:mod:`inspector.auth.dpop`): a proof on token requests when the authorization server supports it (or
  the MCP server demands it), ``Authorization: DPoP`` plus a fresh proof on every MCP request with a bound
  token, and one retry with the server's nonce on ``use_dpop_nonce``.
"""

from __future__ import annotations

import hashlib
import json
import ssl
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any, Literal, cast

import anyio
import httpx2
from mcp.client.auth import (
    AuthorizationCodeResult,
    OAuthClientProvider,
    OAuthFlowError,
    OAuthRegistrationError,
    OAuthTokenError,
    TokenStorage,
)
from mcp.client.auth.utils import (
    credentials_match_issuer,
    extract_field_from_www_auth,
    extract_resource_metadata_from_www_auth,
    issuers_match,
    union_scopes,
)
from mcp.shared.auth import OAuthClientMetadata

from inspector.auth.assertions import CLIENT_ASSERTION_TYPE
from inspector.auth.dpop import DPOP_HEADER, DPoPMode, DPoPSigner, nonce_challenge, wanted_algorithm
from inspector.auth.enterprise import IdJagExchange
from inspector.auth.forms import as_bearer_answer, form_of, with_form
from inspector.auth.grants import Grant, GrantOptions, choose_grant, declared_extensions, grant_form
from inspector.auth.metadata import DiscoveryLog, Document, check_document_urls, document_of, short
from inspector.auth.steps import AuthStep, AuthStepKind, StepRecorder, StepStatus, classify_request, exchange_of
from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.urls import check_oauth_url
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import message_of

__all__ = ["InspectorOAuthProvider"]

_Action = Literal["continue", "stop", "refresh"]
MAX_STEP_UPS = 1
"""Step-up authorizations per challenged scope set (after that the 403 is returned as it is)."""
_TOKEN_KINDS = (AuthStepKind.TOKEN, AuthStepKind.REFRESH)
_FINAL_TOKEN_ERRORS = frozenset(
    {"invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"}
)
"""Token endpoint errors (RFC 6749 section 5.2) that sending the same credentials again cannot change."""


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
        grant: GrantOptions | None = None,
        client_issuer: str | None = None,
        verify: ssl.SSLContext | bool = True,
        limits: Limits = DEFAULT_LIMITS,
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
        self.grant = grant if grant is not None else GrantOptions()
        self.client_issuer = client_issuer
        """The authorization server the configured (pre-registered) client belongs to (None: not said)."""
        self._id_jag = (
            IdJagExchange(self.grant.enterprise, recorder=recorder, verify=verify, limits=limits)
            if self.grant.enterprise is not None
            else None
        )
        self._asm_document: dict[str, Any] | None = None
        """The authorization-server metadata as it arrived (the SDK's model drops the fields it does not know)."""
        self._dpop_demanded = False
        """The MCP server asked for DPoP (a ``DPoP`` challenge, or ``dpop_bound_access_tokens_required``)."""
        self.dpop: DPoPSigner | None = None
        """The DPoP key of this session, once DPoP is used."""
        self._dpop_token: str | None = None
        """The access token that is bound to :attr:`dpop` (sent with the DPoP scheme)."""
        self._grant_used: tuple[Grant, str] | None = None
        self._pending_fingerprint: str | None = None
        self._refused: dict[str, str] = {}
        """Credentials fingerprint -> the authorization server's final refusal of them (not sent again)."""

    # -- public extras -----------------------------------------------------------------------------

    @property
    def steps(self) -> list[AuthStep]:
        """Every step so far (latest version of each)."""
        return list(self.recorder.steps)

    @property
    def declared_extensions(self) -> frozenset[str]:
        """The auth extension ids to declare in ``clientCapabilities.extensions`` (see :mod:`.grants`)."""
        info = self.context.client_info
        confidential = self.grant.client_key is not None or (info is not None and bool(info.client_secret))
        return declared_extensions(self.grant, confidential=confidential)

    def forget(self) -> None:
        """Drop the tokens and registration held in memory and in storage ("clear stored authorization")."""
        self.context.clear_tokens()
        self.context.client_info = None
        self.context.oauth_metadata = None
        self.context.protected_resource_metadata = None
        self._initialized = False
        self._step_ups.clear()
        self._dpop_token = None
        self._refused.clear()
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
                    retry = await self._dpop_retry(outgoing, request, response)
                    if retry is not None:  # use_dpop_nonce: once more with the server's nonce
                        self._record_nonce_challenge(outgoing, request, response, elapsed)
                        started = time.monotonic()
                        response = yield retry
                        elapsed = time.monotonic() - started
                        if self.dpop is not None:
                            self.dpop.notice(response)
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
        if response.headers.get("www-authenticate", "").lstrip()[:5].lower() == "dpop ":
            self._dpop_demanded = True  # RFC 9449 section 7.1: the resource server accepts DPoP tokens
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
            try:
                value: Any = json.loads(body)
            except ValueError:
                return
            if not isinstance(value, dict):
                return
            if document is Document.ASM:
                self._asm_document = value
            elif value.get("dpop_bound_access_tokens_required") is True:
                self._dpop_demanded = True

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
            sent_token = request.headers.get("authorization", "").lower().startswith(("bearer ", "dpop "))
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
        if kind in _TOKEN_KINDS:
            return self._adjust_token_request(request)
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

    def _record_nonce_challenge(
        self, outgoing: httpx2.Request, request: httpx2.Request, response: httpx2.Response, elapsed: float
    ) -> None:
        if outgoing is request:
            details = {"www_authenticate": response.headers.get("www-authenticate", "(none)")}
            self.recorder.begin(
                AuthStepKind.CHALLENGE, "The MCP server asked for a DPoP nonce; sending again with it", details
            )
            self.recorder.add(AuthStepKind.CHALLENGE, exchange_of(request, response, elapsed))
            self.recorder.finish(StepStatus.INFO)
            return
        kind = classify_request(outgoing, request)
        self.recorder.add(kind, exchange_of(outgoing, response, elapsed))
        self.recorder.update(details={"dpop_nonce": "asked for by the token endpoint; sent again with it"})

    async def _dpop_retry(
        self, outgoing: httpx2.Request, request: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Request | None:
        """The request to send again when ``response`` is a ``use_dpop_nonce`` challenge to a proof we sent (the
        same request with a new proof carrying the nonce), else None. Every answer's nonce is remembered."""
        signer = self.dpop
        if signer is None or DPOP_HEADER not in outgoing.headers:
            return None
        signer.notice(response)
        if outgoing is request:
            token = self._dpop_token
            if response.status_code != 401 or token is None or nonce_challenge(response) is None:
                return None
            return signer.sign(request, access_token=token)
        if response.status_code != 400 or classify_request(outgoing, request) not in _TOKEN_KINDS:
            return None
        if nonce_challenge(response, await response.aread()) is None:
            return None
        return signer.sign(outgoing)

    def _issuer_id(self) -> str:
        """The authorization server's issuer identifier exactly as its metadata states it (the audience of
        client assertions and ID-JAGs); the token endpoint when there is no metadata."""
        document = self._asm_document or {}
        issuer = document.get("issuer")
        if isinstance(issuer, str) and issuer:
            return issuer
        metadata = self.context.oauth_metadata
        return str(metadata.issuer) if metadata is not None else self._get_token_endpoint()

    def _adjust_token_request(self, request: httpx2.Request) -> httpx2.Request:
        """A token request gets the ``private_key_jwt`` client assertion (when the client authenticates so) and a
        DPoP proof (when DPoP is used)."""
        info = self.context.client_info
        key = self.grant.client_key
        if (
            key is not None
            and info is not None
            and info.token_endpoint_auth_method == "private_key_jwt"
            and "client_assertion" not in form_of(request)
        ):
            assertion = key.assertion(info.client_id, self._issuer_id())
            request = with_form(
                request, {"client_assertion_type": CLIENT_ASSERTION_TYPE, "client_assertion": assertion}
            )
        signer = self._dpop_signer()
        if signer is not None:
            signer.sign(request)
        else:
            request.headers.pop(DPOP_HEADER, None)
        return request

    def _dpop_signer(self) -> DPoPSigner | None:
        """The DPoP key to prove possession of at the token endpoint now (None: no DPoP), see :class:`DPoPMode`."""
        if self.grant.dpop is not DPoPMode.OFF and self.dpop is not None and self._dpop_token is not None:
            return self.dpop  # the refresh of a bound token is bound to the same key (RFC 9449 section 5)
        advertised = (self._asm_document or {}).get("dpop_signing_alg_values_supported")
        try:
            algorithm = wanted_algorithm(self.grant.dpop, advertised, demanded=self._dpop_demanded)
        except ValueError as exc:
            raise OAuthFlowError(f"DPoP: {message_of(exc)}") from None
        if algorithm is None:
            return None
        if self.dpop is None or (isinstance(advertised, list) and self.dpop.algorithm not in advertised):
            self.dpop = DPoPSigner(algorithm)
        return self.dpop

    def _add_auth_header(self, request: httpx2.Request) -> None:
        tokens = self.context.current_tokens
        token = tokens.access_token if tokens is not None else None
        if token and self.dpop is not None and token == self._dpop_token:
            request.headers["Authorization"] = f"DPoP {token}"  # RFC 9449 section 7.1
            self.dpop.sign(request, access_token=token)
            return
        request.headers.pop(DPOP_HEADER, None)
        super()._add_auth_header(request)

    def _bind_registration(self, issuer: str) -> None:
        """Use the client registration that belongs to the authorization server ``issuer`` (MCP 2026-07-28 client
        registration): a configured client bound to another server is refused; a stored registration at another
        server is set aside (with the tokens it got) for the one stored for ``issuer``, or for none, so the SDK
        registers there."""
        if self.client_issuer is not None and not issuers_match(self.client_issuer, issuer):
            raise OAuthFlowError(
                f"the configured client belongs to the authorization server {self.client_issuer}, but the MCP server "
                f"now names {issuer}: its credentials are not sent there; configure the client registered at {issuer}"
            )
        store = self._keyring
        info = self.context.client_info
        if store is None or store.preregistered is not None:
            return
        if info is not None:
            if info.issuer is not None and issuers_match(info.issuer, issuer):
                return  # bound to this server
            portable = credentials_match_issuer(info, issuer, self.context.client_metadata_url)
            if portable and (info.issuer is not None or store.registration_for(issuer) is None):
                return  # CIMD, or bound to no server with nothing better stored
        stored = store.registration_for(issuer)
        if info is not None and info.issuer is not None:
            self.context.clear_tokens()  # issued by the other server
            self.context.oauth_metadata = None
            self._dpop_token = None
        self.context.client_info = stored
        if stored is not None:
            store.use_client(stored)
        if info is not None and info.issuer is not None:
            self.recorder.note(
                AuthStepKind.NOTICE,
                f"The authorization server changed to {issuer}: "
                + ("using the client registered there earlier" if stored else "registering there"),
                {"previous_issuer": info.issuer, "issuer": issuer},
            )

    def _expected_issuer(self) -> str:
        issuer = super()._expected_issuer()
        self._bind_registration(issuer)  # before the SDK decides whether to reuse the registration it holds
        return issuer

    # -- SDK hooks ---------------------------------------------------------------------------------

    async def _initialize(self) -> None:
        await super()._initialize()
        store = self._keyring
        tokens = self.context.current_tokens
        if store is not None and tokens is not None:
            self.context.token_expiry_time = store.expires_at()
            if self.context.oauth_metadata is None:
                self.context.oauth_metadata = store.stored_server_metadata()
            binding = store.stored_token_binding()
            if binding is not None and self.dpop is not None and self.dpop.jkt == binding:
                self._dpop_token = tokens.access_token
            elif binding is not None:
                self.context.clear_tokens()  # bound to a DPoP key of an earlier session, which is gone
                self.recorder.note(
                    AuthStepKind.NOTICE, "The stored token is bound to the DPoP key of an earlier session: not used"
                )

    async def _perform_authorization(self) -> httpx2.Request:
        metadata = self.context.oauth_metadata
        self._check_endpoints()
        if self.user_scopes:
            current = self.context.client_metadata.scope
            self.context.client_metadata.scope = (
                union_scopes(self.user_scopes, current) if self._stepping_up else self.user_scopes
            )
        info = self.context.client_info
        confidential = info is not None and (bool(info.client_secret) or self.grant.client_key is not None)
        supported = metadata.grant_types_supported if metadata is not None else None
        grant, why = choose_grant(self.grant, confidential=confidential, grant_types_supported=supported)
        self._grant_used = (grant, why)
        self._pending_fingerprint = None
        if grant is not Grant.AUTHORIZATION_CODE:
            return await self._grant_request(grant, why)
        if metadata is not None and "S256" not in (metadata.code_challenge_methods_supported or []):
            raise OAuthFlowError(
                "the authorization server does not advertise PKCE S256 support (code_challenge_methods_supported); "
                "refusing to authorize"
            )
        return await super()._perform_authorization()

    def _fingerprint(self, grant: Grant, secret_input: str | None) -> str:
        info = self.context.client_info
        key = self.grant.client_key
        parts = [
            grant.value,
            info.client_id if info is not None else "",
            (info.client_secret or "") if info is not None else "",
            key.algorithm if key is not None else "",
            secret_input or "",
            self.context.client_metadata.scope or "",
            self._get_token_endpoint(),
        ]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    async def _grant_request(self, grant: Grant, why: str) -> httpx2.Request:
        """The token request of a client-credentials, jwt-bearer or enterprise grant (see :mod:`.grants`)."""
        ctx = self.context
        info = ctx.client_info
        label = grant.value.replace("_", " ")
        if info is None:
            raise OAuthFlowError(f"the {label} grant needs a client id (this client is not registered there)")
        if grant is Grant.CLIENT_CREDENTIALS and not info.client_secret and self.grant.client_key is None:
            raise OAuthFlowError("the client credentials grant needs the client's secret or private key")
        resource = ctx.get_resource_url() if ctx.should_include_resource_param(ctx.protocol_version) else None
        scope = ctx.client_metadata.scope
        source = self.grant.assertion if grant is Grant.JWT_BEARER else None
        if grant is Grant.ENTERPRISE:
            source = self.grant.enterprise.id_token if self.grant.enterprise is not None else None
        secret_input: str | None = None
        if grant in (Grant.JWT_BEARER, Grant.ENTERPRISE):
            if source is None:
                what = "a JWT assertion" if grant is Grant.JWT_BEARER else "the enterprise IdP and an ID token"
                raise OAuthFlowError(f"the {label} grant needs {what}")
            try:
                secret_input = source.read()
            except ValueError as exc:
                raise OAuthFlowError(f"the {label} grant: {message_of(exc)}") from None
        fingerprint = self._fingerprint(grant, secret_input)
        refused = self._refused.get(fingerprint)
        if refused is not None:
            raise OAuthTokenError(f"not asking again with the credentials that were refused: {refused}")
        assertion = secret_input
        if grant is Grant.ENTERPRISE:
            assert self._id_jag is not None
            try:
                assertion = await self._id_jag.id_jag(
                    audience=self._issuer_id(), resource=resource or ctx.get_resource_url(), scope=scope
                )
            except OAuthTokenError as exc:
                self._refused[fingerprint] = message_of(exc)
                raise
        self.recorder.begin(AuthStepKind.TOKEN, f"Token request ({label} grant)", {"grant": grant.value, "why": why})
        data = grant_form(grant, client_id=info.client_id, resource=resource, scope=scope, assertion=assertion)
        self._settle_token_auth_method()
        data, headers = ctx.prepare_token_auth(data, {"Content-Type": "application/x-www-form-urlencoded"})
        self._pending_fingerprint = fingerprint
        return httpx2.Request("POST", self._get_token_endpoint(), data=data, headers=headers)

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

    def _bind_answer(self, response: httpx2.Response, body: bytes) -> tuple[httpx2.Response, bool]:
        """The token answer as the SDK reads it, and whether its token is DPoP-bound (kept aside: the SDK's model
        knows only Bearer). A bound token answering a request without our proof is refused."""
        readable, token_type = as_bearer_answer(response, body)
        bound = token_type is not None and token_type.lower() == "dpop"
        if bound and (self.dpop is None or DPOP_HEADER not in response.request.headers):
            raise OAuthFlowError("the authorization server issued a DPoP-bound token to a request without a DPoP proof")
        if self._keyring is not None:
            self._keyring.token_binding = self.dpop.jkt if bound and self.dpop is not None else None
        return readable, bound

    def _remember_refusal(self, body: bytes) -> None:
        fingerprint, self._pending_fingerprint = self._pending_fingerprint, None
        if fingerprint is None:
            return
        try:
            value: Any = json.loads(body)
        except ValueError:
            return
        error = value.get("error") if isinstance(value, dict) else None
        if error in _FINAL_TOKEN_ERRORS:
            described = value.get("error_description")
            self._refused[fingerprint] = f"{error}: {described}" if isinstance(described, str) and described else error

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        bound = False
        if response.status_code in (200, 201):
            body = await response.aread()
            check_token_body(body, "token response")  # before anything is stored
            response, bound = self._bind_answer(response, body)
            self._pending_fingerprint = None
        else:
            self._remember_refusal(await response.aread())
        await super()._handle_token_response(response)
        tokens = self.context.current_tokens
        self._dpop_token = tokens.access_token if bound and tokens is not None else None
        self._notice_session_only()

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        bound = False
        if response.status_code == 200:
            try:
                body = await response.aread()
                check_token_body(body, "refresh token response", whole=False)
                response, bound = self._bind_answer(response, body)
            except OAuthFlowError:
                self.context.clear_tokens()
                raise
        ok = await super()._handle_refresh_response(response)
        tokens = self.context.current_tokens
        self._dpop_token = tokens.access_token if ok and bound and tokens is not None else None
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
                "token_type": "DPoP" if self._dpop_token == tokens.access_token else "Bearer",
            }
            if self._dpop_token == tokens.access_token and self.dpop is not None:
                details["dpop_key"] = f"{self.dpop.algorithm}, thumbprint {self.dpop.jkt}"
            if kind == AuthStepKind.TOKEN and self._grant_used is not None:
                details["grant"] = self._grant_used[0].value
            return ("Access token refreshed" if kind == AuthStepKind.REFRESH else "Access token received"), details
        if kind == AuthStepKind.REFRESH:
            return "Refresh refused", {}
        return "", {}
