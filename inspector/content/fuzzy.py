"""Fuzzy matching for pick lists (the window's command palette): ``fuzzy_score(query, text)``.

Every word of the query must appear in ``text`` in order, letters possibly apart ("rcn" finds "Reconnect"). The
score ranks a match higher when it is a prefix, a whole substring, starts at word boundaries, or is contiguous;
``None`` means no match. ``rank(query, items, text_of, also=None)`` sorts the matching items best first (of equal
scores, the shorter text first, then the given order); ``also`` adds context searched by whole words only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["WIDER_PENALTY", "fuzzy_score", "rank"]

T = TypeVar("T")

_SEPARATORS = frozenset(" _-./:·→>()[]")
WIDER_PENALTY = 50
"""How much less a match that needs the wider text (``rank``'s ``also``) scores."""


def _word_score(word: str, text: str) -> int | None:
    """How well one lower-case ``word`` matches lower-case ``text`` (None: its letters are not all there, in order)."""
    if not word:
        return 0
    at = text.find(word)
    if at >= 0:
        boundary = at == 0 or text[at - 1] in _SEPARATORS
        return 100 + (60 if at == 0 else 0) + (30 if boundary else 0) - min(at, 20)
    score, pos, previous = 0, 0, -2
    for char in word:
        found = text.find(char, pos)
        if found < 0:
            return None
        if found == previous + 1:
            score += 5  # contiguous
        if found == 0 or text[found - 1] in _SEPARATORS:
            score += 8  # a word's first letter
        score -= min(found - pos, 10)  # letters skipped
        previous, pos = found, found + 1
    return score


def fuzzy_score(query: str, text: str) -> int | None:
    """The match's score (higher is better), or None when ``text`` does not match every word of ``query``."""
    haystack = text.lower()
    total = 0
    for word in query.lower().split():
        score = _word_score(word, haystack)
        if score is None:
            return None
        total += score
    return total


def rank(
    query: str, items: Iterable[T], text_of: Callable[[T], str], also: Callable[[T], str] | None = None
) -> list[T]:
    """The items matching ``query``, best first, equal scores shorter text first (an empty query: all, in order).

    ``also(item)`` is more text searched with it (a group, a kind: "greeting prompt"), where every word must occur
    whole; such a match scores ``WIDER_PENALTY`` less than the same match in the main text."""
    if not query.split():
        return list(items)
    words = query.lower().split()
    scored: list[tuple[int, int, int, T]] = []
    for order, item in enumerate(items):
        text = text_of(item)
        score = fuzzy_score(query, text)
        if also is not None:
            wider = f"{text} {also(item)}"
            if all(word in wider.lower() for word in words):
                found = fuzzy_score(query, wider)
                if found is not None and (score is None or found - WIDER_PENALTY > score):
                    score = found - WIDER_PENALTY
        if score is not None:
            scored.append((-score, len(text), order, item))
    scored.sort(key=lambda entry: entry[:3])
    return [entry[-1] for entry in scored]
