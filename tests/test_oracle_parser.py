"""The oracle reads escape sequences on its own (issue 24): it judges ``textclean.pipeline.grammar``, so a
bug planted there must not reach it.

The expected renderings below are written by hand from ECMA-48 (section 5.4: parameter bytes
0x30-0x3F, intermediate bytes 0x20-0x2F, final bytes 0x40-0x7E; section 5.3: ESC + 0x30-0x7E) and
checked against tmux 3.3a by ``test_probes_agree_with_tmux``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from oracle import tmux

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, LINES = 40, 10
FLAVOURS = ("xterm", "tmux")
# What the oracle may take from textclean: the names of control functions and the model's numbers.
SHARED = {"textclean.pipeline.names", "textclean.pipeline.model"}
GRAMMAR = "textclean.pipeline.grammar"

# ESC + byte that act on a fresh screen after "a": IND, NEL, RI (at the top: scrolls down), DECRC (home).
_ESCAPE_EFFECTS = {"D": ["a", " b"], "E": ["a", "b"], "M": [" b", "a"], "8": ["b"]}
# Left out: ESC c (RIS: xterm clears the scrollback, tmux keeps it) and ESC k (tmux opens its
# window-name string and swallows up to ST; the oracle draws on, a gap noted in the issue 24 report).
_ESCAPES_LEFT_OUT = "ck"


Lines = list[str]
# Undecodable bytes (read with surrogateescape): xterm shows each as U+FFFD; tmux collects E6 97 .. A5
# into 日 across a complete escape sequence, and abandons it at anything else.
_SPLIT = {"xterm": ["a\ufffd\ufffd\ufffdb"], "tmux": ["a日b"]}


def _probes() -> dict[str, tuple[str, Lines | dict[str, Lines]]]:
    """name -> (stream, the informative lines at 40x10 in both flavours, or in each)."""
    probes: dict[str, tuple[str, Lines | dict[str, Lines]]] = {
        # Bracketed paste and function keys: final byte ~ (issue 29's planted grammar bug).
        "paste-and-keys": ("a\x1b[200~b\x1b[201~c\x1b[15~d\x1b[1;5~e\x1b[3~f\n", ["abcdef"]),
        "paste-inside-utf8": ("a\udce6\udc97\x1b[200~\udca5b\n", _SPLIT),
        "ich": ("abc\r\x1b[2@X\n", ["X abc"]),  # final byte @: insert two blanks
        "ich-inside-utf8": ("a\udce6\udc97\x1b[@\udca5b\n", _SPLIT),
        "c0-inside-csi": ("abc\x1b[1\x08DX\n", ["aXc"]),  # BS executed, then CUB 1
        "can": ("a\x1b[1;2\x18b\n", ["ab"]),
        "sub": ("a\x1b[1;2\x1ab\n", ["ab"]),
        "can-in-nf": ("a\x1b(\x18b\n", ["ab"]),
        "parameter-after-intermediate": ("abc\x1b[ 1D\n", ["abc"]),  # void, not CUB
        "unterminated-csi": ("ab\x1b[12;3", ["ab"]),
    }
    for code in range(0x40, 0x7F):  # every final byte ends a CSI (private ? 99: no effect)
        probes[f"final-{code:02x}"] = (f"a\x1b[?99{chr(code)}b\n", ["ab"])
    for code in range(0x20, 0x30):  # every intermediate byte is part of the CSI
        probes[f"intermediate-{code:02x}"] = (f"a\x1b[1{chr(code)}qb\n", ["ab"])
        probes[f"nf-{code:02x}"] = (f"a\x1b{chr(code)}Bb\n", ["ab"])
    for code in range(0x30, 0x40):  # every parameter byte is part of the CSI (then SGR or void)
        probes[f"parameter-{code:02x}"] = (f"a\x1b[1{chr(code)}mb\n", ["ab"])
    for code in range(0x30, 0x7F):
        char = chr(code)
        if char not in "[]PX^_" + _ESCAPES_LEFT_OUT:
            probes[f"escape-{code:02x}"] = (f"a\x1b{char}b\n", _ESCAPE_EFFECTS.get(char, ["ab"]))
    for introducer in "]PX^_":  # OSC, DCS, SOS, PM, APC up to ST
        probes[f"string-{introducer}"] = (f"a\x1b{introducer}1;x\x1b\\b\n", ["ab"])
    return probes


PROBES = _probes()


def _expected(name: str, flavour: str) -> Lines:
    expected = PROBES[name][1]
    return expected[flavour] if isinstance(expected, dict) else expected


# Renders every probe in both flavours, plus what tmux_decode and estimate_columns read, as JSON.
_RENDER_PROBES = """
import json, sys
import oracle
from oracle.render import estimate_columns, tmux_decode
probes = json.loads(sys.stdin.read())
out = {}
for name, stream in probes.items():
    for flavour in ("xterm", "tmux"):
        out[name + "/" + flavour] = oracle.render(stream, columns=40, lines=10, flavour=flavour).informative
    out[name + "/estimate"] = estimate_columns(stream)
    out[name + "/tmux_decode"] = tmux_decode("\\udce6\\udc97" + stream + "\\udca5")
