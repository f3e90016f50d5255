"""``mcp-inspect``: argv -> the headless CLI (``--cli``) or the window.

Imports only what the chosen mode needs: the CLI path never touches Qt.
"""

from __future__ import annotations

import sys

from inspector.demo.command import FROZEN_DEMO_FLAG

__all__ = ["main"]


def _split_cli_flag(argv: list[str]) -> tuple[bool, list[str]]:
    """Whether ``--cli`` was given before any ``--``, and argv without it."""
    for i, token in enumerate(argv):
        if token == "--":
            break
        if token == "--cli":
            return True, argv[:i] + argv[i + 1 :]
    return False, argv


def _wants_diff(argv: list[str]) -> bool:
    """Whether ``--diff OLD NEW`` is among the options (before any ``--``): as
    ``inspector.cli.snapshot_options.wants_diff``, without importing the CLI into the window's start."""
    options = argv[: argv.index("--")] if "--" in argv else argv
    return any(token == "--diff" or token.startswith("--diff=") for token in options)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == [FROZEN_DEMO_FLAG]:  # hidden: the frozen app's way to run the bundled demo server
        from inspector.demo.__main__ import main as demo_main

        return demo_main(args[1:])
    cli, rest = _split_cli_flag(args)
    if cli or _wants_diff(rest):  # --diff needs no window: a CLI command with or without --cli
        from inspector.cli.main import main as cli_main

        return cli_main(rest)
    from inspector.ui.window.app import main as window_main

    return window_main(rest)


if __name__ == "__main__":
    sys.exit(main())
