"""``avax-data data <endpoint>`` and ``avax-data metrics ...``, in this process against an emulator."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli, one_error_line

OWNER = "0x6a2474f3e677ce65e495508043237ea93738a031"
PADDR0 = "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"
MAINNET_C = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
KEY = "cli-test-key-0123456789"


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(data_blocks_per_chain=6000) as emulator:  # 6000 blocks: about 5 hours of metrics
        yield emulator


@pytest.fixture(scope="module")
def data(emu: ad.Emulator) -> ad.DataClient:
    with ad.DataClient(base_url=emu.url) as client:
        yield client


@pytest.fixture(scope="module")
def metrics(emu: ad.Emulator) -> ad.MetricsClient:
    with ad.MetricsClient(base_url=emu.url) as client:
        yield client


def js(text: str) -> object:
    return json.loads(text)


def test_single_objects_print_json(capsys, emu, data) -> None:
    url = ["--base-url", emu.url]
    chains = js(cli(capsys, "data", "chains", *url, "--network", "fuji").out)
    assert [c["chainId"] for c in chains] == [c["chainId"] for c in data.chains(network="fuji")]
    assert all(c["isTestnet"] for c in chains)
    assert js(cli(capsys, "data", "chain", "43114", "--url", emu.url).out)["vmName"] == "EVM"
    block = js(cli(capsys, "data", "block", "43114", "5", *url).out)
    expected = data.block("43114", 5)
    assert block["blockNumber"] == 5 and block["blockHash"] == expected["blockHash"]
    assert block["gasCost"] == expected["gasCost"]  # big ints stay JSON integers
    assert block["blockTimestamp"] == expected["blockTimestamp"].isoformat()
    assert js(cli(capsys, "data", "block", "43114", expected["blockHash"], *url).out) == block
    assert js(cli(capsys, "data", "health", *url).out)["status"] == "ok"


LISTS = [
    (["blocks", "43114"], lambda d, **k: d.blocks("43114", **k)),
    (["latest-blocks", "--network", "fuji"], lambda d, **k: d.latest_blocks(network="fuji", **k)),
    (["collectibles", "43114", OWNER], lambda d, **k: d.collectibles("43114", OWNER, **k)),
    (["pending-rewards", "mainnet", "--addresses", PADDR0, "--sort-order", "desc"],
     lambda d, **k: d.pending_rewards("mainnet", addresses=PADDR0, sort_order="desc", **k)),
    (["vertices", "mainnet"], lambda d, **k: d.vertices("mainnet", **k)),
    (["icm-messages", "--source-blockchain-id", MAINNET_C],
     lambda d, **k: d.icm_messages(source_blockchain_id=MAINNET_C, **k)),
]


@pytest.mark.parametrize(("args", "call"), LISTS, ids=[a[0] for a, _ in LISTS])
def test_list_endpoints_export_typed_frames(capsys, emu, data, tmp_path: Path, args, call) -> None:
    out = tmp_path / "list.parquet"
    res = cli(capsys, "data", *args, "--url", emu.url, "--limit", "130", "--page-size", "20", "--chunk-rows", "45",
              "-o", str(out), "-q")
    assert res.code == 0, res.err
    expected = call(data, page_size=20).to_polars(limit=130)
    assert expected.height > 0
    assert pl.read_parquet(out).equals(expected)


def test_list_to_stdout_and_csv_with_nested_columns(capsys, emu, data, tmp_path: Path) -> None:
    res = cli(capsys, "data", "icm-messages", "--url", emu.url, "--limit", "25", "-o", "-", "-q")
    rows = [json.loads(line) for line in res.out.splitlines()]
    expected = data.icm_messages(limit=25).to_polars()
    assert [r["messageId"] for r in rows] == expected["messageId"].to_list()
    assert rows[0]["messageNonce"] == str(expected["messageNonce"][0])  # Decimal(38, 0) as a string of digits
    out = tmp_path / "icm.csv"
    assert cli(capsys, "data", "icm-messages", "--url", emu.url, "--limit", "25", "-o", str(out), "-q").code == 0
    back = pl.read_csv(out, infer_schema=False)
    assert back.columns == expected.columns
    reward = json.loads(back["rewardDetails"][0])
    assert reward["symbol"] == expected["rewardDetails"][0]["symbol"]
    assert reward["value"] == str(expected["rewardDetails"][0]["value"])


def test_data_api_key_from_flag_and_environment(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("AVAX_DATA_API_KEY", raising=False)
    with ad.Emulator(data_blocks_per_chain=50, data_api_require_key=True, data_api_refused_keys=["bad-key-123"]) as e:
        res = cli(capsys, "data", "health", "--url", e.url, "--max-retries", "0")
        assert res.code == 3 and "--api-key" in one_error_line(res.err)
        assert cli(capsys, "data", "chain", "43114", "--url", e.url, "--api-key", KEY).code == 0
        res = cli(capsys, "data", "blocks", "43114", "--url", e.url, "--api-key", "bad-key-123", "--limit", "5",
                  "-o", str(tmp_path / "b.csv"))
        assert res.code == 3 and "refused this API key" in one_error_line(res.err)
        assert "bad-key-123" not in res.err + res.out
        monkeypatch.setenv("AVAX_DATA_API_KEY", KEY)
        assert cli(capsys, "data", "blocks", "43114", "--url", e.url, "--limit", "5", "-o", str(tmp_path / "b.csv"),
                   "-q").code == 0
    assert pl.read_csv(tmp_path / "b.csv").height == 5


def test_bad_data_parameters_exit_2_before_any_file(capsys, emu, tmp_path: Path) -> None:
    for args, param in [(["blocks", "43114", "--page-size", "101"], "page_size"),
                        (["pending-rewards", "mainnet"], "addresses"),
                        (["vertices", "devnet"], "network")]:
        res = cli(capsys, "data", *args, "--url", emu.url, "-o", str(tmp_path / "x.parquet"))
        assert res.code == 2, (args, res.err)
        assert param in one_error_line(res.err) and "--help" in res.err
    assert list(tmp_path.iterdir()) == []


def test_metric_series(capsys, emu, metrics, tmp_path: Path) -> None:
    # The world's last 12 hours (the series reach back to the chain's launch: ~46,000 hourly points).
    expected = metrics.metric("43114", "txCount", interval="hour", page_size=2, limit=12).to_polars()
    assert expected.height == 12
    out = tmp_path / "tx.parquet"
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--url", emu.url, "--interval", "hour",
              "--page-size", "2", "--limit", "12", "-o", str(out), "-q")
    assert res.code == 0, res.err
    assert pl.read_parquet(out).equals(expected)
    first, last = expected["timestamp"].min(), expected["timestamp"].max()
    window = ["--start", first.strftime("%Y-%m-%dT%H:%M:%SZ"), "--end", str(int(last.timestamp()) + 3600)]
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--url", emu.url, "--interval", "hour", *window,
              "--page-size", "1", "--concurrency", "3", "-o", "-", "-q")
    rows = [json.loads(line) for line in res.out.splitlines()]
    assert [r["value"] for r in rows] == expected["value"].to_list()  # sharded walk: the same rows, same order


def test_metric_chains_summary_and_live_check(capsys, emu, metrics, tmp_path: Path) -> None:
    out = tmp_path / "chains.csv"
    assert cli(capsys, "metrics", "chains", "--url", emu.url, "--network", "mainnet", "-o", str(out), "-q").code == 0
    expected = metrics.chains(network="mainnet").to_polars()
    assert pl.read_csv(out, schema=expected.schema).equals(expected)
    single = js(cli(capsys, "metrics", "icm-summary", "--url", emu.url).out)
    assert single == metrics.icm_summary()
    grouped = js(cli(capsys, "metrics", "icm-summary", "--url", emu.url, "--group-by", "srcBlockchainId").out)
    frame = metrics.icm_summary(group_by="srcBlockchainId")
    assert grouped == frame.to_dicts() and len(grouped) > 1
    assert js(cli(capsys, "metrics", "live-check", "--url", emu.url).out)["status"] == "ok"
    res = cli(capsys, "metrics", "series", "43114", "avgTps", "--url", emu.url, "--interval", "hour")
    assert res.code == 2 and "interval" in one_error_line(res.err)


def test_embedded_emulator_serves_every_api(capsys, tmp_path: Path) -> None:
    res = cli(capsys, "data", "blocks", "43114", "--emulator", "--emulator-data-blocks", "40", "-o",
              str(tmp_path / "b.parquet"))
    assert res.code == 0
    assert res.err.startswith("embedded emulator at http://127.0.0.1:")
    assert pl.read_parquet(tmp_path / "b.parquet")["blockNumber"].to_list() == list(range(39, -1, -1))
    res = cli(capsys, "metrics", "chains", "--emulator", "-q", "-o", "-")
    assert res.err == "" and len(res.out.splitlines()) == 8
