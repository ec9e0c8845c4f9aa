"""``MetricsClient.metric()`` and ``icm_summary()`` ride on the operation table like every
generated method: the chain ids the Metrics document allows for the operation (``total``,
``mainnet``, ``testnet``) work against the emulator, and bad values raise word for word the
``InvalidParameterError`` of the generated methods that share the parameters
(``rolling_window_metric``, ``icm_timeseries``), before any request."""

from __future__ import annotations

import polars as pl
import pytest

import avax_data as ad

AGGREGATE_ALLOWED = (
    'an EVM chain id (decimal, e.g. "43114") or a CB58 blockchain id, or one of total, mainnet, testnet'
)


@pytest.fixture(scope="module")
def metrics() -> ad.MetricsClient:
    with ad.Emulator(seed=0, data_blocks_per_chain=2_000) as emu:
        with ad.MetricsClient(base_url=emu.url) as client:
            yield client


def _message(call, *args, **kwargs) -> str:
    with pytest.raises(ad.InvalidParameterError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_total_is_mainnet_plus_testnet_hour_by_hour(metrics: ad.MetricsClient) -> None:
    series = {
        chain: metrics.metric(chain, "txCount", interval="hour", start=0).to_polars()
        for chain in ("total", "mainnet", "testnet", "43114")
    }
    total = series["total"]
    assert total.height >= 2
    assert total.schema == pl.Schema({"timestamp": pl.Datetime("ns", "UTC"), "value": pl.Float64, "extra": pl.String})
    assert total["extra"].null_count() == total.height  # the emulator's points name every field
    parts = series["mainnet"].join(series["testnet"], on="timestamp", how="full", coalesce=True, suffix="_testnet")
    summed = parts.select("timestamp", (pl.col("value").fill_null(0) + pl.col("value_testnet").fill_null(0)).alias("sum"))
    both = total.join(summed, on="timestamp", how="full", coalesce=True)
    assert both.height == total.height
    assert both["value"].to_list() == both["sum"].to_list()
    # One mainnet chain is a part of the total, never more than it.
    one = total.join(series["43114"], on="timestamp", suffix="_chain")
    assert one.height > 0 and (one["value"] >= one["value_chain"]).all()


@pytest.mark.parametrize("word", ["total", "mainnet", "testnet"])
def test_every_aggregate_the_document_names_is_sent_as_written(metrics: ad.MetricsClient, word: str) -> None:
    pager = metrics.metric(f" {word} ", "gasUsed", interval="month", limit=3)
    frame = pager.to_polars()
    assert 0 < frame.height <= 3
    assert frame["timestamp"].is_sorted(descending=True)
    # The generated method of the same document takes the same words.
    assert isinstance(metrics.rolling_window_metric(word, "txCount"), dict)


@pytest.mark.parametrize("chain", ["Total", "all", "../total", "c-chain"])
def test_a_bad_chain_raises_the_message_of_the_generated_methods(metrics: ad.MetricsClient, chain: str) -> None:
    hand = _message(metrics.metric, chain, "txCount")
    assert hand == f"invalid chain_id={chain!r}: {AGGREGATE_ALLOWED}".replace("'", '"')
    assert hand == _message(metrics.rolling_window_metric, chain, "txCount")


def test_a_bad_metric_raises_the_message_of_the_operation_table(metrics: ad.MetricsClient) -> None:
    # The document's `ChainMetric` enum in its order (the rolling-window operation has its own).
    names = (
        "activeAddresses, activeSenders, cumulativeTxCount, cumulativeAddresses, cumulativeContracts, "
        "cumulativeDeployers, contracts, deployers, gasUsed, txCount, avgGps, maxGps, avgTps, maxTps, "
        "avgGasPrice, maxGasPrice, feesPaid"
    )
    assert _message(metrics.metric, "total", "txcount") == \
        f"invalid metric=\"txcount\": one of {names} (did you mean 'txCount'?)"
    assert _message(metrics.metric, "total", "bogus") == f'invalid metric="bogus": one of {names}'


def test_icm_summary_checks_like_the_generated_timeseries(metrics: ad.MetricsClient) -> None:
    hand = _message(metrics.icm_summary, network="devnet")
    assert hand == 'invalid network="devnet": one of mainnet, fuji, testnet'
    assert hand == _message(metrics.icm_timeseries, network="devnet")
    assert _message(metrics.icm_summary, group_by="both") == (
        'invalid group_by="both": one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId'
    )
    # What the hand-written check keeps: the spaces of a pair; the answer is a frame of the groups.
    grouped = metrics.icm_summary(group_by="srcBlockchainId , destBlockchainId", network="mainnet")
    assert isinstance(grouped, pl.DataFrame) and grouped.height > 0
    assert {"srcBlockchainId", "destBlockchainId"} <= set(grouped.columns)
