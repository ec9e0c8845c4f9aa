"""The command line's footguns (issue 23): missing directories named as given, case-exact chain
paths, client rate limits, finished exports kept, resume lines that count this run, and a
window outside the emulator's world said in the summary."""

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
from _cli import cli, one_error_line, run


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=400, data_blocks_per_chain=300) as emulator:
        yield emulator


def test_a_missing_directory_is_named_as_given_without_internal_names(capsys, emu, tmp_path: Path,
                                                                      monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (["index", "range", "--url", emu.url, "--chain", "X/tx", "--count", "10"],
                 ["data", "blocks", "43114", "--url", emu.url, "--limit", "5"]):
        res = cli(capsys, *args, "-o", "nodir/x.parquet", "-q")
        line = one_error_line(res.err)
        assert res.code == 1 and "nodir/x.parquet" in line and "'nodir'" in line, line
        assert ".parts" not in line and ".avax-state" not in line and ".partial" not in line, line
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_directory_is_a_permission_error(capsys, emu, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    res = cli(capsys, "index", "range", "--url", emu.url, "--count", "5", "-o", str(locked / "x.parquet"), "-q")
    line = one_error_line(res.err)
    assert res.code == 1 and str(locked / "x.parquet") in line and "not writable" in line, line


def test_chain_paths_are_case_exact_with_a_suggestion(capsys, emu, tmp_path: Path) -> None:
    res = cli(capsys, "index", "range", "--url", emu.url, "--chain", "c/block", "--count", "5",
              "-o", str(tmp_path / "c.parquet"))
    assert res.code == 2 and "did you mean C/block?" in res.err, res.err
    assert not (tmp_path / "c.parquet").exists()
    with pytest.raises(ad.InvalidParameterError, match=r"did you mean 'C/block'\?") as caught:
        ad.IndexClient(emu.url).chain("c/block")
    assert caught.value.param == "path"
    with pytest.raises(ad.InvalidParameterError, match=r"did you mean 'X/vtx'\?"):
        ad.IndexClient(emu.url).chain("/ext/index/x/VTX")


def test_rate_limit_and_compute_units_reach_the_client(capsys, emu, tmp_path: Path, monkeypatch) -> None:
    from avax_data.cli import client as cli_client

    seen: list[dict] = []
    real = cli_client.client_kwargs

    def spy(args, service):
        kwargs = real(args, service)
        seen.append(kwargs)
        return kwargs

    monkeypatch.setattr(cli_client, "client_kwargs", spy)
    res = cli(capsys, "data", "blocks", "43114", "--url", emu.url, "--limit", "3", "--rate-limit", "2.5",
              "--compute-units-per-minute", "9000", "-o", str(tmp_path / "b.parquet"), "-q")
    assert res.code == 0, res.err
    assert seen[-1]["rate_limit"] == 2.5 and seen[-1]["compute_units_per_minute"] == 9000
    assert pl.read_parquet(tmp_path / "b.parquet").height == 3
    res = cli(capsys, "data", "blocks", "43114", "--url", emu.url, "--rate-limit", "0", "-o", "-")
    assert res.code == 2 and "--rate-limit" in res.err


def test_a_rate_limit_paces_the_export(emu, tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    # 5 calls of 20 containers at 4 per second: the first leaves at once, the other four 0.25 s apart.
    proc = run("index", "range", "--url", emu.url, "--count", "100", "--batch-size", "20", "--concurrency", "1",
               "--rate-limit", "4", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    seconds = float(proc.stderr.strip().splitlines()[-1].split(" in ")[1].split(" s")[0])
    assert seconds >= 0.9, proc.stderr


def test_a_finished_export_is_skipped_unless_overwrite(capsys, emu, tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    args = ["index", "range", "--url", emu.url, "--count", "30", "-o", str(out)]
    assert cli(capsys, *args).code == 0
    stamp = out.stat().st_mtime_ns
    res = cli(capsys, *args[:-2], "--count", "40", "-o", str(out))
    assert res.code == 0 and f"skipped: {out} exists" in res.err and "--overwrite" in res.err, res.err
    assert out.stat().st_mtime_ns == stamp and pl.read_parquet(out).height == 30
    res = cli(capsys, "index", "range", "--url", emu.url, "--count", "40", "-o", str(out), "--overwrite")
    assert res.code == 0 and "wrote 40 rows" in res.err and pl.read_parquet(out).height == 40


def test_resume_says_where_it_restarts_and_counts_this_runs_rows(tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    state = Path(str(out) + ".avax-state.json")
    args = ["index", "range", "--count", "1200", "--batch-size", "50", "--chunk-rows", "100", "--concurrency", "1",
            "-o", str(out)]
    # 0.15 s a request: 20 requests (3 s) are left when the test sees 200 rows, so a starved
    # test process still kills the export mid-way
    with ad.Emulator(containers=1500, latency=0.15) as slow:
        proc = subprocess.Popen([sys.executable, "-m", "avax_data", *args, "--url", slow.url, "-q"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (state.exists() and json.loads(state.read_text() or "{}")
                                                   .get("rows_written", 0) >= 200):
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        done = json.loads(state.read_text())["rows_written"]
        assert 200 <= done < 1200
        slow.set_latency(0)
        resumed = run(*args, "--url", slow.url, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    lines = resumed.stderr.strip().splitlines()
    assert f"resuming {out} at next_index={done} ({done:,} rows already written)" in lines[0], resumed.stderr
    assert f"wrote {1200 - done:,} rows to {out}" in lines[-1] and "(1,200 in the file)" in lines[-1], lines
    assert pl.read_parquet(out)["index"].to_list() == list(range(1200))


def test_a_metric_window_outside_the_emulators_world_is_said_in_the_summary(capsys, emu, tmp_path: Path) -> None:
    out = tmp_path / "tx.parquet"
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--url", emu.url, "--interval", "day",
              "--start", "2019-01-01", "--end", "2019-04-01", "-o", str(out))
    assert res.code == 0, res.err
    assert "0 rows: the window 2019-01-01 00:00 .. 2019-04-01 00:00" in res.err, res.err
    assert "lies outside the emulator's world" in res.err and "2026-01-01 00:00" in res.err
    assert pl.read_parquet(out).height == 0
    inside = tmp_path / "inside.parquet"
    res = cli(capsys, "metrics", "series", "43114", "txCount", "--url", emu.url, "--interval", "day",
              "--start", "2025-12-01", "--end", "2026-01-01", "-o", str(inside))
    assert res.code == 0 and "lies outside" not in res.err and pl.read_parquet(inside).height >= 1, res.err


def test_the_summary_says_the_clients_warnings_and_issues_any_other_again() -> None:
    """The export records every warning while it walks; a ResourceWarning that a garbage
    collection happened to raise meanwhile is not the walk's notice (the summary would change with
    when the collector ran), and it is not lost: it is issued again under the usual filters."""
    import warnings

    from avax_data.cli.export import _Run

    mine = UserWarning("0 rows: the window lies outside the emulator's world")
    caught = [warnings.WarningMessage(mine, UserWarning, "walk.py", 1),
              warnings.WarningMessage(ResourceWarning("unclosed <socket>"), ResourceWarning, "gc.py", 2),
              warnings.WarningMessage(UserWarning(str(mine)), UserWarning, "walk.py", 1)]
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        assert _Run._notices(caught) == [str(mine)]
    assert [(w.category, str(w.message), w.filename, w.lineno) for w in again] == [
        (ResourceWarning, "unclosed <socket>", "gc.py", 2)]
