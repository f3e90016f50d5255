"""Answer the server's requests with dialogs: one at a time, in arrival order, never blocking the event loop.

``GuiRequestHandlers`` implements ``inspector.client.handlers.ServerRequestHandlers``. Each sampling or
elicitation request joins a queue; the first one gets its dialog, opened with ``open()`` (never ``exec()``) and
awaited through an asyncio future, so other traffic keeps flowing. ``pendingChanged(n)`` carries the queue
length for the "N pending" indicator. When the connection cancels a handler task (the server withdrew its
request, or the connection dropped), the dialog closes without answering and the next one opens; when it was
the server that cancelled, a notice (``notice``) says so. While a dialog waits for the person, the connection's
request timeouts are held (``asking_a_person``): the call that made the server ask cannot time out meanwhile.

Sampling with the profile's auto-reply on is answered at once, without a dialog (``autoReplied`` counts them).
``roots/list`` is answered from ``roots`` (editable while connected; see ``inspector.ui.connection.roots``).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from inspector.client.handlers import (
    HandlerError,
    RequestInfo,
    asking_a_person,
    current_request,
    withdrawn_by_server,
)
from inspector.protocol.events import NotificationReceived
from inspector.protocol.jsonrpc import INVALID_PARAMS
from inspector.store.canned_replies import CannedReplies
from inspector.store.profiles.sections import SamplingAutoReply
from inspector.ui.server_requests.base import RequestDialog
from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.server_requests.sampling_dialog import SamplingDialog, rejection
from inspector.ui.server_requests.url_elicitation import Opener, UrlElicitationDialog, UrlElicitationTracker

if TYPE_CHECKING:
    from inspector.ui.connection.controller import ConnectionController

__all__ = ["GuiRequestHandlers", "PendingRequest", "url_tracker_of"]


@dataclass(eq=False)
class PendingRequest:
    """A server request waiting for (or shown in) a dialog."""

    kind: str
    """``sampling``, ``elicitation`` or ``url``."""
    params: dict[str, Any]
    info: RequestInfo | None
    future: asyncio.Future[dict[str, Any]]
    received: float = field(default_factory=time.time)
    dialog: RequestDialog | None = None


def _elicitation_modes(capabilities: dict[str, Any] | None) -> set[str] | None:
    """Modes the client declared (None: unknown, allow all). ``elicitation: {}`` meant form mode only."""
    if capabilities is None:
        return None
    declared = capabilities.get("elicitation")
    if not isinstance(declared, dict):
        return set()
    modes = {mode for mode in ("form", "url") if mode in declared}
    return modes or {"form"}


class GuiRequestHandlers(QObject):
    """Dialogs for sampling and elicitation; roots from an editable list. See the module docstring."""

    pendingChanged = Signal(int)
    dialogOpened = Signal(object)
    requestWithdrawn = Signal(str)
    autoReplyChanged = Signal(bool)
    autoReplied = Signal(int)
    rootsChanged = Signal()

    def __init__(
        self,
        *,
        label: str = "",
        roots: Sequence[dict[str, Any]] = (),
        auto_reply: SamplingAutoReply | None = None,
        capabilities: dict[str, Any] | None = None,
        opener: Opener | None = None,
        canned: CannedReplies | None = None,
        dialog_parent: QWidget | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.label = label
        self.roots: list[dict[str, Any]] = [dict(root) for root in roots]
        self.auto_reply = replace(auto_reply) if auto_reply is not None else SamplingAutoReply()
        self.capabilities = capabilities
        self.opener = opener
        self._canned = canned
        self.dialog_parent = dialog_parent
        self.parent_provider: Callable[[], QWidget | None] | None = None
        """Asked for the dialogs' parent when ``dialog_parent`` is not set (the indicator provides its window)."""
        self.url_tracker = UrlElicitationTracker(self)
        self.queue: list[PendingRequest] = []
        self.current: PendingRequest | None = None
        self.auto_replied = 0
        self.answered: list[tuple[str, Any]] = []
        """(kind, outcome) of every request answered through a dialog, in order (for tests and the status)."""
        self._controller: weakref.ref[ConnectionController] | None = None
        self.notice: QMessageBox | None = None
        """The notice shown when the server cancelled a request whose dialog was open (until dismissed)."""

    # -- wiring ----------------------------------------------------------------------------------

    def bind_controller(self, controller: ConnectionController) -> None:
        """Called by the controller when it connects with these handlers: notifications feed the URL tracker.

        Only a weak reference is kept: the controller holds these handlers (in its settings), and a reference
        cycle between QObjects would leave their deletion to the garbage collector, on any thread.
        """
        previous = self._controller() if self._controller is not None else None
        if previous is controller:
            return
        if previous is not None:
            previous.notificationReceived.disconnect(self._on_notification)
        self._controller = weakref.ref(controller)
        controller.notificationReceived.connect(self._on_notification)

    def _on_notification(self, event: object) -> None:
        if isinstance(event, NotificationReceived):
            self.url_tracker.on_notification(event)

    @property
    def canned(self) -> CannedReplies:
        if self._canned is None:
            self._canned = CannedReplies()
        return self._canned

    @property
    def pending(self) -> int:
        return len(self.queue)

    @property
    def auto_reply_active(self) -> bool:
        return self.auto_reply.enabled

    def set_auto_reply(self, enabled: bool, text: str | None = None) -> None:
        if text is not None:
            self.auto_reply.text = text
        if enabled != self.auto_reply.enabled:
            self.auto_reply.enabled = enabled
            self.autoReplyChanged.emit(enabled)

    def set_roots(self, roots: Sequence[dict[str, Any]]) -> None:
        self.roots = [dict(root) for root in roots]
        self.rootsChanged.emit()

    # -- ServerRequestHandlers -------------------------------------------------------------------

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.auto_reply.enabled:
            self.auto_replied += 1
            self.autoReplied.emit(self.auto_replied)
            a = self.auto_reply
            result: dict[str, Any] = {
                "role": "assistant",
                "content": {"type": "text", "text": a.text or "Automatic reply from MCP Inspector."},
                "model": a.model or "mcp-inspector-auto-reply",
            }
            if a.stop_reason:
                result["stopReason"] = a.stop_reason
            return result
        return await self._ask("sampling", params)

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        mode = params.get("mode", "form")
        if mode not in ("form", "url"):
            raise HandlerError(INVALID_PARAMS, f"Unsupported elicitation mode: {mode!r}")
        allowed = _elicitation_modes(self.capabilities)
        if allowed is not None and mode not in allowed:
            raise HandlerError(INVALID_PARAMS, f"The client did not declare elicitation {mode} mode")
        return await self._ask("url" if mode == "url" else "elicitation", params)

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"roots": [dict(root) for root in self.roots]}

    # -- the queue -------------------------------------------------------------------------------

    async def _ask(self, kind: str, params: dict[str, Any]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        entry = PendingRequest(kind, params, current_request.get(), loop.create_future())
        self.queue.append(entry)
        self._changed()
        self._show_next()
        try:
            with asking_a_person():  # the request that made the server ask must not time out meanwhile
                return await entry.future
        except asyncio.CancelledError as exc:
            what = {"sampling": "sampling request", "elicitation": "elicitation", "url": "URL elicitation"}[kind]
            if withdrawn_by_server(exc):
                rid = f" (id {entry.info.id!r})" if entry.info is not None else ""
                message = (
                    f"The server cancelled its {what}{rid} before you answered: it no longer waits for an answer, "
                    "so the dialog was closed and nothing was sent."
                )
                if entry.dialog is not None:
                    self._notify_withdrawn(message)
            else:
                message = f"The {what} was withdrawn: the connection ended before you answered."
            self.requestWithdrawn.emit(message)
            raise
        finally:
            self._done(entry)

    def _notify_withdrawn(self, message: str) -> None:
        """A visible, non-blocking notice: the dialog the person was looking at vanishes, this says why."""
        if self.notice is not None:
            self.notice.close()
        box = QMessageBox(QMessageBox.Icon.Information, "The server gave up", message, parent=self._parent())
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _code, b=box: self._forget_notice(b))
        self.notice = box
        box.show()

    def _forget_notice(self, box: QMessageBox) -> None:
        if self.notice is box:
            self.notice = None

    def _changed(self) -> None:
        count = len(self.queue)
        for entry in self.queue:
            if entry.dialog is not None:
                entry.dialog.set_waiting(count - 1)
        self.pendingChanged.emit(count)

    def _show_next(self) -> None:
        if self.current is not None:
            return
        entry = next((e for e in self.queue if e.dialog is None and not e.future.done()), None)
        if entry is None:
            return
        dialog = self._dialog_for(entry)
        entry.dialog = dialog
        self.current = entry
        dialog.set_waiting(len(self.queue) - 1)
        dialog.answered.connect(lambda outcome, e=entry: self._resolve(e, outcome))
        dialog.finished.connect(lambda _code, e=entry: self._on_closed(e))
        dialog.open()
        self.dialogOpened.emit(dialog)

    def _parent(self) -> QWidget | None:
        if self.dialog_parent is not None:
            return self.dialog_parent
        provided = self.parent_provider() if self.parent_provider is not None else None
        if provided is not None:
            return provided
        active = QApplication.activeWindow()
        return active if not isinstance(active, RequestDialog) else None

    def _dialog_for(self, entry: PendingRequest) -> RequestDialog:
        parent, info, label = self._parent(), entry.info, self.label
        if entry.kind == "sampling":
            return SamplingDialog(entry.params, info=info, label=label, canned=self.canned, parent=parent)
        if entry.kind == "url":
            return UrlElicitationDialog(
                params=entry.params, info=info, label=label, opener=self.opener, tracker=self.url_tracker, parent=parent
            )
        return ElicitationDialog(entry.params, info=info, label=label, parent=parent)

    def _resolve(self, entry: PendingRequest, outcome: Any) -> None:
        if entry.future.done():
            return
        if outcome is None:  # closed without deciding: the spec's "dismissed"
            outcome = rejection() if entry.kind == "sampling" else {"action": "cancel"}
        self.answered.append((entry.kind, outcome))
        if isinstance(outcome, HandlerError):
            entry.future.set_exception(outcome)
        else:
            entry.future.set_result(outcome)

    def _on_closed(self, entry: PendingRequest) -> None:
        dialog = entry.dialog
        if dialog is not None and dialog.withdrawn is None and not dialog.decided:
            self._resolve(entry, None)

    def _done(self, entry: PendingRequest) -> None:
        if entry in self.queue:
            self.queue.remove(entry)
        dialog = entry.dialog
        if dialog is not None:
            if not dialog.decided:
                dialog.withdraw("the request is gone")
                dialog.deleteLater()
            elif not dialog.linger:
                dialog.deleteLater()
        if self.current is entry:
            self.current = None
        self._changed()
        self._show_next()


def url_tracker_of(controller: ConnectionController) -> UrlElicitationTracker | None:
    """The URL-elicitation tracker of a controller's live handlers (for ``explain_url_elicitation_required``)."""
    handlers = controller.connection.handlers if controller.connection is not None else controller.settings.handlers
    return handlers.url_tracker if isinstance(handlers, GuiRequestHandlers) else None
