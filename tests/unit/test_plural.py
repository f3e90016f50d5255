"""``inspector.content.plural``: counted nouns, and no "(s)" left in the package's messages."""

from __future__ import annotations

import re
import token
import tokenize
from pathlib import Path

import inspector
from inspector.content.plural import noun, plural


def test_counts() -> None:
    assert plural(1, "problem") == "1 problem"
    assert plural(0, "problem") == "0 problems"
    assert plural(3, "problem") == "3 problems"
    assert plural(2, "match", "matches") == "2 matches"
    assert plural(1.5, "second") == "1.5 seconds"
    assert noun(1, "is", "are") == "is" and noun(4, "is", "are") == "are"


def _strings(path: Path) -> list[tuple[int, str]]:
    with path.open("rb") as handle:
        return [(tok.start[0], tok.string) for tok in tokenize.tokenize(handle.readline) if tok.type == token.STRING]


def test_no_word_with_a_parenthesised_s_in_the_package() -> None:
    """Messages, docstrings and comments-as-strings say "1 problem" / "3 problems", never "problem(s)"."""
    root = Path(inspector.__file__).parent
    pattern = re.compile(r"[a-z]\(s\)")
    allowed = re.compile(r"https?\(s\)|http\(s\)")
    found = [
        f"{path.relative_to(root)}:{number}: {text.strip()[:80]}"
        for path in sorted(root.rglob("*.py"))
        if path.name != "plural.py"
        for number, text in _strings(path)
        if pattern.search(allowed.sub("", text))
    ]
    assert found == []
