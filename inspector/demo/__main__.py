"""``python -m inspector.demo [--http PORT | --sse PORT] [--era legacy|modern|both] [--variant standard|changed]``
— run the demo MCP server.

Serves stdio unless ``--http`` or ``--sse`` is given.
"""

import argparse
import sys
import warnings
from collections.abc import Sequence
from functools import partial

import anyio
from mcp.shared.exceptions import MCPDeprecationWarning

from inspector.demo.eras import DEFAULT_ERA, ERAS
from inspector.demo.server import build_server, run_http, run_sse, run_stdio
from inspector.demo.variant_changed import DEFAULT_VARIANT, VARIANTS


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.demo",
        description="The MCP Inspector Desktop demo server. Serves stdio unless --http or --sse is given; "
        "HTTP transports bind to 127.0.0.1 only.",
    )
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--http", type=int, metavar="PORT", help="serve Streamable HTTP at http://127.0.0.1:PORT/mcp (0 = any free)"
    )
    transport.add_argument(
        "--sse", type=int, metavar="PORT", help="serve legacy HTTP+SSE at http://127.0.0.1:PORT/sse (0 = any free)"
    )
    parser.add_argument("--json-response", action="store_true", help="HTTP: answer POSTs with JSON, not SSE")
    parser.add_argument("--stateless", action="store_true", help="HTTP: no sessions (server requests unavailable)")
    parser.add_argument(
        "--era",
        choices=ERAS,
        default=DEFAULT_ERA,
        help="protocol era to answer: legacy (initialize handshake, 2025-11-25 and older), modern (2026-07-28, "
        "server/discover) or both (the client's first request decides; default); stdio and --http",
    )
    parser.add_argument(
        "--variant",
        choices=VARIANTS,
        default=DEFAULT_VARIANT,
        help="which build to serve: standard (default) or changed, a deliberately changed build for regression "
        "tests (a tool renamed, a required argument added, ...; see inspector/demo/variant_changed.py)",
    )
    parser.add_argument(
        "--clock-interval", type=float, default=2.0, metavar="SECONDS", help="how often demo://clock changes"
    )
    args = parser.parse_args(argv)
    for name in ("http", "sse"):
        port = getattr(args, name)
        if port is not None and not 0 <= port <= 65535:
            parser.error(f"--{name}: port must be between 0 and 65535")
    if args.sse is not None and args.era != DEFAULT_ERA:
        parser.error("--era applies to stdio and --http; the legacy HTTP+SSE transport always serves both eras")
    if args.clock_interval <= 0:
        parser.error("--clock-interval must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    # The SDK flags logging/sampling/roots as deprecated in 2026-07-28; the demo uses them on purpose.
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)
    server = build_server(clock_interval=args.clock_interval, variant=args.variant)
    try:
        if args.http is not None:
            anyio.run(
                partial(
                    run_http,
                    server,
                    args.http,
                    json_response=args.json_response,
                    stateless=args.stateless,
                    era=args.era,
                )
            )
        elif args.sse is not None:
            anyio.run(run_sse, server, args.sse)
        else:
            anyio.run(partial(run_stdio, server, era=args.era))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"inspector-demo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
