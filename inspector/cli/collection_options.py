"""The options of ``mcp-inspect --cli --run COLLECTION TARGET... [--junit FILE] [--format json]``.

``add_collection_arguments`` adds them to the parser; ``collection_options`` checks them once the rest of the
command line is valid. The run itself is :mod:`inspector.cli.collection_run`.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector.cli.errors import UsageError

__all__ = ["add_collection_arguments", "collection_options"]

_METHOD_FLAGS: Final = (
    ("--tool-name", "tool_name"),
    ("--tool-arg", "tool_arg"),
    ("--tool-args-json", "tool_args_json"),
    ("--tool-metadata", "tool_metadata"),
    ("--uri", "uri"),
    ("--prompt-name", "prompt_name"),
    ("--prompt-args", "prompt_args"),
    ("--log-level", "log_level"),
)


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
    given = {
        "--load": ns.load,
        "--probe": ns.probe,
        "--output": ns.output is not None,
        "--output-format": ns.output_format is not None,
        "--method": ns.method is not None,
    }
    for flag, attr in _METHOD_FLAGS:
        given[flag] = getattr(ns, attr) not in (None, [])
    clash = next((flag for flag, present in given.items() if present), None)
    if clash is not None:
        raise UsageError(f"--run runs the collection's own calls; it cannot be combined with {clash}")
    return run, junit
