"""OAuth and the HTTP transport for a URL target: the flags, else what the conformance harness passes.

OAuth is built lazily, on the server's first 401 (or 403): importing the SDK's OAuth support costs seconds,
which a server that needs no authorization should not cost a one-shot run.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.cli.args import CliOptions
from inspector.cli.auth_options import grant_options
from inspector.cli.errors import UsageError

if TYPE_CHECKING:
    import httpx2

    from inspector.auth import GrantOptions
    from inspector.transports.base import Transport

__all__ = ["CLIENT_SECRET_ENV", "remote_transport"]

CLIENT_SECRET_ENV = "MCP_INSPECT_CLIENT_SECRET"


def _message(exc: BaseException) -> str:
    return str(exc).strip() or type(exc).__name__


def _debug() -> bool:
    from inspector.cli.main import DEBUG_ENV

    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


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


def _oauth(opts: CliOptions, url: str) -> httpx2.Auth:
    """OAuth for a URL target (it acts only when the server answers 401): flags first, then the conformance
    harness's settings (``MCP_CONFORMANCE_CONTEXT``) when it runs us."""
    from inspector.auth import KeyringTokenStorage, build_oauth_auth

    if not _debug():
        import logging

        # the SDK logs a failed flow with its traceback; the CLI reports it as one line instead
        logging.getLogger("mcp").addHandler(logging.NullHandler())
    settings = _oauth_settings(opts)
    storage = None
    if opts.auto_approve:
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
        )
    except ValueError as exc:
        raise UsageError(_message(exc)) from None


def _lazy_oauth(opts: CliOptions, url: str) -> httpx2.Auth:
    """OAuth built on the server's first 401 (or 403): importing the SDK's OAuth support costs seconds, which
    a server that needs no authorization should not cost a one-shot run."""
    import httpx2

    class LazyOAuth(httpx2.Auth):
        def __init__(self) -> None:
            self.inner: httpx2.Auth | None = None

        async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
            if self.inner is None:
                response = yield request
                if response.status_code not in (401, 403):
                    return
                if self.inner is None:  # (another request may have been refused meanwhile)
                    self.inner = _oauth(opts, url)
            flow = self.inner.async_auth_flow(request)
            try:
                outgoing = await flow.__anext__()
                while True:
                    response = yield outgoing
                    outgoing = await flow.asend(response)
            except StopAsyncIteration:
                return
            finally:
                await flow.aclose()  # in this task: the provider's flow holds a lock across its yields

    return LazyOAuth()


def remote_transport(opts: CliOptions, url: str) -> Transport:
    from inspector.transports.select import transport_for_target

    headers = dict(opts.headers)
    # an Authorization header of the user's own means they manage authorization themselves
    own_auth = any(name.lower() == "authorization" for name in headers)
    try:
        if not own_auth:
            _oauth_settings(opts)  # unusable OAuth settings (a bad key file, harness context) are usage errors now
        return transport_for_target(
            url,
            transport=opts.transport,
            headers=headers,
            auth=None if own_auth else _lazy_oauth(opts, url),
            timeout=opts.timeout,
            limits=opts.limits,
        )
    except ValueError as exc:
        raise UsageError(_message(exc)) from None
