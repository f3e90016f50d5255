"""URL-mode elicitation: show the link with its host emphasised, open it only after consent (http/https only),
and follow ``notifications/elicitation/complete`` to show when the server says the person finished.

Two ways in:

* the server sends ``elicitation/create`` with ``mode: "url"`` -> ``UrlElicitationDialog(params=...)``, answered
  Accept (open the link) / Decline / Cancel; after Accept the dialog stays open, non-modal, until completion;
* a request fails with ``-32042`` (URL elicitation required) -> ``explain_url_elicitation_required(data, parent)``
  explains the error and offers the same links; ``retryRequested`` tells the caller to retry its request.

The opener is injectable (tests record URLs instead of starting a browser).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.client.handlers import RequestInfo
from inspector.content.server_requests import split_url
from inspector.protocol.events import NotificationReceived
from inspector.protocol.jsonrpc import URL_ELICITATION_REQUIRED
from inspector.ui.server_requests.base import RequestDialog, plain_button, primary_button
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import Tones, badge_label, tone_colors, tones
from inspector.ui.widgets.theme import follow_font, small_font_size, themed_style

__all__ = [
    "COMPLETE_METHOD",
    "Opener",
    "UrlCard",
    "UrlElicitationDialog",
    "UrlElicitationTracker",
    "explain_url_elicitation_required",
    "system_opener",
]

COMPLETE_METHOD = "notifications/elicitation/complete"
Opener = Callable[[str], bool]


def system_opener(url: str) -> bool:
    """Open ``url`` in the system browser (callers check the scheme first)."""
    return QDesktopServices.openUrl(QUrl(url))


class UrlElicitationTracker(QObject):
    """Which URL elicitations the server has declared complete (fed with the connection's notifications)."""

    completed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.done: set[str] = set()
        self.unknown: list[str] = []
        """Completion notifications for ids nobody was shown (kept for the record)."""
        self.expected: set[str] = set()

    def expect(self, elicitation_id: str) -> None:
        self.expected.add(elicitation_id)

    def is_complete(self, elicitation_id: str) -> bool:
        return elicitation_id in self.done

    def on_notification(self, event: NotificationReceived) -> None:
        if event.method != COMPLETE_METHOD or not isinstance(event.params, dict):
            return
        eid = event.params.get("elicitationId")
        if not isinstance(eid, str):
            return
        if eid not in self.expected:
            self.unknown.append(eid)
        self.done.add(eid)
        self.completed.emit(eid)


class UrlCard(QFrame):
    """One URL elicitation: message, link (host in bold), id, status; ``open_button`` when asked for."""

    def __init__(self, elicitation: dict[str, Any], *, with_button: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        t = tones(self)
        self.elicitation = elicitation
        self.url = str(elicitation.get("url", ""))
        eid = elicitation.get("elicitationId")
        self.elicitation_id = eid if isinstance(eid, str) else None
        self.parts = split_url(self.url)
        self.setObjectName("urlCard")
        themed_style(
            self,
            lambda t: (
                f"QFrame#urlCard {{ background: {t.card_bg}; border: 1px solid {t.card_border};"
                " border-radius: 8px; } QFrame#urlCard QLabel { border: none; background: transparent; }"
            ),
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(6)
        message = elicitation.get("message")
        self.message_label = QLabel(message if isinstance(message, str) else "(no message)", self)
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.message_label)

        self.host_label = QLabel(self)
        self.host_label.setTextFormat(Qt.TextFormat.RichText)
        host = html.escape(self.parts.host) if self.parts.host else "(no host)"
        follow_font(self.host_label, "host")
        self.host_label.setText(f"<span style='font-weight:700'>{host}</span>")
        self.host_label.setToolTip("The site the link leads to: check it before opening")
        self.url_label = QLabel(self)
        self.url_label.setTextFormat(Qt.TextFormat.RichText)
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.url_label.setWordWrap(True)
        follow_font(self.url_label, "mono")
        self.url_label.setText(
            f"<span style='color:{t.muted}'>{html.escape(self.parts.before_host)}</span>"
            f"<b style='color:{t.text}'>{html.escape(self.parts.host)}</b>"
            f"<span style='color:{t.muted}'>{html.escape(self.parts.after_host)}</span>"
        )
        layout.addWidget(self.host_label)
        layout.addWidget(self.url_label)
        self.problem_banner: Banner | None = None
        if not self.parts.openable:
            self.problem_banner = Banner("error", "This link will not be opened", [self.parts.problem or ""], self)
            layout.addWidget(self.problem_banner)

        row = QHBoxLayout()
        row.setSpacing(6)
        self.status_badge = badge_label("", "neutral", "", self)
        row.addWidget(badge_label(f"elicitationId {self.elicitation_id or '—'}", "neutral", "", self))
        row.addWidget(self.status_badge)
        row.addStretch(1)
        self.copy_button = QPushButton("Copy link", self)
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.url))
        row.addWidget(self.copy_button)
        self.open_button: QPushButton | None = None
        if with_button:
            self.open_button = QPushButton("Open in browser", self)
            self.open_button.setAutoDefault(False)
            self.open_button.setEnabled(self.parts.openable)
            row.addWidget(self.open_button)
        layout.addLayout(row)
        self.set_status("not opened")

    def set_status(self, status: str) -> None:
        tone = {"completed": "ok", "waiting for the server": "info", "not opened": "neutral"}.get(status, "warning")
        self.status = status
        self.status_badge.setText(status)
        self.status_badge.setProperty("tone", tone)

        def build(t: Tones) -> str:
            fg, bg, border = tone_colors(t, tone)
            return (
                f"QLabel#badge {{ color: {fg}; background: {bg}; border: 1px solid {border}; border-radius: 8px;"
                f" padding: 0px 7px; font-size: {small_font_size()}; }}"
            )

        themed_style(self.status_badge, build)


