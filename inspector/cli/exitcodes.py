"""Exit codes of ``mcp-inspect --cli``: the official inspector CLI's, with the same meaning (in ``--help``)."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["EXIT_CODES_HELP", "ExitCode"]


class ExitCode(IntEnum):
    """What the process exit status means. Stable: scripts depend on these numbers (the official CLI's)."""

    SUCCESS = 0
    """The method succeeded."""
    ERROR = 1
    """Anything else: invalid usage, a JSON-RPC error response, a server that would not start or went away,
    an internal error, a feature not available yet."""
    NO_APP = 2
    """(MCP Apps, not built yet) the tool has no app."""
    AUTH_REQUIRED = 3
    """The server requires authorization and none was obtained (401/403, no stored token with --stored-auth-only)."""
    UNREACHABLE = 4
    """The server could not be reached (connection refused, DNS, connect timeout)."""
    TOOL_ERROR = 5
    """tools/call returned ``isError: true``, or the tool does not exist."""
    STRICT = 6
    """``--strict`` found an error-severity problem: an unportable tool schema or a protocol violation."""
    SKILL_NONCONFORMANT = 7
    """(Skills, not built yet)."""
    SKILL_INCOMPLETE = 8
    """(Skills, not built yet)."""
    SKILL_UNVERIFIABLE = 9
    """(Skills, not built yet)."""
    REGRESSION = 10
    """Our own, above the official codes: ``--diff`` found a breaking change, ``--replay`` a response that no
    longer matches the recording, ``--run`` a collection call whose assertions fail."""
    INTERRUPTED = 130
    """Interrupted by Ctrl-C."""


EXIT_CODES_HELP = """\
exit codes (as the official inspector CLI):
  0  success
  1  error: invalid usage, a JSON-RPC error response, the server would not start or went away, internal error
  3  authorization required and not obtained
  4  server unreachable (connection refused, DNS, connect timeout)
  5  tool error: a result with isError: true, or an unknown tool
  6  --strict found problems (unportable tool schemas, protocol violations)
  10 regression (ours): --diff found a breaking change, --replay a changed response, --run a failed assertion
  130 interrupted"""
