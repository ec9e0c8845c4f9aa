"""The footguns a new user steps on (issue 23): one constructor shape, a re-run cell that warns
and restarts, a forgotten ``await``, HTML reprs of clients and the emulator."""

from __future__ import annotations

import asyncio
import gc
import re
import warnings

import pytest

import avax_data as ad


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=300, data_blocks_per_chain=120) as emulator:
        yield emulator


# ---- one constructor shape: the base URL first, everything else by keyword ----

@pytest.mark.parametrize("cls", [ad.DataClient, ad.MetricsClient, ad.IndexClient,
                                 ad.AsyncDataClient, ad.AsyncMetricsClient, ad.AsyncIndexClient])
def test_every_client_takes_the_url_first_and_the_rest_by_keyword(emu: ad.Emulator, cls: type) -> None:
    client = cls(emu.url, max_retries=2)
    shown = client.base_url
    assert shown.rstrip("/") == emu.url.rstrip("/")
    assert client.retry.max_retries == 2
    with pytest.raises(TypeError):
        cls(emu.url, 30.0)  # the timeout is keyword-only


def test_base_url_stays_a_keyword_and_both_shapes_reach_the_emulator(emu: ad.Emulator) -> None:
    with ad.DataClient(emu.url) as positional, ad.DataClient(base_url=emu.url) as keyword:
        assert positional.chain("43114") == keyword.chain("43114")
    with ad.MetricsClient(emu.url) as metrics:
        assert metrics.live_check()["status"] == "ok"


def test_a_key_in_the_url_place_is_refused_unshown_and_a_url_is_never_a_key(emu: ad.Emulator) -> None:
    with pytest.raises(ad.InvalidParameterError) as caught:
        ad.DataClient("sk-live-123456")
    text = str(caught.value)
    assert "base_url" in text and "api_key=" in text and "sk-live-123456" not in text
    with pytest.raises(ad.InvalidParameterError, match="api_key") as caught:
        ad.DataClient(api_key=emu.url)
    assert emu.url not in str(caught.value)
    with pytest.raises(TypeError):
        ad.DataClient(emu.url, "my-key")  # the key is keyword-only
    with ad.DataClient(emu.url, api_key="my-key") as keyed:
        assert keyed.health()["status"] == "ok" and "my-key" not in repr(keyed)


# ---- a re-run cell: a spent walk warns; restart() walks again ----

