"""Datasets under a second writer and crashes: the directory lock (DatasetLockedError before any
request), a writer killed with SIGKILL at every publish step and then rerun (the dataset equals
an uninterrupted walk, and verify says so), verify_dataset and `avax-data dataset verify`
finding each kind of damage, and a lock left by a dead writer taken over."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad

CHUNK = 1_000
LOCK = "_avax_dataset.lock"
MANIFEST = "_avax_dataset.json"
STEPS = ["partition-written", "partition-synced", "partition-renamed", "manifest-written", "manifest-synced",
         "manifest-renamed"]

# A writer in its own process: argv = url, directory, batch size. Prints its summary as JSON.
WRITER = """
import json, sys
import avax_data as ad
url, out, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = ad.IndexClient(url, concurrency=1).chain("X/tx").range(0, batch_size=batch)
print(json.dumps(rng.write_dataset(out, chunk=1000)), flush=True)
"""


def read(path: Path) -> pl.DataFrame:
    return pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect().sort("index")


def writer(url: str, out: Path, batch: int = 1024, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WRITER, url, str(out), str(batch)], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=3_500) as emu:
        yield emu


@pytest.fixture(scope="module")
def truth(emu: ad.Emulator) -> pl.DataFrame:
    return ad.IndexClient(emu.url).chain("X/tx").range(0).to_polars()


def holder(path: Path) -> dict[str, object] | None:
    try:
        return json.loads((path / LOCK).read_text())
    except (FileNotFoundError, ValueError):
        return None


def test_a_second_writer_process_is_refused_naming_the_first_before_any_request(truth: pl.DataFrame,
                                                                                 tmp_path: Path) -> None:
    # the first writer is slow (a latency per request, 100 containers per request); the second
    # asks another emulator, whose request count shows it asked nothing
    with ad.Emulator(containers=3_500, latency=0.1) as slow, ad.Emulator(containers=3_500) as other:
        first = writer(slow.url, tmp_path, batch=100)
        deadline = time.monotonic() + 60
        while (holder(tmp_path) or {}).get("pid") != first.pid:
            assert first.poll() is None and time.monotonic() < deadline, first.stderr.read() if first.stderr else ""
            time.sleep(0.02)
        for second in (
            lambda: ad.IndexClient(other.url).chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK),
            lambda: ad.DataClient(base_url=other.url).blocks("43114").write_dataset(tmp_path, chunk=100),
            lambda: ad.MetricsClient(base_url=other.url).write_dataset(tmp_path, "43114", "txCount", interval="day",
                                                                        start=1_700_000_000),
            lambda: ad.verify_dataset(tmp_path),
        ):
            with pytest.raises(ad.DatasetLockedError) as refused:
                second()
            err = refused.value
            assert (err.pid, err.host, err.path) == (first.pid, socket.gethostname(), str(tmp_path))
            assert f"pid {first.pid} on host {socket.gethostname()} since {err.since}" in str(err)
            assert str(err.since).endswith("Z") and isinstance(err, ad.AvaxDataError)
        assert other.request_count() == 0
        out, errors = first.communicate(timeout=120)
        assert first.returncode == 0, errors
    assert json.loads(out)["rows_written"] == 3_500
    assert read(tmp_path).drop("chunk").equals(truth)
    assert ad.verify_dataset(tmp_path)["ok"]
    assert (tmp_path / LOCK).read_text() == "", "a released lock names nobody"


def test_merge_into_a_directory_another_writer_holds_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ds").mkdir()
    with open(tmp_path / "ds" / LOCK, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write(json.dumps({"pid": 77, "host": "h", "since": "2026-01-01T00:00:00Z"}))
        held.flush()
        staged = tmp_path / "stage"
        with ad.Emulator(containers=100) as e:
            ad.IndexClient(e.url).chain("X/tx").range(0, 100).write_dataset(staged, chunk=CHUNK)
        with pytest.raises(ad.DatasetLockedError, match="pid 77 on host h since 2026-01-01T00:00:00Z"):
            ad._native.merge_dataset(tmp_path / "ds", [staged])
    assert (staged / "chunk=0" / "part.parquet").exists(), "nothing moved"
    assert ad._native.merge_dataset(tmp_path / "ds", [staged])["rows_written"] == 100


# A merge in its own process: argv = the dataset directory, then the staged directories.
MERGER = """
import json, sys
import avax_data as ad
print(json.dumps(ad._native.merge_dataset(sys.argv[1], sys.argv[2:])), flush=True)
"""


@pytest.mark.parametrize("crash", ["partition-synced:2", "partition-renamed:2", "manifest-renamed:3",
                                   "merge-recorded:2"])
def test_a_merge_killed_midway_is_completed_by_a_rerun(emu: ad.Emulator, truth: pl.DataFrame, tmp_path: Path,
                                                       crash: str) -> None:
    xtx = ad.IndexClient(emu.url).chain("X/tx")
    staged = []
    for first in range(0, 3_500, CHUNK):  # four pieces, one partition each, as Dask tasks write them
        staged.append(tmp_path / f"stage-{first}")
        xtx.range(first, count=min(CHUNK, 3_500 - first)).write_dataset(staged[-1], chunk=CHUNK)
    out = tmp_path / "ds"
    killed = subprocess.run([sys.executable, "-c", MERGER, str(out), *map(str, staged)], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "AVAX_DATA_CRASH_AT": crash})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert ad.verify_dataset(out)["partitions"] < 4, "killed midway"
    left = [s for s in staged if s.exists()]
    assert left, "the rerun has staged directories to finish"
    done = ad._native.merge_dataset(out, left)
    assert done["partitions_written"] == len(left)
    assert not any(s.exists() for s in staged)
    assert read(out).drop("chunk").equals(truth)
    after = ad.verify_dataset(out)
    assert after["ok"] and (after["partitions"], after["rows"]) == (4, 3_500), after


def test_a_merge_of_pieces_naming_files_outside_them_or_of_two_networks_is_refused(tmp_path: Path) -> None:
    with ad.Emulator(containers=200, seed=1) as one, ad.Emulator(containers=200, seed=2) as two:
        a, b = tmp_path / "a", tmp_path / "b"
        ad.IndexClient(one.url).chain("X/tx").range(0, 100).write_dataset(a, chunk=100)
        ad.IndexClient(two.url).chain("X/tx").range(100, 200).write_dataset(b, chunk=100)
    with pytest.raises(ValueError, match=r"same source .* container 0 is \w+; this write reads the network"):
        ad._native.merge_dataset(tmp_path / "ds", [a, b])
    assert (a / "chunk=0" / "part.parquet").exists() and (b / "chunk=100" / "part.parquet").exists()
    manifest = json.loads((a / MANIFEST).read_text())
    manifest["partitions"][0].update(key="..", file="../outside.parquet")
    (a / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match=r"names the file \"\.\./outside\.parquet\""):
        ad._native.merge_dataset(tmp_path / "ds", [a])
    assert not (tmp_path / "outside.parquet").exists() and not (tmp_path / "ds" / MANIFEST).exists()


def expected_after_crash(step: str) -> str:
    """What verify finds right after a writer was killed at ``step``: the report's non-empty list."""
    return {
        "partition-written": "partial",  # a temporary partition file
        "partition-synced": "partial",
        "partition-renamed": "extra",  # a partition file the manifest does not name yet
        "manifest-written": "partial extra",  # a temporary manifest naming a partition file not yet recorded
        "manifest-synced": "partial extra",
        "manifest-renamed": "",  # consistent: the partitions recorded so far
    }[step]


