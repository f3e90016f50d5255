"""Pygments colours for a QPlainTextEdit, applied only to the lines on screen.

``QSyntaxHighlighter`` re-highlights the whole document whenever its text is set, which costs
seconds for a large payload. Pretty JSON has no token spanning lines, so each line can be lexed
on its own: ``LazyHighlighter`` lexes the blocks that are visible (after a scroll, a resize or new
text) with pygments and hands the formats to the block's layout, the way QSyntaxHighlighter does
internally. Blocks highlighted once are remembered through their user state.
"""

from __future__ import annotations

from typing import Any, Final

from pygments.lexer import Lexer
from pygments.lexers import JsonLexer
from pygments.styles import get_style_by_name
from pygments.token import Token, _TokenType
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import (
    QColor,
    QFont,
    QTextBlock,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextLayout,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from inspector.ui.widgets.style import DARK, LIGHT, tones
from inspector.ui.widgets.theme import theme_manager
from inspector.ui.widgets.theme_colours import translucent
from inspector.ui.widgets.timers import coalescer

__all__ = ["DARK_STYLE", "LIGHT_STYLE", "LazyHighlighter", "TokenFormats", "mark_lines"]

LIGHT_STYLE: Final = LIGHT.log_style
DARK_STYLE: Final = DARK.log_style
_DONE: Final = 1
_MAX_LINE: Final = 2000
"""Only the first characters of a very long line are coloured."""
_MAX_MARKED_LINES: Final = 5000


class TokenFormats:
    """QTextCharFormats for pygments token types, from a pygments style."""

    def __init__(self, style_name: str | None = None) -> None:
        if style_name is None:
            style_name = tones().log_style
        self._style = get_style_by_name(style_name)
        self._cache: dict[_TokenType, QTextCharFormat | None] = {}

    def format_for(self, ttype: _TokenType) -> QTextCharFormat | None:
        if ttype in self._cache:
            return self._cache[ttype]
        spec: dict[str, Any] = self._style.style_for_token(ttype)
        fmt: QTextCharFormat | None = None
        if spec.get("color") or spec.get("bold") or spec.get("italic"):
            fmt = QTextCharFormat()
            if spec.get("color"):
                fmt.setForeground(QColor(f"#{spec['color']}"))
            if spec.get("bold"):
                fmt.setFontWeight(QFont.Weight.Bold)
            if spec.get("italic"):
                fmt.setFontItalic(True)
        if ttype in Token.Error:
            fmt = None
        self._cache[ttype] = fmt
        return fmt


class LazyHighlighter(QObject):
    """Colours the visible blocks of ``editor`` (see the module docstring)."""

    def __init__(self, editor: QPlainTextEdit, lexer: Lexer | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._lexer = lexer or JsonLexer()
        self._formats = TokenFormats()
        self._enabled = True
        self.highlighted_blocks = 0
        """How many blocks were coloured since the last reset (for tests and benchmarks)."""
        self._timer = coalescer(self, 0, self.apply)
        editor.verticalScrollBar().valueChanged.connect(self.schedule)
        editor.document().contentsChanged.connect(self.schedule)
        editor.viewport().installEventFilter(self)
        theme_manager().changed.connect(self.retheme)

    def retheme(self) -> None:
        """The theme changed: the text's colours from its style, every block coloured again (those on screen now)."""
        self._formats = TokenFormats()
        block = self._editor.document().firstBlock()
        while block.isValid():
            if block.userState() == _DONE:
                block.setUserState(-1)
            block = block.next()
        self.schedule()

    def set_enabled(self, enabled: bool) -> None:
        self._enabled = enabled
        if enabled:
            self.schedule()

    def reset(self) -> None:
        """New text was set: start counting again and colour what is on screen."""
        self.highlighted_blocks = 0
        self.schedule()

    def schedule(self) -> None:
        if self._enabled and not self._timer.isActive():
            self._timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.schedule()
        return False

    def apply(self) -> None:
        """Colour the blocks on screen that were not coloured yet."""
        if not self._enabled:
            return
        editor = self._editor
        doc = editor.document()
        block = editor.firstVisibleBlock()
        offset = editor.contentOffset()
        height = editor.viewport().height()
        first_pos: int | None = None
        last_end = 0
        while block.isValid():
            top = editor.blockBoundingGeometry(block).translated(offset).top()
            if top > height:
                break
            if block.userState() != _DONE:
                ranges = self._ranges(block.text())
                layout = block.layout()
                if layout is not None:
                    layout.setFormats(ranges)
                block.setUserState(_DONE)
                self.highlighted_blocks += 1
                if first_pos is None:
                    first_pos = block.position()
                last_end = block.position() + block.length()
            block = block.next()
        if first_pos is not None:
            doc.markContentsDirty(first_pos, last_end - first_pos)

    def _ranges(self, text: str) -> list[QTextLayout.FormatRange]:
        out: list[QTextLayout.FormatRange] = []
        if not text.strip():
            return out
        for start, ttype, value in self._lexer.get_tokens_unprocessed(text[:_MAX_LINE]):
            fmt = self._formats.format_for(ttype)
            if fmt is None or not value.strip():
                continue
            r = QTextLayout.FormatRange()
            r.start = start
            r.length = len(value)
            r.format = fmt
            out.append(r)
        return out


def mark_lines(editor: QPlainTextEdit, first: int, last: int) -> QTextBlock:
    """Tint lines ``first..last`` (0-based, full width) with extra selections; returns the first block."""
    colour = translucent(tones().mark, 70)
    selections: list[QTextEdit.ExtraSelection] = []
    block = start = editor.document().findBlockByNumber(first)
    while block.isValid() and block.blockNumber() <= min(last, first + _MAX_MARKED_LINES):
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(colour)  # type: ignore[attr-defined]
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)  # type: ignore[attr-defined]
        selection.cursor = QTextCursor(block)  # type: ignore[attr-defined]
        selections.append(selection)
        block = block.next()
    editor.setExtraSelections(selections)
    return start
