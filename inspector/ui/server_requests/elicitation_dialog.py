"""Form-mode elicitation: the server's message and its requestedSchema as a SchemaForm; Accept / Decline / Cancel.

Accept validates first (defaults are pre-filled by the form, so accepting without editing sends them);
Decline and Cancel send the two other actions. Closing the window counts as Cancel (the spec's "dismissed").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from inspector.client.handlers import RequestInfo
from inspector.content.plural import plural
from inspector.ui.schema_form import SchemaForm
from inspector.ui.server_requests.base import RequestDialog, plain_button, primary_button
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import section_label, tones
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["ElicitationDialog"]


class ElicitationDialog(RequestDialog):
    """Buttons for tests: ``accept_button``, ``decline_button``, ``cancel_button``; the form is ``form``."""

    def __init__(
        self,
        params: dict[str, Any],
        *,
        info: RequestInfo | None = None,
        label: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            title="Elicitation request",
            question="The server asks you for information. Only share what you are willing to give this server.",
            method="elicitation/create",
            info=info,
            label=label,
            parent=parent,
        )
        t = tones(self)
        message = params.get("message")
        self.message_label = QLabel(message if isinstance(message, str) else "(the server sent no message)", self)
        self.message_label.setObjectName("elicitationMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        follow_font(self.message_label, "message")
        self.message_label.setStyleSheet(
            f"QLabel#elicitationMessage {{ background: {t.info_bg}; border: 1px solid {t.info_border};"
            f" border-radius: 6px; padding: 10px 12px; color: {t.text}; }}"
        )
        self.body.addWidget(self.message_label)

        schema = params.get("requestedSchema")
        self.form: SchemaForm | None = None
        self.schema_problem: Banner | None = None
        if isinstance(schema, dict):
            try:
                self.form = SchemaForm(schema, self)
            except Exception as exc:  # a broken schema must not break the dialog; it can still be declined
                self.schema_problem = Banner("error", "The requested schema cannot be shown as a form", [str(exc)])
        else:
            self.schema_problem = Banner("error", "The request has no requestedSchema object", [])
        self.body.addWidget(section_label("RESPONSE", self))
        if self.form is not None:
            frame = QFrame(self)
            frame.setObjectName("formFrame")
            themed_style(
                frame, lambda t: f"QFrame#formFrame {{ border: 1px solid {t.card_border}; border-radius: 6px; }}"
            )
            inner = QVBoxLayout(frame)
            inner.setContentsMargins(2, 2, 2, 2)
            inner.addWidget(self.form)
            self.body.addWidget(frame, 1)
        elif self.schema_problem is not None:
            self.body.addWidget(self.schema_problem)
            self.body.addStretch(1)

        self.cancel_button = plain_button("Cancel", "Dismiss without choosing (action: cancel)", self)
        self.decline_button = plain_button("Decline", "Refuse to provide the information (action: decline)", self)
        self.accept_button = primary_button("Accept", self)
        self.accept_button.setToolTip("Send the form's values (action: accept) — Ctrl+Enter")
        self.accept_button.setEnabled(self.form is not None)
        self.primary = self.accept_button
        self.buttons.addWidget(self.cancel_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.decline_button)
        self.buttons.addWidget(self.accept_button)
        self.accept_button.clicked.connect(self.accept_request)
        self.decline_button.clicked.connect(lambda: self.finish({"action": "decline"}))
        self.cancel_button.clicked.connect(lambda: self.finish({"action": "cancel"}))
        self.min_width = 640
        self.fit_to_content()

    def wanted_size(self) -> QSize:
        """Every field in view: the form's own hint is capped (it scrolls), its fitting height is not."""
        hint = self.sizeHint()
        if self.form is None:
            return hint
        extra = max(0, self.form.fitting_height() - self.form.sizeHint().height())
        return QSize(hint.width(), hint.height() + extra + 8)

    def overflow(self) -> int:
        """How much of the form its scroll area hides at the current size."""
        if self.form is None:
            return 0
        area = self.form.scroll_area
        content = area.widget()
        if content is None:
            return 0
        width = area.viewport().width()
        needed = max(content.minimumSizeHint().height(), content.sizeHint().height())
        if content.hasHeightForWidth():
            needed = max(needed, content.heightForWidth(width))
        return max(0, needed - area.viewport().height())

    def accept_request(self) -> bool:
        """Send the form's value when it validates; otherwise point at the problems and stay open."""
        if self.form is None:
            return False
        errors = self.form.errors()
        if errors:
            self.show_problems([f"Fix {plural(len(errors), 'problem')} before accepting:", *errors[:5]])
            return False
        value = self.form.value()
        self.finish({"action": "accept", "content": value if isinstance(value, dict) else {}})
        return True
