"""The verifier on whole sessions: its screen model against a live tmux, and candidates page by page.

tmux 3.3a is the judge (SESSIONS_CONTRACT.md): generated sessions (clears, CUP, regions, IL/DL,
wrapping, the alternate screen) and the peer suites' recordings are fed to a private tmux server at
their sizes, with tmux's default ``scroll-on-clear`` (a cleared screen goes to the history) and
``capture-pane -J`` (wrapped rows joined, as the verifier reads a wrapped line). Every session the
verifier resolves must show exactly tmux's lines; those it refuses are counted, never passed.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from wcwidth import wcwidth

from oracle import tmux
from textclean.pipeline import verify_screen
from textclean.pipeline.verify import Unresolvable, terminal_lines

ESC = "\x1b"
CSI = ESC + "["
SIZES = [(20, 10), (40, 8), (80, 24), (13, 6)]
ALT_ENTER = (CSI + "?1049h", CSI + "?47h", CSI + "?1047h")

needs_tmux = pytest.mark.skipif(not tmux.available(), reason="tmux not installed")


# --- a tmux that keeps cleared screens, read with wrapped rows joined -------------------------------


class SessionTmux(tmux.TmuxServer):
    def __init__(self, directory: Path, history: bool = True) -> None:
        super().__init__(directory)
        self.history = history  # False: the visible screen only
        self._run("set", "-gw", "scroll-on-clear", "on")  # tmux 3.3a's default

    def _stable_capture(self, name: str) -> list[str]:
        previous = None
        for _ in range(20):
            span = ("-S", "-", "-E", "-") if self.history else ()
            out = self._run("capture-pane", "-p", "-J", *span, "-t", f"oracle:{name}")
            if out == previous:
                break
            previous = out
            time.sleep(0.05)
        return [line.rstrip(" ") for line in out.split("\n") if line.strip(" ")]


@contextmanager
def session_tmux(history: bool = True) -> Iterator[SessionTmux]:
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="verify-tmux-") as directory:
        try:
            yield SessionTmux(Path(directory), history)
        finally:
            subprocess.run(["tmux", "-S", str(Path(directory) / "socket"), "kill-server"],
                           capture_output=True, timeout=30)


def tmux_show(streams: list[tuple[str, int, int]], history: bool = True) -> list[list[str]]:
    with session_tmux(history) as server:
        return [c.lines for c in server.show_many([(t.encode(), c, r) for t, c, r in streams])]


def ours(text: str, columns: int | None, rows: int | None) -> list[str] | None:
    try:
        return [line.rstrip(" ") for line in terminal_lines(text, columns=columns, rows=rows)]
    except Unresolvable:
        return None


# --- generated sessions -----------------------------------------------------------------------------

WORDS = "alpha beta gamma delta pip install numpy Downloading 100% done error: ok test_x.py PASSED".split()


def words(rng: random.Random, width: int) -> str:
    out = ""
    while len(out) < width:
        out += rng.choice(WORDS) + " "
    return out[: max(1, width)].rstrip() or "x"


def step(rng: random.Random, columns: int, rows: int) -> str:
    kind = rng.choice(
        ["lines", "lines", "lines", "clear", "cup", "vpa", "cha", "il", "dl", "ich", "dch", "rep", "su",
         "sd", "region", "cr", "el", "cuu", "wrap", "ri"]
    )
    row, col = rng.randint(1, rows + 1), rng.randint(1, columns + 2)
    n = rng.randint(1, 4)
    text = words(rng, rng.randint(1, columns - 1))
    if kind == "lines":
        return "".join(words(rng, rng.randint(1, columns - 1)) + "\n" for _ in range(rng.randint(1, rows + 3)))
    if kind == "wrap":
        return words(rng, rng.randint(columns, 3 * columns)) + rng.choice(["\n", "", "\r\n"])
    if kind == "clear":
        return rng.choice([CSI + "H" + CSI + "2J", CSI + "2J", CSI + "H" + CSI + "J", ESC + "c",
                           CSI + "2J" + CSI + "H", CSI + "1;1H" + CSI + "0J"])
    if kind == "cup":
        return f"{CSI}{row};{col}H{text}"
    if kind == "vpa":
        return f"{CSI}{row}d{text}"
    if kind == "cha":
        return f"{CSI}{col}G{text}"
    if kind in ("il", "dl", "ich", "dch", "su", "sd"):
        final = {"il": "L", "dl": "M", "ich": "@", "dch": "P", "su": "S", "sd": "T"}[kind]
        return ("\r" if rng.random() < 0.8 else "") + f"{CSI}{n}{final}" + (text if rng.random() < 0.5 else "")
    if kind == "rep":
        return f"{text}{CSI}{rng.randint(1, 8)}b\n"
    if kind == "region":
        top = rng.randint(1, rows - 1)
        bottom = rng.randint(top + 1, rows)
        body = "".join(f"{words(rng, rng.randint(1, columns - 1))}\n" for _ in range(rng.randint(1, rows)))
        ri = (ESC + "M") * rng.randint(0, 2)
        return f"{CSI}{top};{bottom}r{CSI}{bottom};1H{body}{CSI}{top};1H{ri}{text}{CSI}r"
    if kind == "ri":
        return (ESC + "M") * n + text
    if kind == "cr":
        return f"{text}\r{words(rng, rng.randint(1, columns - 1))}\n"
    if kind == "el":
        return f"{text}{CSI}{rng.randint(1, columns)}G{CSI}{rng.choice(['', '1', '2'])}K\n"
    return f"{CSI}{n}A{text}"


def generated(seed: int, columns: int, rows: int) -> str:
    rng = random.Random(seed)
    parts = [CSI + "H" + CSI + "2J"] if rng.random() < 0.8 else []
    parts += [step(rng, columns, rows) for _ in range(rng.randint(3, 14))]
    return "".join(parts)


SESSIONS = [(generated(seed, *SIZES[seed % len(SIZES)]), *SIZES[seed % len(SIZES)]) for seed in range(240)]


@pytest.mark.tmux
@needs_tmux
def test_generated_sessions_agree_with_tmux() -> None:
    """Every session the verifier resolves shows tmux's lines exactly; most resolve."""
    resolved = [(text, c, r, lines) for text, c, r in SESSIONS if (lines := ours(text, c, r)) is not None]
    shown = tmux_show([(text, c, r) for text, c, r, _ in resolved])
    disagreeing = [(text, c, r) for (text, c, r, lines), judge in zip(resolved, shown, strict=True)
                   if lines != judge]
    assert not disagreeing, disagreeing[:3]
    print(f"\ngenerated sessions resolved: {len(resolved)} of {len(SESSIONS)}")
    assert len(resolved) >= len(SESSIONS) * 2 // 5, f"only {len(resolved)} of {len(SESSIONS)} resolved"