@pytest.mark.parametrize("nth", [1, 3])
@pytest.mark.parametrize("step", STEPS)
def test_a_writer_killed_at_every_publish_step_then_rerun_equals_an_uninterrupted_walk(
        emu: ad.Emulator, truth: pl.DataFrame, tmp_path: Path, step: str, nth: int,
        caplog: pytest.LogCaptureFixture) -> None:
    killed = writer(emu.url, tmp_path, env={"AVAX_DATA_CRASH_AT": f"{step}:{nth}"})
    _, errors = killed.communicate(timeout=120)
    assert killed.returncode == -signal.SIGKILL, errors
    report = ad.verify_dataset(tmp_path) if (tmp_path / MANIFEST).exists() else None
    found = expected_after_crash(step)
    if report is not None:
        problems = {k for k in ("missing", "altered", "partial", "extra", "gaps", "duplicates") if report[k]}
        assert problems == set(found.split()), report
        assert report["ok"] is (not found)
        # the manifest records the partitions whose publishing ended before the kill
        assert report["partitions"] == (nth if step == "manifest-renamed" else nth - 1)
    else:
        assert nth == 1 and step != "manifest-renamed", "the first manifest is published by then"
    left = holder(tmp_path)
    assert left is not None and (left["pid"], left["host"]) == (killed.pid, socket.gethostname())

    with caplog.at_level(logging.WARNING, logger="avax_data"):
        ad.reset_logging()
        rerun = ad.IndexClient(emu.url).chain("X/tx").range(0).write_dataset(tmp_path, chunk=CHUNK)
    ad.reset_logging()
    assert f"taking over the lock left by pid {killed.pid} on host {socket.gethostname()}" in caplog.text
    assert rerun["rows_written"] + rerun["rows_skipped"] == 3_500
    assert rerun["partitions_skipped"] == (report or {}).get("partitions", 0)
    assert read(tmp_path).drop("chunk").equals(truth)
    after = ad.verify_dataset(tmp_path)
    assert after["ok"] and (after["partitions"], after["rows"]) == (4, 3_500), after
    assert not list(tmp_path.glob("**/.*")), "no temporary file is left"


