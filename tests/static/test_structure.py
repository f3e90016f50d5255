"""The tree's shape as tests: Qt-free code lives below ui, ui holds only feature folders (each one under the
feature contract), test module names are unique, and no source module grows past MAX_LINES.

Each rule is a function over a directory, checked against the real tree and, once, against a small tree made
to break it (so a rule that stopped looking would fail).
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = REPO_ROOT / "inspector"
UI = INSPECTOR / "ui"
TESTS = REPO_ROOT / "tests"
QT_PACKAGES = frozenset({"PySide6", "shiboken6", "qasync"})

MAX_LINES = 700
# Source modules allowed past MAX_LINES, each with its reason. Empty today: split a module rather than add it.
LONG_MODULES: dict[str, str] = {}


def _python_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(source: str) -> set[str]:
    """Top-level package names a module imports when it runs (imports under `if TYPE_CHECKING:` do not count)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module is not None:
                    found.add(node.module.split(".")[0])
            elif isinstance(node, ast.If):
                if not _is_type_checking(node.test):
                    visit(node.body)
                visit(node.orelse)
            else:
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    children = getattr(node, field, None)
                    if isinstance(children, list):
                        visit([child for child in children if isinstance(child, ast.stmt)])
                        for child in children:
                            if isinstance(child, ast.ExceptHandler | ast.match_case):
                                visit(child.body)

    visit(ast.parse(source).body)
    return found


def qt_free_modules(ui_root: Path) -> list[str]:
    """Modules under ui_root (package __init__ files aside) that import no Qt: they belong below ui."""
    return [
        str(path.relative_to(ui_root))
        for path in _python_files(ui_root)
        if path.name != "__init__.py" and not runtime_imports(path.read_text(encoding="utf-8")) & QT_PACKAGES
    ]


def loose_ui_entries(ui_root: Path) -> list[str]:
    """What sits at ui_root besides __init__.py and feature packages (folders with an __init__.py)."""
    loose = []
    for entry in sorted(ui_root.iterdir()):
        if entry.name in ("__init__.py", "__pycache__"):
            continue
        if not (entry.is_dir() and (entry / "__init__.py").is_file()):
            loose.append(entry.name)
    return loose


def duplicate_basenames(tests_root: Path) -> dict[str, list[str]]:
    """Python files under tests_root sharing a basename (conftest.py aside): with rootdir-relative imports and no
    __init__.py files, the second one imported would be the first (or pytest refuses to collect it)."""
    seen: defaultdict[str, list[str]] = defaultdict(list)
    for path in _python_files(tests_root):
        if path.name != "conftest.py":
            seen[path.name].append(str(path.relative_to(tests_root)))
    return {name: paths for name, paths in seen.items() if len(paths) > 1}


def long_modules(root: Path, limit: int) -> dict[str, int]:
    counts = {
        str(path.relative_to(root.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in _python_files(root)
    }
    return {name: count for name, count in counts.items() if count > limit}


def _feature_contract_modules() -> set[str]:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers" and any(
            layer.startswith("inspector.ui.window") for layer in contract["layers"]
        ):
            return {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    pytest.fail("pyproject.toml has no import-linter layers contract for the ui feature folders")


# --- the real tree ---------------------------------------------------------------------------------------------


def test_every_ui_module_imports_qt() -> None:
    assert qt_free_modules(UI) == [], "Qt-free modules under inspector/ui: move them below ui (content/, store/, cli/)"


def test_ui_root_holds_only_feature_folders() -> None:
    assert loose_ui_entries(UI) == [], "inspector/ui holds only __init__.py and feature packages"


def test_every_ui_feature_folder_is_in_the_feature_contract() -> None:
    folders = {f"inspector.ui.{entry.name}" for entry in UI.iterdir() if (entry / "__init__.py").is_file()}
    assert folders, "no feature folders found under inspector/ui"
    missing = folders - _feature_contract_modules()
    assert not missing, f"feature folders outside the import-linter feature layers: {sorted(missing)}"


def test_test_module_basenames_are_unique() -> None:
    assert duplicate_basenames(TESTS) == {}


@pytest.mark.parametrize("root", ["inspector", "bench"])
def test_no_source_module_is_too_long(root: str) -> None:
    too_long = long_modules(REPO_ROOT / root, MAX_LINES)
    unexplained = {name: count for name, count in too_long.items() if name not in LONG_MODULES}
    assert unexplained == {}, f"modules over {MAX_LINES} lines: split them"
    stale = sorted(name for name in LONG_MODULES if name.startswith(f"{root}/") and name not in too_long)
    assert stale == [], "LONG_MODULES lists modules that are no longer long: drop them"


# --- each rule catches what it is for ---------------------------------------------------------------------------


def test_runtime_imports_ignores_type_checking_only_imports() -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import json, os.path\n"
        "if TYPE_CHECKING:\n"
        "    from PySide6.QtCore import QObject\n"
        "else:\n"
        "    import shiboken6\n"
        "try:\n"
        "    from qasync import QEventLoop\n"
        "except ImportError:\n"
        "    import anyio\n"
        "def late() -> None:\n"
        "    from httpx2 import Client\n"
        "from . import sibling\n"
    )
    assert runtime_imports(source) == {"__future__", "typing", "json", "os", "shiboken6", "qasync", "anyio", "httpx2"}


def test_the_rules_catch_a_broken_tree(tmp_path: Path) -> None:
    ui = tmp_path / "ui"
    (ui / "feature").mkdir(parents=True)
    (ui / "__init__.py").write_text("", encoding="utf-8")
    (ui / "feature" / "__init__.py").write_text("", encoding="utf-8")
    (ui / "feature" / "view.py").write_text("from PySide6.QtWidgets import QWidget\n", encoding="utf-8")
    (ui / "feature" / "logic.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from PySide6.QtCore import QObject\n",
        encoding="utf-8",
    )
    (ui / "loose.py").write_text("import PySide6\n", encoding="utf-8")
    (ui / "notes").mkdir()
    assert qt_free_modules(ui) == ["feature/logic.py"]
    assert loose_ui_entries(ui) == ["loose.py", "notes"]

    tests = tmp_path / "tests"
    for folder in ("unit", "gui"):
        (tests / folder).mkdir(parents=True)
        (tests / folder / "conftest.py").write_text("", encoding="utf-8")
        (tests / folder / "test_same.py").write_text("", encoding="utf-8")
    (tests / "unit" / "test_other.py").write_text("", encoding="utf-8")
    assert duplicate_basenames(tests) == {"test_same.py": ["gui/test_same.py", "unit/test_same.py"]}

    (ui / "feature" / "big.py").write_text("x = 1\n" * 8, encoding="utf-8")
    assert long_modules(ui, 7) == {"ui/feature/big.py": 8}