def alt_session(seed: int, columns: int, rows: int) -> tuple[str, str]:
    """(the whole session, the session cut just before it leaves the alternate screen)."""
    rng = random.Random(seed)
    before = CSI + "H" + CSI + "2J" + "".join(step(rng, columns, rows) for _ in range(rng.randint(1, 4)))
    enter = ALT_ENTER[0] if rng.random() < 0.7 else rng.choice(ALT_ENTER)  # less and vim use ?1049
    inside = rng.choice(["", CSI + "H"]) + "".join(step(rng, columns, rows) for _ in range(rng.randint(1, 5)))
    leave = enter.replace("h", "l")
    after = "".join(words(rng, rng.randint(1, columns - 1)) + "\n" for _ in range(rng.randint(0, rows + 2)))
    return before + enter + inside + leave + after, before + enter + inside


@pytest.mark.tmux
@needs_tmux
def test_alternate_screen_sessions_agree_with_tmux() -> None:
    """The alternate screen's page is what tmux shows just before leaving it; the rest is tmux's."""
    cases = []
    for seed in range(60):
        columns, rows = SIZES[seed % len(SIZES)]
        whole, inside = alt_session(1000 + seed, columns, rows)
        try:
            pages = verify_screen.pages(whole, columns, rows, strict=True)
        except verify_screen.Undecided:
            continue
        alt = [p for p in pages if p.alternate]
        rest = [line.rstrip(" ") for p in pages if p not in alt for line in p.lines]
        cases.append((whole, inside, columns, rows, [line.rstrip(" ") for p in alt for line in p.lines], rest))
    shown = tmux_show([(c[0], c[2], c[3]) for c in cases])
    screens = tmux_show([(c[1], c[2], c[3]) for c in cases], history=False)
    for index, (whole, _inside, _columns, _rows, alt_lines, rest) in enumerate(cases):
        assert rest == shown[index], whole
        on_alt = screens[index]
        # tmux keeps no history on the alternate screen: its rows are the end of our alt page
        assert alt_lines[len(alt_lines) - len(on_alt):] == on_alt if on_alt else True, whole
    print(f"\nalternate-screen sessions resolved: {len(cases)} of 60")
    assert len(cases) >= 15, f"only {len(cases)} of 60 resolved"


