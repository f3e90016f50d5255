"""``mcp-inspect --cli`` command lines that reproduce a logged request (no Qt).

The CLI knows ``--method`` for ping, the list methods, ``tools/call`` (``--tool-name``,
``--tool-arg k=v`` or ``--tool-args-json``), ``resources/read`` (``--uri``), ``prompts/get``
(``--prompt-name``, ``--prompt-args k=v``) and ``logging/setLevel`` (``--log-level``); it performs
the handshake itself. For anything else the closest command is produced and ``exact`` is False,
with a note saying what differs. The server command comes from the recording's ``target`` meta
(a shell-quoted stdio command line) and goes after ``--`` so its own flags never clash with ours.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.cli.parser import ONE_SHOT_METHODS
from inspector.protocol.methods import LIST_METHODS, LOG_LEVELS

__all__ = ["CLI_METHODS", "CliCommand", "cli_command"]

CLI_METHODS: Final = ONE_SHOT_METHODS
"""The methods ``mcp-inspect --cli --method`` runs against a server (inspector.cli.parser)."""
_PLACEHOLDER: Final = "SERVER-COMMAND"


@dataclass(slots=True)
class CliCommand:
    text: str
    """The whole command line, shell-quoted."""
    exact: bool
    notes: list[str] = field(default_factory=list)


def _looks_typed(value: str) -> bool:
    """Whether the CLI could read this string as something else (a number, a boolean, JSON)."""
    stripped = value.strip()
    if stripped != value or not value:
        return True
    if value in ("true", "false", "null"):
        return True
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


def _pairs_ok(args: dict[str, Any]) -> bool:
    """``--tool-arg k=v`` reproduces these arguments exactly (plain strings, simple keys)."""
    return all(
        isinstance(k, str)
        and k
        and "=" not in k
        and not k.startswith("-")
        and isinstance(v, str)
        and not _looks_typed(v)
        for k, v in args.items()
    )


def _target_words(target: str | None) -> tuple[list[str], list[str]]:
    notes: list[str] = []
    if not target:
        return [_PLACEHOLDER], ["the recording does not say which server it talked to: replace SERVER-COMMAND"]
    if target.startswith(("http://", "https://")):
        notes.append("the CLI connects to stdio servers only; this target is a URL")
        return [target], notes
    try:
        words = shlex.split(target)
    except ValueError:
        words = [target]
    return words or [_PLACEHOLDER], notes


def cli_command(message: Any, target: str | None, *, direction: str = "out") -> CliCommand:
    """The command for one request message (the parsed JSON-RPC object)."""
    notes: list[str] = []
    exact = True
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return CliCommand("", False, ["not a request"])
    method: str = message["method"]
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    if direction != "out":
        exact = False
        notes.append(f"{method} was sent by the server to the client; the CLI only sends client requests")
    flags: list[str] = []
    extra_keys = set(params) - {"_meta"}
    if isinstance(params.get("_meta"), dict) and params["_meta"]:
        notes.append("params._meta is not reproduced (the CLI sets its own)")
    if method == "tools/call":
        name = params.get("name")
        args = params.get("arguments")
        flags += ["--method", "tools/call", "--tool-name", str(name) if name is not None else ""]
        if not isinstance(name, str):
            exact = False
            notes.append("the request has no string tool name")
        if isinstance(args, dict) and args:
            if _pairs_ok(args):
                for key, value in args.items():
                    flags += ["--tool-arg", f"{key}={value}"]
            else:
                flags += ["--tool-args-json", json.dumps(args, ensure_ascii=False, separators=(",", ":"))]
        elif args is not None and not isinstance(args, dict):
            exact = False
            notes.append("the arguments are not an object; the CLI can only send an object")
        extra_keys -= {"name", "arguments"}
    elif method == "resources/read":
        uri = params.get("uri")
        flags += ["--method", method, "--uri", str(uri) if uri is not None else ""]
        if not isinstance(uri, str):
            exact = False
            notes.append("the request has no string uri")
        extra_keys -= {"uri"}
    elif method == "prompts/get":
        name = params.get("name")
        args = params.get("arguments")
        flags += ["--method", method, "--prompt-name", str(name) if name is not None else ""]
        if isinstance(args, dict):
            for key, value in args.items():
                if not isinstance(value, str):
                    exact = False
                    notes.append(f"prompt argument {key!r} is not a string; the CLI sends strings")
                    value = json.dumps(value, ensure_ascii=False)
                flags += ["--prompt-args", f"{key}={value}"]
        extra_keys -= {"name", "arguments"}
    elif method == "logging/setLevel":
        level = params.get("level")
        flags += ["--method", method, "--log-level", str(level)]
        if level not in LOG_LEVELS:
            exact = False
            notes.append(f"level {level!r} is not one the CLI accepts ({', '.join(LOG_LEVELS)})")
        extra_keys -= {"level"}
    elif method in LIST_METHODS:
        flags += ["--method", method]
        if "cursor" in params:
            notes.append("the CLI fetches every page itself; the cursor is not reproduced")
        extra_keys -= {"cursor"}
    elif method == "ping":
        flags += ["--method", "ping"]
    elif method == "initialize":
        flags += ["--method", "ping"]
        version = params.get("protocolVersion")
        if isinstance(version, str):
            flags += ["--protocol-version", version]
        notes.append("the CLI performs the initialize handshake itself; this connects and sends ping")
        extra_keys = set()
    else:
        exact = False
        flags += ["--method", "ping"]
        notes.append(f"the CLI cannot send {method}; this is the closest command: connect to the same server and ping")
        extra_keys = set()
    if extra_keys:
        exact = False
        notes.append("params not reproduced: " + ", ".join(sorted(extra_keys)))
    words, target_notes = _target_words(target)
    notes += target_notes
    if target_notes and not target:
        exact = False
    text = shlex.join(["mcp-inspect", "--cli", *flags, "--", *words])
    return CliCommand(text, exact and not target_notes, notes)
