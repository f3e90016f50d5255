"""``mcp-inspect [--cli] --diff OLD NEW [--format text|json]``: the classified changes between two surfaces.

Each side is a snapshot file (``--cli --snapshot``) or a recording (its opening and list answers). No server is
started. Text (the default; ``human`` too): one line per change, grouped by kind, and a summary line; ``json``:
one document (:mod:`inspector.regression.diff_report`). Exit 0 when nothing breaks, 10
(``ExitCode.REGRESSION``) when something does, 1 for an unreadable input or a usage error (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TextIO

from inspector.cli.exitcodes import ExitCode
from inspector.cli.snapshot_options import DIFF_FLAG

__all__ = ["run_diff"]


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mcp-inspect --diff", add_help=False)
    parser.add_argument("--cli", action="store_true")
    parser.add_argument(DIFF_FLAG, nargs=2, metavar=("OLD", "NEW"), required=True)
    parser.add_argument("--format", choices=("text", "json", "human"), default="text")
    parser.add_argument("-q", "--quiet", action="store_true")
    return parser


def run_diff(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``--diff`` from ``argv`` (with or without ``--cli``); the exit code."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        ns = _parser().parse_args(argv)
    except _Usage as exc:
        err.write(f"error: {exc} (usage: mcp-inspect --diff OLD NEW [--format text|json])\n")
        return ExitCode.ERROR
    from inspector.cli.output import dump_json
    from inspector.cli.terminal import escape_text
    from inspector.regression.changes import breaking_count
    from inspector.regression.diff_report import diff_json, diff_text
    from inspector.regression.snapshot import SnapshotError, load_surface
    from inspector.regression.surface_diff import diff_surfaces

    old_path, new_path = ns.diff
    try:
        old, new = load_surface(old_path), load_surface(new_path)
    except SnapshotError as exc:
        if ns.format == "json":
            err.write(dump_json({"error": {"code": "unreadable", "message": str(exc)}}) + "\n")
        else:
            err.write(f"error: {exc}\n")
        return ExitCode.ERROR
    changes = diff_surfaces(old, new)
    if ns.format == "json":
        out.write(dump_json(diff_json(changes, old_path, new_path)) + "\n")
    else:
        out.write(escape_text(diff_text(changes)))
    out.flush()
    return ExitCode.REGRESSION if breaking_count(changes) else ExitCode.SUCCESS
