"""What the command palette and Help → Keyboard shortcuts list, found by walking the window (never a hand list).

``window_actions(window)`` is every QAction a person can reach now: the menu bar's (with their menu as the group),
then the actions of visible widgets (toolbars, panels, the current tab's views), each once. Actions other parts of
the window add later are found the same way. ``connection_entries(tab)`` is the current connection's tools,
resources, resource templates, prompts and panels; choosing one shows it in its panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QMenu, QTabWidget, QWidget

from inspector.ui.window.palette_targets import open_panel, open_prompt, open_resource, open_template, open_tool

if TYPE_CHECKING:
    from inspector.ui.window.connection_tab import ConnectionTab

__all__ = [
    "FoundAction",
    "FoundShortcut",
    "PaletteEntry",
    "action_entries",
    "clean_text",
    "connection_entries",
    "shortcut_text",
    "window_actions",
    "window_shortcuts",
]


def clean_text(text: str) -> str:
    """An action's or menu's text without its mnemonic ampersands ("&&" stays one "&")."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def shortcut_text(action: QAction) -> str:
    keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts() if not k.isEmpty()]
    return ", ".join(keys)


@dataclass(frozen=True)
class FoundAction:
    action: QAction
    group: str
    """The menu path ("Connection", "File → Recent"), else the panel or part of the window it belongs to."""

    @property
    def text(self) -> str:
        return clean_text(self.action.text())

    @property
    def shortcut(self) -> str:
        return shortcut_text(self.action)


@dataclass
class PaletteEntry:
    """One row of the command palette."""

    title: str
    kind: str
    """"Action", "Tool", "Prompt", "Resource", "Template" or "Panel"."""
    run: Callable[[], None]
    shortcut: str = ""
    group: str = ""
    enabled: bool = True
    why_disabled: str = ""
    detail: str = ""
    """Searched too (a tool's name when its title is shown, a resource's URI)."""
    action: QAction | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        """What the palette's query is matched against first: the title and the detail."""
        return f"{self.title} {self.detail}".strip()

    @property
    def context(self) -> str:
        """Searched too when the text does not match, word by word: the group and the kind ("greeting prompt")."""
        return f"{self.group} {self.kind}"


def _menu_actions(menu: QMenu, path: str) -> Iterator[FoundAction]:
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        sub = action.menu()
        if isinstance(sub, QMenu):
            yield from _menu_actions(sub, f"{path} → {clean_text(sub.title())}")
        elif clean_text(action.text()):
            yield FoundAction(action, path)


def _is_shown(widget: QWidget) -> bool:
    return widget.isVisible() or (widget.isWindow() and not widget.isHidden())


def _panel_group(widget: QWidget, window: QMainWindow) -> str:
    """The name of the tab (or window part) ``widget`` sits in: the innermost tab widget's tab title."""
    node: QWidget | None = widget
    while node is not None and node is not window:
        parent = node.parentWidget()
        stack = parent.parentWidget() if parent is not None else None
        if isinstance(stack, QTabWidget):
            index = stack.indexOf(node)
            if index >= 0:
                return clean_text(stack.tabText(index)).split(" (")[0]
        node = parent
    return "Window"


def window_actions(window: QMainWindow) -> list[FoundAction]:
    """Every action of ``window`` a person can reach now, each once: menus first (in menu order), then the actions
    of visible widgets (the current tab's panels, toolbars, context actions added to widgets)."""
    found: list[FoundAction] = []
    seen: set[int] = set()

    def add(item: FoundAction) -> None:
        key = id(item.action)
        if key not in seen:
            seen.add(key)
            found.append(item)

    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu) and top.isVisible():
            for item in _menu_actions(menu, clean_text(menu.title())):
                add(item)
    for action in window.findChildren(QAction):
        if id(action) in seen or action.isSeparator() or not clean_text(action.text()) or not action.isVisible():
            continue
        if isinstance(action.menu(), QMenu):
            continue
        owners = [w for w in action.associatedObjects() if isinstance(w, QWidget) and not isinstance(w, QMenu)]
        parent = action.parent()
        if not owners and isinstance(parent, QWidget) and parent is not window:
            owners = [parent]
        shown = [w for w in owners if _is_shown(w)]
        if shown:
            add(FoundAction(action, _panel_group(shown[0], window)))
        elif not owners and parent is window:
            add(FoundAction(action, "Window"))
    return found


