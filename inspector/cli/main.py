"""Entry point of ``mcp-inspect --cli``: parse, run, and turn every outcome into one line and an exit code.

Nothing a server does may end in a Python traceback: every failure is one ``{"error": {...}}`` line on
stderr (as the official CLI; one ``error: ...`` line with ``--format human``) and an exit code
(:mod:`inspector.cli.exitcodes`). Unexpected internal errors too, unless ``MCP_INSPECT_DEBUG=1`` asks for the
traceback. Ctrl-C exits 130 quietly.

Imports are lazy: ``--help`` and usage errors never load the engine, only ``--load`` loads the load
runner, only ``--probe`` the probe, and only URL targets load HTTP (httpx2) and OAuth.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, TextIO, TypeAlias

from inspector.cli.args import CliOptions, HelpRequested, parse_args, sniff_format
from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from inspector.cli.config import ServerSpec
    from inspector.cli.output import Reporter
    from inspector.transports.base import Transport

    Runner: TypeAlias = Callable[[CliOptions, str, Reporter, Transport], Awaitable[int]]

__all__ = ["DEBUG_ENV", "demo_overview", "main"]

DEBUG_ENV = "MCP_INSPECT_DEBUG"


def _message(exc: BaseException) -> str:
    """An exception's message, or its type when it has none (never "usage error: " alone)."""
    return str(exc).strip() or type(exc).__name__


def _debug() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _report(failure: CliFailure, fmt: str, err: TextIO) -> None:
    from inspector.cli.output import report_failure

    report_failure(failure, fmt, err)


def _quiet_stdout() -> None:
    """stdout went away (``| head``): stop writing to it without another error at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _preloaded_runner(opts: CliOptions) -> Runner | None:
    """``--replay`` and ``--run`` with their file (the recording, the collection) read before any server starts.

    An unreadable one ends the run (exit 1) without spawning the target's command or asking its URL anything.
    """
    if opts.replay is not None:
        from inspector.cli.replay import load_recording, replay_config, run_replay

        return functools.partial(run_replay, config=replay_config(opts), session=load_recording(opts.replay))
    if opts.run_collection is not None:
        from inspector.cli.collection_run import read_collection, run_collection_cli

        return functools.partial(run_collection_cli, collection=read_collection(opts.run_collection))
    return None


async def _run(opts: CliOptions, spec: ServerSpec | None, reporter: Reporter, overview: bool) -> int:
    preloaded = _preloaded_runner(opts)
    transport: Transport
    if spec is None:
        assert opts.url is not None
        target = opts.url
        from inspector.cli.oauth_setup import remote_transport

        transport = remote_transport(opts, opts.url)
    else:
        from inspector.cli.early import EarlyTransport
        from inspector.transports.stdio import StdioTransport

        # Spawn the server first: it boots while the engine is imported.
        target = spec.describe()
        early = EarlyTransport(
            StdioTransport(spec.command, list(spec.args), env=spec.env or None, cwd=spec.cwd, limits=opts.limits)
        )
        await early.prestart()
        transport = early
    runner: Runner
    try:
        if preloaded is not None:
            runner = preloaded
        elif opts.probe:
            from inspector.cli.probe import run_probe

            runner = run_probe
        elif opts.snapshot:
            from inspector.cli.snapshot_run import run_snapshot

            runner = run_snapshot
        else:
            from inspector.cli.run import run_method, run_overview

            runner = run_overview if overview else run_method
    except BaseException:
        await transport.close()
        raise
    return await runner(opts, target, reporter, transport)


def _execute(opts: CliOptions, overview: bool) -> int:
    import asyncio

    from inspector.cli.config import prepare_server
    from inspector.cli.output import Reporter

    spec = prepare_server(opts)  # (a named HTTP server sets opts.url and its settings)
    return asyncio.run(_run(opts, spec, Reporter(format=opts.format, quiet=opts.quiet), overview))


def _guarded(opts: CliOptions, fmt: str, overview: bool = False) -> int:
    try:
        from inspector.cli.offline import run_offline

        offline = run_offline(opts)
        if offline is not None:
            return offline
        return _execute(opts, overview)
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except CliFailure as failure:
        _report(failure, fmt, sys.stderr)
        return failure.exit_code
    except BrokenPipeError:
        _quiet_stdout()
        return ExitCode.ERROR
    except Exception as exc:
        if _debug():
            import traceback

            traceback.print_exc()
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        hint = "" if _debug() else f" (set {DEBUG_ENV}=1 for the traceback)"
        _report(CliFailure("internal", f"internal error: {detail}{hint}"), fmt, sys.stderr)
        return ExitCode.ERROR


def main(argv: list[str] | None = None) -> int:
    """``mcp-inspect --cli ...``: returns the exit code (see ``inspector.cli.exitcodes``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    from inspector.cli.snapshot_options import wants_diff

    if wants_diff(args):  # needs no server: never parsed as a command line with a TARGET
        from inspector.cli.diff_command import run_diff

        return run_diff(args)
    fmt = sniff_format(args)
    try:
        opts = parse_args(args)
    except HelpRequested as text:
        sys.stdout.write(f"{text}\n")
        return ExitCode.SUCCESS
    except UsageError as failure:
        _report(failure, fmt, sys.stderr)
        return failure.exit_code
    if opts.passed_to_server and not opts.quiet and opts.format != "json":
        from inspector.cli.terminal import escape_line

        passed = ", ".join(opts.passed_to_server)
        sys.stderr.write(
            escape_line(
                f"note: passing {passed} to the server: not an option of mcp-inspect (server options after '--' "
                "pass without this note)"
            )
            + "\n"
        )
    return _guarded(opts, opts.format)


def demo_overview(timeout: float = 60.0) -> int:
    """List the bundled demo server's tools, resources and prompts in readable form."""
    opts = CliOptions(demo=True, method="tools/list", timeout=timeout, format="human")
    return _guarded(opts, "human", overview=True)
