"""Property tests of lossless walks (issue 9): random fault schedules of the emulator, random
consumers and resume points, over Index ranges (concurrency 1 and 8), the Data API pager
(prefetching) and the Metrics API pager (sequential and sharded), sync and async.

Each example draws the faults (kinds the walks survive by retrying: 5xx, 429, resets, cut and
truncated bodies, short batches, lagging tips, redirects, slow bodies; and kinds they raise a
typed error for: malformed JSON, bad checksums, repeated tokens, JSON-RPC errors, cross-origin
redirects), a seed, the surface, and a list of consumers taking turns (iteration or
``batches()``/``pages()`` that break after k items or frames, ``to_polars()``,
``write_parquet()`` to numbered files). Every typed error is resumed from the position it leaves
(``exc.next_index`` for ranges, the pager itself for pagers). What the consumers received,
concatenated (Parquet files read back), must equal the fault-free walk exactly: order, no gap,
no duplicate.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import avax_data as ad
from avax_data import Emulator

X_TX = 1500
#: Blocks per EVM chain: chain 11111 (6 s blocks) then has 300 hourly metric points.
BLOCKS = 180_000
#: The metric walks' window: the world's last 300 hours (its series reach back to the chain's
#: launch, 2,000 days of hours), up to its now.
METRIC_START, METRIC_END = 1_767_225_600 - 300 * 3_600, 1_767_225_600
METRIC_CHAIN = "11111"

RETRIED = ["500", "502", "503", "429", "reset", "cut", "truncated_json", "redirect_same_origin", "slow_body"]
RAISED = ["malformed_json", "redirect_cross_origin"]
INDEX_KINDS = RETRIED + RAISED + ["short_batch", "bad_checksum", "rpc_error"]
REST_KINDS = RETRIED + RAISED + ["repeated_token"]
OPTIONS = {"retry_after": 0, "slow_body_pause": 0.001}

Key = tuple[Any, ...]

#: Reproducible in CI (derandomized); failing examples are reported as drawn, not shrunk (a
#: shrink of walks this size takes minutes).
SETTINGS = settings(deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def emu() -> Emulator:
    """One emulator for the module; each example sets its own faults."""
    with Emulator(containers={"X/tx": X_TX}, data_blocks_per_chain=BLOCKS) as emulator:
        with ad.MetricsClient(base_url=emulator.url) as m:  # builds the hourly buckets once
            m.metric(METRIC_CHAIN, "txCount", interval="hour", start=METRIC_START, end=METRIC_END,
                     concurrency=1).to_polars()
        yield emulator


def client_options(max_retries: int) -> dict[str, Any]:
    return {"max_retries": max_retries, "backoff": 0.001, "max_backoff": 0.005, "retry_budget": 5.0}


# ---- what a consumer received, as comparable keys ----

def range_row(row: dict) -> Key:
    return row["index"], row["id"]


def range_frame(df: pl.DataFrame) -> list[Key]:
    return list(zip(df["index"].to_list(), df["id"].to_list()))


def block_row(row: dict) -> Key:
    return row["blockNumber"], row["blockHash"]


def block_frame(df: pl.DataFrame) -> list[Key]:
    return list(zip(df["blockNumber"].to_list(), df["blockHash"].to_list()))


def metric_row(row: dict) -> Key:
    return row["timestamp"], row["value"]


def metric_frame(df: pl.DataFrame) -> list[Key]:
    return list(zip(df["timestamp"].to_list(), df["value"].to_list()))


# ---- consumers ----

consumer = st.one_of(
    st.tuples(st.just("iter"), st.integers(40, 700)),
    st.tuples(st.just("chunks"), st.integers(1, 4)),
    st.tuples(st.just("polars"), st.just(0)),
    st.tuples(st.just("parquet"), st.just(0)),
)

#: What every property draws alike: the surface, the fault seed, the retries and the consumers.
WALK = {
    "surface": st.sampled_from(["sync", "async"]),
    "seed": st.integers(0, 2**32),
    "max_retries": st.integers(0, 3),
    "consumers": st.lists(consumer, min_size=1, max_size=4),
}


def fault_plan(kinds: list[str]) -> st.SearchStrategy[dict[str, float]]:
    """Up to six kinds: retried ones at 2-15% per request, raised ones at 1-5%."""
    def rate(kind: str) -> st.SearchStrategy[float]:
        return st.floats(0.02, 0.15) if kind in RETRIED + ["short_batch"] else st.floats(0.01, 0.05)

    picked = st.lists(st.sampled_from(kinds), min_size=1, max_size=6, unique=True)
    return picked.flatmap(lambda ks: st.fixed_dictionaries({k: rate(k) for k in ks}))


def featured(plan: dict[str, float], kinds: list[str], n: int) -> dict[str, float]:
    """``plan`` with the ``n``-th kind (in turn) added if missing, so that every kind is met."""
    kind = kinds[n % len(kinds)]
    return plan if kind in plan else {**plan, kind: 0.03}


class Walker:
    """Runs consumers in turn over one walk (``Range`` or ``Pager``) until it is done, resuming
    after every typed error; checks the position after each turn."""

    def __init__(self, walk: Any, row: Callable[[dict], Key], frame: Callable[[pl.DataFrame], list[Key]],
                 start: int, files: Path, is_range: bool) -> None:
        self.walk, self.row, self.frame, self.start, self.files = walk, row, frame, start, files
        self.is_range = is_range
        self.got: list[Key] = []
        self.errors: list[BaseException] = []
        self.parquet = 0
        self.seen = 0
        self.stalled = 0

    def check_progress(self) -> None:
        """Fails a walk that stops moving (a fault it never gets past)."""
        if len(self.got) > self.seen:
            self.seen, self.stalled = len(self.got), 0
        self.stalled += 1
        assert self.stalled < 100, f"no progress in 100 turns: {len(self.got)} rows, last error {self.errors[-1:]}"

    def position_ok(self, exc: BaseException | None) -> None:
        if self.is_range:
            assert self.walk.next_index == self.start + len(self.got), (self.walk.next_index, len(self.got))
            if exc is not None:
                assert exc.next_index == self.walk.next_index, (exc.next_index, self.walk.next_index)
        else:
            assert self.walk.items_read == len(self.got), (self.walk.items_read, len(self.got), exc)

    def next_file(self) -> Path:
        self.parquet += 1
        return self.files / f"part{self.parquet}.parquet"

    def read_back(self, path: Path) -> None:
        if path.exists():
            self.got.extend(self.frame(pl.read_parquet(path)))

    def consumer(self, turn: int, consumers: list[tuple[str, int]]) -> tuple[str, int]:
        """The consumer of this turn (after checking the walk still moves)."""
        self.check_progress()
        if self.stalled > 10:
            # All-or-nothing consumers over many requests may never see a fault-free
            # stretch: take the walk on item by item for a turn.
            return "iter", 100
        return consumers[turn % len(consumers)]

    def end_turn(self, path: Path | None, exc: ad.AvaxDataError | None) -> None:
        """Keeps what a turn wrote and checks the walk's position after it."""
        if exc is not None:
            self.errors.append(exc)
        if path is not None:
            self.read_back(path)
        self.position_ok(exc)

    def run(self, consumers: list[tuple[str, int]]) -> list[Key]:
        """Walks a sync walk: the turns of :meth:`run_async`, whose awaits never suspend here."""
        turns = self.turns(consumers, sync=True)
        try:
            turns.send(None)
        except StopIteration as finished:
            return finished.value  # type: ignore[no-any-return]
        raise AssertionError("a sync walk suspended")

    async def run_async(self, consumers: list[tuple[str, int]]) -> list[Key]:
        """Walks an async walk."""
        return await self.turns(consumers, sync=False)

    async def turns(self, consumers: list[tuple[str, int]], *, sync: bool) -> list[Key]:
        """Hands the walk to one consumer a turn until one of them reaches its end."""
        for turn in itertools.count():
            kind, k = self.consumer(turn, consumers)
            path = self.next_file() if kind not in ("iter", "chunks", "polars") else None
            try:
                done = await self.consume(kind, k, path, sync)
            except ad.AvaxDataError as exc:
                self.end_turn(path, exc)
                continue
            self.end_turn(path, None)
            if done:
                return self.got
        raise AssertionError("unreachable")

    async def consume(self, kind: str, k: int, path: Path | None, sync: bool) -> bool:
        """One turn of a consumer; whether it reached the end of the walk (``iter``/``chunks``
        stop after ``k`` rows/chunks)."""
        if kind in ("iter", "chunks"):
            if kind == "iter":
                source: Any = self.walk
                keep: Callable[[Any], None] = lambda row: self.got.append(self.row(row))
            else:
                source = self.walk.batches() if self.is_range else self.walk.pages()
                keep = lambda chunk: self.got.extend(self.frame(chunk) if self.is_range else map(self.row, chunk))
            items = iter(source) if sync else aiter(source)
            for _ in range(k):
                try:
                    item = next(items) if sync else await anext(items)
                except (StopIteration, StopAsyncIteration):
                    return True
                keep(item)
            return False
        if kind == "polars":
            frame = self.walk.to_polars()
            self.got.extend(self.frame(frame if sync else await frame))
            return True
        written = self.walk.write_parquet(path)
        if not sync:
            await written
        return True


