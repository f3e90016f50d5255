"""Exit codes of ``mcp-inspect --cli`` (documented in ``--help``)."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["EXIT_CODES_HELP", "ExitCode"]


class ExitCode(IntEnum):
    """What the process exit status means. Stable: scripts depend on these numbers."""

    SUCCESS = 0
    """The method succeeded."""
    CONNECTION = 1
    """Connection failure: spawn failed, handshake failed, server crashed or closed, timeout, internal error."""
    PROTOCOL_ERROR = 2
    """The server answered with a JSON-RPC error response."""
    TOOL_ERROR = 3
    """tools/call returned a result with ``isError: true``."""
    USAGE = 4
    """Invalid command line, config file or arguments."""
    VIOLATION = 5
    """``--strict`` and the server violated the protocol."""
    INTERRUPTED = 130
    """Interrupted by Ctrl-C."""


EXIT_CODES_HELP = """\
exit codes:
  0  success
  1  connection failure (spawn failed, handshake failed, server crashed, timeout)
  2  protocol error response (the server answered with a JSON-RPC error)
  3  tool result with isError: true
  4  invalid usage
  5  protocol violation (with --strict or --probe)
  130 interrupted"""
