"""Regression testing for server authors, below the window and the CLI (asyncio, no Qt).

Surface snapshots and their classified diffs, replay of a recorded session against a new build, and
collections of saved calls with assertions. ``mcp-inspect --cli --snapshot/--replay/--run``,
``mcp-inspect --diff`` and the window's regression views are thin layers over this package.
"""