def _warned(call) -> tuple[object, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    return value, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_a_spent_pager_warns_on_every_consumer_and_restart_gives_the_list_again(emu: ad.Emulator) -> None:
    pager = ad.DataClient(emu.url).blocks("43114", page_size=50)
    first, warned = _warned(pager.to_polars)
    assert first.height == 120 and warned == []
    consumers = [pager.to_polars, lambda: list(pager), lambda: list(pager.pages()),
                 lambda: list(pager.batches()), lambda: pager.write_parquet(__import__("io").BytesIO())]
    for consume in consumers:
        value, warned = _warned(consume)
        assert getattr(value, "height", value) in (0, [])
        assert len(warned) == 1 and "exhausted" in warned[0] and "next_page_token" in warned[0], warned
        assert ".restart()" in warned[0] and "/v1/chains/43114/blocks" in warned[0]
    again, warned = _warned(lambda: pager.restart().to_polars())
    assert warned == [] and again["blockNumber"].to_list() == first["blockNumber"].to_list()
    assert pager.items_read == 120, "the old pager keeps its position"


def test_a_pager_at_its_limit_warns_and_restarts_from_its_page_token(emu: ad.Emulator) -> None:
    data = ad.DataClient(emu.url)
    token_pager = data.blocks("43114", page_size=10)
    token_pager.to_polars(limit=10)
    token = token_pager.next_page_token
    pager = data.blocks("43114", page_size=10, page_token=token, limit=15)
    numbers = pager.to_polars()["blockNumber"].to_list()
    assert numbers == list(range(109, 94, -1))
    empty, warned = _warned(pager.to_polars)
    assert empty.height == 0 and len(warned) == 1 and "limit=15" in warned[0]
    assert pager.restart().to_polars()["blockNumber"].to_list() == numbers
    stopped = data.blocks("43114", limit=20)
    _, warned = _warned(lambda: stopped.to_polars(limit=5))
    _, warned_again = _warned(lambda: stopped.to_polars(limit=5))
    assert warned == warned_again == [], "a walk with items left does not warn"


def test_a_walked_range_warns_and_restart_walks_it_again(emu: ad.Emulator) -> None:
    chain = ad.IndexClient(emu.url).chain("X/tx")
    for rng, end in [(chain.range(100, 150), 150), (chain.range(250), 300)]:
        assert rng.to_polars().height == end - rng.start
        for consume in (rng.to_polars, lambda: list(rng), lambda: list(rng.batches())):
            value, warned = _warned(consume)
            assert len(warned) == 1 and f"next_index={end}" in warned[0] and ".restart()" in warned[0], warned
        again = rng.restart()
        assert (again.start, again.next_index) == (rng.start, rng.start)
        assert again.to_polars()["index"].to_list() == list(range(rng.start, end))
        assert rng.next_index == end


def test_async_pagers_and_ranges_warn_and_restart_too(emu: ad.Emulator) -> None:
    async def main() -> tuple[int, list[str], int, list[str], int]:
        async with ad.AsyncDataClient(emu.url) as data, ad.AsyncIndexClient(emu.url) as node:
            pager = data.vertices("mainnet", limit=30)
            await pager.to_polars()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                empty = await pager.to_polars()
                rng = node.chain("P/block").range(0, 40)
                await rng.to_polars()
                empty_range = await rng.to_polars()
            again = await pager.restart().to_polars()
            again_range = await rng.restart().to_polars()
            # UserWarnings only, as _warned keeps: "always" also records what a garbage collection
            # inside the block happens to report (a ResourceWarning of an earlier test's object).
            texts = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
            return empty.height + empty_range.height, texts, again.height, [], again_range.height
    empties, texts, again, _, again_range = asyncio.run(main())
    assert empties == 0 and (again, again_range) == (30, 40)
    assert len(texts) == 2 and "limit=30" in texts[0] and "next_index=40" in texts[1], texts


def test_a_spent_metric_walk_warns(emu: ad.Emulator) -> None:
    series = ad.MetricsClient(emu.url).metric("43114", "txCount", interval="hour")
    assert series.to_polars().height >= 1
    empty, warned = _warned(series.to_polars)
    assert empty.height == 0 and len(warned) == 1 and "exhausted" in warned[0]
    assert series.restart().to_polars().height >= 1


# ---- a forgotten await ----

def test_an_async_call_outside_an_event_loop_is_a_coroutine_that_names_await_and_the_sync_twin(
        emu: ad.Emulator) -> None:
    data, node = ad.AsyncDataClient(emu.url), ad.AsyncIndexClient(emu.url)
    metrics = ad.AsyncMetricsClient(emu.url)
    cases = [(lambda: data.chain("43114"), "AsyncDataClient.chain(...)", "DataClient"),
             (lambda: metrics.live_check(), "AsyncMetricsClient.live_check(...)", "MetricsClient"),
             (lambda: node.chain("X/tx").last_accepted(), "AsyncChain.last_accepted(...)", "Chain"),
             (lambda: data.blocks("43114").to_polars(), "AsyncPager.to_polars(...)", "Pager"),
             (lambda: node.chain("X/tx").range(0, 5).to_polars(), "AsyncRange.to_polars(...)", "Range")]
    before = emu.request_count()
    for call, named, twin in cases:
        pending = call()
        assert asyncio.iscoroutine(pending)
        with pytest.raises(RuntimeError) as caught:
            pending.done()  # the future of a call that cannot start outside a loop
        text = str(caught.value)
        assert named in text and "must be awaited" in text and f"use {twin} for blocking calls" in text, text
        assert "no running event loop" in text
        with pytest.warns(RuntimeWarning, match=rf"{re.escape(named)} was never awaited: .*use {twin} for blocking"):
            del pending
            gc.collect()
    assert emu.request_count() == before, "a call never awaited sent a request"


def test_a_forgotten_await_shows_what_to_do_and_the_awaitable_still_works(emu: ad.Emulator) -> None:
    async def main() -> tuple[str, str, bool, list[int]]:
        async with ad.AsyncDataClient(emu.url) as data:
            pending = data.chain("43114")
            shown = repr(pending)
            chain = await pending
            done = pending.done()
            blocks = await asyncio.gather(data.block("43114", 5), data.block("43114", 6))
            return shown, chain["chainId"], done, [b["blockNumber"] for b in blocks]
    shown, chain_id, done, numbers = asyncio.run(main())
    assert shown.startswith("<AsyncDataClient.chain(...) awaitable: await it")
    assert "use DataClient for blocking calls" in shown
    assert (chain_id, done, numbers) == ("43114", True, [5, 6])


def test_a_slow_awaitable_is_cancelled_by_wait_for(emu: ad.Emulator) -> None:
    with ad.Emulator(containers=50, latency=2.0) as slow:
        async def main() -> str:
            async with ad.AsyncIndexClient(slow.url) as node:
                try:
                    await asyncio.wait_for(node.chain("X/tx").last_accepted(), 0.2)
                except asyncio.TimeoutError:
                    return "timed out"
                return "answered"
        assert asyncio.run(main()) == "timed out"


# ---- HTML reprs ----

def test_every_client_and_the_emulator_show_an_html_table(emu: ad.Emulator) -> None:
    for cls in (ad.DataClient, ad.MetricsClient, ad.IndexClient,
                ad.AsyncDataClient, ad.AsyncMetricsClient, ad.AsyncIndexClient):
        client = cls(emu.url, max_retries=3, api_key="k-secret") if "Data" in cls.__name__ else cls(emu.url, max_retries=3)
        html = client._repr_html_()
        assert html.startswith("<table>") and f"<b>{cls.__name__}</b>" in html, html
        assert emu.url in html and "max_retries</th><td>3</td>" in html and "closed</th><td>False" in html
        assert "k-secret" not in html
    html = emu._repr_html_()
    assert html.startswith("<table>") and "<b>Emulator</b>" in html and emu.url in html


# ---- the emulator's world: a window outside it says so ----

def test_a_metric_window_outside_the_world_warns_naming_the_worlds_span(emu: ad.Emulator) -> None:
    import datetime as dt

    first, last = emu.world_span
    assert last == dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) and first < last
    metrics = ad.MetricsClient(emu.url)
    for concurrency in (1, 4):
        series = metrics.metric("43114", "txCount", interval="day", start=dt.date(2019, 1, 1),
                                end=dt.date(2019, 4, 1), concurrency=concurrency)
        frame, warned = _warned(series.to_polars)
        assert frame.height == 0 and len(warned) == 1, warned
        assert warned[0].startswith("0 rows: the window 2019-01-01 00:00 .. 2019-04-01 00:00")
        assert "lies outside the emulator's world" in warned[0]
        assert f"{first:%Y-%m-%d %H:%M} .. 2026-01-01 00:00 UTC" in warned[0]
    # The README's window moved inside the world: rows and no warning.
    inside, warned = _warned(lambda: metrics.metric("43114", "txCount", interval="day", start=first.date(),
                                                    end=last).to_polars())
    assert inside.height >= 1 and warned == []
    # A list filter that matches nothing is not about time: no world warning.
    empty, warned = _warned(lambda: ad.DataClient(emu.url).collectibles(
        "43114", "0x000000000000000000000000000000000000dEaD").to_polars())
    assert empty.height == 0 and warned == []


