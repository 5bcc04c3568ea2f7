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


def test_corpora_locate_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from oracle import corpora

    monkeypatch.setenv(corpora.ENVIRONMENT_VARIABLE, str(tmp_path))
    assert corpora.locate() == tmp_path
    monkeypatch.setenv(corpora.ENVIRONMENT_VARIABLE, str(tmp_path / "absent"))
    assert corpora.locate() is None
    (tmp_path / "shared" / "corpora").mkdir(parents=True)
    repo = tmp_path / "repo"
    monkeypatch.delenv(corpora.ENVIRONMENT_VARIABLE)
    assert corpora.locate(repo) == tmp_path / "shared" / "corpora"  # beside the checkout
    monkeypatch.setenv(corpora.ENVIRONMENT_VARIABLE, "")  # set but empty: none, even with ../shared there
    assert corpora.locate(repo) is None


# --- The displays (issue 28), named as textclean.clean names them ----------------------------------------

APC_BEL = "AB\x1b_x\x07\tCD\x1b\\\n"  # tmux reads the APC on to ST; a log viewer ends it at BEL


def test_no_terminal_removes_strings_ended_by_bel_as_a_log_viewer_does() -> None:
    assert oracle.without_bel_ended_strings(APC_BEL) == "AB\tCD\x1b\\\n"
    assert oracle.without_bel_ended_strings(APC_BEL.encode()) == b"AB\tCD\x1b\\\n"
    for introducer in "]PX^_":
        assert oracle.informative_lines(f"ab\x1b{introducer}x\x07cd\n", terminal=False) == ["abcd"]
    # Ended by ST, cancelled, or cut by another ESC: not a BEL-ended string, left to the renderer.
    assert oracle.without_bel_ended_strings("a\x1b_x\x1b\\b\x07") == "a\x1b_x\x1b\\b\x07"
    assert oracle.without_bel_ended_strings("a\x1b_x\x18b\x07") == "a\x1b_x\x18b\x07"
    rendering = oracle.render(APC_BEL, terminal=False)
    assert rendering.informative == ["AB      CD"]
    assert not rendering.ambiguous  # nothing left that terminals end differently
    assert "string-ended-by-bel" in oracle.render(APC_BEL, terminal=True).ambiguous
    # At a terminal tmux's flavour swallows on to ST.
    assert oracle.informative_lines(APC_BEL, terminal=True) == ["AB      CD"]
    assert oracle.render(APC_BEL, columns=80, rows=24, flavour="tmux").informative == ["AB"]


def test_no_terminal_has_no_right_margin() -> None:
    """Logical lines at any length: a CR goes back to the line's start, past tmux's 10000 columns too."""
    line = "x" * 20000 + "\rY\n"
    assert oracle.informative_lines(line, terminal=False) == ["Y" + "x" * 19999]
    rendering = oracle.render(line, terminal=False)
    assert rendering.columns > 20000
    # A terminal of unknown size is at most tmux's widest; at 80 columns the line wraps.
    assert oracle.render(line, terminal=True).columns == 10000
    at_80 = oracle.informative_lines("x" * 100 + "\rY\n", columns=80, rows=24)
    assert at_80 == ["x" * 80, "Y" + "x" * 19]


def test_unknown_size_is_the_default_rendering() -> None:
    for data in (APC_BEL, "x" * 300 + "\rY\n", "one\ntwo\x1b[A\rX\n", "a\x1b[2Jb\n"):
        assert oracle.render(data, terminal=True) == oracle.render(data)
        assert oracle.render(data, fresh=True) == oracle.render(data)


def test_a_size_is_a_terminal_and_no_terminal_takes_none() -> None:
    with pytest.raises(ValueError, match="no columns or rows"):
        oracle.render("x", terminal=False, columns=80)
    with pytest.raises(ValueError, match="needs a terminal"):
        oracle.render("x", terminal=False, fresh=True)
    with pytest.raises(ValueError, match="disagree"):
        oracle.render("x", rows=5, lines=6)
    assert oracle.render("x\n", rows=5).rows == 5


