"""Every text/background pair of both themes is legible: WCAG AA (a contrast ratio of at least 4.5) for the
window's text, the muted text, the selection, the primary buttons, every state colour (connected, connecting,
error, warning, ok, info, diagnostic) on the surfaces it is drawn on, the message log's kinds and severities, the
server log's levels, the JSON tree's tokens and the code style's JSON tokens."""

from __future__ import annotations

import pytest
from pygments.lexers import JsonLexer
from pygments.styles import get_style_by_name

from inspector.ui.widgets.theme import contrast_ratio
from inspector.ui.widgets.theme_colours import DARK, LIGHT, Tones

AA = 4.5
SAMPLE_JSON = '{"text": "s", "number": 1.5, "integer": 3, "flag": true, "none": null, "list": [1, {"k": false}]}'


def pairs(t: Tones) -> list[tuple[str, str, str]]:
    """(what, foreground, background) for every pair the window draws."""
    surfaces = {"window": t.window, "base": t.base, "alt_base": t.alt_base, "card": t.card_bg}
    found = [(f"text on {name}", t.text, colour) for name, colour in surfaces.items()]
    found += [(f"muted on {name}", t.muted, colour) for name, colour in surfaces.items()]
    found += [("muted on badge", t.muted, t.badge_bg), ("text on hover", t.text, t.hover)]
    found += [("selection", t.highlight_text, t.highlight), ("primary button", t.on_accent, t.primary)]
    found += [("link", t.link, t.base), ("text on tooltip", t.text, t.tooltip_bg)]
    for tone in ("error", "warning", "ok", "info"):
        fg, bg = getattr(t, f"{tone}_fg"), getattr(t, f"{tone}_bg")
        found.append((f"{tone} on its own background", fg, bg))
        found += [(f"{tone} on {name}", fg, colour) for name, colour in surfaces.items()]
    for state in ("connected", "connecting", "idle", "diagnostic"):
        found += [(f"{state} on {name}", getattr(t, state), colour) for name, colour in surfaces.items()]
    found.append(("storage note", t.text, t.warning_bg))
    found += [(f"log kind {kind}", colour, t.base) for kind, colour in t.log_kinds.items()]
    found += [(f"severity {name}", colour, t.base) for name, colour in t.severities.items()]
    found += [(f"count on severity {name}", t.on_state, colour) for name, colour in t.severities.items()]
    found += [(f"server log level {rank}", colour, t.base) for rank, colour in enumerate(t.log_levels)]
    for name, colour in t.json_tokens.items():
        found += [(f"JSON {name} on base", colour, t.base), (f"JSON {name} on alt_base", colour, t.alt_base)]
    style = get_style_by_name(t.code_style)
    for token, _ in JsonLexer().get_tokens(SAMPLE_JSON):
        colour = style.style_for_token(token)["color"]
        if colour:
            found += [
                (f"code {token} on card", f"#{colour}", t.card_bg),
                (f"code {token} on base", f"#{colour}", t.base),
            ]
    return found


@pytest.mark.parametrize("t", [LIGHT, DARK], ids=lambda t: t.name)
def test_every_pair_meets_wcag_aa(t: Tones) -> None:
    low = {what: round(contrast_ratio(fg, bg), 2) for what, fg, bg in pairs(t) if contrast_ratio(fg, bg) < AA}
    assert not low, f"below WCAG AA ({AA}) in the {t.name} theme: {low}"


def test_the_ratio_is_wcags() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just below AA
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)


def test_the_themes_are_light_and_dark() -> None:
    assert not LIGHT.dark and DARK.dark
    assert contrast_ratio(LIGHT.window, "#000000") > contrast_ratio(LIGHT.window, "#ffffff")
    assert contrast_ratio(DARK.window, "#ffffff") > contrast_ratio(DARK.window, "#000000")
