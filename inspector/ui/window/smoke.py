"""``mcp-inspect --smoke-test``: the packaged app's self-check (``tests/integration/test_packaging_pyinstaller.py``).

The window opens (offscreen is fine) with the app icon, connects its Demo profile — the bundled demo server as a
process of its own, started through ``inspector.demo.command`` as the frozen app starts it —, waits for the tool
list, prints one line and returns 0; any failure prints one line to stderr and returns 1.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING, Final

from PySide6.QtWidgets import QApplication

from inspector.content.plural import plural
from inspector.resource_files import resources_dir
from inspector.ui.connection.controller import ConnectionState, live_connection

if TYPE_CHECKING:
    from inspector.ui.window.main_window import MainWindow

__all__ = ["SMOKE_TIMEOUT", "smoke_test"]

SMOKE_TIMEOUT: Final = 90.0
"""Seconds for the whole check (a frozen app's first start unpacks nothing, but a loaded CI machine is slow)."""
_ENDED: Final = (ConnectionState.FAILED, ConnectionState.EXITED, ConnectionState.CLOSED)


async def smoke_test(window: MainWindow, timeout: float = SMOKE_TIMEOUT) -> int:
    """Connect the demo, list its tools, print ``smoke test: ...`` (exit code 0) or the failure (1)."""
    try:
        line = await asyncio.wait_for(_connect_and_list(window), timeout)
    except TimeoutError:
        sys.stderr.write(f"mcp-inspect: smoke test: no tool list within {timeout:g} s\n")
        return 1
    except Exception as exc:  # one line, whatever went wrong
        sys.stderr.write(f"mcp-inspect: smoke test failed: {exc}\n")
        return 1
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return 0


async def _connect_and_list(window: MainWindow) -> str:
    started = time.monotonic()
    if QApplication.windowIcon().isNull():
        raise RuntimeError(f"the app icon did not load from {resources_dir()}")
    tab = window.connect_demo()
    if tab is None:
        raise RuntimeError("the demo profile could not be opened")
    controller = tab.controller
    while (conn := live_connection(controller)) is None:
        if controller.state in _ENDED:
            raise RuntimeError(f"the demo server connection {controller.state.value}: {controller.status_text()}")
        await asyncio.sleep(0.05)
    tools = (await conn.list_tools()).get("tools", [])
    name = conn.server.server_info.get("name", "?") if conn.server is not None else "?"
    version = conn.server.protocol_version if conn.server is not None else "?"
    return (
        f"smoke test: connected to {name} ({version}), {plural(len(tools), 'tool')} listed "
        f"in {time.monotonic() - started:.1f} s"
    )