def test_a_crash_hook_of_a_list_dataset_then_a_rerun_is_whole(tmp_path: Path) -> None:
    code = ("import sys, avax_data as ad; "
            "ad.DataClient(base_url=sys.argv[1]).blocks('43114', page_size=50).write_dataset(sys.argv[2], chunk=100)")
    with ad.Emulator(data_blocks_per_chain=500, containers=10) as e:
        truth = ad.DataClient(base_url=e.url).blocks("43114").to_polars()
        killed = subprocess.run([sys.executable, "-c", code, e.url, str(tmp_path)], capture_output=True, text=True,
                                timeout=120, env={**os.environ, "AVAX_DATA_CRASH_AT": "partition-renamed:2"})
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert ad.verify_dataset(tmp_path)["extra"] == ["block=300/part.parquet"]
        ad.DataClient(base_url=e.url).blocks("43114").write_dataset(tmp_path, chunk=100)
    back = pl.scan_parquet(f"{tmp_path}/**/*.parquet", hive_partitioning=True).collect()
    assert back.sort("blockNumber", descending=True).drop("block").equals(truth)
    report = ad.verify_dataset(tmp_path)
    assert report["ok"] and (report["partitions"], report["rows"]) == (5, 500), report


@pytest.fixture()
def whole(emu: ad.Emulator, tmp_path: Path) -> Path:
    out = tmp_path / "ds"
    ad.IndexClient(emu.url).chain("X/tx").range(0).write_dataset(out, chunk=CHUNK)
    return out


def cli_verify(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "avax_data", "dataset", "verify", str(out), *extra],
                          capture_output=True, text=True, timeout=120)


def test_verify_of_a_whole_dataset_is_ok_and_the_cli_exits_0(whole: Path) -> None:
    report = ad.verify_dataset(whole)
    source = "the network whose container 0 is " + json.loads((whole / MANIFEST).read_text())["origin"]["network"][
        "container0"]
    assert report == {"ok": True, "partitions": 4, "rows": 3_500, "source": source, "missing": [], "altered": [],
                      "partial": [], "extra": [], "other_source": [], "gaps": [], "duplicates": [], "incomplete": []}
    done = cli_verify(whole)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"dataset {whole}: 4 partitions, 3500 rows recorded, from {source}",
                                        "ok: the dataset is whole"]


