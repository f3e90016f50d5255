"""Capability gating for widgets: what the server did not declare is disabled, with a tooltip saying why.

    reason = capability_gap(controller.server, "prompts")   # None when declared
    set_gated(get_button, reason)                            # disabled + "The server did not declare ..."
    gate_tab(inner_tabs, prompts_panel, reason)              # the same for a tab

A gated widget remembers the tooltip it had and gets it back when the gate opens again (re-evaluate on every
(re)connect). ``gate_reason(widget)`` reads the current reason (tests, status lines).

Gates know the era: a method 2026-07-28 removed is a gap there (``method_gap``: "tasks/list does not exist in
2026-07-28"), unless the connection does what it did another way (``STAND_INS``: ping, logging/setLevel,
resources/(un)subscribe); ``era_note(server, method)`` says what it does instead, for the widget's tooltip.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import QTabWidget, QWidget

from inspector.client.connection import ServerInfo
from inspector.protocol.capabilities import has_capability, server_capability_for
from inspector.protocol.envelope import LOG_LEVEL_KEY
from inspector.protocol.eras import MODERN_REMOVED
from inspector.protocol.versions import MODERN_VERSION, Era

__all__ = [
    "NOT_CONNECTED",
    "STAND_INS",
    "capability_gap",
    "era_note",
    "gate_reason",
    "gate_tab",
    "method_gap",
    "not_declared",
    "set_gated",
]

NOT_CONNECTED: Final = "Not connected: connect to the server first"
_REASON: Final = "gateReason"
_SAVED_TOOLTIP: Final = "gateSavedToolTip"

STAND_INS: Final[dict[str, str]] = {
    "ping": (
        f"ping does not exist in {MODERN_VERSION}: Ping sends server/discover instead (the cheapest round trip) "
        "and measures that"
    ),
    "logging/setLevel": (
        f"logging/setLevel does not exist in {MODERN_VERSION}: the level chosen here rides in the _meta of every "
        f"request from now on ({LOG_LEVEL_KEY}); the server sends log messages only while it answers a request "
        "that asks for them"
    ),
    "resources/subscribe": (
        f"resources/subscribe does not exist in {MODERN_VERSION}: subscribing adds the resource to the "
        "subscriptions/listen stream"
    ),
    "resources/unsubscribe": (
        f"resources/unsubscribe does not exist in {MODERN_VERSION}: unsubscribing takes the resource off the "
        "subscriptions/listen stream"
    ),
}
"""Methods 2026-07-28 removed that the connection still does, another way: what it does instead."""


def not_declared(capability: str) -> str:
    return f"The server did not declare the '{capability}' capability"


def capability_gap(server: ServerInfo | None, capability: str) -> str | None:
    """Why a feature needing ``capability`` (dotted, e.g. ``resources.subscribe``) is unavailable; None if it is."""
    if server is None:
        return NOT_CONNECTED
    if not has_capability(server.capabilities, capability):
        return not_declared(capability)
    return None


def method_gap(server: ServerInfo | None, method: str) -> str | None:
    """Like ``capability_gap`` for the capability ``method`` needs under the negotiated version (the engine's
    own table: e.g. completion/complete needs ``completions`` from 2025-03-26 on, nothing before)."""
    if server is None:
        return NOT_CONNECTED
    if server.era is Era.MODERN and method in MODERN_REMOVED and method not in STAND_INS:
        return f"{method} does not exist in {server.protocol_version} (the era this server speaks)"
    capability = server_capability_for(method, server.protocol_version)
    return None if capability is None else capability_gap(server, capability)


def era_note(server: ServerInfo | None, method: str) -> str | None:
    """What the connection does instead of ``method`` in the era ``server`` speaks (None: the method exists)."""
    if server is None or server.era is not Era.MODERN or method not in MODERN_REMOVED:
        return None
    return STAND_INS.get(method, f"{method} does not exist in {server.protocol_version}")


def gate_reason(widget: QWidget) -> str | None:
    reason = widget.property(_REASON)
    return reason if isinstance(reason, str) and reason else None


def set_gated(widget: QWidget, reason: str | None) -> None:
    """Disable ``widget`` with ``reason`` as its tooltip, or (None) enable it with its own tooltip back."""
    gated = gate_reason(widget) is not None
    if reason is not None:
        if not gated:
            widget.setProperty(_SAVED_TOOLTIP, widget.toolTip())
        widget.setProperty(_REASON, reason)
        widget.setToolTip(reason)
        widget.setEnabled(False)
        return
    if gated:
        saved = widget.property(_SAVED_TOOLTIP)
        widget.setToolTip(saved if isinstance(saved, str) else "")
        widget.setProperty(_REASON, "")
    widget.setEnabled(True)


def gate_tab(tabs: QTabWidget, page: QWidget, reason: str | None) -> None:
    """Disable (with ``reason`` as its tooltip) or enable the tab showing ``page``; a disabled current tab
    hands the focus to the first enabled one."""
    index = tabs.indexOf(page)
    if index < 0:
        return
    tabs.setTabEnabled(index, reason is None)
    tabs.setTabToolTip(index, reason or "")
    page.setProperty(_REASON, reason or "")
    if reason is not None and tabs.currentIndex() == index:
        for other in range(tabs.count()):
            if tabs.isTabEnabled(other):
                tabs.setCurrentIndex(other)
                break
