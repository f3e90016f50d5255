"""OAuth and the HTTP transport for a URL target: the flags, else what the conformance harness passes.

OAuth is built lazily, on the server's first 401 (or 403): importing the SDK's OAuth support costs seconds,
which a server that needs no authorization should not cost a one-shot run. With ``--use-stored-auth`` or
``--wait-for-auth`` it is built at once, so the first request carries the stored token.

Tokens live in the OS keyring, shared with the window (:mod:`inspector.cli.stored_auth`), except with
``--auto-approve`` alone (a throw-away login kept in memory). Nobody is asked to log in when
``--stored-auth-only`` says so or there is no terminal (stdin and stderr not TTYs; ``MCP_AUTO_OPEN_ENABLED=true``
opens the browser anyway, as the official CLI): stored tokens are still sent and refreshed, grants without a
browser still run, and otherwise the server's 401/403 is the answer (exit 3 ``auth_required``). Interactive
logins receive the redirect on ``--callback-url`` (:mod:`inspector.cli.callback_url`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.cli.args import CliOptions
from inspector.cli.auth_options import grant_options
from inspector.cli.errors import UsageError

if TYPE_CHECKING:
    import httpx2

    from inspector.auth import GrantOptions, KeyringTokenStorage
    from inspector.transports.base import Transport

__all__ = ["AUTO_OPEN_ENV", "CLIENT_SECRET_ENV", "remote_transport"]

CLIENT_SECRET_ENV = "MCP_INSPECT_CLIENT_SECRET"


def _message(exc: BaseException) -> str:
    return str(exc).strip() or type(exc).__name__


def _debug() -> bool:
    from inspector.cli.main import DEBUG_ENV

    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


AUTO_OPEN_ENV = "MCP_AUTO_OPEN_ENABLED"


@dataclass(frozen=True)
class _Plan:
    """How OAuth behaves in this run."""

    keyring: bool
    """Tokens come from and go to the user's keyring (False: memory, for this run only)."""
    no_interaction: str | None
    """Why nobody may be asked to log in (None: the browser, or --auto-approve)."""
    eager: bool
    """Build the provider before the first request (a stored token is to be sent)."""
    person_free: bool
    """A grant that needs no browser is configured (client credentials, jwt-bearer, ...)."""


def _person_present() -> bool:
    if os.environ.get(AUTO_OPEN_ENV, "").strip().lower() == "true":
        return True
    for stream in (sys.stdin, sys.stderr):
        try:
            if stream is not None and stream.isatty():
                return True
        except (AttributeError, ValueError):  # closed or replaced streams
            continue
    return False


def _plan(opts: CliOptions, settings: _OAuthSettings) -> _Plan:
    stored = opts.use_stored_auth or opts.wait_for_auth is not None or opts.stored_auth_only
    reason: str | None = None
    if opts.stored_auth_only:
        reason = "--stored-auth-only is set"
    elif not opts.auto_approve and not _person_present():
        reason = (
            f"there is no terminal to log in from (set {AUTO_OPEN_ENV}=true to open the browser anyway, log in "
            "with the window, or use --stored-auth-only in CI)"
        )
    return _Plan(
        keyring=stored or not opts.auto_approve,
        no_interaction=reason,
        eager=opts.use_stored_auth or opts.wait_for_auth is not None,
        person_free=bool(settings.client_secret) or settings.grant is not None,
    )


def _redirect_uri(opts: CliOptions, storage: KeyringTokenStorage) -> str:
    """--callback-url or $MCP_OAUTH_CALLBACK_URL; else the loopback redirect the stored registration was made
    with (so it stays valid); else the official default ``http://127.0.0.1:6276/oauth/callback``."""
    from inspector.cli.callback_url import callback_url

    chosen = callback_url(opts.callback_url)
    if not chosen.given:
        from inspector.auth import registered_loopback_redirect

        registered = registered_loopback_redirect(storage)
        if registered is not None:
            return registered
    if chosen.port == 0:
        from inspector.auth.callback import free_loopback_port

        return chosen.redirect_uri(free_loopback_port())
    return chosen.redirect_uri()


@dataclass(frozen=True)
class _OAuthSettings:
    client_id: str | None
    client_secret: str | None
    issuer: str | None
    cimd_url: str | None
    grant: GrantOptions | None


def _oauth_settings(opts: CliOptions) -> _OAuthSettings:
    """The client, its issuer, the CIMD URL and the grant options: the flags, else what the conformance harness
    passes. UsageError for unusable settings (a malformed harness context, an unreadable key file)."""
    harness = None
    if any(name.startswith("MCP_CONFORMANCE_") for name in os.environ):  # (importing inspector.auth is slow)
        from inspector.auth import conformance_settings

        try:
            harness = conformance_settings()
        except ValueError as exc:
            raise UsageError(_message(exc)) from None
    client_id, client_secret, issuer = opts.client_id, opts.client_secret, opts.oauth.issuer
    if client_id is not None and client_secret is None:
        client_secret = os.environ.get(CLIENT_SECRET_ENV) or None  # kept out of the process list
    if client_id is None and harness is not None and harness.client_id:
        client_id, client_secret, issuer = harness.client_id, harness.client_secret, harness.issuer
    cimd_url = opts.client_metadata_url or (harness.cimd_url if harness is not None else None)
    grant = grant_options(opts.oauth)
    if grant is None and harness is not None:
        try:
            grant = harness.grant_options()
        except ValueError as exc:
            raise UsageError(f"{_message(exc)} (in MCP_CONFORMANCE_CONTEXT)") from None
    return _OAuthSettings(client_id, client_secret, issuer, cimd_url, grant)


