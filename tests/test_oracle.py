"""The oracle's interfaces: render, informative_lines, check_lossless, agrees, the CLI, oracle.pytest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from oracle.__main__ import main
from oracle.pytest import assert_agrees, assert_lossless


def test_render_model() -> None:
    r = oracle.render(b"a\tb  \r\n\r\n\x1b[1mbold\x1b[m\n")
    assert r.lines == ["a       b", "", "bold"]
    assert r.informative == ["a       b", "bold"]
    assert r.rows == oracle.DEFAULT_LINES
    assert r.columns >= len("a       b  ")
    assert oracle.informative_lines("x\ny\n") == ["x", "y"]


def test_no_wrapping_of_long_lines() -> None:
    line = "x" * 500 + "\t" + "y" * 10 + "\x1b[3Cz"
    assert oracle.informative_lines(line + "\n") == ["x" * 500 + " " * 4 + "y" * 10 + "   z"]
    wide = "日本" * 200
    assert oracle.informative_lines(wide) == [wide]


def test_scrollback_is_unbounded_and_ordered() -> None:
    data = "".join(f"{i}\n" for i in range(1000))
    r = oracle.render(data)
    assert r.informative == [str(i) for i in range(1000)]
    assert len(r.scrollback) == 1000 - 23


def test_columns_and_lines_parameters() -> None:
    r = oracle.render(b"abcdef", columns=4, lines=2)
    assert r.screen == ("abcd", "ef")
    assert oracle.render(b"1\n2\n3", lines=2).scrollback == ("1",)


def test_bytes_and_str_render_alike() -> None:
    raw = b"ok \xff\xfe bytes\n"
    assert oracle.render(raw).lines == oracle.render(raw.decode("utf-8", "surrogateescape")).lines
    assert oracle.render(raw).lines == ["ok \ufffd\ufffd bytes"]


def test_check_lossless_redraws_are_not_required() -> None:
    raw = b"Downloading 10%\rDownloading 50%\rDownloading 100%\nnext\n"
    assert oracle.check_lossless(raw, "Downloading 100%\nnext\n").ok
    # cursor-up redraw of a two-line block: only the final frame is required
    raw = b"a 1\nb 1\n\x1b[2A\x1b[2Ka 2\n\x1b[2Kb 2\n"
    assert oracle.check_lossless(raw, "a 2\nb 2\n").ok


def test_check_lossless_requires_what_ed_and_alternate_screen_hid() -> None:
    raw = b"important\n\x1b[H\x1b[2Jafter\n"
    assert oracle.informative_lines(raw) == ["after"]
    assert oracle.check_lossless(raw, "important\nafter\n").ok
    result = oracle.check_lossless(raw, "after\n")
    assert not result.ok and result.missing == "important" and result.index == 0
    assert "important" in result.describe()
    raw = b"before\n\x1b[?1049hTUI frame\n\x1b[?1049lafter\n"
    assert oracle.check_lossless(raw, "before\nTUI frame\nafter\n").ok
    assert oracle.check_lossless(raw, "before\nafter\n").missing == "TUI frame"
    # order matters
    assert oracle.check_lossless(b"one\ntwo\n", "two\none\n").missing == "two"


def test_check_lossless_modulo_tabs_and_trailing_spaces() -> None:
    raw = b"a       b   \ncol1    col2\n"
    assert oracle.check_lossless(raw, "a\tb\ncol1\tcol2   \n").ok
    assert oracle.agrees(raw, "a\tb\ncol1\tcol2\n")
    assert not oracle.agrees(raw, "a\tb\n")


def test_agrees_in_scope() -> None:
    raw = b"\x1b[32mgreen\x1b[0m\nspin |\rspin /\rdone  \n"
    assert oracle.agrees(raw, "green\ndone\n")
    assert not oracle.agrees(raw, "green\nspin /\n")


def test_pytest_helpers() -> None:
    raw = b"keep me\n\x1b[2Jgone\n"
    assert_lossless(raw, "keep me\ngone\n")
    with pytest.raises(AssertionError, match="'keep me'"):
        assert_lossless(raw, "gone\n")
    assert_agrees(b"a\rb\n", "b\n")
    with pytest.raises(AssertionError, match="line 1 differs.*'b'.*'a'"):
        assert_agrees(b"a\rb\n", "a\n")
    with pytest.raises(AssertionError, match="line 2 missing.*'c'"):
        assert_agrees(b"b\nc\n", "b\n")


def test_cli_render(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    raw = tmp_path / "raw"
    raw.write_bytes(b"\x1b[1mtitle\x1b[0m\n50%\r100%\n")
    assert main(["render", str(raw)]) == 0
    assert capsysbinary.readouterr().out == b"title\n100%\n"


def test_cli_check(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.write_bytes(b"first\n\x1b[2J\x1b[Hsecond\n")
    good = tmp_path / "good"
    good.write_bytes(b"first\nsecond\n")
    bad = tmp_path / "bad"
    bad.write_bytes(b"second\n")
    run = [sys.executable, "-m", "oracle", "check", str(raw)]
    ok = subprocess.run([*run, str(good)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    failed = subprocess.run([*run, str(bad)], capture_output=True, text=True)
    assert failed.returncode == 1
    assert "'first'" in failed.stderr


@pytest.mark.parametrize(
    ("raw", "hidden"),
    [
        (b"gone\n\x1bcafter\n", "gone"),  # RIS
        (b"gone\n\x1b[?3lafter\n", "gone"),  # DECCOLM clears
        (b"gone\n\x1b[2Jafter\n", "gone"),  # ED 2
        (b"gone\n\x1b[H\x1b[Jafter\n", "gone"),  # ED 0 from home
        (b"gone\n\x1b[H\x1b[2J\x1b[3Jafter\n", "gone"),  # clear's own bytes
        (b"\x1b[?1049hgone\n\x1b[?1049lafter\n", "gone"),  # left on the alternate screen
        (b"\x1b[?1049h" + b"".join(b"frame %d\n" % i for i in range(30)) + b"\x1b[?1049l", "frame 0"),
        (b"\x1b[?1049hgone\x1b[2Jafter\x1b[?1049l", "gone"),  # a cleared alternate screen
    ],
)
def test_shown_lines_cover_cleared_pages(raw: bytes, hidden: str) -> None:
    rendering = oracle.render(raw)
    assert hidden not in rendering.informative
    assert hidden in rendering.shown
    # every line shown, by hand: the hidden page's lines, then what follows
    if hidden == "frame 0":
        keeps = "".join(f"frame {i}\n" for i in range(30))
    elif raw.endswith(b"after\x1b[?1049l"):
        keeps = "gone\n    after\n"  # ED 2 leaves the cursor at column 4
    else:
        keeps = "gone\nafter\n"
    assert oracle.check_lossless(raw, keeps).ok
    assert oracle.check_lossless(raw, "\n".join(rendering.informative)).missing == hidden


@pytest.mark.parametrize(
    "raw",
    [
        b"keep\ngone\n\x1b[1A\x1b[Mafter\n",  # DL
        b"\x1b[1;3r\x1b[1;1Ha\nb\ngone\x1b[1;1H\x1b[Lafter\n",  # IL pushes it off the region
        b"\x1b[1;2r\x1b[2;1Hgone\x1b[1;1H\x1bMafter\n",  # RI at the top margin
        b"keep\ngone\x1b[2;1H\x1b[0Jafter\n",  # ED 0 below the top
        b"gone\nkeep\x1b[1;1H\x1b[1Jafter\n",  # ED 1
    ],
)
def test_lines_a_page_takes_back_are_not_required(raw: bytes) -> None:
    """Within a page its final state counts (docs/design.md, 'Pages'): a deleted, pushed-off or partly
    erased row never reaches tmux's history, so a candidate may drop it."""
    for flavour in ("xterm", "tmux"):
        rendering = oracle.render(raw, flavour=flavour)
        assert "gone" not in rendering.shown and "gone" not in rendering.lines
    assert oracle.check_lossless(raw, "\n".join(oracle.render(raw).informative)).ok


