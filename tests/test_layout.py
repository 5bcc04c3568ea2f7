"""The house rules of ``textclean``, read from its source (issue 24): the escape grammar is written
only in ``grammar.py`` (a module asks the grammar where sequences are, ``parse``, ``match_at``, its
prefilters, and dispatches on the parsed parts and the names, never on a pattern of its own); no
import cycle anywhere; the verifier imports nothing of the cleaner, and its modules form one chain."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PIPELINE = Path(__file__).resolve().parent.parent / "textclean" / "pipeline"
_RE_CALLS = {"compile", "match", "fullmatch", "search", "finditer", "findall", "split", "sub", "subn", "escape"}
# What makes a pattern an escape pattern: the introducers, by name or by code.
_INTRODUCER_NAMES = {"ESC", "CSI", "OSC", "DCS", "SOS", "PM", "APC", "ST", "CSI_C1", "OSC_C1", "DCS_C1", "SOS_C1",
                     "PM_C1", "APC_C1", "ST_C1", "_INTRODUCER"}
_INTRODUCER_CODES = ("\x1b", "\x9b", "\\x1b", "\\x9b", "\\033", "\\u001b", "\\u001B", "\\e")


def _modules() -> list[Path]:
    """Every module of the package but the grammar (the stream too, which reads homing clears from it)."""
    return sorted(path for path in PIPELINE.parent.rglob("*.py") if path != PIPELINE / "grammar.py")


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


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PIPELINE.parent)))
def test_no_escape_pattern_outside_the_grammar(path: Path) -> None:
    assert escape_patterns(path.read_text(encoding="utf-8")) == [], f"{path.name}: an escape pattern; use grammar.py"


# --- Imports: no cycle in textclean; the verifier a chain that never reaches the cleaner ------------

PACKAGE = PIPELINE.parent
#: The verifier's modules, each importing only those before it (``__init__`` holds the API on top).
VERIFIER_CHAIN = ("meaning", "compare", "fast", "state", "moves", "cells", "sequences", "page_breaks", "replays",
                  "runs", "paging", "matching", "cut_check")
#: What the verifier shares with the cleaner: facts, never a model (``str_kinds``: the ``str`` subclasses
#: mypyc leaves pure, each used by one side).
SHARED = {"textclean.pipeline.grammar", "textclean.pipeline.model", "textclean.pipeline.names",
          "textclean.pipeline.widths", "textclean.pipeline.str_kinds"}


def import_graph(root: Path, package: str) -> dict[str, dict[str, set[str]]]:
    """Each module of ``package`` (at ``root``) -> each module of it it imports (anywhere in its body,
    functions included) -> the names it takes from it."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in root.rglob("*.py"):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, dict[str, set[str]]] = {}
    for name, (path, is_package) in modules.items():
        edges: dict[str, set[str]] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = name.split(".") if is_package else name.split(".")[:-1]
                if node.level:
                    base = base[: len(base) - node.level + 1]
                target = ".".join(base + [node.module]) if node.level and node.module else (
                    ".".join(base) if node.level else node.module or "")
                for alias in node.names:
                    module = f"{target}.{alias.name}"
                    if module in modules:
                        edges.setdefault(module, set())
                    elif target in modules:
                        edges.setdefault(target, set()).add(alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        edges.setdefault(alias.name, set())
        edges.pop(name, None)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n    return x\n")
    (tmp_path / "c.py").write_text("from .a import b\n")
    assert cycles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.b"]]


def test_no_import_cycle_in_textclean() -> None:
    assert cycles(import_graph(PACKAGE, "textclean")) == []


def chain_violations(graph: dict[str, dict[str, set[str]]]) -> list[str]:
    """Where the verifier imports something not shared with the cleaner and not before it in the chain,
    or a private name of a module before it."""
    verifier = "textclean.pipeline.verify"
    problems = []
    for position, name in enumerate((*VERIFIER_CHAIN, "__init__")):
        module = verifier if name == "__init__" else f"{verifier}.{name}"
        before = {f"{verifier}.{earlier}" for earlier in VERIFIER_CHAIN[:position]}
        for imported, names in graph.get(module, {}).items():
            if imported not in SHARED and imported not in before:
                problems.append(f"{module} imports {imported}")
            elif imported in before and any(n.startswith("_") for n in names):
                problems.append(f"{module} takes private names of {imported}: {sorted(names)}")
    return problems


def test_the_verifier_imports_nothing_of_the_cleaner_and_is_a_chain() -> None:
    graph = import_graph(PACKAGE, "textclean")
    verifier = "textclean.pipeline.verify"
    assert {module.rsplit(".", 1)[1] for module in graph if module.startswith(verifier + ".")} == set(VERIFIER_CHAIN)
    assert chain_violations(graph) == []


def test_the_chain_rule_can_fail() -> None:
    verifier = "textclean.pipeline.verify"
    graph = import_graph(PACKAGE, "textclean")
    graph[f"{verifier}.fast"] = {f"{verifier}.paging": set(), f"{verifier}.meaning": {"_Width"},
                                 "textclean.pipeline.clean": set()}
    assert len(chain_violations(graph)) == 3
    graph = import_graph(PACKAGE, "textclean")
    graph[f"{verifier}.moves"][f"{verifier}.cells"] = set()  # a layer of the model's class taking a later one
    assert chain_violations(graph) == [f"{verifier}.moves imports {verifier}.cells"]


#: The cleaner's package: the gate calls its API (``clean/__init__.py``), never a module inside it.
CLEANER = "textclean.pipeline.clean"


def past_the_apis(graph: dict[str, dict[str, set[str]]], module: str = "textclean.pipeline.gate") -> list[str]:
    """The modules inside the cleaner's or the verifier's package that ``module`` imports (the gate may
    import their package APIs and the shared modules only)."""
    return sorted(imported for imported in graph.get(module, {})
                  if imported.startswith((f"{CLEANER}.", "textclean.pipeline.verify.")))


def test_the_gate_imports_only_the_cleaners_and_the_verifiers_api() -> None:
    graph = import_graph(PACKAGE, "textclean")
    assert {CLEANER, "textclean.pipeline.verify"} <= set(graph["textclean.pipeline.gate"])
    assert past_the_apis(graph) == []


def test_the_gate_rule_can_fail(tmp_path: Path) -> None:
    """A gate that reaches into the cleaner's walk (as it did before ``candidate(keep=...)``), at module
    level or in a function, is found."""
    clean = tmp_path / "pipeline" / "clean"
    clean.mkdir(parents=True)
    for path in (tmp_path / "__init__.py", tmp_path / "pipeline" / "__init__.py", clean / "__init__.py",
                 clean / "walk.py", clean / "assemble.py"):
        path.write_text("")
    (tmp_path / "pipeline" / "gate.py").write_text(
        "from . import clean\nfrom .clean import walk\ndef f():\n    from .clean.assemble import Segment\n")
    assert past_the_apis(import_graph(tmp_path, "textclean")) == [f"{CLEANER}.assemble", f"{CLEANER}.walk"]


# --- Sizes and names: modules small enough to read, named once in the pipeline (issue 38) --------------
MODULE_LINES = 800
CLASS_LINES = 500  # docs/design.md: the verifier's model is split by concern, each class under this


def oversized(directory: Path, module_lines: int = MODULE_LINES, class_lines: int = CLASS_LINES) -> dict[str, int]:
    """The modules directly in ``directory`` over ``module_lines`` lines, and their classes (at any depth)
    of ``class_lines`` lines or more: ``name.py`` or ``name.py:Class`` -> its lines."""
    found: dict[str, int] = {}
    for path in sorted(directory.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) > module_lines:
            found[path.name] = len(source.splitlines())
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                if node.end_lineno - node.lineno + 1 >= class_lines:
                    found[f"{path.name}:{node.name}"] = node.end_lineno - node.lineno + 1
    return found


def test_no_verifier_module_or_class_is_over_the_designs_size() -> None:
    """The design's file map: no module of the verifier over 800 lines, each class of its model under
    500 (issue 24 split ``Model`` by concern, issue 38 gave each layer its module); a module or class
    that grows past it is split again, not let grow."""
    verifier = PIPELINE / "verify"
    assert "paging.py:Model" in oversized(verifier, class_lines=1)  # it reads the model's classes
    assert oversized(verifier) == {}


def test_the_size_rule_can_fail(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("x = 1\n" * (MODULE_LINES + 1))
    (tmp_path / "short.py").write_text("x = 1\n" * MODULE_LINES)
    body = "".join(f"    a{index} = {index}\n" for index in range(CLASS_LINES - 1))
    (tmp_path / "big.py").write_text(f"class Big:\n{body}")  # 500 lines: not under 500
    (tmp_path / "inner.py").write_text("def f() -> None:\n    class Inner:\n" + body.replace("    ", "        "))
    (tmp_path / "small.py").write_text("class Small:\n" + body.split("\n", 1)[1])
    assert oversized(tmp_path) == {"long.py": MODULE_LINES + 1, "big.py:Big": CLASS_LINES,
                                   "inner.py:Inner": CLASS_LINES}
    assert "cells.py:Cells" in oversized(PIPELINE / "verify", class_lines=CLASS_LINES // 2)


def shared_file_names(root: Path) -> dict[str, list[str]]:
    """File names that more than one module below ``root`` has (``__init__.py`` aside): name -> paths."""
    paths: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name != "__init__.py":
            paths.setdefault(path.name, []).append(path.relative_to(root).as_posix())
    return {name: found for name, found in paths.items() if len(found) > 1}


def test_no_two_pipeline_modules_share_a_file_name() -> None:
    """A name says which module it is: the cleaner's and the verifier's sides name theirs apart."""
    assert shared_file_names(PIPELINE) == {}


def test_the_shared_name_rule_can_fail(tmp_path: Path) -> None:
    for path in ("__init__.py", "screen.py", "verify/__init__.py", "verify/screen.py", "verify/paging.py"):
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text("")
    assert shared_file_names(tmp_path) == {"screen.py": ["screen.py", "verify/screen.py"]}


def test_every_cleaner_module_and_class_is_under_the_designs_size() -> None:
    """The cleaner's package (issue 38: ``ScreenModel`` was 1,015 lines, split by concern into a chain of
    classes, ``screen_state`` <- ``screen_regions`` <- ``screen_erases`` <- ``screen_moves`` <- ``screen``)."""
    assert "screen.py:ScreenModel" in oversized(PIPELINE / "clean", class_lines=1)
    assert oversized(PIPELINE / "clean") == {}
    assert oversized(PIPELINE) == {}


# --- the file maps: docs/design.md names every module, tests/README.md every test file -----------------
ROOT = PACKAGE.parent
MAPPED_PACKAGES = ("textclean", "oracle", "fixtures_gen", "fuzz", "benchmarks")
_TICKED = re.compile(r"`([^`\s]+)`")


def _holds_code(path: Path) -> bool:
    """An ``__init__.py`` is a module of its own only when it defines something (else it marks a package)."""
    if path.name != "__init__.py":
        return True
    return any(isinstance(node, ast.FunctionDef | ast.ClassDef) for node in ast.parse(path.read_text("utf-8")).body)


def modules_to_map(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for package in MAPPED_PACKAGES
            for path in (root / package).rglob("*.py") if _holds_code(path)}


def layout_names(design: str) -> set[str]:
    """The paths the layout table of ``docs/design.md`` names. A row's first cell lists paths, a bare name
    after the first taken in the first one's directory (`textclean/integrations/hook.py`, `litellm.py`);
    a row for a directory (`fuzz/`) names its modules by bare name anywhere in the row."""
    section = design.split("## Repository layout", 1)[1].split("\n## ", 1)[0]
    named: set[str] = set()
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        first_cell, rest = re.split(r"(?<!\\)\|", row[1:], maxsplit=1)
        paths = _TICKED.findall(first_cell)
        base = paths[0] if paths[0].endswith("/") else paths[0].rpartition("/")[0] + "/"
        for path in paths:
            named.add(path if "/" in path else base + path)
        if len(paths) == 1 and paths[0].endswith("/"):
            named.update(name if "/" in name else base + name for name in _TICKED.findall(rest) if name.endswith(".py"))
    return named


def files_under_tests(tests: Path) -> set[str]:
    return {path.relative_to(tests).as_posix() for path in tests.rglob("*.py")
            if path.name != "__init__.py" and "node_modules" not in path.parts}


def readme_names(readme: str) -> set[str]:
    return set(_TICKED.findall(readme)) | {name.removeprefix("tests/") for name in _TICKED.findall(readme)}


def test_the_design_names_every_module_and_no_other() -> None:
    named = layout_names((ROOT / "docs" / "design.md").read_text("utf-8"))
    assert modules_to_map(ROOT) - named == set(), "add a row (or a name) to docs/design.md's layout table"
    assert {path for path in named if not (ROOT / path).exists()} == set()  # a row left behind by a rename


def test_the_tests_readme_names_every_test_file_and_helper() -> None:
    readme = (ROOT / "tests" / "README.md").read_text("utf-8")
    missing = files_under_tests(ROOT / "tests") - readme_names(readme)
    assert missing == set(), "add it to tests/README.md"
    assert re.search(r"(?<![\w.~])/(work|home|Users|tmp)/", readme) is None  # no one machine's paths


def test_the_maps_checks_fail_on_a_missing_or_stale_name() -> None:
    """A row taken out of each map is found missing, a name left behind by a rename is found stale (the
    checks above read what they claim to)."""
    design = (ROOT / "docs" / "design.md").read_text("utf-8")
    row = next(line for line in design.splitlines() if line.startswith("| `textclean/pipeline/clean/walk.py`"))
    assert "textclean/pipeline/clean/walk.py" in modules_to_map(ROOT) - layout_names(design.replace(row + "\n", ""))
    renamed = layout_names(design.replace("`alt_screen.py`", "`red33.py`"))
    assert "fuzz/alt_screen.py" in modules_to_map(ROOT) - renamed
    assert "fuzz/red33.py" in {path for path in renamed if not (ROOT / path).exists()}
    readme = (ROOT / "tests" / "README.md").read_text("utf-8")
    assert "test_layout.py" in files_under_tests(ROOT / "tests") - readme_names(readme.replace("`test_layout.py`", "x"))
    assert "hosts/anthropic_mock.py" in files_under_tests(ROOT / "tests") - readme_names(
        readme.replace("anthropic_mock.py`", "x`"))


# --- the cleaner's one dispatch table (issue 38): no other cleaner module reads a final byte ----------
CLEANER_DIR = PIPELINE / "clean"
DISPATCH = CLEANER_DIR / "dispatch.py"


def final_byte_reads(source: str) -> list[int]:
    """Lines that decode a parsed sequence's final byte: ``.final`` (or a name bound to it) compared,
    matched, used as a subscript, or looked up (``table.get(seq.final)``)."""
    tree = ast.parse(source)
    aliases = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Attribute) and node.value.attr == "final"
               for target in node.targets if isinstance(target, ast.Name)}

    def is_final(expr: ast.AST) -> bool:
        return (isinstance(expr, ast.Attribute) and expr.attr == "final") or (
            isinstance(expr, ast.Name) and expr.id in aliases)

    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(is_final(e) for e in (node.left, *node.comparators)):
            found.add(node.lineno)
        elif isinstance(node, ast.Subscript) and is_final(node.slice):
            found.add(node.lineno)
        elif isinstance(node, ast.Match) and is_final(node.subject):
            found.add(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop", "__getitem__", "__contains__") and node.args
              and is_final(node.args[0])):
            found.add(node.lineno)
    return sorted(found)


@pytest.mark.parametrize("path", sorted(p for p in CLEANER_DIR.rglob("*.py") if p != DISPATCH),
                         ids=lambda path: str(path.relative_to(PIPELINE)))
def test_no_cleaner_module_but_the_dispatch_table_reads_a_final_byte(path: Path) -> None:
    assert final_byte_reads(path.read_text(encoding="utf-8")) == [], f"{path.name}: decode it in clean/dispatch.py"


def test_the_dispatch_table_reads_final_bytes() -> None:
    assert final_byte_reads(DISPATCH.read_text(encoding="utf-8"))


# The decoders the table replaced, as they stood at ac38efb (clean/__init__.py's _plan, clean/feed.py's
# _plan and _apply, shortened): each is a second decoder the rule finds.
_OLD_LINE_PLAN = '''
def _plan(token: str) -> _Plan:
    seq = grammar.parse(token)
    act: _Act | None = None
    if grammar.harmless_mode_change(seq) or grammar.harmless_private_mode_change(seq):
        act = _nothing
    elif (seq.kind is Kind.CSI and not seq.private and not seq.intermediates
          and (not seq.params or seq.params.isdigit())):
        action = _CSI_ACTIONS.get(seq.final)
        if action is not None and not (seq.params and seq.final in _PARAMETERLESS):
            act = action(seq)
    elif seq.kind is Kind.ESC2 and seq.final in _ESC_ACTIONS:
        act = _ESC_ACTIONS[seq.final]
    return _Plan(seq, disputed, grammar.clears_or_homes(seq), act)
'''
_OLD_SCREEN_PLAN = '''
def _plan(seq: grammar.Sequence) -> _Act | None:
    numbers = _numbers(seq)
    final = seq.final
    count = numbers[0] or 1
    if final in (CUP, HVP):
        return methodcaller("cursor_position", numbers[0] - 1, numbers[1] - 1)
    if final == VPA:
        return methodcaller("cursor_position", count - 1, None)
    return None
'''
_OLD_SCREEN_APPLY = '''
def _apply(model: ScreenModel, seq: grammar.Sequence, offset: int) -> None:
    if seq.kind is Kind.ESC2 and seq.final in (DECSC, DECRC, RI, IND, NEL):
        if seq.final == DECSC:
            model.save_cursor()
'''


def test_the_final_byte_rule_finds_the_old_decoders() -> None:
    assert final_byte_reads(_OLD_LINE_PLAN) == [9, 10, 12, 13]
    assert final_byte_reads(_OLD_SCREEN_PLAN) == [6, 8]
    assert final_byte_reads(_OLD_SCREEN_APPLY) == [3, 4]
    assert final_byte_reads("def f(seq):\n    match seq.final:\n        case 'K':\n            pass\n") == [2]
    assert final_byte_reads("def f(seq):\n    return seq.params.split(';')\n") == []