FIRST_PAGE_CUP = "a\nb\x1b[1;1HX\n"  # an absolute move before any page break


def test_fresh_is_a_new_terminal_and_not_fresh_one_in_use() -> None:
    assert oracle.informative_lines(FIRST_PAGE_CUP, columns=20, rows=5, fresh=True) == ["X", "b"]
    # In use: the screen was full, the output began on its bottom row; row 1 held earlier output.
    assert oracle.informative_lines(FIRST_PAGE_CUP, columns=20, rows=5, fresh=False) == ["X", "a", "b"]
    # Plain lines and output that starts with its own page break show the same on both.
    for data in ("one\ntwo\n", "\x1b[H\x1b[2Jone\x1b[1;1HX\n"):
        assert (oracle.informative_lines(data, columns=20, rows=5, fresh=False)
                == oracle.informative_lines(data, columns=20, rows=5, fresh=True))
    # No terminal: no earlier screen to write over.
    assert oracle.informative_lines("one\n", terminal=False, fresh=False) == ["one"]


def test_check_lossless_names_the_display() -> None:
    # A first-page absolute move resolved as on a new terminal: lossless there, not on one in use.
    assert oracle.check_lossless(FIRST_PAGE_CUP, "X\nb\n", columns=20, rows=5, fresh=True)
    lost = oracle.check_lossless(FIRST_PAGE_CUP, "X\nb\n", columns=20, rows=5, fresh=False)
    assert not lost and lost.missing == "a"
    # A BEL-ended APC: no terminal keeps what follows it; tmux at a size swallows it.
    assert not oracle.check_lossless(APC_BEL, "AB\n", terminal=False)
    assert oracle.check_lossless(APC_BEL, "AB\n", columns=80, rows=24)
    # A CR past column 80: resolved as one logical line; at 80 columns the wrapped row is what CR hit.
    raw = "x" * 100 + "\rY\n"
    assert oracle.check_lossless(raw, "Y" + "x" * 99 + "\n", terminal=False)
    assert not oracle.check_lossless(raw, "Y" + "x" * 99 + "\n", columns=80, rows=24)
    assert_lossless(raw, "Y" + "x" * 99 + "\n", terminal=False)
    with pytest.raises(AssertionError, match="missing"):
        assert_lossless(raw, "Y" + "x" * 99 + "\n", columns=80, rows=24)
    with pytest.raises(AssertionError, match="missing"):
        assert_lossless(FIRST_PAGE_CUP, "X\nb\n", columns=20, rows=5, fresh=False)
    assert_agrees(APC_BEL, "AB\tCD\n", terminal=False)
    assert oracle.ideal_lines(APC_BEL, terminal=False) == ["AB      CD"]


def test_cli_names_the_display(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    raw = tmp_path / "raw"
    raw.write_bytes(b"AB\x1b_x\x07\tCD\x1b\\\n" + b"x" * 100 + b"\rY\n")
    assert main(["render", "--no-terminal", str(raw)]) == 0
    assert capsysbinary.readouterr().out == b"AB      CD\nY" + b"x" * 99 + b"\n"
    logical = tmp_path / "logical"
    logical.write_bytes(b"AB\tCD\nY" + b"x" * 99 + b"\n")
    assert main(["check", "--no-terminal", str(raw), str(logical)]) == 0
    assert main(["check", "--columns", "80", "--rows", "24", str(raw), str(logical)]) == 1
    cup = tmp_path / "cup"
    cup.write_bytes(b"a\nb\x1b[1;1HX\n")
    resolved = tmp_path / "resolved"
    resolved.write_bytes(b"X\nb\n")
    assert main(["check", "--columns", "20", "--rows", "5", str(cup), str(resolved)]) == 0
    assert main(["check", "--columns", "20", "--rows", "5", "--in-use", str(cup), str(resolved)]) == 1
    with pytest.raises(SystemExit):
        main(["check", "--no-terminal", "--columns", "80", str(raw), str(logical)])
