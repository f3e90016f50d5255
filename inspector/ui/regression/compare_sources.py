"""What "Compare with…" compares a connection with: another live connection, or a snapshot or recording file.

``CompareChooser(live_labels)`` lists the other live connections and a file choice; choosing emits
``liveChosen(index into live_labels)`` or ``fileChosen(path)`` (the file through a non-modal file dialog,
:attr:`file_dialog`). The window decides what the choices mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QLabel, QListWidget, QVBoxLayout, QWidget

__all__ = ["FILE_CHOICE", "SNAPSHOT_FILTERS", "CompareChooser"]

FILE_CHOICE: Final = "A snapshot or recording file…"
SNAPSHOT_FILTERS: Final = ["Snapshots and recordings (*.json *.sqlite3 *.sqlite *.db)", "All files (*)"]


class CompareChooser(QDialog):
    liveChosen = Signal(int)
    fileChosen = Signal(str)

    def __init__(self, subject: str, live_labels: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)  # (not deleted on close: its file dialog still reports through it)
        self.setWindowTitle(f"Compare {subject} with…")
        self.live_labels = list(live_labels)
        self.file_dialog: QFileDialog | None = None
        self.choices = QListWidget(self)
        for label in self.live_labels:
            self.choices.addItem(f"{label} (live connection)")
        self.choices.addItem(FILE_CHOICE)
        self.choices.setCurrentRow(0)
        self.choices.itemDoubleClicked.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Compare the surface of {subject} (the new side) with:", self))
        layout.addWidget(self.choices, 1)
        layout.addWidget(buttons)

    def accept(self) -> None:
        row = self.choices.currentRow()
        super().accept()
        if 0 <= row < len(self.live_labels):
            self.liveChosen.emit(row)
        elif row == len(self.live_labels):
            self.ask_file()

    def ask_file(self) -> QFileDialog:
        """A non-modal file dialog; the file chosen is emitted as ``fileChosen``."""
        dialog = QFileDialog(self.parentWidget(), "Compare with a snapshot or recording")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(SNAPSHOT_FILTERS)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.fileChosen.emit)
        self.file_dialog = dialog
        dialog.open()
        return dialog
