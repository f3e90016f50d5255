"""Counted nouns in English: ``plural(1, "problem")`` is "1 problem", ``plural(3, "problem")`` "3 problems".

The one helper for every count the window, the CLI and the demo print (never "problem(s)"). Irregular plurals
pass their plural form: ``plural(2, "match", "matches")``. ``noun`` gives the word alone, for sentences that
put the number elsewhere.
"""

from __future__ import annotations

__all__ = ["noun", "plural"]


def noun(count: int | float, singular: str, plural_form: str | None = None) -> str:
    """``singular`` for exactly one, else the plural (``singular + "s"`` unless ``plural_form`` is given)."""
    if count == 1:
        return singular
    return plural_form if plural_form is not None else singular + "s"


def plural(count: int | float, singular: str, plural_form: str | None = None) -> str:
    """The count and its noun: ``1 problem``, ``0 problems``, ``3 problems``."""
    number = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{number} {noun(count, singular, plural_form)}"
