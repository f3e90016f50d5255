"""``ImageView``: a base64 (or raw) image decoded once, shown on a checkerboard with zoom in/out/fit/100%.

Invalid base64 and undecodable image bytes are shown as a clear error (with the declared mimeType and size)
instead of an empty box.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPixmap, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QLabel, QScrollArea, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from inspector.content.blocks import InvalidBase64Error, decode_base64
from inspector.content.media import mime_mismatch, suffix_for
from inspector.protocol.sizes import format_size
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.saving import save_payload
from inspector.ui.widgets.style import hbox, tones
from inspector.ui.widgets.theme import small_font_size, themed_style

__all__ = ["ImageView"]

_MIN_ZOOM = 0.05
_MAX_ZOOM = 32.0
_STEP = 1.25


def _checkerboard() -> QPixmap:
    light, dark = tones().checker
    tile = QPixmap(16, 16)
    tile.fill(QColor(light))
    painter = QPainter(tile)
    painter.fillRect(0, 0, 8, 8, QColor(dark))
    painter.fillRect(8, 8, 8, 8, QColor(dark))
    painter.end()
    return tile


class _ImageArea(QScrollArea):
    """The scroll area; Ctrl+wheel zooms."""

    def __init__(self, owner: ImageView) -> None:
        super().__init__(owner)
        self._owner = owner

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if event.angleDelta().y() > 0:
                self._owner.zoom_in()
            elif event.angleDelta().y() < 0:
                self._owner.zoom_out()
            event.accept()
            return
        super().wheelEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size() != event.oldSize():
            self._owner.viewport_resized()


class ImageView(QWidget):
    """An image from base64 ``data`` (as in image content) or ``raw`` bytes, with zoom controls.

    ``fit`` caps the view's height at ``max_height`` (for lists); initially the image is shown at 100%, or
    scaled down to fit when it is larger than the view.
    """

    def __init__(
        self,
        data: str | None = None,
        mime_type: str | None = None,
        *,
        raw: bytes | None = None,
        fit: bool = True,
        max_height: int = 360,
        suggested_name: str = "image",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._mime_type = mime_type or ""
        self._fit = fit
        self._max_height = max_height
        self._suggested_name = suggested_name
        self._zoom = 1.0
        self._fit_mode = True
        self._fit_enlarge = False
        self._error = ""
        self._bytes = b""
        self._image = QImage()
        self._pixmap = QPixmap()
        self._decode(data, raw)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        toolbar = hbox(spacing=2)
        self.zoom_out_button = self._tool("\N{MINUS SIGN}", "Zoom out (Ctrl+wheel)", self.zoom_out)
        self.zoom_in_button = self._tool("+", "Zoom in (Ctrl+wheel)", self.zoom_in)
        self.fit_button = self._tool("Fit", "Fit to the view", self.fit)
        self.actual_size_button = self._tool("1:1", "Actual size (100%)", self.actual_size)
        self.save_button = self._tool("Save…", "Save the image to a file", self.save)
        for button in (self.zoom_out_button, self.zoom_in_button, self.fit_button, self.actual_size_button):
            toolbar.addWidget(button)
        self.zoom_label = QLabel(self)
        self.zoom_label.setMinimumWidth(44)
        toolbar.addWidget(self.zoom_label)
        toolbar.addSpacing(6)
        self.info_label = QLabel(self)
        themed_style(self.info_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.info_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        toolbar.addWidget(self.info_label, 1)
        toolbar.addWidget(self.save_button)
        layout.addLayout(toolbar)

        self.error_banner: Banner | None = None
        self.warning_label = MarkLabel(parent=self)
        self.warning_label.setWordWrap(True)
        themed_style(self.warning_label, lambda t: f"color: {t.warning_fg}; font-size: {small_font_size()};")
        self.warning_label.hide()
        layout.addWidget(self.warning_label)

        self.area = _ImageArea(self)
        self.area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.area.setWidgetResizable(False)
        self.canvas = QLabel()
        self.canvas.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.canvas.setAutoFillBackground(True)
        palette = self.canvas.palette()
        palette.setBrush(QPalette.ColorRole.Window, _checkerboard())
        self.canvas.setPalette(palette)
        self.area.setWidget(self.canvas)
        self.area.setObjectName("imageArea")
        themed_style(
            self.area,
            lambda t: (
                f"QScrollArea#imageArea {{ background: {t.badge_bg}; border: 1px solid {t.card_border};"
                " border-radius: 4px; }"
            ),
        )
        layout.addWidget(self.area, 1)

        if self._error:
            self._show_error()
        else:
            warning = mime_mismatch(self._mime_type, self._bytes)
            if warning:
                self.warning_label.setText(warning)
                self.warning_label.show()
            self.info_label.setText(self.info_text())
            if fit:
                self.area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self._apply_zoom()

    # --- public API -----------------------------------------------------------------------------------------

    def is_valid(self) -> bool:
        return not self._error

    def error_text(self) -> str:
        return self._error

    def image_size(self) -> QSize:
        return self._image.size()

    def image(self) -> QImage:
        return self._image

    def zoom(self) -> float:
        return self._zoom

    def is_fitted(self) -> bool:
        return self._fit_mode

    def info_text(self) -> str:
        if self._error:
            return ""
        kind = self._mime_type or "unknown type"
        dimensions = f"{self._image.width()} \N{MULTIPLICATION SIGN} {self._image.height()} px"
        return f"{dimensions} · {kind} · {format_size(len(self._bytes))}"

    def set_zoom(self, zoom: float) -> None:
        if self._error:
            return
        self._fit_mode = False
        self._zoom = max(_MIN_ZOOM, min(_MAX_ZOOM, zoom))
        self._apply_zoom()

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom * _STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom / _STEP)

    def actual_size(self) -> None:
        self.set_zoom(1.0)

    def fit(self) -> None:
        """Scale the image to the space available (up or down)."""
        if self._error:
            return
        self._fit_mode = True
        self._fit_enlarge = True
        self._apply_zoom()

    def save(self) -> Path | None:
        if not self._bytes:
            return None
        name = self._suggested_name
        if "." not in name:
            name += suffix_for(self._mime_type)
        try:
            return save_payload(self, self._bytes, name)
        except OSError as exc:
            self.warning_label.setText(f"Could not save: {exc}")
            self.warning_label.show()
            return None

    # --- internals ------------------------------------------------------------------------------------------

    def _tool(self, text: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    def _decode(self, data: str | None, raw: bytes | None) -> None:
        if raw is not None:
            self._bytes = raw
        else:
            try:
                self._bytes = decode_base64(data)
            except InvalidBase64Error as exc:
                self._error = f"The image data is not valid base64: {exc}"
                return
        image = QImage.fromData(self._bytes)
        if image.isNull():
            self._error = (
                f"The {format_size(len(self._bytes))} of data could not be decoded as an image"
                f" (declared {self._mime_type or 'no mimeType'})."
            )
            warning = mime_mismatch(self._mime_type, self._bytes)
            if warning:
                self._error += f" Note: {warning}."
            return
        self._image = image
        self._pixmap = QPixmap.fromImage(image)

    def _show_error(self) -> None:
        for button in (self.zoom_in_button, self.zoom_out_button, self.fit_button, self.actual_size_button):
            button.setEnabled(False)
        self.save_button.setEnabled(bool(self._bytes))
        self.area.hide()
        self.zoom_label.hide()
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        self.error_banner = Banner("error", "Image cannot be shown", [self._error], self)
        layout.addWidget(self.error_banner)

    def _fit_factor(self, *, allow_enlarge: bool) -> float:
        if self._image.isNull():
            return 1.0
        if not self.area.isVisible() and not self._fit_enlarge:
            return 1.0  # not laid out yet: the viewport's size means nothing (it is fitted once it is shown)
        viewport = self.area.viewport().size()
        width = max(16, viewport.width() - 4)
        height = max(16, (self._max_height - 4) if self._fit else viewport.height() - 4)
        factor = min(width / self._image.width(), height / self._image.height())
        return factor if allow_enlarge else min(1.0, factor)

    def _apply_zoom(self) -> None:
        if self._pixmap.isNull():
            return
        if self._fit_mode:
            self._zoom = self._fit_factor(allow_enlarge=self._fit_enlarge)
        size = QSize(max(1, round(self._image.width() * self._zoom)), max(1, round(self._image.height() * self._zoom)))
        mode = (
            Qt.TransformationMode.FastTransformation if self._zoom >= 2 else Qt.TransformationMode.SmoothTransformation
        )
        scaled = (
            self._pixmap if self._zoom == 1.0 else self._pixmap.scaled(size, Qt.AspectRatioMode.KeepAspectRatio, mode)
        )
        self.canvas.setPixmap(scaled)
        self.canvas.resize(scaled.size())
        self.zoom_label.setText(f"{self._zoom * 100:.0f}%")
        if self._fit:
            frame = 2 * self.area.frameWidth()
            scrollbar = self.area.horizontalScrollBar().sizeHint().height()
            wanted = scaled.height() + frame + (scrollbar if scaled.width() > self.area.viewport().width() else 0)
            self.area.setFixedHeight(max(40, min(wanted + 4, self._max_height)))

    def viewport_resized(self) -> None:
        """The scroll area got its (new) size: a fitted image follows it (width and height)."""
        if self._fit_mode and not self._error:
            self._apply_zoom()
