"""A calendar button for ``format: date`` and ``format: date-time`` string fields.

The field stays a line edit (so any text, valid or not, round-trips); the button offers a calendar popup and,
for date-time, "Now".
"""

from __future__ import annotations

import datetime

from PySide6.QtCore import QDate, Signal
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QCalendarWidget, QMenu, QToolButton, QWidget, QWidgetAction

from inspector.ui.schema_form.style import calendar_icon, line_height

__all__ = ["CalendarButton", "combine_date"]


def combine_date(current: str, picked: datetime.date, *, with_time: bool) -> str:
    """The new field text after picking ``picked``: keeps the time part of a date-time that has one."""
    if not with_time:
        return picked.isoformat()
    time_part = current[10:] if len(current) > 10 and current[10] in "Tt " else "T00:00:00Z"
    return picked.isoformat() + time_part


def now_text() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class CalendarButton(QToolButton):
    """Pops up a calendar; emits ``picked(text)`` with the text the field should now hold."""

    picked = Signal(str)

    def __init__(self, *, with_time: bool, current: object, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._with_time = with_time
        self._current = current  # a callable returning the field's text
        self.setIcon(calendar_icon(self.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)))
        self.setToolTip("Pick a date" if not with_time else "Pick a date (the time part is kept)")
        self.setAutoRaise(True)
        self.setFixedSize(line_height(), line_height())
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_widget = QMenu(self)
        self.calendar = QCalendarWidget(self.menu_widget)
        self.calendar.setGridVisible(False)
        action = QWidgetAction(self.menu_widget)
        action.setDefaultWidget(self.calendar)
        self.menu_widget.addAction(action)
        if with_time:
            self.now_action: QAction | None = self.menu_widget.addAction("Now (UTC)")
            self.now_action.triggered.connect(lambda: self.picked.emit(now_text()))
        else:
            self.now_action = None
            today = self.menu_widget.addAction("Today")
            today.triggered.connect(lambda: self.pick(QDate.currentDate()))
        self.setMenu(self.menu_widget)
        self.menu_widget.aboutToShow.connect(self._sync)
        self.calendar.clicked.connect(self.pick)

    def _text(self) -> str:
        getter = self._current
        return str(getter()) if callable(getter) else ""

    def _sync(self) -> None:
        text = self._text()
        try:
            day = datetime.date.fromisoformat(text[:10])
        except ValueError:
            return
        self.calendar.setSelectedDate(QDate(day.year, day.month, day.day))

    def pick(self, date: QDate) -> None:
        picked = datetime.date(date.year(), date.month(), date.day())
        self.menu_widget.hide()
        self.picked.emit(combine_date(self._text(), picked, with_time=self._with_time))
