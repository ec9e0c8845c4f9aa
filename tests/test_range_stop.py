"""``range(start, stop)`` as Python means it: the stop is exclusive, ``count=`` is keyword-only,
both are refused together, and a walk that meets the tip before its stop ends there with a
``UserWarning`` naming where it ended (issue 35, section 1)."""

from __future__ import annotations

import asyncio
import inspect
import io
import warnings
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli, one_error_line
from conftest import SIZE

N = SIZE  # the containers of every path in conftest's shared emulator


@pytest.fixture(scope="module")
def xtx(client: ad.IndexClient) -> ad.Chain:
    return client.chain("X/tx")


def tip_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning) and "reached the tip" in str(w.message)]


def test_the_second_positional_is_the_exclusive_stop(xtx: ad.Chain) -> None:
    rng = xtx.range(100, 200)
    assert (rng.start, rng.stop, rng.end, rng.next_index) == (100, 200, 200, 100)
    assert rng.to_polars()["index"].to_list() == list(range(100, 200))
    assert rng.next_index == 200
    assert [c["index"] for c in xtx.range(5, 8)] == [5, 6, 7]


def test_count_is_keyword_only_and_counts_from_start(xtx: ad.Chain) -> None:
    rng = xtx.range(100, count=50)
    assert (rng.stop, rng.end) == (150, 150)
    assert rng.to_polars()["index"].to_list() == list(range(100, 150))
    assert xtx.range(7, count=0).to_polars().height == 0
    assert xtx.range(7, 7).to_polars().height == 0
    with pytest.raises(TypeError):
        xtx.range(0, 10, 5)  # type: ignore[misc]


def test_stop_and_count_together_are_refused_before_any_request(emu: ad.Emulator, xtx: ad.Chain) -> None:
    before = emu.request_count()
    with pytest.raises(ad.InvalidParameterError) as caught:
        xtx.range(10, 20, count=10)
    assert isinstance(caught.value, ValueError)
    assert caught.value.param == "stop/count"
    assert str(caught.value).startswith("invalid stop/count=stop=20, count=10: one of them, not both")
    assert emu.request_count() == before


def test_a_stop_below_the_start_is_refused_with_the_count_spelling(emu: ad.Emulator, xtx: ad.Chain) -> None:
    before = emu.request_count()
    with pytest.raises(ad.InvalidParameterError, match=r"invalid stop=100: an int >= start \(250\).*"
                       r"write range\(250, count=100\)"):
        xtx.range(250, 100)
    for bad, name in (({"stop": -1}, "stop"), ({"count": -1}, "count"), ({"stop": 1.5}, "stop"),
                      ({"count": "3"}, "count")):
        with pytest.raises(ad.InvalidParameterError) as caught:
            xtx.range(0, **bad)
        assert caught.value.param == name
    assert emu.request_count() == before


def test_a_stop_past_the_tip_ends_there_with_a_warning_and_the_end_it_reached(xtx: ad.Chain) -> None:
    rng = xtx.range(N - 10, N + 500)
    assert f"end={N + 500}" in repr(rng) and f"stop={N + 500}" in repr(rng)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = rng.to_polars()
    assert frame["index"].to_list() == list(range(N - 10, N))
    (text,) = tip_warnings(caught)
    assert f"ended at index {N} (next_index={N}; the range asked for up to {N + 500}" in text
    assert caught[0].filename == __file__  # at the caller's line
    assert (rng.stop, rng.end, rng.next_index) == (N + 500, N, N)
    assert f"end={N}" in repr(rng) and f"stop={N + 500}" in repr(rng)
    assert f"<td>{N}</td>" in rng._repr_html_()


