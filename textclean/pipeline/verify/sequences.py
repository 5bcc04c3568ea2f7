"""Escape sequences, read once and remembered by their text (parsed, their numbers, whether they home
the cursor, whether their reading needs state), and applied to the screen model (CSI, ESC, nF)."""

from __future__ import annotations

from .. import grammar
from ..grammar import ESC, Kind
from ..names import (
    CHA,
    CHARSET_US_ASCII,
    CNL,
    CODING_SYSTEM,
    CPL,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DA,
    DCH,
    DECAWM,
    DECKPAM,
    DECKPNM,
    DECOM,
    DECRC,
    DECRQM,
    DECSC,
    DECSCUSR,
    DECSTBM,
    DL,
    DOCS_UTF8,
    DSR,
    ECH,
    ED,
    EL,
    G0_DESIGNATE,
    G1_TO_G3_DESIGNATE,
    HARMLESS_PRIVATE_MODES,
    HPA,
    HVP,
    ICH,
    IL,
    IND,
    INERT_ANSI_MODES,
    NEL,
    PRIVATE_MODE_NAMES,
    REP,
    RI,
    RIS,
    RM,
    SAVE_CURSOR_1048,
    SCORC,
    SCOSC,
    SD,
    SGR,
    SM,
    ST_FINAL,
    SU,
    VPA,
    XTWINOPS,
)
from .cells import Cells
from .meaning import Refusal, swallows_on

PARSED: dict[str, grammar.Sequence] = {}
PLAIN_SGR: set[str] = set()  # SGR without private marker or intermediates, as seen in texts
HOME = "home"
MOVE = "move"
#: sequences whose reading needs no state: a home (HOME), ED 2, ED 3, RIS, or a CSI of _MOVES (MOVE)
FIXED: dict[str, str] = {}
#: CSI finals that are never a page break and leave no state for later pages (track_state ignores
#: them): with no private marker or intermediates and no parameter out of range, the walk only
#: applies them (Model.move)
_MOVES = frozenset((CUP, HVP, CHA, HPA, VPA, CUF, CUB, CUU, CUD, CNL, CPL, EL, ECH, ICH, DCH, IL, DL, SU, SD, REP))
_NUMBERS: dict[str, list[int]] = {}
_DECIMALS: dict[str, list[int] | None] = {}
CACHE_LIMIT = 4096
_CACHED_LENGTH = 48


def parse(token: str) -> grammar.Sequence:
    """:func:`grammar.parse`, remembered for short sequences (texts repeat a few hundred of them)."""
    seq = grammar.parse(token)
    if len(token) <= _CACHED_LENGTH:
        if len(PARSED) >= CACHE_LIMIT:
            PARSED.clear()
            PLAIN_SGR.clear()
            FIXED.clear()
        PARSED[token] = seq
        fixed = _fixed(seq)
        if fixed is not None:
            FIXED[token] = fixed
        if seq.kind is Kind.CSI and seq.final == SGR and not seq.private and not seq.intermediates:
            PLAIN_SGR.add(token)
    return seq


def _fixed(seq: grammar.Sequence) -> str | None:
    """What :meth:`Model.sequence` reads ``seq`` as whatever the state: ``HOME`` (CUP / HVP home), a page
    break that depends on no state ("ED 2", "ED 3", "RIS"), ``MOVE`` (applied, nothing else), or None
    (read it in full)."""
    text = seq.text
    if "\x9c" in text or len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT or swallows_on(seq):
        return None
    if seq.kind is Kind.ESC2:
        return "RIS" if seq.final == RIS else None
    if seq.kind is not Kind.CSI or seq.intermediates or seq.private:
        return None
    if seq.final == ED:
        modes = seq.decimal()
        return f"ED {modes[0]}" if modes is not None and len(modes) == 1 and modes[0] in (2, 3) else None
    if is_home(seq):
        return HOME
    return MOVE if seq.final in _MOVES and not grammar.above_range(seq.params) else None