@dataclass(frozen=True)
class FoundShortcut:
    """A ``QShortcut`` of a panel (a page's Ctrl+Enter): listed when it says what it does (its ``whatsThis``)."""

    text: str
    shortcut: str
    group: str


def window_shortcuts(window: QMainWindow) -> list[FoundShortcut]:
    """The window's ``QShortcut`` objects that say what they do (``whatsThis``), once per group, text and keys —
    the same binding on every page of a kind is listed once, under its panel."""
    found: dict[tuple[str, str, str], FoundShortcut] = {}
    for shortcut in window.findChildren(QShortcut):
        text = shortcut.whatsThis().strip()
        keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in shortcut.keys() if not k.isEmpty())
        parent = shortcut.parent()
        if text and keys and isinstance(parent, QWidget):
            item = FoundShortcut(text, keys, _panel_group(parent, window))
            found.setdefault((item.group, item.text, item.shortcut), item)
    return list(found.values())


def action_entries(window: QMainWindow, skip: set[int] | None = None) -> list[PaletteEntry]:
    entries = []
    for item in window_actions(window):
        action = item.action
        if skip and id(action) in skip:
            continue
        entries.append(
            PaletteEntry(
                title=item.text,
                kind="Action",
                run=action.trigger,
                shortcut=item.shortcut,
                group=item.group,
                enabled=action.isEnabled(),
                why_disabled="not available now" if not action.isEnabled() else "",
                detail=action.toolTip() if action.toolTip() != action.text() else "",
                action=action,
            )
        )
    return entries


def connection_entries(tab: ConnectionTab) -> list[PaletteEntry]:
    """The tab's tools, prompts, resources and templates by name, and its panels (choosing one shows it)."""
    entries: list[PaletteEntry] = []
    for entry in tab.tools.browser.model.entries():
        entries.append(
            PaletteEntry(
                title=entry.label,
                kind="Tool",
                run=partial(open_tool, tab, entry.name),
                detail=entry.name if entry.name != entry.label else "",
                group=tab.title,
                enabled=not entry.unavailable and tab.tools.gate is None,
                why_disabled=entry.unavailable or (tab.tools.gate or ""),
            )
        )
    for entry in tab.prompts.browser.model.entries():
        entries.append(
            PaletteEntry(
                title=entry.label,
                kind="Prompt",
                run=partial(open_prompt, tab, entry.name),
                detail=entry.name if entry.name != entry.label else "",
                group=tab.title,
                enabled=tab.prompts.gate is None,
                why_disabled=tab.prompts.gate or "",
            )
        )
    resources = tab.resources
    listed = (
        (resources.resources_model, "uri", "Resource", open_resource),
        (resources.templates_model, "uriTemplate", "Template", open_template),
    )
    for model, key, kind, opener in listed:
        for raw in model.entries():
            target = raw.get(key)
            if isinstance(target, str):
                name = raw.get("title") or raw.get("name") or target
                entries.append(
                    PaletteEntry(
                        title=str(name), kind=kind, run=partial(opener, tab, target), detail=target, group=tab.title
                    )
                )
    tabs = tab.inner_tabs
    for index in range(tabs.count()):
        widget = tabs.widget(index)
        if widget is None:
            continue
        title = clean_text(tabs.tabText(index)).split(" (")[0]
        entries.append(
            PaletteEntry(
                title=f"Show {title}",
                kind="Panel",
                run=partial(open_panel, tab, widget),
                group=tab.title,
                enabled=tabs.isTabEnabled(index),
                why_disabled=tabs.tabToolTip(index) if not tabs.isTabEnabled(index) else "",
            )
        )
    return entries
