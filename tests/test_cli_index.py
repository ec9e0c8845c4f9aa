"""``avax-data index range|follow|last|container``, in this process against an emulator."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli, one_error_line

N = 2100
TS = pl.Datetime("ns", "UTC")


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(seed=3, containers=N) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def reference(emu: ad.Emulator) -> pl.DataFrame:
    """X/tx 100..1599 as the library walks it."""
    with ad.IndexClient(emu.url) as client:
        return client.chain("X/tx").range(100, 1600).to_polars()


def test_range_parquet_equals_the_library_walk(capsys, emu, reference, tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    res = cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--count", "1500", "--batch-size", "200",
              "--chunk-rows", "500", "-o", str(out))
    assert res.code == 0, res.err
    assert pl.read_parquet(out).equals(reference)
    assert res.err.strip() == f"wrote 1,500 rows to {out} (parquet) in " + res.err.split(" in ")[-1].strip()
    assert not Path(str(out) + ".avax-state.json").exists() and not Path(str(out) + ".parts").exists()


def test_range_csv_round_trip(capsys, emu, reference, tmp_path: Path) -> None:
    out = tmp_path / "x.csv"
    assert cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--count", "1500", "--chunk-rows", "700",
               "-o", str(out), "-q").code == 0
    back = pl.read_csv(out, infer_schema=False)
    assert back.columns == reference.columns  # one header row, then data
    assert back.height == 1500
    assert back["id"].to_list() == reference["id"].to_list()
    assert back["index"].cast(pl.UInt64).to_list() == reference["index"].to_list()
    assert back["bytes"].to_list() == ["0x" + b.hex() for b in reference["bytes"]]
    assert back["timestamp"].str.to_datetime(time_unit="ns").dt.convert_time_zone("UTC").equals(
        reference["timestamp"])


def test_range_ndjson_file_and_stdout(capsys, emu, reference, tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"  # .jsonl is NDJSON too
    assert cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--count", "1500", "-o", str(out),
               "-q").code == 0
    res = cli(capsys, "index", "range", "--url", emu.url, "--start", "100", "--count", "1500", "-o", "-", "-q")
    assert res.code == 0 and res.err == ""
    assert res.out == out.read_text()
    rows = [json.loads(line) for line in res.out.splitlines()]
    assert [r["index"] for r in rows] == list(range(100, 1600))
    assert rows[7]["bytes"] == "0x" + reference["bytes"][7].hex() and rows[7]["id"] == reference["id"][7]
    stamps = pl.Series([r["timestamp"] for r in rows]).str.to_datetime(time_unit="ns", time_zone="UTC")
    assert stamps.equals(reference["timestamp"], check_names=False)


def test_format_flag_wins_over_the_extension(capsys, emu, tmp_path: Path) -> None:
    out = tmp_path / "data.out"
    assert cli(capsys, "index", "range", "--url", emu.url, "--count", "10", "-o", str(out), "--format", "csv",
               "-q").code == 0
    assert out.read_text().splitlines()[0] == "id,bytes,timestamp,index,encoding"
    res = cli(capsys, "index", "range", "--url", emu.url, "--count", "10", "-o", str(tmp_path / "data.txt"))
    assert res.code == 2 and "--format" in one_error_line(res.err)
    assert not (tmp_path / "data.txt").exists()


def test_decoded_range_in_parquet_and_csv(capsys, emu, tmp_path: Path) -> None:
    with ad.IndexClient(emu.url) as client:
        expected = client.chain("X/tx").range(0, 300, decode=True).to_polars()
    pq, csv = tmp_path / "d.parquet", tmp_path / "d.csv"
    for out in (pq, csv):
        assert cli(capsys, "index", "range", "--url", emu.url, "--count", "300", "--decode", "-o", str(out),
                   "-q").code == 0
    assert pl.read_parquet(pq).equals(expected)
    back = pl.read_csv(csv, infer_schema=False)
    assert back.columns == expected.columns
    # nested columns are JSON text in one cell: a list of {asset_id, amount} (decimals as strings)
    for i in (0, 150, 299):
        consumed = expected["consumed"][i]
        cell = back["consumed"][i]
        if consumed is None:
            assert cell is None
        else:
            want = [{"asset_id": c["asset_id"], "amount": None if c["amount"] is None else str(int(c["amount"]))}
                    for c in consumed.to_list()]
            assert json.loads(cell) == want
    assert back["tx_type"].to_list() == expected["tx_type"].to_list()


def test_default_output_name(capsys, emu, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli(capsys, "index", "range", "--url", emu.url, "--chain", "P/block", "--count", "5", "-q").code == 0
    assert cli(capsys, "index", "range", "--url", emu.url, "--chain", "C/block", "--count", "5", "--format",
               "ndjson", "-q").code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c_block.ndjson", "p_block.parquet"]
    assert pl.read_parquet("p_block.parquet")["index"].to_list() == [0, 1, 2, 3, 4]


def test_range_to_the_tip_by_default(capsys, emu, tmp_path: Path) -> None:
    out = tmp_path / "tip.parquet"
    assert cli(capsys, "index", "range", "--url", emu.url, "--chain", "X/block", "--start", "2000", "-o", str(out),
               "-q").code == 0
    assert pl.read_parquet(out)["index"].to_list() == list(range(2000, N))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--start", str(N)], [f"--start {N} is past the tip of X/tx (last accepted index {N - 1})",
                               f"use --start {N - 1} or lower"]),
        (["--start", "2000", "--count", "200"], ["ends at index 2199, past the tip of X/tx (2099)",
                                                 "use --count 100 or lower"]),
        (["--chain", "X/vtx", "--decode"], ["X/vtx"]),
        (["--batch-size", "2000"], ["batch_size=2000", "[1, 1024]"]),
    ],
)
def test_refused_ranges_exit_2_and_write_nothing(capsys, emu, tmp_path: Path, args, words) -> None:
    out = tmp_path / "r.parquet"
    res = cli(capsys, "index", "range", "--url", emu.url, *args, "-o", str(out))
    assert res.code == 2
    line = one_error_line(res.err)
    for word in words:
        assert word in line
    assert list(tmp_path.iterdir()) == []


def test_empty_range(capsys, emu, tmp_path: Path) -> None:
    pq, csv = tmp_path / "e.parquet", tmp_path / "e.csv"
    for out in (pq, csv):
        assert cli(capsys, "index", "range", "--url", emu.url, "--start", "5", "--count", "0", "-o", str(out),
                   "-q").code == 0
    frame = pl.read_parquet(pq)
    assert frame.height == 0 and frame.columns == ["id", "bytes", "timestamp", "index", "encoding"]
    assert csv.read_text() == "id,bytes,timestamp,index,encoding\n"


def test_follow_from_a_start_for_a_count(capsys, tmp_path: Path) -> None:
    with ad.Emulator(seed=3, containers=100, tip_rate=400) as emu:
        out = tmp_path / "f.parquet"
        res = cli(capsys, "index", "follow", "--url", emu.url, "--chain", "X/tx", "--start", "50", "--count", "400",
                  "--poll-interval", "0.05", "--chunk-rows", "64", "-o", str(out), "-q")
        assert res.code == 0, res.err
        with ad.IndexClient(emu.url) as client:  # containers are a function of their index
            expected = client.chain("X/tx").range(50, 450).to_polars()
    assert pl.read_parquet(out).equals(expected)  # same frames as index range: ns timestamps


def test_follow_after_the_tip_streams_ndjson(capsys, tmp_path: Path) -> None:
    with ad.Emulator(seed=3, containers=100, tip_rate=100) as emu:
        res = cli(capsys, "index", "follow", "--url", emu.url, "--count", "30", "--poll-interval", "0.05", "-o", "-",
                  "-q", "--decode")
        assert res.code == 0, res.err
    rows = [json.loads(line) for line in res.out.splitlines()]
    indexes = [r["index"] for r in rows]
    assert len(rows) == 30 and indexes == list(range(indexes[0], indexes[0] + 30)) and indexes[0] >= 100
    assert all("tx_type" in r for r in rows)


def test_follow_past_the_tip_is_refused(capsys, emu, tmp_path: Path) -> None:
    res = cli(capsys, "index", "follow", "--url", emu.url, "--start", str(N + 1), "-o", str(tmp_path / "f.csv"))
    assert res.code == 2 and f"--start {N + 1} is past the tip" in one_error_line(res.err)


def test_last_and_container_print_json(capsys, emu, tmp_path: Path) -> None:
    res = cli(capsys, "index", "last", "--url", emu.url, "--chain", "C/block")
    assert res.code == 0 and res.err == ""
    last = json.loads(res.out)
    expected = emu.expected_container("C/block", N - 1)
    assert last == {"id": expected["id"], "bytes": "0x" + expected["bytes"].hex(),
                    "timestamp": expected["timestamp"].isoformat(), "index": N - 1, "encoding": "hex"}
    by_index = json.loads(cli(capsys, "index", "container", "--url", emu.url, "--chain", "C/block", "--index",
                              str(N - 1)).out)
    by_id = cli(capsys, "index", "container", "--url", emu.url, "--chain", "C/block", "--id", expected["id"],
                "-o", str(tmp_path / "c.json"))
    assert by_id.code == 0 and by_id.out == ""
    assert by_index == last == json.loads((tmp_path / "c.json").read_text())


def test_decoded_container_json(capsys, emu) -> None:
    res = cli(capsys, "index", "container", "--url", emu.url, "--chain", "C/block", "--index", "7", "--decode")
    assert res.code == 0
    row = json.loads(res.out)
    with ad.IndexClient(emu.url) as client:
        expected = client.chain("C/block").container(7, decode=True)
    assert row["index"] == 7 and row["number"] == expected["number"] and row["hash"] == expected["hash"]
    assert row["decode_error"] is None and row["bytes"] == "0x" + expected["bytes"].hex()
    assert row["base_fee"] == (None if expected["base_fee"] is None else int(expected["base_fee"]))


def test_container_errors(capsys, emu) -> None:
    res = cli(capsys, "index", "container", "--url", emu.url, "--index", str(N + 5))
    assert res.code == 3
    assert "index last" in one_error_line(res.err)  # the remedy names the command showing the tip
    res = cli(capsys, "index", "container", "--url", emu.url)
    assert res.code == 2 and "one of the arguments --index --id is required" in one_error_line(res.err)


def test_headers_and_options_reach_the_node(capsys) -> None:
    from _helpers import StubNode

    with StubNode() as node:
        res = cli(capsys, "index", "last", "--url", node.url, "--header", "X-Trace=abc=1", "--header",
                  "Authorization: Bearer s3cr3t", "--timeout", "5", "--max-retries", "0")
        assert res.code == 0, res.err
        path, headers, envelope = node.requests[-1]
    assert path == "/ext/index/X/tx" and envelope["method"] == "index.getLastAccepted"
    assert headers["x-trace"] == "abc=1" and headers["authorization"] == "Bearer s3cr3t"
    assert "s3cr3t" not in res.out + res.err
