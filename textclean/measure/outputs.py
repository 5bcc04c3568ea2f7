"""What a reader yields (:class:`ToolOutput`) and what it counts besides (:class:`ReadStats`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class ToolOutput(NamedTuple):
    """One tool output: where it came from, its text, and whether it also held non-text blocks.

    When ``non_text_blocks`` is true, ``text`` is the output's text blocks joined by newlines (for
    counting only): message integration leaves such an output whole. ``columns``/``rows`` are the
    terminal size the output was written for, when the log records it (a recording's header);
    ``fresh``: the output starts on a new terminal (a recording's first output).
    """

    label: str
    text: str
    non_text_blocks: bool = False
    columns: int | None = None
    rows: int | None = None
    fresh: bool = False


@dataclass
class ReadStats:
    """What the readers met besides outputs: files, malformed records, unreadable or unknown files."""

    files: int = 0
    malformed: int = 0
    unreadable_files: int = 0
    skipped_files: int = 0
    unreadable: list[str] = field(default_factory=list)  # "PATH: reason" of each unreadable file

    def merge(self, other: ReadStats) -> None:
        self.files += other.files
        self.malformed += other.malformed
        self.unreadable_files += other.unreadable_files
        self.skipped_files += other.skipped_files
        self.unreadable.extend(other.unreadable)


def decode(data: bytes) -> str:
    """Bytes to text without loss: invalid UTF-8 becomes lone surrogates that encode back exactly."""
    return data.decode("utf-8", errors="surrogateescape")
