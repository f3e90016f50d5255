"""``ArgumentCompleter``: a QLineEdit's QCompleter fed by completion/complete, debounced.

Typing (or focusing the field) restarts a single-shot timer; when it fires, one request goes out with the
field's current text and the other arguments already filled in (``context.arguments``). Answers to older
requests are dropped, so a slow server never overwrites newer suggestions. The server's values are shown as
they come (``UnfilteredPopupCompletion``): servers may match fuzzily, and Qt's prefix filter would hide those.
Failures land in ``status`` (shown by the page), never as exceptions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QStringListModel, QTimer, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

from inspector.client.connection import Connection
from inspector.client.errors import ClientError
from inspector.ui.explore.common.support import TaskSet, alive

__all__ = ["ArgumentCompleter"]


class ArgumentCompleter(QObject):
    """Completion for one argument of a prompt (``ref`` ``{"type": "ref/prompt", "name": ...}``) or of a resource
    template (``{"type": "ref/resource", "uri": ...}``)."""

    answered = Signal(str)
    """A completion answer (or failure) for this argument arrived; the argument is the argument's name."""

    DELAY_MS = 250

    def __init__(
        self,
        edit: QLineEdit,
        ref: dict[str, Any],
        argument: str,
        connection: Callable[[], Connection | None],
        context: Callable[[], dict[str, str]],
        tasks: TaskSet,
    ) -> None:
        super().__init__(edit)
        self.edit = edit
        self.ref = ref
        self.argument = argument
        self._connection = connection
        self._context = context
        self._tasks = tasks
        self._generation = 0
        self.enabled = False
        self.values: list[str] = []
        self.total: int | None = None
        self.has_more = False
        self.status = ""
        self.requests = 0
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setMaxVisibleItems(12)
        edit.setCompleter(self.completer)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(self.DELAY_MS)
        self.timer.timeout.connect(self.request_now)
        edit.textEdited.connect(self._schedule)
        edit.installEventFilter(self)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        if not enabled:
            self.timer.stop()
            self._generation += 1
            self.model.setStringList([])
            popup = self.completer.popup()
            if popup is not None:
                popup.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.FocusIn and not self.values:
            self._schedule("")
        return False

    def _schedule(self, _text: str) -> None:
        if self.enabled:
            self.timer.start()

    def request_now(self) -> None:
        """Ask the server for completions of the field's current text (now, not after the pause)."""
        self.timer.stop()
        connection = self._connection()
        if not self.enabled or connection is None or not connection.is_open:
            return
        self._generation += 1
        self.requests += 1
        context = {k: v for k, v in self._context().items() if k != self.argument and v}
        self._tasks.spawn(self._fetch(connection, self._generation, self.edit.text(), context))

    async def _fetch(self, connection: Connection, generation: int, value: str, context: dict[str, str]) -> None:
        argument = {"name": self.argument, "value": value}
        try:
            result = await connection.complete(self.ref, argument, {"arguments": context} if context else None)
        except ClientError as exc:
            if alive(self) and generation == self._generation:
                self.status = f"completion failed: {exc}"
                self.answered.emit(self.argument)
            return
        if not alive(self) or generation != self._generation:
            return
        completion = result.get("completion") if isinstance(result, dict) else None
        raw = completion.get("values") if isinstance(completion, dict) else None
        if not isinstance(raw, list):
            self.status = "completion answer without completion.values"
            self.answered.emit(self.argument)
            return
        self.values = [v for v in raw if isinstance(v, str)][:100]
        total = completion.get("total") if isinstance(completion, dict) else None
        self.total = total if isinstance(total, int) and not isinstance(total, bool) else None
        self.has_more = isinstance(completion, dict) and completion.get("hasMore") is True
        more = " (more available)" if self.has_more else ""
        count = self.total if self.total is not None else len(self.values)
        self.status = f"{count} suggestion{'s' * (count != 1)} for {self.argument}{more}"
        self.model.setStringList(self.values)
        if self.values and self.edit.hasFocus():
            self.completer.complete()
        self.answered.emit(self.argument)
