"""Start-up: process start → the window's first paint, and → the bundled demo server connected, in one run.

Side by side, in the same run, the official Python SDK's client (``mcp.client.stdio.stdio_client`` +
``ClientSession.initialize()``) connects from a fresh process to the same demo server
(``python -m inspector.demo``) and, when ``.ci/node`` has it, to ``@modelcontextprotocol/server-everything``.

Every contender runs in a process of its own, started by this script; the time origin is the moment just
before that process is spawned (``time.time()``, the same clock in both processes), so interpreter start-up,
imports and the server's own start are all counted:

  ours          ``mcp-inspect --demo`` as ``inspector.ui.window.app.main`` runs it (offscreen), with two hooks
                installed before it starts: the window's first ``Paint`` event (``first_paint_ms``) and the
                demo tab's controller reaching ``connected`` (``demo_connected_ms``; ``connect_ms`` is the span
                from the connect command to ``connected``); then, the window settled, Disconnect and Connect as a
                user would (``reconnect_ms``: a connect once start-up is over, the demo server's start included);
                then the window is closed (``close_without_asking``).
                Config and data dirs are fresh temporary ones (a first launch: no profiles, no window state).
  sdk_demo      the SDK's client: imports, spawns the demo server, ``initialize()`` (``connected_ms``;
                ``connect_ms`` from the spawn of the server).
  sdk_everything the same against server-everything (``node dist/index.js stdio``).

Bytecode: like ``cli_oneshot.py``, every side runs with a private ``PYTHONPYCACHEPREFIX`` (and without
``PYTHONDONTWRITEBYTECODE``). The first round of each contender runs with that cache empty — a first launch
after an install that compiled nothing — and is reported apart as ``cold``; the later ``--runs`` rounds
(interleaved, the order rotating) are the warm figures, reported as medians. Prints one JSON line.

    python bench/startup.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))  # tests/nodetools.py locates the Node tools
import nodetools  # noqa: E402

GOALS = {"first_paint_ms": 2000.0, "demo_connected_ms": 1000.0}
"""first paint from process start; the demo connected from the connect command (``connect_ms``)."""
CHILD_TIMEOUT = 120.0
DEMO_ARGV = [sys.executable, "-m", "inspector.demo"]


# ------------------------------------------------------------------------------------------- children
def _emit(record: dict[str, Any]) -> None:
    sys.stdout.write("STARTUP " + json.dumps(record) + "\n")
    sys.stdout.flush()


def child_ours(origin: float) -> int:
    """Run the window as ``mcp-inspect --demo`` does, reporting the first paint and the demo connected."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    from inspector.ui.window import app, main_window

    marks: dict[str, float] = {}

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and "first_paint" not in marks:
                marks["first_paint"] = time.time()
            return False

    watcher = FirstPaint()
    original_show = main_window.MainWindow.show
    original_connect_demo = main_window.MainWindow.connect_demo

    def show(self: main_window.MainWindow) -> None:
        self.installEventFilter(watcher)
        marks["show"] = time.time()
        original_show(self)

    def connect_demo(self: main_window.MainWindow) -> Any:
        marks["connect"] = time.time()
        tab = original_connect_demo(self)
        if tab is None:
            _emit({"error": "the demo tab did not open"})
            QTimer.singleShot(0, self.close)
            return tab

        def on_state(state: object) -> None:
            value = str(state)  # a ConnectionState (a StrEnum)
            if value == "connected" and "connected" not in marks:
                marks["connected"] = time.time()
                QTimer.singleShot(500, tab.controller.stop)  # settled: then as a user pressing Disconnect, Connect
            elif value == "closed" and "reconnect" not in marks:
                marks["reconnect"] = time.time()
                tab.reconnect()
            elif value == "connected" and "reconnected" not in marks:
                marks["reconnected"] = time.time()
                QTimer.singleShot(0, self.close_without_asking)
            elif value in ("failed", "exited") and "reconnected" not in marks:
                _emit({"error": f"the demo did not connect: {tab.controller.failure}"})
                QTimer.singleShot(0, self.close_without_asking)

        tab.controller.stateChanged.connect(on_state)
        return tab

    main_window.MainWindow.show = show  # type: ignore[method-assign,assignment]
    main_window.MainWindow.connect_demo = connect_demo  # type: ignore[method-assign]
    code = app.main(["--demo"])
    if "reconnected" in marks and "first_paint" in marks:
        _emit(
            {
                "first_paint_ms": (marks["first_paint"] - origin) * 1000,
                "show_ms": (marks["show"] - origin) * 1000,
                "demo_connected_ms": (marks["connected"] - origin) * 1000,
                "connect_ms": (marks["connected"] - marks["connect"]) * 1000,
                "reconnect_ms": (marks["reconnected"] - marks["reconnect"]) * 1000,
                "exit_code": code,
            }
        )
    return 0


