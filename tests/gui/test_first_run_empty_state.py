"""The empty state (no connection tab open): the demo, the other clients' config files found, paste, new connection.

Each test gets a home folder of its own (``HOME``, ``XDG_CONFIG_HOME``) and a project folder as the current one,
holding the fake config files of the clients it is about.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from guikit import AsyncRunner, MakeWindow
from pixels import colours_in, nearest, rect_in, saved_grab
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from inspector.store.profiles import ProfileStore
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.profiles.dialog import ProfileDialog
from inspector.ui.profiles.import_dialog import ImportDialog


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))
    monkeypatch.chdir(project)
    return folder


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def stdio(*names: str) -> dict[str, dict[str, object]]:
    return {name: {"command": "uvx", "args": [f"mcp-server-{name}"]} for name in names}


def every_client(home: Path) -> list[tuple[str, str, str]]:
    """A config of each client (user files and the project's); the rows the empty state should show."""
    project = Path.cwd()
    claude = write(home / ".config" / "Claude" / "claude_desktop_config.json", {"mcpServers": stdio("time", "fetch")})
    remote = {"remote": {"type": "http", "url": "https://example.com/mcp"}}
    vscode = write(home / ".config" / "Code" / "User" / "mcp.json", {"servers": remote})
    cursor = write(home / ".cursor" / "mcp.json", {"mcpServers": stdio("git")})
    projects = {str(project): {"mcpServers": stdio("memory")}}
    code = write(home / ".claude.json", {"mcpServers": stdio("sqlite"), "projects": projects})
    local = write(project / ".mcp.json", {"mcpServers": stdio("everything", "puppeteer", "slack")})
    return [
        ("Claude Desktop", str(claude), "2 servers"),
        ("VS Code", str(vscode), "1 server"),
        ("Cursor", str(cursor), "1 server"),
        ("Claude Code", str(code), "2 servers"),
        ("Claude Code (this folder)", str(local), "3 servers"),
    ]


def test_lists_exactly_the_files_found(home: Path, make_window: MakeWindow) -> None:
    expected = every_client(home)
    write(home / ".config" / "Code" / "User" / "settings.json", {"editor.tabSize": 2})  # no "mcp": not listed
    window = make_window()
    assert window.stack.currentWidget() is window.welcome
    assert window.welcome.rows() == expected
    assert not window.welcome.none_found.isVisible()
    assert all(button.isEnabled() for button in window.welcome.import_buttons.values())


def test_nothing_found_says_so(home: Path, make_window: MakeWindow) -> None:
    window = make_window()
    assert window.welcome.rows() == []
    assert window.welcome.none_found.isVisible()
    assert window.welcome.import_file_button.isVisible()


def test_a_broken_file_is_listed_but_not_importable(home: Path, make_window: MakeWindow) -> None:
    broken = write(home / ".cursor" / "mcp.json", '{"mcpServers": {"a": {"command": "x"}')
    window = make_window()
    assert window.welcome.rows() == [("Cursor", str(broken), "cannot be read")]
    assert not window.welcome.import_buttons[broken].isEnabled()


def test_import_a_found_file_creates_profiles(
    qtbot: QtBot, home: Path, make_window: MakeWindow, store: ProfileStore
) -> None:
    every_client(home)
    window = make_window()
    claude = home / ".config" / "Claude" / "claude_desktop_config.json"
    qtbot.mouseClick(window.welcome.import_buttons[claude], Qt.MouseButton.LeftButton)
    dialog = window.import_dialog
    assert isinstance(dialog, ImportDialog) and dialog.isVisible()
    assert dialog.result_data is not None and dialog.result_data.source == str(claude)
    assert dialog.preview.topLevelItemCount() == 2 and "Claude Desktop" in dialog.source_label.text()
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    profiles = store.list_profiles()
    assert [(p.name, p.stdio.command, p.stdio.args) for p in profiles] == [
        ("time", "uvx", ["mcp-server-time"]),
        ("fetch", "uvx", ["mcp-server-fetch"]),
    ]
    assert window.profiles.model.rowCount() == 2
    assert "Imported 2 profiles" in window.statusBar().currentMessage()


def test_import_claude_codes_projects(qtbot: QtBot, home: Path, make_window: MakeWindow, store: ProfileStore) -> None:
    every_client(home)
    window = make_window()
    qtbot.mouseClick(window.welcome.import_buttons[home / ".claude.json"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.import_dialog.import_button, Qt.MouseButton.LeftButton)
    assert [p.name for p in store.list_profiles()] == ["sqlite", "memory"]


def test_open_the_demo_then_back_to_the_empty_state(
    qtbot: QtBot, home: Path, make_window: MakeWindow, qasync_loop: AsyncRunner
) -> None:
    window = make_window()
    assert window.welcome.rows() == []
    qtbot.mouseClick(window.welcome.demo_button, Qt.MouseButton.LeftButton)
    tab = window.current_tab()
    assert tab is not None and window.stack.currentWidget() is window.tabs
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    cursor = write(home / ".cursor" / "mcp.json", {"mcpServers": stdio("git", "time")})  # written meanwhile
    window.close_tab(window.tabs.indexOf(tab))
    assert window.stack.currentWidget() is window.welcome
    assert window.welcome.rows() == [("Cursor", str(cursor), "2 servers")]


def test_new_connection_opens_the_profile_editor(qtbot: QtBot, home: Path, make_window: MakeWindow) -> None:
    window = make_window()
    qtbot.mouseClick(window.welcome.new_button, Qt.MouseButton.LeftButton)
    dialog = window.profiles.dialog
    assert isinstance(dialog, ProfileDialog) and dialog.isVisible() and not dialog.editing
    dialog.reject()


def test_screenshot(home: Path, make_window: MakeWindow, tmp_path: Path) -> None:
    """What the page draws: the cards, the found file's path in the text colour, the buttons."""
    every_client(home)
    window = make_window()
    window.resize(1280, 800)
    page = window.welcome
    image, scale = saved_grab(page, tmp_path / "empty_state.png")
    assert len(colours_in(image, image.rect(), step=2)) > 40, "the screenshot is (nearly) uniform"
    claude = home / ".config" / "Claude" / "claude_desktop_config.json"
    grid = page.found_grid
    path_label = next(
        w
        for i in range(grid.count())
        if (item := grid.itemAt(i)) is not None and (w := item.widget()) is not None and w.toolTip() == str(claude)
    )
    text_colour = path_label.palette().color(QPalette.ColorRole.WindowText)
    drawn = colours_in(image, rect_in(path_label, window.welcome, scale))
    assert len(drawn) > 3 and nearest(drawn, text_colour) < 60, "the path is not drawn in the text colour"
    for button in (page.demo_button, page.paste_button, page.new_button, page.import_buttons[claude]):
        assert button.isVisible() and len(colours_in(image, rect_in(button, window.welcome, scale))) > 5, button.text()
    card = rect_in(page.import_card, window.welcome, scale)
    assert image.rect().contains(card), "the import card is cut off at 1280x800"
