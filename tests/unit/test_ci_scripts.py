"""The fresh-machine set-up stays honest: README's test command is `.ci/run`'s, the Node tools come from a
complete lockfile with `npm ci`, and a missing Node tool fails instead of skipping when ``$CI`` is set."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nodetools

ROOT = nodetools.REPO_ROOT


def test_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest"
    assert f"```sh\n{command}\n```" in readme
    lines = [line.strip() for line in run.splitlines() if "-m pytest" in line and not line.lstrip().startswith("#")]
    assert lines == [f'{command} "$@"']


def test_node_tools_install_with_npm_ci_only() -> None:
    script = (ROOT / ".ci" / "install-node-tools.sh").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if re.search(r"\bnpm (ci|install|i)\b", line)]
    commands = [line for line in commands if not line.lstrip().startswith("#")]
    assert commands and all("npm ci " in line for line in commands), commands


def test_lockfile_matches_package_json() -> None:
    package = json.loads((nodetools.NODE_DIR / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((nodetools.NODE_DIR / "package-lock.json").read_text(encoding="utf-8"))
    root = lock["packages"][""]
    for field in ("dependencies", "optionalDependencies"):
        assert root.get(field, {}) == package.get(field, {}), field
    for name, version in {**package["dependencies"], **package.get("optionalDependencies", {})}.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name


def test_lockfile_names_every_optional_dependency_of_every_platform() -> None:
    """`npm ci` refuses a lock that lacks an optional dependency any locked package declares (any platform)."""
    lock = json.loads((nodetools.NODE_DIR / "package-lock.json").read_text(encoding="utf-8"))
    packages = lock["packages"]
    missing = []
    for path, entry in packages.items():
        for name in entry.get("optionalDependencies", {}):
            # Node's resolution: the nearest node_modules/<name> walking up from the package's own folder.
            base = path
            while True:
                candidate = f"{base}/node_modules/{name}" if base else f"node_modules/{name}"
                if candidate in packages:
                    break
                if not base:
                    missing.append(f"{path or '<root>'} -> {name}")
                    break
                base = base.rsplit("/node_modules/", 1)[0] if "/node_modules/" in base else ""
    assert not missing, missing


def _run_pytest(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """A throw-away test suite using our conftest with the Node tools hidden (nothing installed)."""
    tests = tmp_path / "suite"
    tests.mkdir()
    for helper in ("conftest.py", "nodetools.py", "keyringkit.py"):
        (tests / helper).write_text((ROOT / "tests" / helper).read_text(encoding="utf-8"), encoding="utf-8")
    # nodetools looks for the tools beside itself: in tmp_path there are none.
    (tests / "test_needs_node.py").write_text(
        textwrap.dedent(
            """
            import nodetools
            import pytest

            @pytest.mark.node
            def test_marked() -> None:
                pass

            def test_requires() -> None:
                nodetools.require_server_everything()
            """
        ),
        encoding="utf-8",
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--rootdir",
            str(tests),
            str(tests),
            "-o",
            "markers=node: needs Node",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
        check=False,
    )


def test_missing_node_tool_skips_outside_ci(tmp_path: Path) -> None:
    proc = _run_pytest(tmp_path, ci=None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 skipped" in proc.stdout, proc.stdout
    assert "node tools: passed tests that ran them: server-everything 0" in proc.stdout


def test_missing_node_tool_fails_under_ci(tmp_path: Path) -> None:
    proc = _run_pytest(tmp_path, ci="true")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # The marked test fails in its set-up (reported as an error), the other in its body: neither is a skip.
    assert "1 failed, 1 error" in proc.stdout, proc.stdout
    assert "skipped" not in proc.stdout
    assert "CI is set: a missing Node tool fails the test instead of skipping it" in proc.stdout
