"""A spin box over exact JSON numbers: Python ints of any size and floats that round-trip through their text.

QSpinBox stops at 2**31 - 1 and QDoubleSpinBox rounds to a fixed number of decimals, so neither can hold every
value a tool accepts. This one keeps the text as the truth (``"5"`` is the integer 5, ``"5.0"`` the float 5.0),
steps with Decimal arithmetic by ``multipleOf`` (or 1) within the schema's bounds, and lets out-of-range
values through so an inspector can send them (validation flags them).
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QValidator, QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QStyle, QStyleOptionSpinBox, QWidget

from inspector.schema import Kind, Node, format_number, number_text_state, parse_number
from inspector.schema.values import decimal_of

__all__ = ["NumberSpinBox"]

_STATES = {
    "ok": QValidator.State.Acceptable,
    "partial": QValidator.State.Intermediate,
    "invalid": QValidator.State.Invalid,
}


class NumberSpinBox(QAbstractSpinBox):
    """An integer or number field; empty text means "no value"."""

    edited = Signal()
    """The user typed or stepped (never emitted by ``set_number``/``set_text``)."""

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.integer = node.kind is Kind.INTEGER
        self._step = decimal_of(node.multiple_of) if node.multiple_of is not None else Decimal(1)
        self._low = self._bound(node.minimum, node.exclusive_minimum, up=True)
        self._high = self._bound(node.maximum, node.exclusive_maximum, up=False)
        self.setAccelerated(True)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        self.lineEdit().textEdited.connect(self._on_text_edited)

    def _bound(self, inclusive: int | float | None, exclusive: int | float | None, *, up: bool) -> Decimal | None:
        if inclusive is not None:
            bound = decimal_of(inclusive)
        elif exclusive is not None:
            bound = self._snap(decimal_of(exclusive), up=up)
            if bound == decimal_of(exclusive):
                bound = bound + self._step if up else bound - self._step
        else:
            return None
        if self.integer:
            bound = bound.to_integral_value(rounding=ROUND_CEILING if up else ROUND_FLOOR)
        return bound

    def _snap(self, value: Decimal, *, up: bool) -> Decimal:
        rounding = ROUND_CEILING if up else ROUND_FLOOR
        return (value / self._step).to_integral_value(rounding=rounding) * self._step

    # --- value as text -------------------------------------------------------------------------------------
    def text_value(self) -> str:
        return self.lineEdit().text()

    def set_text(self, text: str) -> None:
        self.lineEdit().setText(text)

    def number(self) -> int | float | None:
        """The number entered, or None when the text is empty; raises ValueError for unusable text."""
        text = self.text_value().strip()
        return parse_number(text, integer=self.integer) if text else None

    def set_number(self, value: int | float | None) -> None:
        if value is None:
            self.set_text("")
        elif self.integer and isinstance(value, float):
            self.set_text(str(int(value)))
        else:
            self.set_text(format_number(value))

    def _on_text_edited(self, _text: str) -> None:
        self.edited.emit()

    # --- QAbstractSpinBox ------------------------------------------------------------------------------------
    def validate(self, input: str, pos: int) -> tuple[QValidator.State, str, int]:
        return _STATES[number_text_state(input, integer=self.integer)], input, pos

    def fixup(self, input: str) -> str:
        return input.strip()

    def _current(self) -> Decimal | None:
        try:
            number = self.number()
        except ValueError:
            return None
        return decimal_of(number) if number is not None else None

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.isReadOnly():
            return flags
        current = self._current()
        if current is None or self._high is None or current < self._high:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if current is None or self._low is None or current > self._low:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def stepBy(self, steps: int) -> None:
        current = self._current()
        if current is None:
            start = self._low if self._low is not None and self._low > 0 else Decimal(0)
            if self._high is not None and start > self._high:
                start = self._high
            result = start
        else:
            on_grid = self._snap(current, up=True) == current
            if on_grid:
                result = current + steps * self._step
            else:
                result = self._snap(current, up=steps > 0) + (steps - (1 if steps > 0 else -1)) * self._step
        if self._low is not None and result < self._low:
            result = self._low
        if self._high is not None and result > self._high:
            result = self._high
        keep_float = not self.integer and "." in self.text_value()
        self.set_text(self._format(result, keep_float=keep_float))
        self.edited.emit()

    def _format(self, value: Decimal, *, keep_float: bool) -> str:
        if self.integer or (value == value.to_integral_value() and not keep_float):
            return str(int(value))
        text = format(value.normalize(), "f")
        return text if "." in text else text + ".0"

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not self.hasFocus():
            event.ignore()
            return
        super().wheelEvent(event)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        option = QStyleOptionSpinBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        placeholder = metrics.horizontalAdvance(self.lineEdit().placeholderText()) + 16  # line-edit text margins
        text_width = max(metrics.horizontalAdvance("0" * 14), placeholder)
        size = QSize(text_width, hint.height())
        full = self.style().sizeFromContents(QStyle.ContentsType.CT_SpinBox, option, size, self)
        return QSize(max(full.width(), hint.width()), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = self.sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 8) + 24), hint.height())
