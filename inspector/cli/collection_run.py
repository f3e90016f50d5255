"""``mcp-inspect --cli --run COLLECTION TARGET...``: run a collection, print the report, write JUnit, exit code.

The collection is read by the entry point (``read_collection``) before the target's command is started or anything
is sent: an unreadable or invalid file exits 1 naming the file, the call and the field. The report goes to stdout:
readable text by default (and with ``--format human``), one JSON document with ``--format json`` (its shape:
``CollectionReport.to_json``, in docs/INTERFACES.md). Exit 0 when every call passes, 10 (``ExitCode.REGRESSION``)
when one fails; a connection that cannot be opened exits as any other run does.
"""

from __future__ import annotations

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.exitcodes import ExitCode
from inspector.cli.failures import failure_from
from inspector.cli.output import Reporter
from inspector.cli.run import connection_for, open_connection
from inspector.cli.terminal import escape_line
from inspector.client.errors import ClientError
from inspector.regression.collection import Collection, CollectionError, load_collection
from inspector.regression.junit import write_junit
from inspector.regression.report_text import render_text
from inspector.regression.runner import CollectionReport, run_collection
from inspector.transports.base import Transport

__all__ = ["read_collection", "run_collection_cli"]


def _emit(reporter: Reporter, report: CollectionReport) -> None:
    if reporter.format == "json":
        reporter.document(report.to_json())
    else:
        reporter.text(render_text(report))


def read_collection(path: str) -> Collection:
    """``--run``'s collection; an unreadable or invalid one is a ``CliFailure`` (exit 1)."""
    try:
        return load_collection(path)
    except CollectionError as exc:
        raise CliFailure("error", f"collection: {exc}", envelope_code="collection_invalid") from None


async def run_collection_cli(
    opts: CliOptions, target: str, reporter: Reporter, transport: Transport, *, collection: Collection
) -> int:
    """Run ``collection`` (read from ``opts.run_collection`` before the target started); report; exit code."""
    conn = connection_for(opts, transport, reporter=reporter)
    try:
        await open_connection(conn, opts)
        report = await run_collection(conn, collection, timeout=opts.timeout)
    except CliFailure as failure:
        reporter.failure(failure)
        return int(failure.exit_code)
    except ClientError as exc:
        lost = failure_from(exc, conn)
        reporter.failure(lost)
        return int(lost.exit_code)
    finally:
        try:
            await conn.close()
        except Exception:  # closing must never mask the outcome
            pass
    _emit(reporter, report)
    if opts.junit_path is not None:
        try:
            write_junit([report], opts.junit_path)
        except OSError as exc:
            message = f"cannot write the JUnit file {opts.junit_path}: {exc.strerror or exc}"
            reporter.failure(CliFailure("error", message, envelope_code="junit_write_failed"))
            return ExitCode.ERROR
        if reporter.chatty:
            reporter.err.write(escape_line(f"Wrote JUnit XML to {opts.junit_path}") + "\n")
    return ExitCode.SUCCESS if report.passed else ExitCode.REGRESSION
