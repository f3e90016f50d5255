"""``mcp-inspect``: argv -> the headless CLI (``--cli``) or the window.

Imports only what the chosen mode needs: the CLI path never touches Qt.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

WINDOW_NOT_BUILT = (
    "mcp-inspect: the desktop window is not built yet.\n"
    "Use the headless CLI instead, e.g.:\n"
    "  mcp-inspect --cli python server.py --method tools/list\n"
    "  mcp-inspect --demo        (lists the bundled demo server's tools, resources and prompts)\n"
    "  mcp-inspect --cli --help  (all options and exit codes)\n"
)


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
    if rest and rest[0] in ("-h", "--help"):
        sys.stdout.write(WINDOW_NOT_BUILT)
        return 0
    if rest == ["--demo"]:
        # Until the window exists, --demo shows the demo server through the CLI.
        from inspector.cli.main import demo_overview

        return demo_overview()
    if "--version" in rest and len(rest) == 1:
        from inspector import __version__

        sys.stdout.write(f"mcp-inspect {__version__}\n")
        return 0
    sys.stderr.write(WINDOW_NOT_BUILT)
    return 4


if __name__ == "__main__":
    sys.exit(main())
