"""``mcp-inspect --cli --snapshot TARGET... [--output FILE]``: the surface snapshot of TARGET.

Connects as every other command does (either era), lists everything the server's capabilities declare (all
pages) and writes the snapshot (:mod:`inspector.regression.snapshot`) to stdout or ``--output FILE``: the same
server gives byte-identical output. Exit 0, or the usual codes when the server cannot be reached or opened.
"""

from __future__ import annotations

import sys
from pathlib import Path

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output import Reporter
from inspector.cli.run import connection_for, failure_from, open_connection
from inspector.client.errors import ClientError
from inspector.regression.snapshot import SnapshotError, dump_snapshot, take_snapshot
from inspector.transports.base import Transport

__all__ = ["run_snapshot"]


async def run_snapshot(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Take the snapshot of the target; write it; the exit code."""
    conn = connection_for(opts, transport, reporter=reporter)
    try:
        try:
            await open_connection(conn, opts)
            snapshot = await take_snapshot(conn)
        except ClientError as exc:
            raise failure_from(exc, conn) from None
        except SnapshotError as exc:
            raise CliFailure("error", f"--snapshot: {exc}") from None
    finally:
        try:
            await conn.close()
        except Exception:  # closing never masks the outcome
            pass
    text = dump_snapshot(snapshot)
    if opts.output_path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return ExitCode.SUCCESS
    path = Path(opts.output_path)
    try:
        temporary = path.with_name(path.name + ".part")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        raise CliFailure("error", f"--output: cannot write {path}: {exc.strerror or exc}") from None
    if not opts.quiet:
        sys.stderr.write(f"snapshot written to {path} ({len(snapshot.get('tools', []))} tools)\n")
    return ExitCode.SUCCESS
