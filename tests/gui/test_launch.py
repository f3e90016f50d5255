"""Starting the app: no display, arguments, ``--demo`` and ``PROFILE`` through the real bootstrap."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.app import NO_DISPLAY_MESSAGE, display_problem, main
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.settings import UiSettings

REPO = Path(__file__).resolve().parents[2]
MISBEHAVING = REPO / "tests" / "servers" / "misbehaving.py"


def _bare_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """No DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM: what a server or a container looks like."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    env.update(extra)
    return env


@pytest.mark.parametrize("args", [[], ["--demo"], ["some-profile"]])
def test_no_display_is_one_clear_line_and_exit_1(tmp_path: Path, args: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        env=_bare_env(tmp_path),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == NO_DISPLAY_MESSAGE + "\n"
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_platform_that_needs_a_display_without_one(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector"],
        env=_bare_env(tmp_path, QT_QPA_PLATFORM="xcb"),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1 and proc.stderr.strip() == NO_DISPLAY_MESSAGE


def test_the_cli_still_works_without_a_display(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--help"],
        env=_bare_env(tmp_path),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("env", "platform", "ok"),
    [
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", True),
        ({"QT_QPA_PLATFORM": "minimal"}, "linux", True),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":1"}, "linux", True),
        ({"DISPLAY": "  "}, "freebsd14", False),
        ({}, "darwin", True),
        ({}, "win32", True),
    ],
)
def test_display_detection(env: dict[str, str], platform: str, ok: bool) -> None:
    assert (display_problem(env, platform) is None) is ok


def test_version_help_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("mcp-inspect ")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--demo" in out and "--cli" in out
    assert main(["--demo", "weather"]) == 4
    assert "not both" in capsys.readouterr().err
    assert main(["--bogus"]) == 4


def test_an_unknown_profile_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    ProfileStore().create(Profile(name="weather", stdio=StdioSettings(command="true")))
    assert main(["nope"]) == 4
    err = capsys.readouterr().err
    assert "no saved profile named 'nope'" in err and "weather" in err


def _close_when(app: QApplication, condition: str, seen: dict[str, object]) -> None:
    """Poll the running app; once the window's current tab reaches ``condition``, close the window."""

    def poll() -> None:
        for widget in app.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible():
                tab = widget.current_tab()
                if tab is not None and tab.controller.state.value == condition:
                    seen["tab"] = tab
                    seen["window"] = widget
                    widget.close()  # live connections: the window asks first
                    box = widget.quit_box
                    seen["asked"] = box is not None
                    if box is not None:
                        box.button(QMessageBox.StandardButton.Yes).click()
                    return
        QTimer.singleShot(50, poll)

    QTimer.singleShot(50, poll)


@pytest.mark.demo_process  # the real bootstrap: --demo starts the demo's process
@pytest.mark.parametrize("how", ["demo", "profile"])
def test_launch_connects_then_quits_cleanly(qapp: QApplication, how: str) -> None:
    if how == "demo":
        args = ["--demo"]
    else:
        profile = ProfileStore().create(
            Profile(
                name="good server",
                stdio=StdioSettings(command=sys.executable, args=[str(MISBEHAVING)]),
                timeouts=TimeoutSettings(request=30),
            )
        )
        args = [profile.name]
    seen: dict[str, object] = {}
    _close_when(qapp, "connected", seen)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(
        lambda: [w.close_without_asking() for w in qapp.topLevelWidgets() if isinstance(w, MainWindow)]
    )
    timer.start(60_000)  # a safety net: never hang the test run
    try:
        assert main(args) == 0
    finally:
        timer.stop()
    tab = seen.get("tab")
    assert tab is not None, "the window never connected"
    assert seen["asked"], "quitting with a live connection did not ask"
    controller = tab.controller  # type: ignore[attr-defined]
    assert controller.state is ConnectionState.CLOSED
    assert controller.recording is not None and controller.recording.closed
    settings = UiSettings()
    assert len(settings.open_tabs) == 1
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()  # the app's loop is gone; nothing left running
    window = seen["window"]
    assert isinstance(window, MainWindow)
    window.deleteLater()