out["grammar loaded"] = "textclean.pipeline.grammar" in sys.modules
print(json.dumps(out))
"""

# Makes importing the grammar fail.
_BLOCK_GRAMMAR = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name == "textclean.pipeline.grammar":
            raise ImportError("the oracle must not import " + name)
        return None
sys.meta_path.insert(0, _Blocked())
"""

# Plants a bug in the grammar's byte classes before the oracle is imported (issue 29).
_PLANT = """
import json, sys
from textclean.pipeline import grammar
plants = json.loads({plants!r})
for name, value in plants.items():
    setattr(grammar, name, value)
"""


def _run(prelude: str, streams: dict[str, str]) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", prelude + _RENDER_PROBES],
        input=json.dumps(streams),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _streams() -> dict[str, str]:
    return {name: stream for name, (stream, _) in PROBES.items()}


@pytest.mark.parametrize("name", sorted(PROBES))
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_probes(name: str, flavour: str) -> None:
    rendering = oracle.render(PROBES[name][0], columns=COLUMNS, lines=LINES, flavour=flavour)
    assert rendering.informative == _expected(name, flavour)


def _imported(path: Path) -> set[str]:
    """The absolute modules a source file imports (``from a import b``: ``a``, or ``a.b`` for a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in SHARED:
                found.add(node.module)
            else:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_oracle_imports_no_textclean_grammar() -> None:
    """Statically: the oracle's modules take only names and model constants from textclean."""
    imports = {path.name: _imported(path) for path in sorted((ROOT / "oracle").glob("*.py"))}
    assert "textclean.pipeline.names" in imports["stream.py"]  # the scan sees the imports
    taken = {
        name: sorted(m for m in found if m.startswith("textclean") and m not in SHARED)
        for name, found in imports.items()
    }
    assert {name: modules for name, modules in taken.items() if modules} == {}


@pytest.fixture(scope="module")
def unplanted() -> dict[str, object]:
    """The probes rendered in a fresh process, the grammar as it is."""
    return _run("", _streams())


def test_oracle_renders_with_the_grammar_unimportable(unplanted: dict[str, object]) -> None:
    """At run time: with the grammar unimportable the oracle renders every probe alike, and never
    loads the grammar."""
    blocked = _run(_BLOCK_GRAMMAR, _streams())
    assert blocked["grammar loaded"] is False
    assert unplanted["grammar loaded"] is False
    assert blocked == unplanted


@pytest.mark.parametrize(
    "plants",
    [
        {"FINAL_BYTES": r"\x40-\x7d"},  # ~ lost: bracketed paste, function keys
        {"FINAL_BYTES": r"\x41-\x7e"},  # @ lost: ICH
        {
            "PARAMETER_BYTES": r"\x30-\x3b",
            "INTERMEDIATE_BYTES": r"\x21-\x2f",
            "INTERMEDIATE_CHARS": "!",
            "NF_FINAL_BYTES": r"\x40-\x7e",
            "TWO_BYTE_FINAL_BYTES": r"\x30-\x4f",
            "ABORT_CONTROLS": r"\x18",
            "C0_RANGE": r"\x00-\x1e",
            "PARAMETER_RANGE_LIMIT": 99,
        },
    ],
    ids=["final-tilde", "final-at", "every-class"],
)
def test_a_planted_grammar_bug_does_not_reach_the_oracle(
    plants: dict[str, object], unplanted: dict[str, object]
) -> None:
    """Byte classes broken in the loaded grammar before the oracle is imported: the oracle's renderings
    stay the hand-written ones, its width estimates and tmux decoding those of the intact grammar."""
    rendered = _run(_PLANT.format(plants=json.dumps(plants)), _streams())
    wrong = {
        f"{name}/{flavour}": rendered[f"{name}/{flavour}"]
        for name in PROBES
        for flavour in FLAVOURS
        if rendered[f"{name}/{flavour}"] != _expected(name, flavour)
    }
    assert wrong == {}
    assert rendered.pop("grammar loaded") is True  # the plant's own import
    assert {key: value for key, value in rendered.items() if unplanted[key] != value} == {}


@pytest.mark.tmux
@pytest.mark.skipif(not tmux.available(), reason="tmux is not installed (.ci/run installs it)")
def test_probes_agree_with_tmux() -> None:
    """The hand-written expectations are what tmux 3.3a shows."""
    names = sorted(PROBES)
    with tmux.server() as server:
        streams = [(PROBES[name][0].encode("utf-8", "surrogateescape"), COLUMNS, LINES) for name in names]
        captures = server.show_many(streams)
    shown = {
        name: [line for line in capture.lines if line.strip()] for name, capture in zip(names, captures, strict=True)
    }
    assert {name: lines for name, lines in shown.items() if lines != _expected(name, "tmux")} == {}
