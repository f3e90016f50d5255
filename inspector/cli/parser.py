"""The argparse parser of ``mcp-inspect --cli``: every flag of the official inspector CLI 2.12, plus our own.

Parsing never exits the process: argparse errors raise :class:`UsageError`. The arity of every option (for
:mod:`inspector.cli.argv`, which splits the server command off first) is read from this parser, so the two
cannot disagree.
"""

from __future__ import annotations

import argparse
import math
from functools import cache
from typing import Any, Final, NoReturn

from inspector.cli.auth_options import ENVIRONMENT_HELP as AUTH_ENVIRONMENT_HELP
from inspector.cli.auth_options import add_auth_arguments
from inspector.cli.collection_options import add_collection_arguments
from inspector.cli.errors import UsageError
from inspector.cli.exitcodes import EXIT_CODES_HELP
from inspector.cli.replay_options import add_replay_arguments
from inspector.cli.snapshot_options import add_snapshot_arguments
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.methods import LOG_LEVELS
from inspector.protocol.versions import DEFAULT_VERSION as DEFAULT_PROTOCOL_VERSION

__all__ = [
    "CATALOG_METHODS",
    "DEFAULT_CONNECT_TIMEOUT_MS",
    "DEFAULT_LOAD_CONCURRENCY",
    "DEFAULT_LOAD_DURATION",
    "DEFAULT_PROTOCOL_VERSION",
    "DEFAULT_TIMEOUT",
    "FORMATS",
    "LOG_LEVELS",
    "METHODS",
    "MULTI_VALUE",
    "NOT_BUILT_FLAGS",
    "NOT_BUILT_METHODS",
    "ONE_SHOT_METHODS",
    "build_parser",
    "shared_parser",
]

