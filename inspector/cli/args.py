"""Command line of ``mcp-inspect --cli``: the official inspector CLI's flags, plus our own.

The server command (TARGET) and our options may be intermixed, as with the official CLI
(``mcp-inspect --cli python server.py --method tools/list``). The rules:

* ``--`` ends our options: everything after it belongs to the server command.
* A token that is one of our options is ours, wherever it appears before ``--``.
* An unknown option before the server command starts is a usage error (a typo); once the
  server command has started, unknown options are passed to the server (``python -m mod``).

Parsing never exits the process: every problem raises :class:`UsageError` (exit 4), and
``--help`` raises :class:`HelpRequested` carrying the text to print.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NoReturn

from inspector.cli.auth_options import (
    AUTH_OPTIONS,
    AuthCliOptions,
    add_auth_arguments,
    given_auth_flags,
    parse_auth_options,
)
from inspector.cli.auth_options import ENVIRONMENT_HELP as AUTH_ENVIRONMENT_HELP
from inspector.cli.errors import UsageError
from inspector.cli.exitcodes import EXIT_CODES_HELP
from inspector.protocol.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "DEFAULT_LOAD_CONCURRENCY",
    "DEFAULT_LOAD_REQUESTS",
    "DEFAULT_PROTOCOL_VERSION",
    "DEFAULT_TIMEOUT",
    "LOG_LEVELS",
    "METHODS",
    "CliOptions",
    "HelpRequested",
    "build_parser",
    "is_url",
    "parse_args",
    "parse_header",
    "parse_pair",
    "sniff_format",
    "split_argv",
]

METHODS: Final = (
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
)
LOG_LEVELS: Final = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
DEFAULT_PROTOCOL_VERSION: Final = "2025-11-25"
DEFAULT_TIMEOUT: Final = 60.0
DEFAULT_LOAD_CONCURRENCY: Final = 1
DEFAULT_LOAD_REQUESTS: Final = 100

Arity = Literal["flag", "one", "many"]

# Every option we own, with how many values it takes. "many" options take one or more values
# (``--tool-arg a=1 b=2``) and may also be repeated; extra values must look like ``key=value``.
_OPTIONS: Final[dict[str, Arity]] = {
    "-h": "flag",
    "--help": "flag",
    "--version": "flag",
    "--cli": "flag",
    "--demo": "flag",
    "--method": "one",
    "--tool-name": "one",
    "--tool-arg": "many",
    "--tool-args-json": "one",
    "--uri": "one",
    "--prompt-name": "one",
    "--prompt-args": "many",
    "--log-level": "one",
    "-e": "one",
    "--cwd": "one",
    "--format": "one",
    "--config": "one",
    "--server": "one",
    "--transport": "one",
    "--header": "one",
    "--probe": "flag",
    "--auto-approve": "flag",
    "--client-id": "one",
    "--client-secret": "one",
    "--client-metadata-url": "one",
    "--scope": "one",
    **AUTH_OPTIONS,
    "--load": "flag",
    "--load-concurrency": "one",
    "--load-requests": "one",
    "--protocol-version": "one",
    "--protocol-era": "one",
    "--timeout": "one",
    "--strict": "flag",
    "--limit": "many",
}
_SHORT_WITH_VALUE: Final = ("-e",)


class HelpRequested(Exception):
    """``--help`` or ``--version`` was given; the message is the text to print on stdout."""


@dataclass(slots=True)
class CliOptions:
    """A validated command line."""

    target: list[str] = field(default_factory=list)
    """The server command and its arguments (empty with --config or --demo), or ``[url]``."""
    url: str | None = None
    """The server URL when TARGET is an http(s) URL (Streamable HTTP or legacy SSE)."""
    transport: str | None = None
    """``--transport``: stdio, http or sse (None: chosen from the TARGET)."""
    headers: list[tuple[str, str]] = field(default_factory=list)
    probe: bool = False
    auto_approve: bool = False
    client_id: str | None = None
    client_secret: str | None = None
    client_metadata_url: str | None = None
    scopes: list[str] = field(default_factory=list)
    oauth: AuthCliOptions = field(default_factory=AuthCliOptions)
    """The grant options (``--grant``, ``--client-key``, ``--dpop``, ...; inspector.cli.auth_options)."""
    method: str | None = None
    tool_name: str | None = None
    tool_arg_pairs: list[tuple[str, str]] = field(default_factory=list)
    tool_args_json: dict[str, Any] | None = None
    uri: str | None = None
    prompt_name: str | None = None
    prompt_args: dict[str, str] = field(default_factory=dict)
    log_level: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    format: Literal["text", "json", "human"] = "text"
    """text: the result as pretty JSON (official); json: one {"result": ...} line; human: our readable summary."""
    config: str | None = None
    server: str | None = None
    demo: bool = False
    load: bool = False
    load_concurrency: int = DEFAULT_LOAD_CONCURRENCY
    load_requests: int = DEFAULT_LOAD_REQUESTS
    protocol_version: str = DEFAULT_PROTOCOL_VERSION
    protocol_era: Literal["legacy", "modern", "auto"] = "auto"
    timeout: float = DEFAULT_TIMEOUT
    strict: bool = False
    limits: Limits = DEFAULT_LIMITS
    """``--limit NAME=VALUE``: the bounds on what is read from the server (inspector.protocol.limits)."""
    # --- output (official meaning) ---
    quiet: bool = False
    """``-q``/``--quiet``: only the result payload on stdout (or the error envelope on stderr)."""
    output_path: str | None = None
    """``--output PATH``: write the result there instead of stdout."""
    output_format: Literal["json", "raw"] = "json"
    """``--output-format``: json (the whole result, pretty) or raw (text joined / one binary block's bytes)."""
    # --- connection (official meaning) ---
    connect_timeout: float | None = None
    """``--connect-timeout MS`` in seconds; None: no connect timeout (0 given); default 15 s (ad-hoc targets)."""
    metadata: dict[str, Any] = field(default_factory=dict)
    """``--metadata k=v``: JSON-parsed values merged into ``params._meta`` of every request."""
    tool_metadata: dict[str, Any] = field(default_factory=dict)
    """``--tool-metadata k=v``: tools/call only, merged over ``metadata``."""
    load_duration: float | None = None
    """``--load-duration SEC``: stop starting calls after this long (default 10 when --load-requests unset)."""
    load_rate: float | None = None
    """``--load-rate N``: start at most N calls per second (None: unlimited)."""
    # --- catalog and config files (official meaning) ---
    catalog: str | None = None
    """``--catalog PATH``: the writable catalog (None: $MCP_CATALOG_PATH or ~/.mcp-inspector/mcp.json)."""
    rename: str | None = None
    """``--rename NAME``: new entry name (servers/edit)."""
    client_config: str | None = None
    """``--client-config PATH`` (None: $MCP_CLIENT_CONFIG_PATH or ~/.mcp-inspector/storage/client.json)."""
    # --- stored OAuth (official meaning) ---
    callback_url: str | None = None
    """``--callback-url URL`` (loopback only; None: $MCP_OAUTH_CALLBACK_URL or http://127.0.0.1:6276/oauth/callback)."""
    use_stored_auth: bool = False
    stored_auth_only: bool = False
    wait_for_auth: float | None = None
    """``--wait-for-auth SEC``."""
    relogin: bool = False
    no_revoke: bool = False
    list_stored_auth: bool = False
    print_handoff: bool = False
    completion: str | None = None
    """``--completion bash|zsh|fish``."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:  # pragma: no cover - not reached
        raise UsageError(message or f"argument parsing ended with status {status}")


def _positive_int(what: str) -> Any:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be at least 1, not {value}")
        return value

    return convert


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"timeout must be a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"timeout must be a positive number of seconds, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The parser for our own options (the server command is split off first, see :func:`split_argv`)."""
    parser = _Parser(
        prog="mcp-inspect --cli",
        usage="mcp-inspect --cli [options] TARGET... [options] [-- SERVER-ARGS...]",
        description=(
            "Run one MCP method against a server and print the result, or --probe everything it offers. "
            "TARGET is the server command and its arguments (stdio), e.g.: mcp-inspect --cli python server.py "
            "--method tools/list, or the server's http(s) URL (Streamable HTTP; legacy SSE for a path ending in "
            "/sse, and as a fallback when the server refuses Streamable HTTP). Options and a command TARGET may be "
            "mixed; put the server's own flags that clash with ours after '--'."
        ),
        epilog=(
            f"{EXIT_CODES_HELP}\n\n"
            "examples:\n"
            "  mcp-inspect --cli python server.py --method tools/list\n"
            "  mcp-inspect --cli --method tools/call --tool-name add --tool-arg a=1 b=2 -- python server.py\n"
            "  mcp-inspect --cli --config mcp.json --server time --method tools/list --format json\n"
            "  mcp-inspect --cli https://example.com/mcp --header 'X-Api-Key: k' --method tools/list\n"
            "  mcp-inspect --cli --probe --auto-approve http://127.0.0.1:8000/mcp\n"
            "  mcp-inspect --cli node build/index.js --load --tool-name echo --tool-arg message=hi "
            "--load-concurrency 8 --load-requests 1000\n\n"
            "environment:\n"
            "  MCP_INSPECT_DEBUG=1  show the Python traceback of unexpected internal errors\n"
            "  MCP_INSPECT_CLIENT_SECRET  the OAuth client secret of --client-id (instead of --client-secret)\n"
            f"{AUTH_ENVIRONMENT_HELP}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
        allow_abbrev=False,
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument("--version", action="store_true", help="show the version and exit")
    parser.add_argument("--cli", action="store_true", help=argparse.SUPPRESS)

    what = parser.add_argument_group("method")
    what.add_argument("--method", choices=METHODS, metavar="METHOD", help=f"method to invoke: {', '.join(METHODS)}")
    what.add_argument("--tool-name", metavar="NAME", help="tool to call (tools/call, --load)")
    what.add_argument(
        "--tool-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="tool argument, repeatable (--tool-arg a=1 --tool-arg b=x) or several at once (--tool-arg a=1 b=x); "
        "values are converted to the type the tool's inputSchema declares (numbers, booleans, JSON objects/arrays)",
    )
    what.add_argument("--tool-args-json", metavar="JSON", help="all tool arguments as one JSON object")
    what.add_argument("--uri", help="resource URI (resources/read)")
    what.add_argument("--prompt-name", metavar="NAME", help="prompt name (prompts/get)")
    what.add_argument(
        "--prompt-args", action="append", default=[], metavar="KEY=VALUE", help="prompt arguments (prompts/get)"
    )
    what.add_argument("--log-level", choices=LOG_LEVELS, metavar="LEVEL", help=f"level: {', '.join(LOG_LEVELS)}")

    server = parser.add_argument_group("server")
    server.add_argument("-e", dest="env", action="append", default=[], metavar="KEY=VALUE", help="server env var")
    server.add_argument("--cwd", metavar="DIR", help="working directory of the server process")
    server.add_argument("--config", metavar="FILE", help="mcpServers-format JSON config file")
    server.add_argument("--server", metavar="NAME", help="server entry of --config to run")
    server.add_argument("--demo", action="store_true", help="run against the bundled demo server")
    server.add_argument(
        "--transport",
        metavar="TYPE",
        help="stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE); default: from TARGET",
    )
    server.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="HTTP header for a URL TARGET, repeatable",
    )

    auth = parser.add_argument_group("authorization (URL targets; OAuth 2.1 starts when the server answers 401)")
    auth.add_argument("--client-id", metavar="ID", help="pre-registered OAuth client id")
    auth.add_argument(
        "--client-secret",
        metavar="SECRET",
        help="its secret (confidential clients); $MCP_INSPECT_CLIENT_SECRET keeps it out of the process list",
    )
    auth.add_argument(
        "--client-metadata-url", metavar="URL", help="https URL of this client's Client ID Metadata Document"
    )
    auth.add_argument(
        "--scope",
        action="append",
        default=[],
        metavar="SCOPE",
        help="scope to request (repeatable; default: the server's)",
    )
    auth.add_argument(
        "--auto-approve",
        action="store_true",
        help="authorize without a browser, for authorization servers that approve at once (CI, conformance); "
        "tokens are kept in memory for this run only",
    )
    add_auth_arguments(auth)

    conn = parser.add_argument_group("connection")
    conn.add_argument(
        "--protocol-version",
        default=DEFAULT_PROTOCOL_VERSION,
        metavar="V",
        help=f"protocol version to offer in the handshake era (default {DEFAULT_PROTOCOL_VERSION}; "
        "2026-07-28 means --protocol-era modern)",
    )
    conn.add_argument(
        "--protocol-era",
        choices=("legacy", "modern", "auto"),
        default="auto",
        help="legacy: initialize; modern: 2026-07-28 (server/discover, no handshake); auto (default): "
        "server/discover first, initialize when the server does not answer it as a 2026-07-28 server",
    )
    conn.add_argument(
        "--timeout",
        type=_positive_float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"request timeout, reset on progress (default {DEFAULT_TIMEOUT:g})",
    )
    conn.add_argument(
        "--strict", action="store_true", help="exit 5 when the server violated the protocol, and print how"
    )
    conn.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a bound on what is read from the server, repeatable; sizes take KB/MB/GB or KiB/MiB/GiB "
        "(e.g. --limit message_bytes=64MiB). Limits and defaults: "
        + "; ".join(DEFAULT_LIMITS.show(name) for name in Limits.names()),
    )

    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")

    probe = parser.add_argument_group("probe")
    probe.add_argument(
        "--probe",
        action="store_true",
        help="list everything, call every tool with synthesised arguments, read every resource, get every prompt; "
        "print one JSON report; exit 5 when the server violated the protocol",
    )

    load = parser.add_argument_group("load")
    load.add_argument("--load", action="store_true", help="call --tool-name repeatedly and print a JSON summary")
    load.add_argument(
        "--load-concurrency",
        type=_positive_int("--load-concurrency"),
        default=None,
        metavar="N",
        help=f"calls in flight at once (default {DEFAULT_LOAD_CONCURRENCY})",
    )
    load.add_argument(
        "--load-requests",
        type=_positive_int("--load-requests"),
        default=None,
        metavar="N",
        help=f"total calls (default {DEFAULT_LOAD_REQUESTS})",
    )
    return parser


def _option_of(token: str) -> tuple[str, str | None] | None:
    """Which of our options ``token`` is, and its inline value (``--x=v``, ``-eK=V``); None if not ours."""
    if token.startswith("--"):
        name, eq, value = token.partition("=")
        if name in _OPTIONS:
            return name, (value if eq else None)
        return None
    if token in _OPTIONS:
        return token, None
    for short in _SHORT_WITH_VALUE:
        # attached form: -eKEY=VALUE (only with '=', so a server flag like -example is not taken for ours)
        if token.startswith(short) and "=" in token[len(short) :]:
            return short, token[len(short) :]
    return None


def _suggest(token: str) -> str:
    name = token.partition("=")[0]
    close = difflib.get_close_matches(name, [o for o in _OPTIONS if o.startswith("--") and o != "--cli"], n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split argv into (our option tokens, normalised for argparse) and (the server command)."""
    ours: list[str] = []
    target: list[str] = []
    i = 0
    n = len(argv)
    while i < n:
        token = argv[i]
        i += 1
        if token == "--":
            target.extend(argv[i:])
            break
        found = _option_of(token) if token.startswith("-") and token != "-" else None
        if found is None:
            if token.startswith("-") and token != "-" and not target:
                raise UsageError(f"unknown option {token}{_suggest(token)}")
            target.append(token)
            continue
        name, inline = found
        arity = _OPTIONS[name]
        if arity == "flag":
            if inline is not None:
                raise UsageError(f"{name} does not take a value")
            ours.append(name)
            continue
        values: list[str] = []
        if inline is not None:
            values.append(inline)
        else:
            if i >= n or argv[i] == "--" or (argv[i].startswith("-") and _option_of(argv[i]) is not None):
                raise UsageError(f"{name} needs a value")
            values.append(argv[i])
            i += 1
        if arity == "many":
            while i < n and not argv[i].startswith("-") and "=" in argv[i]:
                values.append(argv[i])
                i += 1
        ours.extend(f"{name}={value}" if name.startswith("--") else f"{name}{value}" for value in values)
    return ours, target


def sniff_format(argv: list[str]) -> Literal["text", "json"]:
    """Best-effort ``--format`` before parsing succeeded, so usage errors can be printed as JSON too."""
    for i, token in enumerate(argv):
        if token == "--":
            break
        if token == "--format=json" or (token == "--format" and i + 1 < len(argv) and argv[i + 1] == "json"):
            return "json"
    return "text"


def parse_pair(text: str, option: str) -> tuple[str, str]:
    """``key=value`` -> (key, value). The value may contain ``=`` and may be empty; the key may not."""
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise UsageError(f"{option} expects KEY=VALUE, got {text!r}")
    return key, value


# Options that only make sense with one method, and the attribute that holds them.
_METHOD_ONLY: Final = (
    ("tool_name", "--tool-name", ("tools/call",)),
    ("tool_arg", "--tool-arg", ("tools/call",)),
    ("tool_args_json", "--tool-args-json", ("tools/call",)),
    ("uri", "--uri", ("resources/read",)),
    ("prompt_name", "--prompt-name", ("prompts/get",)),
    ("prompt_args", "--prompt-args", ("prompts/get",)),
    ("log_level", "--log-level", ("logging/setLevel",)),
)
_REQUIRED: Final = {
    "tools/call": ("tool_name", "--tool-name"),
    "resources/read": ("uri", "--uri"),
    "prompts/get": ("prompt_name", "--prompt-name"),
    "logging/setLevel": ("log_level", "--log-level"),
}


def _help_text() -> str:
    return build_parser().format_help()


def parse_args(argv: list[str]) -> CliOptions:
    """Parse and validate a command line (without the leading ``--cli``, which is tolerated anyway)."""
    ours, target = split_argv(argv)
    ns = build_parser().parse_args(ours)
    if ns.help:
        raise HelpRequested(_help_text())
    if ns.version:
        from inspector import __version__

        raise HelpRequested(f"mcp-inspect {__version__}")

    opts = CliOptions(target=target, format=ns.format, strict=ns.strict, timeout=ns.timeout, demo=ns.demo)
    overrides: dict[str, str] = {}
    for item in ns.limit:
        key, value = parse_pair(item, "--limit")
        overrides[key] = value
    try:
        opts.limits = DEFAULT_LIMITS.overridden(overrides)
    except ValueError as exc:
        raise UsageError(f"--limit: {exc}") from None

    # --- where the server comes from ---
    sources = [
        name
        for name, given in (("TARGET", bool(target)), ("--config", ns.config is not None), ("--demo", ns.demo))
        if given
    ]
    if len(sources) > 1:
        raise UsageError(f"give the server one way only, not {' and '.join(sources)}")
    if not sources:
        raise UsageError(
            "no server given: pass the server command (mcp-inspect --cli python server.py --method tools/list), "
            "--config FILE --server NAME, or --demo"
        )
    if ns.server is not None and ns.config is None:
        raise UsageError("--server needs --config FILE")
    opts.config, opts.server = ns.config, ns.server
    _remote_options(opts, ns)
    for item in ns.env:
        key, value = parse_pair(item, "-e")
        opts.env[key] = value
    opts.cwd = ns.cwd

    # --- what to do ---
    opts.load = ns.load
    opts.probe = ns.probe
    if ns.probe:
        if ns.load or ns.method is not None:
            raise UsageError(
                f"--probe runs every method itself; it cannot be combined with {'--load' if ns.load else '--method'}"
            )
        for attr, flag, _methods in _METHOD_ONLY:
            if getattr(ns, attr) not in (None, []):
                raise UsageError(f"{flag} is not used with --probe (it synthesises every argument itself)")
        for value, flag in ((ns.load_concurrency, "--load-concurrency"), (ns.load_requests, "--load-requests")):
            if value is not None:
                raise UsageError(f"{flag} only makes sense with --load")
        _protocol(opts, ns)
        return opts
    if ns.load:
        if ns.method not in (None, "tools/call"):
            raise UsageError(f"--load calls a tool; it cannot be combined with --method {ns.method}")
        opts.method = "tools/call"
        opts.load_concurrency = ns.load_concurrency or DEFAULT_LOAD_CONCURRENCY
        opts.load_requests = ns.load_requests or DEFAULT_LOAD_REQUESTS
    else:
        for value, flag in ((ns.load_concurrency, "--load-concurrency"), (ns.load_requests, "--load-requests")):
            if value is not None:
                raise UsageError(f"{flag} only makes sense with --load")
        if ns.method is None:
            raise UsageError(
                f"--method is required{_hint_from_target(target)}; one of: {', '.join(METHODS)} (or --probe)"
            )
        opts.method = ns.method

    for attr, flag, methods in _METHOD_ONLY:
        value = getattr(ns, attr)
        if value not in (None, []) and opts.method not in methods:
            raise UsageError(f"{flag} is only used with --method {' or '.join(methods)}, not {opts.method}")
    required = _REQUIRED.get(opts.method)
    if required is not None and getattr(ns, required[0]) is None:
        what = "--load" if opts.load else f"--method {opts.method}"
        raise UsageError(f"{what} needs {required[1]}")

    opts.tool_name = ns.tool_name
    opts.tool_arg_pairs = [parse_pair(item, "--tool-arg") for item in ns.tool_arg]
    if ns.tool_args_json is not None:
        try:
            parsed = json.loads(ns.tool_args_json)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--tool-args-json is not valid JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(parsed, dict):
            raise UsageError(f"--tool-args-json must be a JSON object, not {type(parsed).__name__}")
        opts.tool_args_json = parsed
    opts.uri = ns.uri
    opts.prompt_name = ns.prompt_name
    for item in ns.prompt_args:
        key, value = parse_pair(item, "--prompt-args")
        opts.prompt_args[key] = value
    opts.log_level = ns.log_level
    _protocol(opts, ns)
    return opts


_TRANSPORTS: Final = {
    "stdio": "stdio",
    "http": "http",
    "sse": "sse",
    "streamable-http": "http",
    "streamablehttp": "http",
}
_HEADER_NAME: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def is_url(token: str) -> bool:
    """Whether a TARGET token is a server URL (``http://`` or ``https://``) rather than a command."""
    return token.strip().lower().startswith(("http://", "https://"))


def parse_header(text: str) -> tuple[str, str]:
    """``'Name: value'`` -> (name, value); the name must be an HTTP token, the value one line."""
    name, colon, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not colon or not _HEADER_NAME.fullmatch(name):
        raise UsageError(f"--header expects 'NAME: VALUE' with a valid header name, got {text!r}")
    if any(ch in value for ch in "\r\n\0"):
        raise UsageError(f"--header {name}: the value must be on one line")
    for position, ch in enumerate(value):
        if not (ch == "\t" or " " <= ch <= "~"):
            shown = f"U+{ord(ch):04X}"
            raise UsageError(
                f"--header {name}: the value holds {shown} at position {position}; an HTTP header value is "
                "visible ASCII, spaces and tabs"
            )
    return name, value


def _remote_options(opts: CliOptions, ns: argparse.Namespace) -> None:
    """URL TARGETs, --transport, --header and the OAuth options, checked against each other."""
    target = opts.target
    url = target[0].strip() if target and is_url(target[0]) else None
    if url is not None and len(target) > 1:
        raise UsageError(f"a URL TARGET takes no arguments, got {' '.join(target[1:])!r} after {url}")
    opts.url = url
    if ns.transport is not None:
        name = _TRANSPORTS.get(ns.transport.strip().lower())
        if name is None:
            raise UsageError(f"--transport must be stdio, http or sse, not {ns.transport!r}")
        if name == "stdio" and url is not None:
            raise UsageError(f"--transport stdio needs a server command, not a URL ({url})")
        if name != "stdio" and url is None:
            raise UsageError(f"--transport {name} needs an http:// or https:// URL as TARGET")
        opts.transport = name
    remote_only = [
        flag
        for flag, given in (
            ("--header", bool(ns.header)),
            ("--client-id", ns.client_id is not None),
            ("--client-secret", ns.client_secret is not None),
            ("--client-metadata-url", ns.client_metadata_url is not None),
            ("--scope", bool(ns.scope)),
        )
        if given
    ] + given_auth_flags(ns)
    if remote_only and url is None:
        raise UsageError(f"{remote_only[0]} is for HTTP targets (http:// or https:// URLs), not server commands")
    if url is not None and (ns.env or ns.cwd is not None):
        raise UsageError(f"{'-e' if ns.env else '--cwd'} is for server commands, not URL targets")
    opts.headers = [parse_header(item) for item in ns.header]
    if ns.client_secret is not None and ns.client_id is None:
        raise UsageError("--client-secret needs the --client-id it belongs to")
    if ns.client_metadata_url is not None and not ns.client_metadata_url.lower().startswith("https://"):
        raise UsageError(f"--client-metadata-url must be an https:// URL, not {ns.client_metadata_url!r}")
    opts.client_id, opts.client_secret = ns.client_id, ns.client_secret
    opts.client_metadata_url = ns.client_metadata_url
    opts.scopes = [word for item in ns.scope for word in item.split()]
    opts.auto_approve = ns.auto_approve
    opts.oauth = parse_auth_options(ns)


def _protocol(opts: CliOptions, ns: argparse.Namespace) -> None:
    """``--protocol-version`` and ``--protocol-era``, checked against each other."""
    from inspector.protocol.versions import HANDSHAKE_VERSIONS, KNOWN_VERSIONS, MODERN_VERSIONS

    version, era = ns.protocol_version, ns.protocol_era
    if version not in KNOWN_VERSIONS:
        raise UsageError(f"--protocol-version: unknown version {version!r}; known: {', '.join(KNOWN_VERSIONS)}")
    if version in MODERN_VERSIONS:
        if era == "legacy":
            raise UsageError(
                f"--protocol-version {version} is a 2026-07-28-era version; --protocol-era legacy offers one of "
                f"{', '.join(HANDSHAKE_VERSIONS)}"
            )
        era = "modern"
    opts.protocol_version = version
    opts.protocol_era = era


def _hint_from_target(target: list[str]) -> str:
    """When ``--method`` is missing, a misspelt flag may have been passed to the server: say so."""
    for token in target:
        if token.startswith("--") and "--method" in _suggest(token):
            return f" ({token} was passed to the server; did you mean --method?)"
    return ""
