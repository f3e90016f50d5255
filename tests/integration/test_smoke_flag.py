"""``mcp-inspect --smoke-test`` from a Python install: the window opens offscreen, connects the Demo profile (the
demo server as a process of its own), lists its tools, prints one line and exits 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(tmp_path),
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }


def test_smoke_test_connects_to_the_demo(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "--smoke-test"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=180, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith("smoke test: connected to inspector-demo (") and " tools listed in " in line
    count = int(line.split("), ")[1].split(" ")[0])
    assert count > 10


def test_smoke_test_is_not_for_profiles(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "--smoke-test", "some-profile"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 4 and "--smoke-test connects to the demo server" in done.stderr