ONE_SHOT_METHODS: Final = (
    "initialize",
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
CATALOG_METHODS: Final = ("servers/list", "servers/show", "servers/add", "servers/edit", "servers/remove")
NOT_BUILT_METHODS: Final = {
    "skills/list": "Skills (SEP-2640)",
    "skills/get": "Skills (SEP-2640)",
    "resources/directory/read": "resource directories",
}
"""Methods the official CLI has for features not built here yet: accepted, then refused with one line (exit 1)."""
METHODS: Final = (*ONE_SHOT_METHODS, *CATALOG_METHODS, *NOT_BUILT_METHODS)
NOT_BUILT_FLAGS: Final = {
    "--verify": "Skills verification (SEP-2640)",
    "--require-digests": "Skills verification (SEP-2640)",
    "--skill-catalog-max-skills": "Skills verification (SEP-2640)",
    "--skill-catalog-max-bytes": "Skills verification (SEP-2640)",
    "--cursor": "resource directories (resources/directory/read)",
    "--advertise-apps": "MCP Apps",
    "--app-info": "MCP Apps",
}
"""Flags of the official CLI for features not built here yet: accepted, then refused with one line (exit 1)."""
FORMATS: Final = ("text", "json", "human")
DEFAULT_TIMEOUT: Final = 60.0
DEFAULT_CONNECT_TIMEOUT_MS: Final = 15000
DEFAULT_LOAD_CONCURRENCY: Final = 10
DEFAULT_LOAD_DURATION: Final = 10.0
MULTI_VALUE: Final = ("--tool-arg", "--prompt-args", "--limit", "--metadata", "--tool-metadata", "--header")
"""Options that take one or more values (``--tool-arg a=1 b=2``) and may be repeated; the extra values must
look like ``key=value`` (``NAME: value`` for --header)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:  # pragma: no cover - not reached
        raise UsageError(message or f"argument parsing ended with status {status}")


def positive_int(what: str) -> Any:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a positive integer, not {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be a positive integer, not {value}")
        return value

    return convert


def positive_number(what: str, unit: str = "") -> Any:
    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not value > 0 or math.isinf(value):
            raise argparse.ArgumentTypeError(f"{what} must be a positive number{unit}, not {text!r}")
        return value

    return convert


def _milliseconds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--connect-timeout must be a whole number of ms, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--connect-timeout must be 0 (no timeout) or more ms, not {value}")
    return value


_DESCRIPTION: Final = (
    "Run one MCP method against a server and print the result (pretty JSON by default, as the official inspector "
    "CLI), or --probe everything it offers. TARGET is the server command and its arguments (stdio), e.g.: "
    "mcp-inspect --cli python server.py --method tools/list, or the server's http(s) URL (also --server-url; "
    "Streamable HTTP, legacy SSE for a path ending in /sse and as a fallback). Our options and a command TARGET "
    "may be mixed; an unknown --option is a usage error. Options first, then '--', then the server command: "
    "everything after '--' goes to the server (mcp-inspect --cli --method tools/list -- python server.py --port 1). "
    "The official form 'TARGET... -- OPTIONS' works too."
)


def _epilog() -> str:
    return (
        f"{EXIT_CODES_HELP}\n\n"
        "examples:\n"
        "  mcp-inspect --cli python server.py --method tools/list\n"
        "  mcp-inspect --cli --method tools/call --tool-name add --tool-arg a=1 b=2 -- python server.py\n"
        "  mcp-inspect --cli --server time --method tools/list --format human   (an entry of the catalog)\n"
        "  mcp-inspect --cli --server-url https://example.com/mcp --header 'X-Api-Key: k' --method tools/list\n"
        "  mcp-inspect --cli --probe --auto-approve http://127.0.0.1:8000/mcp\n"
        "  mcp-inspect --cli node build/index.js --load --method tools/call --tool-name echo --tool-arg message=hi\n\n"
        "environment:\n"
        "  MCP_INSPECT_DEBUG=1  show the Python traceback of unexpected internal errors\n"
        "  MCP_INSPECT_CLIENT_SECRET  the OAuth client secret of --client-id (instead of --client-secret)\n"
        "  MCP_CATALOG_PATH, MCP_CLIENT_CONFIG_PATH, MCP_OAUTH_CALLBACK_URL  defaults of --catalog, --client-config, "
        "--callback-url\n"
        f"{AUTH_ENVIRONMENT_HELP}"
    )


def _method_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_argument_group("method")
    what.add_argument("--method", metavar="METHOD", help=f"method to invoke: {', '.join(METHODS)}")
    what.add_argument("--tool-name", metavar="NAME", help="tool to call (tools/call, --load)")
    what.add_argument(
        "--tool-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="tool argument, repeatable (--tool-arg a=1 --tool-arg b=x) or several at once (--tool-arg a=1 b=x); "
        "values are converted to the type the tool's inputSchema declares (numbers, booleans, JSON objects/arrays)",
    )
    what.add_argument(
        "--tool-args-json", metavar="JSON", help="all tool arguments as one JSON object, passed as is (not --tool-arg)"
    )
    what.add_argument("--uri", help="resource URI (resources/read)")
    what.add_argument("--prompt-name", metavar="NAME", help="prompt name (prompts/get)")
    what.add_argument(
        "--prompt-args", action="append", default=[], metavar="KEY=VALUE", help="prompt arguments (prompts/get)"
    )
    what.add_argument("--log-level", choices=LOG_LEVELS, metavar="LEVEL", help=f"level: {', '.join(LOG_LEVELS)}")
    what.add_argument(
        "--metadata",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="into params._meta of every request; values are parsed as JSON when they are JSON (1, true, {...}), "
        "else sent as strings",
    )
    what.add_argument(
        "--tool-metadata",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="like --metadata, for tools/call only, over --metadata",
    )


def _server_arguments(parser: argparse.ArgumentParser) -> None:
    server = parser.add_argument_group("server")
    server.add_argument("-e", dest="env", action="append", default=[], metavar="KEY=VALUE", help="server env var")
    server.add_argument("--cwd", metavar="DIR", help="working directory of the server process")
    server.add_argument(
        "--server-url", metavar="URL", help="the server's http(s) URL (instead of a URL TARGET; see --transport)"
    )
    server.add_argument(
        "--transport",
        metavar="TYPE",
        help="stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE); default: from the URL (/sse: sse) or command",
    )
    server.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="HTTP header for a URL target, repeatable or several at once",
    )
    server.add_argument("--demo", action="store_true", help="run against the bundled demo server")
    files = parser.add_argument_group("server files (mcpServers JSON)")
    files.add_argument(
        "--catalog",
        metavar="PATH",
        help="writable catalog (created if missing; default $MCP_CATALOG_PATH or ~/.mcp-inspector/mcp.json)",
    )
    files.add_argument("--config", metavar="PATH", help="read-only session config file (never written)")
    files.add_argument(
        "--server", metavar="NAME", help="entry of --config or the catalog (or one of our saved connection profiles)"
    )
    files.add_argument("--rename", metavar="NAME", help="new name of the entry (servers/edit)")
    files.add_argument(
        "--client-config",
        metavar="PATH",
        help="install-level client config (default $MCP_CLIENT_CONFIG_PATH or ~/.mcp-inspector/storage/client.json)",
    )


def _auth_arguments(parser: argparse.ArgumentParser) -> None:
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
        "--scope", action="append", default=[], metavar="SCOPE", help="scope to request (repeatable; default: server's)"
    )
    auth.add_argument(
        "--auto-approve",
        action="store_true",
        help="authorize without a browser, for authorization servers that approve at once (CI, conformance); "
        "tokens are kept in memory for this run only",
    )
    auth.add_argument(
        "--callback-url",
        metavar="URL",
        help="loopback redirect URL of the login (default $MCP_OAUTH_CALLBACK_URL or "
        "http://127.0.0.1:6276/oauth/callback)",
    )
    auth.add_argument(
        "--use-stored-auth", action="store_true", help="send the token stored for the URL (by the window or a login)"
    )
    auth.add_argument(
        "--stored-auth-only",
        action="store_true",
        help="never log in interactively: the stored token or exit 3 (for CI); no-op when no auth is needed",
    )
    auth.add_argument(
        "--wait-for-auth",
        type=positive_number("--wait-for-auth", " of seconds"),
        metavar="SEC",
        help="wait up to SEC for a token for the URL to be stored (a login in the window), then use it",
    )
    auth.add_argument("--relogin", action="store_true", help="forget the stored token for the URL first (revoke it)")
    auth.add_argument("--no-revoke", action="store_true", help="with --relogin: do not revoke at the server (RFC 7009)")
    auth.add_argument(
        "--list-stored-auth", action="store_true", help="print the URLs with a stored token (JSON) and exit"
    )
    auth.add_argument(
        "--print-handoff", action="store_true", help="print how to log in with the window on --server-url (JSON), exit"
    )
    add_auth_arguments(auth)


def _connection_arguments(parser: argparse.ArgumentParser) -> None:
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
        default=None,
        help="legacy: initialize; modern: 2026-07-28 (server/discover, no handshake); auto (default): "
        "server/discover first, initialize when the server does not answer it as a 2026-07-28 server "
        "(over the protocolEra of a --catalog/--config file)",
    )
    conn.add_argument(
        "--connect-timeout",
        type=_milliseconds,
        metavar="MS",
        help=f"bound on connecting (default {DEFAULT_CONNECT_TIMEOUT_MS} for a TARGET or --server-url; 0: none)",
    )
    conn.add_argument(
        "--timeout",
        type=positive_number("--timeout", " of seconds"),
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"request timeout, reset on progress (default {DEFAULT_TIMEOUT:g})",
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


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    out = parser.add_argument_group("output")
    out.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help='text (default: the result as pretty JSON), json (one {"result": ...} line) or human (a readable summary)',
    )
    out.add_argument(
        "-q", "--quiet", action="store_true", help="only the result on stdout (or the error on stderr), nothing else"
    )
    out.add_argument("--output", metavar="PATH", help="write the result to PATH instead of stdout")
    out.add_argument(
        "--output-format",
        choices=("json", "raw"),
        default=None,
        help="of --output: json (default: the whole result) or raw (its text, or the bytes of one binary block)",
    )
    out.add_argument(
        "--strict",
        action="store_true",
        help="with tools/list: report unportable tool schemas in full and exit 6 on an error-severity one; with any "
        "method: exit 6 when the server violated the protocol, and list how",
    )
    out.add_argument(
        "--completion", choices=("bash", "zsh", "fish"), metavar="SHELL", help="print a completion script and exit"
    )


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    probe = parser.add_argument_group("probe")
    probe.add_argument(
        "--probe",
        action="store_true",
        help="list everything, call every tool with synthesised arguments, read every resource, get every prompt; "
        "print one JSON report; exit 6 when the server violated the protocol",
    )
    load = parser.add_argument_group("load (--method tools/call)")
    load.add_argument("--load", action="store_true", help="call --tool-name repeatedly and print a JSON summary")
    load.add_argument(
        "--load-concurrency",
        type=positive_int("--load-concurrency"),
        metavar="N",
        help=f"calls in flight at once (default {DEFAULT_LOAD_CONCURRENCY})",
    )
    load.add_argument(
        "--load-duration",
        type=positive_number("--load-duration", " of seconds"),
        metavar="SEC",
        help=f"stop starting calls after SEC (default {DEFAULT_LOAD_DURATION:g} without --load-requests)",
    )
    load.add_argument("--load-requests", type=positive_int("--load-requests"), metavar="N", help="stop after N calls")
    load.add_argument(
        "--load-rate", type=positive_number("--load-rate"), metavar="N", help="start at most N calls a second"
    )
    add_collection_arguments(parser)
    add_replay_arguments(parser)
    add_snapshot_arguments(parser)


def _not_built_arguments(parser: argparse.ArgumentParser) -> None:
    later = parser.add_argument_group("official flags of features not built here yet (exit 1 saying so)")
    for flag, feature in NOT_BUILT_FLAGS.items():
        if flag in ("--skill-catalog-max-skills", "--skill-catalog-max-bytes", "--cursor"):
            later.add_argument(flag, metavar="VALUE", help=feature)
        else:
            later.add_argument(flag, action="store_true", help=feature)


def build_parser() -> argparse.ArgumentParser:
    """The parser for our own options (the server command is split off first, see :mod:`inspector.cli.argv`)."""
    parser = _Parser(
        prog="mcp-inspect --cli",
        usage="mcp-inspect --cli [options] TARGET... [options] [-- SERVER-ARGS...]",
        description=_DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
        allow_abbrev=False,
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument("-V", "--version", action="store_true", help="show the version and exit")
    parser.add_argument("--cli", action="store_true", help=argparse.SUPPRESS)
    _method_arguments(parser)
    _server_arguments(parser)
    _auth_arguments(parser)
    _connection_arguments(parser)
    _output_arguments(parser)
    _run_arguments(parser)
    _not_built_arguments(parser)
    return parser


@cache
def shared_parser() -> argparse.ArgumentParser:
    """One parser for the process (parsing does not change it): the argv split and parse_args share it."""
    return build_parser()
