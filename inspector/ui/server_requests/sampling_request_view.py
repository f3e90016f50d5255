"""The right-hand side of the sampling dialog: every parameter of the request, read-only.

maxTokens, temperature, stopSequences, includeContext, model preferences (hints as badges; cost, speed and
intelligence priorities as bars), metadata (pretty JSON) and the tools offered with toolChoice.
"""

from __future__ import annotations

import json
from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.content.server_requests import SamplingRequest
from inspector.ui.widgets.style import badge_label, section_label
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["SamplingRequestView"]

PRIORITY_TIPS: Final = {
    "cost": "How much the server cares about a cheap model (0 = not at all, 1 = most important)",
    "speed": "How much the server cares about a fast answer",
    "intelligence": "How much the server cares about a capable model",
}


def _plain(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class SamplingRequestView(QScrollArea):
    """Read-only view of a ``sampling/createMessage`` request's parameters."""

    def __init__(self, request: SamplingRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        content.setObjectName("samplingParams")
        column = QVBoxLayout(content)
        column.setContentsMargins(4, 0, 8, 0)
        column.setSpacing(8)

        column.addWidget(section_label("PARAMETERS", content))
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        form.setHorizontalSpacing(14)
        form.setVerticalSpacing(6)
        self.max_tokens_label = self._value(_plain(request.max_tokens))
        self.temperature_label = self._value(_plain(request.temperature))
        self.include_context_label = self._value(request.include_context or "—")
        form.addRow("Max tokens", self.max_tokens_label)
        form.addRow("Temperature", self.temperature_label)
        form.addRow("Include context", self.include_context_label)
        self.stop_badges = [
            badge_label(repr(s)[1:-1] or "(empty)", "neutral", "", content) for s in request.stop_sequences
        ]
        form.addRow("Stop sequences", self._row(self.stop_badges) if self.stop_badges else self._value("—"))
        column.addLayout(form)

        column.addSpacing(4)
        column.addWidget(section_label("MODEL PREFERENCES", content))
        self.hint_badges = [
            badge_label(h, "info", "model hint (in order of preference)", content) for h in request.hints
        ]
        prefs = QFormLayout()
        prefs.setHorizontalSpacing(14)
        prefs.setVerticalSpacing(6)
        prefs.addRow("Hints", self._row(self.hint_badges) if self.hint_badges else self._value("none"))
        self.priority_bars: dict[str, QProgressBar] = {}
        for name, value in request.priorities.items():
            bar = QProgressBar(content)
            bar.setRange(0, 100)
            bar.setTextVisible(False)
            bar.setFixedHeight(10)
            bar.setToolTip(PRIORITY_TIPS[name])
            themed_style(
                bar,
                lambda t: (
                    f"QProgressBar {{ background: {t.badge_bg}; border: 1px solid {t.card_border};"
                    f" border-radius: 5px; }} QProgressBar::chunk {{ background: {t.accent}; border-radius: 4px; }}"
                ),
            )
            shown = QLabel("not given" if value is None else f"{value:g}", content)
            shown.setMinimumWidth(56)
            if value is None:
                bar.setValue(0)
                bar.setEnabled(False)
                themed_style(shown, lambda t: f"color: {t.muted}; font-style: italic;")
            else:
                bar.setValue(round(max(0.0, min(1.0, value)) * 100))
            bar.setFormat(shown.text())
            self.priority_bars[name] = bar
            prefs.addRow(name.capitalize(), self._row_of(bar, shown))
        column.addLayout(prefs)

        column.addSpacing(4)
        column.addWidget(section_label("METADATA", content))
        self.metadata_view: QPlainTextEdit | None = None
        if request.metadata is None:
            column.addWidget(self._value("none"))
        else:
            self.metadata_view = QPlainTextEdit(json.dumps(request.metadata, indent=2, ensure_ascii=False), content)
            self.metadata_view.setReadOnly(True)
            follow_font(self.metadata_view, "mono")
            lines = self.metadata_view.document().blockCount()
            self.metadata_view.setFixedHeight(min(160, 14 + lines * self.fontMetrics().lineSpacing()))
            column.addWidget(self.metadata_view)

        self.tool_cards: list[QFrame] = []
        if request.tools or request.tool_choice is not None:
            column.addSpacing(4)
            column.addWidget(section_label(f"TOOLS OFFERED ({len(request.tools)})", content))
            choice = request.tool_choice
            mode = choice.get("mode") if isinstance(choice, dict) else None
            self.tool_choice_label = self._value(f"toolChoice: {mode or _plain(choice)}")
            column.addWidget(self.tool_choice_label)
            for tool in request.tools:
                card = self._tool_card(tool, content)
                self.tool_cards.append(card)
                column.addWidget(card)
        column.addStretch(1)
        self.setWidget(content)

    def _value(self, text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    @staticmethod
    def _row(widgets: list[QLabel]) -> QWidget:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        for widget in widgets:
            row.addWidget(widget)
        row.addStretch(1)
        return holder

    @staticmethod
    def _row_of(bar: QProgressBar, value: QLabel) -> QWidget:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(bar, 1)
        row.addWidget(value)
        return holder

    def _tool_card(self, tool: dict[str, Any], parent: QWidget) -> QFrame:
        card = QFrame(parent)
        card.setObjectName("toolCard")
        themed_style(
            card,
            lambda t: (
                f"QFrame#toolCard {{ background: {t.card_bg}; border: 1px solid {t.card_border};"
                " border-radius: 6px; } QFrame#toolCard QLabel { border: none; background: transparent; }"
            ),
        )
        layout = QVBoxLayout(card)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        name = QLabel(str(tool.get("name", "(no name)")), card)
        follow_font(name, "mono")
        name.setStyleSheet("font-weight: 600;")
        layout.addWidget(name)
        description = tool.get("description")
        if isinstance(description, str) and description.strip():
            text = QLabel(description.strip(), card)
            text.setWordWrap(True)
            themed_style(text, lambda t: f"color: {t.muted};")
            layout.addWidget(text)
        schema = tool.get("inputSchema")
        props = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(props, dict) and props:
            args = QLabel("args: " + ", ".join(str(k) for k in props), card)
            follow_font(args, "mono_small")
            themed_style(args, lambda t: f"color: {t.muted};")
            args.setWordWrap(True)
            layout.addWidget(args)
        return card
