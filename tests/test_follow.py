"""follow(): new containers as the tip grows, in order, until close()."""

from __future__ import annotations

import asyncio
import threading

import pytest

import avax_data as ad
from _helpers import wait_until

pytestmark = pytest.mark.timeout(120)


def advance_after_polls(emu: ad.Emulator, path: str, steps: list[int]) -> threading.Thread:
    """A thread that, for each n in ``steps``, waits for the follower to poll, then accepts n more."""

    def run() -> None:
        for n in steps:
            seen = emu.request_count()
            wait_until(lambda: emu.request_count() > seen + 1)
            emu.advance(path, n)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_follow_yields_new_containers_in_order() -> None:
    with ad.Emulator(containers=100) as emu, ad.IndexClient(emu.url) as c:
        follow = c.chain("X/tx").follow(poll_interval=0.05, max_poll_interval=0.2)
        thread = advance_after_polls(emu, "X/tx", [3, 4])
        got = [next(follow) for _ in range(7)]
        thread.join(30)
        assert [x["index"] for x in got] == list(range(100, 107))
        assert got == [emu.expected_container("X/tx", i) for i in range(100, 107)]
        assert follow.next_index == 107
        follow.close()
        with pytest.raises(StopIteration):
            next(follow)


def test_follow_from_a_start_index_catches_up_first() -> None:
    with ad.Emulator(containers=50) as emu, ad.IndexClient(emu.url) as c:
        follow = c.chain("C/block").follow(start=40, poll_interval=0.05)
        first = [next(follow)["index"] for _ in range(10)]
        assert first == list(range(40, 50))
        thread = advance_after_polls(emu, "C/block", [2])
        more = [next(follow) for _ in range(2)]
        thread.join(30)
        assert [x["index"] for x in more] == [50, 51]
        assert more[1] == emu.expected_container("C/block", 51)
        follow.close()


def test_follow_with_tip_rate() -> None:
    with ad.Emulator(containers=5, tip_rate=50.0) as emu, ad.IndexClient(emu.url) as c:
        follow = c.chain("P/block").follow(start=0, poll_interval=0.02)
        got = []
        for item in follow:
            got.append(item)
            if len(got) == 40:
                break
        follow.close()
        assert [x["index"] for x in got] == list(range(40))
        assert got[39] == emu.expected_container("P/block", 39)


def test_follow_for_loop_ends_after_close() -> None:
    with ad.Emulator(containers=10) as emu, ad.IndexClient(emu.url) as c:
        follow = c.chain("X/block").follow(start=8, poll_interval=0.05)
        got = []
        for item in follow:
            got.append(item["index"])
            if item["index"] == 9:
                follow.close()
        assert got == [8, 9]


def test_close_from_another_thread_wakes_a_blocked_next() -> None:
    with ad.Emulator(containers=10) as emu, ad.IndexClient(emu.url) as c:
        follow = c.chain("X/tx").follow(poll_interval=0.05)
        outcome: list[object] = []

        def consume() -> None:
            try:
                outcome.append(next(follow))
            except StopIteration:
                outcome.append("stopped")

        worker = threading.Thread(target=consume, daemon=True)
        worker.start()
        before = emu.request_count()
        assert wait_until(lambda: emu.request_count() > before + 1)  # it is polling a tip that does not grow
        follow.close()
        worker.join(20)
        assert not worker.is_alive(), "next() kept blocking after close()"
        assert outcome == ["stopped"]


def test_follow_bad_options(emu: ad.Emulator, client: ad.IndexClient) -> None:
    before = emu.request_count()
    chain = client.chain("X/tx")
    for kwargs, param in (({"start": -1}, "start"), ({"poll_interval": -1.0}, "poll_interval"),
                          ({"max_poll_interval": -2.0}, "max_poll_interval")):
        with pytest.raises(ad.InvalidParameterError) as info:
            next(chain.follow(**kwargs))
        assert param in str(info.value)
    assert emu.request_count() == before


def test_async_follow() -> None:
    async def main(emu: ad.Emulator) -> list[dict]:
        async with ad.AsyncIndexClient(emu.url) as c:
            follow = c.chain("X/tx").follow(poll_interval=0.05)
            thread = advance_after_polls(emu, "X/tx", [2, 3])
            got = []
            async for item in follow:
                got.append(item)
                if len(got) == 5:
                    break
            follow.close()
            with pytest.raises(StopAsyncIteration):
                await follow.__anext__()
            thread.join(30)
            return got

    with ad.Emulator(containers=20) as emu:
        got = asyncio.run(main(emu))
        assert [x["index"] for x in got] == list(range(20, 25))
        assert got == [emu.expected_container("X/tx", i) for i in range(20, 25)]


def test_async_follow_cancelled_by_timeout() -> None:
    async def main(url: str) -> int:
        async with ad.AsyncIndexClient(url) as c:
            follow = c.chain("C/block").follow(poll_interval=0.05)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(follow.__anext__(), 0.5)
            return follow.next_index

    with ad.Emulator(containers=30) as emu:
        assert asyncio.run(main(emu.url)) == 30
