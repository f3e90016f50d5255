"""``mcp-inspect -- COMMAND ARGS`` and ``mcp-inspect URL`` through the real start path (``main``): the window opens
a tab connected to that server as an unsaved profile, which lands in the profiles file only when saved."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from demowire import demo_http
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from inspector.store.profiles import ProfileStore
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.window.app import main
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.settings import UiSettings

SECRET = "hdr-5e6f7a8b-from-the-command-line"


def _files_containing(root: Path, needle: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()] if root.exists() else []


def _saved_names() -> list[str]:
    return [p.name for p in ProfileStore().list_profiles()]  # read afresh from the profiles file


def _run(qapp: QApplication, argv: list[str], check: Callable[[MainWindow], None]) -> dict[str, Any]:
    """``main(argv)``; once its tab is connected with the demo's tools listed, ``check(window)`` runs, then the
    window closes (answering its quit question)."""
    seen: dict[str, Any] = {}

    def poll() -> None:
        for widget in qapp.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible():
                tab = widget.current_tab()
                if tab is not None and tab.controller.state is ConnectionState.FAILED:
                    seen["failed"] = tab.controller.status_text()
                    widget.close_without_asking()
                    return
                if tab is not None and tab.controller.state is ConnectionState.CONNECTED:
                    if tab.tools.select_tool("echo") is not None:
                        seen["window"], seen["tab"], seen["title"] = widget, tab, tab.title
                        try:
                            check(widget)
                        except BaseException as exc:  # reported after main returns
                            seen["error"] = exc
                        widget.close()
                        box = widget.quit_box
                        if box is not None:
                            box.button(QMessageBox.StandardButton.Yes).click()
                        return
        QTimer.singleShot(50, poll)

    QTimer.singleShot(50, poll)
    safety = QTimer()
    safety.setSingleShot(True)
    safety.timeout.connect(
        lambda: [w.close_without_asking() for w in qapp.topLevelWidgets() if isinstance(w, MainWindow)]
    )
    safety.start(60_000)  # never hang the test run
    try:
        assert main(argv) == 0
    finally:
        safety.stop()
    assert "failed" not in seen, seen.get("failed")
    assert "window" in seen, "the window never connected and listed the demo's tools"
    if "error" in seen:
        raise seen["error"]
    seen["window"].deleteLater()
    return seen


def _save_the_tab(window: MainWindow, name: str) -> str:
    """Save the current (unsaved) tab through Connection > Save as profile…; the new profile's id."""
    tab = window.current_tab()
    assert tab is not None and window.is_unsaved_tab(tab)
    assert window.save_as_profile_action.isEnabled()
    dialog = window.save_current_as_profile()
    assert dialog is not None and dialog.windowTitle() == "Save as profile"
    assert dialog.name_edit.text() == tab.title
    dialog.name_edit.setText(name)
    dialog.ok_button.click()
    assert not dialog.isVisible(), dialog.error_label.text()
    assert not window.is_unsaved_tab(tab) and not window.save_as_profile_action.isEnabled()
    assert window.tabs.tabText(window.tabs.indexOf(tab)) == name
    return tab.profile_id


@pytest.mark.demo_process  # the demo runs as the stdio process the command line names
def test_window_opens_a_command_after_dashes_unsaved_until_saved(qapp: QApplication, dirs: dict[str, Path]) -> None:
    before = _saved_names()
    argv = ["-e", "DEMO_NOTE=from-the-command-line", "--", sys.executable, "-m", "inspector.demo"]

    def check(window: MainWindow) -> None:
        tab = window.current_tab()
        assert tab is not None and window.is_unsaved_tab(tab)
        assert tab.title == Path(sys.executable).name
        assert window.connection_tabs() == [tab]
        assert _saved_names() == before  # connected, and nothing written to the profiles file
        window.save_state()
        assert tab.profile_id not in UiSettings().open_tabs  # nor reopened at the next start
        saved_id = _save_the_tab(window, "demo from the command line")
        saved = ProfileStore().get(saved_id)
        assert saved.name == "demo from the command line" and saved.stdio.command == sys.executable
        assert saved.stdio.args == ["-m", "inspector.demo"]
        assert [(v.name, v.value) for v in saved.stdio.env] == [("DEMO_NOTE", "from-the-command-line")]

    _run(qapp, argv, check)
    assert _saved_names() == [*before, "demo from the command line"]
    assert UiSettings().open_tabs == [ProfileStore().find("demo from the command line").id]  # type: ignore[union-attr]


def test_window_opens_a_url_with_a_header_kept_off_disk_until_saved(
    qapp: QApplication, dirs: dict[str, Path], memory_keyring: Any
) -> None:
    with demo_http() as url:
        argv = [url, "--header", f"X-Api-Key: {SECRET}"]

        def check(window: MainWindow) -> None:
            tab = window.current_tab()
            assert tab is not None and window.is_unsaved_tab(tab)
            assert tab.title == url.removeprefix("http://")  # host and path
            assert _saved_names() == []
            window.save_state()
            assert _files_containing(dirs["config"], SECRET) == []
            saved_id = _save_the_tab(window, "demo over http")
            saved = ProfileStore().get(saved_id)
            assert saved.transport == "http" and saved.http.url == url
            assert [(h.name, h.secret) for h in saved.http.headers] == [("X-Api-Key", True)]
            assert ProfileStore().resolve_secrets(saved).http.headers[0].value == SECRET  # in the keyring

        _run(qapp, argv, check)
    assert _saved_names() == ["demo over http"]
    assert _files_containing(dirs["config"], SECRET) == []  # the secret went to the keyring, not to a file