class Faults:
    """Sets an example's faults and collects what was injected over a whole property."""

    def __init__(self, emu: Emulator, files: pytest.TempPathFactory) -> None:
        self.emu, self.files = emu, files
        self.injected: Counter[str] = Counter()
        self.examples = itertools.count()

    def example(self, name: str, plan: dict[str, float], kinds: list[str]) -> tuple[Path, dict[str, float]]:
        """The next example's own directory and its plan (featuring one of ``kinds`` in turn)."""
        n = next(self.examples)
        return self.files.mktemp(f"{name}{n}"), featured(plan, kinds, n)

    def run(self, faults: dict[str, float], seed: int, options: dict[str, Any], walk: Callable[[], Any]) -> Any:
        before = Counter(self.emu.fault_counts())
        self.emu.set_faults(faults, fault_seed=seed, fault_options={**OPTIONS, **options})
        try:
            return walk()
        finally:
            self.emu.set_faults(None)
            self.injected.update(Counter(self.emu.fault_counts()) - before)


@pytest.fixture
def faults(emu: Emulator, tmp_path_factory: pytest.TempPathFactory) -> Faults:
    """A property's faults and example files."""
    return Faults(emu, tmp_path_factory)


_truths: dict[Key, list[Key]] = {}


def truth(key: Key, walk: Callable[[], list[Key]]) -> list[Key]:
    """The fault-free walk (faults are off outside :meth:`Faults.run`), computed once per key."""
    if key not in _truths:
        _truths[key] = walk()
    return _truths[key]