def _numbers(seq: grammar.Sequence) -> list[int]:
    """``seq.numbers(0)``, remembered by the sequence's text (the list is shared: read it, never change it)."""
    numbers = _NUMBERS.get(seq.text)
    if numbers is None:
        numbers = seq.numbers(0)
        if len(_NUMBERS) >= CACHE_LIMIT:
            _NUMBERS.clear()
        _NUMBERS[seq.text] = numbers
    return numbers


def decimal(seq: grammar.Sequence) -> list[int] | None:
    """``seq.decimal()``, remembered by the sequence's text (the list is shared: read it, never change it)."""
    numbers = _DECIMALS.get(seq.text, False)
    if numbers is False:
        numbers = seq.decimal()
        if len(_DECIMALS) >= CACHE_LIMIT:
            _DECIMALS.clear()
        _DECIMALS[seq.text] = numbers
    return numbers  # type: ignore[return-value]


def is_home(seq: grammar.Sequence) -> bool:
    """CUP / HVP to row 1, column 1 (absent, empty, 0 or 1, leading zeros read as numbers)."""
    if seq.kind is not Kind.CSI or seq.private or seq.intermediates or seq.final not in (CUP, HVP):
        return False
    numbers = decimal(seq)
    return numbers is not None and len(numbers) <= 2 and all(number <= 1 for number in numbers)


def sequence_at(text: str, at: int) -> grammar.Sequence | None:
    """The complete sequence ESC starts at ``at``, parsed; None if none does."""
    if not text.startswith(ESC, at):
        return None
    found = grammar.match_at(text, at)
    return None if found is None else PARSED.get(found.group()) or parse(found.group())


def clears_next(text: str, at: int) -> bool:
    """Whether ``text`` goes on at ``at`` with ED 2, alone or after a home (``clear`` writes ED 3 then
    these: the ED 2 clears the screen)."""
    seq = sequence_at(text, at)
    if seq is not None and is_home(seq):
        seq = sequence_at(text, at + len(seq.text))
    return (seq is not None and seq.kind is Kind.CSI and seq.final == ED and not seq.private
            and not seq.intermediates and seq.decimal() == [2])


def inert_modes(seq: grammar.Sequence) -> bool:
    """SM / RM of ANSI modes that change nothing shown (names.INERT_ANSI_MODES): no state to follow."""
    return (seq.final in (SM, RM) and not seq.private and not seq.intermediates and seq.params.isdigit()
            and set(seq.numbers(default=-1)) <= INERT_ANSI_MODES)


