"""What ``mcp-inspect`` opens when it is given a server on its command line (no Qt here).

The window's command line names at most one target:

- ``mcp-inspect [-e KEY=VALUE ...] -- COMMAND [ARGS...]``: everything after the first ``--`` is a stdio command,
  always (nothing may come before ``--`` but options);
- ``mcp-inspect --config FILE [--server NAME]``: an entry of an mcpServers-style file (``--server`` may be left out
  when the file has one entry), read by the CLI's reader (:func:`inspector.cli.config.find_server`);
- ``mcp-inspect POSITIONAL ...``: the first positional is, in this order,

  1. a saved profile (its id, exact name, or name in any case: ``ProfileStore.find``),
  2. a URL (``http://`` or ``https://``; any other ``scheme://`` is an error),
  3. a command: a program found on ``PATH`` (or a path to one). The tokens after it are its arguments, verbatim
     (options included: ``mcp-inspect npx -y pkg``); options of mcp-inspect go before it.

  Anything else is a usage error that lists the saved profiles. Options of mcp-inspect go before the target; after
  a URL they may follow it too. Nothing else may follow a profile or a URL.

``--header 'Name: value'`` only goes with a URL (or a --config URL entry, whose headers it replaces), ``-e
KEY=VALUE`` only with a command, ``--transport http|sse`` only with a URL (default ``http``: Streamable HTTP with
the profiles' fallback to SSE). A URL or command becomes an **unsaved** profile (:func:`unsaved_profile`): kept in
memory, with the header and environment values that look secret marked secret, so that saving it (the window's
"Save as profile…") puts them in the keyring like any edited profile.

Every problem is a :class:`TargetError`: one line for stderr, exit ``USAGE_EXIT``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from inspector.store.imports import looks_secret
from inspector.store.profiles import Profile, ProfileStore
from inspector.store.profiles.model import new_id
from inspector.store.profiles.sections import EnvVar, Header, HttpSettings, StdioSettings

__all__ = [
    "UNSAVED_PREFIX",
    "TargetError",
    "WindowTarget",
    "has_scheme",
    "is_unsaved",
    "resolve_target",
    "split_target",
    "unsaved_profile",
]

UNSAVED_PREFIX: Final = "unsaved:"
"""The id of an unsaved profile starts with this (it is never written to the profiles file)."""
_VALUE_OPTIONS: Final = frozenset({"--transport", "--header", "-e", "--env", "--config", "--server"})
_SCHEME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


class TargetError(Exception):
    """The command line's target cannot be used (one line, without the ``mcp-inspect:`` prefix)."""


@dataclass
class WindowTarget:
    """What to open: a saved profile (``profile_id``) or an unsaved one (``profile``)."""

    profile_id: str | None = None
    profile: Profile | None = None
    warnings: list[str] = field(default_factory=list)


def has_scheme(token: str) -> bool:
    """``token`` starts like a URL (``scheme://``)."""
    return _SCHEME.match(token) is not None


def is_unsaved(profile_id: str) -> bool:
    return profile_id.startswith(UNSAVED_PREFIX)


def _is_option(token: str) -> bool:
    return token.startswith("-") and token != "-"


def split_target(argv: Sequence[str]) -> tuple[list[str], list[str], bool]:
    """``argv`` as (the tokens argparse reads, the target's tokens, whether they came after ``--``).

    The target's tokens are the first positional and, when it may be a command, the tokens after it; argparse
    reads the options (and any stray positional, an error there) around it.
    """
    argv = list(argv)
    if "--" in argv:
        at = argv.index("--")
        return argv[:at], argv[at + 1 :], True
    i = 0
    while i < len(argv):
        token = argv[i]
        if _is_option(token):
            i += 2 if token in _VALUE_OPTIONS else 1  # "--header=X: y" / "-eK=V" carry their value
            continue
        return argv[:i], argv[i:], False
    return argv, [], False


def _header(text: str) -> Header:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise TargetError(f"--header {text!r}: give it as 'Name: value'")
    return Header(name=name.strip(), value=value.strip(), secret=looks_secret(name.strip()))


def _env(text: str) -> EnvVar:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise TargetError(f"-e {text!r}: give it as KEY=VALUE")
    return EnvVar(name=key, value=value, secret=looks_secret(key))


def _url_name(url: str) -> str:
    parts = urlsplit(url)
    return (parts.netloc + parts.path.rstrip("/")) or url


def unsaved_profile(
    *,
    url: str | None = None,
    command: Sequence[str] = (),
    transport: str | None = None,
    headers: Sequence[Header] = (),
    env: Sequence[EnvVar] = (),
    cwd: str = "",
    name: str | None = None,
) -> Profile:
    """A profile for a URL or a command, with an ``unsaved:`` id, named from the target (URL host and path, or
    the command's basename). A URL without an Authorization header logs in with OAuth if the server asks."""
    if url is not None:
        has_authorization = any(h.name.lower() == "authorization" for h in headers)
        profile = Profile(
            name=name or _url_name(url),
            transport="sse" if transport == "sse" else "http",
            id=UNSAVED_PREFIX + new_id(),
            http=HttpSettings(url=url, headers=list(headers)),
        )
        if not has_authorization:
            profile.auth.mode = "oauth"  # (only used when the server answers 401)
        return profile
    program, *args = command
    return Profile(
        name=name or os.path.basename(program.rstrip("/\\")) or program,
        id=UNSAVED_PREFIX + new_id(),
        stdio=StdioSettings(command=program, args=list(args), env=list(env), cwd=cwd),
    )


