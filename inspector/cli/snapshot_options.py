"""The options of ``mcp-inspect --cli --snapshot TARGET... [--output FILE]`` and ``mcp-inspect --diff OLD NEW``.

``add_snapshot_arguments`` adds them to the parser (so they are in ``--help``); ``snapshot_options`` checks
--snapshot once the rest of the command line is valid. ``--diff`` never reaches the parser: it needs no server,
and :func:`wants_diff` routes it to :mod:`inspector.cli.diff_command` first. The snapshot itself is
:mod:`inspector.cli.snapshot_run`.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector.cli.mode_flags import LOAD_PROBE, METHOD_FLAGS, OUTPUT_FORMAT, REPLAY, RUN, reject_clashes

__all__ = ["DIFF_FLAG", "add_snapshot_arguments", "snapshot_options", "wants_diff"]

DIFF_FLAG: Final = "--diff"
_CLASHES: Final = (*LOAD_PROBE, *METHOD_FLAGS, OUTPUT_FORMAT, REPLAY, RUN)


def add_snapshot_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("surface snapshots and breaking-change diffs")
    group.add_argument(
        "--snapshot",
        action="store_true",
        help="write one JSON document of everything TARGET offers (era, protocol version, server info, "
        "capabilities, every tool, resource, template and prompt, all pages) in a stable order, to stdout or "
        "--output FILE",
    )
    group.add_argument(
        DIFF_FLAG,
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two surfaces (each a snapshot file or a recording) and list every change, classified "
        "breaking / compatible / cosmetic, with its JSON path and reason (--format json: one JSON document); "
        "no server is started, --cli is optional; exit 0 when nothing breaks, 10 when something does, 1 for an "
        "unreadable file",
    )


def snapshot_options(ns: argparse.Namespace) -> bool:
    """Whether --snapshot was asked for; UsageError for flags that make no sense with it."""
    if not ns.snapshot:
        return False
    reject_clashes(ns, "--snapshot lists everything itself", _CLASHES)
    return True


def wants_diff(argv: list[str]) -> bool:
    """Whether ``argv`` (without ``--cli``) asks for ``--diff`` among our options (before any ``--``)."""
    for token in argv:
        if token == "--":
            return False
        if token == DIFF_FLAG or token.startswith(DIFF_FLAG + "="):
            return True
    return False
