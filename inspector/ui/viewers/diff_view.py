"""``DiffView``: a unified diff of two texts, added lines green, removed lines red, hunks highlighted."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QTextEdit, QVBoxLayout, QWidget

from inspector.content.diff import DiffLineKind, TextDiff, diff_texts
from inspector.ui.viewers.text_widgets import FitPlainTextEdit
from inspector.ui.widgets.style import hbox, tones
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["DiffView"]

_COLOURED_LINES = 20_000
"""Lines beyond this are shown uncoloured (extra selections cost memory per line)."""


class DiffView(QWidget):
    """Shows ``diff_texts(old, new)``; ``diff`` holds the classified lines, ``line_colors()`` what is painted."""

    def __init__(self, parent: QWidget | None = None, *, fit: bool = False) -> None:
        super().__init__(parent)
        self.diff = TextDiff()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = hbox(spacing=8)
        t = tones(self)
        self.added_label = QLabel(self)
        themed_style(self.added_label, lambda t: f"color: {t.ok_fg}; font-weight: 600;")
        self.removed_label = QLabel(self)
        themed_style(self.removed_label, lambda t: f"color: {t.error_fg}; font-weight: 600;")
        self.note_label = QLabel(self)
        themed_style(self.note_label, lambda t: f"color: {t.muted};")
        self.note_label.setWordWrap(True)
        row.addWidget(self.added_label)
        row.addWidget(self.removed_label)
        row.addWidget(self.note_label, 1)
        layout.addLayout(row)
        self.editor = FitPlainTextEdit(self, fit=fit)
        follow_font(self.editor, "mono")
        self.editor.setLineWrapMode(FitPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.editor, 1)
        self._colors: dict[DiffLineKind, tuple[QColor | None, QColor | None]] = {
            DiffLineKind.ADDED: (QColor(t.added_bg), QColor(t.ok_fg)),
            DiffLineKind.REMOVED: (QColor(t.removed_bg), QColor(t.error_fg)),
            DiffLineKind.HUNK: (None, QColor(t.hunk_fg)),
            DiffLineKind.HEADER: (None, QColor(t.muted)),
            DiffLineKind.CONTEXT: (None, None),
        }

    def set_texts(self, old: str, new: str, *, old_label: str = "previous", new_label: str = "current") -> None:
        self.set_diff(diff_texts(old, new, old_label=old_label, new_label=new_label))

    def set_diff(self, diff: TextDiff) -> None:
        self.diff = diff
        self.added_label.setText(f"+{diff.added}")
        self.removed_label.setText(f"\N{MINUS SIGN}{diff.removed}")
        if diff.identical:
            self.note_label.setText("No changes: the new text is identical to the previous one.")
        else:
            self.note_label.setText(diff.note)
        self.editor.setPlainText(diff.as_text())
        self._paint()

    def summary(self) -> str:
        if self.diff.identical:
            return "no changes"
        if self.diff.note and not self.diff.lines:
            return "changed"
        return f"+{self.diff.added} \N{MINUS SIGN}{self.diff.removed}"

    def line_colors(self) -> list[tuple[int, str]]:
        """(line number, background colour name) of every painted line, for tests and tools."""
        out: list[tuple[int, str]] = []
        for selection in self.editor.extraSelections():
            background = selection.format.background().color()  # type: ignore[attr-defined]
            out.append((selection.cursor.blockNumber(), background.name()))  # type: ignore[attr-defined]
        return out

    def _paint(self) -> None:
        selections: list[QTextEdit.ExtraSelection] = []
        document = self.editor.document()
        for number, line in enumerate(self.diff.lines[:_COLOURED_LINES]):
            background, foreground = self._colors[line.kind]
            if background is None and foreground is None:
                continue
            text_format = QTextCharFormat()
            if background is not None:
                text_format.setBackground(background)
                text_format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            if foreground is not None:
                text_format.setForeground(foreground)
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(document.findBlockByNumber(number))
            if background is None:
                cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor  # type: ignore[attr-defined]
            selection.format = text_format  # type: ignore[attr-defined]
            selections.append(selection)
        self.editor.setExtraSelections(selections)
