"""The options of ``mcp-inspect --cli --run COLLECTION TARGET... [--junit FILE] [--format json]``.

``add_collection_arguments`` adds them to the parser; ``collection_options`` checks them once the rest of the
command line is valid. The run itself is :mod:`inspector.cli.collection_run`.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector.cli.errors import UsageError
from inspector.cli.mode_flags import LOAD_PROBE, METHOD_FLAGS, OUTPUT, OUTPUT_FORMAT, reject_clashes

__all__ = ["add_collection_arguments", "collection_options"]

_CLASHES: Final = (*LOAD_PROBE, OUTPUT, OUTPUT_FORMAT, *METHOD_FLAGS)


def add_collection_arguments(parser: argparse.ArgumentParser) -> None:
    run = parser.add_argument_group("collections (saved calls with assertions)")
    run.add_argument(
        "--run",
        metavar="COLLECTION",
        help="run the collection file's calls against TARGET, check their assertions, print a report "
        "(--format json: one JSON document); exit 0 when all pass, 10 otherwise, 1 for an unreadable file",
    )
    run.add_argument("--junit", metavar="FILE", help="with --run: also write JUnit XML of the run to FILE")


def collection_options(ns: argparse.Namespace) -> tuple[str, str | None] | None:
    """``(collection, junit)`` for --run (None without it); UsageError for flags that make no sense with it."""
    run, junit = ns.run, ns.junit
    if run is None:
        if junit is not None:
            raise UsageError("--junit requires --run COLLECTION")
        return None
    if not run.strip():
        raise UsageError("--run requires a collection file path")
    if junit is not None and not junit.strip():
        raise UsageError("--junit requires a non-empty file path")
    reject_clashes(ns, "--run runs the collection's own calls", _CLASHES)
    return run, junit
