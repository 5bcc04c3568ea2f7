"""Named ECMA-48 / DEC / xterm controls: what each final byte and private mode is called, once.

Like pyte's ``control.py`` and ``escape.py``: every module that acts on a sequence (the cleaner, the
independent verifier, the oracle) compares against these names, never against a bare letter. What a
sequence *does* stays each model's own decision; only what it is *called* is shared.
"""

from __future__ import annotations

# --- CSI final bytes (ECMA-48 section 8.3; DEC and xterm extensions) ------------------------------
ICH = "@"  # insert characters
CUU = "A"  # cursor up
CUD = "B"  # cursor down
CUF = "C"  # cursor forward
CUB = "D"  # cursor back
CNL = "E"  # cursor next line
CPL = "F"  # cursor previous line
CHA = "G"  # cursor character absolute
CUP = "H"  # cursor position
CHT = "I"  # cursor forward tabulation
ED = "J"  # erase in display
EL = "K"  # erase in line
IL = "L"  # insert lines
DL = "M"  # delete lines
DCH = "P"  # delete characters
SU = "S"  # scroll up
SD = "T"  # scroll down
ECH = "X"  # erase characters
CBT = "Z"  # cursor backward tabulation
HPA = "`"  # character position absolute
HPR = "a"  # character position forward
REP = "b"  # repeat
DA = "c"  # device attributes
VPA = "d"  # line position absolute
VPR = "e"  # line position forward
HVP = "f"  # character and line position
TBC = "g"  # tabulation clear
SM = "h"  # set mode (with ``?``: DECSET)
MC = "i"  # media copy
RM = "l"  # reset mode (with ``?``: DECRST)
SGR = "m"  # select graphic rendition
DSR = "n"  # device status report
DECRQM = "p"  # with ``$``: request mode (without: DECSTR with ``!``)
DECSCUSR = "q"  # with SP: cursor style (with ``>``: XTVERSION)
DECSTBM = "r"  # top and bottom margins
SCOSC = "s"  # save cursor (with parameters: DECSLRM)
XTWINOPS = "t"  # window operations
SCORC = "u"  # restore cursor (with a private marker: kitty keyboard protocol)

CSI_NAMES = {
    ICH: "ICH", CUU: "CUU", CUD: "CUD", CUF: "CUF", CUB: "CUB", CNL: "CNL", CPL: "CPL", CHA: "CHA",
    CUP: "CUP", CHT: "CHT", ED: "ED", EL: "EL", IL: "IL", DL: "DL", DCH: "DCH", SU: "SU",
    SD: "SD", ECH: "ECH", CBT: "CBT", HPA: "HPA", HPR: "HPR", REP: "REP", DA: "DA", VPA: "VPA",
    VPR: "VPR", HVP: "HVP", TBC: "TBC", SM: "SM", MC: "MC", RM: "RM", SGR: "SGR", DSR: "DSR",
    DECRQM: "DECSTR/DECRQM", DECSCUSR: "DECLL/DECSCUSR", DECSTBM: "DECSTBM", SCOSC: "SCOSC/DECSLRM",
    XTWINOPS: "XTWINOPS", SCORC: "SCORC",
}

# --- Two-byte escapes ESC Fp / Fe / Fs ------------------------------------------------------------
DECBI = "6"  # back index
DECSC = "7"  # save cursor
DECRC = "8"  # restore cursor
DECFI = "9"  # forward index
DECKPAM = "="  # keypad application mode
DECKPNM = ">"  # keypad numeric mode
IND = "D"  # index
NEL = "E"  # next line
HP_LL = "F"  # cursor to lower left (HP)
HTS = "H"  # horizontal tab set
RI = "M"  # reverse index
SS2 = "N"
SS3 = "O"
SPA = "V"
EPA = "W"
DECID = "Z"
ST_FINAL = "\\"  # ESC \ : string terminator
RIS = "c"  # reset to initial state
MEMORY_LOCK = "l"
MEMORY_UNLOCK = "m"
LS2 = "n"
LS3 = "o"
LS3R = "|"
LS2R = "}"
LS1R = "~"

