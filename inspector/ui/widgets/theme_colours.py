"""Every colour of the window, one table per theme (light and dark): the one place a colour is written down.

``Tones`` holds the palette's roles (window, base, text, accent...), the state colours (connected, error, warning,
diagnostic, info), the message log's kinds, the server log's levels, the JSON tree's token colours and the pygments
styles of highlighted code. ``tests/static/test_theme_colours.py`` fails on a colour literal in any other ui module,
and ``tests/gui/test_theme_contrast.py`` checks the text/background pairs against WCAG AA.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from PySide6.QtGui import QColor

__all__ = ["DARK", "LIGHT", "Tones", "translucent"]


def translucent(colour: str, alpha: int) -> QColor:
    """One of the tables' colours drawn over what is below it (``alpha``: 0 transparent to 255 opaque): the log's
    marked lines, the tour's scrim, an error's line in a snippet."""
    result = QColor(colour)
    result.setAlpha(alpha)
    return result


def _frozen(table: dict[str, str]) -> Mapping[str, str]:
    return MappingProxyType(table)


@dataclass(frozen=True, slots=True, eq=False)
class Tones:
    """Colours (CSS ``#rrggbb`` strings) of one theme."""

    name: str
    dark: bool
    # -- the palette ---------------------------------------------------------------------------------------------
    window: str
    base: str
    alt_base: str
    button: str
    border: str
    hover: str
    highlight: str
    highlight_text: str
    primary: str
    """Primary buttons (Run, Get, Send) and the user's avatar."""
    on_accent: str
    """Text on a ``primary`` surface."""
    on_state: str
    """Text on a state-coloured pill (the log's diagnostics count, the catalog's letter icons)."""
    disabled_text: str
    accent_disabled: str
    link: str
    tooltip_bg: str
    # -- content viewers (what style.py's helpers used) ----------------------------------------------------------
    text: str
    muted: str
    card_bg: str
    card_border: str
    accent: str
    error_fg: str
    error_bg: str
    error_border: str
    warning_fg: str
    warning_bg: str
    warning_border: str
    ok_fg: str
    ok_bg: str
    ok_border: str
    info_fg: str
    info_bg: str
    info_border: str
    badge_bg: str
    user_bubble: str
    user_border: str
    assistant_bubble: str
    assistant_border: str
    added_bg: str
    removed_bg: str
    hunk_fg: str
    checker: tuple[str, str]
    """The two squares behind a transparent image."""
    scrim: str
    """What dims the window behind the tour's ring (drawn translucent)."""
    mark: str
    """Lines marked in the log's detail (found text, a diagnostic's place); drawn translucent."""
    # -- states ------------------------------------------------------------------------------------------------------
    connected: str
    connecting: str
    idle: str
    diagnostic: str
    # -- tables of the features ---------------------------------------------------------------------------------
    log_kinds: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    """The message log's colour per wire kind (request, response, error, notification...; ``http`` exchanges)."""
    severities: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    """Diagnostic severities: violation, warning, info."""
    json_tokens: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    """The JSON tree's value colours by JSON type."""
    log_levels: tuple[str, ...] = ()
    """The server log's colour per level rank (debug ... emergency)."""
    code_style: str = "xcode"
    """The pygments style of highlighted code in the viewers (every JSON token AA-legible on the theme's base)."""
    log_style: str = "xcode"
    """The pygments style of the log's payload text."""


LIGHT: Final = Tones(
    name="light",
    dark=False,
    window="#f6f7f9",
    base="#ffffff",
    alt_base="#f6f8fa",
    button="#ffffff",
    border="#d1d9e0",
    hover="#eef1f4",
    highlight="#0969da",
    highlight_text="#ffffff",
    primary="#0969da",
    on_accent="#ffffff",
    on_state="#ffffff",
    disabled_text="#818b98",
    accent_disabled="#9ab8e0",
    link="#0969da",
    tooltip_bg="#ffffff",
    text="#1f2328",
    muted="#59636e",
    card_bg="#ffffff",
    card_border="#d1d9e0",
    accent="#0969da",
    error_fg="#d1242f",
    error_bg="#ffebe9",
    error_border="#ff8182",
    warning_fg="#8a5c00",
    warning_bg="#fff8c5",
    warning_border="#d4a72c",
    ok_fg="#1a7f37",
    ok_bg="#dafbe1",
    ok_border="#4ac26b",
    info_fg="#0969da",
    info_bg="#ddf4ff",
    info_border="#54aeff",
    badge_bg="#eff2f5",
    user_bubble="#ddf4ff",
    user_border="#b6e3ff",
    assistant_bubble="#f6f8fa",
    assistant_border="#d1d9e0",
    added_bg="#dafbe1",
    removed_bg="#ffebe9",
    hunk_fg="#8250df",
    checker=("#ffffff", "#e6e9ed"),
    scrim="#000000",
    mark="#f59e0b",
    connected="#1a7f37",
    connecting="#9a6700",
    idle="#656d76",
    diagnostic="#bc4c00",
    log_kinds=_frozen(
        {
            "request": "#1d4ed8",
            "response": "#15803d",
            "error": "#b91c1c",
            "notification": "#7c3aed",
            "invalid": "#c2410c",
            "transport": "#4b5563",
            "stderr": "#92400e",
            "http": "#0f766e",
            "other": "#59636e",
        }
    ),
    severities=_frozen({"violation": "#d1242f", "warning": "#9a6700", "info": "#0969da", "other": "#59636e"}),
    json_tokens=_frozen(
        {
            "string": "#0a3069",
            "integer": "#0550ae",
            "number": "#0550ae",
            "boolean": "#8250df",
            "null": "#636c76",
            "object": "#59636e",
            "array": "#59636e",
            "type": "#636c76",
        }
    ),
    log_levels=("#59636e", "#0969da", "#1b7c83", "#8a5c00", "#d1242f", "#a40e26", "#8250df", "#82071e", "#bc4c00"),
    code_style="xcode",
    log_style="xcode",
)

DARK: Final = Tones(
    name="dark",
    dark=True,
    window="#151b23",
    base="#0d1117",
    alt_base="#151b23",
    button="#212830",
    border="#3d444d",
    hover="#262c36",
    highlight="#1f6feb",
    highlight_text="#ffffff",
    primary="#1f6feb",
    on_accent="#ffffff",
    on_state="#0d1117",
    disabled_text="#656c76",
    accent_disabled="#2b4a77",
    link="#4493f8",
    tooltip_bg="#212830",
    text="#e6edf3",
    muted="#9198a1",
    card_bg="#151b23",
    card_border="#3d444d",
    accent="#4493f8",
    error_fg="#ff7b72",
    error_bg="#3c1618",
    error_border="#da3633",
    warning_fg="#d29922",
    warning_bg="#3a2d12",
    warning_border="#9e6a03",
    ok_fg="#3fb950",
    ok_bg="#12261e",
    ok_border="#238636",
    info_fg="#4493f8",
    info_bg="#121d2f",
    info_border="#1f6feb",
    badge_bg="#262c36",
    user_bubble="#121d2f",
    user_border="#1f6feb",
    assistant_bubble="#151b23",
    assistant_border="#3d444d",
    added_bg="#12261e",
    removed_bg="#3c1618",
    hunk_fg="#d2a8ff",
    checker=("#2a2f36", "#3a4049"),
    scrim="#000000",
    mark="#d29922",
    connected="#3fb950",
    connecting="#d29922",
    idle="#9198a1",
    diagnostic="#f0883e",
    log_kinds=_frozen(
        {
            "request": "#93c5fd",
            "response": "#86efac",
            "error": "#fca5a5",
            "notification": "#c4b5fd",
            "invalid": "#fdba74",
            "transport": "#d1d5db",
            "stderr": "#fcd34d",
            "http": "#5eead4",
            "other": "#9198a1",
        }
    ),
    severities=_frozen({"violation": "#ff7b72", "warning": "#d29922", "info": "#4493f8", "other": "#9198a1"}),
    json_tokens=_frozen(
        {
            "string": "#a5d6ff",
            "integer": "#79c0ff",
            "number": "#79c0ff",
            "boolean": "#d2a8ff",
            "null": "#8b949e",
            "object": "#9198a1",
            "array": "#9198a1",
            "type": "#9198a1",
        }
    ),
    log_levels=("#9198a1", "#4493f8", "#39c5cf", "#d29922", "#ff7b72", "#ffa198", "#d2a8ff", "#ff8182", "#f0883e"),
    code_style="one-dark",
    log_style="one-dark",
)