def test_shown_lines_are_ordered_by_first_drawing() -> None:
    # "top" stays on the main screen while an alternate screen comes and goes: it was shown first.
    raw = b"top\n\x1b[?1049hmiddle\x1b[?1049lbottom\n"
    assert oracle.render(raw).shown == ("top", "middle", "bottom")
    assert oracle.check_lossless(raw, "top\nmiddle\nbottom\n").ok


_NOISY = st.lists(
    st.one_of(
        st.binary(max_size=12),
        st.sampled_from([b"\x1b[", b"\x1b]", b"\x1bP", b"\x1b_", b"\x1b(0", b"\x07", b"\x1b\\", b"\r", b"\n"]),
        st.tuples(st.integers(0, 120), st.sampled_from(b"@ABCDEFGHIJKLMPSTXZ`abdefghlmnrsu")).map(
            lambda p: b"\x1b[%d%c" % p
        ),
        st.sampled_from([b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?47h", b"\x1b[?3h", b"\x1bc", b"\x1b#8"]),
        st.text(max_size=6).map(str.encode),
    ),
    max_size=40,
).map(b"".join)


@settings(deadline=None)
@given(_NOISY)
def test_any_bytes_render_and_an_empty_candidate_loses_them(raw: bytes) -> None:
    rendering = oracle.render(raw)
    assert all(line == line.rstrip(" ") for line in rendering.lines)
    assert set(rendering.informative) <= set(rendering.shown) | set(rendering.scrollback)
    # an empty candidate loses the first shown line, whatever the bytes
    assert oracle.check_lossless(raw, b"").index == (0 if rendering.shown else None)
    narrow = oracle.render(raw, columns=7, lines=3, flavour="tmux")
    assert len(narrow.screen) == 3
