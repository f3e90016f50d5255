"""Colours of the message log (from the theme's tables), readable on light and dark palettes."""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QColor

from inspector.ui.widgets.style import DARK, LIGHT, tones

__all__ = ["SEVERITY_COLOURS", "kind_colour", "kind_colours", "severity_colour"]

SEVERITY_COLOURS: Final = LIGHT.severities
"""The light theme's diagnostic colours (``severity_colour`` answers in the current theme's)."""


def kind_colours(dark: bool) -> dict[str, QColor]:
    return {kind: QColor(colour) for kind, colour in (DARK if dark else LIGHT).log_kinds.items() if kind != "other"}


def kind_colour(kind: str) -> QColor:
    kinds = tones().log_kinds
    return QColor(kinds.get(kind, kinds["other"]))


def severity_colour(severity: str | None) -> QColor:
    severities = tones().severities
    return QColor(severities.get(severity or "", severities["other"]))
