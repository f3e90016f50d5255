"""The flags a whole-run mode (--snapshot, --replay, --run) cannot be combined with, and the check that rejects them.

Each mode lists, in the order it reports them, the flags it clashes with: the shared :data:`LOAD_PROBE` and
:data:`METHOD_FLAGS` plus its own extras (one ``(flag, namespace attribute)`` pair each);
:func:`reject_clashes` raises the mode's UsageError for the first one present on the command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Final

from inspector.cli.errors import UsageError

__all__ = ["LOAD_PROBE", "METHOD_FLAGS", "OUTPUT", "OUTPUT_FORMAT", "REPLAY", "RUN", "reject_clashes"]

Flag = tuple[str, str]

LOAD_PROBE: Final[tuple[Flag, ...]] = (("--load", "load"), ("--probe", "probe"))
METHOD_FLAGS: Final[tuple[Flag, ...]] = (
    ("--method", "method"),
    ("--tool-name", "tool_name"),
    ("--tool-arg", "tool_arg"),
    ("--tool-args-json", "tool_args_json"),
    ("--tool-metadata", "tool_metadata"),
    ("--uri", "uri"),
    ("--prompt-name", "prompt_name"),
    ("--prompt-args", "prompt_args"),
    ("--log-level", "log_level"),
)
OUTPUT: Final[Flag] = ("--output", "output")
OUTPUT_FORMAT: Final[Flag] = ("--output-format", "output_format")
REPLAY: Final[Flag] = ("--replay", "replay")
RUN: Final[Flag] = ("--run", "run")


def reject_clashes(ns: argparse.Namespace, mode: str, flags: Iterable[Flag]) -> None:
    """UsageError ``"{mode}; it cannot be combined with FLAG"`` for the first of ``flags`` given in ``ns``."""
    for flag, attr in flags:
        if getattr(ns, attr, None) not in (None, [], False):
            raise UsageError(f"{mode}; it cannot be combined with {flag}")
