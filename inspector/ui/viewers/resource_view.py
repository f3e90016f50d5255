"""Viewers for resource contents (resources/read results and embedded resources), chosen by mimeType.

``ResourceContentView`` shows one ``{uri, mimeType, text | blob}`` entry: text plain, JSON as tree + pretty
text, markdown rendered, images previewed, audio with save/open, anything else as a hex dump.
``ResourceContentsView`` shows a whole result (one tab per entry) and, for subscriptions, a diff of two versions.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from inspector.content.blocks import InvalidBase64Error, annotation_badges, decode_base64
from inspector.content.mime import ViewerKind, choose_viewer
from inspector.content.text import parse_json
from inspector.protocol.sizes import format_size
from inspector.ui.viewers.audio_view import AudioView
from inspector.ui.viewers.binary_view import HexView
from inspector.ui.viewers.diff_view import DiffView
from inspector.ui.viewers.image_view import ImageView
from inspector.ui.viewers.text_view import JSON_AUTO_PARSE_LIMIT, JsonView, TextMode, TextView
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.focus import tab_focus_while_shown
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.style import badge_label, badge_row, hbox
from inspector.ui.widgets.theme import small_font_size, themed_style

__all__ = ["ResourceContentView", "ResourceContentsView"]


def _file_name(uri: str) -> str:
    tail = uri.rstrip("/").rsplit("/", 1)[-1]
    tail = tail.split("?", 1)[0].split("#", 1)[0]
    return tail or "resource"


class ResourceContentView(QWidget):
    """One resource contents entry with a header (uri, mimeType, size, annotations) and the right viewer.

    ``viewer_kind`` says which viewer was chosen; ``viewer`` is the widget. ``fit`` sizes the viewer to its
    content (inside lists and transcripts); otherwise it expands to fill the space.
    """

    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(
        self, entry: Any, *, fit: bool = False, show_header: bool = True, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.entry = entry if isinstance(entry, dict) else {}
        self.uri = str(self.entry.get("uri", ""))
        self.mime_type = self.entry.get("mimeType") if isinstance(self.entry.get("mimeType"), str) else None
        self._fit = fit
        self.notes: list[str] = []
        self.viewer_kind = ViewerKind.TEXT
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.header = QWidget(self)
        layout.addWidget(self.header)
        self.viewer: QWidget = self._build_viewer(entry)
        self._build_header()
        self.header.setVisible(show_header)
        for note in self.notes:
            label = MarkLabel(note, parent=self)
            label.setWordWrap(True)
            themed_style(label, lambda t: f"color: {t.warning_fg}; font-size: {small_font_size()};")
            layout.addWidget(label)
        layout.addWidget(self.viewer, 1)

    # --- building -------------------------------------------------------------------------------------------

    def _build_header(self) -> None:
        row = hbox(self.header, spacing=6)
        uri = QLabel(self.uri or "(no uri)", self.header)
        uri.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        uri.setStyleSheet("font-weight: 600;")
        uri.setToolTip(self.uri)
        row.addWidget(uri)
        row.addWidget(badge_label(self.mime_type or "no mimeType", "neutral", "mimeType", self.header))
        size = self._payload_size()
        if size is not None:
            row.addWidget(badge_label(format_size(size), "neutral", f"{size:,} bytes", self.header))
        for badge in badge_row(annotation_badges(self.entry.get("annotations")), self.header):
            row.addWidget(badge)
        row.addStretch(1)

    def _payload_size(self) -> int | None:
        text = self.entry.get("text")
        if isinstance(text, str):
            return len(text.encode("utf-8", "surrogatepass"))
        return self._blob_size

    def _build_viewer(self, entry: Any) -> QWidget:
        self._blob_size: int | None = None
        if not isinstance(entry, dict):
            self.notes.append("The contents entry is not an object.")
            return JsonView(entry, fit=self._fit, parent=self)
        if isinstance(entry.get("text"), str):
            return self._text_viewer(entry["text"], choose_viewer(self.mime_type, self.uri, is_text=True))
        if "blob" not in entry:
            self.notes.append('The contents entry has neither "text" nor "blob".')
            return JsonView(entry, fit=self._fit, parent=self)
        try:
            data = decode_base64(entry["blob"])
        except InvalidBase64Error as exc:
            self.viewer_kind = ViewerKind.BINARY
            return Banner("error", "The blob cannot be decoded", [str(exc)], self)
        self._blob_size = len(data)
        kind = choose_viewer(self.mime_type, self.uri, is_text=False)
        name = _file_name(self.uri)
        if kind is ViewerKind.IMAGE:
            self.viewer_kind = kind
            return ImageView(raw=data, mime_type=self.mime_type, fit=self._fit, suggested_name=name, parent=self)
        if kind is ViewerKind.AUDIO:
            self.viewer_kind = kind
            audio = AudioView(raw=data, mime_type=self.mime_type, suggested_name=name, parent=self)
            audio.openFileRequested.connect(self.openFileRequested)
            return audio
        if kind in (ViewerKind.TEXT, ViewerKind.JSON, ViewerKind.MARKDOWN):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                self.notes.append(f"Declared {self.mime_type} but the blob is not valid UTF-8; shown as bytes.")
            else:
                self.notes.append("Textual content sent as a base64 blob; shown decoded as UTF-8.")
                return self._text_viewer(text, kind)
        self.viewer_kind = ViewerKind.BINARY
        return HexView(data, mime_type=self.mime_type, fit=self._fit, suggested_name=name, parent=self)

    def _text_viewer(self, text: str, kind: ViewerKind) -> QWidget:
        name = _file_name(self.uri)
        view: QWidget
        if kind is ViewerKind.IMAGE:  # SVG sent as text
            self.viewer_kind = kind
            return ImageView(
                raw=text.encode("utf-8"), mime_type=self.mime_type, fit=self._fit, suggested_name=name, parent=self
            )
        if kind is ViewerKind.JSON:
            parsed = parse_json(text) if len(text) <= JSON_AUTO_PARSE_LIMIT else None
            if parsed is not None and not parsed.ok:
                self.notes.append(f"Declared {self.mime_type or 'JSON'} but the text is not valid JSON: {parsed.error}")
                kind = ViewerKind.TEXT
            else:
                self.viewer_kind = kind
                value: dict[str, Any] = {} if parsed is None else {"value": parsed.value}
                view = TextView(
                    text,
                    **value,
                    uri=self.uri,
                    mime_type=self.mime_type,
                    modes=(TextMode.TREE, TextMode.JSON, TextMode.PLAIN),
                    mode=TextMode.TREE if parsed is not None else TextMode.PLAIN,
                    fit=self._fit,
                    suggested_name=name,
                    parent=self,
                )
                return self._connect_text(view)
        if kind is ViewerKind.MARKDOWN:
            self.viewer_kind = kind
            modes = (TextMode.MARKDOWN, TextMode.PLAIN)
        else:
            self.viewer_kind = ViewerKind.TEXT
            modes = (TextMode.PLAIN, TextMode.MARKDOWN)
        view = TextView(
            text,
            uri=self.uri,
            mime_type=self.mime_type,
            modes=modes,
            mode=modes[0],
            fit=self._fit,
            suggested_name=name,
            parent=self,
        )
        return self._connect_text(view)

    def _connect_text(self, view: TextView) -> TextView:
        view.openUrlRequested.connect(self.openUrlRequested)
        return view


class ResourceContentsView(QWidget):
    """A resources/read result: one tab per contents entry, plus a "Changes" tab after ``show_update_diff``."""

    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setTabBarAutoHide(True)
        tab_focus_while_shown(self.tabs)  # the hidden bar of a single content is no stop for Tab (a trap)
        layout.addWidget(self.tabs)
        self.empty_label = QLabel("No contents", self)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        themed_style(self.empty_label, lambda t: f"color: {t.muted};")
        layout.addWidget(self.empty_label)
        self._viewers: list[ResourceContentView] = []
        self.diff_view: DiffView | None = None
        self.problem_banner: Banner | None = None

    def set_contents(self, contents: Any) -> None:
        """Show ``contents`` (the ``contents`` list, or the whole result object holding it)."""
        self.clear()
        if isinstance(contents, dict) and "contents" in contents:
            contents = contents["contents"]
        if not isinstance(contents, list):
            self.problem_banner = Banner("error", "Malformed result", ['"contents" should be an array'], self)
            self.tabs.addTab(self.problem_banner, "Problem")
            self.empty_label.hide()
            return
        for entry in contents:
            viewer = ResourceContentView(entry, fit=False, parent=self.tabs)
            viewer.openUrlRequested.connect(self.openUrlRequested)
            viewer.openFileRequested.connect(self.openFileRequested)
            self._viewers.append(viewer)
            self.tabs.addTab(viewer, _file_name(viewer.uri) if viewer.uri else f"entry {len(self._viewers)}")
            self.tabs.setTabToolTip(self.tabs.count() - 1, viewer.uri)
        self.empty_label.setText("The resource has no contents" if not contents else "")
        self.empty_label.setVisible(not contents)

    def show_update_diff(
        self, old_text: str, new_text: str, *, old_label: str = "previous", new_label: str = "current"
    ) -> DiffView:
        """Add (or refresh) the "Changes" tab with a unified diff from ``old_text`` to ``new_text`` and show it."""
        if self.diff_view is None:
            self.diff_view = DiffView(self.tabs)
            self.tabs.addTab(self.diff_view, "Changes")
        self.diff_view.set_texts(old_text, new_text, old_label=old_label, new_label=new_label)
        index = self.tabs.indexOf(self.diff_view)
        self.tabs.setTabText(index, f"Changes ({self.diff_view.summary()})")
        self.tabs.setCurrentIndex(index)
        self.empty_label.hide()
        return self.diff_view

    def viewers(self) -> list[ResourceContentView]:
        return list(self._viewers)

    def clear(self) -> None:
        while self.tabs.count():
            widget = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if widget is not None:
                widget.deleteLater()
        self._viewers.clear()
        self.diff_view = None
        self.problem_banner = None
        self.empty_label.setText("No contents")
        self.empty_label.show()
