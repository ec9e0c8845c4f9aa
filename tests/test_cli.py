"""The ``avax-data`` command line, run as a user would (a subprocess)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _helpers import emulator_process
from avax_data.cli import build_parser
from test_index import closed_port_url
from test_range import SCHEMA


def run(*args: str, cwd: Path | None = None, timeout: float = 600, env: dict | None = None
        ) -> subprocess.CompletedProcess:
    """``python -m avax_data ARGS``."""
    return subprocess.run([sys.executable, "-m", "avax_data", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env=env)


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


def test_walk_of_a_finished_file_says_nothing_was_walked(tmp_path: Path) -> None:
    """README's first command run twice: the second run keeps the file and says so, with no rate
    (it walked nothing) where it printed "inf rows/s"."""
    out = tmp_path / "x_tx.parquet"
    args = ("walk", "--emulator", "--emulator-containers", "300", "--out", str(out))
    assert run(*args).returncode == 0
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert "skipped:" in proc.stdout + proc.stderr and "300" in proc.stdout
    assert "time:        0.00 s (nothing walked: the file was already complete)" in proc.stdout
    assert "inf" not in proc.stdout


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


def test_walk_node_error_exit_3(tmp_path: Path) -> None:
    proc = run("walk", "--url", closed_port_url(), "--out", str(tmp_path / "x.parquet"))
    assert proc.returncode == 3
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert lines[0].endswith("(is the service running at that address? check --url, or use --emulator)")
    assert "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "args",
    [["walk", "--emulator", "--chain", "Y/tx"], ["walk", "--count", "-1"], ["walk", "--url", "x", "--emulator"],
     ["walk", "--concurrency", "0"], ["emulator", "--port", "70000"], ["frobnicate"], ["index"],
     ["index", "range", "--format", "xlsx"], ["data", "blocks"], ["metrics", "series", "43114"],
     ["index", "range", "--emulator", "--header", "no-separator"], ["emulator", "--rate-limit", "10"],
     ["emulator", "--containers", "X/tx=1,Q/tx=2"], ["metrics", "series", "1", "txCount", "--start", "yesterday"]],
)
def test_bad_arguments_exit_2(args: list[str], tmp_path: Path) -> None:
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith("--help)"), proc.stderr
    assert not list(tmp_path.iterdir())


def _subcommands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name), sub
                yield from _subcommands(sub, (*prefix, name))


def test_every_subcommand_has_examples_in_its_help() -> None:
    commands = dict(_subcommands(build_parser()))
    assert set(commands) >= {
        ("index",), ("index", "range"), ("index", "follow"), ("index", "last"), ("index", "container"),
        ("data",), *[("data", e) for e in ("chains", "chain", "block", "blocks", "latest-blocks", "collectibles",
                                           "pending-rewards", "vertices", "icm-messages", "health")],
        ("metrics",), ("metrics", "series"), ("metrics", "chains"), ("metrics", "icm-summary"), ("walk",),
        ("emulator",),
    }
    for path, sub in commands.items():
        text = sub.format_help()
        examples = text.split("examples:\n", 1)[1].splitlines()
        assert examples and all(line.startswith(f"  avax-data {path[0]}") for line in examples if line), path
        if path[0] in ("index", "data", "metrics", "walk") and len(path) > 1 or path == ("walk",):
            for flag in ("--emulator", "--timeout", "--max-retries", "--header", "--ca-bundle", "--quiet"):
                assert flag in text, (path, flag)


def test_api_key_is_never_shown() -> None:
    text = dict(_subcommands(build_parser()))[("data", "blocks")].format_help()
    assert "--api-key KEY" in text and "AVAX_DATA_API_KEY" in text
    proc = run("data", "chain", "43114", "--url", closed_port_url(), "--api-key", "sekrit-key-42",
               "--max-retries", "0", env={**os.environ, "AVAX_DATA_API_KEY": "other-secret-7"})
    assert proc.returncode == 3
    assert "sekrit" not in proc.stderr + proc.stdout and "other-secret" not in proc.stderr + proc.stdout


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
        assert "curl" in rest and "Data API" in rest


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_emulator_knobs(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "avax_data", "emulator", "--port", "0", "--seed", "9", "--containers",
         "X/tx=7,C/block=3", "--data-blocks", "40", "--data-api-require-key", "--data-api-refused-keys",
         "bad-key-1,bad-key-2", "--rate-limit", "3/60", "--utc-offset-minutes", "120", "--index-disabled"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = next(word for word in proc.stdout.readline().split() if word.startswith("http://"))
        assert _get(url + "/v1/chains")[0] == 401  # a key is required
        assert _get(url + "/v1/chains", {"x-glacier-api-key": "bad-key-2"})[0] == 403
        key = {"x-glacier-api-key": "good-key-123"}
        status, headers, body = _get(url + "/v1/chains/43114/blocks?pageSize=100", key)
        assert status == 200 and len(json.loads(body)["blocks"]) == 40
        assert {k.lower(): v for k, v in headers.items()}["ratelimit-limit"] == "3"
        assert [_get(url + "/v1/health-check", key)[0] for _ in range(3)] == [200, 200, 429]
        # the index is disabled (404); the emulator with these knobs is otherwise the same world
        assert run("index", "last", "--url", url, "--chain", "X/tx").returncode == 3
        with ad.Emulator(seed=9, containers={"X/tx": 7, "C/block": 3}, utc_offset_minutes=120) as twin:
            expected = twin.expected_container("X/tx", 6)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    proc2 = subprocess.Popen(
        [sys.executable, "-m", "avax_data", "emulator", "--port", "0", "--seed", "9", "--containers",
         "X/tx=7,C/block=3", "--utc-offset-minutes", "120", "--latency", "0.01", "--tip-rate", "0",
         "--faults", "503=0", "--fault-seed", "3", "--fault-options", "retry_after=1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc2.stdout is not None
        url = next(word for word in proc2.stdout.readline().split() if word.startswith("http://"))
        last = json.loads(run("index", "last", "--url", url, "--chain", "X/tx").stdout)
        assert last["id"] == expected["id"] and last["index"] == 6
        assert json.loads(run("index", "last", "--url", url, "--chain", "C/block").stdout)["index"] == 2
    finally:
        proc2.send_signal(signal.SIGINT)
        proc2.wait(timeout=30)
