"""The combination rules of --catalog, --config, --server and --rename, checked while parsing the command line.

Apart from :mod:`inspector.cli.catalog` (which reads and writes the catalog, and brings the keyring with it),
so that parsing stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from inspector.cli.catalog_entries import demo_target
from inspector.cli.errors import UsageError
from inspector.cli.parser import CATALOG_METHODS

if TYPE_CHECKING:
    from inspector.cli.args import CliOptions

__all__ = ["check_catalog", "command_line_target", "given"]

_TARGET_WRITERS: Final = ("servers/add", "servers/edit")


def given(value: str | None) -> bool:
    return bool((value or "").strip())


def command_line_target(opts: CliOptions) -> list[str]:
    """The server the command line names itself: TARGET (a command or URL), --server-url, or --demo."""
    if opts.target:
        return list(opts.target)
    if opts.url is not None:
        return [opts.url]
    return demo_target() if opts.demo else []


def check_catalog(opts: CliOptions) -> None:
    """The combination rules of --catalog, --config, --server and --rename (UsageError), for parse_args."""
    if opts.rename is not None and opts.method != "servers/edit":
        raise UsageError("--rename is only used with --method servers/edit")
    if given(opts.catalog) and given(opts.config):
        raise UsageError(
            "--catalog and --config cannot be combined: --catalog is the writable catalog, "
            "--config a read-only session file"
        )
    if opts.method in CATALOG_METHODS and opts.relogin:
        raise UsageError("--relogin cannot be combined with --method servers/* (they connect to no server)")
    if opts.method in _TARGET_WRITERS or opts.method == "servers/remove":
        return  # a command line server is the new entry (add, edit) or refused by servers/remove itself
    if command_line_target(opts):
        for flag, named in (("--catalog", given(opts.catalog)), ("--config", given(opts.config))):
            if named:
                raise UsageError(
                    f"{flag} cannot be combined with a server command or URL: {flag} names the file the server "
                    "comes from (--server NAME picks the entry)"
                )
