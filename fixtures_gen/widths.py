"""Generate ``textclean/pipeline/widths.py``: the code points whose cell width terminals disagree on.

python -m fixtures_gen.widths            rewrite textclean/pipeline/widths.py (and oracle/tmux_widths.py)
python -m fixtures_gen.widths --check    exit 1 if the committed tables differ from a fresh run

Sources, each asked for every code point U+0000..U+10FFFF:

* ``wcwidth`` (the version pinned in pyproject.toml; its tables are Unicode 17);
* the C library's ``wcwidth`` under a UTF-8 locale: glibc 2.36 (Unicode 14) on Debian 12, what
  tmux 3.3a measures with (Debian builds it without utf8proc);
* the wide characters of terminals with Unicode 13 tables (the previous frozen table, kept as is).

A code point on which they disagree is *ambiguous*: appending after it is fine, a redraw whose
column depends on it is not. Lone surrogates (undecodable bytes under ``surrogateescape``) are
ambiguous too: tmux draws nothing for an invalid byte, xterm a U+FFFD. The output is frozen source,
so the cleaner answers the same on every Python whatever its ``unicodedata``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from pathlib import Path

import wcwidth

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "textclean" / "pipeline" / "widths.py"
TMUX_TABLE = ROOT / "oracle" / "tmux_widths.py"
LAST = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)

# The wide characters of Unicode 13 terminals: wcwidth 0.7.0's width-2 characters that were
# unassigned, or not East Asian Wide / Fullwidth, in Unicode 13.0 (generated with Python 3.10's
# unicodedata, which later Pythons no longer ship), plus the regional indicators.
UNICODE_13_NEWER_WIDE = (
    (0x02630, 0x02637), (0x0268A, 0x0268F), (0x02FFC, 0x02FFF), (0x031E4, 0x031E5),
    (0x031EF, 0x031EF), (0x04DC0, 0x04DFF), (0x09FFD, 0x09FFF), (0x0FA6E, 0x0FA6F),
    (0x0FADA, 0x0FAFF), (0x16FF2, 0x16FF6), (0x187F8, 0x187FF), (0x18CFF, 0x18CFF),
    (0x18D09, 0x18D1E), (0x18D80, 0x18DF2), (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB),
    (0x1AFFD, 0x1AFFE), (0x1B11F, 0x1B122), (0x1B132, 0x1B132), (0x1B155, 0x1B155),
    (0x1D300, 0x1D356), (0x1D360, 0x1D376), (0x1F1E6, 0x1F1FF), (0x1F6D8, 0x1F6D8),
    (0x1F6DC, 0x1F6DF), (0x1F7F0, 0x1F7F0), (0x1F979, 0x1F979), (0x1F9CC, 0x1F9CC),
    (0x1FA75, 0x1FA77), (0x1FA7B, 0x1FA7C), (0x1FA87, 0x1FA8A), (0x1FA8E, 0x1FA8F),
    (0x1FAA9, 0x1FAAF), (0x1FAB7, 0x1FABF), (0x1FAC3, 0x1FAC6), (0x1FAC8, 0x1FAC8),
    (0x1FACD, 0x1FACF), (0x1FAD7, 0x1FADC), (0x1FADF, 0x1FAEA), (0x1FAEF, 0x1FAF8),
    (0x2A6DE, 0x2A6FF), (0x2B735, 0x2B73F), (0x2B81E, 0x2B81F), (0x2CEA2, 0x2CEAF),
    (0x2EBE1, 0x2F7FF), (0x2FA1E, 0x2FFFD), (0x3134B, 0x3FFFD),
)  # fmt: skip


def libc_widths() -> tuple[str, list[int]]:
    """The C library's wcwidth for every code point, under C.UTF-8 (thread-local, via uselocale)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.newlocale.restype = ctypes.c_void_p
    libc.newlocale.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
    libc.uselocale.restype = ctypes.c_void_p
    libc.uselocale.argtypes = (ctypes.c_void_p,)
    libc.wcwidth.argtypes = (ctypes.c_uint32,)
    libc.gnu_get_libc_version.restype = ctypes.c_char_p
    lc_ctype_mask = 1 << 0  # LC_CTYPE is category 0 in glibc
    locale = libc.newlocale(lc_ctype_mask, b"C.UTF-8", None)
    if not locale:
        raise SystemExit("no C.UTF-8 locale: cannot ask the C library for widths")
    previous = libc.uselocale(locale)
    try:
        widths = [libc.wcwidth(code) for code in range(LAST + 1)]
    finally:
        libc.uselocale(previous)
    return "glibc " + libc.gnu_get_libc_version().decode(), widths


def wcwidth_widths() -> list[int]:
    return [
        -1 if SURROGATES[0] <= code <= SURROGATES[1] else wcwidth.wcwidth(chr(code))
        for code in range(LAST + 1)
    ]


