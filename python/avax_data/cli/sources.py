"""The walks an export reads from, each able to save and restart from its position.

- :class:`RangeSource`: an index range ``[start, end)``, through ``Range.batches()``; the end is
  fixed when the export starts (the tip then, without ``--count``), and kept in the state, so a
  resumed export ends where the first run would have.
- :class:`FollowSource`: new containers as they are accepted, polling the tip with backoff and
  walking each new stretch with ``Range.batches()`` (the frames of ``index range``, timestamps in
  nanoseconds).
- :class:`PagerSource`: a Data or Metrics API ``Pager``, through repeated
  ``pager.to_polars(limit=chunk)`` (each call resumes where the last stopped). A later run
  continues from ``next_page_token`` + ``page_offset``; without a token (a sharded metric walk,
  the first page, or an embedded emulator, whose tokens die with the process) it walks again and
  skips the items already written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..exceptions import EmptyIndexError
from .errors import EXIT_USAGE, CliError
from .export import Source

if TYPE_CHECKING:  # polars is imported where a frame is made: `avax-data --help` stays quick
    import polars as pl

__all__ = ["RangeSource", "FollowSource", "PagerSource", "tip_of"]

_SKIP_STEP = 50_000


def tip_of(chain: Any) -> int:
    """The last accepted index of ``chain``, ``-1`` for an empty index."""
    try:
        return int(chain.last_accepted()["index"])
    except EmptyIndexError:
        return -1


class RangeSource(Source):
    """``chain.range(start, count=count)`` as frames."""

    def __init__(self, chain: Any, start: int, count: int | None, *, batch_size: int | None, decode: Any,
                 stop_given: bool = False) -> None:
        self.chain = chain
        self.stop_given = stop_given  # the end came as --stop (messages name it)
        self.first = start
        self.count = count
        self.batch_size = batch_size
        self.decode = decode
        self.next_index = start
        self.end = start

    def start(self, position: dict[str, Any] | None) -> None:
        self._range(self.first, 0)  # refuses bad arguments (decode of X/vtx, batch size) before any request
        if position is not None:
            self.next_index, self.end = int(position["next_index"]), int(position["end"])
        else:
            tip = tip_of(self.chain)
            if self.first > tip:
                raise CliError(
                    f"--start {self.first} is past the tip of {self.chain.path} (last accepted index {tip})",
                    f"use --start {tip} or lower; avax-data index last shows the tip" if tip >= 0
                    else "the index is empty: wait for its first container",
                    EXIT_USAGE,
                )
            self.end = self.first + self.count if self.count is not None else tip + 1
            if self.end > tip + 1:
                given, most = (f"--stop {self.end}", tip + 1) if self.stop_given else (f"--count {self.count}",
                                                                                   tip + 1 - self.first)
                flag = given.split()[0]
                raise CliError(
                    f"--start {self.first} {given} ends at index {self.end - 1}, "
                    f"past the tip of {self.chain.path} ({tip})",
                    f"use {flag} {most} or lower, or leave {flag} out to walk to the tip",
                    EXIT_USAGE,
                )
        self.total = self.end - self.first

    def plan(self, dataset: Any = None, chunk: int | None = None) -> Any:
        """The plan of the range (a walk to the tip without ``--stop`` or ``--count``: its end is unknown);
        with ``dataset``, of its write into that dataset in partitions of ``chunk`` (what the
        dataset holds whole counted out, partition by partition)."""
        kwargs: dict[str, Any] = {"decode": self.decode}
        if self.batch_size is not None:
            kwargs["batch_size"] = self.batch_size
        rng = self.chain.range(self.first, count=self.count, **kwargs)
        return rng.plan() if dataset is None else rng.plan(dataset=dataset, chunk=chunk)

    def _range(self, start: int, count: int) -> Any:
        kwargs: dict[str, Any] = {"decode": self.decode}
        if self.batch_size is not None:
            kwargs["batch_size"] = self.batch_size
        return self.chain.range(start, count=count, **kwargs)

    def frames(self, chunk_rows: int) -> Iterator[pl.DataFrame | None]:
        batches = self._range(self.next_index, self.end - self.next_index).batches()
        try:
            for frame in batches:
                self.next_index = batches.next_index
                yield frame
        finally:
            batches.close()

    def position(self) -> dict[str, Any]:
        return {"next_index": self.next_index, "end": self.end}

    def export_plan(self, fresh: bool, held: int) -> Any:
        """The plan of the range less the ``held`` rows already written, with the tip a fresh
        export reads and the chain's identity (container 0, the export's source) when the walk's
        plan does not count it."""
        from .._native import _export_plan

        kwargs: dict[str, Any] = {"decode": self.decode}
        if self.batch_size is not None:
            kwargs["batch_size"] = self.batch_size
        return _export_plan(self.chain.range(self.first, self.count, **kwargs), fresh, held)

    def origin(self) -> dict[str, str]:
        """The network, by the id of the path's container 0 (one request, once per client: the
        cache reads the same); none for an empty index."""
        from .._native import _chain_identity

        identity = _chain_identity(self.chain)
        return {} if identity is None else {"network": identity}

    def empty(self) -> pl.DataFrame:
        return self._range(self.first, 0).to_polars()


class FollowSource(RangeSource):
    """Containers as they are accepted, from ``start`` (default: after the tip), ``count`` of them
    or until interrupted."""

    def __init__(
        self,
        chain: Any,
        start: int | None,
        count: int | None,
        *,
        batch_size: int | None,
        decode: Any,
        poll_interval: float,
        max_poll_interval: float,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(chain, start or 0, count, batch_size=batch_size, decode=decode)
        self.given_start = start
        self.poll_interval = poll_interval
        self.max_poll_interval = max(max_poll_interval, poll_interval)
        self.sleep = sleep
        self.end_or_none: int | None = None

    def start(self, position: dict[str, Any] | None) -> None:
        self._range(0, 0)  # refuses bad arguments before any request
        if position is not None:
            self.next_index = int(position["next_index"])
            self.first = int(position["first"])
            self.end_or_none = position.get("end")
        else:
            tip = tip_of(self.chain)
            self.first = tip + 1 if self.given_start is None else self.given_start
            if self.first > tip + 1:
                raise CliError(
                    f"--start {self.first} is past the tip of {self.chain.path} (last accepted index {tip})",
                    f"use --start {tip + 1} or lower, or leave it out to follow from the next container",
                    EXIT_USAGE,
                )
            self.next_index = self.first
            self.end_or_none = self.first + self.count if self.count is not None else None
        self.total = self.count

    def frames(self, chunk_rows: int) -> Iterator[pl.DataFrame | None]:
        wait = self.poll_interval
        while self.end_or_none is None or self.next_index < self.end_or_none:
            tip = tip_of(self.chain)
            if tip >= self.next_index:
                stop = tip + 1 if self.end_or_none is None else min(tip + 1, self.end_or_none)
                self.end = stop
                yield from super().frames(chunk_rows)
                wait = self.poll_interval
                continue
            yield None  # caught up with the tip: write what is gathered
            self.sleep(wait)
            wait = min(wait * 2, self.max_poll_interval)

    def position(self) -> dict[str, Any]:
        return {"next_index": self.next_index, "first": self.first, "end": self.end_or_none}


class PagerSource(Source):
    """A ``Pager`` (Data or Metrics API) as frames of up to ``chunk_rows`` rows."""

    def __init__(
        self,
        make_pager: Callable[[str | None, int | None], Any],
        limit: int | None,
        *,
        base_url: str | None,
        tokens_survive: bool = True,
    ) -> None:
        self.make_pager = make_pager
        self.base_url = base_url
        self.limit = limit
        self.tokens_survive = tokens_survive
        self.pager: Any = None
        self.before = 0  # items read before this run's pager started
        self.total = limit

    def origin(self) -> dict[str, str]:
        """The service, by its base URL (redacted by the checkpoint); none for the embedded
        emulator, whose URL changes with every run (its world is in the export's arguments)."""
        return {} if self.base_url is None else {"base_url": self.base_url}

    def plan(self) -> Any:
        """The plan of the list walk from its start, up to ``--limit`` items."""
        return self.make_pager(None, self.limit).plan()

    def start(self, position: dict[str, Any] | None) -> None:
        if position is not None and "handed_out" in position and position.get("next_page_token") \
                and self.tokens_survive:
            # The pager goes to the position with the identities of the last items written: a
            # list that grew on its head since drops the items it pushed down.
            self.before = 0
            self.pager = self.make_pager(None, self.limit)
            self.pager.resume(position)
            return
        # A checkpoint without identities (written before they were kept): from the token past
        # the items of its page; no token (the first page, a walk cut into windows) or tokens
        # that died with the embedded emulator: walked again past the items read.
        token = position.get("next_page_token") if position else None
        read = int(position.get("items_read", 0)) if position else 0
        if token and self.tokens_survive:
            offset = int(position.get("page_offset", 0)) if position else 0
            self.before, skip = read - offset, offset
        else:
            self.before, skip = 0, read
        limit = None if self.limit is None else self.limit - self.before
        self.pager = self.make_pager(token if token and self.tokens_survive else None, limit)
        skipped = 0
        while skipped < skip:  # in steps, so skipping a long walk does not hold it in memory
            got = self.pager.to_polars(limit=min(skip - skipped, _SKIP_STEP)).height
            skipped += got
            if got == 0:
                break
        if skipped != skip:
            raise CliError(
                f"the service now has {skipped} item(s) where the interrupted export had read {skip}",
                "the list changed since: delete the state file to start again",
                EXIT_USAGE,
            )

    def frames(self, chunk_rows: int) -> Iterator[pl.DataFrame | None]:
        while True:
            if self.limit is not None:
                left = self.limit - self.before - self.pager.items_read
                if left <= 0:
                    return
                step = min(chunk_rows, left)
            else:
                step = chunk_rows
            frame = self.pager.to_polars(limit=step)
            self._empty = frame.clear()
            if frame.height == 0:
                return
            yield frame
            if self.pager.exhausted:
                return

    def position(self) -> dict[str, Any]:
        state: dict[str, Any] = self.pager.resume_state
        return {**state, "items_read": self.before + state["items_read"]}

    def empty(self) -> pl.DataFrame:
        return self.pager.to_polars(limit=0) if getattr(self, "_empty", None) is None else self._empty
