"""The sidebar: saved profiles (create / edit / duplicate / delete / reorder / export) and the Connect button.

The list is a ``ProfileListModel`` (``profile_views``) over the store; every change goes through it.
Dialogs and confirmations are opened with ``open()`` and kept as attributes (``dialog``, ``confirm_box``)
so tests can click their buttons.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListView,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.store.export import write_export
from inspector.store.paths import describe_os_error
from inspector.store.profiles import Profile, ProfileStore
from inspector.ui.profiles.dialog import ProfileDialog
from inspector.ui.profiles.views import PROFILE_ID_ROLE, ProfileDelegate, ProfileListModel
from inspector.ui.widgets.resources import icon_button

__all__ = ["ProfilesPanel"]


class ProfilesPanel(QWidget):
    """Profile list with its buttons; asks the window to connect through ``connectRequested``."""

    connectRequested = Signal(str)
    """A profile id."""
    importRequested = Signal()
    errorOccurred = Signal(str)
    statusMessage = Signal(str)
    profileSaved = Signal(str)
    """A profile id, after it was created or edited."""
    selectionChanged = Signal(str)
    """The selected profile id ("" for none)."""

    def __init__(self, store: ProfileStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProfileListModel(store, self)
        self.dialog: ProfileDialog | None = None
        self.confirm_box: QMessageBox | None = None

        title = QLabel("Profiles")
        title.setObjectName("sidebarTitle")
        font = title.font()
        font.setBold(True)
        title.setFont(font)

        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.view.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setUniformItemSizes(True)
        self.view.setItemDelegate(ProfileDelegate(self.view))

        self.empty_hint = QLabel(
            "No saved profiles yet.\nCreate one with <b>New</b>, or import servers from Claude Desktop, Claude "
            "Code, Cursor or VS Code."
        )
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setTextFormat(Qt.TextFormat.RichText)
        self.empty_hint.setText(self.empty_hint.text().replace("\n", "<br>"))
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.empty_hint.setContentsMargins(4, 8, 4, 8)

        self.new_button = self._tool("New", "New profile…")
        self.edit_button = self._tool("Edit", "Edit the selected profile…")
        self.duplicate_button = self._tool("Duplicate", "Duplicate the selected profile (secrets included)")
        self.delete_button = self._tool("Delete", "Delete the selected profile…")
        self.up_button = self._tool("", "Move up", "arrow-up")
        self.down_button = self._tool("", "Move down", "arrow-down")
        self.import_button = QPushButton("Import…")
        self.import_button.setToolTip(
            "Import servers from Claude Desktop, Claude Code, Cursor, VS Code or MCP Inspector files"
        )
        self.connect_button = QPushButton("Connect")
        self.connect_button.setDefault(True)
        self.connect_button.setToolTip("Connect to the selected profile (double-click works too)")

        heading = QHBoxLayout()
        heading.addWidget(title, 1)
        heading.addWidget(self.up_button)
        heading.addWidget(self.down_button)
        tools = QHBoxLayout()
        tools.setSpacing(2)
        for button in (self.new_button, self.edit_button, self.duplicate_button, self.delete_button):
            tools.addWidget(button)
        tools.addStretch(1)

        bottom = QHBoxLayout()
        bottom.addWidget(self.import_button)
        bottom.addWidget(self.connect_button, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 4, 8)
        layout.setSpacing(6)
        layout.addLayout(heading)
        layout.addLayout(tools)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.empty_hint, 1)
        layout.addLayout(bottom)
        self._context_actions()

        self._wire()
        self._update_buttons()

    def _tool(self, text: str, tip: str, icon: str | None = None) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        if icon is not None:  # one of the UI's icons (resources/icons/ui), in the theme's colours
            icon_button(button, icon)
            button.setIconSize(QSize(14, 14))
        return button

    def _context_actions(self) -> None:
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for text, slot in (
            ("Connect", self.connect_selected),
            ("Edit…", self.edit_selected),
            ("Duplicate", self.duplicate_selected),
            ("Delete…", self.delete_selected),
        ):
            action = QAction(text, self.view)
            action.triggered.connect(slot)
            self.view.addAction(action)

    def _wire(self) -> None:
        self.new_button.clicked.connect(self.new_profile)
        self.edit_button.clicked.connect(self.edit_selected)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        self.import_button.clicked.connect(self.importRequested)
        self.connect_button.clicked.connect(self.connect_selected)
        self.view.doubleClicked.connect(lambda _index: self.connect_selected())
        self.view.selectionModel().currentChanged.connect(lambda *_: self._on_selection())
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset):
            signal.connect(self._update_buttons)

    # -- selection -------------------------------------------------------------------------------

    def selected_id(self) -> str | None:
        index = self.view.currentIndex()
        if not index.isValid():
            return None
        value = self.model.data(index, PROFILE_ID_ROLE)
        return value if isinstance(value, str) else None

    def select(self, profile_id: str) -> bool:
        row = self.model.row_of(profile_id)
        if row < 0:
            return False
        self.view.setCurrentIndex(self.model.index(row, 0))
        return True

    def _on_selection(self) -> None:
        self._update_buttons()
        self.selectionChanged.emit(self.selected_id() or "")

    def _update_buttons(self) -> None:
        profile_id = self.selected_id()
        row = self.model.row_of(profile_id) if profile_id else -1
        has = row >= 0
        for button in (self.edit_button, self.duplicate_button, self.delete_button, self.connect_button):
            button.setEnabled(has)
        self.up_button.setEnabled(has and row > 0)
        self.down_button.setEnabled(has and row < self.model.rowCount() - 1)
        empty = self.model.rowCount() == 0
        self.view.setVisible(not empty)
        self.empty_hint.setVisible(empty)

    # -- commands --------------------------------------------------------------------------------

    def new_profile(self) -> ProfileDialog:
        return self._open_dialog(None)

    def new_profile_from(self, draft: Profile) -> ProfileDialog:
        """The "New profile" editor prefilled with ``draft`` (e.g. a tab opened from the command line); Save
        creates it (its secrets go to the keyring)."""
        dialog = self._open_dialog(draft)
        dialog.editing = False
        dialog.setWindowTitle("Save as profile")
        return dialog

    def edit_selected(self) -> ProfileDialog | None:
        profile_id = self.selected_id()
        if profile_id is None:
            return None
        return self._open_dialog(self.model.store.get(profile_id))

    def _open_dialog(self, profile: Profile | None) -> ProfileDialog:
        dialog = ProfileDialog(profile, parent=self, secrets=self.model.store.secrets)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.save_hook = lambda: self._save_from(dialog)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _save_from(self, dialog: ProfileDialog) -> str | None:
        """Save the dialog's profile; on failure the reason (the dialog stays open with what was typed)."""
        profile = dialog.profile()
        try:
            saved = self.model.update(profile) if dialog.editing else self.model.create(profile)
        except OSError as exc:
            message = f"The profile could not be saved: {describe_os_error(exc)}"
            self.statusMessage.emit(message)
            return message
        self.select(saved.id)
        self.profileSaved.emit(saved.id)
        return None

    def duplicate_selected(self) -> Profile | None:
        profile_id = self.selected_id()
        if profile_id is None:
            return None
        try:
            clone = self.model.duplicate(profile_id)
        except OSError as exc:
            self.errorOccurred.emit(f"The profile could not be duplicated: {describe_os_error(exc)}")
            return None
        self.select(clone.id)
        return clone

    def delete_selected(self) -> QMessageBox | None:
        """Ask first (a non-blocking message box, kept in ``confirm_box``)."""
        profile_id = self.selected_id()
        if profile_id is None:
            return None
        name = self.model.store.get(profile_id).name
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Delete profile",
            f'Delete the profile "{name}"? Its stored secrets are removed from {self.model.store.secrets.where} too.',
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.accepted.connect(lambda: self.delete_profile(profile_id))
        self.confirm_box = box
        box.open()
        return box

    def delete_profile(self, profile_id: str) -> None:
        row = self.model.row_of(profile_id)
        try:
            self.model.delete(profile_id)
        except OSError as exc:
            self.errorOccurred.emit(f"The profile could not be deleted: {describe_os_error(exc)}")
            return
        if self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(min(row, self.model.rowCount() - 1), 0))
        self._update_buttons()

    def move_selected(self, delta: int) -> None:
        profile_id = self.selected_id()
        if profile_id is None:
            return
        try:
            self.model.move_by(profile_id, delta)
        except OSError as exc:
            self.errorOccurred.emit(f"The new order could not be saved: {describe_os_error(exc)}")
        self.select(profile_id)
        self._update_buttons()

    def connect_selected(self) -> None:
        profile_id = self.selected_id()
        if profile_id is not None:
            self.connectRequested.emit(profile_id)

    def add_profiles(self, profiles: list[Profile]) -> list[Profile]:
        """Save several new profiles (an import); stops at the first that cannot be saved."""
        added: list[Profile] = []
        for profile in profiles:
            try:
                added.append(self.model.create(profile))
            except OSError as exc:
                self.errorOccurred.emit(f'"{profile.name}" could not be saved: {describe_os_error(exc)}')
                break
        if added:
            self.select(added[0].id)
        return added

    def ask_export(self, *, all_profiles: bool) -> QFileDialog | None:
        """Ask where to write the mcpServers export of the selected (or all) profiles."""
        if not all_profiles and self.selected_id() is None:
            self.errorOccurred.emit("Select the profile to export first.")
            return None
        dialog = QFileDialog(self, "Export profiles", str(Path.home() / "mcp.json"), "JSON files (*.json)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("json")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda path: self.export_to(path, all_profiles=all_profiles))
        dialog.open()
        return dialog

    def export_to(self, path: str | Path, *, all_profiles: bool) -> bool:
        """Write the export (secrets left out) of the selected profile, or of all of them."""
        selected = self.selected_id()
        store = self.model.store
        profiles = store.list_profiles() if all_profiles or selected is None else [store.get(selected)]
        try:
            write_export(Path(path), profiles)
        except OSError as exc:
            self.errorOccurred.emit(f"The export could not be written: {describe_os_error(exc)}")
            return False
        n = len(profiles)
        self.statusMessage.emit(f"Exported {n} profile{'s' if n != 1 else ''} to {path} (secrets left out)")
        return True
