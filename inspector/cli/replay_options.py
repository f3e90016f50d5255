"""The options of ``mcp-inspect --cli --replay RECORDING TARGET... [--ignore JSONPATH ...] [--format json]``.

``add_replay_arguments`` adds them to the parser; ``replay_options`` checks them once the rest of the command line
is valid (the patterns themselves are read when the replay starts). The replay itself is
:mod:`inspector.cli.replay`.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector.cli.errors import UsageError
from inspector.cli.mode_flags import LOAD_PROBE, METHOD_FLAGS, OUTPUT, OUTPUT_FORMAT, RUN, reject_clashes

__all__ = ["add_replay_arguments", "replay_options"]

_CLASHES: Final = (*LOAD_PROBE, RUN, *METHOD_FLAGS, OUTPUT, OUTPUT_FORMAT)


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    replay = parser.add_argument_group("replay (a recorded session against a new build)")
    replay.add_argument(
        "--replay",
        metavar="RECORDING",
        help="send the client's requests of a recorded session (a .sqlite3 recording) again to TARGET, in order, "
        "answering the server's requests with the recorded answers, and compare each answer with the recorded one "
        "(cursors, task ids, progress tokens, timestamps and ids in _meta are ignored by themselves); exit 0 when "
        "all match, 10 otherwise, 1 for an unreadable recording",
    )
    replay.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="JSONPATH",
        help="with --replay: leave this path of every answer out of the comparison, with everything below it; "
        "repeatable; paths start at the JSON-RPC message ($.result.content[0].text, $..timestamp, "
        "$.result.tools[*].description)",
    )


def replay_options(ns: argparse.Namespace) -> tuple[str, tuple[str, ...]] | None:
    """``(recording, ignore patterns)`` for --replay (None without it); UsageError for flags it cannot take."""
    recording, ignore = ns.replay, tuple(ns.ignore)
    if recording is None:
        if ignore:
            raise UsageError("--ignore requires --replay RECORDING")
        return None
    if not recording.strip():
        raise UsageError("--replay requires a recording file path")
    reject_clashes(ns, "--replay sends the recording's own requests", _CLASHES)
    for pattern in ignore:
        if not pattern.strip().startswith("$"):
            raise UsageError(f"--ignore expects a JSON path starting with $, got {pattern!r}")
    return recording, ignore