def child_sdk(origin: float, argv: list[str]) -> int:
    import asyncio

    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    imported = time.time()

    async def run() -> float:
        params = StdioServerParameters(command=argv[0], args=argv[1:])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return time.time()

    connected = asyncio.run(run())
    _emit({"connected_ms": (connected - origin) * 1000, "connect_ms": (connected - imported) * 1000})
    return 0


# ------------------------------------------------------------------------------------------- parent
def _env(pycache: str, home: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["MCP_INSPECTOR_CONFIG_DIR"] = str(Path(home) / "config")
    env["MCP_INSPECTOR_DATA_DIR"] = str(Path(home) / "data")
    return env


def run_child(args: list[str], pycache: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="mcpi-startup-") as home:
        origin = time.time()
        proc = subprocess.run(
            [sys.executable, __file__, "--child", repr(origin), *args],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=CHILD_TIMEOUT,
            env=_env(pycache, home),
            check=False,
        )
    for line in proc.stdout.splitlines():
        if line.startswith("STARTUP "):
            record: dict[str, Any] = json.loads(line[len("STARTUP ") :])
            if "error" in record:
                raise RuntimeError(record["error"])
            return record
    raise RuntimeError(f"no figures (exit {proc.returncode}): {proc.stderr.strip()[-400:]}")


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="warm rounds per contender (default 5)")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        origin, kind, *rest = opts.child
        return child_ours(float(origin)) if kind == "ours" else child_sdk(float(origin), rest)
    if opts.runs < 1:
        parser.error("--runs must be >= 1")

    contenders: dict[str, list[str]] = {"ours": ["ours"], "sdk_demo": ["sdk", *DEMO_ARGV]}
    unavailable: dict[str, str] = {}
    everything = nodetools.server_everything_cmd("stdio")
    if everything is None:
        unavailable["sdk_everything"] = f"server-everything not installed. {nodetools.MISSING_REASON}"
    else:
        contenders["sdk_everything"] = ["sdk", *everything]
    cold: dict[str, dict[str, Any]] = {}
    warm: dict[str, list[dict[str, Any]]] = {name: [] for name in contenders}
    with tempfile.TemporaryDirectory(prefix="mcpi-pycache-") as root:
        caches = {name: str(Path(root) / name) for name in contenders}  # each side's first round compiles
        for name, args in contenders.items():
            try:
                cold[name] = run_child(args, caches[name])
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                unavailable[name] = f"failed: {exc}"
        active = [name for name in contenders if name not in unavailable]
        for i in range(opts.runs):
            shift = i % len(active) if active else 0
            for name in active[shift:] + active[:shift]:
                if name in unavailable:
                    continue
                try:
                    warm[name].append(run_child(contenders[name], caches[name]))
                except (RuntimeError, subprocess.TimeoutExpired) as exc:
                    unavailable[name] = f"failed in round {i + 1}: {exc}"

    def med(name: str, key: str) -> float | None:
        return median([r[key] for r in warm.get(name, []) if key in r])

    ours = {
        key: med("ours", key)
        for key in ("first_paint_ms", "show_ms", "demo_connected_ms", "connect_ms", "reconnect_ms")
    }
    sdk_demo = {key: med("sdk_demo", key) for key in ("connected_ms", "connect_ms")}
    sdk_everything = {key: med("sdk_everything", key) for key in ("connected_ms", "connect_ms")}
    goal_met = (
        ours["first_paint_ms"] is not None
        and ours["connect_ms"] is not None
        and ours["first_paint_ms"] < GOALS["first_paint_ms"]
        and ours["connect_ms"] < GOALS["demo_connected_ms"]
    )
    record = {
        "runs": opts.runs,
        "ours": ours,
        "sdk_demo": sdk_demo,
        "sdk_everything": sdk_everything,
        "cold": {name: {k: round(v, 1) for k, v in r.items() if isinstance(v, float)} for name, r in cold.items()},
        "ratios": {
            "ours_connected_vs_sdk_demo": ratio(ours["demo_connected_ms"], sdk_demo["connected_ms"]),
            "ours_connect_vs_sdk_demo_connect": ratio(ours["connect_ms"], sdk_demo["connect_ms"]),
            "ours_reconnect_vs_sdk_demo_connect": ratio(ours["reconnect_ms"], sdk_demo["connect_ms"]),
            "ours_connect_vs_sdk_everything_connect": ratio(ours["connect_ms"], sdk_everything["connect_ms"]),
        },
        "goal": {"first_paint_ms_below": GOALS["first_paint_ms"], "connect_ms_below": GOALS["demo_connected_ms"]},
        "goal_met": goal_met,
        "unavailable": unavailable,
    }
    print(json.dumps(record), flush=True)
    return 1 if "ours" in unavailable else 0


if __name__ == "__main__":
    sys.exit(main())
