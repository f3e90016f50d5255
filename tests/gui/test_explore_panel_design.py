"""One design for the Explore panels (issue 14, section 2): every panel is an ``ExplorePanel`` built the same way
and wired by its connection tab alone; state signals carry the ``ConnectionState`` enum; one task helper and one
``live_connection``; a -32042 on the Tools page is explained through the typed ``explain_url_required`` hook."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import sys

from guikit import AsyncRunner, MakeController, MakeWindow, Misbehaving
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.jsonrpc import URL_ELICITATION_REQUIRED
from inspector.store.profiles import ProfileStore
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.auth_view import AuthStepFeed
from inspector.ui.connection.controller import (
    ConnectionController,
    ConnectionSettings,
    ConnectionState,
    ControllerBound,
    live_connection,
)
from inspector.ui.explore.common.gating import NOT_CONNECTED
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.panel_tasks import PanelTasks, describe_failure
from inspector.ui.explore.prompts.panel import PromptsPanel
from inspector.ui.explore.resources.panel import ResourcesPanel
from inspector.ui.explore.tasks.panel import TasksPanel
from inspector.ui.explore.tools.panel import ToolsPanel
from inspector.ui.explore.utilities.panel import UtilitiesPanel
from inspector.ui.server_requests import GuiRequestHandlers
from inspector.ui.server_requests.url_elicitation import UrlElicitationDialog
from inspector.ui.viewers import ResultState
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.profile_bridge import demo_profile

PANEL_CLASSES = (ToolsPanel, PromptsPanel, ResourcesPanel, UtilitiesPanel, TasksPanel)
HOOKS = ("on_state", "on_notification", "shutdown")


def _connected(window: MainWindow, runner: AsyncRunner, profile_id: str | None = None) -> ConnectionTab:
    tab = window.connect_demo() if profile_id is None else window.connect_profile(profile_id)
    assert tab is not None
    runner.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    return tab


def test_every_panel_implements_the_one_base_with_the_same_construction(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    for cls in PANEL_CLASSES:
        assert issubclass(cls, ExplorePanel), cls
        for hook in HOOKS:
            assert getattr(cls, hook) is not getattr(ExplorePanel, hook), f"{cls.__name__} lacks {hook}"
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.name for p in params[:2]] == ["controller", "parent"], cls
        assert params[1].default is None
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[2:]), cls
    window = make_window()
    tab = window.open_tab(demo_profile().id)
    assert tab is not None
    panels = tab.explore.panels
    assert {type(p) for p in panels.values()} == set(PANEL_CLASSES)
    for title, panel in panels.items():
        assert isinstance(panel, ExplorePanel) and panel.controller is tab.controller
        assert tab.inner_tabs.indexOf(panel) >= 0 and tab.inner_tabs.tabText(tab.inner_tabs.indexOf(panel)) == title
    # wired at once with the current state: not connected yet
    assert not tab.utilities.ping_button.isEnabled() and tab.utilities.ping_button.toolTip() == NOT_CONNECTED
    assert not tab.resources.refresh_button.isEnabled()


def test_a_panel_does_not_wire_itself(qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    """Built outside a tab, a panel follows nothing: the tab is the one place that wires it."""
    controller = make_controller(label="demo")
    unwired = UtilitiesPanel(controller)
    qtbot.addWidget(unwired)
    wired = UtilitiesPanel(controller)
    qtbot.addWidget(wired)
    controller.stateChanged.connect(wired.on_state)  # as ConnectionTab._wire does
    wired.on_state(controller.state)
    assert live_connection(controller) is controller.connection is not None
    assert wired.ping_button.isEnabled()
    before = unwired.level_status.text()
    qasync_loop.run(controller.close_connection())
    assert controller.state is ConnectionState.CLOSED and live_connection(controller) is None
    assert not wired.ping_button.isEnabled() and wired.ping_button.toolTip() == NOT_CONNECTED
    assert wired.level_status.text() == "Not connected"
    assert unwired.level_status.text() == before  # it never heard of the disconnect


def test_panels_follow_connect_and_disconnect_through_the_tab_and_states_are_enums(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = window.open_tab(demo_profile().id)
    assert tab is not None
    from_controller: list[object] = []
    from_tab: list[object] = []
    tab.controller.stateChanged.connect(from_controller.append)
    tab.stateChanged.connect(from_tab.append)
    _connected(window, qasync_loop)
    qasync_loop.wait_until(lambda: tab.tools.browser.model.total() > 0 and tab.prompts.browser.model.total() > 0)
    qasync_loop.wait_until(lambda: tab.resources.resources_model.rowCount() > 0)
    assert tab.utilities.ping_button.isEnabled() and tab.resources.refresh_button.isEnabled()
    assert tab.tools.gate is None and tab.prompts.gate is None

    qtbot.mouseClick(tab.disconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(tab.controller, ConnectionState.CLOSED)
    assert not tab.utilities.ping_button.isEnabled() and tab.utilities.ping_button.toolTip() == NOT_CONNECTED
    assert not tab.resources.refresh_button.isEnabled()
    for catalog in (tab.tools, tab.prompts):
        assert catalog.gate == NOT_CONNECTED
        assert catalog.browser.note_label.text() == "Not connected — the list is from the last connection."

    expected = [ConnectionState.CONNECTING, ConnectionState.CONNECTED, ConnectionState.CLOSED]
    assert from_controller == expected and from_tab == expected
    assert all(type(state) is ConnectionState for state in from_controller + from_tab)

    qtbot.mouseClick(tab.reconnect_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED)
    qasync_loop.wait_until(tab.utilities.ping_button.isEnabled)
    qasync_loop.wait_until(lambda: tab.tools.gate is None and tab.tools.browser.note_label.text() == "")


def test_the_one_task_helper(qtbot: QtBot, qasync_loop: AsyncRunner) -> None:
    owner = QWidget()
    errors: list[BaseException] = []
    tasks = PanelTasks(owner, errors.append)

    async def boom() -> None:
        raise ZeroDivisionError("division by zero")

    async def forever() -> None:
        await asyncio.sleep(3600)

    first = tasks.spawn(forever(), key="k")
    second = tasks.spawn(forever(), key="k")  # a newer request with the same key wins
    qasync_loop.wait_until(first.done)
    assert first.cancelled() and tasks.running("k") and len(tasks) == 1
    tasks.spawn(boom())
    qasync_loop.wait_until(lambda: len(errors) == 1)
    assert describe_failure(errors[0]) == "internal error: ZeroDivisionError: division by zero"
    assert tasks.running("k")
    owner.deleteLater()  # the owner goes away: its tasks are cancelled, nothing more is reported
    qasync_loop.wait_until(second.done)
    assert second.cancelled() and len(tasks) == 0 and len(errors) == 1


def test_gui_handlers_are_bound_through_the_typed_hook() -> None:
    assert isinstance(GuiRequestHandlers(label="x"), ControllerBound)
    assert not isinstance(HeadlessHandlers(), ControllerBound)


def test_tool_page_explains_url_elicitation_required_through_the_typed_hook(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, misbehaving: Misbehaving
) -> None:
    profile = store.create(misbehaving("needs a URL", "url-elicitation-required"))
    window = make_window()
    tab = _connected(window, qasync_loop, profile.id)
    assert tab.controller.settings.explain_url_required is not None
    qasync_loop.wait_until(lambda: tab.tools.browser.model.total() > 0)
    page = tab.tools.select_tool("t")
    assert page is not None

    def dialogs() -> list[UrlElicitationDialog]:
        return [d for d in window.findChildren(UrlElicitationDialog) if d.isVisible()]

    page.form.set_value({"text": "hello"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running and len(dialogs()) == 1)
    assert page.result_view.state() is ResultState.PROTOCOL_ERROR
    dialog = dialogs()[0]
    assert dialog.method_badge.text() == f"error {URL_ELICITATION_REQUIRED}"
    assert [card.parts.host for card in dialog.cards] == ["auth.example.com"]
    # the explanation's Retry runs the tool again: the server answers -32042 again, explained again
    qtbot.mouseClick(dialog.retry_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running and len(dialogs()) == 1 and dialogs()[0] is not dialog)
    dialogs()[0].close()
    qasync_loop.wait_until(lambda: not dialogs())

    # without an explainer the page says what the server wants, as a plain failure
    tab.use_settings(dataclasses.replace(tab.controller.settings, explain_url_required=None))
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running and page.failure_banner is not None)
    assert page.failure_banner is not None and "(-32042)" in page.failure_banner.title_label.text()
    assert not dialogs()


def test_the_authorization_tab_follows_the_typed_auth_feed_field(qtbot: QtBot, qasync_loop: AsyncRunner) -> None:
    argv = [sys.executable, "-m", "inspector.demo"]
    settings = ConnectionSettings(
        label="oauth", transport_factory=lambda: StdioTransport(argv[0], argv[1:]), auth_feed=AuthStepFeed("https://x")
    )
    tab = ConnectionTab("oauth-test", ConnectionController(settings))
    qtbot.addWidget(tab)
    assert tab.auth_view is not None and tab.inner_tabs.indexOf(tab.auth_view) >= 0
    assert tab.inner_tabs.tabText(tab.inner_tabs.indexOf(tab.auth_view)) == "Authorization"
    tab.use_settings(dataclasses.replace(settings, auth_feed=None))
    assert tab.auth_view is None
    assert "Authorization" not in [tab.inner_tabs.tabText(i) for i in range(tab.inner_tabs.count())]
    qasync_loop.run(tab.aclose())
