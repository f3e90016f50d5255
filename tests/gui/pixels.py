"""What a screenshot drew: the colours of a rectangle of a grabbed image, and how far a colour is from another.

Colours are ``(r, g, b)`` tuples; ``distance`` is the largest difference of one channel (0 = the same colour).
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage

RGB = tuple[int, int, int]

__all__ = ["RGB", "colours_in", "distance", "nearest", "rgb", "rgb_of"]


def rgb(pixel: int) -> RGB:
    """A ``QImage.pixel`` value as ``(r, g, b)``."""
    return (pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF


def rgb_of(colour: QColor) -> RGB:
    return colour.red(), colour.green(), colour.blue()


def colours_in(image: QImage, rect: QRect, step: int = 1) -> Counter[RGB]:
    """How many pixels of each colour ``rect`` (clipped to the image) holds; ``step`` samples every n-th pixel."""
    rect = rect.intersected(image.rect())
    return Counter(
        rgb(image.pixel(x, y))
        for y in range(rect.top(), rect.bottom() + 1, step)
        for x in range(rect.left(), rect.right() + 1, step)
    )


def distance(found: RGB, colour: QColor) -> int:
    return max(abs(found[0] - colour.red()), abs(found[1] - colour.green()), abs(found[2] - colour.blue()))


def nearest(colours: Counter[RGB], colour: QColor) -> int:
    """The distance from ``colour`` to the closest colour drawn."""
    return min(distance(found, colour) for found in colours)
