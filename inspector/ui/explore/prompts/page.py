"""``PromptPage``: one prompt — its header, one field per argument (required ones marked, completion/complete
autocomplete when the server declared ``completions``), "Get", and the messages as a chat transcript.

Prompt arguments are strings: empty optional fields are left out; an empty required field stops "Get" with
the problem shown next to the field. JSON-RPC errors and client failures show in a banner over the transcript.

Arguments that are long text get a multi-line field (``is_long_text``, the one rule): a word of the argument's
name or title (split at ``_``, ``-``, spaces and camelCase) is one of ``LONG_TEXT_WORDS`` (code, text, content,
body, message, query, ...), or its description asks for several lines ("multi-line", "paragraph", ...) or is
longer than ``LONG_DESCRIPTION_CHARS``. Enter there starts a new line; Ctrl+Enter gets the prompt from any
field, Enter in a single-line field too. Multi-line fields have no autocomplete (completion/complete suggests
short values).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, RemoteError
from inspector.client.rounds import RoundNote, watching_rounds
from inspector.content.catalog import CatalogEntry, PromptArgument
from inspector.content.plural import noun, plural
from inspector.content.text import format_duration
from inspector.ui.explore.catalog.split_memory import SplitMemory, fit_split
from inspector.ui.explore.common.gating import set_gated
from inspector.ui.explore.common.panel_tasks import PanelTasks
from inspector.ui.explore.common.support import EntryHeader, EntryPage, alive
from inspector.ui.explore.completion import ArgumentCompleter, asking
from inspector.ui.viewers import TranscriptView, forward_content_signals
from inspector.ui.viewers.error_banner import RemoteErrorBanner
from inspector.ui.viewers.progress_panel import gave_up, round_status
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import section_label
from inspector.ui.widgets.theme import make_primary, small_font_size, themed_style

__all__ = ["LONG_DESCRIPTION_CHARS", "LONG_TEXT_WORDS", "PromptPage", "is_long_text"]

LONG_TEXT_WORDS: Final = frozenset(
    {"code", "text", "content", "contents", "body", "message", "messages", "query", "prompt", "document", "snippet",
     "source", "diff", "patch", "sql", "script", "markdown", "html", "json", "yaml", "xml", "transcript", "essay",
     "article", "notes", "instructions", "description", "summary", "paragraph", "letter", "email", "template"}
)  # fmt: skip
"""Words of an argument's name or title that mark it as long text."""
LONG_DESCRIPTION_CHARS: Final = 120
"""A description longer than this suggests a long answer, too."""
_MULTILINE_HINTS: Final = ("multi-line", "multiline", "multiple lines", "several lines", "paragraph", "long text")
MULTILINE_ROWS: Final = 4