# ---- Index ranges ----

def test_index_range_walks_equal_the_fault_free_walk(emu: Emulator, faults: Faults) -> None:

    @settings(SETTINGS, max_examples=90)
    @given(
        **WALK,
        concurrency=st.sampled_from([1, 8]),
        start=st.integers(0, 400),
        count=st.one_of(st.none(), st.integers(300, 1100)),
        batch_size=st.sampled_from([16, 50, 128, 1024]),
        plan=fault_plan(INDEX_KINDS),
        lag=st.one_of(st.none(), st.integers(1, 600)),
    )
    def prop(surface: str, concurrency: int, start: int, count: int | None, batch_size: int, plan: dict[str, float],
             lag: int | None, seed: int, max_retries: int, consumers: list[tuple[str, int]]) -> None:
        # A lagging node only in walks to the tip: there the first tip read says what exists.
        # With a count, a "past the tip" answer and then a tip read from the same lagging node
        # would be indistinguishable from the end of the index.
        if lag is not None and count is None:
            plan = {**plan, "lagging_tip": 0.08}
        files, plan = faults.example("range", plan, INDEX_KINDS)
        expected = truth(("range", start, count), lambda: index_keys(emu.url, start, count))

        def walk() -> tuple[list[Key], int]:
            if surface == "sync":
                with ad.IndexClient(emu.url, concurrency=concurrency, **client_options(max_retries)) as node:
                    rng = node.chain("X/tx").range(start, count=count, batch_size=batch_size)
                    got = Walker(rng, range_row, range_frame, start, files, True).run(consumers)
                    return got, rng.next_index

            async def main() -> tuple[list[Key], int]:
                async with ad.AsyncIndexClient(emu.url, concurrency=concurrency, **client_options(max_retries)) as node:
                    rng = node.chain("X/tx").range(start, count=count, batch_size=batch_size)
                    got = await Walker(rng, range_row, range_frame, start, files, True).run_async(consumers)
                    return got, rng.next_index

            return asyncio.run(main())

        got, end = faults.run(plan, seed, {"lag": lag or 10}, walk)
        if count is None:
            # To the tip read by the first walk: the true tip, or a lagging node's older one.
            assert end in {X_TX, max(start, X_TX - (lag or 10))}, end
            expected = expected[: max(0, end - start)]
        assert got == expected, (len(got), len(expected), got[:1], got[-1:], expected[-1:])

    prop()
    assert set(faults.injected) >= set(INDEX_KINDS) | {"lagging_tip"}, faults.injected


