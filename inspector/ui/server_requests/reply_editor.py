"""The sampling reply the person writes: text, an image or audio file, or a tool call; model and stop reason.

``draft()`` returns a ``ReplyDraft`` (plain data); ``load_file(path)`` is what the file picker calls, so tests
load media without driving a native file dialog. ``apply_canned(reply)`` fills the editor from a saved reply;
a saved reply this editor cannot show field by field (several blocks) is sent as saved until the user edits.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QPixmap, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.content.blocks import decoded_size
from inspector.content.plural import plural
from inspector.content.server_requests import STOP_REASONS, ReplyDraft, ReplyKind, SamplingRequest, load_media
from inspector.protocol.sizes import format_size
from inspector.store.canned_replies import CannedReplies, CannedReply
from inspector.ui.server_requests.canned import CannedPicker
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["ReplyEditor"]

KINDS: Final[tuple[tuple[ReplyKind, str], ...]] = (
    ("text", "Text"),
    ("image", "Image"),
    ("audio", "Audio"),
    ("tool_use", "Tool call (tool_use)"),
)
FILE_FILTERS: Final = {
    "image": "Images (*.png *.jpg *.jpeg *.gif *.webp *.bmp *.svg);;All files (*)",
    "audio": "Audio (*.wav *.mp3 *.ogg *.oga *.flac *.m4a *.aac *.webm);;All files (*)",
}


class ReplyEditor(QWidget):
    changed = Signal()
    """Any edit (the dialog clears its complaint about an incomplete reply)."""

    def __init__(self, request: SamplingRequest, canned: CannedReplies, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self._media: dict[str, tuple[str, str, str]] = {}
        """kind -> (base64, mime, file name)."""
        self._raw_content: dict[str, Any] | list[dict[str, Any]] | None = None
        self._stop_touched = False
        self.file_dialog: QFileDialog | None = None

        self.kind_combo = QComboBox(self)
        for kind, text in KINDS:
            self.kind_combo.addItem(text, kind)
        tools = request.tool_names()
        model = self.kind_combo.model()
        if not tools and isinstance(model, QStandardItemModel):
            tool_item = model.item(3)
            if tool_item is not None:
                tool_item.setEnabled(False)
                tool_item.setToolTip("The server offered no tools")
        self.canned = CannedPicker(canned, self.canned_from_draft, self)
        self.canned.picked.connect(self.apply_canned)

        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setPlaceholderText("Write the assistant's answer…")
        self.choose_button = QPushButton("Choose file…", self)
        self.file_label = QLabel("No file chosen", self)
        themed_style(self.file_label, lambda t: f"color: {t.muted};")
        self.preview = QLabel(self)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumHeight(60)
        media = QWidget(self)
        media_layout = QVBoxLayout(media)
        media_layout.setContentsMargins(0, 0, 0, 0)
        picker_row = QHBoxLayout()
        picker_row.addWidget(self.choose_button)
        picker_row.addWidget(self.file_label, 1)
        media_layout.addLayout(picker_row)
        media_layout.addWidget(self.preview, 1)

        self.tool_combo = QComboBox(self)
        self.tool_combo.addItems(tools)
        self.tool_input_edit = QPlainTextEdit("{}", self)
        follow_font(self.tool_input_edit, "mono")
        self.tool_input_edit.setPlaceholderText('{"argument": "value"}')
        self.tool_id_edit = QLineEdit(ReplyDraft().tool_use_id, self)
        follow_font(self.tool_id_edit, "mono")
        tool_page = QWidget(self)
        tool_form = QFormLayout(tool_page)
        tool_form.setContentsMargins(0, 0, 0, 0)
        tool_form.addRow("Tool", self.tool_combo)
        tool_form.addRow("Input (JSON)", self.tool_input_edit)
        tool_form.addRow("tool_use id", self.tool_id_edit)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.text_edit)
        self.stack.addWidget(media)
        self.stack.addWidget(tool_page)

        self.model_edit = QLineEdit(request.suggested_model(), self)
        self.model_edit.setToolTip("The model name reported to the server")
        self.stop_combo = QComboBox(self)
        self.stop_combo.setEditable(True)
        self.stop_combo.addItems(STOP_REASONS)
        self.raw_note = QLabel(self)
        themed_style(self.raw_note, lambda t: f"color: {t.info_fg};")
        self.raw_note.hide()

        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(QLabel("Reply with", self))
        top.addWidget(self.kind_combo)
        top.addStretch(1)
        top.addWidget(self.canned)
        bottom = QHBoxLayout()
        bottom.setSpacing(8)
        bottom.addWidget(QLabel("Model", self))
        bottom.addWidget(self.model_edit, 2)
        bottom.addSpacing(8)
        bottom.addWidget(QLabel("Stop reason", self))
        bottom.addWidget(self.stop_combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(self.raw_note)
        layout.addWidget(self.stack, 1)
        layout.addLayout(bottom)

        self.kind_combo.currentIndexChanged.connect(self._on_kind)
        self.choose_button.clicked.connect(self.choose_file)
        self.stop_combo.activated.connect(self._on_stop_touched)
        for edit in (self.text_edit, self.tool_input_edit):
            edit.textChanged.connect(self._drop_raw)
            edit.textChanged.connect(self.changed)
        self.tool_combo.currentIndexChanged.connect(self._drop_raw)
        self.model_edit.textChanged.connect(self.changed)
        self.kind_combo.currentIndexChanged.connect(self.changed)

    # -- editing ---------------------------------------------------------------------------------

    def kind(self) -> ReplyKind:
        value: ReplyKind = self.kind_combo.currentData()
        return value

    def set_kind(self, kind: ReplyKind) -> None:
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(kind))

    def _on_kind(self) -> None:
        kind = self.kind()
        self.stack.setCurrentIndex({"text": 0, "image": 1, "audio": 1, "tool_use": 2}[kind])
        self._show_media()
        if not self._stop_touched:
            self.stop_combo.setCurrentText("toolUse" if kind == "tool_use" else "endTurn")
        self._drop_raw()

    def _on_stop_touched(self) -> None:
        self._stop_touched = True

    def choose_file(self) -> QFileDialog:
        """Pick an image or audio file (non-blocking); ``load_file`` runs when one is chosen."""
        kind = self.kind() if self.kind() in ("image", "audio") else "image"
        dialog = QFileDialog(self, f"Choose an {kind} file")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(FILE_FILTERS[kind])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.load_file)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def load_file(self, path: str) -> str | None:
        """Use ``path`` as the image/audio content; returns a problem (also shown) or None."""
        kind = self.kind()
        if kind not in ("image", "audio"):
            kind = "audio" if Path(path).suffix.lower() in (".wav", ".mp3", ".ogg", ".flac", ".m4a") else "image"
            self.set_kind(kind)
        try:
            data, mime = load_media(path, "audio" if kind == "audio" else "image")
        except ValueError as exc:
            self.file_label.setText(str(exc))
            return str(exc)
        self._media[kind] = (data, mime, Path(path).name)
        self._drop_raw()
        self._show_media()
        self.changed.emit()
        return None

    def _show_media(self) -> None:
        kind = self.kind()
        found = self._media.get(kind)
        self.choose_button.setText(f"Choose {kind} file…" if kind in ("image", "audio") else "Choose file…")
        if found is None:
            self.file_label.setText("No file chosen")
            self.preview.clear()
            return
        data, mime, name = found
        self.file_label.setText(f"{name} · {mime} · {format_size(decoded_size(data))}")
        if kind == "image":
            image = QImage.fromData(base64.b64decode(data))
            if not image.isNull():
                self.preview.setPixmap(
                    QPixmap.fromImage(image).scaled(
                        240, 120, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                    )
                )
                return
        self.preview.clear()

    # -- canned replies --------------------------------------------------------------------------

    def apply_canned(self, reply: CannedReply) -> None:
        content = reply.content
        self.model_edit.setText(reply.model)
        self.stop_combo.setCurrentText(reply.stop_reason)
        self._stop_touched = True
        block = content if isinstance(content, dict) else None
        kind = block.get("type") if block is not None else None
        if block is not None and kind == "text" and isinstance(block.get("text"), str):
            self.set_kind("text")
            self.text_edit.setPlainText(block["text"])
        elif block is not None and kind in ("image", "audio") and isinstance(block.get("data"), str):
            self.set_kind(kind)
            self._media[kind] = (block["data"], str(block.get("mimeType", "")), f"canned: {reply.name}")
            self._show_media()
        elif block is not None and kind == "tool_use" and self.request.tools:
            self.set_kind("tool_use")
            self.tool_combo.setCurrentText(str(block.get("name", "")))
            self.tool_input_edit.setPlainText(json.dumps(block.get("input", {}), indent=2))
        else:
            self._drop_raw()
            self._raw_content = content
            count = len(content) if isinstance(content, list) else 1
            self.raw_note.setText(f"Sending the canned reply “{reply.name}” as saved ({plural(count, 'block')}).")
            self.raw_note.show()
            return
        self._drop_raw()

    def _drop_raw(self) -> None:
        if self._raw_content is not None:
            self._raw_content = None
            self.raw_note.hide()

    def canned_from_draft(self, name: str) -> CannedReply | None:
        draft = self.draft()
        if self._raw_content is None and draft.problems():
            return None
        content = self._raw_content if self._raw_content is not None else draft.content()
        return CannedReply(name=name, content=content, model=draft.model, stop_reason=draft.stop_reason)

    # -- result ----------------------------------------------------------------------------------

    def draft(self) -> ReplyDraft:
        kind = self.kind()
        data, mime, name = self._media.get(kind, ("", "", ""))
        text = self.tool_input_edit.toPlainText().strip() or "{}"
        try:
            tool_input: Any = json.loads(text)
        except ValueError:
            tool_input = text
        return ReplyDraft(
            kind=kind,
            text=self.text_edit.toPlainText(),
            data=data,
            mime_type=mime,
            file_name=name,
            tool_name=self.tool_combo.currentText(),
            tool_input=tool_input,
            tool_use_id=self.tool_id_edit.text().strip() or ReplyDraft().tool_use_id,
            model=self.model_edit.text(),
            stop_reason=self.stop_combo.currentText(),
        )

    def problems(self) -> list[str]:
        if self._raw_content is not None:
            return [] if self.model_edit.text().strip() else ["Name the model that answered."]
        return self.draft().problems()

    def result(self) -> dict[str, Any]:
        """The CreateMessageResult to send (check ``problems()`` first)."""
        draft = self.draft()
        result = draft.result()
        if self._raw_content is not None:
            result["content"] = self._raw_content
        return result