@pytest.mark.parametrize("consume", ["iterate", "batches", "items_decoded", "write_parquet", "to_polars_decoded"])
def test_every_consumer_that_ends_at_the_tip_warns_once(xtx: ad.Chain, consume: str) -> None:
    rng = xtx.range(N - 3, N + 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if consume == "iterate":
            got = [c["index"] for c in rng]
        elif consume == "batches":
            got = [i for frame in rng.batches() for i in frame["index"]]
        elif consume == "items_decoded":
            got = [row["index"] for row in rng.items(decode=True)]
        elif consume == "write_parquet":
            buf = io.BytesIO()
            assert rng.write_parquet(buf) == 3
            got = pl.read_parquet(io.BytesIO(buf.getvalue()))["index"].to_list()
        else:
            got = rng.to_polars(decode=True)["index"].to_list()
    assert got == [N - 3, N - 2, N - 1]
    assert len(tip_warnings(caught)) == 1, [str(w.message) for w in caught]
    assert rng.end == N


def test_a_walk_that_breaks_before_the_tip_does_not_warn(xtx: ad.Chain) -> None:
    rng = xtx.range(N - 5, N + 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for c in rng:
            if c["index"] == N - 3:
                break
        assert xtx.range(N - 5, N).to_polars().height == 5  # a stop at the tip exactly is no cut
    assert rng.next_index == N - 2


def test_the_range_walks_on_when_the_chain_grows() -> None:
    with ad.Emulator(seed=2, containers=50) as growing, ad.IndexClient(growing.url) as node:
        rng = node.chain("X/tx").range(40, 100)
        with pytest.warns(UserWarning, match="ended at index 50"):
            assert rng.to_polars()["index"].to_list() == list(range(40, 50))
        growing.advance("X/tx", 20)
        with pytest.warns(UserWarning, match="ended at index 70"):
            assert rng.to_polars()["index"].to_list() == list(range(50, 70))
        assert rng.end == 70
        growing.advance("X/tx", 40)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert rng.to_polars()["index"].to_list() == list(range(70, 100))
        assert (rng.end, rng.next_index) == (100, 100)


def test_async_range_takes_stop_and_count_and_warns_at_the_tip(emu: ad.Emulator) -> None:
    async def main() -> tuple[list[int], list[int], list[str], int | None]:
        async with ad.AsyncIndexClient(emu.url) as node:
            chain = node.chain("X/tx")
            by_stop = (await chain.range(10, 20).to_polars())["index"].to_list()
            by_count = (await chain.range(10, count=5).to_polars())["index"].to_list()
            with pytest.raises(ad.InvalidParameterError):
                chain.range(1, 2, count=1)
            rng = chain.range(N - 2, N + 2)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                seen = [c["index"] async for c in rng]
                again = chain.range(N - 1, N + 9)
                assert (await again.to_polars()).height == 1
            return by_stop, by_count, tip_warnings(caught) + [str(seen)], rng.end

    by_stop, by_count, texts, end = asyncio.run(main())
    assert by_stop == list(range(10, 20)) and by_count == list(range(10, 15))
    assert len(texts) == 3 and texts[-1] == str([N - 2, N - 1]), texts
    assert f"ended at index {N}" in texts[0] and f"up to {N + 9}" in texts[1]
    assert end == N


def test_cli_stop_is_exclusive_and_refused_with_count(capsys, emu: ad.Emulator, tmp_path: Path) -> None:
    out = tmp_path / "s.parquet"
    res = cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--stop", "150", "-o", str(out), "-q")
    assert res.code == 0, res.err
    assert pl.read_parquet(out)["index"].to_list() == list(range(100, 150))
    both = cli(capsys, "index", "range", "--url", emu.url, "--stop", "5", "--count", "5", "-o", str(out))
    assert both.code == 2 and "--count" in both.err and "--stop" in both.err and "not allowed with" in both.err
    below = cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--stop", "50", "-o",
                str(tmp_path / "b.parquet"))
    assert below.code == 2
    line = one_error_line(below.err)
    assert "--stop 50 is below --start 100" in line and "use --stop 150" in line and "--count 50" in line
    past = cli(capsys, "index", "range", "--url", emu.url, "--start", str(N - 10), "--stop", str(N + 100), "-o",
               str(tmp_path / "p.parquet"))
    assert past.code == 2
    assert f"use --stop {N} or lower, or leave --stop out" in one_error_line(past.err)
    assert not (tmp_path / "b.parquet").exists() and not (tmp_path / "p.parquet").exists()


def test_a_dataset_past_the_tip_holds_what_exists_and_a_rerun_completes_it(tmp_path: Path) -> None:
    with ad.Emulator(seed=5, containers=250) as growing, ad.IndexClient(growing.url) as node:
        out = tmp_path / "set"
        rng = node.chain("X/tx").range(0, 400)
        with pytest.warns(UserWarning, match="ended at index 250"):
            summary = rng.write_dataset(out, chunk=100)
        assert summary == {"partitions_written": 3, "partitions_skipped": 0, "rows_written": 250, "rows_skipped": 0}
        assert (rng.next_index, rng.end) == (250, 250)
        growing.advance("X/tx", 200)
        again = node.chain("X/tx").range(0, 400).write_dataset(out, chunk=100)
        assert again == {"partitions_written": 2, "partitions_skipped": 2, "rows_written": 200, "rows_skipped": 200}
        frame = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
        assert sorted(frame["index"].to_list()) == list(range(400))


def test_an_arrow_reader_of_a_range_past_the_tip_warns_at_the_callers_line(xtx: ad.Chain) -> None:
    """The edges3435 case: ``pl.DataFrame(rng)`` reads the range through ``__arrow_c_stream__`` (from
    polars' own code); it ends at the tip with the same warning as every other consumer, shown
    at this file's line, not polars'."""
    rng = xtx.range(N - 4, N + 50)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
        frame = pl.DataFrame(rng)
    assert frame["index"].to_list() == list(range(N - 4, N))
    (text,) = tip_warnings(caught)
    assert f"ended at index {N} (next_index={N}; the range asked for up to {N + 50}" in text
    (warned,) = [w for w in caught if "reached the tip" in str(w.message)]
    assert (warned.filename, warned.lineno) == (__file__, line)
    assert (rng.end, rng.next_index) == (N, N)
    # the Arrow stream of its batches() iterator ends the same way
    rest = xtx.range(N - 6, N + 1, batch_size=2).batches()
    first = next(rest)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tail = pl.DataFrame(rest)
    assert first["index"].to_list() + tail["index"].to_list() == list(range(N - 6, N))
    assert len(tip_warnings(caught)) == 1 and caught[0].filename == __file__


def test_an_arrow_reader_that_ends_at_its_stop_does_not_warn(xtx: ad.Chain) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pl.DataFrame(xtx.range(N - 4, N)).height == 4
        assert pl.DataFrame(xtx.range(0, 10).batches()).height == 10


def test_a_reader_whose_warning_is_made_an_error_ends_with_it(xtx: ad.Chain) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Exception, match="reached the tip before its end"):
            pl.DataFrame(xtx.range(N - 2, N + 2))


def test_the_async_for_tip_warning_names_the_loops_line(emu: ad.Emulator) -> None:
    async def main() -> tuple[list[int], list[warnings.WarningMessage], int]:
        async with ad.AsyncIndexClient(emu.url) as node:
            rng = node.chain("X/tx").range(N - 3, N + 7)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                seen = []
                line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
                async for c in rng:
                    seen.append(c["index"])
            return seen, caught, line

    seen, caught, line = asyncio.run(main())
    assert seen == [N - 3, N - 2, N - 1]
    (warned,) = [w for w in caught if "reached the tip" in str(w.message)]
    assert (warned.filename, warned.lineno) == (__file__, line), (warned.filename, warned.lineno)