def index_keys(url: str, start: int, count: int | None) -> list[Key]:
    with ad.IndexClient(url) as node:
        return range_frame(node.chain("X/tx").range(start, count=count).to_polars())


# ---- Data API pager ----

def test_data_pager_walks_equal_the_fault_free_walk(emu: Emulator, faults: Faults) -> None:

    @settings(SETTINGS, max_examples=60)
    @given(
        **WALK,
        page_size=st.integers(7, 100),
        limit=st.integers(300, 1200),
        plan=fault_plan(REST_KINDS),
    )
    def prop(surface: str, page_size: int, limit: int, plan: dict[str, float], seed: int, max_retries: int,
             consumers: list[tuple[str, int]]) -> None:
        files, plan = faults.example("data", plan, REST_KINDS)
        expected = truth(("data", page_size, limit), lambda: data_keys(emu.url, page_size, limit))

        def walk() -> list[Key]:
            if surface == "sync":
                with ad.DataClient(base_url=emu.url, **client_options(max_retries)) as data:
                    pager = data.blocks("43114", page_size=page_size, limit=limit)
                    return Walker(pager, block_row, block_frame, 0, files, False).run(consumers)

            async def main() -> list[Key]:
                async with ad.AsyncDataClient(base_url=emu.url, **client_options(max_retries)) as data:
                    pager = data.blocks("43114", page_size=page_size, limit=limit)
                    return await Walker(pager, block_row, block_frame, 0, files, False).run_async(consumers)

            return asyncio.run(main())

        got = faults.run(plan, seed, {}, walk)
        assert got == expected, (len(got), len(expected), got[:1], got[-1:], expected[-1:])

    prop()
    assert set(faults.injected) >= set(REST_KINDS), faults.injected


def data_keys(url: str, page_size: int, limit: int) -> list[Key]:
    with ad.DataClient(base_url=url) as data:
        return block_frame(data.blocks("43114", page_size=page_size, limit=limit).to_polars())


# ---- Metrics API pager ----

def test_metrics_pager_walks_equal_the_fault_free_walk(emu: Emulator, faults: Faults) -> None:

    @settings(SETTINGS, max_examples=60)
    @given(
        **WALK,
        concurrency=st.sampled_from([1, 4]),
        page_size=st.integers(5, 80),
        plan=fault_plan(REST_KINDS),
    )
    def prop(surface: str, concurrency: int, page_size: int, plan: dict[str, float], seed: int, max_retries: int,
             consumers: list[tuple[str, int]]) -> None:
        if concurrency > 1:
            # A sharded walk is fetched whole: a failure anywhere refetches every shard, so
            # without retries it may never complete under these rates.
            max_retries = max(max_retries, 2)
        files, plan = faults.example("metrics", plan, REST_KINDS)
        expected = truth(("metrics", page_size), lambda: metric_keys(emu.url, page_size))
        query = {"interval": "hour", "start": METRIC_START, "end": METRIC_END, "page_size": page_size,
                 "concurrency": concurrency}

        def walk() -> list[Key]:
            if surface == "sync":
                with ad.MetricsClient(base_url=emu.url, **client_options(max_retries)) as m:
                    pager = m.metric(METRIC_CHAIN, "txCount", **query)
                    return Walker(pager, metric_row, metric_frame, 0, files, False).run(consumers)

            async def main() -> list[Key]:
                async with ad.AsyncMetricsClient(base_url=emu.url, **client_options(max_retries)) as m:
                    pager = m.metric(METRIC_CHAIN, "txCount", **query)
                    return await Walker(pager, metric_row, metric_frame, 0, files, False).run_async(consumers)

            return asyncio.run(main())

        got = faults.run(plan, seed, {}, walk)
        assert len(expected) == 300
        assert got == expected, (len(got), len(expected), got[:1], got[-1:], expected[-1:])

    prop()
    assert set(faults.injected) >= set(REST_KINDS), faults.injected


def metric_keys(url: str, page_size: int) -> list[Key]:
    with ad.MetricsClient(base_url=url) as m:
        pager = m.metric(METRIC_CHAIN, "txCount", interval="hour", start=METRIC_START, end=METRIC_END,
                         page_size=page_size, concurrency=1)
        return metric_frame(pager.to_polars())
