"""Paste an mcpServers snippet: read as typed, errors by line and column (marked in the box), preview, Import."""

from __future__ import annotations

import pytest
from guikit import MakeWindow
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.store.profiles import ProfileStore
from inspector.ui.profiles.paste_dialog import PasteDialog

BAD = '{\n  "mcpServers": {\n    "fs": {"command": "npx" "args": []}\n  }\n}'
GOOD = """{
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
    "api": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer s3cr3t"}}
  }
}"""


@pytest.fixture(autouse=True)
def _home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No other client's files: the empty state is looked at, not these tests' subject."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)


def open_dialog(qtbot: QtBot, make_window: MakeWindow) -> PasteDialog:
    window = make_window()
    qtbot.mouseClick(window.welcome.paste_button, Qt.MouseButton.LeftButton)
    dialog = window.import_dialog
    assert isinstance(dialog, PasteDialog) and dialog.isVisible()
    return dialog


def test_a_bad_snippet_says_line_and_column(qtbot: QtBot, make_window: MakeWindow) -> None:
    dialog = open_dialog(qtbot, make_window)
    dialog.editor.setFocus()
    typed = BAD.replace("\n", " ")  # typed: one line
    qtbot.keyClicks(dialog.editor, typed)
    qtbot.waitUntil(lambda: dialog.snippet.line is not None, timeout=5000)
    assert (dialog.snippet.line, dialog.snippet.column) == (1, typed.index('"args"') + 1)
    dialog.set_text(BAD)
    assert dialog.error_label.isVisible()
    assert "could not be read" in dialog.error_label.text() and "line 3, column 29" in dialog.error_label.text()
    assert dialog.status_label.text() == "Not valid JSON yet: line 3, column 29."
    assert dialog.error_mark() == (3, 29)
    assert dialog.preview.topLevelItemCount() == 0 and not dialog.import_button.isEnabled()


def test_a_good_snippet_previews_and_imports(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    dialog = open_dialog(qtbot, make_window)
    dialog.set_text(BAD)
    assert dialog.error_mark() == (3, 29)
    dialog.editor.setPlainText(GOOD)  # as a paste: read after the pause, not at once
    assert dialog.error_mark() is None and dialog.preview.topLevelItemCount() == 0  # the old mark is gone at once
    qtbot.waitUntil(lambda: dialog.preview.topLevelItemCount() == 2, timeout=5000)
    assert dialog.error_mark() is None and not dialog.error_label.isVisible()
    assert dialog.status_label.text() == "2 servers found."
    api = dialog.entry_item("api")
    assert api is not None and "https://example.com/mcp" in api.text(1)
    assert dialog.import_button.text() == "Import 2"
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    fs, remote = store.list_profiles()
    assert (fs.name, fs.stdio.command, fs.stdio.args[-1]) == ("fs", "npx", "/tmp")
    assert remote.transport == "http" and remote.http.headers[0].secret and remote.http.headers[0].value is None
    assert store.resolve_secrets(remote).http.headers[0].value == "Bearer s3cr3t"


def test_one_server_without_its_name(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    window = make_window()
    window.paste_action.trigger()
    dialog = window.import_dialog
    assert isinstance(dialog, PasteDialog)
    dialog.set_text('"time": {"command": "uvx", "args": ["mcp-server-time"]}')
    assert dialog.status_label.text() == "1 server found."
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert [(p.name, p.stdio.args) for p in store.list_profiles()] == [("time", ["mcp-server-time"])]


def test_cancel_imports_nothing(qtbot: QtBot, make_window: MakeWindow, store: ProfileStore) -> None:
    dialog = open_dialog(qtbot, make_window)
    dialog.set_text(GOOD)
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and store.list_profiles() == []