def ranges(codes: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for code in codes:
        if out and out[-1][1] == code - 1:
            out[-1] = (out[-1][0], code)
        else:
            out.append((code, code))
    return out


def ambiguous_codes(ours: list[int], libc: list[int]) -> list[int]:
    older = set()
    for start, end in UNICODE_13_NEWER_WIDE:
        older.update(range(start, end + 1))
    surrogates = range(SURROGATES[0], SURROGATES[1] + 1)
    return [
        code
        for code in range(LAST + 1)
        if ours[code] != libc[code] or code in older or code in surrogates
    ]


def _format_ranges(rows: list[tuple[int, ...]]) -> str:
    body = []
    line = "   "
    for row in rows:
        item = " (" + ", ".join(f"0x{v:05X}" if i < 2 else str(v) for i, v in enumerate(row)) + "),"
        if len(line) + len(item) > 100:
            body.append(line)
            line = "   "
        line += item
    body.append(line)
    return "\n".join(body)


def settled_rows(ours: list[int], codes: list[int]) -> list[tuple[int, int, int]]:
    """``(first, last, width)`` of the settled code points whose width is not 1 (a range may span
    ambiguous ones, which are looked up first)."""
    ambiguous = set(codes)
    rows: list[tuple[int, int, int]] = []
    for code in range(LAST + 1):
        if code in ambiguous or ours[code] == 1:
            continue
        width = ours[code]
        if rows and rows[-1][2] == width and all(c in ambiguous for c in range(rows[-1][1] + 1, code)):
            rows[-1] = (rows[-1][0], code, width)
        else:
            rows.append((code, code, width))
    return rows


def render_table(libc_name: str, ambiguous: list[tuple[int, int]], count: int,
                 settled: list[tuple[int, int, int]]) -> str:
    return f'''"""Cell widths terminals agree on, and the code points whose width they do not.

Generated by ``python -m fixtures_gen.widths`` (do not edit): every code point whose width differs
between ``wcwidth`` {wcwidth.__version__} (Unicode 17), {libc_name}'s ``wcwidth`` (what tmux 3.3a
measures with on Debian 12) and terminals with Unicode 13 tables, plus the lone surrogates that stand
for undecodable bytes (tmux draws nothing for one, xterm a U+FFFD): {count} code points in
{len(ambiguous)} ranges. Outside them every source gives the width ``wcwidth`` gives.

The cleaner and the verifier treat an ambiguous character like a zero-width one: appending after it
is fine, anything that depends on the cursor's column is not. The tables are frozen source, so the
answer is the same on every Python whatever its ``unicodedata``; ``wcwidth``'s own widths are frozen too
(:data:`SETTLED_RANGES`), so that loading the pipeline does not import ``wcwidth`` (its package loads
its whole API, about a fifth of a bare start of the agent hook).
"""

from __future__ import annotations

import bisect

AMBIGUOUS_RANGES: tuple[tuple[int, int], ...] = (
{_format_ranges(ambiguous)}
)
_STARTS = tuple(start for start, _ in AMBIGUOUS_RANGES)
#: ``(first, last, width)``: ``wcwidth`` {wcwidth.__version__}'s width of every settled code point whose
#: width is not 1 (-1: a control); the ambiguous code points inside a range are not settled.
SETTLED_RANGES: tuple[tuple[int, int, int], ...] = (
{_format_ranges(settled)}
)
_SETTLED_STARTS = tuple(start for start, _, _ in SETTLED_RANGES)
#: Every code point below this has a settled width.
FIRST_AMBIGUOUS = chr(AMBIGUOUS_RANGES[0][0])


def ambiguous_width(char: str) -> bool:
    """Whether terminals in use may give ``char`` a width other than ``wcwidth``'s."""
    code = ord(char)
    index = bisect.bisect_right(_STARTS, code) - 1
    return index >= 0 and code <= AMBIGUOUS_RANGES[index][1]


def _wcwidth(code: int) -> int:
    """``wcwidth``'s width of a settled code point."""
    index = bisect.bisect_right(_SETTLED_STARTS, code) - 1
    return SETTLED_RANGES[index][2] if index >= 0 and code <= SETTLED_RANGES[index][1] else 1


class _SettledWidths(dict):  # type: ignore[type-arg]
    def __missing__(self, char: str) -> int:
        width = self[char] = -1 if ambiguous_width(char) else _wcwidth(ord(char))
        return width


#: ``settled_width(char)``: the cells every terminal in use gives ``char`` (0 for a combining mark),
#: or -1 where they disagree or the character is a control.
settled_width = _SettledWidths().__getitem__
'''


def render_tmux_table(libc_name: str, rows: list[tuple[int, int, int]]) -> str:
    return f'''"""The cell widths tmux 3.3a gives where they differ from ``wcwidth`` {wcwidth.__version__}.

Generated by ``python -m fixtures_gen.widths`` (do not edit) from {libc_name}'s ``wcwidth``, which
tmux measures with on Debian 12: ``(first, last, width)``; width -1 draws nothing.
"""

from __future__ import annotations

TMUX_WIDTH_RANGES: tuple[tuple[int, int, int], ...] = (
{_format_ranges(rows)}
)
'''


def tmux_rows(ours: list[int], libc: list[int]) -> list[tuple[int, int, int]]:
    rows: list[tuple[int, int, int]] = []
    for code in range(LAST + 1):
        if SURROGATES[0] <= code <= SURROGATES[1] or ours[code] == libc[code]:
            continue
        width = libc[code]
        if rows and rows[-1][1] == code - 1 and rows[-1][2] == width:
            rows[-1] = (rows[-1][0], code, width)
        else:
            rows.append((code, code, width))
    return rows


def generate() -> dict[Path, str]:
    libc_name, libc = libc_widths()
    ours = wcwidth_widths()
    codes = ambiguous_codes(ours, libc)
    return {
        TABLE: render_table(libc_name, ranges(codes), len(codes), settled_rows(ours, codes)),
        TMUX_TABLE: render_tmux_table(libc_name, tmux_rows(ours, libc)),
    }


def main(argv: list[str]) -> int:
    tables = generate()
    if "--check" in argv:
        stale = [str(path) for path, text in tables.items() if path.read_text() != text]
        if stale:
            print("stale:", *stale)
        return 1 if stale else 0
    for path, text in tables.items():
        path.write_text(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
