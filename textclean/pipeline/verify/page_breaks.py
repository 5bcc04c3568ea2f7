"""What a page break does to the screen model (a clear, RIS, the alternate screen), and the state a
page's sequences leave for later pages (modes, a saved cursor, tab stops, character sets)."""

from __future__ import annotations

from .. import grammar
from ..grammar import Kind
from ..model import MIN_COLUMNS
from ..names import (
    ALT_SCREEN_1049,
    CHARSET_US_ASCII,
    CODING_SYSTEM,
    DECAWM,
    DECOM,
    DECRC,
    DECSC,
    DECSTBM,
    DOCS_UTF8,
    HTS,
    LS1R,
    LS2,
    LS2R,
    LS3,
    LS3R,
    RM,
    SAVE_CURSOR_1048,
    SCORC,
    SCOSC,
    SM,
    SS2,
    SS3,
    TBC,
)
from .meaning import Refusal
from .sequences import Sequences, clears_next, inert_modes
from .state import BLANK


class Breaks(Sequences):
    """What a page break does to the screen (a clear, RIS, the alternate screen), and the state a page's
    sequences leave for later pages."""

    def apply_break(self, kind: str, lost: str | None, homed: bool, end: int) -> None:
        if kind == "RIS":
            if self.alt is not None:
                raise Refusal("RIS on the alternate screen")
            self.reset_state()
            return
        if kind.startswith("alt "):
            _, mode, state = kind.split()
            self.alt_switch(int(mode), state == "on", lost)
            return
        if not homed and self.home_at < 0:  # a pending home leaves no wrap pending, no column in dispute
            self.at_margin(kind)  # tmux keeps the wrap pending across ED: not every terminal may
            if self.unknown_width and self.disputed is None and self.cx_known and self.cx >= MIN_COLUMNS:
                # past 80 cells of an unknown width: an 80-column terminal's wrap is pending (tmux keeps
                # it through ED), a wider one stands on this column
                self.disputed = f"{kind} at column {self.cx + 1} of a terminal of unknown width"
        if kind == "ED 3":
            if lost is not None and clears_next(self.text, end):
                self.float_page()  # nothing is written before the clear that follows: it decides the page
                self.cx_known = False
                return
            if lost is not None:
                # F18: the screen the undecided page left is still there, unknown: so is the next page
                raise Refusal("ED 3 erases only the history: the screen an undecided page left stays unknown")
            self.mark_shown()  # ED 3 alone erases the history, not the screen: the rows stay, shown
            return
        if self.origin and self.top:
            # F17: tmux homes to the region's top under DECOM; the page would start below row 1
            raise Refusal("a clear in origin mode with a region below the top (the page starts at the region's top)")
        if homed:
            self.grid = self.blank_grid(True)
            self.anchored = True
            self.cy = 0  # home (origin mode with a region below the top is no homed break)
            self.cx, self.cx_known, self.pending, self.disputed = 0, True, False, None
            return
        if lost is not None:
            self.float_page()
            self.cx_known = False  # the cursor's column after a page we could not follow
            return
        # ED 2 / ED 3 / ED 0 at home: a blank screen, the cursor where it was (tmux: scroll-on-clear).
        self.blank_page()

    def blank_page(self) -> None:
        """A blank screen with the cursor where it was (its row kept), or a floating page where the
        screen's layout is not known."""
        if self.anchored:
            self.grid = self.blank_grid(True)
            while self.cy >= len(self.grid):
                self.grid.append(BLANK)
        else:
            self.float_page()

    def mark_shown(self) -> None:
        """Rows already part of a page that stay on the screen: a later change to them is undecided."""
        for row in self.grid:
            if row.cells:
                row.shown = True
                self.has_shown = True

    def alt_switch(self, mode: int, enter: bool, lost: str | None) -> None:
        if self.bottom is not None or self.origin:
            raise Refusal("switches screens with a scroll region or origin mode set")
        if enter:
            if self.disputed is not None:
                raise Refusal(f"saves or carries a column terminals disagree on ({self.disputed})")
            if self.alt is not None:
                raise Refusal("enters the alternate screen twice")
            self.alt = {
                "grid": self.grid, "anchored": self.anchored, "cy": self.cy, "cx": self.cx,
                "cx_known": self.cx_known, "pending": self.pending, "wide": self.wide_page, "broken": lost,
                "saved": mode == ALT_SCREEN_1049,
            }
            self.mark_shown()
            if lost is not None:
                self.cx_known = False
                self.anchored = False
            self.blank_page()
            self.saved_unknown = True  # xterm keeps a saved cursor per screen, tmux one for both
            return
        main = self.alt
        if main is None:
            raise Refusal("leaves an alternate screen it never entered")
        self.alt = None
        self.grid, self.anchored, self.wide_page = main["grid"], main["anchored"], main["wide"]
        self.saved_unknown = True
        if main["broken"] is not None:
            raise Refusal(f"returns to a main screen that was undecided ({main['broken']})")
        if mode == ALT_SCREEN_1049 and main["saved"]:
            self.cy, self.cx, self.cx_known, self.pending = main["cy"], main["cx"], main["cx_known"], main["pending"]
            return
        # ?47 / ?1047 (either way in or out): where the cursor is on return differs between terminals.
        # F30-2 is ?1049l after ?47h / ?1047h: tmux 3.3a restores no cursor (none was saved), xterm its
        # own saved one (home if none).
        raise Refusal("the cursor's place on return from the alternate screen is unknown")

    # -- state that outlives a page ------------------------------------------------------------------

    def track_state(self, seq: grammar.Sequence) -> None:
        """Note the state a page's bytes leave behind: a kept page must leave none for cleaned ones."""
        leaves = None
        if seq.kind is Kind.CSI and not seq.intermediates:
            final = seq.final
            if final == DECSTBM and not seq.private:
                numbers = seq.numbers(0)
                full = len(numbers) <= 2 and numbers[0] <= 1 and (len(numbers) == 1 or numbers[1] == 0
                                                                  or numbers[1] == self.height)
                self.set_mode("a scroll region", not full)
            elif seq.private == "?" and final in (SM, RM):
                for mode in seq.numbers(default=-1):
                    if mode == DECOM:
                        self.set_mode("origin mode", final == SM)
                    elif mode == DECAWM:
                        self.set_mode("autowrap off", final == RM)
                    elif mode == SAVE_CURSOR_1048:
                        if final == SM:
                            leaves = "a saved cursor"
                            self.saved_on = len(self.pages) - 1
                        else:
                            self.restores()
            elif final in (SM, RM) and not seq.private and not inert_modes(seq):
                if 4 in seq.numbers(default=-1):
                    self.set_mode("insert mode", final == SM)
                elif seq.params:
                    leaves = "an ANSI mode"
            elif final == TBC or (final == SCOSC and seq.params):
                leaves = "changed tab stops or margins"
            elif final == SCOSC and not seq.private:
                leaves = "a saved cursor"
                self.saved_on = len(self.pages) - 1
            elif final == SCORC and not seq.private and not seq.params:
                self.restores()
        elif seq.kind is Kind.ESC2:
            if seq.final == DECSC:
                leaves = "a saved cursor"
                self.saved_on = len(self.pages) - 1
            elif seq.final == DECRC:
                self.restores()
            elif seq.final == HTS:
                leaves = "changed tab stops"
            elif seq.final in (SS2, SS3, LS2, LS3, LS3R, LS2R, LS1R):
                leaves = "a shifted character set"
        elif seq.kind is Kind.NF:
            first = seq.intermediates[0]
            if seq.intermediates == "(":
                self.set_mode("a G0 character set", seq.final != CHARSET_US_ASCII)
            elif first in "()*+-./":
                pass  # G1-G3: shown only after a shift, which is itself state
            elif not (seq.intermediates == CODING_SYSTEM and seq.final == DOCS_UTF8):
                leaves = "a line attribute or coding change"
        if leaves is not None and self.page.leaves is None:
            self.page.leaves = leaves

    def restores(self) -> None:
        """A cursor restore: a save an earlier page made is state this page inherits."""
        here = len(self.pages) - 1
        if self.saved_on is not None and self.saved_on < here:
            self.page.inherits.setdefault("a saved cursor", self.saved_on)

    def set_mode(self, name: str, on: bool) -> None:
        if on:
            self.modes.add(name)
            self.set_on[name] = len(self.pages) - 1
        else:
            self.modes.discard(name)
            self.set_on.pop(name, None)
        self.page.modes = frozenset(self.modes)
