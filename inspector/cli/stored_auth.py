"""Stored authorization: the OAuth tokens our app keeps in the OS keyring, shared by the window and the CLI.

The official inspector CLI shares tokens with the *web* inspector through its OAuth state file. Ours are where
the window keeps them: the keyring (:class:`inspector.auth.KeyringTokenStorage`, one entry per server URL), with
an index of the URLs (never the tokens) in the config dir because a keyring cannot be listed. A login in the
window is therefore usable here, and the flags keep the official meaning:

* ``--use-stored-auth``: connect with the stored token (refreshed when it expired); none stored: exit 3
  ``no_stored_token`` before connecting.
* ``--stored-auth-only``: never log in interactively; a server that wants authorization gets the stored token or
  the run ends with exit 3 ``auth_required`` (no-op for a server that does not).
* ``--wait-for-auth SEC``: wait until a token for the URL is stored (someone logs in with the window), then go on
  as with ``--use-stored-auth``; none within SEC: exit 3 ``auth_wait_timeout``.
* ``--relogin``: forget the stored authorization first, after revoking it at the authorization server (RFC 7009)
  when its metadata names a ``revocation_endpoint``; ``--no-revoke`` skips the revocation.
* ``--list-stored-auth``: the URLs with a stored token, one JSON object; ``--print-handoff``: what to run to log
  in with the window on the URL, and the command that continues once that is done.

:func:`check_stored_auth` holds the combination rules (the official ones, same messages' meaning, exit 1).
"""

from __future__ import annotations

import shlex
import sys
import time
from typing import TYPE_CHECKING, Any, Final

from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode
from inspector.cli.parser import CATALOG_METHODS
from inspector.protocol.methods import LIST_METHODS

if TYPE_CHECKING:
    from inspector.auth.storage import KeyringTokenStorage
    from inspector.cli.args import CliOptions
    from inspector.store.profiles import Profile

__all__ = [
    "DEFAULT_HANDOFF_WAIT",
    "check_stored_auth",
    "list_stored_auth",
    "prepare_stored_auth",
    "print_handoff",
    "token_stored",
]

DEFAULT_HANDOFF_WAIT: Final = 600
"""The ``--wait-for-auth`` seconds of the continuation command :func:`print_handoff` suggests."""
_POLL_INTERVAL: Final = 0.5
_PARAMETERLESS: Final = ("initialize", "ping", *LIST_METHODS)


# ------------------------------------------------------------------------------------------ combinations


def check_stored_auth(opts: CliOptions) -> None:
    """The stored-authorization flags checked against each other and the rest of the command line (UsageError).

    Needs ``method``, ``url``, ``server``, ``headers``, ``auto_approve`` and the flags themselves set."""
    offline = opts.list_stored_auth or opts.print_handoff
    if opts.relogin:
        if opts.stored_auth_only:
            raise UsageError("--relogin cannot be combined with --stored-auth-only (it may need to log in)")
        if opts.use_stored_auth or opts.wait_for_auth is not None:
            raise UsageError("--relogin cannot be combined with --use-stored-auth or --wait-for-auth")
        if offline:
            raise UsageError("--relogin cannot be combined with --list-stored-auth or --print-handoff")
        if opts.method in CATALOG_METHODS:
            raise UsageError(f"--relogin cannot be combined with --method {opts.method} (it connects to nothing)")
    if opts.no_revoke and not opts.relogin:
        raise UsageError("--no-revoke requires --relogin (it has no other effect)")
    if opts.list_stored_auth:
        return
    if opts.print_handoff:
        if opts.url is None:
            raise UsageError("--print-handoff requires a server URL (--server-url URL or a URL TARGET)")
        return
    if opts.method in CATALOG_METHODS:
        return
    remote = opts.url is not None or opts.server is not None  # (--server: a catalog entry may be a URL)
    for flag, given in (
        ("--wait-for-auth", opts.wait_for_auth is not None),
        ("--use-stored-auth", opts.use_stored_auth),
        ("--relogin", opts.relogin),
    ):
        if given and not remote:
            raise UsageError(
                f"{flag} requires a server URL (--server-url URL or a URL TARGET): tokens are stored per URL"
            )
    if opts.wait_for_auth is not None and not opts.wait_for_auth > 0:
        raise UsageError("--wait-for-auth must be a positive number of seconds")
    own = any(name.lower() == "authorization" for name, _value in opts.headers)
    if own and (opts.use_stored_auth or opts.wait_for_auth is not None):
        flag = "--use-stored-auth" if opts.use_stored_auth else "--wait-for-auth"
        raise UsageError(f"{flag} sends the stored token; it cannot be combined with --header Authorization: ...")
    if opts.stored_auth_only and opts.auto_approve:
        raise UsageError("--stored-auth-only never logs in; it cannot be combined with --auto-approve (which does)")
    from inspector.cli.callback_url import callback_url

    callback_url(opts.callback_url)  # a bad --callback-url or $MCP_OAUTH_CALLBACK_URL is refused up front