class UrlElicitationDialog(RequestDialog):
    """``params``: one URL elicitation to answer (Accept opens it). ``error_data``: a -32042 error to explain.

    Test handles: ``open_button`` (Accept), ``decline_button``, ``cancel_button`` (request mode);
    ``cards[i].open_button``, ``retry_button``, ``close_button`` (error mode); ``opened`` lists opened URLs.
    """

    retryRequested = Signal()

    def __init__(
        self,
        *,
        params: dict[str, Any] | None = None,
        error_data: Any = None,
        error_message: str = "",
        info: RequestInfo | None = None,
        label: str = "",
        opener: Opener | None = None,
        tracker: UrlElicitationTracker | None = None,
        parent: QWidget | None = None,
    ) -> None:
        self.request_mode = params is not None
        if params is not None:
            title, question = (
                "Open a link for the server",
                ("The server asks you to continue in your browser. Nothing is opened unless you choose to."),
            )
        else:
            title, question = (
                f"URL elicitation required ({URL_ELICITATION_REQUIRED})",
                (
                    "The server refused the request until you complete a step in your browser: open the link, finish "
                    "there, then retry the request."
                ),
            )
        super().__init__(
            title=title, question=question, method="elicitation/create", info=info, label=label, parent=parent
        )
        self.linger = True
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.opener: Opener = opener or system_opener
        self.tracker = tracker
        self.opened: list[str] = []
        self.cards: list[UrlCard] = []
        if params is not None:
            self.cards.append(UrlCard(params, with_button=False, parent=self))
        else:
            if error_message:
                self.body.addWidget(Banner("info", "The server said", [error_message], self))
            elicitations = error_data.get("elicitations") if isinstance(error_data, dict) else None
            items = [e for e in elicitations if isinstance(e, dict)] if isinstance(elicitations, list) else []
            if not items:
                self.body.addWidget(
                    Banner("error", "The error carries no URL elicitations", [f"data: {error_data!r}"[:400]], self)
                )
            for item in items:
                card = UrlCard(item, with_button=True, parent=self)
                if card.open_button is not None:
                    card.open_button.clicked.connect(lambda _=False, c=card: self.open_card(c))
                self.cards.append(card)
        for card in self.cards:
            self.body.addWidget(card)
        self.body.addStretch(1)
        if tracker is not None:
            tracker.completed.connect(self._on_completed)

        if params is not None:
            self.cancel_button = plain_button("Cancel", "Dismiss without choosing (action: cancel)", self)
            self.decline_button = plain_button("Decline", "Do not open the link (action: decline)", self)
            self.open_button = primary_button("Open in browser", self)
            self.open_button.setToolTip("Consent: open the link in your browser and answer accept")
            self.open_button.setEnabled(self.cards[0].parts.openable)
            self.close_button = plain_button("Close", "Stop watching for completion", self)
            self.close_button.hide()
            self.primary = self.open_button
            self.buttons.addWidget(self.cancel_button)
            self.buttons.addStretch(1)
            for button in (self.decline_button, self.open_button, self.close_button):
                self.buttons.addWidget(button)
            self.cancel_button.clicked.connect(lambda: self.refuse("cancel"))
            self.decline_button.clicked.connect(lambda: self.refuse("decline"))
            self.open_button.clicked.connect(self.consent)
        else:
            self.close_button = plain_button("Close", "", self)
            self.retry_button = primary_button("Retry request", self)
            self.retry_button.setToolTip("Send the request again (after finishing in the browser)")
            self.primary = self.retry_button
            self.buttons.addStretch(1)
            self.buttons.addWidget(self.close_button)
            self.buttons.addWidget(self.retry_button)
            self.retry_button.clicked.connect(self._retry)
        self.close_button.clicked.connect(self.close)
        if params is None:
            self.method_badge.setText(f"error {URL_ELICITATION_REQUIRED}")
            self.method_badge.setToolTip("JSON-RPC error code: URL elicitation required")
            self.id_badge.hide()
        self.min_width = 640
        self.fit_to_content()

    def open_card(self, card: UrlCard) -> bool:
        """Open one link (http/https only), after the person asked for it."""
        if not card.parts.openable:
            return False
        ok = self.opener(card.url)
        self.opened.append(card.url)
        if card.elicitation_id is not None and self.tracker is not None:
            self.tracker.expect(card.elicitation_id)
            if self.tracker.is_complete(card.elicitation_id):
                card.set_status("completed")
                return ok
        card.set_status("waiting for the server" if ok else "the browser did not open")
        return ok

    def refuse(self, action: str) -> None:
        """Request mode: answer ``decline`` or ``cancel`` and close (nothing is left to watch)."""
        self.linger = False
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)  # the handler deletes it, like any other
        self.finish({"action": action})

    def consent(self) -> None:
        """Request mode: open the link and answer accept; keep watching for the completion notification."""
        card = self.cards[0]
        if not self.open_card(card):
            self.show_problems(["The link could not be opened; copy it, or decline."])
            if not card.parts.openable:
                return
        self.finish({"action": "accept"})
        for button in (self.cancel_button, self.decline_button, self.open_button):
            button.hide()
        self.close_button.show()
        self.close_button.setDefault(True)
        self.primary = self.close_button
        self.question_label.setText("Answered accept. This window shows when the server reports you finished.")
        if self.isVisible() and self.windowModality() is not Qt.WindowModality.NonModal:
            self.hide()  # modality only changes while hidden: stop blocking the window while waiting
            self.setWindowModality(Qt.WindowModality.NonModal)
            self.show()
        if card.elicitation_id is None:
            card.set_status("no elicitationId: completion cannot be tracked")

    def _on_completed(self, elicitation_id: str) -> None:
        for card in self.cards:
            if card.elicitation_id == elicitation_id:
                card.set_status("completed")

    def _retry(self) -> None:
        self.retryRequested.emit()
        self.close()

    def all_complete(self) -> bool:
        return bool(self.cards) and all(card.status == "completed" for card in self.cards)


def explain_url_elicitation_required(
    error_data: Any,
    parent: QWidget | None = None,
    *,
    message: str = "",
    opener: Opener | None = None,
    tracker: UrlElicitationTracker | None = None,
    label: str = "",
) -> UrlElicitationDialog:
    """Explain a -32042 error (``RemoteError.data``) and offer its links; non-blocking (the dialog is shown).

    Connect ``retryRequested`` to retry the failed request. Pass the connection's tracker (``url_tracker_of``
    in ``gui_handlers``) to see completion.
    """
    dialog = UrlElicitationDialog(
        error_data=error_data, error_message=message, opener=opener, tracker=tracker, label=label, parent=parent
    )
    dialog.setWindowModality(Qt.WindowModality.NonModal)
    dialog.show()
    return dialog