ESC_NAMES = {
    DECSC: "DECSC", DECRC: "DECRC", DECBI: "DECBI", DECFI: "DECFI", RIS: "RIS", IND: "IND",
    NEL: "NEL", HTS: "HTS", RI: "RI", SS2: "SS2", SS3: "SS3", DECID: "DECID", LS2: "LS2",
    LS3: "LS3", LS3R: "LS3R", LS2R: "LS2R", LS1R: "LS1R", DECKPAM: "DECKPAM", DECKPNM: "DECKPNM",
    HP_LL: "cursor to lower left", MEMORY_LOCK: "memory lock", MEMORY_UNLOCK: "memory unlock",
    SPA: "SPA", EPA: "EPA", ST_FINAL: "ST",
}

# --- nF escapes: ESC, intermediate(s), final ------------------------------------------------------
G0_DESIGNATE = "("
G1_DESIGNATE = ")"
G1_TO_G3_DESIGNATE = ")*+-./"  # 94- and 96-character sets: no effect until SO / LS2 / LS3 invoke them
DEC_LINE = "#"  # DECDHL, DECSWL, DECALN ...
CODING_SYSTEM = "%"  # DOCS
ANNOUNCE = " "  # ANSI conformance level, 7/8-bit C1 transmission
CHARSET_US_ASCII = "B"  # ESC ( B: what tput sgr0 writes
DOCS_UTF8 = "G"  # ESC % G: select UTF-8
DECALN = "8"  # ESC # 8: screen alignment pattern

NF_NAMES = {
    G0_DESIGNATE: "G0 designation", DEC_LINE: "DEC line attributes / DECALN",
    CODING_SYSTEM: "coding-system switch", ANNOUNCE: "ANSI conformance / C1 transmission",
}

# --- C0 controls (ECMA-48 section 8.2) ------------------------------------------------------------
C0_NAMES = {
    0x00: "NUL", 0x01: "SOH", 0x02: "STX", 0x03: "ETX", 0x04: "EOT", 0x05: "ENQ", 0x06: "ACK",
    0x07: "BEL", 0x08: "BS", 0x09: "HT", 0x0A: "LF", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR", 0x0E: "SO",
    0x0F: "SI", 0x10: "DLE", 0x11: "DC1", 0x12: "DC2", 0x13: "DC3", 0x14: "DC4", 0x15: "NAK",
    0x16: "SYN", 0x17: "ETB", 0x18: "CAN", 0x19: "EM", 0x1A: "SUB", 0x1B: "ESC", 0x1C: "FS",
    0x1D: "GS", 0x1E: "RS", 0x1F: "US",
}

# --- DEC private modes (CSI ? Pm h / l), xterm ctlseqs numbering ----------------------------------
DECCKM = 1
DECANM = 2
DECCOLM = 3
DECSCLM = 4
DECSCNM = 5
DECOM = 6
DECAWM = 7
DECARM = 8
DECTCEM = 25  # cursor visible
REVERSE_WRAPAROUND = 45
ALT_SCREEN = 47
DECLRMM = 69
ALT_SCREEN_1047 = 1047
SAVE_CURSOR_1048 = 1048
ALT_SCREEN_1049 = 1049
GRAPHEME_CLUSTERING = 2027

PRIVATE_MODE_NAMES = {
    DECANM: "DECANM VT52 mode", DECCOLM: "DECCOLM", DECSCNM: "DECSCNM", DECOM: "DECOM",
    38: "Tektronix mode", 42: "DECNRCM", REVERSE_WRAPAROUND: "reverse wraparound",
    ALT_SCREEN: "alternate screen", DECLRMM: "DECLRMM", ALT_SCREEN_1047: "alternate screen",
    SAVE_CURSOR_1048: "save cursor", ALT_SCREEN_1049: "alternate screen",
    GRAPHEME_CLUSTERING: "grapheme clustering",
}

