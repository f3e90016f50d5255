"""The layering rules of DESIGN.md: import-linter contracts plus run-time import checks in fresh interpreters."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_PROTOCOL = ("asyncio", "PySide6", "qasync", "anyio", "httpx2")


def _lint_imports() -> str:
    exe = Path(sys.executable).with_name("lint-imports")
    if exe.is_file():
        return str(exe)
    found = shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports (import-linter) is not installed; pip install -e '.[test]'")
    return found


def _run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_import_linter_contracts_are_kept() -> None:
    proc = subprocess.run(
        [_lint_imports(), "--no-cache", "--no-logo", str(REPO_ROOT / "pyproject.toml")],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, f"import-linter contracts broken:\n{proc.stdout}\n{proc.stderr}"
    assert "broken" in proc.stdout and "0 broken" in proc.stdout, proc.stdout


def test_protocol_imports_no_asyncio_or_qt_even_transitively() -> None:
    code = f"""
import importlib, pkgutil, sys
import inspector.protocol as pkg
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    importlib.import_module(info.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {FORBIDDEN_IN_PROTOCOL!r})
assert not bad, "inspector.protocol pulled in: " + ", ".join(bad)
"""
    proc = _run_python(code)
    assert proc.returncode == 0, proc.stderr


def test_cli_does_not_import_qt_even_transitively() -> None:
    if not (REPO_ROOT / "inspector" / "cli" / "main.py").is_file():
        pytest.skip("inspector/cli/main.py does not exist yet (issue 2 is building it)")
    proc = _run_python(
        "import inspector.cli.main, sys\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync', 'shiboken6'))\n"
        "assert not bad, 'inspector.cli.main pulled in: ' + ', '.join(bad)\n"
    )
    assert proc.returncode == 0, proc.stderr
