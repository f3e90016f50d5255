"""``HexView``: the first bytes of a binary payload as a hex dump, its total size, "Show more" and "Save…"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.content.hexdump import HEX_PREVIEW_LIMIT, hex_dump
from inspector.content.media import sniff_mime_type
from inspector.protocol.sizes import format_size
from inspector.ui.viewers.text_widgets import FitPlainTextEdit
from inspector.ui.widgets.saving import save_payload
from inspector.ui.widgets.style import hbox
from inspector.ui.widgets.theme import follow_font, small_font_size, themed_style

__all__ = ["HexView"]


class HexView(QWidget):
    """A hex dump of ``data``: offsets, hex bytes, ASCII; ``limit`` bytes at first, more on request."""

    def __init__(
        self,
        data: bytes,
        *,
        mime_type: str | None = None,
        limit: int = HEX_PREVIEW_LIMIT,
        fit: bool = False,
        max_height: int = 320,
        suggested_name: str = "content.bin",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._data = data
        self._mime_type = mime_type or ""
        self._limit = limit
        self._shown = 0
        self._suggested_name = suggested_name
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = hbox(spacing=6)
        self.info_label = QLabel(self)
        themed_style(self.info_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.info_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.info_label, 1)
        self.more_button = QPushButton("Show more", self)
        self.more_button.clicked.connect(self.show_more)
        self.save_button = QPushButton("Save…", self)
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.more_button)
        row.addWidget(self.save_button)
        layout.addLayout(row)
        self.dump = FitPlainTextEdit(self, fit=fit, max_height=max_height)
        follow_font(self.dump, "mono")
        self.dump.setLineWrapMode(FitPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.dump, 1)
        self.status_label = QLabel(self)
        themed_style(self.status_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.status_label.hide()
        layout.addWidget(self.status_label)
        self.show_more()

    def total_size(self) -> int:
        return len(self._data)

    def shown_bytes(self) -> int:
        return self._shown

    def text(self) -> str:
        return self.dump.toPlainText()

    def show_more(self) -> None:
        """Append the next ``limit`` bytes to the dump."""
        if self._shown >= len(self._data) and self._shown:
            return
        chunk = hex_dump(self._data, start=self._shown, limit=self._limit)
        if chunk:
            if self._shown:
                self.dump.appendPlainText(chunk)
            else:
                self.dump.setPlainText(chunk)
        self._shown = min(len(self._data), self._shown + self._limit)
        self._update_info()

    def save(self) -> Path | None:
        try:
            path = save_payload(self, self._data, self._suggested_name)
        except OSError as exc:
            self.status_label.setText(f"Could not save: {exc}")
            self.status_label.show()
            return None
        if path is not None:
            self.status_label.setText(f"Saved to {path}")
            self.status_label.show()
        return path

    def _update_info(self) -> None:
        total = len(self._data)
        sniffed = sniff_mime_type(self._data)
        kind = self._mime_type or "unknown type"
        if sniffed and sniffed != self._mime_type:
            kind += f" (looks like {sniffed})"
        if total == 0:
            self.info_label.setText(f"{kind} · empty")
        elif self._shown >= total:
            self.info_label.setText(f"{kind} · {format_size(total)} ({total:,} bytes) · all shown")
        else:
            self.info_label.setText(
                f"{kind} · showing the first {format_size(self._shown)} of {format_size(total)} ({total:,} bytes)"
            )
        self.more_button.setVisible(self._shown < total)
