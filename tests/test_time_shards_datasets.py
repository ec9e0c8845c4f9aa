"""Datasets of the ranged lists (issue 37, section 1): an address's ERC-20 transfers by block-number
chunk (the emulator's busy address) and the P-Chain's transactions by UTC month, each partition
asked for on its own with shards in flight: the plain walk's rows, each once, in its order when
the partitions are read newest first; a rerun of a complete dataset costs the head check only; a
dataset of another service, network or chunk is refused before any request; ``limit=`` and a
``chunk`` of months are refused; Ctrl-C mid-write, then a rerun, completes it exactly; the CLI
writes one."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from _cli import cli
from _helpers import signal_child

import avax_data as ad

CHAIN = 43114
RANGE = {"start_block": 9_000, "end_block": 9_700}
NET, P = "mainnet", "p-chain"


@pytest.fixture(scope="module")
def world() -> Any:
    with ad.Emulator(seed=3, containers=10) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def busy(world: ad.Emulator) -> str:
    return str(world.world["busy_address"]["address"])


@pytest.fixture(scope="module")
def plain(world: ad.Emulator, busy: str) -> pl.DataFrame:
    with ad.DataClient(world.url) as data:
        return data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100, concurrency=1).to_polars()


def newest_first(out: Path, key: str) -> tuple[list[int], pl.DataFrame]:
    """The hive values of the dataset ``out`` newest first, and its partitions read in that order."""
    parts = sorted(((int(p.parent.name.split("=")[1]), p) for p in out.glob(f"{key}=*/*.parquet")), reverse=True)
    frames = [pl.read_parquet(path, hive_partitioning=False) for _, path in parts]
    return [value for value, _ in parts], pl.concat(frames) if frames else pl.DataFrame()


def manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / "_avax_dataset.json").read_text())


def test_an_erc20_dataset_holds_the_plain_walks_rows_each_once_and_a_rerun_costs_the_head_check(
        world: ad.Emulator, busy: str, plain: pl.DataFrame, tmp_path: Path) -> None:
    out = tmp_path / "erc20"
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        done = data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100, concurrency=4).write_dataset(out, chunk=100)
        first = world.request_count() - before
        assert done == {"partitions_written": 7, "partitions_skipped": 0, "rows_written": plain.height,
                        "rows_skipped": 0}
        values, rows = newest_first(out, "block")
        assert values == [9_600, 9_500, 9_400, 9_300, 9_200, 9_100, 9_000]
        assert rows.equals(plain), "the plain walk's rows, columns and order, each once"
        by_part = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
        assert (by_part["blockNumber"].cast(pl.Int64) // 100 * 100 == by_part["block"]).all(), "each in its chunk"
        recorded = manifest(out)
        top = next(p for p in recorded["partitions"] if p["value"] == 9_600)
        assert not top["complete"] and all(p["complete"] for p in recorded["partitions"] if p["value"] != 9_600)
        assert len(recorded["head"]) == 64, "the newest item's sha256 keeps the newest partition current"
        assert first >= 1 + -(-plain.height // 100), "the head check and every page"

        before = world.request_count()
        plan = data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100).plan(dataset=out, chunk=100)
        assert (plan.requests, plan.requests_kind, plan.held) == (1, "at least", plain.height)
        fresh = data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100).plan(dataset=tmp_path / "none", chunk=100)
        assert (fresh.requests, fresh.requests_kind, fresh.held) == (8, "at least", 0), "the head check, 7 partitions"
        again = data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100).write_dataset(out, chunk=100)
        assert world.request_count() - before == 1, "a complete dataset costs the head check only"
    assert again == {"partitions_written": 0, "partitions_skipped": 7, "rows_written": 0, "rows_skipped": plain.height}
    assert newest_first(out, "block")[1].equals(plain)


def test_a_damaged_partition_is_written_again_alone(
        world: ad.Emulator, busy: str, plain: pl.DataFrame, tmp_path: Path) -> None:
    out = tmp_path / "erc20"
    with ad.DataClient(world.url) as data:
        data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100).write_dataset(out, chunk=100)
        (out / "block=9200" / "part.parquet").write_bytes(b"not parquet")
        before = world.request_count()
        again = data.erc20_transfers(CHAIN, busy, **RANGE, page_size=100).write_dataset(out, chunk=100)
        requests = world.request_count() - before
    rows_9200 = plain.filter(pl.col("blockNumber").cast(pl.Int64).is_between(9_200, 9_299)).height
    assert again["partitions_written"] == 1 and again["rows_written"] == rows_9200, again
    assert requests == 1 + -(-rows_9200 // 100), "the head check and that partition's pages"
    assert newest_first(out, "block")[1].equals(plain)


def test_a_p_chain_dataset_goes_by_month_with_the_plain_walks_rows(tmp_path: Path) -> None:
    out = tmp_path / "p"
    with ad.Emulator(seed=5) as local, ad.DataClient(local.url) as data:
        plain = data.primary_network_transactions(NET, P, page_size=100, concurrency=1).to_polars()
        done = data.primary_network_transactions(NET, P, page_size=100, concurrency=4).write_dataset(out)
        values, rows = newest_first(out, "month")
        before = local.request_count()
        again = data.primary_network_transactions(NET, P, page_size=100).write_dataset(out)
        rerun = local.request_count() - before
    assert plain.height > 1_000
    assert rows.equals(plain), "the plain walk's rows, columns and order, each once"
    assert done["rows_written"] == plain.height and done["partitions_written"] == len(values) > 12
    by_part = pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect()
    assert (by_part["blockTimestamp"].dt.strftime("%Y%m").cast(pl.Int64) == by_part["month"]).all(), "in its month"
    assert values[-1] == 202009, "down to the primary network's genesis"
    assert rerun == 1 and again["partitions_written"] == 0 and again["rows_skipped"] == plain.height


def test_a_dataset_of_another_service_network_or_chunk_is_refused_before_any_request(
        world: ad.Emulator, busy: str, tmp_path: Path) -> None:
    out = tmp_path / "erc20"
    small = {"start_block": 9_600, "end_block": 9_700}
    with ad.DataClient(world.url) as data:
        data.erc20_transfers(CHAIN, busy, **small).write_dataset(out, chunk=100)
        before = world.request_count()
        with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk"):
            data.erc20_transfers(CHAIN, busy, **small).write_dataset(out, chunk=50)
        p_out = tmp_path / "p"
        data.primary_network_transactions(NET, P, start=1_767_000_000, page_size=100).write_dataset(p_out)
        before = world.request_count()
        with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk"):
            data.primary_network_transactions("fuji", P, start=1_767_000_000).write_dataset(p_out)
        with pytest.raises(ad.InvalidParameterError, match="a directory of the same walk"):
            data.primary_network_transactions(NET, P, start=1_767_000_000, tx_types=["AddValidatorTx"]).write_dataset(
                p_out)
        assert world.request_count() == before
    with ad.DataClient("https://data-api.example.invalid", max_retries=0) as elsewhere:
        with pytest.raises(ad.InvalidParameterError, match="a dataset of the same source") as refused:
            elsewhere.erc20_transfers(CHAIN, busy, **small).write_dataset(out, chunk=100)
    assert "data-api.example.invalid" in str(refused.value)


def test_limit_and_a_chunk_of_months_are_refused_naming_them(world: ad.Emulator, busy: str, tmp_path: Path) -> None:
    with ad.DataClient(world.url) as data:
        before = world.request_count()
        with pytest.raises(ad.InvalidParameterError, match=r"invalid limit=10: None: a dataset of a list with a block"):
            data.erc20_transfers(CHAIN, busy, **RANGE, limit=10).write_dataset(tmp_path / "a")
        with pytest.raises(ad.InvalidParameterError, match=r"invalid chunk=5: None: a list with a time window"):
            data.primary_network_transactions(NET, P).write_dataset(tmp_path / "b", chunk=5)
        assert world.request_count() == before


def test_the_cli_writes_a_ranged_dataset(world: ad.Emulator, busy: str, plain: pl.DataFrame, capsys: Any,
                                         tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ("data", "erc20-transfers", str(CHAIN), busy, "--start-block", "9000", "--end-block", "9700",
            "--page-size", "100", "--concurrency", "3", "--base-url", world.url, "--dataset", str(out),
            "--chunk", "100", "--quiet")
    result = cli(capsys, *args)
    assert result.code == 0, result.err
    summary = json.loads(result.out)
    assert summary["rows_written"] == plain.height and summary["partitions_written"] == 7
    assert newest_first(out, "block")[1].equals(plain)
    again = json.loads(cli(capsys, *args).out)
    assert again["partitions_skipped"] == 7 and again["rows_written"] == 0


CHILD = """
import json, os, signal, sys, tempfile
signal.signal(signal.SIGINT, signal.default_int_handler)
import polars as pl
import avax_data as ad
emu = ad.Emulator(seed=3, containers=10, latency=0.03)
busy = emu.world["busy_address"]["address"]
data = ad.DataClient(emu.url)
walk = lambda: data.erc20_transfers(43114, busy, start_block=5_000, end_block=9_900, page_size=100, concurrency=4)
out = tempfile.mkdtemp()
print("ready", flush=True)
try:
    walk().write_dataset(out, chunk=100)
