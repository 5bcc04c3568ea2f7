"""The pipeline's house rules, read from its source: the escape grammar is written only in
``grammar.py`` (issue 24). A module asks the grammar where sequences are (``parse``, ``match_at``,
its prefilters) and dispatches on the parsed parts and the names, never on a pattern of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PIPELINE = Path(__file__).resolve().parent.parent / "textclean" / "pipeline"
_RE_CALLS = {"compile", "match", "fullmatch", "search", "finditer", "findall", "split", "sub", "subn", "escape"}
# What makes a pattern an escape pattern: the introducers, by name or by code.
_INTRODUCER_NAMES = {"ESC", "CSI", "OSC", "DCS", "SOS", "PM", "APC", "ST", "CSI_C1", "OSC_C1", "DCS_C1", "SOS_C1",
                     "PM_C1", "APC_C1", "ST_C1", "_INTRODUCER"}
_INTRODUCER_CODES = ("\x1b", "\x9b", "\\x1b", "\\x9b", "\\033", "\\u001b", "\\u001B", "\\e")
#: The cleaner's modules still holding escape patterns of their own (after c22b moved most into the
#: grammar): the lead empties this set as they go (the second test fails on a stale name).
CLEANER_MODULES_BEING_CLEANED = frozenset({"cleaner.py", "session.py"})


def _modules() -> list[Path]:
    return sorted(path for path in PIPELINE.rglob("*.py") if path.name != "grammar.py")


def escape_patterns(source: str) -> list[int]:
    """Lines of ``re`` calls whose pattern mentions an escape introducer, directly or through a name
    the module binds (at any depth of its module-level assignments)."""
    tree = ast.parse(source)
    bound: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = node.value

    def mentions(expr: ast.AST, seen: frozenset[str]) -> bool:
        for node in ast.walk(expr):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if any(code in node.value for code in _INTRODUCER_CODES):
                    return True
            elif isinstance(node, ast.Attribute) and node.attr in _INTRODUCER_NAMES:
                return True
            elif isinstance(node, ast.Name):
                if node.id in _INTRODUCER_NAMES:
                    return True
                if node.id in bound and node.id not in seen and mentions(bound[node.id], seen | {node.id}):
                    return True
        return False

    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RE_CALLS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                and mentions(node.args[0], frozenset())):
            found.append(node.lineno)
    return found


def test_the_checker_finds_escape_patterns_however_they_are_spelled() -> None:
    """It can fail: each spelling below is found, the grammar's own prefilters are not."""
    for source in (
        'import re\nX = re.compile("\\x1b\\\\[[0-9;]*H")',
        'import re\nX = re.compile(r"\\x1b\\[[0-9;]*H")',
        'import re\nfrom .grammar import CSI\nX = re.compile(re.escape(CSI) + "[0-9;]*H")',
        'import re\nfrom . import grammar\nX = re.compile(re.escape(grammar.CSI) + "2J")',
        'import re\nfrom .grammar import ESC\nA = f"{ESC}\\\\[m"\nB = A + "|x"\nX = re.compile(f"({B})")',
        'import re\ndef f(t):\n    return re.search("\\x9b[0-9]*m", t)',
    ):
        assert escape_patterns(source), source
    assert not escape_patterns('import re\nfrom . import grammar\nX = grammar.csi_ending_in("H")\n'
                               'Y = re.compile(f"(?:[^\\\\x00-\\\\x1f]|{X.pattern})*\\\\n")\nZ = re.compile("\\r+")')


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PIPELINE)))
def test_no_escape_pattern_outside_the_grammar(path: Path) -> None:
    if path.name in CLEANER_MODULES_BEING_CLEANED and path.parent == PIPELINE:
        pytest.skip("a known cleaner module: its escape patterns are still to move into the grammar")
    assert escape_patterns(path.read_text(encoding="utf-8")) == [], f"{path.name}: an escape pattern; use grammar.py"


@pytest.mark.parametrize("name", sorted(CLEANER_MODULES_BEING_CLEANED))
def test_the_known_cleaner_modules_still_hold_one(name: str) -> None:
    """A stale name in :data:`CLEANER_MODULES_BEING_CLEANED` fails here: remove it."""
    assert escape_patterns((PIPELINE / name).read_text(encoding="utf-8")), f"{name} is clean: drop it from the set"
