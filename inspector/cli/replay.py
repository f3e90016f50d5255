"""``mcp-inspect --cli --replay RECORDING TARGET... [--ignore JSONPATH ...] [--format json]``.

The entry point reads the recording first (``load_recording``: an unreadable one is exit 1 before the target's
command is started or its URL asked anything). ``run_replay`` connects to TARGET with the recording's answers as
the handlers (:mod:`inspector.regression.answers`), sends the recorded requests again
(:mod:`inspector.regression.replay`) and prints one report: readable text by default (``text`` and ``human``), one
JSON document with ``--format json`` (its shape: :mod:`inspector.regression.outcome`). Exit 0 when every request
answered as recorded, 10 (``ExitCode.REGRESSION``) otherwise; a target that cannot be reached or opened ends as
any other run (exit 1, 3 or 4).
"""

from __future__ import annotations

import sys

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output import Reporter, dump_json
from inspector.cli.run import connection_for, failure_from, open_connection
from inspector.cli.terminal import escape_text
from inspector.client.errors import ClientError
from inspector.protocol.jsonpath_query import JsonPathError
from inspector.regression.answers import RecordedAnswers
from inspector.regression.outcome import render_text
from inspector.regression.recorded import RecordedSession, read_session
from inspector.regression.replay import ReplayConfig, replay
from inspector.store.recording import RecordingError
from inspector.transports.base import Transport

__all__ = ["load_recording", "replay_config", "run_replay"]


def load_recording(path: str) -> RecordedSession:
    """The recording of ``--replay``; an unreadable one is a ``CliFailure`` (exit 1)."""
    try:
        return read_session(path)
    except (RecordingError, OSError) as exc:
        raise CliFailure("error", f"--replay: cannot read the recording: {exc}", envelope_code="recording") from None


def replay_config(opts: CliOptions) -> ReplayConfig:
    """``--ignore`` and ``--timeout`` as a ``ReplayConfig``; a bad ``--ignore`` pattern is a usage error."""
    try:
        return ReplayConfig(opts.ignore, timeout=opts.timeout)
    except JsonPathError as exc:
        raise UsageError(f"--ignore: {exc}") from None


async def run_replay(
    opts: CliOptions,
    target: str,
    reporter: Reporter,
    transport: Transport,
    *,
    config: ReplayConfig,
    session: RecordedSession,
) -> int:
    """Replay ``session`` (read from ``opts.replay`` before the target started) against the target; print the
    report; the exit code."""
    answers = RecordedAnswers(session.session_answers)
    conn = connection_for(opts, transport, handlers=answers, reporter=reporter)
    try:
        try:
            await open_connection(conn, opts)
            report = await replay(session, conn, answers, config=config, target=target)
        except ClientError as exc:
            raise failure_from(exc, conn) from None
    finally:
        try:
            await conn.close()
        except Exception:  # closing never masks the outcome
            pass
    if opts.format == "json":
        sys.stdout.write(dump_json(report.to_json()) + "\n")
    else:
        sys.stdout.write(escape_text(render_text(report)))
    sys.stdout.flush()
    return ExitCode.SUCCESS if report.passed else ExitCode.REGRESSION
