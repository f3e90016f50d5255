"""MCP Inspector Desktop."""

__version__ = "0.1.0"