def test_an_async_window_outside_the_world_warns_too(emu: ad.Emulator) -> None:
    async def main() -> tuple[int, list[str]]:
        async with ad.AsyncMetricsClient(emu.url) as metrics:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                frame = await metrics.metric("43114", "txCount", interval="day", start=0, end=86_400).to_polars()
            return frame.height, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    height, texts = asyncio.run(main())
    assert height == 0 and len(texts) == 1 and "1970-01-01 00:00 .. 1970-01-02 00:00" in texts[0], texts


def test_the_emulators_html_shows_its_world(emu: ad.Emulator) -> None:
    html = emu._repr_html_()
    first, _ = emu.world_span
    assert f"world_span</th><td>{first:%Y-%m-%d %H:%M:%S} UTC .. 2026-01-01 00:00:00 UTC" in html, html


# ---- missing directories and unwritable paths: the OS's errors, naming the path given ----

def test_write_parquet_into_a_missing_directory_names_the_path_given(emu: ad.Emulator, tmp_path) -> None:
    target = tmp_path / "nodir" / "x.parquet"
    node, data = ad.IndexClient(emu.url), ad.DataClient(emu.url)
    for write in (lambda: node.chain("X/tx").range(0, 10).write_parquet(target),
                  lambda: data.blocks("43114", limit=5).write_parquet(str(target))):
        with pytest.raises(FileNotFoundError) as caught:
            write()
        assert caught.value.filename == str(target) and caught.value.errno == 2
        assert f"the directory {tmp_path / 'nodir'} does not exist" in str(caught.value)
        assert ".partial" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(__import__("os").name != "posix" or __import__("os").geteuid() == 0,
                    reason="root writes anywhere")
def test_an_unwritable_directory_is_a_permission_error(emu: ad.Emulator, tmp_path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(PermissionError) as caught:
        ad.IndexClient(emu.url).chain("X/tx").range(0, 10).write_parquet(locked / "x.parquet")
    assert caught.value.filename == str(locked / "x.parquet")
    with pytest.raises(PermissionError) as caught:
        ad.IndexClient(emu.url).chain("X/tx").range(0, 10).write_dataset(locked / "ds")
    assert str(locked / "ds") in str(caught.value.filename)


def test_a_dataset_path_that_is_a_file_is_an_os_error_naming_it(emu: ad.Emulator, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError) as caught:
        ad.IndexClient(emu.url).chain("X/tx").range(0, 10).write_dataset(blocker / "ds")
    assert not isinstance(caught.value, ad.InvalidParameterError)
    assert str(blocker / "ds") == caught.value.filename