#: The one list of DEC private modes that change neither which characters show nor where, under the
#: display model (no wrapping, no margins, at least 24 rows, unbounded scrollback). Chosen per mode
#: from xterm's ctlseqs; tmux 3.3a ignores every mode here it does not implement. Left out on purpose
#: (refused): 2 DECANM (VT52 parsing), 3 DECCOLM and 5 DECSCNM (clear or repaint the screen), 6 DECOM
#: (origin), 10 and 30 (rxvt toolbar and scrollbar: xterm may resize the text area), 38 (Tektronix
#: window), 42 DECNRCM (national character sets change which glyph shows), 45 reverse wraparound (BS at
#: column 0 moves up a row), 47/1047/1048/1049 (alternate screen, saved cursor), 69 DECLRMM (margins),
#: 2027 (grapheme clustering changes cell widths), and every mode not listed.
HARMLESS_PRIVATE_MODES = frozenset(
    {
        DECCKM,  # cursor keys
        DECSCLM,  # smooth scroll
        DECAWM,  # autowrap: the display model never reaches the right margin
        DECARM,  # auto-repeat
        9,  # X10 mouse reporting
        12, 13, 14,  # cursor blinking (att610, xterm, XOR)
        18, 19,  # DECPFF print form feed, DECPEX print extent
        25,  # DECTCEM cursor visible
        40,  # allow 80/132 (the switch itself, DECCOLM, is refused)
        44,  # margin bell
        66,  # DECNKM keypad
        67,  # DECBKM backarrow key
        1000, 1001, 1002, 1003, 1005, 1006, 1015, 1016,  # mouse reporting
        1004,  # focus events
        1007,  # alternate scroll
        1010, 1011,  # scroll to bottom on output / key press (the view, not the content)
        1034, 1035, 1036, 1037, 1039, 1040, 1041, 1042, 1043, 1044,  # keyboard, selection, bell
        1050, 1051, 1052, 1053, 1060, 1061,  # function-key modes
        2004,  # bracketed paste
        2026,  # synchronized output (only delays drawing)
        2031,  # colour-palette update notifications
        2048,  # in-band resize notifications (reports only)
        9001,  # win32-input-mode (keyboard encoding)
    }
)

# --- ANSI modes (``CSI Pm h`` / ``CSI Pm l``, no private marker) -----------------------------------
IRM = 4  # insertion replacement mode: the one ANSI mode that changes what a character overwrites
CURSOR_VERY_VISIBLE = 34  # screen / tmux terminfo's cvvis (RM) and cnorm (SM): vim writes them

# Which ANSI modes change nothing shown is a judgement each model makes on its own (a shared list
# could not catch its own mistake): the verifier's is the narrower one.

#: The verifier's: ANSI modes that change nothing shown, in tmux 3.3a and in xterm. tmux's
#: input_csi_dispatch_sm / _rm act on 4 and 34 only (34: the cursor's visibility); xterm's ctlseqs name
#: 2 KAM, 4 IRM, 12 SRM and 20 LNM, and ignores the rest. Left out on purpose (refused): 4 (content),
#: 2, 12, 20 (xterm locks the keyboard, echoes typed keys, turns LF into CR LF), and every mode not listed.
INERT_ANSI_MODES = frozenset({CURSOR_VERY_VISIBLE})

#: The cleaner's: the ANSI modes whose set / reset changes neither which characters show nor where.
#: tmux 3.3a acts on 4 (IRM) and 34 and ignores every other mode; xterm's 2 KAM locks the keyboard and
#: 12 SRM echoes keys typed, not output. Left out on purpose (refused): 4 IRM (inserts), 20 LNM (xterm
#: then moves LF to column 0, tmux does not), 3 CRM (some terminals then show the controls), and every
#: mode not listed.
HARMLESS_ANSI_MODES = frozenset({2, 12, CURSOR_VERY_VISIBLE})
