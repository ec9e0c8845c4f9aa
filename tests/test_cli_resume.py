"""Resumable exports: killed (SIGKILL), interrupted (SIGINT) or failed exports continue with
``--resume`` and end with exactly the file an uninterrupted export writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli, one_error_line

# Per request while a walk is to be stopped: the index walk has 21 requests (3 s) left when the
# test sees its first chunk, so a test process starved for a while still stops it mid-way.
LATENCY = 0.15


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(seed=5, containers=3000, data_blocks_per_chain=2000) as emulator:
        yield emulator


def command(kind: str, url: str, out: Path) -> list[str]:
    """A walk long enough to be stopped in the middle under ``LATENCY``."""
    if kind == "index":  # 24 requests, one at a time; chunks of 250 rows
        return ["index", "range", "--url", url, "--count", "2400", "--batch-size", "100", "--concurrency", "1",
                "--chunk-rows", "250", "-o", str(out), "-q"]
    # 50 pages of 20; chunks of 70 rows end inside pages (the state then has a page_offset)
    return ["data", "blocks", "43114", "--url", url, "--page-size", "20", "--limit", "1000", "--chunk-rows", "70",
            "-o", str(out), "-q"]


def state_of(out: Path) -> dict | None:
    try:
        return json.loads(Path(str(out) + ".avax-state.json").read_text())
    except (OSError, ValueError):
        return None


def start_and_wait_for_progress(args: list[str], out: Path, rows: int) -> subprocess.Popen:
    """Start ``avax-data ARGS`` and return once its state file shows at least ``rows`` rows written."""
    proc = subprocess.Popen([sys.executable, "-m", "avax_data", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = state_of(out)
        if state is not None and state["rows_written"] >= rows:
            assert proc.poll() is None, "the export ended before it could be stopped"
            return proc
        if proc.poll() is not None:
            pytest.fail(f"the export ended early: {proc.returncode} {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.01)
    proc.kill()
    pytest.fail("no progress in the state file")


def same_output(a: Path, b: Path, fmt: str) -> None:
    if fmt == "parquet":
        left, right = pl.read_parquet(a), pl.read_parquet(b)
        assert left.height == right.height and left.equals(right)
    else:
        assert a.read_bytes() == b.read_bytes()


def tear(out: Path, fmt: str) -> None:
    """What a kill in the middle of writing a chunk leaves: a torn tail, a half-written part."""
    if fmt == "parquet":
        parts = Path(str(out) + ".parts")
        (parts / "part-000099.parquet.tmp").write_bytes(b"PAR1 half a part")
        (parts / "part-000098.parquet").write_bytes(b"a part written after the last saved state")
    else:
        with open(out, "ab") as file:
            file.write(b'{"torn": "last chu')


@pytest.mark.parametrize(("kind", "fmt"), [("index", "parquet"), ("index", "csv"), ("data", "parquet"),
                                           ("data", "ndjson")])
def test_killed_export_resumes_to_the_uninterrupted_result(capsys, emu, tmp_path: Path, kind, fmt) -> None:
    out, ref = tmp_path / f"out.{fmt}", tmp_path / f"ref.{fmt}"
    emu.set_latency(LATENCY)
    try:
        proc = start_and_wait_for_progress(command(kind, emu.url, out), out, 140)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        emu.set_latency(0)
    state = state_of(out)
    assert state is not None and 0 < state["rows_written"] < (2400 if kind == "index" else 1000)
    if kind == "data":
        assert state["position"]["items_read"] == state["rows_written"]
    tear(out, fmt)

    again = cli(capsys, *command(kind, emu.url, out))  # without --resume: refused, nothing touched
    assert again.code == 2
    assert "did not finish (pass --resume to continue it" in one_error_line(again.err)
    other = command(kind, emu.url, out) + ["--resume", "--limit" if kind == "data" else "--count", "500"]
    refused = cli(capsys, *other)
    assert refused.code == 2
    line = one_error_line(refused.err)
    assert "belongs to another export" in line and ("--limit 1000 there, 500 here" in line
                                                      or "--count 2400 there, 500 here" in line)

    resumed = cli(capsys, *command(kind, emu.url, out), "--resume")
    assert resumed.code == 0, resumed.err
    assert cli(capsys, *command(kind, emu.url, ref)).code == 0
    same_output(out, ref, fmt)
    assert state_of(out) is None and not Path(str(out) + ".parts").exists()


def test_sigint_exits_130_and_leaves_a_resumable_state(capsys, emu, tmp_path: Path) -> None:
    out, ref = tmp_path / "out.csv", tmp_path / "ref.csv"
    emu.set_latency(LATENCY)
    try:
        proc = start_and_wait_for_progress(command("index", emu.url, out), out, 250)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        err = proc.stderr.read() if proc.stderr else ""
    finally:
        emu.set_latency(0)
    assert code == 130
    assert err.strip() == "interrupted (run the same command with --resume to continue)"
    state = state_of(out)
    assert state is not None and state["output"]["bytes"] <= out.stat().st_size
    assert state["position"]["next_index"] == state["rows_written"]
    assert cli(capsys, *command("index", emu.url, out), "--resume").code == 0
    assert cli(capsys, *command("index", emu.url, ref)).code == 0
    same_output(out, ref, "csv")


FAILING = ["index", "range", "--batch-size", "100", "--concurrency", "1", "--chunk-rows", "100", "--max-retries", "0"]


def interrupted(capsys, out: Path) -> None:
    """An export of 1,000 containers to ``out`` that a 503 stops after some chunks (seed 4 as below)."""
    with ad.Emulator(containers=1000, faults={"503": 0.15}, fault_seed=4) as emu:
        assert cli(capsys, *FAILING, "--url", emu.url, "-o", str(out), "-q").code == 3
    assert 0 < state_of(out)["rows_written"] < 1000


def test_a_torn_foreign_or_old_checkpoint_is_refused_and_named(capsys, tmp_path: Path) -> None:
    out = tmp_path / "x.csv"
    interrupted(capsys, out)
    state = Path(str(out) + ".avax-state.json")
    whole = state.read_bytes()
    old = {"version": 1, "command": "index range", "walk": {}, "format": "csv", "position": {"next_index": 5},
           "rows_written": 5, "sink": {"bytes": 10}}
    with ad.Emulator(containers=1000) as emu:
        for text, why in [(whole[: len(whole) // 2], "not JSON"), (b"\xff\x00", "not UTF-8"),
                          (json.dumps(old).encode(), "it has version 1: written by another version of avax-data"),
                          (whole.replace(b'"kind": "export"', b'"kind": "dataset"'), 'kind "dataset", not "export"')]:
            state.write_bytes(text)
            res = cli(capsys, *FAILING, "--url", emu.url, "-o", str(out), "--resume")
            line = one_error_line(res.err)
            assert res.code == 2 and str(state) in line and why in line, line
            assert "start the export over" in line or "delete the state file" in line, line
        assert emu.request_count() == 0, "refused before any request"


def test_a_second_writer_of_the_same_output_is_refused(capsys, tmp_path: Path) -> None:
    from avax_data._native import _ExportCheckpoint

    out = tmp_path / "x.parquet"
    holder = _ExportCheckpoint("index range", "parquet", str(out), "{}")
    with ad.Emulator(containers=100) as emu:
        res = cli(capsys, "index", "range", "--url", emu.url, "--count", "50", "-o", str(out))
        assert emu.request_count() == 0
    line = one_error_line(res.err)
    assert res.code == 3 and f"{out} is locked by another writer (pid {os.getpid()} on host" in line, line
    assert "one writer per dataset or export" in line
    holder.release()
    assert list(tmp_path.iterdir()) == [], "a released lock leaves no file"
    with ad.Emulator(containers=100) as emu:
        assert cli(capsys, "index", "range", "--url", emu.url, "--count", "50", "-o", str(out), "-q").code == 0
    assert pl.read_parquet(out)["index"].to_list() == list(range(50))


def test_verify_reports_an_export_checkpoint(capsys, tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    interrupted(capsys, out)
    state = state_of(out)
    rows = state["rows_written"]
    assert state["version"] == 2 and state["request"]["command"] == "index range"
    parts = state["output"]["parts"]
    assert [p["file"] for p in parts] == [f"part-{n:06d}.parquet" for n in range(len(parts))]
    assert sum(p["rows"] for p in parts) == rows and all(len(p["sha256"]) == 64 for p in parts)
    for path in (str(out), str(out) + ".avax-state.json"):
        res = cli(capsys, "dataset", "verify", path)
        assert res.code == 0, res.err
        lines = res.out.splitlines()
        assert lines[0] == (f"export checkpoint {out}.avax-state.json: index range to {out} (parquet), {rows} rows "
                            f"written, --resume continues at next_index={rows}")
        assert lines[-1] == "ok: --resume continues it"
    (Path(str(out) + ".parts") / "part-000000.parquet").write_bytes(b"altered")
    res = cli(capsys, "dataset", "verify", str(out), "--json")
    report = json.loads(res.out)
    assert res.code == 1 and report["ok"] is False and report["altered"] == ["part-000000.parquet"]
    assert report["checkpoint"]["rows_written"] == rows
    with ad.Emulator(containers=1000) as emu:
        res = cli(capsys, *FAILING, "--url", emu.url, "-o", str(out), "--resume")
    line = one_error_line(res.err)
    assert res.code == 2 and "1 part file(s)" in line and "missing or altered, first part-000000.parquet" in line


def test_service_error_mid_export_then_resume(capsys, tmp_path: Path) -> None:
    out, ref = tmp_path / "x.ndjson", tmp_path / "ref.ndjson"
    args = ["index", "range", "--batch-size", "100", "--concurrency", "1", "--chunk-rows", "100", "--max-retries",
            "0"]
    # fault seed 4: request 6 of this walk answers 503 (the decisions are a function of seed and request number)
    with ad.Emulator(containers=1000, faults={"503": 0.15}, fault_seed=4) as emu:
        failed = cli(capsys, *args, "--url", emu.url, "-o", str(out))
        assert failed.code == 3
        line = one_error_line(failed.err)
        assert "503" in line and line.endswith("; then --resume continues the export)")
        assert state_of(out)["rows_written"] > 0
        emu.set_faults(None)
        assert cli(capsys, *args, "--url", emu.url, "-o", str(out), "--resume", "-q").code == 0
        assert cli(capsys, *args, "--url", emu.url, "-o", str(ref), "-q").code == 0
    same_output(out, ref, "ndjson")
    assert [json.loads(line)["index"] for line in out.read_text().splitlines()] == list(range(1000))


def test_failure_before_the_first_chunk_leaves_nothing(capsys, tmp_path: Path) -> None:
    # the same faults as above, but chunks of 1000 rows: the walk fails before its first chunk
    for fmt in ("parquet", "csv"):
        with ad.Emulator(containers=1000, faults={"503": 0.15}, fault_seed=4) as emu:
            res = cli(capsys, "index", "range", "--url", emu.url, "--batch-size", "100", "--concurrency", "1",
                      "--chunk-rows", "1000", "--max-retries", "0", "-o", str(tmp_path / f"x.{fmt}"))
            assert emu.request_count() > 2  # the tip, then range calls
        assert res.code == 3 and "503" in one_error_line(res.err) and "--resume" not in res.err
    assert list(tmp_path.iterdir()) == []


def test_resume_without_a_state_starts_afresh(capsys, emu, tmp_path: Path) -> None:
    out = tmp_path / "fresh.parquet"
    res = cli(capsys, "index", "range", "--url", emu.url, "--count", "50", "-o", str(out), "--resume")
    assert res.code == 0
    assert res.err.startswith(f"no state file {out}.avax-state.json: starting the export afresh")
    assert pl.read_parquet(out)["index"].to_list() == list(range(50))


def test_embedded_emulator_pager_resumes_by_position(capsys, tmp_path: Path) -> None:
    """The embedded emulator's page tokens die with its process: a resumed export walks again and skips."""
    from avax_data.cli.embedded import DEFAULT_CONTAINERS  # the emulator's one table (10,000)

    out, ref = tmp_path / "b.csv", tmp_path / "ref.csv"
    args = ["data", "blocks", "43114", "--emulator", "--emulator-data-blocks", "200", "--page-size", "30",
            "--chunk-rows", "50", "-q"]
    assert cli(capsys, *args, "-o", str(ref)).code == 0
    # an interrupted first run: 110 rows written (a token of another process in the state)
    assert cli(capsys, *args, "--limit", "110", "-o", str(out)).code == 0
    state = {
        "version": 2, "kind": "export",
        "request": {"command": "data blocks", "format": "csv", "output": str(out),
                    "args": {"endpoint": "blocks", "args": ["43114"], "page_size": 30, "limit": None,
                             "emulator": {"seed": 0, "containers": DEFAULT_CONTAINERS,
                                                 "data_blocks": 200}}},
        "position": {"next_page_token": "00000000-0000-4000-8000-000000000000", "page_offset": 20,
                     "items_read": 110},
        "rows_written": 110, "output": {"bytes": out.stat().st_size}, "updated": "2026-01-01T00:00:00Z",
    }
    Path(str(out) + ".avax-state.json").write_text(json.dumps(state))
    res = cli(capsys, *args, "-o", str(out), "--resume")
    assert res.code == 0, res.err
    same_output(out, ref, "csv")
    assert pl.read_csv(out)["blockNumber"].to_list() == list(range(199, -1, -1))


def test_the_export_source_and_sink_bases_are_abstract() -> None:
    from avax_data.cli.export import Source
    from avax_data.cli.sinks import ParquetParts, Sink

    for base, methods in [(Source, {"start", "frames", "position", "plan", "origin"}),
                          (Sink, {"open", "write", "commit", "finalize"})]:
        assert base.__abstractmethods__ == frozenset(methods)
        with pytest.raises(TypeError, match="abstract"):
            base()  # type: ignore[abstract]

    class Half(Sink):
        def open(self, checkpoint: object) -> None: ...

    with pytest.raises(TypeError, match="commit, finalize, write"):
        Half()  # type: ignore[abstract]
    assert not ParquetParts.__abstractmethods__
