"""The main window: profiles on the left, one tab per connection on the right.

All of the window's signals are wired in ``_connect_signals`` (and, per tab, ``_connect_tab_signals``);
slots only delegate. Connections run on the qasync loop through their controllers, so nothing here
blocks. ``shutdown()`` closes every connection and recording (the app awaits it before exiting).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector import __version__
from inspector.content.plural import plural
from inspector.store.paths import describe_os_error, storage_problems
from inspector.store.profiles import Profile, ProfileStore
from inspector.store.profiles.model import new_id
from inspector.store.profiles.redaction import secret_redactor
from inspector.store.profiles.sections import Root
from inspector.store.recording import Recording, RecordingError
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.log import RecordingWindow, open_recording_dialog
from inspector.ui.profiles.dialog import ProfileDialog
from inspector.ui.profiles.import_dialog import ImportDialog
from inspector.ui.profiles.panel import ProfilesPanel
from inspector.ui.profiles.paste_dialog import PasteDialog
from inspector.ui.regression.replay_dialog import ReplayDialog
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.tour import Tour
from inspector.ui.window.compare_hookup import CompareHookup
from inspector.ui.window.connection_tab import ConnectionTab, state_icon
from inspector.ui.window.empty_state import EmptyState
from inspector.ui.window.keyboard import KeyboardActions
from inspector.ui.window.profile_bridge import (
    DEMO_HTTP_PROFILE_ID,
    ProfileNotConnectable,
    builtin_profile,
    connection_settings,
    demo_profile,
    is_demo,
)
from inspector.ui.window.replay_hookup import open_replay, recording_chooser, replay_targets
from inspector.ui.window.settings import UiSettings
from inspector.ui.window.tour_steps import window_tour_steps
from inspector.ui.window.view_menu import ViewMenu

__all__ = ["MainWindow"]

RecordingFactory = Callable[[str, str], Recording]
SHUTDOWN_TIMEOUT = 15.0


def _recorder_for(profile: Profile) -> RecordingFactory:
    """Recordings in the data dir (in memory when it cannot be written), with the profile's secret values masked."""
    redact = secret_redactor(profile)

    def create(label: str, target: str) -> Recording:
        return Recording.create_or_memory(label=label, target=target, redact=redact)

    return create