except KeyboardInterrupt:
    print("interrupted", flush=True)
else:
    print("finished", flush=True)
    sys.exit(4)
emu.set_latency(0.0)
manifest = json.load(open(os.path.join(out, "_avax_dataset.json")))
kept = len(manifest["partitions"])
again = walk().write_dataset(out, chunk=100)
plain = data.erc20_transfers(43114, busy, start_block=5_000, end_block=9_900, page_size=100, concurrency=1).to_polars()
parts = sorted(((int(p.split("=")[1]), p) for p in os.listdir(out) if p.startswith("block=")), reverse=True)
rows = pl.concat([pl.read_parquet(os.path.join(out, p, "part.parquet"), hive_partitioning=False) for _, p in parts])
print("report", json.dumps({
    "kept": kept, "again": again, "total": plain.height, "exact": rows.equals(plain),
    "partitions": len(parts), "stray": [f for p in os.listdir(out) for f in
                                        (os.listdir(os.path.join(out, p)) if os.path.isdir(os.path.join(out, p)) else [])
                                        if f != "part.parquet"],
}), flush=True)
sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_mid_write_then_a_rerun_completes_the_dataset_exactly() -> None:
    sent, out, err, returncode = signal_child(textwrap.dedent(CHILD), timeout=300)
    assert returncode == 3, (returncode, out, err[-3000:])
    assert "interrupted" in out
    report = json.loads(next(line for line in out.splitlines() if line.startswith("report ")).split(" ", 1)[1])
    assert 0 < report["kept"] < 49, report
    again = report["again"]
    assert again["partitions_skipped"] == report["kept"], "the published partitions are kept"
    assert again["partitions_written"] + again["partitions_skipped"] == 49 == report["partitions"], report
    assert again["rows_written"] + again["rows_skipped"] == report["total"], "no row lost, none twice"
    assert report["exact"], "the plain walk's rows in its order, each once"
    assert report["stray"] == [], "no temporary file left"