class Sequences(Cells):
    """Escape sequences applied to the screen."""

    # -- sequences -----------------------------------------------------------------------------------

    def apply(self, seq: grammar.Sequence, last_char: str) -> None:
        kind = seq.kind
        if kind is Kind.CSI:
            self.csi(seq, last_char)
        elif kind is Kind.ESC2:
            final = seq.final
            if final == DECSC:
                self.save_cursor()
            elif final == DECRC:
                self.restore_cursor()
            elif final == RI:
                self.carry("RI")
                self.reverse_index()
            elif final == IND:
                self.carry("IND")
                # no CR: from column 80 on, an 80-column terminal wraps the next character, a wider one not
                self.layout_known(self.cy, self.cy + 1)
                self.line_feed()
            elif final == NEL:
                self.line_feed()
                self.carriage_return()
            elif final not in (DECKPAM, DECKPNM, ST_FINAL):
                raise Refusal("unsupported escape")
        elif kind is Kind.NF:
            if not ((seq.intermediates == G0_DESIGNATE and seq.final == CHARSET_US_ASCII)
                    or seq.intermediates[0] in G1_TO_G3_DESIGNATE
                    or (seq.intermediates == CODING_SYSTEM and seq.final == DOCS_UTF8)):
                raise Refusal("unsupported escape")
        # strings and cancelled sequences show nothing

    def csi(self, seq: grammar.Sequence, last_char: str) -> None:
        final, private, params = seq.final, seq.private, seq.params
        if seq.intermediates:
            if (seq.intermediates == " " and final == DECSCUSR) or (seq.intermediates == "$" and final == DECRQM):
                return
            raise Refusal("unsupported")
        if final == SGR:
            return
        if len(params) >= grammar.PARAMETER_BYTES_LIMIT:
            raise Refusal(f"{grammar.PARAMETER_BYTES_LIMIT} or more parameter bytes (tmux discards the sequence)")
        if grammar.above_range(params):
            raise Refusal(f"a parameter above {grammar.PARAMETER_RANGE_LIMIT} (tmux ignores the sequence)")
        if private:
            if private == "?" and final in (SM, RM):
                for mode in seq.numbers(default=-1):
                    if mode == DECAWM:
                        self.autowrap = final == SM
                    elif mode == DECOM:
                        self.origin = final == SM
                        self.home()
                    elif mode == SAVE_CURSOR_1048:
                        # tmux 3.3a ignores 1048, xterm saves / restores the cursor: refused outright, as the
                        # cleaner does (the contract's safe side), whatever follows
                        raise Refusal("DECSET / DECRST 1048 (tmux 3.3a ignores it, xterm saves the cursor)")
                    elif mode not in HARMLESS_PRIVATE_MODES:  # 7 and 6 are handled above
                        verb = "DECSET" if final == SM else "DECRST"
                        name = PRIVATE_MODE_NAMES.get(mode, "unnamed")
                        raise Refusal(f"DEC private mode {mode} ({verb} {mode}, {name})")
                return
            if final in (DA, DSR, SCORC) or (final in (DECSCUSR, XTWINOPS) and private == ">"):
                return
            raise Refusal("unsupported")
        if final in (XTWINOPS, DA, DSR) or inert_modes(seq):
            return
        self.move(seq, last_char)

    def move(self, seq: grammar.Sequence, last_char: str) -> None:
        """A CSI that :meth:`csi`'s checks let through: a move, an erase, an edit, a scroll or REP."""
        final, params = seq.final, seq.params
        numbers = _numbers(seq)
        if final in (CUP, HVP):
            if len(numbers) > 2:
                raise Refusal("CUP with more than two parameters")
            self.goto_row(max(numbers[0], 1) - 1)
            self.goto_column(max(numbers[1], 1) - 1 if len(numbers) > 1 else 0)
            return
        if final == DECSTBM:
            self.set_region(seq)
            return
        if len(numbers) != 1 or ":" in params:
            raise Refusal("unsupported parameters")
        value = numbers[0]
        count = value or 1
        if final == EL:
            if value > 2:
                raise Refusal("EL mode")
            self.erase_line(value)
        elif final == ED:
            if value > 1:
                raise Refusal("ED mode")
            self.erase_display(value)
        elif final in (CHA, HPA):
            self.goto_column(count - 1)
        elif final == VPA:
            self.carry("VPA")  # from the pending-wrap position: tmux wraps the next character, xterm not
            self.goto_row(count - 1)
        elif final == CUF:
            self.cursor_right(count)
        elif final == CUB:
            self.cursor_left(count)
        elif final in (CUU, CUD, CNL, CPL):  # not HPR / VPR: tmux ignores them, xterm moves
            if final in (CNL, CPL):
                self.at_margin(f"CSI {final}")  # settled by the carriage return below
            else:
                self.carry(f"CSI {final}")
            self.move_rows(-count if final in (CUU, CPL) else count)
            if final in (CNL, CPL):
                self.carriage_return()
        elif final == ECH:
            self.erase_chars(count)
        elif final == ICH:
            self.insert_chars(count)
        elif final == DCH:
            self.delete_chars(count)
        elif final in (IL, DL):
            self.insert_lines(count, delete=final == DL)
        elif final in (SU, SD):
            self.scroll_lines(count, up=final == SU)
        elif final == REP:
            self.repeat(count, last_char)
        elif final == SCOSC and not params:
            self.save_cursor()
        elif final == SCORC and not params:
            self.restore_cursor()
        else:
            raise Refusal("unsupported")
