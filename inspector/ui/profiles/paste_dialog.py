"""Paste an ``mcpServers`` JSON snippet: a text box read as you type, the entries' preview, Import.

The import dialog without its file row (the same preview, warnings and checkboxes, ``selected_profiles()``),
reading ``inspector.store.snippets.parse_snippet`` a moment after each keystroke. Malformed JSON is named by line
and column under the box, and that line is marked in it. ``editor`` and ``status_label`` are attributes for tests;
``set_text()`` replaces the text and reads it at once.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QWidget

from inspector.content.plural import plural
from inspector.store.secrets import SecretStore
from inspector.store.snippets import Snippet, parse_snippet
from inspector.ui.profiles.import_dialog import ImportDialog
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font
from inspector.ui.widgets.theme_colours import translucent
from inspector.ui.widgets.timers import coalescer

__all__ = ["PasteDialog"]

PARSE_DELAY_MS: Final = 200
_PLACEHOLDER: Final = """{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    }
  }
}"""


class PasteDialog(ImportDialog):
    what = "snippet"

    def __init__(self, parent: QWidget | None = None, *, secrets: SecretStore | None = None) -> None:
        super().__init__(parent, secrets=secrets, pick_file=False)
        self.setWindowTitle("Paste an mcpServers snippet")
        self.snippet = Snippet()
        self.intro.setText(
            "Paste the servers part of a config file (a whole file, the mcpServers object, or one server). It is "
            f"read as you type. Secret-looking variables and headers go to "
            f"{secrets.where if secrets is not None else 'the secret store'}."
        )
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName("mcpServers JSON snippet")
        self.editor.setPlaceholderText(_PLACEHOLDER)
        follow_font(self.editor, "mono")
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setTabChangesFocus(True)
        self.status_label = QLabel("Paste a snippet above: its servers are listed here.")
        self.status_label.setWordWrap(True)
        self.source_row.addWidget(self.editor, 2)
        self.source_row.addWidget(self.status_label)
        self.resize(760, 620)
        self._parse_timer = coalescer(self, PARSE_DELAY_MS, self.reparse)
        self.editor.textChanged.connect(self._parse_timer.start)
        self.editor.textChanged.connect(self._unmark)  # the error's place is stale once the text changes

    def set_text(self, text: str) -> Snippet:
        self.editor.setPlainText(text)
        return self.reparse()

    def reparse(self) -> Snippet:
        """Read the box now (the timer's slot)."""
        self._parse_timer.stop()
        snippet = self.snippet = parse_snippet(self.editor.toPlainText())
        self.show_result(snippet.result)
        self.source_label.setText("")
        self._mark_error_line(snippet)
        if snippet.empty:
            self.status_label.setText("Paste a snippet above: its servers are listed here.")
        elif snippet.line is not None:
            self.status_label.setText(f"Not valid JSON yet: line {snippet.line}, column {snippet.column}.")
        else:
            found = plural(len(snippet.result.entries), "server")
            self.status_label.setText(f"{found} found." if snippet.result.entries else "No servers found.")
        return snippet

    def _unmark(self) -> None:
        if self.editor.extraSelections():
            self.editor.setExtraSelections([])

    def _mark_error_line(self, snippet: Snippet) -> None:
        """The error's line tinted, and the character at its column underlined (past the end: the last one)."""
        if snippet.line is None:
            self.editor.setExtraSelections([])
            return
        block = self.editor.document().findBlockByLineNumber(snippet.line - 1)
        line = QTextEdit.ExtraSelection()
        line.cursor = QTextCursor(block)
        error = tones().error_fg
        line.format.setBackground(translucent(error, 40))
        line.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        spot = QTextCursor(block)
        column = max(0, min((snippet.column or 1) - 1, block.length() - 2))
        spot.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor, column)
        spot.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor)
        char = QTextEdit.ExtraSelection()
        char.cursor = spot
        char.format.setBackground(translucent(error, 110))
        char.format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        char.format.setUnderlineColor(QColor(error))
        self.editor.setExtraSelections([line, char])

    def error_mark(self) -> tuple[int, int] | None:
        """The marked (line, column), 1-based, or None."""
        marks = self.editor.extraSelections()
        if not marks:
            return None
        cursor = QTextCursor(marks[-1].cursor)
        cursor.setPosition(cursor.selectionStart())
        return cursor.blockNumber() + 1, cursor.positionInBlock() + 1
