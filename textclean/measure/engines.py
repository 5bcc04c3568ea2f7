"""Run the map (:func:`~.partial.measure_file`) over files and fold the partial reports.

* ``serial``: one process; an output already measured in an earlier file is not gated again.
* ``pool``: ``--jobs N`` spawned processes of the standard library (one file per task).
* ``dask``: a Dask bag over the files, reduced with the associative merge; on the cluster at
  ``--scheduler ADDRESS`` (``dask.distributed``) when given, else Dask's local process scheduler
  with ``--jobs`` workers. Needs the ``dask`` extra.

Every engine returns the same report as ``serial`` (the tests check it on a two-worker cluster).
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from textclean.pipeline.gate import DEFAULT_MIN_TOKENS

from .gauge import Measurer
from .partial import Partial, measure_file, merge_all

ENGINES = ("serial", "pool", "dask")


@dataclass(frozen=True)
class Options:
    """What every worker needs to measure a file the same way."""

    min_tokens: int = DEFAULT_MIN_TOKENS
    tokenizer: str | None = None
    fmt: str | None = None


_measurers: dict[tuple[int, str | None], Measurer] = {}


def measurer_for(options: Options) -> Measurer:
    """One measurer per worker process and options (loading a tokenizer is not free)."""
    key = (options.min_tokens, options.tokenizer)
    measurer = _measurers.get(key)
    if measurer is None:
        measurer = _measurers[key] = Measurer(options.min_tokens, options.tokenizer)
    return measurer


def measure_indexed(item: tuple[int, str], options: Options) -> Partial:
    """The map step, picklable: ``(index, path)`` to the file's partial report."""
    index, path = item
    return measure_file(path, measurer_for(options), index=index, fmt=options.fmt)


def measure_partition(items: Iterable[tuple[int, str]], options: Options) -> list[Partial]:
    """The map over one partition of files, in order, sharing what earlier files measured (as serial)."""
    total = Partial()
    measurer = measurer_for(options)
    for index, path in items:
        total.merge_from(measure_file(path, measurer, index=index, fmt=options.fmt, known=total.records))
    return [total]


Progress = Callable[[Partial], None]


def run_serial(paths: Iterable[str], options: Options, progress: Progress | None = None) -> Partial:
    total = Partial()
    measurer = measurer_for(options)
    for index, path in enumerate(paths):
        partial = measure_file(path, measurer, index=index, fmt=options.fmt, known=total.records)
        total.merge_from(partial)
        if progress:
            progress(partial)
    return total


def _pool_worker(item: tuple[int, str]) -> Partial:
    return measure_indexed(item, _pool_options)


_pool_options = Options()


def _init_pool(options: Options) -> None:
    global _pool_options
    _pool_options = options


def run_pool(paths: Iterable[str], options: Options, jobs: int, progress: Progress | None = None) -> Partial:
    total = Partial()
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_init_pool, initargs=(options,)) as pool:
        # A bounded window of files in flight, so neither queued paths nor finished results pile up.
        window: Iterator[tuple[int, str]] = enumerate(paths)
        while batch := list(itertools.islice(window, jobs * 4)):
            for partial in pool.imap(_pool_worker, batch, chunksize=1):
                total.merge_from(partial)
                if progress:
                    progress(partial)
    return total


def run_dask(paths: Iterable[str], options: Options, jobs: int, scheduler: str | None = None) -> Partial:
    """A Dask bag over the files: map each partition's files to a partial report, reduce with the merge."""
    try:
        db: Any = importlib.import_module("dask.bag")
    except ImportError:
        raise RuntimeError("--engine dask needs dask: pip install 'textclean-lossless[dask]' "
                           "(from a clone: pip install '.[dask]')") from None
    items = list(enumerate(paths))
    if not items:
        return Partial()
    partitions = min(len(items), max(1, jobs) * 4)
    bag = db.from_sequence(items, npartitions=partitions).map_partitions(measure_partition, options)
    reduced = bag.reduction(merge_all, merge_all, split_every=8)
    if scheduler:
        client_type: Any = importlib.import_module("distributed").Client
        try:
            client = client_type(scheduler)
        except (OSError, ValueError, TypeError) as error:  # unreachable, or not an address
            raise RuntimeError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
        with client:
            result = client.compute(reduced).result()
    else:
        result = reduced.compute(scheduler="processes", num_workers=max(1, jobs))
    assert isinstance(result, Partial)
    return result
