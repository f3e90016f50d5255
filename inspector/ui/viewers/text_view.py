"""``TextView``: one text shown as plain text, rendered markdown, pretty JSON or a JSON tree, switchable.

Big texts are shown in part (the first ~1 MB) with "Show all" and "Save…"; JSON is only parsed eagerly when it
is small. Links in rendered markdown are never followed here: http/https ones are emitted as
``openUrlRequested`` for the application to decide, others are reported as blocked.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QButtonGroup, QLabel, QPushButton, QTextBrowser, QToolButton, QVBoxLayout, QWidget

from inspector.content.highlight import highlight_html, language_for
from inspector.content.mime import ViewerKind, choose_viewer
from inspector.content.text import (
    DISPLAY_LINE_LIMIT,
    TEXT_PREVIEW_LIMIT,
    JsonParse,
    break_long_lines,
    parse_json,
    pretty_json,
    pretty_json_preview,
    preview_text,
)
from inspector.protocol.sizes import format_size
from inspector.ui.viewers.json_view import JsonTreeView
from inspector.ui.viewers.text_widgets import FitPlainTextEdit, FitTextBrowser
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.saving import save_payload
from inspector.ui.widgets.style import Tones, hbox, monospace_font, tones
from inspector.ui.widgets.theme import follow_theme, small_font_size, themed_style

__all__ = ["JSON_AUTO_PARSE_LIMIT", "JsonView", "TextMode", "TextView"]

JSON_AUTO_PARSE_LIMIT = 2_000_000
"""Texts up to this many characters are tried as JSON up front; longer ones only when the user asks."""


class TextMode(StrEnum):
    PLAIN = "plain"
    MARKDOWN = "markdown"
    JSON = "json"
    TREE = "tree"


_LABELS = {TextMode.PLAIN: "Plain", TextMode.MARKDOWN: "Markdown", TextMode.JSON: "JSON", TextMode.TREE: "Tree"}
_ALL_MODES = (TextMode.PLAIN, TextMode.MARKDOWN, TextMode.JSON, TextMode.TREE)
_NO_VALUE = object()


class TextView(QWidget):
    """A text with a mode switch. ``fit`` sizes the view to its content (for lists); otherwise it expands."""

    openUrlRequested = Signal(str)
    modeChanged = Signal(str)

    def __init__(
        self,
        text: str | None = None,
        *,
        value: Any = _NO_VALUE,
        mime_type: str | None = None,
        uri: str | None = None,
        modes: Sequence[TextMode] = _ALL_MODES,
        mode: TextMode | None = None,
        fit: bool = True,
        max_height: int = 420,
        preview_limit: int = TEXT_PREVIEW_LIMIT,
        suggested_name: str = "content.txt",
        embed_toolbar: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._text = text
        self._json: JsonParse | None = JsonParse(True, value) if value is not _NO_VALUE else None
        self._mime_type = mime_type
        self._uri = uri
        self._fit = fit
        self._max_height = max_height
        self._preview_limit = preview_limit
        self._suggested_name = suggested_name
        self._show_all = False
        self._pages: dict[TextMode, QWidget] = {}
        self._truncated: dict[TextMode, bool] = {}
        self._totals: dict[TextMode, tuple[int, int]] = {}
        self._page_text: dict[TextMode, str] = {}
        self._modes = tuple(modes)
        if self._json is None and self._text is not None and len(self._text) <= JSON_AUTO_PARSE_LIMIT:
            self._json = parse_json(self._text, containers_only=True)
        self._build_toolbar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        if embed_toolbar:
            layout.addWidget(self.toolbar)
        self.note_label = QLabel(self)
        self.note_label.setWordWrap(True)
        themed_style(self.note_label, lambda t: f"color: {t.warning_fg}; font-size: {small_font_size()};")
        self.note_label.hide()
        layout.addWidget(self.note_label)
        self.truncation_banner = self._build_truncation_banner()
        layout.addWidget(self.truncation_banner)
        self._page_layout = QVBoxLayout()
        self._page_layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._page_layout, 1)
        self._mode = TextMode.PLAIN
        self.set_mode(mode or self._default_mode())

    # --- public API -----------------------------------------------------------------------------------------

    def text(self) -> str:
        """The whole text (pretty JSON when the view was made from a value)."""
        if self._text is None:
            self._text = pretty_json(self._json.value if self._json is not None else None)
        return self._text

    def mode(self) -> TextMode:
        return self._mode

    def available_modes(self) -> list[TextMode]:
        return [m for m, button in self.mode_buttons.items() if button.isEnabled()]

    def set_mode(self, mode: TextMode) -> None:
        if mode not in self._modes:
            raise ValueError(f"mode {mode} is not offered by this view")
        if mode in (TextMode.JSON, TextMode.TREE) and not self._ensure_json():
            mode = TextMode.PLAIN if TextMode.PLAIN in self._modes else self._modes[0]
        self._mode = mode
        self.mode_buttons[mode].setChecked(True)
        for other, page in self._pages.items():
            page.setVisible(other is mode)
        page = self._pages.get(mode) or self._build_page(mode)
        page.show()
        self._update_truncation()
        self.modeChanged.emit(mode.value)

    def is_truncated(self) -> bool:
        """Whether the current mode shows only the first part of the text."""
        return self._truncated.get(self._mode, False)

    def show_all(self) -> None:
        """Show the whole text, however big (explicitly asked for by the user)."""
        self._show_all = True
        for page in self._pages.values():
            page.hide()
            page.deleteLater()
        self._pages.clear()
        self._page_text.clear()
        self._truncated.clear()
        self.set_mode(self._mode)

    def save(self) -> Path | None:
        """Save the whole text to a file the user picks; returns the path (None if cancelled)."""
        try:
            path = save_payload(self, self.text(), self._suggested_name)
        except OSError as exc:
            self._note(f"Could not save: {exc}")
            return None
        if path is not None:
            self._note(f"Saved to {path}", tone="ok")
        return path

    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.text())

    def current_widget(self) -> QWidget:
        return self._pages[self._mode]

    def displayed_text(self) -> str:
        """The text the current page shows ("" for the tree)."""
        if self._mode in self._page_text:
            return self._page_text[self._mode]
        page = self.current_widget()
        return page.toPlainText() if isinstance(page, FitTextBrowser) else ""

    def json_value(self) -> Any:
        """The parsed JSON value (None when the text is not JSON)."""
        return self._json.value if self._json is not None and self._json.ok else None

    # --- building -------------------------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        self.toolbar = QWidget(self)
        row = hbox(self.toolbar, spacing=0)
        self.mode_group = QButtonGroup(self)
        self.mode_group.setExclusive(True)
        self.mode_buttons: dict[TextMode, QToolButton] = {}
        for index, mode in enumerate(self._modes):
            button = QToolButton(self.toolbar)
            button.setText(_LABELS[mode])
            button.setCheckable(True)
            button.setAutoRaise(False)
            button.setToolTip(f"Show as {_LABELS[mode].lower()}")
            corners = ""
            if index == 0:
                corners += " border-top-left-radius: 4px; border-bottom-left-radius: 4px;"
            if index == len(self._modes) - 1:
                corners += " border-top-right-radius: 4px; border-bottom-right-radius: 4px;"
            themed_style(button, partial(_segment_style, corners, index == 0))
            button.clicked.connect(lambda _checked=False, m=mode: self.set_mode(m))
            self.mode_group.addButton(button)
            self.mode_buttons[mode] = button
            row.addWidget(button)
        json_possible = self._json is None or self._json.ok
        for mode in (TextMode.JSON, TextMode.TREE):
            if mode in self.mode_buttons:
                self.mode_buttons[mode].setEnabled(json_possible)
                if not json_possible:
                    self.mode_buttons[mode].setToolTip("The text is not a JSON object or array")
        row.addSpacing(8)
        self.copy_button = QToolButton(self.toolbar)
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy the whole text")
        self.copy_button.setAutoRaise(True)
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QToolButton(self.toolbar)
        self.save_button.setText("Save…")
        self.save_button.setToolTip("Save the whole text to a file")
        self.save_button.setAutoRaise(True)
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.copy_button)
        row.addWidget(self.save_button)
        row.addStretch(1)

    def _build_truncation_banner(self) -> Banner:
        banner = Banner("info", "", [], self)
        row = hbox(spacing=6)
        self.show_all_button = QPushButton("Show all", banner)
        self.show_all_button.clicked.connect(self.show_all)
        save = QPushButton("Save…", banner)
        save.clicked.connect(self.save)
        row.addWidget(self.show_all_button)
        row.addWidget(save)
        row.addStretch(1)
        banner.body.addLayout(row)
        banner.hide()
        return banner

    def _default_mode(self) -> TextMode:
        viewer = choose_viewer(self._mime_type, self._uri, is_text=True)
        if viewer is ViewerKind.MARKDOWN and TextMode.MARKDOWN in self._modes:
            return TextMode.MARKDOWN
        if self._json is not None and self._json.ok:
            for mode in (TextMode.JSON, TextMode.TREE):
                if mode in self._modes:
                    return mode
        return self._modes[0]

    def _ensure_json(self) -> bool:
        if self._json is None:
            QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self._json = parse_json(self.text())
            finally:
                QGuiApplication.restoreOverrideCursor()
        if not self._json.ok:
            for mode in (TextMode.JSON, TextMode.TREE):
                if mode in self.mode_buttons:
                    self.mode_buttons[mode].setEnabled(False)
            self._note(f"Not valid JSON: {self._json.error}")
            return False
        return True

    def _shown(self, text: str, mode: TextMode) -> str:
        if self._show_all:
            self._truncated[mode] = False
            return text
        preview = preview_text(text, self._preview_limit)
        self._truncated[mode] = preview.truncated
        self._totals[mode] = (len(preview.text), preview.total)
        return preview.text

    def _build_page(self, mode: TextMode) -> QWidget:
        page: QWidget
        if mode is TextMode.TREE:
            page = JsonTreeView(self.json_value(), self, fit=self._fit, max_height=self._max_height)
        elif mode is TextMode.MARKDOWN:
            browser = FitTextBrowser(self, fit=self._fit, max_height=self._max_height)
            browser.anchorClicked.connect(self._link_clicked)
            browser.setMarkdown(self._shown(self.text(), mode))
            page = browser
        else:
            if mode is TextMode.JSON:
                language = "json"
                if self._text is not None and _is_pretty(self._text):
                    shown = self._shown(self._text, mode)
                elif self._show_all:
                    shown = self._shown(pretty_json(self.json_value()), mode)
                else:
                    head, complete = pretty_json_preview(self.json_value(), self._preview_limit)
                    shown = self._shown(head, mode)
                    if not complete:
                        self._truncated[mode] = True
                        self._totals[mode] = (len(shown), -1)
            else:
                language = language_for(self._mime_type, self._uri)
                shown = self._shown(self.text(), mode)
            self._page_text[mode] = shown
            style = tones().code_style
            html = highlight_html(shown, language, style=style) if language else None
            if html is not None:
                browser = FitTextBrowser(self, fit=self._fit, max_height=self._max_height)
                browser.setLineWrapMode(FitTextBrowser.LineWrapMode.NoWrap)
                follow_theme(browser, partial(_rehighlight, browser, shown, language, {style: html}))
                page = browser
            else:
                editor = FitPlainTextEdit(self, fit=self._fit, max_height=self._max_height)
                follow_theme(editor, partial(_monospace, editor))
                display, broken = break_long_lines(shown)
                if broken:
                    self._note(
                        f"Lines longer than {DISPLAY_LINE_LIMIT:,} characters are broken for display;"
                        " Copy and Save keep the original text.",
                        tone="info",
                    )
                editor.setPlainText(display)
                page = editor
        page.setObjectName(f"textPage_{mode.value}")
        self._pages[mode] = page
        self._page_layout.addWidget(page)
        return page

    def _update_truncation(self) -> None:
        truncated = self.is_truncated()
        if truncated:
            shown, total = self._totals[self._mode]
            of = f"of {total:,} characters (about {format_size(total)})" if total >= 0 else "characters"
            self.truncation_banner.title_label.setText(
                f"Large text: showing the first {shown:,} {of}. Showing everything may take a while."
            )
        self.truncation_banner.setVisible(truncated)

    def _link_clicked(self, url: QUrl) -> None:
        scheme = url.scheme().lower()
        if scheme in ("http", "https"):
            self.openUrlRequested.emit(url.toString())
            return
        if not scheme and url.hasFragment():
            page = self._pages.get(TextMode.MARKDOWN)
            if isinstance(page, FitTextBrowser):
                page.scrollToAnchor(url.fragment())
            return
        self._note(f"Link not opened: {url.toString()} (only http and https links are opened)")

    def _note(self, message: str, tone: str = "warning") -> None:
        themed_style(
            self.note_label,
            lambda t: (
                f"color: { ({'ok': t.ok_fg, 'info': t.muted}.get(tone, t.warning_fg)) };"
                f" font-size: {small_font_size()};"
            ),
        )
        self.note_label.setText(message)
        self.note_label.show()

    def note(self) -> str:
        return self.note_label.text() if self.note_label.isVisibleTo(self) else ""


class JsonView(TextView):
    """A JSON value as a tree or as pretty text (tree by default)."""

    def __init__(
        self,
        value: Any,
        *,
        mode: TextMode = TextMode.TREE,
        fit: bool = True,
        max_height: int = 360,
        suggested_name: str = "value.json",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            None,
            value=value,
            modes=(TextMode.TREE, TextMode.JSON),
            mode=mode,
            fit=fit,
            max_height=max_height,
            suggested_name=suggested_name,
            parent=parent,
        )


def _segment_style(corners: str, first: bool, t: Tones) -> str:
    """One button of the segmented Plain / Markdown / JSON / Tree control."""
    return (
        f"QToolButton {{ border: 1px solid {t.card_border}; padding: 1px 8px; font-size: {small_font_size()};{corners}"
        f" margin-left: {0 if first else -1}px; background: transparent; }}"
        f" QToolButton:checked {{ background: {t.primary}; color: {t.on_accent}; border-color: {t.primary}; }}"
        f" QToolButton:disabled {{ color: {t.muted}; }}"
    )


def _monospace(widget: QWidget, _t: Tones) -> None:
    widget.setFont(monospace_font())


def _rehighlight(browser: QTextBrowser, text: str, language: str, by_style: dict[str, str], t: Tones) -> None:
    """The highlighted text in the theme's code style (``by_style``: the HTML made so far, per pygments style) and
    the chosen font size."""
    browser.setFont(monospace_font())
    html = by_style.get(t.code_style)
    if html is None:
        html = by_style[t.code_style] = highlight_html(text, language, style=t.code_style) or ""
    if html and browser.property("codeStyle") != t.code_style:
        browser.setProperty("codeStyle", t.code_style)
        browser.setHtml(html)


def _is_pretty(text: str) -> bool:
    """Whether a JSON text is already laid out on several lines (then it is shown as sent)."""
    return "\n" in text[:2000]