# ------------------------------------------------------------------------------------------ the store


def _storage(url: str) -> KeyringTokenStorage:
    from inspector.auth.storage import KeyringTokenStorage

    return KeyringTokenStorage(url)  # the process-wide store: the OS keyring, as the window's


def token_stored(url: str) -> bool:
    """Whether the shared store holds an access token for ``url``."""
    return _storage(url).has_stored_token()


def _store_description() -> dict[str, Any]:
    from inspector.auth.storage import default_secret_store
    from inspector.auth.stored_index import default_server_index

    secrets = default_secret_store()
    return {
        "kind": "keyring",
        "service": secrets.service,
        "backend": secrets.backend_name,
        "persistent": secrets.persistent,
        "index": str(default_server_index().path),
        "problem": secrets.message,
    }


def _stored_urls() -> list[str]:
    from inspector.auth.stored_index import default_server_index

    return [url for url in default_server_index().servers() if token_stored(url)]


def _canonical(url: str) -> str:
    from mcp.shared.auth_utils import resource_url_from_server_url

    return resource_url_from_server_url(url.strip())


def _auth_failure(message: str, code: str, url: str) -> CliFailure:
    return CliFailure("auth", message, envelope_code=code, extra={"url": url})


def _known(exclude: str) -> str:
    others = [url for url in _stored_urls() if url != exclude]
    return f" Tokens are stored for: {', '.join(others)}." if others else ""


def _warn(opts: CliOptions, line: str) -> None:
    if not opts.quiet:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _relogin(opts: CliOptions, url: str, revoke: bool) -> None:
    """Forget what is stored for ``url``, after revoking the grant at the authorization server (unless
    --no-revoke)."""
    storage = _storage(url)
    if revoke and not opts.no_revoke:
        from inspector.auth.revocation import revoke_stored_grant

        client = None
        if opts.client_id is not None:  # the tokens may have been issued to this pre-registered client
            from mcp.shared.auth import OAuthClientInformationFull

            client = OAuthClientInformationFull(
                client_id=opts.client_id, client_secret=opts.client_secret, redirect_uris=None
            )
        outcome = revoke_stored_grant(storage, client=client)
        if outcome.status == "failed":
            _warn(
                opts,
                f"warning: could not revoke the OAuth grant at the authorization server ({outcome.detail}); "
                "it may still be valid there",
            )
    storage.clear()


def _wait_for_token(opts: CliOptions, url: str, seconds: float) -> None:
    from inspector.auth.storage import default_secret_store

    secrets = default_secret_store()
    if not secrets.persistent:
        raise CliFailure(
            "error",
            f"--wait-for-auth: {secrets.message} A login in the window cannot reach this process.",
            envelope_code="store_unavailable",
            extra={"url": url},
        )
    deadline = time.monotonic() + seconds
    while not token_stored(url):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            key = _canonical(url)
            raise _auth_failure(
                f"--wait-for-auth timed out after {seconds:g} s: no OAuth token was stored for {key} in the "
                f"keyring.{_known(key)} Log in with the window (see mcp-inspect --cli --print-handoff --server-url "
                f"{key}).",
                "auth_wait_timeout",
                url,
            )
        time.sleep(min(_POLL_INTERVAL, remaining))


def prepare_stored_auth(opts: CliOptions, url: str, *, revoke: bool = True) -> None:
    """Before connecting to ``url``: ``--relogin`` (revoke, forget), ``--wait-for-auth`` (poll the keyring) and
    ``--use-stored-auth`` (a token must be stored: exit 3 ``no_stored_token`` otherwise). Blocking."""
    if opts.relogin:
        _relogin(opts, url, revoke)
    elif opts.wait_for_auth is not None:
        _wait_for_token(opts, url, opts.wait_for_auth)
    elif opts.use_stored_auth and not token_stored(url):
        from inspector.auth.storage import default_secret_store

        key = _canonical(url)
        problem = default_secret_store().message
        where = f"in the keyring ({problem.rstrip('.')})." if problem else "in the keyring."
        raise _auth_failure(
            f"no stored OAuth token for {key} {where}{_known(key)} Log in with the window first (see mcp-inspect "
            f"--cli --print-handoff --server-url {key}).",
            "no_stored_token",
            url,
        )


# ------------------------------------------------------------------------------------------ offline commands


def _print_json(opts: CliOptions, value: dict[str, Any]) -> None:
    from inspector.cli.output import dump_json

    sys.stdout.write(dump_json(value) + "\n")  # one line in every machine format, as the official CLI
    sys.stdout.flush()


