"""Command line of ``mcp-inspect --cli``: the official inspector CLI's flags with their meaning, plus our own.

:mod:`inspector.cli.parser` declares the flags, :mod:`inspector.cli.argv` splits the server command off;
this module validates the combinations into one :class:`CliOptions`. Parsing never exits the process: every
problem raises :class:`UsageError` (exit 1, as the official CLI), and ``--help``/``--version`` raise
:class:`HelpRequested` carrying the text to print.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.cli.argv import sniff_format, split, split_argv
from inspector.cli.auth_options import AuthCliOptions, given_auth_flags, parse_auth_options
from inspector.cli.errors import UsageError
from inspector.cli.parser import (
    CATALOG_METHODS,
    DEFAULT_CONNECT_TIMEOUT_MS,
    DEFAULT_LOAD_CONCURRENCY,
    DEFAULT_LOAD_DURATION,
    DEFAULT_PROTOCOL_VERSION,
    DEFAULT_TIMEOUT,
    LOG_LEVELS,
    METHODS,
    NOT_BUILT_FLAGS,
    NOT_BUILT_METHODS,
    ONE_SHOT_METHODS,
    build_parser,
    shared_parser,
)
from inspector.protocol.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "DEFAULT_LOAD_CONCURRENCY",
    "DEFAULT_LOAD_DURATION",
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


class HelpRequested(Exception):
    """``--help`` or ``--version`` was given; the message is the text to print on stdout."""


@dataclass(slots=True)
class CliOptions:
    """A validated command line."""

    target: list[str] = field(default_factory=list)
    """The server command and its arguments (empty with --server, --config or --demo), or ``[url]``."""
    url: str | None = None
    """The server URL (a URL TARGET or --server-url; Streamable HTTP or legacy SSE)."""
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
    """``--config PATH``: a read-only mcpServers file."""
    server: str | None = None
    """``--server NAME``: an entry of --config, of the catalog, or a saved profile."""
    demo: bool = False
    load: bool = False
    load_concurrency: int = DEFAULT_LOAD_CONCURRENCY
    load_requests: int | None = None
    """``--load-requests N`` (None: bounded by --load-duration only)."""
    protocol_version: str = DEFAULT_PROTOCOL_VERSION
    protocol_era: Literal["legacy", "modern", "auto"] = "auto"
    protocol_era_given: bool = False
    """Whether --protocol-era was on the command line (it wins over a catalog file's protocolEra)."""
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
    connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT_MS / 1000
    """``--connect-timeout MS``, in seconds; None: no bound (``--connect-timeout 0``)."""
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
    passed_to_server: list[str] = field(default_factory=list)
    """Unknown options after the server command, passed to the server (the CLI says so on stderr)."""
    run_collection: str | None = None
    """``--run COLLECTION``: run a collection of saved calls with assertions (inspector.regression)."""
    junit_path: str | None = None
    """``--junit FILE``: with --run, also write JUnit XML there."""
    replay: str | None = None
    """``--replay RECORDING``: send a recorded session's requests again and compare (inspector.regression)."""
    ignore: tuple[str, ...] = ()
    snapshot: bool = False
    """``--snapshot``: write the server's surface snapshot (inspector.regression.snapshot)."""
    """``--ignore JSONPATH``: with --replay, paths of the answers left out of the comparison."""


def parse_pair(text: str, option: str) -> tuple[str, str]:
    """``key=value`` -> (key, value). The value may contain ``=`` and may be empty; the key may not."""
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise UsageError(f"{option} expects KEY=VALUE, got {text!r}")
    return key, value


def parse_meta_pair(text: str, option: str) -> tuple[str, Any]:
    """``key=value`` of --metadata: the value parsed as JSON when it is JSON, else the string (as the official)."""
    key, value = parse_pair(text, option)
    if value == "":
        raise UsageError(f"{option} expects KEY=VALUE with a value, got {text!r}")
    try:
        parsed: Any = json.loads(value, parse_constant=lambda name: math.inf)
    except ValueError:
        return key, value
    if _has_non_finite(parsed):
        raise UsageError(f"{option} {key}: numbers must be finite ({value!r} cannot be sent as JSON)")
    return key, parsed


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


# Options that only make sense with one method, and the attribute that holds them.
_METHOD_ONLY: Final = (
    ("tool_name", "--tool-name", ("tools/call",)),
    ("tool_arg", "--tool-arg", ("tools/call",)),
    ("tool_args_json", "--tool-args-json", ("tools/call",)),
    ("tool_metadata", "--tool-metadata", ("tools/call",)),
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
_LOAD_BOUNDS: Final = ("--load-concurrency", "--load-duration", "--load-requests", "--load-rate")


def _attr(flag: str) -> str:
    return flag[2:].replace("-", "_")


def _not_built(ns: argparse.Namespace) -> None:
    """The official flags and methods of features not built here yet: one line, exit 1."""
    for flag, feature in NOT_BUILT_FLAGS.items():
        if getattr(ns, _attr(flag)) not in (None, False):
            raise UsageError(f"{flag}: {feature} is not available in mcp-inspect yet")
    if ns.method in NOT_BUILT_METHODS:
        raise UsageError(f"--method {ns.method}: {NOT_BUILT_METHODS[ns.method]} is not available in mcp-inspect yet")


def parse_args(argv: list[str]) -> CliOptions:
    """Parse and validate a command line (without the leading ``--cli``, which is tolerated anyway)."""
    parts = split(argv)
    ours, target = parts.ours, parts.target
    ns = shared_parser().parse_args(ours)
    if ns.help:
        raise HelpRequested(build_parser().format_help())
    if ns.version:
        from inspector import __version__

        raise HelpRequested(__version__)
    if ns.method is not None and ns.method not in METHODS:
        close = difflib.get_close_matches(ns.method, METHODS, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(f"unsupported method: {ns.method}{hint}; one of: {', '.join(METHODS)}")
    _not_built(ns)

    opts = CliOptions(target=target, format=ns.format, strict=ns.strict, timeout=ns.timeout, demo=ns.demo)
    opts.quiet = ns.quiet
    opts.passed_to_server = list(parts.passed)
    opts.completion = ns.completion
    overrides: dict[str, str] = {}
    for item in ns.limit:
        key, value = parse_pair(item, "--limit")
        overrides[key] = value
    try:
        opts.limits = DEFAULT_LIMITS.overridden(overrides)
    except ValueError as exc:
        raise UsageError(f"--limit: {exc}") from None
    if ns.connect_timeout is not None:
        opts.connect_timeout = ns.connect_timeout / 1000 if ns.connect_timeout > 0 else None
    _output(opts, ns)
    _stored_auth(opts, ns)
    if opts.completion is not None:
        return opts
    opts.method = ns.method
    opts.catalog, opts.config, opts.server = ns.catalog, ns.config, ns.server
    opts.rename, opts.client_config = ns.rename, ns.client_config
    offline = ns.list_stored_auth or ns.print_handoff or ns.method in CATALOG_METHODS

    # --- where the server comes from ---
    _source(opts, ns)
    _remote_options(opts, ns)
    for item in ns.env:
        key, value = parse_pair(item, "-e")
        opts.env[key] = value
    opts.cwd = ns.cwd
    opts.metadata = dict(parse_meta_pair(item, "--metadata") for item in ns.metadata)
    _protocol(opts, ns)
    from inspector.cli.stored_auth import check_stored_auth

    check_stored_auth(opts)
    from inspector.cli.catalog_rules import check_catalog

    check_catalog(opts)
    if ns.load and (ns.list_stored_auth or ns.print_handoff):
        raise UsageError("--load cannot be combined with --list-stored-auth or --print-handoff")
    if offline:
        return opts

    # --- what to do ---
    from inspector.cli.snapshot_options import snapshot_options

    if snapshot_options(ns):
        opts.snapshot = True
        return opts
    from inspector.cli.replay_options import replay_options

    replaying = replay_options(ns)
    if replaying is not None:
        opts.replay, opts.ignore = replaying
        return opts
    from inspector.cli.collection_options import collection_options

    collection_run = collection_options(ns)
    if collection_run is not None:
        opts.run_collection, opts.junit_path = collection_run
        return opts
    opts.load = ns.load
    opts.probe = ns.probe
    given_bounds = [flag for flag in _LOAD_BOUNDS if getattr(ns, _attr(flag)) is not None]
    if given_bounds and not ns.load:
        raise UsageError(f"{given_bounds[0]} requires --load")
    if ns.probe:
        if ns.load or ns.method is not None:
            raise UsageError(
                f"--probe runs every method itself; it cannot be combined with {'--load' if ns.load else '--method'}"
            )
        for attr, flag, _methods in _METHOD_ONLY:
            if getattr(ns, attr) not in (None, []):
                raise UsageError(f"{flag} is not used with --probe (it synthesises every argument itself)")
        if opts.output_path is not None:
            raise UsageError("--probe prints a report, not a result; redirect stdout to keep it (not --output)")
        return opts
    if ns.load:
        if ns.method not in (None, "tools/call"):
            raise UsageError(f"--load requires --method tools/call, not --method {ns.method}")
        if opts.output_path is not None or ns.output_format is not None:
            raise UsageError("--load cannot be combined with --output or --output-format; redirect stdout instead")
        opts.method = "tools/call"
        opts.load_concurrency = ns.load_concurrency or DEFAULT_LOAD_CONCURRENCY
        opts.load_requests = ns.load_requests
        opts.load_rate = ns.load_rate
        opts.load_duration = ns.load_duration
        if opts.load_duration is None and opts.load_requests is None:
            opts.load_duration = DEFAULT_LOAD_DURATION
    elif ns.method is None:
        raise UsageError(
            f"--method is required; one of: {', '.join(ONE_SHOT_METHODS + CATALOG_METHODS)} (or --probe, --load)"
        )
    _method_arguments(opts, ns)
    return opts


def _output(opts: CliOptions, ns: argparse.Namespace) -> None:
    """--output and --output-format, as the official CLI checks them."""
    if ns.output is None:
        if ns.output_format is not None:
            raise UsageError("--output-format requires --output PATH")
        return
    if not ns.output.strip():
        raise UsageError("--output requires a non-empty file path")
    if ns.list_stored_auth or ns.print_handoff or ns.method in ("servers/list", "servers/show"):
        raise UsageError(
            "--output requires a method that calls a server; it has no effect with --list-stored-auth, "
            "--print-handoff or --method servers/list / servers/show"
        )
    if ns.output_format == "raw" and ns.method not in ("tools/call", "resources/read"):
        raise UsageError(
            "--output-format raw requires --method tools/call or resources/read; use --output-format json otherwise"
        )
    opts.output_path = ns.output
    opts.output_format = ns.output_format or "json"


def _stored_auth(opts: CliOptions, ns: argparse.Namespace) -> None:
    opts.callback_url = ns.callback_url
    opts.use_stored_auth, opts.stored_auth_only = ns.use_stored_auth, ns.stored_auth_only
    opts.wait_for_auth, opts.relogin, opts.no_revoke = ns.wait_for_auth, ns.relogin, ns.no_revoke
    opts.list_stored_auth, opts.print_handoff = ns.list_stored_auth, ns.print_handoff


def _method_arguments(opts: CliOptions, ns: argparse.Namespace) -> None:
    for attr, flag, methods in _METHOD_ONLY:
        value = getattr(ns, attr)
        if value not in (None, []) and opts.method not in methods:
            raise UsageError(f"{flag} is only used with --method {' or '.join(methods)}, not {opts.method}")
    assert opts.method is not None
    required = _REQUIRED.get(opts.method)
    if required is not None and getattr(ns, required[0]) is None:
        what = "--load" if opts.load else f"--method {opts.method}"
        raise UsageError(f"{what} needs {required[1]}")
    if ns.tool_args_json is not None and ns.tool_arg:
        raise UsageError("--tool-args-json cannot be combined with --tool-arg; pick one")
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
    opts.tool_metadata = dict(parse_meta_pair(item, "--tool-metadata") for item in ns.tool_metadata)
    opts.uri = ns.uri
    opts.prompt_name = ns.prompt_name
    for item in ns.prompt_args:
        key, value = parse_pair(item, "--prompt-args")
        opts.prompt_args[key] = value
    opts.log_level = ns.log_level


def _source(opts: CliOptions, ns: argparse.Namespace) -> None:
    """Where the server comes from: TARGET, --server-url, --server (of --config or the catalog) or --demo."""
    target = opts.target
    if ns.server_url is not None:
        if not ns.server_url.strip():
            raise UsageError("--server-url needs a URL")
        if target:
            raise UsageError(f"give the server one way only, not --server-url and TARGET {' '.join(target)!r}")
        if not is_url(ns.server_url):
            raise UsageError(f"--server-url must be an http:// or https:// URL, not {ns.server_url!r}")
        opts.target = target = [ns.server_url.strip()]
    sources = [
        name
        for name, given in (
            ("TARGET", bool(target)),
            ("--config", ns.config is not None and ns.method not in CATALOG_METHODS),
            ("--demo", ns.demo),
        )
        if given
    ]
    if len(sources) > 1:
        raise UsageError(f"give the server one way only, not {' and '.join(sources)}")
    if ns.server is not None and (target or ns.demo) and ns.method not in CATALOG_METHODS:
        raise UsageError(f"--server names a catalog entry; it cannot be combined with {sources[0]}")
    # neither TARGET, --server-url, --demo nor --server: the entry of --config or of the catalog (one entry
    # needs no name; inspector.cli.config says when the file has none or several)


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
    """URL targets, --transport, --header and the OAuth options, checked against each other."""
    target = opts.target
    url = target[0].strip() if target and is_url(target[0]) else None
    if url is not None and len(target) > 1:
        raise UsageError(f"a URL TARGET takes no arguments, got {' '.join(target[1:])!r} after {url}")
    opts.url = url
    named = ns.server is not None  # the entry says where it is; --header and the OAuth flags apply on top
    if ns.transport is not None:
        name = _TRANSPORTS.get(ns.transport.strip().lower())
        if name is None:
            raise UsageError(f"--transport must be stdio, http or sse, not {ns.transport!r}")
        if name == "stdio" and url is not None:
            raise UsageError(f"--transport stdio needs a server command, not a URL ({url})")
        if name != "stdio" and url is None and not named:
            raise UsageError(f"--transport {name} needs --server-url or an http:// or https:// URL as TARGET")
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
    if remote_only and url is None and not named and not opts.demo and opts.target:
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
    opts.protocol_era_given = era is not None
    era = era or "auto"
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
