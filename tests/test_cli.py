"""The ``avax-data`` command line, run as a user would (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _helpers import emulator_process
from test_index import closed_port_url
from test_range import SCHEMA


def run(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m avax_data ARGS``."""
    return subprocess.run([sys.executable, "-m", "avax_data", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def test_walk_emulator(tmp_path: Path) -> None:
    out = tmp_path / "tmp.parquet"
    proc = run("walk", "--emulator", "--emulator-containers", "5000", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "5,000" in text
    assert "0 .. 4999" in text
    assert "rows/s" in text
    df = pl.read_parquet(out)
    assert dict(df.schema) == SCHEMA
    assert df["index"].to_list() == list(range(5000))
    # the default world (seed 0): the file holds the emulator's containers
    with ad.Emulator(seed=0, containers={"X/tx": 5000}) as emu:
        for i in (0, 2500, 4999):
            expected = emu.expected_container("X/tx", i)
            assert df["id"][i] == expected["id"]
            assert df["bytes"][i] == expected["bytes"]


def test_walk_default_out_and_chain(tmp_path: Path) -> None:
    proc = run("walk", "--emulator", "--chain", "C/block", "--emulator-containers", "1500",
               "--start", "1000", "--concurrency", "3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    df = pl.read_parquet(tmp_path / "c_block.parquet")
    assert df["index"].to_list() == list(range(1000, 1500))


def test_walk_count(tmp_path: Path) -> None:
    out = tmp_path / "part.parquet"
    proc = run("walk", "--emulator", "--chain", "P/block", "--emulator-containers", "3000",
               "--start", "10", "--count", "20", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out)["index"].to_list() == list(range(10, 30))


def test_walk_against_a_url(tmp_path: Path) -> None:
    out = tmp_path / "u.parquet"
    with ad.Emulator(containers=1234) as emu:
        proc = run("walk", "--url", emu.url, "--chain", "X/block", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out).height == 1234


def test_walk_node_error_exit_1(tmp_path: Path) -> None:
    proc = run("walk", "--url", closed_port_url(), "--out", str(tmp_path / "x.parquet"))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [["walk", "--emulator", "--chain", "Y/tx"], ["walk", "--count", "-1"], ["walk", "--url", "x", "--emulator"],
     ["walk", "--concurrency", "0"], ["emulator", "--port", "70000"], ["frobnicate"]],
)
def test_bad_arguments_exit_2(args: list[str], tmp_path: Path) -> None:
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())


def test_console_script_installed() -> None:
    script = Path(sys.executable).parent / "avax-data"
    assert script.exists()
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"avax-data {ad.__version__}"


def test_emulator_server_mode() -> None:
    with emulator_process("--containers", "50") as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        url = next(word for word in first.split() if word.startswith("http://"))
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted",
                           "params": {"encoding": "hex"}}).encode()
        req = urllib.request.Request(url + "/ext/index/X/tx", data=body,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            assert json.loads(resp.read())["result"]["index"] == "49"
        rest = "".join(proc.stdout.readline() for _ in range(2))
        assert "curl" in rest