def _words(text: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [word for word in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if word]


def is_long_text(argument: PromptArgument) -> bool:
    """The argument gets a multi-line field (the rule is in the module docstring)."""
    if any(word in LONG_TEXT_WORDS for word in _words(argument.name) + _words(argument.title)):
        return True
    description = argument.description.lower()
    return len(description) > LONG_DESCRIPTION_CHARS or any(hint in description for hint in _MULTILINE_HINTS)


class PromptPage(EntryPage):
    finished = Signal(bool)
    """prompts/get ended: True with messages shown, False on an error."""
    saveRequested = Signal(str, object)
    """"Save to collection": ``prompts/get`` and its params (the arguments filled in now)."""

    MAX_FORM_SHARE = 0.6
    """The form's share of the page's height at most, when it is fitted (the transcript keeps the rest)."""

    def __init__(
        self,
        entry: CatalogEntry,
        connection: Callable[[], Connection | None],
        parent: QWidget | None = None,
        *,
        split: SplitMemory | None = None,
    ) -> None:
        super().__init__(entry, parent)
        self.split_memory = split if split is not None else SplitMemory()
        """The form/transcript split the user chose (shared by the panel's pages); ``fit_split`` when none."""
        self._connection = connection
        self._tasks = PanelTasks(
            self, lambda error: self._show_error("Internal error", f"{type(error).__name__}: {error}")
        )
        self._task: asyncio.Task[None] | None = None
        self.result: dict[str, Any] | None = None
        self.round: RoundNote | None = None
        """2026-07-28: the round of a multi-round-trip prompts/get the last Get reached (None: one round)."""
        self._person = False
        self.error_banner: Banner | None = None

        self.header = EntryHeader(entry, self)
        self.fields: dict[str, QLineEdit] = {}
        """The single-line fields, by argument name."""
        self.text_fields: dict[str, QPlainTextEdit] = {}
        """The multi-line fields (``is_long_text``), by argument name."""
        self.labels: dict[str, QLabel] = {}
        self.field_errors: dict[str, QLabel] = {}
        self.completers: dict[str, ArgumentCompleter] = {}
        form = QFormLayout()
        form.setContentsMargins(12, 4, 12, 4)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        for argument in entry.arguments:
            form.addRow(self._label(argument), self._field(argument, form))
        if not entry.arguments:
            none = QLabel("This prompt takes no arguments.", self)
            themed_style(none, lambda t: f"color: {t.muted};")
            form.addRow(none)
        self.legend = QLabel("* required", self)
        themed_style(self.legend, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.legend.setVisible(any(a.required for a in entry.arguments))

        self.get_button = QPushButton("Get", self)
        self.get_button.setObjectName("getButton")
        self.get_button.setDefault(True)
        self.get_button.setMinimumWidth(96)
        self.get_button.setToolTip(f"Send prompts/get for {entry.name} and show the messages")
        make_primary(self.get_button)
        self.save_call_button = QPushButton("Save to collection", self)
        self.save_call_button.setToolTip("Save this prompts/get (with the arguments filled in) to the Collections tab")
        self.save_call_button.clicked.connect(self.save_to_collection)
        self.status_label = QLabel(self)
        themed_style(self.status_label, lambda t: f"color: {t.muted};")
        self.completion_label = QLabel(self)
        themed_style(self.completion_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        run_row = QHBoxLayout()
        run_row.setContentsMargins(12, 4, 12, 8)
        run_row.addWidget(self.get_button)
        run_row.addWidget(self.status_label, 1)
        run_row.addWidget(self.completion_label)
        run_row.addWidget(self.save_call_button)

        top = QWidget(self)
        self.inputs_box = top
        """The splitter's upper part: header, argument fields, Get."""
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(4)
        top_layout.addWidget(self.header)
        top_layout.addLayout(form)
        legend_row = QHBoxLayout()
        legend_row.setContentsMargins(12, 0, 12, 0)
        legend_row.addWidget(self.legend)
        top_layout.addLayout(legend_row)
        top_layout.addLayout(run_row)
        top_layout.addStretch(1)

        self.transcript = TranscriptView()
        forward_content_signals(self.transcript, self)
        bottom = QWidget(self)
        self._bottom = QVBoxLayout(bottom)
        self._bottom.setContentsMargins(8, 0, 8, 8)
        self._bottom.addWidget(section_label("MESSAGES", bottom))
        self._bottom.addWidget(self.transcript, 1)
        self.transcript.set_messages([])
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(bottom)
        # the form keeps the height it was given, the transcript takes whatever the window grows by
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.split_memory.attach(self.splitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.get_button.clicked.connect(self.get)
        self.get_shortcut = QShortcut(self)
        self.get_shortcut.setKeys([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.get_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.get_shortcut.activated.connect(self.get)
        self.get_shortcut.setWhatsThis("Get the prompt (on its page)")  # listed in Help → Keyboard shortcuts

    # -- the form/transcript split ------------------------------------------------------------------------

    def fitting_height(self) -> int:
        """The height the inputs need to show whole: header, every field, the legend, the Get row."""
        top = self.inputs_box
        width = max(200, top.width())
        height = top.heightForWidth(width) if top.hasHeightForWidth() else -1
        return height if height > 0 else top.sizeHint().height()

    def fit_split(self) -> None:
        """The form takes what it needs (at most ``MAX_FORM_SHARE`` of the page), the transcript the rest."""
        fit_split(self.splitter, self.fitting_height(), self.MAX_FORM_SHARE, self.inputs_box.minimumSizeHint().height())

    def _apply_split(self) -> None:
        """The split the user chose (on any prompt's page), else the fitted one."""
        self.split_memory.apply_or_fit(self, self.splitter, self.fit_split)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, self._apply_split)  # once the page has its size

    def _label(self, argument: PromptArgument) -> QLabel:
        text = argument.title or argument.name
        label = QLabel(f"{text} *" if argument.required else text, self)
        if argument.required:
            bold = QFont(label.font())
            bold.setBold(True)
            label.setFont(bold)
        label.setToolTip(("Required. " if argument.required else "Optional. ") + argument.description)
        self.labels[argument.name] = label
        return label

    def _field(self, argument: PromptArgument, form: QFormLayout) -> QWidget:
        if is_long_text(argument):
            return self._text_field(argument)
        edit = QLineEdit(self)
        edit.setObjectName(f"arg:{argument.name}")
        edit.setPlaceholderText(argument.description or ("required" if argument.required else "optional"))
        edit.setToolTip(argument.description)
        edit.returnPressed.connect(self.get)
        self.fields[argument.name] = edit
        error = QLabel(self)
        themed_style(error, lambda t: f"color: {t.error_fg}; font-size: {small_font_size()};")
        error.hide()
        self.field_errors[argument.name] = error
        edit.textEdited.connect(lambda _text, e=error: e.hide())
        ref = {"type": "ref/prompt", "name": self.entry.name}
        completer = ArgumentCompleter(
            edit, argument.name, asking(ref, argument.name, self._connection), self.values, self._tasks
        )
        completer.answered.connect(lambda _name, c=completer: self.completion_label.setText(c.status))
        self.completers[argument.name] = completer
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        column.addWidget(edit)
        column.addWidget(error)
        return box

    def _text_field(self, argument: PromptArgument) -> QWidget:
        """A multi-line field: Enter adds a line, Tab moves on, Ctrl+Enter gets the prompt."""
        edit = QPlainTextEdit(self)
        edit.setObjectName(f"arg:{argument.name}")
        edit.setPlaceholderText(argument.description or ("required" if argument.required else "optional"))
        edit.setToolTip((argument.description + "\n\n" if argument.description else "") + "Ctrl+Enter: Get")
        edit.setTabChangesFocus(True)
        edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        line = QFontMetrics(edit.font()).lineSpacing()
        margins = edit.contentsMargins()
        frame = 2 * edit.frameWidth() + int(edit.document().documentMargin() * 2) + margins.top() + margins.bottom()
        edit.setFixedHeight(line * MULTILINE_ROWS + frame)
        self.text_fields[argument.name] = edit
        error = QLabel(self)
        themed_style(error, lambda t: f"color: {t.error_fg}; font-size: {small_font_size()};")
        error.hide()
        self.field_errors[argument.name] = error
        edit.textChanged.connect(error.hide)
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        column.addWidget(edit)
        column.addWidget(error)
        return box

    def text_of(self, name: str) -> str:
        """The text of argument ``name``'s field, single- or multi-line."""
        if name in self.text_fields:
            return self.text_fields[name].toPlainText()
        return self.fields[name].text()

    # -- state -------------------------------------------------------------------------------------------

    def form_label(self, name: str) -> str:
        """The label text of argument ``name`` (``name *`` when required)."""
        return self.labels[name].text()

    def values(self) -> dict[str, str]:
        """The arguments to send: every filled field (empty optional fields are left out)."""
        names = [a.name for a in self.entry.arguments if a.name in self.fields or a.name in self.text_fields]
        return {name: self.text_of(name) for name in names if self.text_of(name) != ""}

    def set_values(self, values: dict[str, str]) -> None:
        for name, value in values.items():
            if name in self.fields:
                self.fields[name].setText(value)
            elif name in self.text_fields:
                self.text_fields[name].setPlainText(value)

    def set_unavailable(self, reason: str | None, completion_gap: str | None) -> None:
        """Gate "Get" (not connected / no prompts capability) and completions (no completions capability)."""
        set_gated(self.get_button, reason)
        for completer in self.completers.values():
            completer.set_enabled(reason is None and completion_gap is None)
        if self.completers:
            text = "" if completion_gap is None else f"No autocomplete: {completion_gap}"
            self.completion_label.setText(text if reason is None else "")
            self.completion_label.setToolTip(completion_gap or "Suggestions come from completion/complete")

    def missing(self) -> list[str]:
        return [a.name for a in self.entry.arguments if a.required and not self.text_of(a.name)]

    # -- commands ----------------------------------------------------------------------------------------

    def save_to_collection(self) -> None:
        params: dict[str, object] = {"name": self.entry.name}
        values = self.values()
        if values:
            params["arguments"] = values
        self.saveRequested.emit("prompts/get", params)

    def get(self) -> bool:
        if self.running or not self.get_button.isEnabled():
            return False
        missing = self.missing()
        for name, label in self.field_errors.items():
            label.setText("required" if name in missing else "")
            label.setVisible(name in missing)
        if missing:
            self.status_label.setText(f"Fill in the required {noun(len(missing), 'argument')}: {', '.join(missing)}")
            return False
        connection = self._connection()  # the panel's live_connection
        if connection is None:
            self.status_label.setText("Not connected.")
            return False
        self._clear_error()
        self.status_label.setText("Getting…")
        self.get_button.setEnabled(False)
        self._task = self._tasks.spawn(self._get(connection, self.values()))
        return True

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def shutdown(self) -> None:
        self._tasks.cancel_all()

    async def _get(self, connection: Connection, arguments: dict[str, str]) -> None:
        started = asyncio.get_running_loop().time()
        self.round = None
        unwatch = connection.watch_person(self._on_person)
        try:
            with watching_rounds(self._on_round):
                result = await connection.get_prompt(self.entry.name, arguments or None)
        except RemoteError as exc:
            self._done()
            if alive(self):  # -32020/-32021/-32022 and the others with an MCP meaning explained from their data
                self._show_banner(RemoteErrorBanner(exc.code, exc.message, exc.data, "prompts/get", self))
            return
        except ClientError as exc:
            self._done()
            title, lines = gave_up(self.round, str(exc)) or ("prompts/get did not complete", [str(exc)])
            self._show_error(title, *lines)
            return
        finally:
            unwatch()
        if not alive(self):
            return
        self._done()
        elapsed = asyncio.get_running_loop().time() - started
        if not isinstance(result, dict):
            self._show_error("The answer is not a prompts/get result", repr(result)[:500])
            return
        self.result = result
        description = result.get("description")
        self.transcript.set_messages(result.get("messages"), description=description if description else None)
        count = len(result["messages"]) if isinstance(result.get("messages"), list) else 0
        self.status_label.setText(f"{plural(count, 'message')} · {format_duration(elapsed)}")
        self.finished.emit(True)

    def _on_round(self, note: RoundNote) -> None:
        """2026-07-28: the prompt's request is in a later round; the status line says which, and for whom."""
        self.round = note
        if alive(self):
            self.status_label.setText(round_status(note, person=self._person))

    def _on_person(self, waiting: bool) -> None:
        self._person = waiting
        if alive(self) and self.round is not None and not self.round.sent:
            self.status_label.setText(round_status(self.round, person=waiting))

    def _done(self) -> None:
        if alive(self):
            self.get_button.setEnabled(self.get_button.property("gateReason") in (None, ""))

    def _show_error(self, title: str, *details: str) -> None:
        if alive(self):
            self._show_banner(Banner("error", title, list(details), self))

    def _show_banner(self, banner: Banner) -> None:
        self._clear_error()
        self.status_label.setText("Failed")
        self.error_banner = banner
        self._bottom.insertWidget(1, self.error_banner)
        self.transcript.set_messages([])
        self.result = None
        self.get_button.setEnabled(self.get_button.property("gateReason") in (None, ""))
        self.finished.emit(False)

    def _clear_error(self) -> None:
        if self.error_banner is not None:
            self.error_banner.hide()
            self.error_banner.deleteLater()
            self.error_banner = None
