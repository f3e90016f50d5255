"""Commands that need no server connection: shell completion, the server catalog, stored authorization.

``run_offline`` returns the exit code of such a command, or None when the command line connects to a server.
Each command lives in its own module and is imported only when asked for.
"""

from __future__ import annotations

from inspector.cli.args import CliOptions
from inspector.cli.exitcodes import ExitCode
from inspector.cli.parser import CATALOG_METHODS

__all__ = ["CATALOG_METHODS", "run_offline"]


def run_offline(opts: CliOptions) -> int | None:
    """Run a command that needs no server (its exit code), or None when ``opts`` connects to one."""
    if opts.completion is not None:
        import sys

        from inspector.cli.completion import completion_script

        sys.stdout.write(completion_script(opts.completion))
        return ExitCode.SUCCESS
    if opts.method in CATALOG_METHODS:
        from inspector.cli.catalog import run_catalog_method

        return run_catalog_method(opts)
    if opts.list_stored_auth:
        from inspector.cli.stored_auth import list_stored_auth

        return list_stored_auth(opts)
    if opts.print_handoff:
        from inspector.cli.stored_auth import print_handoff

        return print_handoff(opts)
    return None
