"""The pieces of the command line on their own: formats, argument types, JSON, local errors."""

from __future__ import annotations

import argparse
import datetime as dt
import decimal
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from _cli import cli, one_error_line
from avax_data.cli import argtypes
from avax_data.cli.errors import CliError
from avax_data.cli.formats import for_csv, for_ndjson, resolve_format
from avax_data.cli.jsonout import jsonable


@pytest.mark.parametrize(("out", "flag", "fmt"), [
    ("a.parquet", None, "parquet"), ("a.PQ", None, "parquet"), ("a.csv", None, "csv"), ("a.ndjson", None, "ndjson"),
    ("a.jsonl", None, "ndjson"), ("a.csv", "parquet", "parquet"), ("a.bin", "csv", "csv"), ("-", None, "ndjson"),
    ("-", "ndjson", "ndjson"),
])
def test_format_resolution(out: str, flag: str | None, fmt: str) -> None:
    assert resolve_format(out, flag) == fmt


def test_format_refusals() -> None:
    with pytest.raises(CliError, match="cannot tell the format of 'a.json'"):
        resolve_format("a.json", None)
    with pytest.raises(CliError, match="NDJSON to stdout, not csv"):
        resolve_format("-", "csv")


NESTED = pl.DataFrame(
    {
        "raw": [b"\x00\xff", None],
        "list": [[b"\x01", None], None],
        "struct": [{"x": b"\xab", "n": 1, "when": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)}, None],
        "amount": pl.Series([decimal.Decimal(10**30), None], dtype=pl.Decimal(38, 0)),
        "names": [["a", "b"], []],
    }
)


def test_binary_becomes_hex_at_any_depth_for_ndjson() -> None:
    rows = for_ndjson(NESTED).to_dicts()
    assert rows[0]["raw"] == "0x00ff" and rows[0]["list"] == ["0x01", None] and rows[0]["struct"]["x"] == "0xab"
    assert rows[1] == {"raw": None, "list": None, "struct": None, "amount": None, "names": []}
    lines = [json.loads(line) for line in for_ndjson(NESTED).write_ndjson().splitlines()]
    assert lines[0]["amount"] == str(10**30) and lines[0]["struct"]["when"].startswith("2024-01-01T00:00:00")


def test_csv_cells_hold_nested_values_as_json() -> None:
    flat = for_csv(NESTED)
    assert all(dtype == pl.String for name, dtype in flat.schema.items() if name != "amount")
    row = flat.row(0, named=True)
    assert row["raw"] == "0x00ff" and json.loads(row["list"]) == ["0x01", None]
    assert json.loads(row["struct"])["x"] == "0xab" and json.loads(row["names"]) == ["a", "b"]
    assert flat.row(1, named=True)["struct"] is None and flat.row(1, named=True)["names"] == "[]"
    back = pl.read_csv(flat.write_csv().encode(), infer_schema=False)
    assert back["amount"][0] == str(10**30)


def test_argument_types() -> None:
    assert argtypes.chain_path("/ext/index/C/block") == "C/block"
    with pytest.raises(argparse.ArgumentTypeError, match=r"case-sensitive: did you mean C/block\?"):
        argtypes.chain_path("/ext/index/c/BLOCK")
    assert argtypes.containers("42") == 42
    assert argtypes.containers("X/tx=5, C/block=0") == {"X/tx": 5, "C/block": 0}
    assert argtypes.faults("502=0.05,short_batch=1") == {"502": 0.05, "short_batch": 1.0}
    assert argtypes.header("Authorization: Bearer a=b") == ("Authorization", "Bearer a=b")
    assert argtypes.header("X-A=1:2") == ("X-A", "1:2")
    assert argtypes.rate_limit("100/60") == (100, 60.0)
    assert argtypes.time_of("start")("1704067200") == 1704067200
    assert argtypes.time_of("start")("2024-01-01") == 1704067200
    assert argtypes.time_of("start")("2024-01-01T12:00:00Z") == 1704067200 + 12 * 3600
    assert argtypes.block_id("17") == 17 and argtypes.block_id("0xab") == "0xab"
    for func, text in [(argtypes.header, "Bearer-token-without-name"), (argtypes.rate_limit, "100"),
                       (argtypes.rate_limit, "0/5"), (argtypes.faults, "502"), (argtypes.time_of("end"), "soon"),
                       (argtypes.containers, "Z/tx=1"), (argtypes.non_negative_float, "nan")]:
        with pytest.raises(argparse.ArgumentTypeError):
            func(text)
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        argtypes.header("secret-value-without-name")
    assert "secret" not in str(refused.value)


def test_json_of_single_objects() -> None:
    value = {"b": b"\x01\x02", "t": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), "d": dt.date(2024, 2, 3),
             "n": decimal.Decimal("12345678901234567890123"), "f": decimal.Decimal("1.5"), "l": [(1, None)],
             "frame": pl.DataFrame({"a": [1, 2]})}
    assert jsonable(value) == {"b": "0x0102", "t": "2024-01-01T00:00:00+00:00", "d": "2024-02-03",
                               "n": 12345678901234567890123, "f": "1.5", "l": [[1, None]],
                               "frame": [{"a": 1}, {"a": 2}]}


def test_unwritable_output_exits_1(capsys, tmp_path: Path) -> None:
    for name in ("x.csv", "x.parquet"):
        res = cli(capsys, "index", "range", "--emulator", "--emulator-containers", "10", "-o",
                  str(tmp_path / "missing" / name))
        assert res.code == 1
        line = one_error_line(res.err)
        assert f"{tmp_path / 'missing' / name}: no directory '{tmp_path / 'missing'}' to write it in" in line
        assert line.endswith("(check the output path, its directory and free space)")
    assert list(tmp_path.iterdir()) == []


def test_closed_stdout_pipe_ends_quietly() -> None:
    args = ["index", "range", "--emulator", "--emulator-containers", "2000", "-o", "-", "-q"]
    proc = subprocess.Popen([sys.executable, "-m", "avax_data", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    assert json.loads(first)["index"] == 0
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
