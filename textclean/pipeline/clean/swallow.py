"""The strings tmux swallows past: where a DCS / SOS / PM / APC ended early (BEL, CAN / SUB) is followed
by text, a redraw or a line end that tmux and other terminals show differently, and CSI parameters
terminals disagree on. Each check gives a description or None; the caller refuses the whole text.
"""

from __future__ import annotations

import re

from .. import grammar

# Strings the grammar ends where tmux does not: DCS / SOS / PM / APC ended by BEL (the Buildkite
# policy), and a DCS cancelled by CAN / SUB once its data began. tmux 3.3a swallows on to ST (checked
# live, APC included), so the text after one may never show there: appending it keeps more than tmux
# shows, but no redraw may act on it, and no line end may come before the next ESC (tmux joins the
# text before the string with the text after its ST: ``AB ESC _ x BEL LF CD ESC \\ EF`` shows ``ABEF``).
SWALLOWING_STRING: re.Pattern[str] = grammar.SWALLOWING_STRING
# After a swallowing string: anything but appended text, line ends and inert sequences is a redraw.
_REDRAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\r(?!\n)")


def disputed_parameters(params: str) -> str | None:
    """Why terminals disagree on what a CSI with these parameter bytes does, or None. A parameter string
    of :data:`grammar.PARAMETER_BYTES_LIMIT` bytes or more (tmux discards the sequence, xterm acts on
    it), or a parameter above :data:`grammar.PARAMETER_RANGE_LIMIT` (tmux ignores the sequence, xterm
    clamps it; length first: ``int()`` refuses more than 4300 digits)."""
    if len(params) < 10:
        return None  # no field of ten digits: none above the limit
    if len(params) >= grammar.PARAMETER_BYTES_LIMIT:
        return (f"{len(params)} parameter bytes (tmux discards a sequence of {grammar.PARAMETER_BYTES_LIMIT} "
                "or more, xterm acts on it)")
    for field in re.split("[;:]", params):
        digits = field.lstrip("0")
        if len(digits) > 10 or (len(digits) == 10 and digits.isdigit() and int(digits) > grammar.PARAMETER_RANGE_LIMIT):
            return f"a parameter above {grammar.PARAMETER_RANGE_LIMIT} (tmux ignores the sequence, xterm clamps it)"
    return None


def joined_by_swallowing(text: str) -> str | None:
    """Where a string tmux swallows past is followed by a line end before the next ESC (tmux joins
    the lines around it): a description, or None."""
    for m in SWALLOWING_STRING.finditer(text):
        line_end = grammar.LINE_END_BEFORE_ESC.match(text, m.end())
        if line_end is None or line_end.end() == len(text):
            continue  # the string swallows to the end (tmux shows less: the safe side)
        if SWALLOWING_STRING.match(text, line_end.end()) is not None:
            continue  # the next ESC starts another such string: tmux shows nothing of what lies between
        return (f"a line end after {grammar.describe(grammar.parse(m.group()))} at offset {m.start()}, a string "
                "tmux does not end there (it joins the text before it with the text after its ST)")
    return None


def swallowed_text(text: str) -> str | None:
    """At a terminal: where something (text, a control, a sequence: anything but BEL) lies between
    the early end of a :data:`SWALLOWING_STRING` and the place tmux ends it. tmux swallows it, a
    terminal or viewer that ends the string at BEL shows or acts on it: they disagree on the line
    (issue 23). A description, or None."""
    for m in SWALLOWING_STRING.finditer(text):
        start = m.end()
        string = m.group()
        in_data = string[1] == "P" and grammar.DCS_BEFORE_DATA.fullmatch(string, 2, len(string) - 1) is None
        tmux_end = (grammar.TMUX_ENDS_DCS if in_data else grammar.TMUX_ENDS_STRING).search(text, start)
        stop = len(text) if tmux_end is None else tmux_end.start()
        stretch = text[start:stop]
        if not stretch.strip("\x07"):
            continue
        # Even where tmux shows nothing of the string's line (a Buildkite timestamp at a line's start), a
        # terminal that shows the stretch shows more than tmux: text tmux swallows is a dispute.
        return (f"{grammar.describe(grammar.parse(m.group()))} at offset {m.start()} ends there, but tmux "
                f"reads on to {'its ST' if in_data else 'the next ESC'} and swallows what lies "
                f"between (offset {start} to {stop}): terminals disagree on what shows")
    return None


def swallowed_redraw(text: str) -> str | None:
    """Where a string tmux swallows past is followed by a redraw or a line end before the next ESC
    (terminals disagree on what shows): a description, or None."""
    joined = joined_by_swallowing(text)
    if joined is not None:
        return joined
    m = SWALLOWING_STRING.search(text)
    if m is None:
        return None
    rest = grammar.APPEND_ONLY_INERT.sub("", text[m.end() :])
    if "\x1b" in rest or _REDRAW_CONTROL.search(rest) is not None:
        return (f"redraw after {grammar.describe(grammar.parse(m.group()))} at offset {m.start()}, a string tmux "
                "does not end there (it swallows what follows)")
    return None