def test_verify_finds_missing_altered_partial_and_extra_files(whole: Path) -> None:
    (whole / "chunk=0" / "part.parquet").unlink()
    altered = whole / "chunk=2000" / "part.parquet"
    data = bytearray(altered.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit, same size
    stat = altered.stat()
    altered.write_bytes(bytes(data))
    os.utime(altered, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even the modification time is kept
    (whole / "chunk=1000" / ".part.parquet.123-4.tmp").write_bytes(b"half")
    (whole / "chunk=3000" / "copy.parquet").write_bytes(b"extra")
    report = ad.verify_dataset(whole)
    assert report["missing"] == ["chunk=0/part.parquet"]
    assert report["altered"] == ["chunk=2000/part.parquet"]
    assert report["partial"] == ["chunk=1000/.part.parquet.123-4.tmp"]
    assert report["extra"] == ["chunk=3000/copy.parquet"]
    assert report["ok"] is False and report["gaps"] == [] and report["duplicates"] == []
    done = cli_verify(whole)
    assert done.returncode == 1
    assert done.stdout.splitlines()[1:] == ["missing: chunk=0/part.parquet", "altered: chunk=2000/part.parquet",
                                            "partial: chunk=1000/.part.parquet.123-4.tmp",
                                            "extra: chunk=3000/copy.parquet", "NOT WHOLE: 4 problem(s)"]
    as_json = cli_verify(whole, "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout) == {**report, "gaps": [], "duplicates": []}


def test_verify_finds_gaps_and_duplicates_a_manifest_records(emu: ad.Emulator, whole: Path) -> None:
    manifest = json.loads((whole / MANIFEST).read_text())
    parts = manifest["partitions"]
    # a gap: partition 1000 neither recorded nor there
    (whole / "chunk=1000" / "part.parquet").unlink()
    gap = {**manifest, "partitions": [p for p in parts if p["value"] != 1000]}
    (whole / MANIFEST).write_text(json.dumps(gap))
    report = ad.verify_dataset(whole)
    assert report["gaps"] == [(1_000, 2_000)] and not report["ok"]
    assert cli_verify(whole).stdout.splitlines()[1] == "gap: 1000..2000"
    # a duplicate: partition 3000 says it starts at 2900, inside partition 2000's span
    dup = {**gap, "partitions": [{**p, "first": 2_900} if p["value"] == 3_000 else p for p in gap["partitions"]]}
    (whole / MANIFEST).write_text(json.dumps(dup))
    report = ad.verify_dataset(whole)
    assert report["duplicates"] == [(2_900, 3_000)] and not report["ok"]
    # (and its file lacks the positions 2900..2999 it now claims)
    assert report["gaps"] == [(1_000, 2_000), (2_900, 3_000)]
    # the rerun rewrites what the manifest lacks; it does not trust a span it never wrote
    (whole / MANIFEST).write_text(json.dumps(gap))
    ad.IndexClient(emu.url).chain("X/tx").range(0).write_dataset(whole, chunk=CHUNK)
    assert ad.verify_dataset(whole)["ok"]


@pytest.mark.parametrize(("name", "text"), [
    ("non-ascii", "{\"version\": 1, \"identity\": \"\u00e9\u6f22\U0001F600\"}"),
    ("truncated", None),
    ("not json", "{version: 1,"),
    ("wrong types", None),
    ("latin-1", b"{\"version\": 1, \"x\": \"\xe9\"}"),
])
def test_an_unreadable_manifest_is_an_error_naming_the_file(whole: Path, emu: ad.Emulator, name: str,
                                                              text: str | bytes | None) -> None:
    good = (whole / MANIFEST).read_text()
    if name == "truncated":
        text = good[: len(good) // 2]
    elif name == "wrong types":
        text = good.replace('"rows": 1000', '"rows": "1000"', 1)
    path = whole / MANIFEST
    path.write_bytes(text if isinstance(text, bytes) else str(text).encode())
    for call in (lambda: ad.verify_dataset(whole),
                 lambda: ad.IndexClient(emu.url).chain("X/tx").range(0).write_dataset(whole, chunk=CHUNK)):
        with pytest.raises(ad.InvalidParameterError, match="is not a manifest") as bad:
            call()
        assert str(path) in str(bad.value) and bad.value.param == "dataset"
    done = cli_verify(whole)
    assert done.returncode == 2 and str(path) in done.stderr


def test_verify_of_no_dataset_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ad.InvalidParameterError, match="has no _avax_dataset.json"):
        ad.verify_dataset(tmp_path)
    with pytest.raises(ad.InvalidParameterError, match="an existing dataset directory"):
        ad.verify_dataset(tmp_path / "nothing")
    assert cli_verify(tmp_path / "nothing").returncode == 2


def test_a_lock_file_left_by_a_dead_writer_is_taken_over_with_a_log_line(emu: ad.Emulator, tmp_path: Path,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    tmp_path.joinpath(LOCK).write_text(json.dumps({"pid": pid, "host": socket.gethostname(),
                                                   "since": "2026-01-01T00:00:00Z"}))
    with caplog.at_level(logging.WARNING, logger="avax_data"):
        ad.reset_logging()
        done = ad.IndexClient(emu.url).chain("X/tx").range(0, 10).write_dataset(tmp_path, chunk=CHUNK)
    ad.reset_logging()
    assert done["rows_written"] == 10
    lines = [r.getMessage() for r in caplog.records if "taking over" in r.getMessage()]
    assert lines == [f"dataset {tmp_path}: taking over the lock left by pid {pid} on host {socket.gethostname()} "
                     "since 2026-01-01T00:00:00Z, which no longer holds it (the writer died)"]
