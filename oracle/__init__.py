"""A virtual terminal that says which lines a real terminal would show (the tests' judge).

Built on pyte 0.8.2 with its gaps fixed (``oracle.stream`` parses, ``oracle.screen`` models the
screen) and checked against tmux and peer emulators' suites; see ``docs/oracle.md``.

Displays (as ``textclean.clean`` names them): ``terminal=False``, no terminal (strings a log viewer
ends at BEL removed, logical lines); a terminal of unknown size (the default); ``columns`` /
``rows``, a terminal of that size; ``fresh=False``, a terminal in use (earlier output on its screen).

Model: a screen as wide as the longest line (one column more, so logical lines neither wrap nor
reach the margin), newline implying carriage return (pyte's LNM, like a pty's ``onlcr``), a real
screen height (24 rows unless told) with unbounded scrollback. Cursor moves and erases act on
the visible screen as in xterm; what scrolled into the scrollback stays. The informative lines are
scrollback + screen, right-trimmed, blank ones dropped; comparing them with plain text is modulo
tab expansion and trailing spaces, which a screen cannot represent.

Content a terminal hides by clearing the screen, switching to the alternate screen or writing at
absolute positions is not judged by :func:`agrees`; :func:`check_lossless` asks instead that a
candidate keep every line the terminal ever showed, in order (see :mod:`oracle.lossless`).
Where real terminals disagree, ``flavour="xterm"`` (default) or ``"tmux"`` picks one, and
``Rendering.ambiguous`` names what an input relied on (``docs/oracle.md``).
"""

from .errors import OracleError
from .logview import without_bel_ended_strings
from .lossless import LosslessResult, agrees, check_lossless, ideal_lines, shown_lines
from .render import (
    DEFAULT_LINES,
    Rendering,
    decode,
    estimate_columns,
    informative_lines,
    render,
)

__all__ = [
    "OracleError",
    "DEFAULT_LINES",
    "LosslessResult",
    "Rendering",
    "agrees",
    "check_lossless",
    "decode",
    "estimate_columns",
    "ideal_lines",
    "informative_lines",
    "render",
    "shown_lines",
    "without_bel_ended_strings",
]
