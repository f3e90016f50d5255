"""The bounds of ``--load`` and the rules for combining its options (no asyncio: parsing imports this).

:func:`check_load` is called while the command line is parsed; :func:`bounds_of` turns the parsed options
into the :class:`LoadBounds` that :mod:`inspector.cli.load` runs with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.cli.errors import UsageError
from inspector.cli.parser import DEFAULT_LOAD_DURATION

if TYPE_CHECKING:
    from inspector.cli.args import CliOptions

__all__ = ["LoadBounds", "bounds_of", "check_load"]


@dataclass(frozen=True, slots=True)
class LoadBounds:
    """What bounds a run: calls in flight, seconds of starting calls, calls started, starts per second."""

    concurrency: int
    duration: float | None = None
    requests: int | None = None
    rate: float | None = None

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if self.duration is None and self.requests is None:
            raise ValueError("a load run needs a duration or a number of requests")


def bounds_of(opts: CliOptions) -> LoadBounds:
    """The bounds of the command line (10 s when neither --load-duration nor --load-requests is given)."""
    duration = opts.load_duration
    if duration is None and opts.load_requests is None:
        duration = DEFAULT_LOAD_DURATION
    return LoadBounds(opts.load_concurrency, duration, opts.load_requests, opts.load_rate)


def check_load(opts: CliOptions) -> None:
    """The official CLI's rules for ``--load`` and its bounds, on a parsed command line (UsageError, exit 1).

    Call it with ``opts.load`` (and the bounds, --method, --output, --probe, --list-stored-auth and
    --print-handoff) set, also on the path where the offline commands return early: the official CLI refuses
    ``--load --list-stored-auth``."""
    if not opts.load:
        for flag, value in (
            ("--load-duration", opts.load_duration),
            ("--load-requests", opts.load_requests),
            ("--load-rate", opts.load_rate),
        ):
            if value is not None:
                raise UsageError(f"{flag} requires --load")
        return
    if opts.list_stored_auth or opts.print_handoff:
        raise UsageError("--load cannot be combined with --list-stored-auth or --print-handoff")
    if opts.probe:
        raise UsageError("--load cannot be combined with --probe")
    if opts.method not in (None, "tools/call"):
        raise UsageError(f"--load requires --method tools/call, not --method {opts.method}")
    if opts.output_path is not None:
        raise UsageError("--load cannot be combined with --output or --output-format; redirect stdout instead")
    if opts.load_concurrency < 1:
        raise UsageError(f"--load-concurrency must be a positive integer, not {opts.load_concurrency}")
    if opts.load_requests is not None and opts.load_requests < 1:
        raise UsageError(f"--load-requests must be a positive integer, not {opts.load_requests}")
    for flag, number in (("--load-duration", opts.load_duration), ("--load-rate", opts.load_rate)):
        if number is not None and not (number > 0 and math.isfinite(number)):
            raise UsageError(f"{flag} must be a positive number, not {number}")
