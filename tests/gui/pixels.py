"""What a screenshot drew: the colours of a rectangle of a grabbed image, and how far a colour is from another.

Colours are ``(r, g, b)`` tuples; ``distance`` is the largest difference of one channel (0 = the same colour).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWidget

RGB = tuple[int, int, int]

__all__ = ["RGB", "colours_in", "distance", "ink", "nearest", "rect_in", "rgb", "rgb_of", "saved_grab"]


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


def saved_grab(widget: QWidget, path: Path) -> tuple[QImage, float]:
    """Grab ``widget``, save the shot to ``path`` and read it back: the image as saved, and its device pixel ratio."""
    pixmap = widget.grab()
    assert pixmap.save(str(path))
    return QImage(str(path)), pixmap.devicePixelRatio()


def rect_in(widget: QWidget, ancestor: QWidget, scale: float) -> QRect:
    """Where ``widget`` is on a shot of ``ancestor`` taken at device pixel ratio ``scale``."""
    top_left = widget.mapTo(ancestor, QPoint(0, 0))
    return QRect(
        round(top_left.x() * scale),
        round(top_left.y() * scale),
        round(widget.width() * scale),
        round(widget.height() * scale),
    )


def ink(image: QImage) -> QColor:
    """The colour of the most opaque pixel (an icon's stroke colour)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    best = QColor(0, 0, 0, 0)
    for y in range(image.height()):
        for x in range(image.width()):
            c = QColor.fromRgba(image.pixel(x, y))
            if c.alpha() > best.alpha():
                best = c
    return best