def _oauth(opts: CliOptions, url: str, plan: _Plan) -> httpx2.Auth:
    """OAuth for a URL target (it acts only when the server answers 401): flags first, then the conformance
    harness's settings (``MCP_CONFORMANCE_CONTEXT``) when it runs us."""
    from inspector.auth import KeyringTokenStorage, build_oauth_auth
    from inspector.cli.connect_deadline import paused

    if not _debug():
        import logging

        # the SDK logs a failed flow with its traceback; the CLI reports it as one line instead
        logging.getLogger("mcp").addHandler(logging.NullHandler())
    settings = _oauth_settings(opts)
    storage = KeyringTokenStorage(url)  # the user's keyring, shared with the window
    if not plan.keyring:
        # an unattended run keeps its tokens for itself: nothing lands in (or comes from) the user's keyring
        import keyring.backends.fail

        from inspector.store.secrets import SecretStore

        memory_only = keyring.backends.fail.Keyring()  # type: ignore[no-untyped-call]
        storage = KeyringTokenStorage(url, secrets=SecretStore(backend=memory_only))
    try:
        return build_oauth_auth(
            url,
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            issuer=settings.issuer,
            cimd_url=settings.cimd_url,
            scopes=opts.scopes or None,
            storage=storage,
            auto_approve=opts.auto_approve,
            limits=opts.limits,
            grant=settings.grant,
            redirect_uri=_redirect_uri(opts, storage),
            no_interaction=plan.no_interaction,
            person_waits=paused,  # a person logging in does not run the --connect-timeout down
        )
    except ValueError as exc:
        raise UsageError(_message(exc)) from None


def _lazy_oauth(opts: CliOptions, url: str, plan: _Plan) -> httpx2.Auth:
    """OAuth built on the server's first 401 (or 403): importing the SDK's OAuth support costs seconds, which
    a server that needs no authorization should not cost a one-shot run."""
    import httpx2

    def hopeless() -> bool:
        """Nobody may log in and nothing could authorize without a person: the server's refusal is the answer
        (and nothing is registered at its authorization server)."""
        if plan.no_interaction is None or plan.person_free:
            return False
        from inspector.cli.stored_auth import token_stored

        return not token_stored(url)

    class LazyOAuth(httpx2.Auth):
        def __init__(self) -> None:
            self.inner: httpx2.Auth | None = _oauth(opts, url, plan) if plan.eager else None
            self.hopeless = False

        async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
            if self.inner is None:
                response = yield request
                if response.status_code not in (401, 403) or self.hopeless:
                    return
                if self.inner is None:  # (another request may have been refused meanwhile)
                    if hopeless():
                        self.hopeless = True
                        return
                    self.inner = _oauth(opts, url, plan)
            flow = self.inner.async_auth_flow(request)
            refused = False
            try:
                outgoing = await flow.__anext__()
                while True:
                    response = yield outgoing
                    outgoing = await flow.asend(response)
            except StopAsyncIteration:
                return
            except Exception as exc:
                from inspector.auth import interaction_refused

                if interaction_refused(exc) is None:
                    raise
                refused = True
            finally:
                await flow.aclose()  # in this task: the provider's flow holds a lock across its yields
            if refused:
                # a login was needed and may not happen: the server's own refusal (401/403) is the answer
                yield request

    return LazyOAuth()


def remote_transport(opts: CliOptions, url: str, *, revoke_on_clear: bool = True) -> Transport:
    """The transport for the server at ``url``, with OAuth unless the user sends their own Authorization header.

    ``--relogin``, ``--wait-for-auth`` and ``--use-stored-auth`` act here, before anything is sent (blocking:
    nothing else runs yet). ``revoke_on_clear``: False when the server's catalog entry says
    ``oauth.revokeOnClear: false`` (``--relogin`` then only forgets, as with ``--no-revoke``)."""
    from inspector.transports.select import transport_for_target

    headers = dict(opts.headers)
    # an Authorization header of the user's own means they manage authorization themselves
    own_auth = any(name.lower() == "authorization" for name in headers)
    try:
        auth = None
        if not own_auth:
            from inspector.cli.callback_url import callback_url

            callback_url(opts.callback_url)  # (checked again when a login needs it, inside the auth flow)
            settings = _oauth_settings(opts)  # unusable settings (a bad key file, harness context): usage errors now
        if opts.relogin or (not own_auth and (opts.use_stored_auth or opts.wait_for_auth is not None)):
            from inspector.cli.stored_auth import prepare_stored_auth

            prepare_stored_auth(opts, url, revoke=revoke_on_clear)
        if not own_auth:
            auth = _lazy_oauth(opts, url, _plan(opts, settings))
        return transport_for_target(
            url,
            transport=opts.transport,
            headers=headers,
            auth=auth,
            timeout=opts.timeout,
            limits=opts.limits,
        )
    except ValueError as exc:
        raise UsageError(_message(exc)) from None
