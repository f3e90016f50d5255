"""packaging/mcp-inspect.spec builds a one-folder app that starts offscreen, runs its bundled demo server through
itself (``--run-demo-server``: a frozen app has no ``python -m``), connects to it and quits (``--smoke-test``); the
same binary is the headless CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector.resource_files import APP_ID

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "packaging" / "mcp-inspect.spec"
BUILD_BUDGET = 240.0
"""Seconds the build may take on the CI machine (2 cores): the spec leaves out the Qt modules the app never uses."""
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("PyInstaller", reason="pyinstaller is in the test extras (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("pyinstaller")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", str(out / "dist"), "--workpath", str(out / "work"), str(SPEC)],
        capture_output=True, text=True, timeout=800, cwd=out,
    )  # fmt: skip
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-4000:]
    assert took < BUILD_BUDGET, f"the build took {took:.0f} s"
    binary = out / "dist" / "mcp-inspect" / ("mcp-inspect.exe" if sys.platform == "win32" else "mcp-inspect")
    assert binary.is_file()
    return binary


def _env(tmp_path: Path) -> dict[str, str]:
    """Offscreen, and nothing of the user's: own HOME, config and data dirs."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
    return {
        **keep,
        "HOME": str(home),
        "QT_QPA_PLATFORM": "offscreen",
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }


def test_frozen_app_bundles_its_resources(app: Path) -> None:
    bundled = next(p for p in app.parent.rglob("_resources") if p.parent.name == "inspector")
    assert (bundled / "linux" / f"{APP_ID}.desktop").is_file()
    assert (bundled / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png").is_file()
    assert not list(app.parent.rglob("libQt6Quick*")) and not list(app.parent.rglob("libQt6Qml.*"))  # excluded


def test_frozen_app_smoke_test(app: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(app), "--smoke-test"], capture_output=True, text=True, env=_env(tmp_path), timeout=180, cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith("smoke test: connected to inspector-demo (") and " tools listed in " in line, line


def test_frozen_app_runs_the_demo_and_the_cli(app: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    done = subprocess.run(
        [str(app), "--cli", "--demo", "--method", "tools/list", "--format", "json"],
        capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    tools = json.loads(done.stdout)["result"]["tools"]
    assert len(tools) > 10 and all("name" in t for t in tools)
    version = subprocess.run([str(app), "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("mcp-inspect ")
