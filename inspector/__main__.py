"""``mcp-inspect``: argv -> the headless CLI (``--cli``) or the window.

Imports only what the chosen mode needs: the CLI path never touches Qt.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def _split_cli_flag(argv: list[str]) -> tuple[bool, list[str]]:
    """Whether ``--cli`` was given before any ``--``, and argv without it."""
    for i, token in enumerate(argv):
        if token == "--":
            break
        if token == "--cli":
            return True, argv[:i] + argv[i + 1 :]
    return False, argv


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    cli, rest = _split_cli_flag(args)
    if cli:
        from inspector.cli.main import main as cli_main

        return cli_main(rest)
    from inspector.ui.window.app import main as window_main

    return window_main(rest)


if __name__ == "__main__":
    sys.exit(main())
