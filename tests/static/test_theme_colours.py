"""Every colour of the window comes from the theme (``inspector/ui/widgets/theme_colours.py``, applied by
``theme.py``): no other ui module writes a colour down — no ``#rrggbb`` literal, no ``QColor("red")`` or
``QColor(200, 0, 0)``, no ``Qt.GlobalColor.red``, no named CSS colour in a style sheet. A colour written anywhere
else would stay the same in the other theme."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "inspector" / "ui"
THEME_MODULES = {UI / "widgets" / "theme.py", UI / "widgets" / "theme_colours.py"}

_HEX = re.compile(r"(?<![\w&{])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?![\w-])")
_NAMED = re.compile(
    r"(?:color|background(?:-color)?|border(?:-\w+)?)\s*:\s*[^;}]*?\b"
    r"(white|black|red|green|blue|gray|grey|yellow|orange|purple|pink|brown|cyan|magenta|navy|maroon|silver)\b",
    re.IGNORECASE,
)
_QCOLOR_LITERAL = re.compile(r"\bQColor\(\s*(?:[\"']|0x|\d)")
_GLOBAL_COLOUR = re.compile(r"\bQt\.GlobalColor\.(?!transparent\b|color0\b|color1\b)\w+")
_STRING_TOKENS = {tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())


def hard_coded_colours(source: str) -> list[str]:
    """``line: what`` for every colour written down in ``source`` (Python)."""
    found: list[str] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in _STRING_TOKENS:
            for match in _HEX.finditer(token.string):
                found.append(f"{token.start[0]}: {match.group(0)}")
            for match in _NAMED.finditer(token.string):
                found.append(f"{token.start[0]}: {match.group(0)}")
    for number, line in enumerate(source.splitlines(), start=1):
        code = line.split("#", 1)[0] if '"' not in line and "'" not in line else line
        for pattern in (_QCOLOR_LITERAL, _GLOBAL_COLOUR):
            for match in pattern.finditer(code):
                found.append(f"{number}: {match.group(0)}")
    return found


def _modules() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if p not in THEME_MODULES)


@pytest.mark.parametrize(
    ("snippet", "flagged"),
    [
        ('label.setStyleSheet("color: #b3261e;")', True),
        ('label.setStyleSheet(f"color: {t.muted}; background: #fff;")', True),
        ('painter.setPen(QColor("white"))', True),
        ("item.setForeground(QColor(128, 128, 128))", True),
        ("item.setForeground(Qt.GlobalColor.red)", True),
        ('button.setStyleSheet("QPushButton { color: white; }")', True),
        ('style = "border: 1px solid red"', True),
        ("pixmap.fill(Qt.GlobalColor.transparent)", False),
        ('label.setStyleSheet(f"color: {t.muted};")', False),
        ('selector = "#storageNote { padding: 3px; }"', False),
        ('text = f"#{row.seq}"', False),
        ("fmt.setForeground(QColor(f\"#{spec['color']}\"))", False),
        ("painter.setPen(QColor(t.text))", False),
    ],
)
def test_the_check_finds_colours(snippet: str, flagged: bool) -> None:
    assert bool(hard_coded_colours(snippet)) is flagged, hard_coded_colours(snippet)


def test_no_ui_module_outside_the_theme_hard_codes_a_colour() -> None:
    offenders = {
        str(path.relative_to(UI)): found for path in _modules() if (found := hard_coded_colours(path.read_text()))
    }
    assert not offenders, f"colours written outside widgets/theme_colours.py: {offenders}"


def test_the_theme_tables_have_the_same_fields() -> None:
    from inspector.ui.widgets.theme_colours import DARK, LIGHT

    for table in (LIGHT.log_kinds, LIGHT.severities, LIGHT.json_tokens):
        assert table
    assert set(LIGHT.log_kinds) == set(DARK.log_kinds)
    assert set(LIGHT.severities) == set(DARK.severities)
    assert set(LIGHT.json_tokens) == set(DARK.json_tokens)
    assert len(LIGHT.log_levels) == len(DARK.log_levels)
