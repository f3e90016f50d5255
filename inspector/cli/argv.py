"""Splitting ``mcp-inspect --cli`` argv into our options and the server command.

The server command (TARGET) and our options may be intermixed, as with the official CLI
(``mcp-inspect --cli python server.py --method tools/list``). The rules:

* ``--`` after our options (``--method x -- python server.py ...``): everything after it is the server
  command, untouched. ``--`` after a server command (``python server.py -- --method x``, the official form):
  the server command is before it, our options after it.
* A token that is one of our options is ours, wherever it appears (outside the server's part after ``--``).
* An unknown option before the server command is a usage error that names it. After the command has
  started, an unknown option is the server's (``uvx mcp-server-time --local-timezone UTC``, as the official
  CLI), but never in silence: it is listed in :attr:`Split.passed` and the CLI says so on stderr; a near miss
  of one of ours (``--metod``) is a usage error instead. Everything after ``--`` (options first) is the server's
  without a word.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Literal

from inspector.cli.errors import UsageError
from inspector.cli.parser import MULTI_VALUE, shared_parser

__all__ = ["Arity", "Split", "option_arity", "sniff_format", "split_argv", "suggest"]

Arity = Literal["flag", "one", "many"]
_HEADER_VALUE: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+:(?!//)")


@cache
def option_arity() -> dict[str, Arity]:
    """Every option string we own and how many values it takes (read from the parser)."""
    table: dict[str, Arity] = {}
    for action in shared_parser()._actions:
        arity: Arity = "flag" if action.nargs == 0 else "one"
        for option in action.option_strings:
            table[option] = "many" if option in MULTI_VALUE else arity
    return table


def _option_of(token: str) -> tuple[str, str | None] | None:
    """Which of our options ``token`` is, and its inline value (``--x=v``, ``-eK=V``); None if not ours."""
    table = option_arity()
    if token.startswith("--"):
        name, eq, value = token.partition("=")
        if name in table:
            return name, (value if eq else None)
        return None
    if token in table:
        return token, None
    # attached form: -eKEY=VALUE (only with '=', so a server flag like -example is not taken for ours)
    if token.startswith("-e") and "=" in token[2:]:
        return "-e", token[2:]
    return None


def _close(token: str, cutoff: float) -> str | None:
    name = token.partition("=")[0]
    longs = [option for option in option_arity() if option.startswith("--") and option != "--cli"]
    close = difflib.get_close_matches(name, longs, n=1, cutoff=cutoff)
    return close[0] if close else None


def suggest(token: str) -> str:
    """`` (did you mean --x?)`` for a near miss of one of our long options, else ``""``."""
    close = _close(token, 0.6)
    return f" (did you mean {close}?)" if close else ""


_NEAR_MISS: Final = 0.8
"""How close (difflib ratio) an unknown option after the server command must be to one of ours to be taken for
a typo of it (``--metod``, ``--tool-nmae``) rather than the server's own option (``--local-timezone``)."""


@dataclass(slots=True)
class Split:
    """argv split: our option tokens (normalised ``--name=value`` for argparse) and the server command."""

    ours: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    """Unknown long options after the server command started, passed to the server (the CLI says so; single-dash
    ones such as ``python -m`` are the commonplace flags of interpreters and pass without a word)."""


def _unknown(token: str) -> UsageError:
    return UsageError(
        f"unknown option {token}{suggest(token)}; a server's own options go after its command, or after '--' "
        "(mcp-inspect --cli [options] -- COMMAND ARGS...)"
    )


def _is_option(token: str) -> bool:
    return len(token) > 1 and token.startswith("-")


def _continues(option: str, token: str) -> bool:
    """Whether ``token`` is one more value of the multi-value ``option``."""
    if token.startswith("-"):
        return False
    if option == "--header":
        return _HEADER_VALUE.match(token) is not None
    return "=" in token


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """(our option tokens, the server command): see :func:`split`."""
    parts = split(argv)
    return parts.ours, parts.target


def split(argv: list[str]) -> Split:
    """Split argv into our options and the server command (the rules are in the module's docstring)."""
    if "--" in argv:
        cut = argv.index("--")
        before, after = argv[:cut], argv[cut + 1 :]
        if before and not _is_option(before[0]):
            # the official form: COMMAND ARGS... -- OPTIONS
            parts = _split(after, command_given=True)
            if parts.target or parts.passed:
                extra = (parts.passed or parts.target)[0]
                raise UsageError(
                    f"{extra!r} after '--' is not one of our options; with the server command first, '--' is "
                    "followed by our options only (put options first to pass the server more: "
                    "mcp-inspect --cli [options] -- COMMAND ARGS...)"
                )
            parts.target = list(before)
            return parts
        parts = _split(before, command_given=False)
        parts.target.extend(after)
        return parts
    return _split(argv, command_given=False)


def _split(argv: list[str], *, command_given: bool) -> Split:
    table = option_arity()
    parts = Split()
    ours, target = parts.ours, parts.target
    i, n = 0, len(argv)
    while i < n:
        token = argv[i]
        i += 1
        found = _option_of(token) if _is_option(token) else None
        if found is None:
            if _is_option(token):
                if not target or command_given:
                    raise _unknown(token)
                if token.startswith("--") and _close(token, _NEAR_MISS) is not None:
                    raise _unknown(token)
                if token.startswith("--"):
                    parts.passed.append(token)
            target.append(token)
            continue
        name, inline = found
        arity = table[name]
        if arity == "flag":
            if inline is not None:
                raise UsageError(f"{name} does not take a value")
            ours.append(name)
            continue
        values: list[str] = []
        if inline is not None:
            values.append(inline)
        else:
            if i >= n or (_is_option(argv[i]) and _option_of(argv[i]) is not None):
                raise UsageError(f"{name} needs a value")
            values.append(argv[i])
            i += 1
        if arity == "many":
            while i < n and _continues(name, argv[i]):
                values.append(argv[i])
                i += 1
        ours.extend(f"{name}={value}" if name.startswith("--") else f"{name}{value}" for value in values)
    return parts


def sniff_format(argv: list[str]) -> Literal["text", "json", "human"]:
    """Best-effort ``--format`` before parsing succeeded, so usage errors are printed in it too."""
    for i, token in enumerate(argv):
        value = None
        if token.startswith("--format="):
            value = token.partition("=")[2]
        elif token == "--format" and i + 1 < len(argv):
            value = argv[i + 1]
        if value == "json":
            return "json"
        if value == "human":
            return "human"
    return "text"
