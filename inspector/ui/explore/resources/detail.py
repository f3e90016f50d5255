"""The detail side of the Resources panel.

``ResourceHeader`` shows what the resources list says about the selected resource or template — title, URI,
description, mimeType, size and annotations (audience, priority, lastModified) as badges. ``ResourceDetail``
stacks the header, the template form, the Read / Subscribe buttons, a status line, an error banner and the
``ResourceContentsView`` (the viewer chosen by mimeType, with the entry's own annotations).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.content.blocks import annotation_badges
from inspector.content.subscriptions import TextChange
from inspector.protocol.sizes import format_size
from inspector.ui.explore.resources.template_form import TemplateForm
from inspector.ui.viewers import ResourceContentsView
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.markdown import MarkdownLabel
from inspector.ui.widgets.style import badge_label, badge_row, clear_layout, hbox
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["ResourceDetail", "ResourceHeader"]


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    return value if isinstance(value, str) else ""


class ResourceHeader(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.title_label = QLabel(self)
        follow_font(self.title_label, "detail_title")
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        self.uri_label = QLabel(self)
        follow_font(self.uri_label, "mono")
        self.uri_label.setTextFormat(Qt.TextFormat.PlainText)
        self.uri_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        themed_style(self.uri_label, lambda t: f"color: {t.accent};")
        self.description_label = MarkdownLabel("", self)
        """The resource's description, as Markdown (nothing loaded; links open on click only)."""
        self.badges = QWidget(self)
        self._badge_layout = hbox(self.badges, spacing=4)
        layout.addWidget(self.title_label)
        layout.addWidget(self.uri_label)
        layout.addWidget(self.description_label)
        layout.addWidget(self.badges)
        self.clear()

    def clear(self, message: str = "Select a resource or a template") -> None:
        self.title_label.setText(message)
        self.uri_label.clear()
        self.uri_label.hide()
        self.description_label.hide()
        self._set_badges([])

    def set_entry(self, entry: dict[str, Any], *, template: bool = False) -> None:
        """Show a ``resources/list`` entry, or (``template``) a ``resources/templates/list`` entry."""
        uri = _text(entry, "uriTemplate" if template else "uri")
        self.title_label.setText(_text(entry, "title") or _text(entry, "name") or uri or "(unnamed)")
        name = _text(entry, "name")
        self.title_label.setToolTip(f"name: {name}" if name else "")
        self.uri_label.setText(uri or "(no URI)")
        self.uri_label.show()
        description = _text(entry, "description")
        self.description_label.set_markdown(description)
        self.description_label.setVisible(bool(description))
        labels: list[QLabel] = []
        if template:
            labels.append(badge_label("template", "info", "An RFC 6570 URI template", self.badges))
        mime = _text(entry, "mimeType")
        labels.append(badge_label(mime or "no mimeType", "neutral", "mimeType declared in the list", self.badges))
        size = entry.get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            labels.append(badge_label(format_size(size), "neutral", f"size: {size:,} bytes", self.badges))
        labels.extend(badge_row(annotation_badges(entry.get("annotations")), self.badges))
        self._set_badges(labels)

    def set_uri(self, uri: str, title: str | None = None) -> None:
        """Show a URI that is not (or no longer) in the list (e.g. a subscription, an expanded template)."""
        self.title_label.setText(title or uri)
        self.uri_label.setText(uri)
        self.uri_label.show()
        self.description_label.hide()
        self._set_badges([])

    def badge_texts(self) -> list[str]:
        out: list[str] = []
        for i in range(self._badge_layout.count()):
            item = self._badge_layout.itemAt(i)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QLabel):
                out.append(widget.text())
        return out

    def _set_badges(self, labels: list[QLabel]) -> None:
        clear_layout(self._badge_layout)
        for label in labels:
            self._badge_layout.addWidget(label)
        self._badge_layout.addStretch(1)
        self.badges.setVisible(bool(labels))


class ResourceDetail(QWidget):
    """The right-hand side of the Resources panel: header, template form, Read / Subscribe, status, contents."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 0, 0)
        layout.setSpacing(8)
        self.header = ResourceHeader(self)
        self.template_form = TemplateForm(self)
        self.template_form.hide()
        actions = hbox(spacing=8)
        self.read_button = QPushButton("Read", self)
        self.subscribe_button = QPushButton("Subscribe", self)
        self.subscribe_button.setCheckable(True)
        self.save_call_button = QPushButton("Save to collection", self)
        self.save_call_button.setToolTip("Save a resources/read of this URI to the Collections tab")
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        actions.addWidget(self.read_button)
        actions.addWidget(self.subscribe_button)
        actions.addWidget(self.status_label, 1)
        actions.addWidget(self.save_call_button)
        self.error_banner = Banner("error", "", [""], self)
        self.error_banner.hide()
        self.contents_view = ResourceContentsView(self)
        layout.addWidget(self.header)
        layout.addWidget(self.template_form)
        layout.addLayout(actions)
        layout.addWidget(self.error_banner)
        layout.addWidget(self.contents_view, 1)

    def show_template_form(self, visible: bool) -> None:
        """The form has its own Read button (for the expanded URI); the plain one is for listed resources."""
        self.template_form.setVisible(visible)
        self.read_button.setVisible(not visible)

    def set_status(self, text: str) -> None:
        themed_style(self.status_label, lambda t: f"color: {t.muted};")
        self.status_label.setText(text)

    def show_error(self, title: str, detail: str = "") -> None:
        self.error_banner.title_label.setText(title)
        self.error_banner.line_labels[0].setText(detail)
        self.error_banner.line_labels[0].setVisible(bool(detail))
        self.error_banner.show()

    def show_contents(self, result: Any) -> None:
        self.error_banner.hide()
        self.contents_view.set_contents(result)

    def show_diff(self, change: TextChange, update: int) -> None:
        self.contents_view.show_update_diff(
            change.old, change.new, old_label=f"before update {update}", new_label=f"after update {update}"
        )

    def reset(self) -> None:
        self.contents_view.clear()
        self.error_banner.hide()
        self.status_label.clear()
