"""One design for the Explore panels, kept so by reading the source: "is there a live connection" is decided by
``live_connection`` alone, the Explore panels never connect to the controller themselves, and no optional hook is
looked up by name with ``getattr(obj, "name", None)``."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "inspector" / "ui"
CONTROLLER = UI / "connection" / "controller.py"


def _modules() -> list[Path]:
    return sorted(UI.rglob("*.py"))


def test_only_live_connection_asks_whether_the_connection_is_open() -> None:
    offenders = [
        f"{path.relative_to(UI)}:{node.lineno}"
        for path in _modules()
        if path != CONTROLLER
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "is_open"
    ]
    assert offenders == [], "use live_connection(controller) instead of connection.is_open"


def test_explore_panels_do_not_wire_themselves() -> None:
    offenders = []
    for path in sorted((UI / "explore").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "connect"
                and isinstance(node.value, ast.Attribute)
                and node.value.attr in ("stateChanged", "notificationReceived")
            ):
                offenders.append(f"{path.relative_to(UI)}:{node.lineno}")
    assert offenders == [], "ConnectionTab._wire is the one place a tab's signals are connected"


def test_no_optional_hook_is_found_by_name() -> None:
    offenders = [
        f"{path.relative_to(UI)}:{node.lineno}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) == 3
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[2], ast.Constant)
        and node.args[2].value is None
    ]
    assert offenders == [], "type the hook (a Protocol or a field) instead of getattr(obj, 'name', None)"


def test_no_optional_hook_is_probed_by_name() -> None:
    offenders = [
        f"{path.relative_to(UI)}:{node.lineno}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr"
    ]
    assert offenders == [], "type the hook (a runtime-checkable Protocol) instead of hasattr(obj, name)"
