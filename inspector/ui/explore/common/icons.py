"""A tool's or prompt's icon: drawn from its ``data:`` URIs only (nothing is fetched), decoded once and cached."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage, QPixmap

from inspector.content.catalog import CatalogEntry
from inspector.content.media import decode_data_uri
from inspector.ui.widgets.style import is_dark

__all__ = ["MAX_ICON_BYTES", "entry_icon"]

MAX_ICON_BYTES: Final = 512 * 1024
_ICONS: dict[tuple[str, int], QPixmap | None] = {}


def entry_icon(entry: CatalogEntry, size: int) -> QPixmap | None:
    """The entry's best ``data:`` icon scaled to ``size`` (theme-matched first), or None."""
    wanted = "dark" if is_dark() else "light"
    ordered = sorted(entry.icons, key=lambda i: i.get("theme") not in (None, wanted))
    for icon in ordered:
        src: str = icon["src"]
        key = (src, size)
        if key in _ICONS:
            if _ICONS[key] is not None:
                return _ICONS[key]
            continue
        pixmap: QPixmap | None = None
        decoded = decode_data_uri(src) if len(src) <= MAX_ICON_BYTES * 2 else None
        if decoded is not None and len(decoded[1]) <= MAX_ICON_BYTES:
            image = QImage()
            if image.loadFromData(decoded[1], "SVG" if "svg" in decoded[0] else None) and not image.isNull():
                scaled = image.scaled(
                    QSize(size, size), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
                pixmap = QPixmap.fromImage(scaled)
        if len(_ICONS) > 2048:
            _ICONS.clear()
        _ICONS[key] = pixmap
        if pixmap is not None:
            return pixmap
    return None
