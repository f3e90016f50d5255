"""Import servers from other clients' config files: pick a file, preview its entries, tick what to import.

Reading and parsing is ``inspector.store.imports``; this dialog shows the result: one checkable row per
server (name and a one-line summary, warnings underneath) and the file's errors in plain words (with line
and column for malformed JSON). Opened with ``open()``; ``import_button`` / ``cancel_button`` /
``browse_button`` are attributes for tests; ``load_path()`` reads a file without the picker.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.store.client_configs import candidate_configs
from inspector.store.imports import FORMAT_LABELS, ImportResult, import_file, known_locations
from inspector.store.profiles import Profile
from inspector.store.secrets import SecretStore
from inspector.ui.widgets.resources import ui_icon
from inspector.ui.widgets.theme import themed_style

__all__ = ["ImportDialog"]

_ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


class ImportDialog(QDialog):
    what = "file"
    """What is read, in the error's title ("The file could not be read")."""

    def __init__(
        self, parent: QWidget | None = None, *, secrets: SecretStore | None = None, pick_file: bool = True
    ) -> None:
        """``secrets``: where imported secret values will go (its ``where`` words the intro); ``pick_file``: show the
        known locations and the path row (a subclass without them fills ``source_row``, the layout's second row)."""
        super().__init__(parent)
        self.setWindowTitle("Import servers")
        self.setModal(True)
        self.resize(760, 480)
        self.result_data: ImportResult | None = None

        where = secrets.where if secrets is not None else "the secret store, never to the profiles file"
        self.intro = intro = QLabel(
            "Import MCP servers from Claude Desktop, Claude Code, Cursor, VS Code or the MCP Inspector catalog. "
            f"Secret-looking variables and headers go to {where}."
        )
        intro.setWordWrap(True)
        self.locations_combo = QComboBox()
        self.locations_combo.addItem("Known locations…", "")
        known = [(c.label, c.path) for c in candidate_configs()] + [
            (FORMAT_LABELS[kind], path) for kind, path in known_locations() if kind == "inspector"
        ]
        for label, path in known:
            if path.is_file():
                self.locations_combo.addItem(f"{label}: {path}", str(path))
        self.locations_combo.setEnabled(self.locations_combo.count() > 1)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json …")
        self.browse_button = QPushButton("Browse…")
        self.load_button = QPushButton("Read")
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.browse_button)
        path_row.addWidget(self.load_button)

        self.source_label = QLabel()
        self.source_label.setWordWrap(True)
        self.preview = QTreeWidget()
        self.preview.setColumnCount(2)
        self.preview.setHeaderLabels(["Server", "Details"])
        self.preview.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.preview.header().setStretchLastSection(True)
        self.preview.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.preview.setRootIsDecorated(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        themed_style(self.error_label, lambda t: f"color: {t.error_fg};")
        self.error_label.hide()

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.import_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        self.source_row = QVBoxLayout()
        layout.addLayout(self.source_row)
        if pick_file:
            self.source_row.addWidget(self.locations_combo)
            self.source_row.addLayout(path_row)
        else:
            for widget in (self.locations_combo, self.path_edit, self.browse_button, self.load_button):
                widget.setParent(self)
                widget.hide()
        layout.addWidget(self.source_label)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

        self.browse_button.clicked.connect(self._browse)
        self.load_button.clicked.connect(lambda: self.load_path(self.path_edit.text()))
        self.path_edit.returnPressed.connect(lambda: self.load_path(self.path_edit.text()))
        self.locations_combo.activated.connect(self._pick_location)
        self.preview.itemChanged.connect(lambda *_: self._update_button())

    def _browse(self) -> None:
        start = str(Path(self.path_edit.text()).expanduser().parent) if self.path_edit.text() else str(Path.home())
        picker = QFileDialog(self, "Config file to import", start, "JSON files (*.json *.jsonc);;All files (*)")
        picker.setFileMode(QFileDialog.FileMode.ExistingFile)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        picker.fileSelected.connect(self.load_path)
        picker.open()

    def _pick_location(self, index: int) -> None:
        path = self.locations_combo.itemData(index)
        if path:
            self.load_path(str(path))

    def load_path(self, path: str | Path) -> ImportResult | None:
        """Read a file and show its entries; returns what was read (None for an empty path)."""
        text = str(path).strip()
        if not text:
            return None
        self.path_edit.setText(text)
        self.show_result(import_file(text))
        return self.result_data

    def show_result(self, result: ImportResult) -> None:
        self.result_data = result
        self.preview.blockSignals(True)
        self.preview.clear()
        warn_icon = ui_icon("warning", tone="warning")  # the UI's own set, as everywhere (resources/icons/ui)
        for index, entry in enumerate(result.entries):
            item = QTreeWidgetItem([entry.name, entry.summary])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Checked if entry.selected else Qt.CheckState.Unchecked)
            item.setData(0, _ENTRY_ROLE, index)
            item.setToolTip(1, entry.summary)
            notes = list(entry.warnings)
            notes += [f"needs a value for {n.kind} {n.name} (${{input:{n.input_id}}})" for n in entry.needs_input]
            if entry.env_file:
                notes.append(f"envFile {entry.env_file} is not read; add its variables by hand")
            for note in notes:
                child = QTreeWidgetItem(["", note])
                child.setIcon(1, warn_icon)
                child.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.addChild(child)
            self.preview.addTopLevelItem(item)
            item.setExpanded(bool(notes))
        self.preview.blockSignals(False)
        if result.format:
            n = len(result.entries)
            label = FORMAT_LABELS.get(result.format, result.format)
            self.source_label.setText(f"{label} file, {n} server{'s' if n != 1 else ''}: {result.source}")
        else:
            self.source_label.setText("")
        if result.errors:
            title = f"The {self.what} could not be read:" if not result.entries else "Some entries were skipped:"
            self.error_label.setText(title + "\n" + "\n".join(f"• {e}" for e in result.errors))
            self.error_label.show()
        else:
            self.error_label.hide()
        self._update_button()

    def _update_button(self) -> None:
        count = len(self.selected_profiles())
        self.import_button.setEnabled(count > 0)
        self.import_button.setText(f"Import {count}" if count else "Import")

    def entry_item(self, name: str) -> QTreeWidgetItem | None:
        for i in range(self.preview.topLevelItemCount()):
            item = self.preview.topLevelItem(i)
            if item is not None and item.text(0) == name:
                return item
        return None

    def selected_profiles(self) -> list[Profile]:
        """The checked entries' profiles, in file order."""
        if self.result_data is None:
            return []
        profiles: list[Profile] = []
        for i in range(self.preview.topLevelItemCount()):
            item = self.preview.topLevelItem(i)
            if item is None or item.checkState(0) != Qt.CheckState.Checked:
                continue
            entry = self.result_data.entries[int(item.data(0, _ENTRY_ROLE))]
            profile = entry.profile.copy()
            if not profile.name:
                profile.name = entry.name
            profiles.append(profile)
        return profiles
