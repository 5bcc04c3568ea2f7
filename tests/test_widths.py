"""The width table (textclean/pipeline/widths.py): generated from several sources, frozen, current.

Live tmux judges the widths in tests/test_oracle_tmux.py (code points sampled across the whole
code space); here: the committed tables are what ``python -m fixtures_gen.widths`` generates on this
machine's C library, and the cleaner and verifier refuse redraws across every ambiguous width.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest
import wcwidth

from fixtures_gen import widths as generator
from textclean.pipeline import clean, verify
from textclean.pipeline.widths import AMBIGUOUS_RANGES, ambiguous_width, settled_width


def _glibc_version() -> str | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.gnu_get_libc_version.restype = ctypes.c_char_p
        return libc.gnu_get_libc_version().decode()
    except (OSError, AttributeError):
        return None


def test_tables_are_generated_from_this_machines_sources() -> None:
    version = _glibc_version()
    if version is None or f"glibc {version}" not in generator.TABLE.read_text():
        pytest.skip(f"the table was generated with another C library than this one ({version})")
    assert wcwidth.__version__ in generator.TABLE.read_text()  # the version pyproject pins
    for path, text in generator.generate().items():
        assert path.read_text() == text, f"{path} is stale: run python -m fixtures_gen.widths"


def test_the_frozen_widths_are_wcwidths_on_every_settled_code_point() -> None:
    """widths.py answers without importing wcwidth (issue 39: the hook's start): its frozen table gives
    the pinned wcwidth's width for every code point that is not ambiguous."""
    from textclean.pipeline import widths

    for code in range(0x110000):
        char = chr(code)
        if not ambiguous_width(char):
            assert widths._wcwidth(code) == wcwidth.wcwidth(char), hex(code)


def test_loading_the_pipeline_does_not_import_wcwidth() -> None:
    import subprocess
    import sys

    code = "import sys, textclean.pipeline.gate; print('wcwidth' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, check=True)
    assert proc.stdout == b"False\n"


def test_ambiguous_examples_of_issue_12() -> None:
    # 1 vs 2 (wcwidth vs glibc), Unicode 16/17 symbols tmux draws nothing for, a noncharacter, the line
    # separator, a lone surrogate (an undecodable byte), emoji newer than Unicode 13.
    for char in "\u3248\u324f\U0001f6d9\U0001faeb\uffff\u2028\udcff\U0001fae8":
        assert ambiguous_width(char), hex(ord(char))
        assert settled_width(char) == -1
    for char, width in {"a": 1, "é": 1, "日": 2, "😀": 2, "\u0301": 0, "→": 1}.items():
        assert not ambiguous_width(char) and settled_width(char) == width, char


def test_ranges_are_sorted_and_disjoint() -> None:
    assert all(a[1] < b[0] for a, b in zip(AMBIGUOUS_RANGES, AMBIGUOUS_RANGES[1:], strict=False))
    assert all(start <= end for start, end in AMBIGUOUS_RANGES)


@pytest.mark.parametrize("start, end", AMBIGUOUS_RANGES[:: max(1, len(AMBIGUOUS_RANGES) // 40)])
def test_every_model_refuses_a_redraw_across_an_ambiguous_width(start: int, end: int) -> None:
    char = chr(start)
    text = f"{char}abc\rXYZ\n"
    with pytest.raises(clean.Refused):
        clean.candidate(text)
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(text)
    assert clean.candidate(f"{char}abc\n").text == f"{char}abc\n"  # appending stays resolvable


def test_readme_states_the_tables_size() -> None:
    readme = (generator.ROOT / "README.md").read_text()
    count = sum(end - start + 1 for start, end in AMBIGUOUS_RANGES)
    assert f"The {count:,} code points where they differ" in readme
    assert f"({len(AMBIGUOUS_RANGES)} ranges in `textclean/pipeline/widths.py`" in readme
