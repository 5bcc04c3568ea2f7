"""What a reader yields (:class:`ToolOutput`) and what it counts besides (:class:`ReadStats`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class ToolOutput(NamedTuple):
    """One tool output: where it came from, its text, and whether it also held non-text blocks.

    When ``non_text_blocks`` is true, ``text`` is the output's text blocks joined by newlines (for
    counting only): message integration leaves such an output whole. ``columns``/``rows`` are the
    terminal size the output was written for, when the log records it (a recording's header);
    ``terminal``: it was written to a terminal (a recording), not through a pipe (an agent's log);
    ``fresh``: the output starts on a new terminal (a recording's first output).
    """

    label: str
    text: str
    non_text_blocks: bool = False
    columns: int | None = None
    rows: int | None = None
    fresh: bool = False
    terminal: bool = False

    @property
    def on_a_terminal(self) -> bool:
        return self.terminal or self.fresh or self.columns is not None or self.rows is not None

    @property
    def display(self) -> str:
        """Which display the output is cleaned for (one of :data:`DISPLAYS`)."""
        if not self.on_a_terminal:
            return NO_TERMINAL
        sized = self.columns is not None or self.rows is not None
        if self.fresh:
            return NEW_TERMINAL_AT_SIZE if sized else NEW_TERMINAL
        return TERMINAL_AT_SIZE if sized else TERMINAL


# The displays measure cleans outputs for (textclean.clean's terminal=, columns=/rows=, fresh=).
NO_TERMINAL = "no terminal"  # agent logs: tool output came through pipes
TERMINAL_AT_SIZE = "terminal at its recorded size"
NEW_TERMINAL_AT_SIZE = "new terminal at its recorded size"  # a recording's first output
TERMINAL = "terminal of unknown size"  # a recording's output during which the size changed
NEW_TERMINAL = "new terminal of unknown size"
DISPLAYS = (NO_TERMINAL, TERMINAL_AT_SIZE, NEW_TERMINAL_AT_SIZE, TERMINAL, NEW_TERMINAL)


@dataclass
class ReadStats:
    """What the readers met besides outputs: files, malformed records, unreadable or unknown files."""

    files: int = 0
    malformed: int = 0
    unreadable_files: int = 0
    skipped_files: int = 0
    unreadable: list[str] = field(default_factory=list)  # "PATH: reason" of each unreadable file
    preamble_lines: int = 0  # non-JSON lines before a JSON-lines log's records (banners), skipped
    preamble_files: int = 0  # the logs that had them

    def merge(self, other: ReadStats) -> None:
        self.files += other.files
        self.malformed += other.malformed
        self.unreadable_files += other.unreadable_files
        self.skipped_files += other.skipped_files
        self.preamble_lines += other.preamble_lines
        self.preamble_files += other.preamble_files
        self.unreadable.extend(other.unreadable)


def decode(data: bytes) -> str:
    """Bytes to text without loss: invalid UTF-8 becomes lone surrogates that encode back exactly."""
    return data.decode("utf-8", errors="surrogateescape")
