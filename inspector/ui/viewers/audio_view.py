"""``AudioView``: audio content (base64 or raw bytes) with its facts, "Save…" and "Open with system player".

Nothing is played inside the inspector. "Open" writes a temporary file and emits ``openFileRequested(path)``;
the application connects it to ``QDesktopServices.openUrl`` (see ``open_local_file``), so tests never start a
player.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.content.blocks import InvalidBase64Error, decode_base64
from inspector.content.media import describe_audio, mime_mismatch, suffix_for
from inspector.protocol.sizes import format_size
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.resources import icon_label
from inspector.ui.widgets.saving import save_payload, write_temp_file
from inspector.ui.widgets.style import hbox
from inspector.ui.widgets.theme import small_font_size, themed_style

__all__ = ["AudioView", "open_local_file"]


def open_local_file(path: str) -> bool:
    """Open a local file with the system's default application (what ``openFileRequested`` should do)."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(path))


class AudioView(QWidget):
    """Facts about an audio clip and buttons to save it or hand it to the system player."""

    openFileRequested = Signal(str)

    def __init__(
        self,
        data: str | None = None,
        mime_type: str | None = None,
        *,
        raw: bytes | None = None,
        suggested_name: str = "audio",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._mime_type = mime_type or ""
        self._suggested_name = suggested_name
        self._error = ""
        self._bytes = b""
        self.temp_files: list[Path] = []
        if raw is not None:
            self._bytes = raw
        else:
            try:
                self._bytes = decode_base64(data)
            except InvalidBase64Error as exc:
                self._error = f"The audio data is not valid base64: {exc}"

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = hbox(spacing=6)
        self.audio_icon = icon_label("audio", "info", 20, self)
        row.addWidget(self.audio_icon)
        self.info_label = QLabel(self.info_text(), self)
        self.info_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.info_label.setWordWrap(True)  # the facts wrap: on one line they would widen a result sideways
        row.addWidget(self.info_label, 1)
        self.play_button = QPushButton("Open with system player", self)
        self.play_button.setToolTip("Write the clip to a temporary file and open it with the default application")
        self.play_button.clicked.connect(self.open_externally)
        self.save_button = QPushButton("Save…", self)
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.play_button)
        row.addWidget(self.save_button)
        layout.addLayout(row)
        self.status_label = MarkLabel(mark=None, parent=self)
        self.status_label.setWordWrap(True)
        themed_style(self.status_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.status_label.hide()
        layout.addWidget(self.status_label)
        self.error_banner: Banner | None = None
        if self._error:
            self.play_button.setEnabled(False)
            self.save_button.setEnabled(False)
            self.error_banner = Banner("error", "Audio cannot be used", [self._error], self)
            layout.addWidget(self.error_banner)
        else:
            warning = mime_mismatch(self._mime_type, self._bytes)
            if warning:
                self._status(warning, warning=True)

    def is_valid(self) -> bool:
        return not self._error

    def error_text(self) -> str:
        return self._error

    def data(self) -> bytes:
        return self._bytes

    def info_text(self) -> str:
        if self._error:
            return f"{self._mime_type or 'audio'} · invalid data"
        parts = [self._mime_type or "unknown type", format_size(len(self._bytes))]
        details = describe_audio(self._bytes)
        if details:
            parts.append(details)
        return " · ".join(parts)

    def _file_name(self) -> str:
        name = self._suggested_name
        return name if "." in name else name + suffix_for(self._mime_type)

    def save(self) -> Path | None:
        if self._error:
            return None
        try:
            path = save_payload(self, self._bytes, self._file_name())
        except OSError as exc:
            self._status(f"Could not save: {exc}", warning=True)
            return None
        if path is not None:
            self._status(f"Saved to {path}")
        return path

    def open_externally(self) -> Path | None:
        """Write a temporary file and emit ``openFileRequested`` with its path."""
        if self._error:
            return None
        try:
            path = write_temp_file(self._bytes, suffix_for(self._mime_type))
        except OSError as exc:
            self._status(f"Could not write a temporary file: {exc}", warning=True)
            return None
        self.temp_files.append(path)
        self._status(f"Opening {path.name} with the system player…")
        self.openFileRequested.emit(str(path))
        return path

    def _status(self, message: str, *, warning: bool = False) -> None:
        themed_style(
            self.status_label,
            lambda t: f"color: {t.warning_fg if warning else t.muted}; font-size: {small_font_size()};",
        )
        self.status_label.set_mark("warning" if warning else None)
        self.status_label.setText(message)
        self.status_label.show()
