"""Where the command palette's connection entries go: a tool, prompt, resource or template shown (selected) in
its Explore panel, or a panel of the tab brought to the front; the keyboard focus follows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from inspector.ui.explore.resources.model import ResourceListPage
    from inspector.ui.window.connection_tab import ConnectionTab

__all__ = ["first_focusable", "open_panel", "open_prompt", "open_resource", "open_template", "open_tool"]


def _focus(widget: QWidget | None) -> None:
    if widget is not None and widget.isVisible():
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)


def first_focusable(panel: QWidget) -> QWidget | None:
    """The first visible, enabled widget inside ``panel`` that Tab reaches (in the focus chain's order)."""
    node: QWidget | None = panel.nextInFocusChain()
    while node is not None and node is not panel and panel.isAncestorOf(node):
        if node.isVisible() and node.isEnabled() and node.focusPolicy() & Qt.FocusPolicy.TabFocus:
            return node
        node = node.nextInFocusChain()
    return None


def open_panel(tab: ConnectionTab, panel: QWidget) -> None:
    """Bring ``panel`` to the front, the focus on its first control."""
    tab.inner_tabs.setCurrentWidget(panel)
    _focus(first_focusable(panel))


def open_tool(tab: ConnectionTab, name: str) -> None:
    tab.inner_tabs.setCurrentWidget(tab.tools)
    if tab.tools.select(name) is not None:
        _focus(tab.tools.browser.view)


def open_prompt(tab: ConnectionTab, name: str) -> None:
    tab.inner_tabs.setCurrentWidget(tab.prompts)
    if tab.prompts.select(name) is not None:
        _focus(tab.prompts.browser.view)


def _select_listed(tab: ConnectionTab, page: ResourceListPage, uri: str) -> None:
    """Show ``page`` of the Resources panel, unfiltered, with ``uri`` selected (the focus on the list)."""
    tab.inner_tabs.setCurrentWidget(tab.resources)
    tab.resources.list_tabs.setCurrentWidget(page)
    page.search.clear()
    if page.select_uri(uri):
        _focus(page.view)


def open_resource(tab: ConnectionTab, uri: str) -> None:
    """Select (and so read) the listed resource ``uri`` in the Resources panel."""
    _select_listed(tab, tab.resources.resources_page, uri)


def open_template(tab: ConnectionTab, template: str) -> None:
    """Select the resource template in the Resources panel (its form takes the variables)."""
    _select_listed(tab, tab.resources.templates_page, template)
