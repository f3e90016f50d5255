"""Pick, save and delete canned sampling replies (the Qt side of ``inspector.store.canned_replies``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QInputDialog, QToolButton, QWidget

from inspector.store.canned_replies import CannedReplies, CannedReply
from inspector.store.paths import describe_os_error
from inspector.ui.widgets.mark_label import MarkLabel

__all__ = ["CannedPicker"]

PLACEHOLDER = "Canned replies…"


class CannedPicker(QWidget):
    """A combo of saved replies, with Save (the current draft, under a name) and Delete.

    ``picked(CannedReply)`` fires when the user chooses one. ``draft`` returns the reply to save.
    """

    picked = Signal(object)

    def __init__(
        self,
        store: CannedReplies,
        draft: Callable[[str], CannedReply | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self._draft = draft
        self.combo = QComboBox(self)
        self.combo.setMinimumWidth(180)
        self.combo.setToolTip("Fill the reply with a saved answer")
        self.save_button = QToolButton(self)
        self.save_button.setText("Save…")
        self.save_button.setToolTip("Save the current reply as a canned reply")
        self.delete_button = QToolButton(self)
        self.delete_button.setText("Delete")
        self.delete_button.setToolTip("Delete the selected canned reply")
        self.name_dialog: QInputDialog | None = None
        self.note_label = MarkLabel(parent=self)
        """Why a change could not be saved to disk (it is kept for this session)."""
        self.note_label.setWordWrap(True)
        self.note_label.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.save_button)
        layout.addWidget(self.delete_button)
        layout.addWidget(self.note_label, 1)
        self.refresh()
        self.combo.activated.connect(self._on_activated)
        self.save_button.clicked.connect(self.ask_name)
        self.delete_button.clicked.connect(self.delete_selected)

    def refresh(self, select: str | None = None) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(PLACEHOLDER)
        for name in self.store.names():
            self.combo.addItem(name, name)
        index = self.combo.findData(select) if select else 0
        self.combo.setCurrentIndex(max(0, index))
        self.combo.blockSignals(False)
        self.combo.setEnabled(bool(self.store.replies))
        self.delete_button.setEnabled(self.combo.currentIndex() > 0)
        if self.store.problem:
            self.combo.setToolTip(f"Canned replies could not be loaded: {self.store.problem}")

    def selected(self) -> CannedReply | None:
        name = self.combo.currentData()
        return self.store.get(name) if isinstance(name, str) else None

    def choose(self, name: str) -> CannedReply | None:
        """Select ``name`` and fill the reply with it (what picking it in the combo does)."""
        index = self.combo.findData(name)
        if index < 0:
            return None
        self.combo.setCurrentIndex(index)
        self._on_activated(index)
        return self.selected()

    def _on_activated(self, index: int) -> None:
        self.delete_button.setEnabled(index > 0)
        reply = self.selected()
        if reply is not None:
            self.picked.emit(reply)

    def ask_name(self) -> QInputDialog:
        """Ask for a name (non-blocking, ``open()``); saving happens when the user confirms."""
        dialog = QInputDialog(self)
        dialog.setWindowTitle("Save canned reply")
        dialog.setLabelText("Name of this reply:")
        current = self.selected()
        dialog.setTextValue(current.name if current else "")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.textValueSelected.connect(self.save_as)
        self.name_dialog = dialog
        dialog.open()
        return dialog

    def save_as(self, name: str) -> CannedReply | None:
        name = name.strip()
        if not name:
            return None
        reply = self._draft(name)
        if reply is None:
            return None
        try:
            self.store.put(reply)
        except OSError as exc:
            self._not_saved(exc)
        self.refresh(select=name)
        return reply

    def delete_selected(self) -> None:
        reply = self.selected()
        if reply is not None:
            try:
                self.store.remove(reply.name)
            except OSError as exc:
                self._not_saved(exc)
            self.refresh()

    def _not_saved(self, exc: OSError) -> None:
        self.note_label.setText(f"Kept for this session only: {describe_os_error(exc)}")
        self.note_label.setToolTip(self.note_label.text())
        self.note_label.show()
