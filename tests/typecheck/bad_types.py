"""Type errors a strict check must find (tests/test_stubs.py; never run): every line marked
``# wrong`` is an error under ``mypy --strict``, every other line passes."""

from __future__ import annotations

import polars as pl

import avax_data as ad
from avax_data.types import Container


async def forgot_await(node: ad.AsyncIndexClient) -> None:
    chain = node.chain("X/tx")
    frame: pl.DataFrame = await chain.range(0, 10).to_polars()
    frame = chain.range(0, 10).to_polars()  # wrong
    last: Container = chain.last_accepted()  # wrong
    del frame, last


def awaited_sync(node: ad.IndexClient) -> None:
    rows: list[Container] = node.chain("X/tx").container_range(0, 5)
    count: int = node.chain("X/tx").range(0, 5)  # wrong
    node.chain("X/tx").range(0, 5, 10)  # wrong
    node.chain("X/tx").range(0, stop="5")  # wrong
    del rows, count


def bad_arguments(data: ad.DataClient, emu: ad.Emulator) -> None:
    data.blocks("43114", page_size="100")  # wrong
    data.erc20_balances(43114, "0xabc", filter_spam_tokens="yes")  # wrong
    ad.IndexClient("http://127.0.0.1:9650", 4)  # wrong
    ad.MetricsClient(timeout="30")  # wrong
    ad.DataClient(url="http://127.0.0.1:9650")  # wrong
    ad.MetricsClient(url="http://127.0.0.1:9650")  # wrong
    emu.advance("X/tx", n=2)
    emu.request_log(with_status=True)[0][2]
    emu.request_log()[0][2]  # wrong


def results(metrics: ad.MetricsClient) -> None:
    text: str = metrics.live_check()  # wrong
    pager: ad.Pager = metrics.chains()
    del text, pager
