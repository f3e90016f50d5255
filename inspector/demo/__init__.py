"""The bundled demo MCP server (official SDK ``MCPServer``) that exercises every feature the inspector shows.

Run it with ``python -m inspector.demo`` (stdio), ``--http PORT`` (Streamable HTTP on 127.0.0.1) or
``--sse PORT`` (legacy HTTP+SSE on 127.0.0.1); ``--era legacy|modern|both`` picks the protocol era(s) it
answers. Never imports Qt.
"""

from inspector.demo.server import SERVER_NAME, build_server, run_http, run_sse, run_stdio

__all__ = ["SERVER_NAME", "build_server", "run_http", "run_sse", "run_stdio"]