def _profiles_line(store: ProfileStore) -> str:
    names = ", ".join(repr(p.name) for p in store.list_profiles())
    return f"profiles: {names or 'none saved yet'}"


def resolve_target(
    args: argparse.Namespace, store: ProfileStore, *, which: Callable[[str], str | None] = shutil.which
) -> WindowTarget | None:
    """The target ``parse_args`` found, interpreted (None: none was given). Raises :class:`TargetError`."""
    tokens: list[str] = list(args.target)
    after_dashes: bool = args.after_dashes
    headers = [_header(text) for text in args.header]
    env = [_env(text) for text in args.env]
    if args.server and not args.config:
        raise TargetError("--server NAME needs --config FILE (a saved profile is given by its name alone)")
    if args.config:
        if tokens or after_dashes:
            raise TargetError("give either --config FILE or a server to open, not both")
        return _config_target(args, headers, env)
    if after_dashes and not tokens:
        raise TargetError("-- must be followed by the command that starts the server")
    if not tokens:
        for given, what in ((headers, "--header"), (env, "-e"), (args.transport, "--transport")):
            if given:
                raise TargetError(f"{what} needs a server to open (a URL, or a command after --)")
        return None
    if after_dashes:
        if which(tokens[0]) is None:
            raise TargetError(f"{tokens[0]!r} (after --) is not a command on PATH nor a path to a program")
        return _command_target(tokens, headers, env, args.transport)
    first = tokens[0]
    found = store.find(first)
    if found is not None:
        for given, what in ((headers, "--header"), (env, "-e"), (args.transport, "--transport")):
            if given:
                raise TargetError(f"{what} does not apply to the saved profile {found.name!r} (edit the profile)")
        _no_more(tokens)
        return WindowTarget(profile_id=found.id)
    if first.lower().startswith(("http://", "https://")):
        _no_more(tokens)
        if env:
            raise TargetError("-e KEY=VALUE sets a command's environment; a URL takes --header 'Name: value'")
        if not urlsplit(first).hostname:
            raise TargetError(f"{first!r} is not a URL with a host")
        return WindowTarget(profile=unsaved_profile(url=first, transport=args.transport, headers=headers))
    if has_scheme(first):
        raise TargetError(f"{first!r}: only http:// and https:// URLs can be opened")
    if which(first) is None:
        raise TargetError(
            f"no saved profile named {first!r}, and it is neither an http(s) URL nor a command on PATH "
            f"({_profiles_line(store)})"
        )
    return _command_target(tokens, headers, env, args.transport)


def _no_more(tokens: list[str]) -> None:
    if len(tokens) > 1:
        raise TargetError(f"unexpected {tokens[1]!r} after {tokens[0]!r} (one profile or URL; a command: after --)")


def _command_target(tokens: list[str], headers: list[Header], env: list[EnvVar], transport: str | None) -> WindowTarget:
    if headers:
        raise TargetError("--header 'Name: value' is sent to a URL; a command takes -e KEY=VALUE")
    if transport:
        raise TargetError("--transport applies to a URL, not to a command (it runs over stdio)")
    return WindowTarget(profile=unsaved_profile(command=tokens, env=env))


def _config_target(args: argparse.Namespace, headers: list[Header], env: list[EnvVar]) -> WindowTarget:
    from inspector.cli.args import CliOptions
    from inspector.cli.config import find_server
    from inspector.cli.errors import UsageError

    try:
        found = find_server(CliOptions(config=args.config, server=args.server or None))
    except UsageError as exc:
        raise TargetError(str(exc)) from None
    if found.stdio is not None:
        if headers or args.transport:
            raise TargetError(f"--header and --transport apply to a URL; {found.name!r} is a command")
        spec = found.stdio
        merged = [EnvVar(name=k, value=v, secret=looks_secret(k)) for k, v in spec.env.items()]
        given = {var.name for var in env}
        command = [spec.command, *spec.args]
        profile = unsaved_profile(
            command=command, env=[v for v in merged if v.name not in given] + env, cwd=spec.cwd or "", name=found.name
        )
    else:
        if env:
            raise TargetError(f"-e KEY=VALUE applies to a command; {found.name!r} is a URL")
        url = found.url or ""
        kept = headers or [Header(name=k, value=v, secret=looks_secret(k)) for k, v in found.headers]
        profile = unsaved_profile(url=url, transport=args.transport or found.transport, headers=kept, name=found.name)
        if found.client_id:
            profile.auth.client_id, profile.auth.client_secret = found.client_id, found.client_secret
        profile.auth.scopes = list(found.scopes)
    if found.protocol_era in ("legacy", "modern", "auto"):
        profile.protocol_era = found.protocol_era  # type: ignore[assignment]
    return WindowTarget(profile=profile, warnings=list(found.warnings))
