"""The sampling dialog: the server's conversation and parameters, the reply the person writes, Approve / Reject.

Approve sends the ``CreateMessageResult``; Reject (or closing the dialog) answers with the spec's error
``-1 "User rejected sampling request"``, which every SDK surfaces to the server as a readable error.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QSplitter, QVBoxLayout, QWidget

from inspector.client.handlers import HandlerError, RequestInfo
from inspector.content.server_requests import REJECT_CODE, REJECT_MESSAGE, SamplingRequest
from inspector.store.canned_replies import CannedReplies
from inspector.ui.server_requests.base import RequestDialog, danger_button, primary_button
from inspector.ui.server_requests.reply_editor import ReplyEditor
from inspector.ui.server_requests.sampling_request_view import SamplingRequestView
from inspector.ui.viewers import TranscriptView
from inspector.ui.widgets.style import section_label
from inspector.ui.widgets.theme import themed_style

__all__ = ["SamplingDialog", "rejection"]


def rejection() -> HandlerError:
    """The error answer for a rejected sampling request."""
    return HandlerError(REJECT_CODE, REJECT_MESSAGE)


class SamplingDialog(RequestDialog):
    """Buttons for tests: ``approve_button``, ``reject_button``; the reply editor is ``reply``."""

    def __init__(
        self,
        params: dict[str, Any],
        *,
        info: RequestInfo | None = None,
        label: str = "",
        canned: CannedReplies | None = None,
        parent: QWidget | None = None,
    ) -> None:
        self.request = SamplingRequest.parse(params)
        super().__init__(
            title="Sampling request",
            question="The server asks your LLM for a completion. Read the conversation, write the model's answer "
            "(or pick a canned one), then approve it — or reject the request.",
            method="sampling/createMessage",
            info=info,
            label=label,
            parent=parent,
        )
        conversation = QWidget(self)
        left = QVBoxLayout(conversation)
        left.setContentsMargins(0, 0, 6, 0)
        left.setSpacing(6)
        self.system_prompt_label: QLabel | None = None
        if self.request.system_prompt:
            left.addWidget(section_label("SYSTEM PROMPT", conversation))
            self.system_prompt_label = QLabel(self.request.system_prompt, conversation)
            self.system_prompt_label.setObjectName("systemPrompt")
            self.system_prompt_label.setWordWrap(True)
            self.system_prompt_label.setTextFormat(Qt.TextFormat.PlainText)
            self.system_prompt_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            themed_style(
                self.system_prompt_label,
                lambda t: (
                    f"QLabel#systemPrompt {{ background: {t.badge_bg}; border-left: 3px solid {t.accent};"
                    " padding: 6px 8px; border-radius: 3px; }"
                ),
            )
            left.addWidget(self.system_prompt_label)
        messages = self.request.messages
        count = len(messages) if isinstance(messages, list) else 1
        left.addWidget(section_label(f"CONVERSATION ({count} message{'s' if count != 1 else ''})", conversation))
        self.transcript = TranscriptView(messages, parent=conversation)
        self.transcript.setFrameShape(QFrame.Shape.StyledPanel)
        left.addWidget(self.transcript, 1)

        self.params_view = SamplingRequestView(self.request, self)
        top = QSplitter(Qt.Orientation.Horizontal, self)
        top.setChildrenCollapsible(False)
        top.addWidget(conversation)
        top.addWidget(self.params_view)
        top.setStretchFactor(0, 3)
        top.setStretchFactor(1, 2)
        top.setSizes([620, 360])

        reply_box = QWidget(self)
        reply_layout = QVBoxLayout(reply_box)
        reply_layout.setContentsMargins(0, 6, 0, 0)
        reply_layout.setSpacing(6)
        reply_layout.addWidget(section_label("YOUR REPLY (AS THE MODEL)", reply_box))
        self.reply = ReplyEditor(self.request, canned if canned is not None else CannedReplies(), reply_box)
        reply_layout.addWidget(self.reply, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(reply_box)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 190])
        self.body.addWidget(self.splitter, 1)

        self.reject_button = danger_button("Reject", self)
        self.reject_button.setToolTip(f"Answer with error {REJECT_CODE}: “{REJECT_MESSAGE}”")
        self.approve_button = primary_button("Approve", self)
        self.approve_button.setToolTip("Send this reply to the server (Ctrl+Enter)")
        self.primary = self.approve_button
        self.buttons.addWidget(self.reject_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.approve_button)
        self.reject_button.clicked.connect(self.reject_request)
        self.approve_button.clicked.connect(self.approve)
        self.reply.changed.connect(lambda: self.show_problems([]))
        self.min_width = 1060
        self.fit_to_content()
        self.reply.text_edit.setFocus()

    def wanted_size(self) -> QSize:
        """Room for the conversation and the reply editor side by side (each scrolls inside when longer)."""
        return QSize(1060, 780).expandedTo(self.sizeHint())

    def approve(self) -> bool:
        """Send the reply, unless it is incomplete (then say why and stay open)."""
        problems = self.reply.problems()
        self.show_problems(problems)
        if problems:
            return False
        self.finish(self.reply.result())
        return True

    def reject_request(self) -> None:
        self.finish(rejection())
