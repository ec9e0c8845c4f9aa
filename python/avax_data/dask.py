"""Walks spread over a Dask cluster: a ``dask.dataframe`` whose partitions are index chunks (or
metric windows), each fetched by a worker with its own client.

Needs the ``dask`` extra (``pip install 'avax-data[dask]'``: dask, distributed, pandas, pyarrow).
The graph holds only plain values (URLs, positions, options): every worker makes its own client.

The node (or the API key) is one resource however many workers share it, so a global
``rate_limit`` (requests per second) or ``compute_units_per_minute`` is split evenly over the
partitions that can run at once (the cluster's worker threads, or ``slots=``): each partition's
client gets its share, and the cluster as a whole stays under the global figure.

>>> import avax_data.dask as add
>>> frame = add.index_range(emu.url, "X/tx", 0, 900, chunk=400)
>>> frame.npartitions
3
>>> frame.compute()["index"].tolist() == list(range(900))
True
"""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ParamSpec, TypeVar, cast

from ._native import IndexClient, MetricsClient, complete_partitions, merge_dataset, month_windows, unix_seconds
from .exceptions import EmptyIndexError, InvalidParameterError

P = ParamSpec("P")
R = TypeVar("R")

if TYPE_CHECKING:
    import dask.dataframe as dd
    import pandas as pd

    from .types import Compression, TimeArg

__all__ = ["ChunkSpec", "WindowSpec", "index_range", "metric_series", "read_chunk", "read_window", "index_chunks",
           "per_partition_limit", "write_index_dataset", "write_chunk"]


def _invalid(param: str, value: object, allowed: str) -> InvalidParameterError:
    return InvalidParameterError(f"invalid {param}={value!r}: {allowed}", param=param, value=value, allowed=allowed)