def list_stored_auth(opts: CliOptions) -> int:
    """``--list-stored-auth``: the server URLs with a stored token, as one JSON object on stdout."""
    urls = _stored_urls()
    store = _store_description()
    if opts.format == "human":
        lines = urls or ["(no stored OAuth tokens)"]
        if store["problem"]:
            lines.append(f"note: {store['problem']}")
        sys.stdout.write("\n".join(lines) + "\n")
        return ExitCode.SUCCESS
    _print_json(
        opts,
        {
            "oauthStatePath": None,  # no state file: the tokens are in the keyring (see "store")
            "storedServerUrls": urls,
            "store": store,
        },
    )
    return ExitCode.SUCCESS


def _matching_profiles(url: str) -> list[Profile]:
    from inspector.store.profiles import ProfileStore

    key = _canonical(url)
    found: list[Profile] = []
    for profile in ProfileStore().list_profiles():
        if profile.transport in ("http", "sse") and profile.http.url.strip():
            try:
                same = _canonical(profile.http.url) == key
            except ValueError:
                same = False
            if same:
                found.append(profile)
    return sorted(found, key=lambda p: p.auth.mode != "oauth")  # one that logs in with OAuth first


def _wait_command(opts: CliOptions, url: str) -> str:
    argv = ["mcp-inspect", "--cli", "--server-url", url]
    if opts.transport is not None:
        argv += ["--transport", opts.transport]
    method = opts.method if opts.method in _PARAMETERLESS else "tools/list"
    argv += ["--wait-for-auth", str(DEFAULT_HANDOFF_WAIT), "--method", method]
    return shlex.join(argv)


def _login(url: str, transport: str, profiles: list[Profile]) -> tuple[str, list[str], dict[str, Any] | None]:
    """(the command that opens the window, the steps to log in there, the profile it uses)."""
    if not profiles:  # the window opens the URL as an unsaved profile (OAuth when the server asks)
        argv = ["mcp-inspect", url] + (["--transport", "sse"] if transport == "sse" else [])
        return (
            shlex.join(argv),
            [
                f"Run the command: the window opens a tab connected to {url} (an unsaved profile, OAuth on).",
                "Log in when the browser opens; the token is stored in the keyring.",
                "To keep the server as a profile: Connection > Save as profile…",
            ],
            None,
        )
    profile = profiles[0]
    steps = ["Run the command: the window opens and connects with the profile."]
    if profile.auth.mode != "oauth":
        steps.insert(0, f"In the profile {profile.name!r}, set authorization to OAuth (it is {profile.auth.mode!r}).")
    steps.append("Log in when the browser opens; the token is stored in the keyring.")
    described = {"id": profile.id, "name": profile.name, "authorization": profile.auth.mode}
    return shlex.join(["mcp-inspect", profile.name]), steps, described


def print_handoff(opts: CliOptions) -> int:
    """``--print-handoff``: how to log in with the window on the URL, and the CLI command that continues after."""
    if opts.url is None:  # (check_stored_auth says so first)
        raise UsageError("--print-handoff requires a server URL (--server-url URL or a URL TARGET)")
    url = _canonical(opts.url)
    transport = opts.transport or ("sse" if url.split("?", 1)[0].rstrip("/").endswith("/sse") else "http")
    command, steps, profile = _login(url, transport, _matching_profiles(url))
    store = _store_description()
    note = (
        "mcp-inspect is a desktop app: there is no web page to link to (deepLink), no ports to forward "
        "(portForwardCmd), no state file (oauthStatePath: the tokens are in the OS keyring, see store) and no API "
        "token to pass (apiToken). Log in with the window (loginCommand, loginSteps) on this machine, then run "
        "waitCommand."
    )
    if not store["persistent"]:
        note += f" Warning: {store['problem']} The window and the CLI cannot share a login until a keyring works."
    handoff: dict[str, Any] = {
        "serverUrl": url,
        "deepLink": None,
        "portForwardCmd": None,
        "oauthStatePath": None,
        "apiToken": None,
        "note": note,
        "transport": transport,
        "loginCommand": command,
        "loginSteps": steps,
        "profile": profile,
        "tokenStored": token_stored(url),
        "waitCommand": _wait_command(opts, url),
        "store": store,
    }
    if opts.format == "human":
        lines = [f"Log in to {url} with the window:", f"  {command}", *(f"  - {step}" for step in steps)]
        lines += ["Then continue here:", f"  {handoff['waitCommand']}"]
        if not store["persistent"]:
            lines.append(f"Warning: {store['problem']}")
        sys.stdout.write("\n".join(lines) + "\n")
        return ExitCode.SUCCESS
    _print_json(opts, handoff)
    return ExitCode.SUCCESS
