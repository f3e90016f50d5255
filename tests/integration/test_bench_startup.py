"""bench/startup.py's children, once each (the figures are not checked; what each child reports is): the window
started as ``mcp-inspect --demo`` reports its first paint before the demo is connected, the SDK's client its
connection to the demo server."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import nodetools

BENCH = nodetools.REPO_ROOT / "bench" / "startup.py"


def _startup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_startup", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_window_child_reports_paint_then_connected(tmp_path: Path) -> None:
    startup = _startup()
    record = startup.run_child(["ours"], str(tmp_path / "pycache"))
    assert 0 < record["show_ms"] <= record["first_paint_ms"] < record["demo_connected_ms"]
    assert 0 < record["connect_ms"] < record["demo_connected_ms"]
    assert record["reconnect_ms"] > 0  # Disconnect, then Connect once the window settled
    assert record["exit_code"] == 0


def test_the_sdk_child_reports_its_connection(tmp_path: Path) -> None:
    startup = _startup()
    record = startup.run_child(["sdk", sys.executable, "-m", "inspector.demo"], str(tmp_path / "pycache"))
    assert 0 < record["connect_ms"] < record["connected_ms"]
