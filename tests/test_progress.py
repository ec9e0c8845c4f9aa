"""``progress=`` on every consumer: a bar advanced by exactly the rows handed out, whose total is
known when the walk's end is (at once for a range with an end or a limited pager, once the tip
is read for a walk to the tip); a bar made here (``progress=True``, tqdm) is closed at the end, a
bar of the caller's is left open."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

import avax_data as ad


class Bar:
    """A caller's bar: records updates and totals."""

    def __init__(self) -> None:
        self.updates: list[int] = []
        self.total: int | None = None
        self.closed = False

    def update(self, n: int) -> None:
        self.updates.append(n)

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=2_500, data_blocks_per_chain=250) as e:
        yield e


def test_a_range_consumer_counts_its_rows_and_knows_its_total(emu: ad.Emulator, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url) as node:
        bar = Bar()
        assert node.chain("X/tx").range(100, 2_100, batch_size=500).to_polars(progress=bar).height == 2_000
        assert sum(bar.updates) == 2_000 and bar.updates == [500] * 4 and bar.total == 2_000 and not bar.closed
        bar = Bar()
        rows = node.chain("X/tx").range(0, 300).write_parquet(tmp_path / "x.parquet", progress=bar)
        assert sum(bar.updates) == rows == 300
        bar = Bar()
        items = list(node.chain("X/tx").range(0, 50).items(progress=bar))
        assert len(items) == 50 and bar.updates == [1] * 50 and bar.total == 50
        bar = Bar()
        frames = list(node.chain("X/tx").range(0, 1_500, batch_size=1_000).batches(progress=bar))
        assert [f.height for f in frames] == bar.updates == [1_000, 500]


def test_a_walk_to_the_tip_learns_its_end_and_total_from_the_tip(emu: ad.Emulator) -> None:
    with ad.IndexClient(emu.url) as node:
        tip = node.chain("P/block").last_accepted()["index"]
        rng = node.chain("P/block").range(1_000)
        assert rng.end is None
        bar = Bar()
        rows = rng.to_polars(progress=bar).height
        assert rng.end == tip + 1 and rows == tip + 1 - 1_000
        assert bar.total == rows and sum(bar.updates) == rows
        assert "end=" + str(tip + 1) in repr(rng)


def test_a_resumed_consumer_counts_only_what_is_left(emu: ad.Emulator) -> None:
    with ad.IndexClient(emu.url) as node:
        rng = node.chain("X/tx").range(0, 1_000)
        for c in rng:
            if c["index"] == 399:
                break
        bar = Bar()
        assert rng.to_polars(progress=bar).height == 600 and bar.total == 600 and sum(bar.updates) == 600


def test_pager_consumers_count_items_and_a_limit_is_their_total(emu: ad.Emulator) -> None:
    with ad.DataClient(base_url=emu.url) as data:
        bar = Bar()
        assert data.blocks("43114", page_size=100).to_polars(limit=130, progress=bar).height == 130
        assert bar.total == 130 and sum(bar.updates) == 130
        bar = Bar()
        pages = list(data.blocks("43114", page_size=100, limit=220).pages(progress=bar))
        assert bar.updates == [len(p) for p in pages] == [100, 100, 20] and bar.total == 220
        bar = Bar()
        assert sum(1 for _ in data.blocks("43114").items(progress=bar)) == 250 == sum(bar.updates)
        assert bar.total is None  # no limit: the total is not known in advance


def test_async_iteration_counts_too(emu: ad.Emulator) -> None:
    bar = Bar()

    async def main() -> int:
        async with ad.AsyncIndexClient(emu.url) as node:
            return len([c async for c in node.chain("X/tx").range(0, 700).items(progress=bar)])

    assert asyncio.run(main()) == 700 == sum(bar.updates)


def test_progress_true_draws_a_tqdm_bar_and_closes_it(emu: ad.Emulator, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    with ad.IndexClient(emu.url) as node:
        node.chain("X/tx").range(0, 2_000).to_polars(progress=True)
    err = capsys.readouterr().err
    assert "X/tx" in err and "2.00k/2.00k" in err and "100%" in err


def test_a_bad_progress_value_is_refused_before_any_request(emu: ad.Emulator) -> None:
    before = emu.request_count()
    with ad.IndexClient(emu.url) as node, pytest.raises(ad.InvalidParameterError) as info:
        node.chain("X/tx").range(0, 10).to_polars(progress="yes")
    assert info.value.param == "progress" and emu.request_count() == before


def test_without_tqdm_progress_true_says_what_to_install(emu: ad.Emulator) -> None:
    script = f"""
import sys
sys.modules["tqdm"] = None
sys.modules["tqdm.auto"] = None
import avax_data as ad
try:
    ad.IndexClient({emu.url!r}).chain("X/tx").range(0, 3).to_polars(progress=True)
except ImportError as exc:
    print("ImportError:", exc)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "ImportError: progress=True needs tqdm (pip install tqdm)" in out.stdout, out.stdout + out.stderr


def test_follow_counts_what_it_hands_out(emu: ad.Emulator) -> None:
    bar = Bar()
    with ad.IndexClient(emu.url) as node:
        follow = node.chain("X/block").follow(start=0, poll_interval=0.05, progress=bar)
        got = [next(follow)["index"] for _ in range(25)]
        follow.close()
    assert got == list(range(25)) and sum(bar.updates) == 25
