"""``mcp-inspect`` as a user starts it (a real subprocess) with config / data dirs that cannot be written.

The window (``mcp-inspect PROFILE``, offscreen) says once on stderr what is kept in memory only and why, connects
anyway and exits 0 when told to quit (Ctrl-C); ``--cli`` one-shots write nothing there, so they just work, silently.
Nothing ends in a traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from unwritable import KINDS, read_only_mount, unwritable_dir

from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings

REPO = Path(__file__).resolve().parents[2]
QT_NOISE = "This plugin does not support propagateSizeHints()"
"""The offscreen platform's complaint on every top-level resize (not ours; the GUI tests ignore it too)."""


def _env(config: Path, data: Path) -> dict[str, str]:
    return {
        **os.environ,
        "MCP_INSPECTOR_CONFIG_DIR": str(config),
        "MCP_INSPECTOR_DATA_DIR": str(data),
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }


def _our_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip() and QT_NOISE not in line]


# -- --cli one-shots ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "args",
    [
        ["--method", "tools/list"],
        ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello", "--format", "json"],
    ],
    ids=["tools-list", "tools-call"],
)
def test_cli_one_shots_work_with_unwritable_dirs(kind: str, args: list[str], tmp_path: Path) -> None:
    where, _code = unwritable_dir(kind, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "-q", *args, "--", sys.executable, "-m", "inspector.demo"],
        env=_env(where, where),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr == ""  # they never write there: nothing to say
    if "tools/call" in args:
        result = json.loads(proc.stdout)["result"]
        assert result["content"][0]["text"].endswith("hello")
    else:
        assert "echo" in {tool["name"] for tool in json.loads(proc.stdout)["tools"]}


# -- the window: mcp-inspect PROFILE -------------------------------------------------------------------------


def _save_profile(config: Path, wire_log: Path, name: str = "demo via tee") -> Profile:
    """A profile for the demo server whose stdin is copied to ``wire_log`` (to see the handshake finish)."""
    script = f'tee {wire_log} | exec "$0" -m inspector.demo'
    profile = Profile(
        name=name,
        stdio=StdioSettings(command="/bin/sh", args=["-c", script, sys.executable], cwd=str(REPO)),
        timeouts=TimeoutSettings(request=60),
        protocol_era="legacy",  # the handshake's end (notifications/initialized) in the wire log says it is up
    )
    return ProfileStore(config / "profiles.json").create(profile)


def _has_demo_child(pid: int) -> bool:
    """Whether a process started by ``pid`` runs the demo server."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and b"inspector.demo" in cmdline:
            return True
    return False


def _run_window(args: list[str], env: dict[str, str], wire_log: Path | None) -> subprocess.CompletedProcess[str]:
    """Start the window, wait for the client's ``notifications/initialized`` (the session is up), press Ctrl-C."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        connected = False
        while time.monotonic() < deadline and proc.poll() is None:
            if wire_log is not None and wire_log.exists() and "notifications/initialized" in wire_log.read_text():
                connected = True
                break
            if wire_log is None and _has_demo_child(proc.pid):  # (--demo: the server is up; give it a moment)
                time.sleep(2)
                connected = True
                break
            time.sleep(0.1)
        assert proc.poll() is None, f"the window ended early: {proc.communicate()[1]}"
        assert connected, "the session never came up"
        time.sleep(0.3)  # let the window take the handshake's answer in before quitting
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("kind", ["not-a-directory", "proc", "sysfs"])
def test_the_window_with_an_unwritable_data_dir_records_in_memory(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    config = tmp_path / "config"
    wire_log = tmp_path / "wire.log"
    profile = _save_profile(config, wire_log)
    done = _run_window([profile.name], _env(config, where), wire_log)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert _our_lines(done.stderr) == [
        f"mcp-inspect: recording kept in memory only: cannot write {where / 'recordings'}: {os.strerror(code)}"
    ]
    assert '"method":"initialize"' in wire_log.read_text().replace(" ", "")
    window_state = (config / "window.ini").read_text()
    assert profile.id in window_state  # the tab was there, and the state was saved on quitting


@pytest.mark.parametrize("kind", KINDS)
def test_the_window_with_an_unwritable_config_dir_still_starts(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    done = _run_window(["--demo"], _env(where, tmp_path / "data"), None)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert _our_lines(done.stderr) == [
        f"mcp-inspect: profile and settings changes kept in memory only: cannot write {where}: {os.strerror(code)}"
    ]


def test_the_window_with_a_read_only_config_dir_connects_its_saved_profile(tmp_path: Path) -> None:
    seed = tmp_path / "seed"
    wire_log = tmp_path / "wire.log"
    profile = _save_profile(seed, wire_log)
    with read_only_mount(tmp_path, {"profiles.json": (seed / "profiles.json").read_bytes()}) as config:
        before = (config / "profiles.json").read_bytes()
        done = _run_window([profile.name], _env(config, tmp_path / "data"), wire_log)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert _our_lines(done.stderr) == [
            f"mcp-inspect: profile and settings changes kept in memory only: cannot write {config}: "
            "Read-only file system"
        ]
        assert (config / "profiles.json").read_bytes() == before
    assert list((tmp_path / "data" / "recordings").glob("*.sqlite3"))  # the data dir was fine: a file recording


def test_both_dirs_unwritable_is_one_line_each(tmp_path: Path) -> None:
    where, _code = unwritable_dir("not-a-directory", tmp_path)
    done = _run_window(["--demo"], _env(where / "config", where / "data"), None)
    assert done.returncode == 0, done.stderr
    lines = _our_lines(done.stderr)
    assert len(lines) == 2 and "Traceback" not in done.stderr
    assert lines[0].startswith(f"mcp-inspect: profile and settings changes kept in memory only: cannot write {where}")
    assert lines[1].startswith(f"mcp-inspect: recording kept in memory only: cannot write {where / 'data'}")
