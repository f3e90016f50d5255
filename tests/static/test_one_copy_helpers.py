"""One copy of each helper (issue 14, section 3), as tests over the source tree.

Each rule is a function over a directory, checked against the real tree and, once, against a small tree made to
break it (so a rule that stopped looking would fail).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = REPO_ROOT / "inspector"

ONE_HOME: dict[tuple[str, str], str] = {
    ("class", "Banner"): "ui/widgets/banner.py",
    ("class", "HttpOptions"): "transports/http_options.py",
    ("class", "JsonNode"): "content/jsontree.py",
    ("class", "JsonTreeModel"): "ui/viewers/json_model.py",
    ("def", "is_dark"): "ui/widgets/style.py",
    ("def", "format_size"): "protocol/sizes.py",
    ("def", "parse_size"): "protocol/sizes.py",
    ("def", "format_path"): "protocol/jsonpath.py",
    ("def", "parse_path"): "protocol/jsonpath.py",
    ("def", "coalescer"): "ui/widgets/timers.py",
}
"""What is defined once, and where (paths relative to the package root)."""
GONE: frozenset[str] = frozenset({"human_size", "json_path"})
"""Names of the second copies that were removed: nothing may bring them back."""
TIMERS = "ui/widgets/timers.py"
COMPLETER = "ui/explore/completion.py"
SIZES = "protocol/sizes.py"
METHODS = "protocol/methods.py"
LIST_METHODS = frozenset({"tools/list", "resources/list", "resources/templates/list", "prompts/list"})
LISTING = LIST_METHODS | {"initialize", "ping", "server/discover", "resources/read", None}
"""What may sit beside the list methods in a copy of their list (a table of every method is not a copy)."""
_UNIT = re.compile(r"^\s?[KMG]i?B\b")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@functools.cache
def _modules(root: Path) -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(root.rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


def _str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _is_all(node: ast.AST) -> bool:
    """``__all__ = [...]``: names, not text."""
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def misplaced_definitions(root: Path) -> list[str]:
    """Definitions of a one-copy name outside its home (or of a removed copy anywhere)."""
    found = []
    for name, tree in _modules(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                kind = "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "def"
            else:
                continue
            home = ONE_HOME.get((kind, node.name))
            if (home is not None and home != name) or node.name in GONE:
                found.append(f"{name}: {kind} {node.name}")
    return found


def hand_built_timers(root: Path) -> list[str]:
    """``setSingleShot`` calls outside the one coalescing timer."""
    return [
        f"{name}:{node.lineno}"
        for name, tree in _modules(root)
        if name != TIMERS
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "setSingleShot"
    ]


def second_autocompleters(root: Path) -> list[str]:
    """``QCompleter`` built outside the one autocompleter (``ArgumentCompleter``)."""
    return [
        f"{name}:{node.lineno}"
        for name, tree in _modules(root)
        if name != COMPLETER
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) == "QCompleter" or getattr(node.func, "attr", None) == "QCompleter")
    ]


def hand_written_sizes(root: Path) -> list[str]:
    """Sizes formatted by hand: a unit name as a string of its own (a unit table) or right after a formatted
    value (``f"{n / 1024:.1f} KiB"``), outside the one formatter."""
    found = []
    for name, tree in _modules(root):
        if name == SIZES:
            continue
        names = {id(n) for t in ast.walk(tree) if _is_all(t) for n in ast.walk(t)}
        for node in ast.walk(tree):
            text = _str(node)
            if text in ("KB", "MB", "GB", "KiB", "MiB", "GiB") and id(node) not in names:
                found.append(f"{name}:{_line(node)}: unit {text!r}")
            if isinstance(node, ast.JoinedStr):
                for before, after in zip(node.values, node.values[1:], strict=False):
                    piece = _str(after)
                    if isinstance(before, ast.FormattedValue) and piece is not None and _UNIT.match(piece):
                        found.append(f"{name}:{node.lineno}: {piece.strip()!r} after a value")
    return found


def typed_versions(root: Path) -> list[str]:
    """Protocol versions typed as defaults outside ``protocol/`` (the constants live in ``protocol/versions``), and
    versions compared as strings anywhere."""
    found = []
    for name, tree in _modules(root):
        outside = not name.startswith(("protocol/", "demo/"))
        for node in ast.walk(tree):
            defaults: list[ast.expr] = []
            if outside and isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                defaults.append(node.value)
            if outside and isinstance(node, ast.arguments):
                defaults.extend(node.defaults)
                defaults.extend(d for d in node.kw_defaults if d is not None)
            if outside and isinstance(node, ast.BoolOp):
                defaults.extend(node.values[1:])  # ``version or "2025-11-25"``
            for value in defaults:
                text = _str(value)
                if text is not None and _DATE.match(text):
                    found.append(f"{name}:{value.lineno}: default {text}")
            if isinstance(node, ast.Compare) and any(
                isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in node.ops
            ):
                texts = [_str(part) for part in (node.left, *node.comparators)]
                if any(text is not None and _DATE.match(text) for text in texts):
                    found.append(f"{name}:{node.lineno}: a version compared as a string")
    return found


def copied_method_lists(root: Path) -> list[str]:
    """The logging levels or the list methods spelled out outside ``protocol/methods``."""
    found = []
    for name, tree in _modules(root):
        if name == METHODS:
            continue
        for node in ast.walk(tree):
            if _str(node) == "emergency":
                found.append(f"{name}:{_line(node)}: a logging level list")
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                members = {_str(element) for element in node.elts}
                if len(members & LIST_METHODS) >= 3 and members <= LISTING:
                    found.append(f"{name}:{node.lineno}: the list methods")
    return found


def hand_built_paths(root: Path) -> list[str]:
    """JSON path segments written by hand as ``[{key!r}]`` instead of through ``protocol.jsonpath``."""
    found = []
    for name, tree in _modules(root):
        if name.startswith("demo/"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for before, value, after in zip(node.values, node.values[1:], node.values[2:], strict=False):
                if (
                    isinstance(value, ast.FormattedValue)
                    and value.conversion == ord("r")
                    and (_str(before) or "").endswith("[")
                    and (_str(after) or "").startswith("]")
                ):
                    found.append(f"{name}:{node.lineno}")
    return found


Rule = Callable[[Path], list[str]]
RULES: list[Rule] = [
    misplaced_definitions,
    hand_built_timers,
    second_autocompleters,
    hand_written_sizes,
    typed_versions,
    copied_method_lists,
    hand_built_paths,
]


# --- the real tree ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.__name__)
def test_the_tree_keeps_one_copy(rule: Rule) -> None:
    assert rule(INSPECTOR) == []


def test_every_home_exists() -> None:
    for (kind, name), home in ONE_HOME.items():
        source = (INSPECTOR / home).read_text(encoding="utf-8")
        assert re.search(rf"^\s*{kind} {name}\b", source, re.MULTILINE), f"{kind} {name} is not in {home}"


# --- each rule catches what it is about ----------------------------------------------------------------------

BROKEN: dict[str, tuple[str, str, list[str]]] = {
    "misplaced_definitions": (
        "ui/window/main_window.py",
        "class Banner:\n    pass\n\n\ndef human_size(n):\n    return n\n",
        ["ui/window/main_window.py: class Banner", "ui/window/main_window.py: def human_size"],
    ),
    "hand_built_timers": ("ui/log/panel.py", "t = make()\nt.setSingleShot(True)\n", ["ui/log/panel.py:2"]),
    "second_autocompleters": (
        "ui/explore/resources/template_form.py",
        "from PySide6 import QtWidgets\nc = QCompleter(model)\nd = QtWidgets.QCompleter(model)\n",
        ["ui/explore/resources/template_form.py:2", "ui/explore/resources/template_form.py:3"],
    ),
    "hand_written_sizes": (
        "content/format.py",
        'UNITS = ("KB", "MB")\nshown = f"{n / 1024:.1f} KiB"\n',
        [
            "content/format.py:1: unit 'KB'",
            "content/format.py:1: unit 'MB'",
            "content/format.py:2: 'KiB' after a value",
        ],
    ),
    "typed_versions": (
        "store/profiles/model.py",
        'version: str = "2025-11-25"\n\n\ndef f(v="2025-06-18"):\n    return v >= "2025-03-26" or "2024-11-05"\n',
        [
            "store/profiles/model.py:1: default 2025-11-25",
            "store/profiles/model.py:4: default 2025-06-18",
            "store/profiles/model.py:5: default 2024-11-05",
            "store/profiles/model.py:5: a version compared as a string",
        ],
    ),
    "copied_method_lists": (
        "cli/parser.py",
        'LEVELS = ("debug", "emergency")\nLISTS = ("tools/list", "prompts/list", "resources/list")\n',
        ["cli/parser.py:1: a logging level list", "cli/parser.py:2: the list methods"],
    ),
    "hand_built_paths": ("protocol/mrtr.py", 'path = f"$.result.inputRequests[{key!r}]"\n', ["protocol/mrtr.py:1"]),
}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.__name__)
def test_each_rule_finds_a_second_copy(rule: Rule, tmp_path: Path) -> None:
    where, source, expected = BROKEN[rule.__name__]
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    assert sorted(rule(tmp_path)) == sorted(expected)
