"""The verifier's screen model, its state (docs/design.md, 'Pages'): the page records, the rows and how a
row renders, the cursor, the modes and the work budget.

The model is one class built in layers, one module each, each importing only those before it:
:mod:`.state` <- :mod:`.moves` (controls and cursor moves) <- :mod:`.cells` (writing, erasing, editing)
<- :mod:`.sequences` (escape sequences read and applied) <- :mod:`.page_breaks` (what a break does, the
state a page leaves) <- :mod:`.replays` (pages that repeat) <- :mod:`.runs` (text that only appends, at
once) <- :mod:`.paging` (the whole text fed, page by page).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, NamedTuple

from ..model import SCREEN_LINES as MIN_ROWS
from ..model import WORK_ALLOWANCE, WORK_PER_INPUT_CHAR
from .fast import ALL, Shortcuts
from .meaning import Refusal

UNWRITTEN = "\x00"
WIDE_TAIL = "\x01"
TAB_TAIL = "\x02"
TAILS = (WIDE_TAIL, TAB_TAIL)
_RENDER = str.maketrans({UNWRITTEN: " ", WIDE_TAIL: None, TAB_TAIL: None})


#: A page record's fields, its slots (:mod:`replays` reads them by name: a compiled class keeps no
#: ``__slots__`` to read).
PAGE_FIELDS = ("alternate", "break_end", "cleared", "end", "erases_history", "fresh_start", "full", "inherits",
               "leaves", "lines", "modes", "reason", "reason_offset", "resets", "start")


class Page:
    """One page of the raw text: ``raw[start:end]``; its break run is ``raw[start:break_end]``.

    A plain class with slots: a text of many small pages makes one record per break."""

    __slots__ = PAGE_FIELDS

    def __init__(self, start: int, break_end: int, inherits: dict[str, int] | None = None,
                 erases_history: bool = False) -> None:
        self.start = start
        self.break_end = break_end
        self.end = -1
        self.lines: list[str] = []
        self.reason: str | None = None  # why the model could not decide this page (None: resolved)
        self.reason_offset: int | None = None  # where in the raw text the reason stands, when known
        self.leaves: str | None = None  # state the page's bytes leave for later pages (a saved cursor, tabs)
        self.modes: frozenset[str] | None = None  # persistent modes in effect at its end, if it set any
        self.resets = False  # its break run holds RIS: nothing an earlier page left survives it
        # state earlier pages leave to it (a region, origin mode, the alternate screen, a saved cursor it
        # restores): each with the index of the page whose bytes set it. A cleaned page gives none of it.
        self.inherits: dict[str, int] = {} if inherits is None else inherits
        self.alternate = False  # shown on the alternate screen
        self.erases_history = erases_history  # its break run begins with ED 3 or RIS (before any clear pushes rows)
        self.full = False  # at its end every row of its screen may hold a line (a line end more scrolls one off)
        self.cleared = False  # its break run clears the screen (ED 2, a homed ED 0, RIS)
        # the screen cleared and the cursor homed before it writes: it starts the same after any text before it
        self.fresh_start = False

    def __repr__(self) -> str:
        return (f"Page(start={self.start}, break_end={self.break_end}, end={self.end}, lines={self.lines!r}, "
                f"reason={self.reason!r})")


class Row:
    __slots__ = ("cells", "shown", "uncertain", "wrap_disputed", "wrapped")

    def __init__(self) -> None:
        self.cells: list[str] = []
        self.wrapped = False  # the line continues on the next row (autowrap)
        # EL 2 erased this row or the one below while this one wrapped: tmux 3.3a drops the wrap flag
        # (``wrapped`` is tmux's), xterm keeps it. Settled by the row wrapping again; read where joining
        # the next row would change a line shown (:meth:`Model.wrap_read`)
        self.wrap_disputed = False
        self.shown = False  # already part of an earlier page (the main screen around an alt screen)
        self.uncertain = 0  # characters whose width terminals may disagree on


class _Blank(Row):
    """The one row never written: what a screen's blank rows share until a write takes a row of its own
    (:meth:`State.own_row`), so a clear costs no row objects. Read-only: setting a field fails loudly. Its
    cells are an empty list, as declared (a tuple here failed the compiled build's type check)."""

    __slots__ = ()

    def __init__(self) -> None:
        for name, value in (("cells", []), ("wrapped", False), ("wrap_disputed", False), ("shown", False),
                            ("uncertain", 0)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError("the shared blank row is read-only")


BLANK = _Blank()


def render(row: Row) -> str:
    line = "".join(row.cells).rstrip(UNWRITTEN)
    if UNWRITTEN in line or WIDE_TAIL in line or TAB_TAIL in line:  # three scans cost less than translate
        return line.translate(_RENDER)
    return line


def informative(text: str) -> bool:
    return bool(text.strip(" \t"))


#: Work units per blank row a page break builds (a row object costs several cell operations): a tall
#: screen cleared again and again runs out of budget, not of time.
_ROW_WORK = 8

Changes = tuple[tuple[str, object], ...]
#: A page's walk remembered: the state it starts from, its work, its scrolls, its page's changes, the next page's
Memo = tuple[dict[str, object], int, int, Changes, Changes]


class Shape(NamedTuple):
    """A page's walk as a template: its escape sequences (offset, text), its memo (the page's changes but
    its lines), and its lines, each the characters at these offsets of the page's text + ``literals``."""

    tokens: tuple[tuple[int, str], ...]
    memo: Memo
    lines: tuple[Callable[[str], Any], ...]
    literals: str


#: Every attribute of the model's state (what :meth:`State.__init__` sets): replays key and copy the state
#: by these names, since a compiled class keeps no ``__dict__`` (tests/test_build.py checks them against a
#: pure model's ``vars()``).
STATE_FIELDS = ("alt", "alt_on", "anchored", "autowrap", "bottom", "breaks_seen", "columns", "cr_run", "cx",
                "cx_known", "cy", "disputed", "fresh_at", "grid", "has_shown", "height", "history", "home_at",
                "last_char", "lines_read", "lost", "memo", "modes", "on_page", "origin", "pages", "pending",
                "plain_lines_at_once", "poisoned", "printed", "recording", "redraws_at_once", "replays",
                "runs_at_once", "saved", "saved_on", "saved_unknown", "scrolls", "seen", "set_on", "shapes",
                "strict", "swallowed", "tail", "terminal", "text", "tight", "top", "undecodable",
                "undecodable_at", "unknown_width", "wide_page", "window", "work_left")
_STATE_VALUES = attrgetter(*STATE_FIELDS)


class State:
    """The screen model's state: the page records, the grid, the cursor, the modes, the work budget."""

    def fields(self) -> dict[str, Any]:
        """The state's attributes by name (what ``vars()`` gives of a pure model)."""
        return dict(zip(STATE_FIELDS, _STATE_VALUES(self), strict=True))

    def __init__(self, text: str, columns: int | None, rows: int | None, strict: bool = False,
                 on_page: Callable[[list[Page]], None] | None = None, terminal: bool = True,
                 fresh: bool = False, shortcuts: Shortcuts = ALL) -> None:
        if (columns is not None and columns < 2) or (rows is not None and rows < 2):
            raise ValueError("a terminal has at least 2 columns and 2 rows")
        self.text = text
        # called with the pages each time one begins: every page but the last two is then final (the
        # last one's break run may go on), so a caller can match it and let go of its lines
        self.on_page = on_page
        self.plain_lines_at_once = shortcuts.plain_lines  # lines that only append, each at once
        self.runs_at_once = shortcuts.runs  # text split only by SGR, appended at once (coloured_run)
        self.redraws_at_once = shortcuts.redrawn  # plain_lines: lines redrawn by CR and EL, overlaid as strings
        self.strict = strict  # raise at the first undecided page instead of skipping it
        self.columns = columns
        self.terminal = terminal  # False: no terminal (logical lines, no right margin, strings end at BEL)
        self.unknown_width = terminal and columns is None  # at least MIN_COLUMNS wide: may wrap there
        self.height = rows
        self.window = rows or MIN_ROWS
        self.work_left = WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * len(text)
        self.pages: list[Page] = [Page(0, 0)]
        self.breaks_seen = False
        self.printed = False  # anything written since the last break (a break then starts a page)
        self.lost: str | None = None  # the current page is undecided: skip to the next break
        self.poisoned: str | None = None  # an undecided page may have left state: later pages too
        self.modes: set[str] = set()  # persistent modes in effect (region, origin, ...)
        self.last_char = ""  # the character REP repeats (only right after it was written)
        self.home_at = -1  # a CUP home not applied yet: it may join the ED after it into a break
        self.alt: dict[str, Any] | None = None  # the main screen while the alternate one is shown
        self.scrolls = 0
        self.swallowed: str | None = None  # a DCS tmux runs on past the text after it: no RIS ends it
        self.undecodable: str | None = None  # found at the first page break: "" for none
        self.undecodable_at: int | None = None
        # plain_lines: what a line with sequences (or CRs) writes, its work and the cursor's column after it
        self.lines_read: dict[str, tuple[str, int, int]] = {}
        self.cr_run = (0, False)  # where the run of CRs last read ends, and whether LF or the end follows it
        self.replays = shortcuts.replayed  # pages walked before from the same state: replayed (Replays)
        self.memo: dict[str, Memo] = {}
        self.seen: set[str] = set()  # pages walked once after a home and ED 2: the second time, recorded
        self.recording: tuple[str, dict[str, object], int, int, int, int, str | None] | None = None
        # pages by their shape (_SHAPE): None once seen, then the template of a walk (Shape), or _NO_SHAPE
        self.shapes: dict[str, Shape | None] | None = {} if shortcuts.shaped and shortcuts.replayed else None
        self.fresh_at = -1  # where the last home and ED 2 ended (the walk may replay from there)
        self.tight = False  # plain_lines met the work budget: the page's walk read it (never replayed)
        self.reset_state()
        if not (fresh and terminal):
            # The output starts on some row of a screen we know nothing of: its top is unknown.
            self.float_page()

    @property
    def page(self) -> Page:
        return self.pages[-1]

    # -- state ---------------------------------------------------------------------------------------

    def reset_state(self) -> None:
        self.grid = self.blank_grid(True)
        self.anchored = True
        self.cy = 0
        self.cx = 0
        self.cx_known = True
        self.pending = False  # pending wrap: the cursor is past the last column (xterm/tmux)
        self.top = 0
        self.bottom: int | None = None  # None: the whole screen
        self.origin = False
        self.autowrap = True
        self.saved: tuple[Any, ...] | None = None
        self.saved_unknown = False
        self.wide_page = False  # a row passed MIN_COLUMNS with an unknown width
        self.has_shown = False  # some rows may be marked shown (checks that only then cost)
        self.history: list[str] = []  # the page's scrolled-off lines, joined where they wrapped
        self.tail: list[str] = []  # pieces of a scrolled-off line that continues (it wrapped)
        self.modes.clear()
        self.set_on: dict[str, int] = {}  # each mode in ``modes``: the page that set it
        self.saved_on: int | None = None  # the page of the last cursor save (DECSC, SCOSC, ?1049h)
        self.alt_on: int | None = None  # the page whose break entered the alternate screen
        # Terminals disagree on the cursor's column or wrap flag (a move, BS, HT or EL at the pending-wrap
        # position): what created the dispute. Whatever reads the column refuses; CR, LF and absolute
        # columns settle it; vertical moves and EL 2 carry it (docs/design.md, "Disputes: the verifier").
        self.disputed: str | None = None

    def float_page(self) -> None:
        """A fresh page whose first row is the cursor's, at an unknown place on the screen."""
        self.grid = [BLANK]
        self.cy = 0
        self.anchored = False

    def blank_grid(self, anchored: bool) -> list[Row]:
        count = self.height if (anchored and self.height) else 1
        self.charge(count * _ROW_WORK)
        return [BLANK] * count

    def own_row(self, index: int) -> Row:
        """The row at ``index``, ready to write: the shared blank row replaced by one of its own."""
        row = self.grid[index]
        if row is BLANK:
            row = self.grid[index] = Row()
        return row

    def charge(self, cells: int) -> None:
        self.work_left -= cells
        if self.work_left < 0:
            raise Refusal("needs more work than the model allows for this input size")



    def undecided(self) -> bool:
        """Whether the current page is undecided (:meth:`lose` gave a reason)."""
        return self.lost is not None

    def lose(self, reason: str, offset: int | None = None) -> None:
        """The current page is undecided: keep the first reason (and the raw offset it names), skip to the
        next break."""
        if self.strict:
            raise Refusal(reason, offset, page=len(self.pages) - 1)
        if self.page.reason is None:
            self.page.reason = reason
            self.page.reason_offset = offset
        self.lost = reason
        self.page.lines.clear()
