"""The Prompts panel against the demo server (and server-everything): required arguments, "Get" as a chat
transcript with every content type, completion/complete autocomplete (debounced, with context), gating."""

from __future__ import annotations

import sys
from typing import Any

import nodetools
import pytest
from guikit import AsyncRunner, MakeWindow, Misbehaving, connect_tab, prompt_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.client.connection import ServerInfo
from inspector.content.blocks import BlockKind
from inspector.content.catalog import parse_prompts
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.catalog.model import CatalogModel
from inspector.ui.explore.common.gating import NOT_CONNECTED, capability_gap, gate_reason, method_gap, set_gated
from inspector.ui.explore.prompts.page import PromptPage
from inspector.ui.explore.prompts.panel import PromptsPanel


def get(qtbot: QtBot, runner: AsyncRunner, page: PromptPage) -> bool:
    with qtbot.waitSignal(page.finished, timeout=20000) as outcome:
        qtbot.mouseClick(page.get_button, Qt.MouseButton.LeftButton)
    return bool(outcome.args[0])


def kinds(page: PromptPage) -> list[list[BlockKind]]:
    return [[view.kind for view in bubble.block_views] for bubble in page.transcript.message_widgets()]


def test_code_review_requires_arguments_and_shows_an_image(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    names = {e.name for e in tab.prompts.browser.model.entries()}
    assert {"greeting", "code_review", "describe_media"} <= names
    page = prompt_page(tab, "code_review")
    assert page.header.title_label.text() == "Code review"
    labels = {name: page.form_label(name) for name in page.labels}
    assert labels["language"] == "language *" and labels["code"] == "code *"
    assert labels["framework"] == "framework" and page.legend.isVisibleTo(page)
    # Get without the required arguments: nothing is sent, the fields say why
    qtbot.mouseClick(page.get_button, Qt.MouseButton.LeftButton)
    assert not page.running
    assert page.field_errors["language"].isVisibleTo(page) and page.field_errors["code"].isVisibleTo(page)
    assert "language, code" in page.status_label.text()
    page.set_values({"language": "python", "code": "print('hi')\n", "framework": "pytest"})
    assert get(qtbot, qasync_loop, page)
    assert not page.field_errors["language"].isVisibleTo(page)
    bubbles = page.transcript.message_widgets()
    assert [b.role for b in bubbles] == ["user", "user", "assistant", "user", "user"]
    assert kinds(page) == [[BlockKind.TEXT], [BlockKind.RESOURCE], [BlockKind.TEXT], [BlockKind.IMAGE],
                           [BlockKind.TEXT]]  # fmt: skip
    assert "python (pytest)" in str(page.result)
    assert page.status_label.text().startswith("5 messages")
    window.resize(1440, 900)
    qtbot.wait(100)
    assert window.grab().save("/tmp/prompts_panel.png")


def test_describe_media_renders_every_content_type(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    page = prompt_page(tab, "describe_media")
    assert page.values() == {}  # optional arguments left empty are not sent
    assert get(qtbot, qasync_loop, page)
    flat = [kind for row in kinds(page) for kind in row]
    assert {BlockKind.TEXT, BlockKind.IMAGE, BlockKind.AUDIO, BlockKind.RESOURCE, BlockKind.RESOURCE_LINK} <= set(flat)
    page.set_values({"include_audio": "no", "color": "red"})
    assert get(qtbot, qasync_loop, page)
    assert BlockKind.AUDIO not in [kind for row in kinds(page) for kind in row]


# The completion popup is a real popup: the offscreen platform cannot raise it or grab the keyboard for it.
@pytest.mark.qt_log_ignore(
    "This plugin does not support propagateSizeHints", "This plugin does not support raise", "grabbing the keyboard"
)
def test_argument_completion_is_debounced_and_uses_context(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    assert tab.prompts.completion_gap() is None
    page = prompt_page(tab, "code_review")
    language = page.completers["language"]
    assert language.enabled
    edit = page.fields["language"]
    edit.setFocus()
    before = language.requests
    with qtbot.waitSignal(language.answered, timeout=10000):
        qtbot.keyClicks(edit, "ty")  # two keystrokes, one request after the pause
    assert language.requests - before <= 2  # the focus-in request and one for "ty" at most
    assert language.values == ["typescript"]
    assert language.model.stringList() == ["typescript"]
    assert "1 suggestion for language" in page.completion_label.text()
    edit.setText("python")
    framework = page.completers["framework"]
    page.fields["framework"].setText("")
    with qtbot.waitSignal(framework.answered, timeout=10000):
        framework.request_now()
    assert framework.values == ["django", "fastapi", "flask", "pyside6", "pytest"]
    edit.setText("go")
    with qtbot.waitSignal(framework.answered, timeout=10000):
        framework.request_now()
    assert framework.values == ["echo", "gin"]


def test_list_changed_refreshes_prompts(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    connection = tab.controller.connection
    assert connection is not None
    with qtbot.waitSignal(tab.prompts.refreshed, timeout=15000, check_params_cb=lambda why: why == "changed"):
        qasync_loop.run(connection.call_tool("toggle_tool", {"enabled": True}))
    assert tab.prompts.browser.model.find("bonus_prompt") is not None
    assert tab.prompts.browser.note_label.text().startswith("Prompt list changed — refreshed ")
    page = prompt_page(tab, "bonus_prompt")
    page.set_values({"topic": "owls"})
    assert get(qtbot, qasync_loop, page)
    assert "owls" in str(page.result)


def test_completion_is_off_without_the_capability(qtbot: QtBot) -> None:
    entry = parse_prompts([{"name": "p", "arguments": [{"name": "a", "required": True, "description": "an arg"}]}])[0]
    page = PromptPage(entry, lambda: None)
    qtbot.addWidget(page)
    server = ServerInfo("2025-11-25", {"name": "s"}, {"prompts": {}}, None, {}, 0.1)
    gap = method_gap(server, "completion/complete")
    assert gap == "The server did not declare the 'completions' capability"
    page.set_unavailable(None, gap)
    assert not page.completers["a"].enabled and page.get_button.isEnabled()
    assert page.completion_label.text() == f"No autocomplete: {gap}"
    # 2024-11-05 had completion/complete without a capability: the engine's rule allows it
    old = ServerInfo("2024-11-05", {"name": "s"}, {"prompts": {}}, None, {}, 0.1)
    assert method_gap(old, "completion/complete") is None
    page.set_unavailable(NOT_CONNECTED, None)
    assert not page.get_button.isEnabled() and gate_reason(page.get_button) == NOT_CONNECTED
    assert page.get_button.toolTip() == NOT_CONNECTED
    page.set_unavailable(None, None)
    assert page.get_button.isEnabled() and page.get_button.toolTip().startswith("Send prompts/get")
    assert page.completers["a"].enabled


def test_gating_helpers(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QPushButton

    button = QPushButton("x")
    qtbot.addWidget(button)
    button.setToolTip("own tooltip")
    server = ServerInfo("2025-11-25", {}, {"tools": {}, "resources": {"subscribe": False}}, None, {}, 0.1)
    assert capability_gap(server, "tools") is None
    assert capability_gap(server, "prompts") == "The server did not declare the 'prompts' capability"
    assert capability_gap(server, "resources.subscribe") is not None
    assert capability_gap(None, "tools") == NOT_CONNECTED
    set_gated(button, capability_gap(server, "prompts"))
    set_gated(button, "still missing")  # gating twice keeps the original tooltip
    assert not button.isEnabled() and button.toolTip() == "still missing"
    set_gated(button, None)
    assert button.isEnabled() and button.toolTip() == "own tooltip" and gate_reason(button) is None


def test_prompts_panel_gated_for_a_server_without_prompts(
    qtbot: QtBot, qasync_loop: AsyncRunner, misbehaving: Misbehaving
) -> None:
    from inspector.ui.window.profile_bridge import connection_settings

    fast = Profile(name="fast", stdio=StdioSettings(command=sys.executable, args=[_fast_server()]))
    controller = ConnectionController(connection_settings(fast))
    panel = PromptsPanel(controller)
    qtbot.addWidget(panel)
    controller.stateChanged.connect(panel.on_state)
    controller.start()
    qasync_loop.wait_state(controller, ConnectionState.CONNECTED)
    assert not panel.browser.isEnabled()
    assert panel.browser.toolTip() == "The server did not declare the 'prompts' capability"
    assert "This server offers no prompts" in panel.placeholder.text()
    qasync_loop.run(controller.aclose())


def test_prompts_of_server_everything_with_completion(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    command = nodetools.require_server_everything()
    profile = store.create(Profile(name="everything", stdio=StdioSettings(command=command[0], args=command[1:])))
    window = make_window()
    tab = connect_tab(window, qasync_loop, profile.id, show="prompts")
    page = prompt_page(tab, "completable-prompt")
    page.set_values({"department": "Engineering"})
    name = page.completers["name"]
    page.fields["name"].setText("A")
    with qtbot.waitSignal(name.answered, timeout=10000):
        name.request_now()
    assert name.values == ["Alice"]
    page.set_values({"name": "Alice"})
    assert get(qtbot, qasync_loop, page)
    assert "promote Alice" in str(page.result)


def test_catalog_model_of_prompts(qtbot: QtBot, qtmodeltester: Any) -> None:
    model = CatalogModel()
    model.set_entries(parse_prompts([{"name": "a", "arguments": [{"name": "x", "required": True}]}, {"name": "b"},
                                     {"name": 3}, "junk"]))  # fmt: skip
    qtmodeltester.check(model)
    entries = model.entries()
    assert [b.text for b in entries[0].badges] == ["1 arg · 1 required"]
    assert [b.text for b in entries[1].badges] == ["no arguments"]
    assert entries[2].problems


def _fast_server() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parents[2] / "bench" / "fast_server.py")
