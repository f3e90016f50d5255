"""``SplitMemory``: the split between a page's inputs and its result, as the user last dragged it, shared by every
page of a panel (one tool's page opens with the split chosen on another's) and kept between sessions.

It reads and writes like a ``QSplitter`` (``saveState`` / ``restoreState``), so the connection tab saves it with
the real splitters in the window settings. Until the user drags a splitter, nothing is remembered and each page
fits its own split (the form takes what it needs, the result the rest).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QSplitter, QWidget

from inspector.ui.explore.common.support import alive

__all__ = ["SplitMemory", "fit_split"]


class SplitMemory:
    def __init__(self) -> None:
        self._state: QByteArray | None = None

    @property
    def chosen(self) -> bool:
        """The user has dragged a splitter (in this session or a saved one)."""
        return self._state is not None

    def attach(self, splitter: QSplitter) -> None:
        """Remember ``splitter``'s sizes whenever the user drags it (programmatic resizes do not count)."""
        splitter.splitterMoved.connect(lambda _pos, _index: self.remember(splitter))

    def remember(self, splitter: QSplitter) -> None:
        self._state = splitter.saveState()

    def apply(self, splitter: QSplitter) -> bool:
        """Give ``splitter`` the remembered sizes; False when there are none (the page fits its own)."""
        return self._state is not None and splitter.restoreState(self._state)

    def apply_or_fit(self, page: QWidget, splitter: QSplitter, fit: Callable[[], None]) -> None:
        """On a visible, live ``page``: the remembered split, else ``fit()`` (the page's own)."""
        if alive(page) and page.isVisible() and not self.apply(splitter):
            fit()

    # -- QSplitter-like persistence (the connection tab's saved layout) --------------------------------------

    def saveState(self) -> QByteArray:
        return QByteArray(self._state) if self._state is not None else QByteArray()

    def restoreState(self, state: QByteArray) -> bool:
        self._state = QByteArray(state) if not state.isEmpty() else None
        return True


def fit_split(splitter: QSplitter, wanted: int, share: float, minimum: int) -> None:
    """The first pane (the inputs) gets ``wanted`` pixels, at most ``share`` of the splitter and at least
    ``minimum``; the second (the result) the rest."""
    total = sum(splitter.sizes())
    if total <= 0:
        return
    top = max(min(wanted, int(total * share)), minimum)
    splitter.setSizes([top, max(0, total - top)])