class MainWindow(QMainWindow):
    closed = Signal()
    """The window was closed (its state is saved by then)."""
    firstPainted = Signal()
    """Emitted once, on the event loop's turn after the window was first painted: work the first paint need not
    wait for (the keyring's notice, the app's warm-up) runs then."""

    def __init__(
        self,
        store: ProfileStore,
        settings: UiSettings | None = None,
        *,
        recording_factory: RecordingFactory | None = None,
        first_run_tour: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        """``first_run_tour``: show the tour after the first paint unless ``settings`` says it was shown (the app
        asks for it; tests build windows without it)."""
        super().__init__(parent)
        self.store = store
        self.settings = settings if settings is not None else UiSettings()
        self.view_menu = ViewMenu(self, self.settings)  # the saved theme and font size, before any widget is made
        self._recording_factory = recording_factory
        self._closing: set[asyncio.Task[None]] = set()
        self._unsaved: dict[str, Profile] = {}
        """Profiles of tabs opened from the command line (``connect_unsaved``), by id, until they are saved."""
        self._dialogs: list[QWidget] = []
        self.last_error: str | None = None
        self.quit_box: QMessageBox | None = None
        """The open "quit with live connections?" question, if any."""
        self._quit_confirmed = False
        self._painted = False
        self._first_run_tour = first_run_tour
        self.tour: Tour | None = None
        """The tour overlay while it is open."""
        self.settings_problem: str | None = None
        self.setWindowTitle("MCP Inspector")

        self.banner = Banner("warning", dismissable=True)
        self.profiles = ProfilesPanel(store)
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.welcome = EmptyState()
        self.demo_button = self.welcome.demo_button
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.tabs)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("sidebarSplitter")
        self.splitter.addWidget(self.profiles)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([260, 1020])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        self.status_label = QLabel()
        self.keyring_label = MarkLabel()
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.keyring_label)
        self._make_actions()
        self._connect_signals()
        self.keyboard = KeyboardActions(self)  # the command palette, Go menu, Run / Cancel, Help → Keyboard shortcuts
        self._show_notices()
        self.resize(1280, 800)

    # -- construction ----------------------------------------------------------------------------

    def _action(self, text: str, shortcut: QKeySequence | str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def _make_actions(self) -> None:
        key = QKeySequence.StandardKey
        self.new_action = self._action("&New profile…", QKeySequence(key.New))
        self.import_action = self._action("&Import servers…", "Ctrl+I")
        self.paste_action = self._action("&Paste an mcpServers snippet…")
        self.export_one_action = self._action("&Export selected profile…")
        self.export_all_action = self._action("Export &all profiles…")
        self.open_recording_action = self._action("&Open recording…", QKeySequence(key.Open))
        self.replay_recording_action = self._action("Replay &recording against…")
        self.export_log_action = self._action("Export log as JSON &lines…")
        self.quit_action = self._action("&Quit", QKeySequence(key.Quit))
        self.connect_action = self._action("&Connect selected profile", "Ctrl+Shift+Return")  # Ctrl+Return: Run/Get
        self.demo_action = self._action("Connect to the &demo server")
        self.demo_http_action = self._action("Connect to the demo server over &HTTP")
        self.reconnect_action = self._action("&Reconnect", "Ctrl+R")
        self.disconnect_action = self._action("&Disconnect", "Ctrl+Shift+D")
        self.close_tab_action = self._action("Close &tab", QKeySequence(key.Close))
        self.save_as_profile_action = self._action("Save as &profile…")
        self.save_as_profile_action.setToolTip("Keep this tab's server (opened from the command line) as a profile")
        self.compare_action = self._action("Compare &with…")
        self.save_snapshot_action = self._action("Save &snapshot…")
        self.about_action = self._action("&About MCP Inspector")
        self.tour_action = self._action("&Tour")
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for item in (self.new_action, self.import_action, self.paste_action, None, self.export_one_action,
                     self.export_all_action, None,
                     self.open_recording_action, self.replay_recording_action, self.export_log_action, None,
                     self.quit_action):  # fmt: skip
            file_menu.addSeparator() if item is None else file_menu.addAction(item)
        conn_menu = bar.addMenu("&Connection")
        for item in (self.connect_action, self.demo_action, self.demo_http_action, None, self.reconnect_action,
                     self.disconnect_action, None, self.compare_action, self.save_snapshot_action, None,
                     self.save_as_profile_action, self.close_tab_action):  # fmt: skip
            conn_menu.addSeparator() if item is None else conn_menu.addAction(item)
        bar.addMenu(self.view_menu.menu)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.tour_action)
        help_menu.addAction(self.about_action)

    def _connect_signals(self) -> None:
        p = self.profiles
        p.connectRequested.connect(self.connect_profile)
        p.importRequested.connect(self.open_import_dialog)
        p.errorOccurred.connect(self.show_error)
        p.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 8000))
        p.profileSaved.connect(self.refresh_tab)
        self.demo_button.clicked.connect(self.connect_demo)
        self.welcome.importFileRequested.connect(self.open_import_dialog_on)
        self.welcome.pasteRequested.connect(self.open_paste_dialog)
        self.welcome.newRequested.connect(p.new_profile)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._update_status)
        self.tabs.currentChanged.connect(self._follow_current_tab)
        self.new_action.triggered.connect(p.new_profile)
        self.import_action.triggered.connect(self.open_import_dialog)
        self.paste_action.triggered.connect(self.open_paste_dialog)
        self.export_one_action.triggered.connect(lambda: p.ask_export(all_profiles=False))
        self.export_all_action.triggered.connect(lambda: p.ask_export(all_profiles=True))
        self.open_recording_action.triggered.connect(self.ask_open_recording)
        self.replay_recording_action.triggered.connect(self.ask_replay_recording)
        self.export_log_action.triggered.connect(self.ask_export_log)
        self.quit_action.triggered.connect(self.close)
        self.connect_action.triggered.connect(p.connect_selected)
        self.demo_action.triggered.connect(self.connect_demo)
        self.demo_http_action.triggered.connect(self.connect_demo_http)
        self.reconnect_action.triggered.connect(lambda: self._with_current(ConnectionTab.reconnect))
        self.disconnect_action.triggered.connect(lambda: self._with_current(lambda t: t.controller.stop()))
        self.close_tab_action.triggered.connect(lambda: self.close_tab(self.tabs.currentIndex()))
        self.save_as_profile_action.triggered.connect(self.save_current_as_profile)
        self.compare = CompareHookup(self, self.current_tab, self.connection_tabs, self.show_error)
        self.compare_action.triggered.connect(self.compare.ask_compare)
        self.save_snapshot_action.triggered.connect(self.compare.ask_save_snapshot)
        self.about_action.triggered.connect(self.show_about)
        self.tour_action.triggered.connect(self.start_tour)
        self.firstPainted.connect(self._show_keyring_notice)
        self.view_menu.theme.changed.connect(self._show_tab_states)  # the tabs' state dots in the new theme
        self.firstPainted.connect(self._offer_tour)

    def _connect_tab_signals(self, tab: ConnectionTab) -> None:
        tab.roots_panel.rootsEdited.connect(lambda roots: self.save_roots(tab.profile_id, roots))  # id: once saved
        tab.stateChanged.connect(lambda _state: self._on_tab_state(tab))
        tab.log.replayRequested.connect(self.open_replay)

    def _show_notices(self) -> None:
        """Unwritable dirs and load warnings now; the keyring's notice after the first paint (loading the keyring
        takes a while, see ``_show_keyring_notice``)."""
        self._notices = [f"{m[0].upper()}{m[1:]}." for m in storage_problems()]  # unwritable config / data dirs
        self._notices += self.store.load_warnings
        self.keyring_label.hide()
        self.banner.show_messages(self._notices)

    def _show_keyring_notice(self) -> None:
        notice = self.store.secrets.message
        if notice:
            self.keyring_label.setText("Secrets are kept for this session only")
            self.keyring_label.setToolTip(notice)
            self.banner.show_messages([*self._notices, notice])
        self.keyring_label.setVisible(bool(notice))

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self.firstPainted.emit)

    # -- connections -----------------------------------------------------------------------------

    def tab_for(self, profile_id: str) -> ConnectionTab | None:
        for tab in self.connection_tabs():
            if tab.profile_id == profile_id:
                return tab
        return None

    def connection_tabs(self) -> list[ConnectionTab]:
        return [w for i in range(self.tabs.count()) if isinstance(w := self.tabs.widget(i), ConnectionTab)]

    def current_tab(self) -> ConnectionTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, ConnectionTab) else None

    def connect_profile(self, profile_id: str) -> ConnectionTab | None:
        """Open (or focus) the profile's tab and connect it.

        When the connection cannot even start (its recording cannot be made, not even in memory), a tab
        opened for it is closed again and the reason shown; a recording kept in memory only is said in the
        tab and the status bar.
        """
        existed = self.tab_for(profile_id) is not None
        tab = self.open_tab(profile_id)
        if tab is None:
            return None
        try:
            tab.connect_server()
        except (RecordingError, OSError) as exc:
            if not existed:
                self._discard_tab(tab)
            self.show_error(f"Could not connect {tab.title}: {exc}")
            return None
        note = tab.controller.storage_note
        if note:
            self.statusBar().showMessage(f"{tab.title}: {note}", 10000)
        return tab

    def connect_demo(self) -> ConnectionTab | None:
        return self.connect_profile(demo_profile().id)

    def connect_unsaved(self, profile: Profile) -> ConnectionTab | None:
        """Open a tab on a profile that is not saved (a server given on the command line) and connect it.

        The profile (secrets included) stays in memory; ``save_current_as_profile`` saves it."""
        self._unsaved[profile.id] = profile.copy()
        tab = self.connect_profile(profile.id)
        if tab is None:
            self._unsaved.pop(profile.id, None)
        else:
            self.statusBar().showMessage(f"{tab.title} is not saved: Connection > Save as profile… keeps it", 10000)
        return tab

    def is_unsaved_tab(self, tab: ConnectionTab) -> bool:
        return tab.profile_id in self._unsaved

    def save_current_as_profile(self) -> ProfileDialog | None:
        """The profile editor, prefilled with the current unsaved tab's settings; on Save the tab becomes the new
        profile's (its secrets go to the keyring, as any profile's)."""
        tab = self.current_tab()
        profile = self._unsaved.get(tab.profile_id) if tab is not None else None
        if tab is None or profile is None:
            return None
        draft = profile.copy()
        draft.id = new_id()
        dialog = self.profiles.new_profile_from(draft)
        dialog.accepted.connect(lambda: self._adopt(tab, draft.id))
        return dialog

    def _adopt(self, tab: ConnectionTab, profile_id: str) -> None:
        """The unsaved tab's profile was saved as ``profile_id``: the tab is that profile's from now on."""
        if profile_id not in self.store or tab not in self.connection_tabs():
            return
        self._unsaved.pop(tab.profile_id, None)
        tab.profile_id = profile_id
        tab.roots_panel.set_saved(True)
        self.refresh_tab(profile_id)
        self._follow_current_tab()
        self._update_status()

    def connect_demo_http(self) -> ConnectionTab | None:
        """The demo server over Streamable HTTP (its process starts with the connection, stops with it)."""
        return self.connect_profile(DEMO_HTTP_PROFILE_ID)

    def open_tab(self, profile_id: str) -> ConnectionTab | None:
        """The profile's tab, created (not connected) when there is none; None when it cannot be used."""
        tab = self.tab_for(profile_id)
        if tab is None:
            if is_demo(profile_id):
                profile = builtin_profile(profile_id)
            elif profile_id in self._unsaved:
                profile = self._unsaved[profile_id].copy()
            else:
                profile = self._saved_profile(profile_id)
            if profile is None:
                return None
            try:
                settings = connection_settings(profile)
            except ProfileNotConnectable as exc:
                self.show_error(str(exc))
                return None
            factory = self._recording_factory or _recorder_for(profile)
            controller = ConnectionController(settings, recording_factory=factory, parent=self)
            tab = ConnectionTab(profile.id, controller)
            tab.roots_panel.set_saved(not is_demo(profile.id) and profile.id not in self._unsaved)
            tab.restore_layout(self.settings)
            self._connect_tab_signals(tab)
            self.tabs.addTab(tab, state_icon(controller.state), profile.name)
            self.stack.setCurrentWidget(self.tabs)
        self.tabs.setCurrentWidget(tab)
        return tab

    def refresh_tab(self, profile_id: str) -> None:
        """A profile was edited: its open tab (if any) takes the new name and settings for its next connect."""
        tab = self.tab_for(profile_id)
        profile = self._saved_profile(profile_id) if tab is not None else None
        if tab is None or profile is None:
            return
        try:
            tab.use_settings(connection_settings(profile))
        except ProfileNotConnectable as exc:
            self.show_error(str(exc))
            return
        self.tabs.setTabText(self.tabs.indexOf(tab), profile.name)

    def save_roots(self, profile_id: str, roots: list[Root]) -> bool:
        """Keep the roots edited in a tab with its profile (built-in profiles are never saved); True if saved."""
        if is_demo(profile_id) or profile_id not in self.store:
            return False
        profile = self.store.get(profile_id)
        if profile.roots == roots:
            return False
        profile.roots = list(roots)
        try:
            self.profiles.model.update(profile)
        except OSError as exc:
            self.show_error(f"The roots could not be saved with the profile: {describe_os_error(exc)}")
            return False
        return True

    def _saved_profile(self, profile_id: str) -> Profile | None:
        try:
            return self.store.resolve_secrets(self.store.get(profile_id))
        except KeyError:
            self.show_error("That profile no longer exists.")
            return None

    def close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if not isinstance(widget, ConnectionTab):
            return
        widget.save_layout(self.settings)
        self._discard_tab(widget)
        self._unsaved.pop(widget.profile_id, None)

    def _discard_tab(self, widget: ConnectionTab) -> None:
        """Remove the tab and close its connection and recording in the background."""
        index = self.tabs.indexOf(widget)
        if index >= 0:
            self.tabs.removeTab(index)
        if self.tabs.count() == 0:
            self.stack.setCurrentWidget(self.welcome)
        task = asyncio.get_event_loop().create_task(self._dispose(widget))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _dispose(self, tab: ConnectionTab) -> None:
        try:
            await tab.aclose()
        finally:
            tab.deleteLater()

    def _with_current(self, command: Callable[[ConnectionTab], object]) -> None:
        tab = self.current_tab()
        if tab is not None:
            command(tab)

    def _show_tab_states(self) -> None:
        for tab in self.connection_tabs():
            self._on_tab_state(tab)

    def _on_tab_state(self, tab: ConnectionTab) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabIcon(index, state_icon(tab.controller.state))
            self.tabs.setTabToolTip(index, tab.controller.status_text())
        self._update_status()

    def _follow_current_tab(self) -> None:
        """The sidebar highlights the active tab's profile, so its Connect acts on what the tab shows (a built-in
        demo tab has no saved profile: the highlight stays where the user put it)."""
        tab = self.current_tab()
        if tab is not None:
            self.profiles.select(tab.profile_id)

    def _update_status(self) -> None:
        tab = self.current_tab()
        self.status_label.setText(f"{tab.title}: {tab.controller.status_text()}" if tab else "")
        live = tab is not None and tab.controller.state in (ConnectionState.CONNECTED, ConnectionState.CONNECTING)
        self.disconnect_action.setEnabled(live)
        self.reconnect_action.setEnabled(tab is not None)
        self.close_tab_action.setEnabled(tab is not None)
        self.save_as_profile_action.setEnabled(tab is not None and tab.profile_id in self._unsaved)
        connected = tab is not None and tab.controller.state is ConnectionState.CONNECTED
        self.compare_action.setEnabled(connected)
        self.save_snapshot_action.setEnabled(connected)
        self.export_log_action.setEnabled(tab is not None and tab.controller.recording is not None)

    async def shutdown(self) -> None:
        """Close every connection and recording (idempotent; bounded in time)."""
        tabs = self.connection_tabs()
        for tab in tabs:
            tab.save_layout(self.settings)
        work = [tab.aclose() for tab in tabs] + list(self._closing)
        if work:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*work, return_exceptions=True), SHUTDOWN_TIMEOUT)

    # -- files -----------------------------------------------------------------------------------

    def ask_export_log(self) -> QFileDialog | None:
        tab = self.current_tab()
        return tab.log.export_jsonl_dialog() if tab is not None else None

    def ask_open_recording(self) -> QFileDialog:
        return open_recording_dialog(self, self._recording_opened)

    def ask_replay_recording(self) -> QFileDialog:
        """The recordings folder: the chosen recording opens in "Replay against…"."""
        return recording_chooser(self, self.open_replay)

    def _recording_opened(self, window: RecordingWindow) -> None:
        window.panel.replayRequested.connect(self.open_replay)

    def open_replay(self, path: str) -> ReplayDialog:
        """The "Replay against…" dialog of the recording at ``path`` (from a tab's log or the offline viewer).

        A tab still writing that recording commits what it buffered first, so the replay sees every request."""
        for tab in self.connection_tabs():
            recording = tab.controller.recording
            if recording is not None and str(recording.path) == path:
                try:
                    recording.flush()
                except RecordingError:
                    pass  # the dialog reads what was committed and says so if the file is unreadable
        return open_replay(path, replay_targets(self.current_tab(), self.store.list_profiles()), self)

    def open_import_dialog(self) -> ImportDialog:
        return self._open_import(ImportDialog(self, secrets=self.store.secrets))

    def open_import_dialog_on(self, path: str) -> ImportDialog:
        """The import dialog with this file read (the empty state's found configs; "" opens it empty)."""
        dialog = self.open_import_dialog()
        dialog.load_path(path)
        return dialog

    def open_paste_dialog(self) -> PasteDialog:
        dialog = PasteDialog(self, secrets=self.store.secrets)
        self._open_import(dialog)
        return dialog

    def _open_import(self, dialog: ImportDialog) -> ImportDialog:
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._imported(self.profiles.add_profiles(dialog.selected_profiles())))
        self.import_dialog = dialog
        dialog.open()
        return dialog

    def _imported(self, added: list[Profile]) -> None:
        if added:
            names = ", ".join(p.name for p in added)
            self.statusBar().showMessage(f"Imported {plural(len(added), 'profile')}: {names}", 8000)

    # -- messages --------------------------------------------------------------------------------

    def show_error(self, text: str) -> None:
        self.last_error = text
        self.statusBar().showMessage(text, 10000)
        box = QMessageBox(QMessageBox.Icon.Warning, "MCP Inspector", text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def start_tour(self) -> Tour:
        """The tour of the window (Help → Tour); remembered as shown, so the first run's does not come again."""
        if self.tour is not None:
            self.tour.raise_()
            return self.tour
        tour = self.tour = Tour(self, window_tour_steps(self))
        tour.destroyed.connect(self._forget_tour)
        self.settings.tour_seen = True
        self.settings.sync()
        tour.start()
        return tour

    def _forget_tour(self) -> None:
        self.tour = None

    def _offer_tour(self) -> None:
        if self._first_run_tour and not self.settings.tour_seen:
            self.start_tour()

    def show_about(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            "About MCP Inspector",
            f"<b>MCP Inspector Desktop</b> {__version__}<br>A native inspector for Model Context Protocol servers.",
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- state -----------------------------------------------------------------------------------

    def restore_state(self) -> None:
        s = self.settings
        if (geometry := s.geometry) is not None:
            self.restoreGeometry(geometry)
        if (state := s.window_state) is not None:
            self.restoreState(state)
        if (sidebar := s.splitter("sidebar")) is not None:
            self.splitter.restoreState(sidebar)
        for profile_id in s.open_tabs:
            if is_demo(profile_id) or profile_id in self.store:
                self.open_tab(profile_id)
        if 0 <= s.current_tab < self.tabs.count():
            self.tabs.setCurrentIndex(s.current_tab)
        if s.last_profile:
            self.profiles.select(s.last_profile)
        self._follow_current_tab()  # a saved profile's tab in view wins

    def save_state(self) -> None:
        s = self.settings
        s.geometry = self.saveGeometry()
        s.window_state = self.saveState()
        s.set_splitter("sidebar", self.splitter.saveState())
        tab = self.current_tab()
        if tab is not None:
            tab.save_layout(self.settings)
        s.open_tabs = [t.profile_id for t in self.connection_tabs() if t.profile_id not in self._unsaved]
        s.current_tab = self.tabs.currentIndex()
        s.last_profile = self.profiles.selected_id()
        self.settings_problem = s.sync()  # (unwritable config dir: said at start-up; the state is just not kept)

    def live_tabs(self) -> list[ConnectionTab]:
        """Tabs whose connection is up or being made (quitting closes them)."""
        live = (ConnectionState.CONNECTED, ConnectionState.CONNECTING)
        return [t for t in self.connection_tabs() if t.controller.state in live]

    def ask_quit(self) -> QMessageBox:
        """Ask (window-modal, not blocking: ``quit_box``) whether to quit and close the live connections."""
        box = self.quit_box
        if box is not None and box.isVisible():
            box.raise_()
            return box
        names = [t.title for t in self.live_tabs()]
        count = f"{len(names)} connection{'s are' if len(names) != 1 else ' is'}"
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Quit MCP Inspector",
            f"{count} open: {', '.join(names)}. Quit and close {'them' if len(names) != 1 else 'it'}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        yes = box.button(QMessageBox.StandardButton.Yes)
        if yes is not None:
            yes.setText("Quit")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.accepted.connect(self.close_without_asking)
        box.destroyed.connect(self._forget_quit_box)
        self.quit_box = box
        box.open()
        return box

    def _forget_quit_box(self) -> None:
        self.quit_box = None

    def close_without_asking(self) -> bool:
        """Close the window even with live connections (the question was answered, or nobody is there to ask)."""
        self._quit_confirmed = True
        return self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._quit_confirmed and self.live_tabs():
            event.ignore()
            self.ask_quit()
            return
        self.save_state()
        super().closeEvent(event)
        self.closed.emit()