def _url_renamed(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` taking its ``base_url`` (every client's name for it) also as ``url=``, its deprecated
    name, with a ``DeprecationWarning``; both at once is refused."""

    @functools.wraps(fn)
    def renamed(*args: P.args, **kwargs: P.kwargs) -> R:
        if "url" in kwargs:
            url = kwargs.pop("url")
            if args or "base_url" in kwargs:
                raise _invalid("url", "...", "only one of base_url= and url= (its deprecated name)")
            warnings.warn(f"{fn.__name__}(url=...) is deprecated: use base_url= (it goes in the next release)",
                          DeprecationWarning, stacklevel=2)
            kwargs["base_url"] = url
        return fn(*args, **kwargs)

    return renamed


def _int(param: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _invalid(param, value, f"an int >= {low}")
    return value


@dataclass(frozen=True)
class ChunkSpec:
    """One partition of an index walk: ``[first, next)`` of ``path`` on the node at ``url``.

    Example:
        >>> spec = add.ChunkSpec(emu.url, "X/tx", 0, 0, 3)
        >>> add.read_chunk(spec)["index"].tolist()
        [0, 1, 2]
    """

    url: str
    path: str
    chunk: int
    first: int
    next: int
    decode: Any = None
    options: dict[str, Any] = field(default_factory=dict)


def _plain_type(t: Any) -> Any:
    """``t`` with Arrow view types (string_view, binary_view) made plain, nested ones too:
    pandas and Dask have no kernels for views."""
    import pyarrow as pa

    if pa.types.is_string_view(t):
        return pa.large_string()
    if pa.types.is_binary_view(t):
        return pa.large_binary()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.large_list(pa.field(t.value_field.name, _plain_type(t.value_type), t.value_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _plain_type(f.type), f.nullable) for f in t])
    return t


def _to_pandas(table: Any) -> pd.DataFrame:
    """An Arrow table as a pandas DataFrame of Arrow-backed columns (bytes stay binary: Dask
    turns object columns into strings)."""
    import pandas as pd
    import pyarrow as pa

    schema = pa.schema([pa.field(f.name, _plain_type(f.type), f.nullable) for f in table.schema])
    return table.cast(schema).to_pandas(types_mapper=pd.ArrowDtype)


def read_chunk(spec: ChunkSpec) -> pd.DataFrame:
    """Fetches one index chunk as a pandas DataFrame (with a ``chunk`` column), on a worker.

    Example:
        >>> add.read_chunk(add.ChunkSpec(emu.url, "X/tx", 400, 400, 402))["chunk"].tolist()
        [400, 400]
    """
    import pandas as pd

    with IndexClient(spec.url, **spec.options) as node:
        table = node.chain(spec.path).range(spec.first, spec.next, decode=spec.decode).to_arrow()
    frame = _to_pandas(table)
    frame["chunk"] = pd.Series([spec.chunk] * len(frame), dtype="int64")
    return frame


def per_partition_limit(limit: float | None, slots: int) -> float | None:
    """A global limit's share for one of ``slots`` partitions running at once.

    Example:
        >>> add.per_partition_limit(100.0, 8)
        12.5
        >>> add.per_partition_limit(None, 8) is None
        True
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit > 0:
        raise _invalid("rate_limit", limit, "a number > 0, or None")
    return float(limit) / _int("slots", slots, 1)


def _slots(slots: int | None) -> int:
    """Partitions that can run at once: ``slots``, or the threads of the current Dask cluster."""
    if slots is not None:
        return _int("slots", slots, 1)
    try:
        from distributed import get_client

        workers = get_client().scheduler_info()["workers"].values()
        return max(1, sum(int(w.get("nthreads", 1)) for w in workers))
    except (ImportError, ValueError):
        return 1


def _split_limits(options: dict[str, Any], rate_limit: float | None, compute_units_per_minute: int | None,
                  slots: int | None) -> dict[str, Any]:
    if rate_limit is None and compute_units_per_minute is None:
        return options
    n = _slots(slots)
    options = dict(options)
    if rate_limit is not None:
        options["rate_limit"] = per_partition_limit(rate_limit, n)
    if compute_units_per_minute is not None:
        _int("compute_units_per_minute", compute_units_per_minute, 1)
        options["compute_units_per_minute"] = max(1, compute_units_per_minute // n)
    return options


@_url_renamed
def index_chunks(base_url: str, path: str, start: int = 0, end: int | None = None, *, chunk: int = 100_000,
                 decode: Any = None, rate_limit: float | None = None, slots: int | None = None,
                 **client_options: Any) -> list[ChunkSpec]:
    """The partitions of an index walk: ``[start, end)`` (default: to the tip, read now) cut at
    multiples of ``chunk``, the layout of :meth:`Range.write_dataset`; ``rate_limit`` (and
    ``compute_units_per_minute``) split over ``slots`` as :func:`index_range` says.

    Example:
        >>> [(c.first, c.next) for c in add.index_chunks(emu.url, "X/tx", 500, 2_100, chunk=1_000)]
        [(500, 1000), (1000, 2000), (2000, 2100)]
    """
    _int("start", start, 0)
    _int("chunk", chunk, 1)
    limits = _split_limits({}, rate_limit, client_options.pop("compute_units_per_minute", None), slots)
    with IndexClient(base_url, **client_options) as node:
        rng = node.chain(path).range(start, start, decode=decode)  # checks path and decode first
        del rng
        if end is None:
            try:
                end = int(node.chain(path).last_accepted()["index"]) + 1
            except EmptyIndexError:
                end = start
    _int("end", end, 0)
    specs = []
    first = start
    while first < end:
        value = first - first % chunk
        nxt = min(value + chunk, end)
        specs.append(ChunkSpec(base_url, path, value, first, nxt, decode, {**client_options, **limits}))
        first = nxt
    return specs


@_url_renamed
def index_range(base_url: str, path: str, start: int = 0, end: int | None = None, *, chunk: int = 100_000,
                decode: Any = None, rate_limit: float | None = None, slots: int | None = None,
                **client_options: Any) -> dd.DataFrame:
    """A Dask DataFrame of an index walk, one partition per chunk, fetched by the workers.

    Args:
        base_url: the node's base URL (reached from the workers); ``url=`` is its deprecated name
            (a ``DeprecationWarning``, for one release).
        path: ``C/block``, ``P/block``, ``X/tx``, ``X/block`` or ``X/vtx``.
        start: the first index; end: one past the last (default: the tip, read now).
        chunk: indices per partition, aligned to multiples of ``chunk`` (default 100000).
        decode: as in :meth:`Chain.range`.
        rate_limit: requests per second for the whole cluster, split over ``slots``.
        slots: partitions that run at once (default: the current Dask client's threads, else 1).
        client_options: any other :class:`IndexClient` option (``concurrency``, ``timeout``, ...).

    Returns:
        A ``dask.dataframe.DataFrame`` of the range's rows in index order, with a ``chunk`` column;
        ``.to_parquet(dir, partition_on=["chunk"])`` writes hive partitions ``chunk=<first index>``.

    Raises:
        InvalidParameterError: a bad argument, before any partition runs.

    Example:
        >>> add.index_range(emu.url, "X/tx", 0, 10, chunk=4).compute()["chunk"].tolist()
        [0, 0, 0, 0, 4, 4, 4, 4, 8, 8]
    """
    import dask.dataframe as dd

    specs = index_chunks(base_url, path, start, end, chunk=chunk, decode=decode, rate_limit=rate_limit, slots=slots,
                         **client_options)
    meta = read_chunk(ChunkSpec(base_url, path, start - start % chunk, start, start, decode, dict(client_options)))
    if not specs:
        return cast("dd.DataFrame", dd.from_pandas(meta, npartitions=1))  # type: ignore[no-untyped-call]
    return cast("dd.DataFrame", dd.from_map(read_chunk, specs, meta=meta, enforce_metadata=False))  # type: ignore[no-untyped-call]


def write_chunk(spec: ChunkSpec, staging: str, chunk: int, compression: Compression = "snappy") -> str:
    """Writes one index chunk as a staged dataset directory (the single-process writer,
    :meth:`Range.write_dataset`, on a worker); returns ``staging``. A retried task starts afresh.

    Example:
        >>> import tempfile
        >>> stage = tempfile.mkdtemp() + "/chunk=400"
        >>> add.write_chunk(add.ChunkSpec(emu.url, "X/tx", 400, 400, 450), stage, 400) == stage
        True
        >>> ad._native.complete_partitions(stage)
        [(400, 400, 450, 50)]
    """
    import shutil

    shutil.rmtree(staging, ignore_errors=True)
    with IndexClient(spec.url, **spec.options) as node:
        rng = node.chain(spec.path).range(spec.first, spec.next, decode=spec.decode)
        rng.write_dataset(staging, chunk=chunk, compression=compression)
    return staging


@_url_renamed
def write_index_dataset(base_url: str, path: str, directory: str | os.PathLike[str], start: int = 0,
                        end: int | None = None, *, chunk: int = 100_000, decode: Any = None,
                        compression: Compression = "snappy", rate_limit: float | None = None, slots: int | None = None,
                        **client_options: Any) -> dict[str, int]:
    """Write an index walk as a dataset, one chunk per Dask task, with the manifest of
    :meth:`Range.write_dataset`: the same directory, files and ``_avax_dataset.json`` one process
    writes, so a rerun of either writer skips what the other completed.

    The chunks a previous run completed (files unchanged) are skipped; each other chunk is written
    by a worker, with its own client, as a staged dataset under ``<directory>.dask-staging/`` (the
    single-process writer, so a task killed mid-chunk and retried by Dask starts that chunk
    afresh); the staged chunks are then moved in and recorded in one manifest
    (:func:`avax_data._native.merge_dataset`). ``directory`` must be on a filesystem every worker
    shares with the caller.

    Args:
        base_url: as in :func:`index_range`; so are ``path``, ``start``, ``end``, ``chunk``, ``decode``,
            ``rate_limit``, ``slots`` and ``client_options``.
        directory: the dataset directory (str or ``os.PathLike``), created when missing.
        compression: as in :meth:`Range.write_parquet`.

    Returns:
        dict: ``partitions_written``, ``partitions_skipped``, ``rows_written`` and ``rows_skipped``.

    Raises:
        InvalidParameterError: a bad argument, or ``directory`` holds another walk's dataset,
            before any task runs.
        DatasetLockedError: another writer holds ``directory`` (before any task runs, or at the
            merge, which holds the lock while it moves the chunks in).

    Example:
        >>> import tempfile
        >>> out = tempfile.mkdtemp()
        >>> add.write_index_dataset(emu.url, "X/tx", out, 0, 900, chunk=400)
        {'partitions_skipped': 0, 'partitions_written': 3, 'rows_skipped': 0, 'rows_written': 900}
        >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 900).write_dataset(out, chunk=400)["partitions_skipped"]
        3
    """
    import shutil
    from pathlib import Path

    import dask

    specs = index_chunks(base_url, path, start, end, chunk=chunk, decode=decode, rate_limit=rate_limit, slots=slots,
                         **client_options)
    out = Path(directory)
    with IndexClient(base_url, **{k: v for k, v in client_options.items() if k != "compute_units_per_minute"}) as node:
        # an empty walk into the directory: refuses another walk's dataset and checks the
        # arguments, writing nothing
        node.chain(path).range(start, start, decode=decode).write_dataset(out, chunk=chunk, compression=compression)
    done = {value: (first, nxt, rows) for value, first, nxt, rows in complete_partitions(out)}
    todo, skipped, skipped_rows = [], 0, 0
    for spec in specs:
        have = done.get(spec.chunk)
        if have is not None and have[0] <= spec.first and spec.next <= have[1]:
            skipped += 1
            skipped_rows += have[2]
        else:
            todo.append(spec)
    staging = Path(f"{out}.dask-staging")
    tasks = [dask.delayed(write_chunk)(s, str(staging / f"chunk={s.chunk}"), chunk, compression) for s in todo]
    staged = list(dask.compute(*tasks))
    summary = merge_dataset(out, staged)
    shutil.rmtree(staging, ignore_errors=True)
    return {**summary, "partitions_skipped": skipped, "rows_skipped": skipped_rows}


@dataclass(frozen=True)
class WindowSpec:
    """One partition of a metric series: the window ``[start, end)`` (Unix seconds), asked
    from ``ask_from`` (default ``None``: ``start``) to ``end``.

    Example:
        >>> spec = add.WindowSpec(emu.url, "43114", "txCount", "day", 0, 2**31)
        >>> len(add.read_window(spec)) > 0
        True
    """

    base_url: str
    chain_id: str
    metric: str
    interval: str
    start: int
    end: int
    options: dict[str, Any] = field(default_factory=dict)
    ask_from: int | None = None


def read_window(spec: WindowSpec) -> pd.DataFrame:
    """Fetches the points of one window of a metric series (``start <= timestamp < end``) as a
    pandas DataFrame, on a worker.

    The window is asked from ``ask_from`` to ``end`` and cut on the client to the window.
    :func:`metric_series` takes its windows (and ``ask_from``, one second before each) from
    :func:`avax_data._native.month_windows`, the cut :meth:`MetricsClient.write_dataset` makes,
    so no point is lost or repeated at a window's edge whether the service reads its bounds as
    inclusive, exclusive or floored to the bucket.

    Example:
        >>> list(add.read_window(add.WindowSpec(emu.url, "43114", "txCount", "day", 0, 2**31)).columns)
        ['timestamp', 'value', 'extra']
    """
    import pandas as pd

    with MetricsClient(base_url=spec.base_url, **spec.options) as client, warnings.catch_warnings():
        # A month of the series may hold no point (before the chain's first block): one empty
        # partition of many is not a window the user asked for, so no "0 rows" warning for it.
        warnings.filterwarnings("ignore", message="0 rows: ", category=UserWarning)
        table = client.metric(spec.chain_id, spec.metric, interval=spec.interval, start=spec.start if spec.ask_from is None else spec.ask_from,
                              end=spec.end, concurrency=1).to_arrow()
    frame = _to_pandas(table)
    low, high = pd.Timestamp(spec.start, unit="s", tz="UTC"), pd.Timestamp(spec.end, unit="s", tz="UTC")
    return frame[(frame["timestamp"] >= low) & (frame["timestamp"] < high)].reset_index(drop=True)


def metric_series(base_url: str, chain_id: str, metric: str, *, interval: str, start: TimeArg, end: TimeArg,
                  rate_limit: float | None = None, slots: int | None = None, **client_options: Any) -> dd.DataFrame:
    """A Dask DataFrame of a metric series, one partition per UTC month of ``[start, end)``
    (times as every method reads them: Unix seconds, ISO text, a date, an aware datetime).

    Each window is an independent request window of the Metrics API (newest first inside it,
    as the service gives them; the partitions go oldest month first).

    Raises:
        InvalidParameterError: a bad argument, before any partition runs.

    Example:
        >>> frame = add.metric_series(emu.url, "43114", "txCount", interval="hour", start=0, end=2**31)
        >>> len(frame.compute()) == len(ad.MetricsClient(base_url=emu.url).metric(
        ...     "43114", "txCount", interval="hour", start=0, end=2**31).to_polars())
        True
    """
    import dask.dataframe as dd

    start, end = unix_seconds(start, "start"), unix_seconds(end, "end")
    options = _split_limits(client_options, rate_limit, client_options.pop("compute_units_per_minute", None), slots)
    with MetricsClient(base_url=base_url, **options) as client:
        # a pager checks its arguments when made, before any request
        client.metric(chain_id, metric, interval=interval, start=start, end=max(start, end), concurrency=1)
    specs = [WindowSpec(base_url, chain_id, metric, interval, first, nxt, options, ask_from)
             for _, first, nxt, ask_from in month_windows(start, end)]
    meta_frame = read_window(WindowSpec(base_url, chain_id, metric, interval, 0, 1, options)).iloc[:0]
    if not specs:
        return cast("dd.DataFrame", dd.from_pandas(meta_frame, npartitions=1))  # type: ignore[no-untyped-call]
    return cast("dd.DataFrame", dd.from_map(read_window, specs, meta=meta_frame, enforce_metadata=False))  # type: ignore[no-untyped-call]
