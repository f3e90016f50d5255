"""A server with 2,000 tools in the Tools panel: connect, list, filter, select — with no event-loop stall.

The server is this very file run with ``--serve`` (standard library only, like ``fast_server.py``): its
``tools/list`` returns ``--tools`` tools (default 2,000) in pages of ``--page-size`` (default 500, so the
client's pagination is exercised), each with a description, an object inputSchema of a few typed properties,
annotations, and for every tenth tool a ``data:`` SVG icon.

The benchmark shows a ``ToolsPanel`` (offscreen), connects through a ``ConnectionController`` on a qasync loop,
waits until every tool is listed, types filter strings one keystroke at a time (the panel debounces them),
clears the filter, scrolls the list end to end and selects tools (building their forms), while a 5 ms
``QTimer`` probe records the gaps between its ticks. The longest gap is the longest stall of the event loop.
Start-up is prepared as the app does it (``inspector.ui.window.app.warm_up``: validation models imported, start-up
objects frozen out of the garbage collector's sight). Prints one JSON line; exits 1 when a stall exceeds the goal.

    QT_QPA_PLATFORM=offscreen python bench/many_tools.py [--tools 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

GOALS = {"max_stall_ms": 100}
PROBE_MS = 5
_ICON = (
    "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxNiAxNiI+"
    "PGNpcmNsZSBjeD0iOCIgY3k9IjgiIHI9IjciIGZpbGw9IiMwOTY5ZGEiLz48L3N2Zz4="
)
_TYPES = ("string", "integer", "number", "boolean")


# -- the server (stdlib only) ----------------------------------------------------------------------------


def make_tool(i: int) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for j in range(1 + i % 5):
        kind = _TYPES[(i + j) % len(_TYPES)]
        props[f"arg_{j}"] = {"type": kind, "description": f"Argument {j} of tool {i} ({kind})"}
    if i % 7 == 0:
        props["mode"] = {"type": "string", "enum": ["fast", "safe", "thorough"], "default": "safe"}
    tool: dict[str, Any] = {
        "name": f"tool_{i:04d}",
        "title": f"Tool number {i}",
        "description": f"Does thing {i} to the {('alpha', 'beta', 'gamma', 'delta')[i % 4]} subsystem. " * 2,
        "inputSchema": {"type": "object", "properties": props, "required": ["arg_0"]},
        "annotations": {"readOnlyHint": i % 2 == 0, "idempotentHint": i % 3 == 0, "openWorldHint": i % 5 == 0},
    }
    if i % 10 == 0:
        tool["icons"] = [{"src": _ICON, "mimeType": "image/svg+xml"}]
    return tool


def serve(count: int, page_size: int) -> int:
    tools = [make_tool(i) for i in range(count)]
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        msg = json.loads(line)
        if not isinstance(msg, dict) or "id" not in msg:
            continue
        method, params = msg.get("method"), msg.get("params") or {}
        result: dict[str, Any]
        if method == "initialize":
            version = params.get("protocolVersion") or "2025-11-25"
            result = {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "many-tools", "version": "1.0.0"},
            }
        elif method == "tools/list":
            start = int(params.get("cursor") or 0)
            result = {"tools": tools[start : start + page_size]}
            if start + page_size < count:
                result["nextCursor"] = str(start + page_size)
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": json.dumps(params.get("arguments"))}]}
        elif method == "ping":
            result = {}
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}).encode() + b"\n")
            out.flush()
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode() + b"\n")
        out.flush()
    return 0


# -- the benchmark ---------------------------------------------------------------------------------------


class Probe:
    """A repeating timer recording the gaps between its ticks (ms)."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self.phase = "start"
        self.worst: dict[str, float] = {}
        """The longest gap seen in each phase."""
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(PROBE_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        gap = (now - self._last) * 1000
        self.gaps.append(gap)
        self.worst[self.phase] = round(max(gap, self.worst.get(self.phase, 0.0)), 1)
        self._last = now


def pump(app: Any, done: Callable[[], bool], timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("benchmark step timed out")
        app.processEvents()
        time.sleep(0.0005)


def wait(app: Any, seconds: float) -> None:
    end = time.perf_counter() + seconds
    pump(app, lambda: time.perf_counter() >= end, seconds + 5)


def one_run(app: Any, count: int, page_size: int, history: Path) -> dict[str, Any]:
    from PySide6.QtTest import QTest

    from inspector.transports.stdio import StdioTransport
    from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState
    from inspector.ui.explore.tools.panel import ToolsPanel

    argv = [str(Path(__file__).resolve()), "--serve", "--tools", str(count), "--page-size", str(page_size)]
    settings = ConnectionSettings("many tools", lambda: StdioTransport(sys.executable, argv))
    controller = ConnectionController(settings)
    panel = ToolsPanel(controller, "bench-many-tools", history_dir=history)
    controller.stateChanged.connect(panel.on_state)
    panel.resize(1280, 800)
    panel.show()
    pump(app, lambda: panel.isVisible(), 5)
    probe = Probe()
    probe.start()
    t0 = time.perf_counter()
    probe.phase = "connect+list"
    controller.start()
    pump(app, lambda: panel.browser.model.total() == count, 60)
    list_ms = (time.perf_counter() - t0) * 1000
    wait(app, 0.2)

    filters: list[float] = []
    original = panel.browser.apply_filter

    def timed_filter() -> None:
        started = time.perf_counter()
        original()
        filters.append((time.perf_counter() - started) * 1000)

    panel.browser._filter_timer.timeout.disconnect()
    panel.browser._filter_timer.timeout.connect(timed_filter)
    edit = panel.browser.filter_edit
    probe.phase = "filter"
    for text in ("tool", "number 1", "gamma 7"):
        edit.clear()
        wait(app, 0.15)
        for char in text:
            QTest.keyClick(edit, char)
            wait(app, 0.03)
        wait(app, 0.15)
    shown_after_filter = panel.browser.model.rowCount()
    edit.clear()
    wait(app, 0.2)

    view = panel.browser.view
    bar = view.verticalScrollBar()
    probe.phase = "scroll"
    scroll_t0 = time.perf_counter()
    for step in range(0, 21):
        bar.setValue(bar.maximum() * step // 20)
        wait(app, 0.01)
    scroll_ms = (time.perf_counter() - scroll_t0) * 1000

    probe.phase = "select"
    selects: list[float] = []
    for name in (f"tool_{i:04d}" for i in (min(7, count - 1), count * 3 // 5, count - 1, 0)):
        started = time.perf_counter()
        page = panel.select_tool(name)
        app.processEvents()
        selects.append((time.perf_counter() - started) * 1000)
        assert page is not None and page.entry.name == name
    wait(app, 0.2)
    probe.stop()

    done = {"closed": False}

    async def close() -> None:
        await controller.aclose()
        done["closed"] = True

    import asyncio

    asyncio.get_event_loop().create_task(close())
    pump(app, lambda: done["closed"], 20)
    state = controller.state
    panel.shutdown()
    panel.deleteLater()
    app.processEvents()
    gaps = sorted(probe.gaps) or [0.0]
    return {
        "list_ms": round(list_ms, 1),
        "filter_ms_max": round(max(filters, default=0.0), 2),
        "filter_ms_median": round(statistics.median(filters), 2) if filters else 0.0,
        "filters": len(filters),
        "shown_after_filter": shown_after_filter,
        "scroll_ms": round(scroll_ms, 1),
        "select_ms_max": round(max(selects), 1),
        "max_stall_ms": round(gaps[-1], 1),
        "p99_stall_ms": round(gaps[int(len(gaps) * 0.99) - 1 if len(gaps) > 1 else 0], 1),
        "max_stall_ms_by_phase": probe.worst,
        "final_state": "closed" if state is not ConnectionState.CONNECTED else "connected",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="run the stdio server instead of the benchmark")
    parser.add_argument("--tools", type=int, default=2000)
    parser.add_argument("--page-size", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.serve:
        return serve(args.tools, args.page_size)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="many-tools-"))
    os.environ.setdefault("MCP_INSPECTOR_DATA_DIR", str(scratch / "data"))
    os.environ.setdefault("MCP_INSPECTOR_CONFIG_DIR", str(scratch / "config"))
    import asyncio

    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from inspector.ui.window.app import new_event_loop, share_the_gil, warm_up

    qInstallMessageHandler(lambda _mode, _context, message: None if "propagateSizeHints" in message else
                           sys.stderr.write(message + "\n"))  # fmt: skip
    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = new_event_loop(app, already_running=True)
    asyncio.set_event_loop(loop)
    warm_up()  # what the app does before its window shows: validation models imported, start-up objects frozen
    share_the_gil()
    runs = [one_run(app, args.tools, args.page_size, scratch / "history") for _ in range(max(1, args.runs))]
    worst = max(r["max_stall_ms"] for r in runs)
    report = {
        "bench": "many_tools",
        "tools": args.tools,
        "page_size": args.page_size,
        "runs": len(runs),
        "list_ms_median": round(statistics.median(r["list_ms"] for r in runs), 1),
        "filter_ms_max": max(r["filter_ms_max"] for r in runs),
        "select_ms_max": max(r["select_ms_max"] for r in runs),
        "scroll_ms_median": round(statistics.median(r["scroll_ms"] for r in runs), 1),
        "max_stall_ms": worst,
        "p99_stall_ms": max(r["p99_stall_ms"] for r in runs),
        "goal_max_stall_ms": GOALS["max_stall_ms"],
        "ok": worst <= GOALS["max_stall_ms"],
        "per_run": runs,
    }
    print(json.dumps(report))
    shutil.rmtree(scratch, ignore_errors=True)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
