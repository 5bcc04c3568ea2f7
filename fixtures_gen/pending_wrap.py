"""Count the disputed shape of issue 22 in a capture: a row filled to exactly the terminal's width
(the cursor at the pending-wrap position), then a control that moves or erases before anything puts
the cursor back in a known place, and what comes after it.

``python -m fixtures_gen.pending_wrap FILE... [--size COLUMNSxROWS]`` prints, per file, how many
times it happens and the (control at the margin, next control) pairs. A ``.cast`` is read as its
output events at its recorded size; a ``.raw`` with a ``.json`` beside it at the capture's size.

pyte keeps the cursor at ``x == columns`` after a character written in the last column (the next
character wraps), which is the pending-wrap position this counts from; it is the counter's own
model, independent of textclean.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyte

# pyte's event names for the controls whose effect at the pending-wrap position terminals disagree on.
DISPUTED = {
    "cursor_up": "CUU",
    "cursor_down": "CUD",
    "cursor_forward": "CUF",
    "cursor_back": "CUB",
    "backspace": "BS",
    "tab": "HT",
    "erase_in_line": "EL",
    "erase_characters": "ECH",
}
# After the dispute: how the next control is named in the tally (what settles it or reads it).
FOLLOWERS = {
    **DISPUTED,
    "carriage_return": "CR",
    "linefeed": "LF",
    "index": "IND",
    "reverse_index": "RI",
    "cursor_position": "CUP",
    "cursor_to_column": "CHA",
    "cursor_to_line": "VPA",
    "erase_in_display": "ED",
    "draw": "text",
    "save_cursor": "DECSC",
    "restore_cursor": "DECRC",
    "set_margins": "DECSTBM",
    "reset": "RIS",
}
# Controls that leave the dispute open: further vertical moves (the column is still the disputed one).
KEEPS_DISPUTE = {"cursor_up", "cursor_down", "select_graphic_rendition", "set_mode", "reset_mode", "debug"}


@dataclass
class Tally:
    """What the counter saw in one stream."""

    disputes: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)

    def cuu_then_cr(self) -> int:
        return sum(n for (opener, follower), n in self.pairs.items() if opener == "CUU" and follower == "CR")


class _Watcher:
    """Stands between pyte's stream and its screen: notes each event with the cursor's state first."""

    def __init__(self, screen: pyte.Screen) -> None:
        self._screen = screen
        self.tally = Tally()
        self._open: str | None = None  # the control that moved at the margin, until the next one

    def _event(self, name: str, *args: Any, **kwargs: Any) -> None:
        screen = self._screen
        if self._open is not None:
            if name not in KEEPS_DISPUTE:
                self.tally.pairs[(self._open, FOLLOWERS.get(name, name))] += 1
                self._open = None
        elif name in DISPUTED and screen.cursor.x >= screen.columns:
            self.tally.disputes += 1
            self._open = DISPUTED[name]
        getattr(screen, name)(*args, **kwargs)

    def __getattr__(self, name: str) -> Callable[..., None]:
        attribute = getattr(self._screen, name)
        if not callable(attribute):
            return attribute  # type: ignore[no-any-return]
        return lambda *args, **kwargs: self._event(name, *args, **kwargs)

    def finish(self) -> Tally:
        if self._open is not None:
            self.tally.pairs[(self._open, "end")] += 1
            self._open = None
        return self.tally


def count(text: str, columns: int, rows: int) -> Tally:
    """The disputed moves in ``text`` on a ``columns`` x ``rows`` terminal (LF implies CR, as a pty)."""
    screen = pyte.Screen(columns, rows)
    screen.set_mode(pyte.modes.LNM)
    watcher = _Watcher(screen)
    stream = pyte.Stream(watcher)  # type: ignore[arg-type]
    stream.feed(text)
    return watcher.finish()


def load(path: Path) -> tuple[str, int, int]:
    """A capture's text and size: a ``.cast``'s header, else the ``.json`` beside it."""
    data = path.read_bytes()
    if path.suffix == ".cast":
        from oracle.asciicast import read_asciicast

        recording = read_asciicast(data)
        return recording.output, recording.columns, recording.rows
    metadata = json.loads(path.with_suffix(".json").read_text())
    return data.decode("utf-8", "surrogateescape"), metadata["columns"], metadata["lines"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fixtures_gen.pending_wrap", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--size", help="COLUMNSxROWS, for files without a size of their own")
    args = parser.parse_args(argv)
    for path in args.files:
        if args.size:
            columns, rows = (int(part) for part in args.size.split("x"))
            text = path.read_bytes().decode("utf-8", "surrogateescape")
        else:
            text, columns, rows = load(path)
        tally = count(text, columns, rows)
        pairs = ", ".join(f"{a}->{b} {n}" for (a, b), n in tally.pairs.most_common())
        print(f"{path.name} {columns}x{rows}: {tally.disputes} at the margin; {pairs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