# --- the peer suites' recordings at their sizes ------------------------------------------------------


def corpora_root() -> Path | None:
    root = os.environ.get("TEXTCLEAN_CORPORA")
    path = Path(root) if root else Path(__file__).resolve().parents[2] / "shared" / "corpora"
    return path if path.is_dir() else None


def recordings() -> list[tuple[str, str, int, int]]:
    root = corpora_root()
    if root is None:
        return []
    out = []
    for folder in sorted((root / "alacritty").iterdir()):
        if (folder / "alacritty.recording").exists():
            size = json.loads((folder / "size.json").read_text())
            data = (folder / "alacritty.recording").read_bytes().decode("utf-8", "replace")
            out.append((f"alacritty/{folder.name}", data, size["columns"], size["screen_lines"]))
    for source in sorted((root / "xtermjs").glob("*.in")):
        out.append((f"xtermjs/{source.stem}", source.read_bytes().decode("utf-8", "replace"), 80, 25))
    for source in sorted((root / "pyte_captured").glob("*.input")):
        out.append((f"pyte/{source.stem}", source.read_bytes().decode("utf-8", "replace"), 80, 24))
    return out


def as_shown(line: str) -> str:
    """Our line as tmux draws it: a tab (kept literally) is spaces to the next stop."""
    if "\t" not in line:
        return line
    out, column = [], 0
    for char in line:
        if char == "\t":
            out.append(" " * (8 - column % 8))
            column += 8 - column % 8
        else:
            out.append(char)
            column += max(wcwidth(char), 0)
    return "".join(out).rstrip(" ")


def in_order(needles: list[str], haystack: list[str]) -> bool:
    found = iter(haystack)
    return all(any(line == candidate for candidate in found) for line in needles)


@pytest.mark.tmux
@needs_tmux
def test_peer_recordings_agree_with_tmux() -> None:
    cases = recordings()
    if not cases:
        pytest.skip("peer corpora absent (set TEXTCLEAN_CORPORA)")
    resolved = []
    for name, text, columns, rows in cases:
        try:
            pages = verify_screen.pages(text, columns, rows, strict=True)
        except verify_screen.Undecided:
            continue
        lines = [as_shown(line.rstrip(" ")) for p in pages for line in p.lines]
        exact = not any(marker in text for marker in (*ALT_ENTER, CSI + "3J"))
        resolved.append((name, text, columns, rows, lines, exact))
    shown = tmux_show([(c[1], c[2], c[3]) for c in resolved])
    for (name, _text, _columns, _rows, lines, exact), judge in zip(resolved, shown, strict=True):
        if exact:
            assert lines == judge, name
        else:  # tmux dropped the alternate screen or its history (ED 3): we keep more, in order
            assert in_order(judge, lines), name
    print(f"\npeer recordings resolved: {len(resolved)} of {len(cases)}")
    assert len(resolved) >= len(cases) // 3
