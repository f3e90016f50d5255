"""The bundled demo MCP server (official SDK ``MCPServer``) that exercises every feature the inspector shows.

Run it with ``python -m inspector.demo`` (stdio), ``--http PORT`` (Streamable HTTP on 127.0.0.1) or
``--sse PORT`` (legacy HTTP+SSE on 127.0.0.1); ``--era legacy|modern|both`` picks which protocol eras it
answers. Never imports Qt.
"""

from typing import Any

__all__ = ["SERVER_NAME", "build_server", "run_http", "run_sse", "run_stdio"]


def __getattr__(name: str) -> Any:
    """The server's names, imported on first use: the window imports ``inspector.demo.http_transport``, and
    importing the server would pull the whole SDK into the window process at startup."""
    if name in __all__:
        from inspector.demo import server

        return getattr(server, name)
    raise AttributeError(f"module 'inspector.demo' has no attribute {name!r}")
