"""``ArgumentCompleter``: a QLineEdit's QCompleter fed by completion/complete, debounced — the one autocompleter
of prompt arguments and resource-template variables.

Typing (or focusing the field) restarts a single-shot timer; when it fires, one request goes out with the
field's current text and the other arguments already filled in (``context.arguments``). Answers for an older
text of the field are dropped, so a slow server never overwrites newer suggestions. The server's values are
shown as they come (``UnfilteredPopupCompletion``): servers may match fuzzily, and Qt's prefix filter would hide
those. Failures land in ``status`` (with its ``tone``, shown by the page), never as exceptions.

How a request is made is the caller's (an ``Ask``): ``asking(ref, argument, connection)`` asks a connection
about a prompt or a template reference; the resource templates' form asks through its panel.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

from inspector.client.connection import Connection
from inspector.client.errors import ClientError
from inspector.content.plural import plural
from inspector.content.templates import CompletionResult, completion_context, parse_completion
from inspector.ui.explore.common.panel_tasks import PanelTasks, failure_line
from inspector.ui.explore.common.support import alive
from inspector.ui.widgets.timers import coalescer

__all__ = ["MAX_SUGGESTIONS", "ArgumentCompleter", "Ask", "asking"]

Ask = Callable[[str, dict[str, Any] | None], Awaitable[CompletionResult] | None]
"""``ask(value, context)``: the server's answer for the field's text (raising ClientError), or None when no
request can be made now (no live connection)."""
MAX_SUGGESTIONS: Final = 100
"""The most values shown (what the spec allows in one answer)."""


def asking(ref: dict[str, Any], argument: str, connection: Callable[[], Connection | None]) -> Ask:
    """An ``Ask`` sending ``completion/complete`` for ``argument`` of ``ref`` over the current connection."""

    def ask(value: str, context: dict[str, Any] | None) -> Awaitable[CompletionResult] | None:
        live = connection()
        return None if live is None else _complete(live, ref, {"name": argument, "value": value}, context)

    return ask


async def _complete(
    connection: Connection, ref: dict[str, Any], argument: dict[str, str], context: dict[str, Any] | None
) -> CompletionResult:
    return parse_completion(await connection.complete(ref, argument, context))


class ArgumentCompleter(QObject):
    """Completion for one argument of a prompt (``ref`` ``{"type": "ref/prompt", "name": ...}``) or one variable
    of a resource template (``{"type": "ref/resource", "uri": ...}``), asked through ``ask``; ``context`` gives
    every field's text (the others filled go along). ``on_focus``: also ask when the empty field takes the focus.
    """

    answered = Signal(str)
    """A completion answer (or failure) for this argument arrived; the argument is the argument's name."""

    DELAY_MS = 250

    def __init__(
        self,
        edit: QLineEdit,
        argument: str,
        ask: Ask,
        context: Callable[[], dict[str, str]],
        tasks: PanelTasks,
        *,
        on_focus: bool = True,
    ) -> None:
        super().__init__(edit)
        self.edit = edit
        self.argument = argument
        self._ask = ask
        self._context = context
        self._tasks = tasks
        self._on_focus = on_focus
        self._generation = 0
        self.enabled = False
        self.values: list[str] = []
        self.total: int | None = None
        self.has_more = False
        self.status = ""
        self.tone = "muted"
        """muted, warning (a malformed answer) or error (the request failed)."""
        self.requests = 0
        self.answers = 0
        """Answers applied to the field."""
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setMaxVisibleItems(12)
        edit.setCompleter(self.completer)
        self.timer = coalescer(self, self.DELAY_MS, self.request_now)
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
        if self._on_focus and watched is self.edit and event.type() == QEvent.Type.FocusIn and not self.values:
            self._schedule("")
        return False

    def _schedule(self, _text: str) -> None:
        self._generation += 1  # an answer for the text before this edit is stale
        if self.enabled:
            self.timer.start()

    def request_now(self) -> None:
        """Ask the server for completions of the field's current text (now, not after the pause)."""
        self.timer.stop()
        if not self.enabled:
            return
        value = self.edit.text()
        pending = self._ask(value, completion_context(self._context(), exclude=self.argument))
        if pending is None:  # no live connection
            return
        self._generation += 1
        self.requests += 1
        self._tasks.spawn(self._fetch(pending, self._generation, value))

    async def _fetch(self, pending: Awaitable[CompletionResult], generation: int, value: str) -> None:
        try:
            result = await pending
        except ClientError as exc:
            if alive(self) and generation == self._generation:
                # a server's error with what it means (-32020/21/22 ... read from its data)
                self._say(f"completion of {self.argument} failed: {failure_line(exc, 'completion/complete')}", "error")
            return
        if not alive(self) or generation != self._generation:
            return
        self.values = list(result.values[:MAX_SUGGESTIONS])
        self.total = result.total
        self.has_more = result.has_more
        more = " (more available)" if self.has_more else ""
        shown = len(self.values)
        total = self.total
        count = (
            plural(shown, "suggestion")
            if total is None or total == shown
            else f"{shown} of {plural(total, 'suggestion')}"
        )
        self.model.setStringList(self.values)
        self.answers += 1
        if self.values and self.edit.hasFocus() and self.values != [value]:
            self.completer.complete()
        message = f"{count} for {self.argument}{more}"
        if result.problem:
            self._say(f"{message}; {result.problem}", "warning")
        else:
            self._say(message, "muted")

    def _say(self, status: str, tone: str) -> None:
        self.status = status
        self.tone = tone
        self.answered.emit(self.argument)
