"""Issue 15 item 2 for resources: reading a resource whose server answers ``input_required`` (the demo's
``demo://files/vault/…`` in the modern era, in memory) shows the round on the Resources panel's status line
like the tool and prompt pages ("Round 2 of at most …, waiting for you" while the dialog asks), then the
contents and "Read in 2 rounds"."""

from __future__ import annotations

import sys

from guikit import AsyncRunner, MakeWindow, connect_tab
from pytestqt.qtbot import QtBot

from inspector.demo.mrtr import VAULT, VAULT_URI_PREFIX
from inspector.protocol.mrtr import MAX_INPUT_ROUNDS
from inspector.protocol.versions import Era
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.explore.resources.panel import ResourcesPanel
from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.window.connection_tab import ConnectionTab

URI = f"{VAULT_URI_PREFIX}recipe"


def _modern_tab(runner: AsyncRunner, make_window: MakeWindow, store: ProfileStore) -> ConnectionTab:
    args = ["-m", "inspector.demo", "--era", "modern"]
    profile = store.create(Profile(name="modern demo", stdio=StdioSettings(command=sys.executable, args=args)))
    tab = connect_tab(make_window(), runner, profile.id)
    conn = tab.controller.connection
    assert conn is not None and conn.server is not None and conn.server.era is Era.MODERN
    return tab


def _dialog(runner: AsyncRunner, handlers: GuiRequestHandlers) -> ElicitationDialog:
    def shown() -> bool:
        current = handlers.current
        return current is not None and isinstance(current.dialog, ElicitationDialog) and current.dialog.isVisible()

    runner.wait_until(shown, timeout=20)
    assert handlers.current is not None and isinstance(handlers.current.dialog, ElicitationDialog)
    return handlers.current.dialog


def _read_vault(qtbot: QtBot, runner: AsyncRunner, tab: ConnectionTab, reveal: bool) -> ResourcesPanel:
    panel = tab.resources
    handlers = tab.controller.settings.handlers
    assert isinstance(handlers, GuiRequestHandlers)
    panel.read(URI)
    dialog = _dialog(runner, handlers)
    runner.wait_until(lambda: "waiting for you" in panel.status_label.text(), timeout=10)
    status = panel.status_label.text()
    assert status.startswith(f"Round 2 of at most {MAX_INPUT_ROUNDS} (resources/read {URI}), waiting for you"), status
    assert "elicitation/create" in status
    assert dialog.round_label is not None and "resources/read" in dialog.round_label.text()
    assert dialog.form is not None
    dialog.form.set_value({"reveal": reveal})
    assert dialog.accept_request()
    runner.wait_until(lambda: panel.status_label.text().startswith("Read in 2 rounds"), timeout=20)
    return panel


def test_a_vault_read_says_which_round_waits_for_you_then_shows_the_secret(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store)
    panel = _read_vault(qtbot, qasync_loop, tab, reveal=True)
    assert panel.read_round is not None and panel.read_round.round == 2 and panel.read_round.sent
    assert panel.last_result is not None
    assert panel.last_result["contents"][0]["text"] == VAULT["recipe"]


def test_a_declined_reveal_is_read_in_two_rounds_too(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store)
    panel = _read_vault(qtbot, qasync_loop, tab, reveal=False)
    assert panel.last_result is not None
    assert panel.last_result["contents"][0]["text"] == "(not revealed)\n"


def test_a_plain_read_says_no_rounds(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    tab = _modern_tab(qasync_loop, make_window, store)
    panel = tab.resources
    panel.read("demo://files/README.md")
    qasync_loop.wait_until(lambda: panel.status_label.text().startswith("Read in "), timeout=20)
    assert "rounds" not in panel.status_label.text()
    assert panel.read_round is None
