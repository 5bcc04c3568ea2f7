"""``textclean measure``: what textclean would save on logs people have (readers in ``sources``)."""

from .report import collapse_blank_runs, measure_main

__all__ = ["collapse_blank_runs", "measure_main"]
