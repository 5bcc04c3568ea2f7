"""``textclean measure``: what textclean would save on logs people have (readers in ``sources``)."""

from .engines import Options
from .gauge import collapse_blank_runs
from .partial import Partial, measure_file, merge
from .report import measure_main, measure_paths, summarize

__all__ = ["Options", "Partial", "collapse_blank_runs", "measure_file", "measure_main", "measure_paths", "merge",
           "summarize"]
