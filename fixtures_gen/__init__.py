"""Capture real programs' terminal output in a pseudo-terminal, for textclean's fixtures."""

from fixtures_gen.catalogue import CATALOGUE, Entry, Invocation, capture_entry
from fixtures_gen.pty_capture import Capture, capture

__all__ = ["CATALOGUE", "Capture", "Entry", "Invocation", "capture", "capture_entry"]
