"""The command line's exports are as durable as datasets: each part file and each appended chunk
is on disk (fsync; for a renamed file, its directory too) before the checkpoint records it, and
the final file before the checkpoint and the parts are removed. The checkpoint records the
sha256 of what it wrote and where the rows come from: a resume refuses an output zero-filled by a
power loss, and an export resumed against another source."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad
import avax_data.cli.export as export_module
import avax_data.cli.sinks as sinks_module
from _cli import cli, one_error_line

FAILING = ["index", "range", "--batch-size", "100", "--concurrency", "1", "--chunk-rows", "100", "--max-retries", "0"]


def state_of(out: Path) -> dict[str, Any]:
    return json.loads(Path(str(out) + ".avax-state.json").read_text())


def interrupted(capsys: pytest.CaptureFixture[str], out: Path, seed: int = 0) -> None:
    """An export of 1,000 containers to ``out`` that a 503 stops after some chunks."""
    with ad.Emulator(containers=1000, seed=seed, faults={"503": 0.15}, fault_seed=4) as emu:
        assert cli(capsys, *FAILING, "--url", emu.url, "-o", str(out), "-q").code == 3
    assert 0 < state_of(out)["rows_written"] < 1000


class Recorder:
    """Records, in order, the fsyncs and renames of the sinks and the checkpoint's calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
        self.events: list[tuple[str, str]] = []
        self.root = root
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd: int) -> None:
            target = Path(os.readlink(f"/proc/self/fd/{fd}"))
            kind = "fsync-dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync"
            self.events.append((kind, self.name(target)))
            real_fsync(fd)

        def replace(src: Any, dst: Any) -> None:
            self.events.append(("replace", f"{self.name(Path(src))} -> {self.name(Path(dst))}"))
            real_replace(src, dst)

        real_checkpoint = export_module._ExportCheckpoint
        recorder = self

        class Checkpoint:
            def __init__(self, *args: Any) -> None:
                self._inner = real_checkpoint(*args)

            def __getattr__(self, name: str) -> Any:
                value = getattr(self._inner, name)
                if name in ("add_part", "add_bytes", "finish") and callable(value):
                    def call(*args: Any) -> Any:
                        recorder.events.append((name, ""))
                        return value(*args)
                    return call
                return value

        real_rmtree = sinks_module.shutil.rmtree

        def rmtree(path: Any, *args: Any, **kwargs: Any) -> None:
            self.events.append(("rmtree", self.name(Path(path))))
            real_rmtree(path, *args, **kwargs)

        monkeypatch.setattr(sinks_module.os, "fsync", fsync)
        monkeypatch.setattr(sinks_module.os, "replace", replace)
        monkeypatch.setattr(sinks_module.shutil, "rmtree", rmtree)
        monkeypatch.setattr(export_module, "_ExportCheckpoint", Checkpoint)

    def name(self, path: Path) -> str:
        path = path.resolve()
        return "." if path == self.root.resolve() else str(path.relative_to(self.root.resolve()))


def recorded_export(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, out: Path) -> Recorder:
    """An export of 250 containers to ``out`` in three chunks, its file operations recorded."""
    with ad.Emulator(containers=250) as emu:
        recorder = Recorder(monkeypatch, out.parent)
        res = cli(capsys, "index", "range", "--url", emu.url, "--count", "250", "--batch-size", "50",
                  "--chunk-rows", "100", "-o", str(out), "-q")
    assert res.code == 0, res.err
    return recorder


def test_parquet_parts_and_the_final_file_are_on_disk_before_they_are_recorded_or_removed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "x.parquet"
    recorder = recorded_export(capsys, monkeypatch, out)
    events = [e for e in recorder.events if e[0] != "rmtree" or e[1] == "x.parquet.parts"]
    part = [("fsync", "x.parquet.parts/next-part.parquet.tmp")]
    expected = [("rmtree", "x.parquet.parts"), ("fsync-dir", "."), *[
        event for n in range(3) for event in [
            *part,
            ("replace", f"x.parquet.parts/next-part.parquet.tmp -> x.parquet.parts/part-00000{n}.parquet"),
            ("fsync-dir", "x.parquet.parts"),
            ("add_part", ""),
        ]
    ], ("fsync", "x.parquet.tmp"), ("replace", "x.parquet.tmp -> x.parquet"), ("fsync-dir", "."),
        ("finish", ""), ("rmtree", "x.parquet.parts")]
    assert events == expected
    assert pl.read_parquet(out)["index"].to_list() == list(range(250))


def test_appended_chunks_are_on_disk_before_they_are_recorded(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = recorded_export(capsys, monkeypatch, tmp_path / "x.csv")
    assert recorder.events == [("fsync-dir", "."), *[("fsync", "x.csv"), ("add_bytes", "")] * 3, ("finish", "")]


@pytest.mark.parametrize("damage", ["zeros appended", "tail zeroed"])
def test_a_csv_zero_filled_by_a_power_loss_is_refused_not_resumed_over(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path, damage: str) -> None:
    out = tmp_path / "x.csv"
    interrupted(capsys, out)
    recorded = state_of(out)["output"]["bytes"]
    written = out.read_bytes()[:recorded]
    if damage == "zeros appended":
        out.write_bytes(written + b"\0" * 4096)
        why = f"4096 zero byte(s) lie past the {recorded} bytes recorded"
    else:
        out.write_bytes(written[:-100] + b"\0" * 100)
        why = f"its first {recorded} bytes are not those the checkpoint recorded"
    damaged = out.read_bytes()
    with ad.Emulator(containers=1000) as emu:
        res = cli(capsys, *FAILING, "--url", emu.url, "-o", str(out), "--resume")
    line = one_error_line(res.err)
    assert res.code == 2 and why in line and "start the export over" in line, line
    assert out.read_bytes() == damaged, "neither truncated nor resumed over"
    verify = cli(capsys, "dataset", "verify", str(out))
    assert verify.code == 1 and why in verify.out, verify.out


def test_an_export_resumed_against_another_network_is_refused_naming_both(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    out = tmp_path / "x.csv"
    interrupted(capsys, out, seed=1)
    source = state_of(out)["request"]["source"]["network"]["container0"]
    with ad.Emulator(containers=1000, seed=2) as other:
        res = cli(capsys, *FAILING, "--url", other.url, "-o", str(out), "--resume")
        there = ad.IndexClient(other.url).chain("X/tx").container(0)["id"]
    line = one_error_line(res.err)
    assert res.code == 2 and "belongs to another export" in line, line
    assert (f"the source: the network whose container 0 is {source} there, the network whose container 0 is "
            f"{there} here") in line, line
    with ad.Emulator(containers=1000, seed=1) as same:
        assert cli(capsys, *FAILING, "--url", same.url, "-o", str(out), "--resume", "-q").code == 0
    assert len(out.read_text().splitlines()) == 1001


def test_a_data_export_resumed_against_another_service_is_refused(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "b.ndjson"
    args = ["data", "blocks", "43114", "--page-size", "20", "--limit", "200", "--chunk-rows", "50",
            "--max-retries", "0", "-o", str(out), "-q"]
    with ad.Emulator(data_blocks_per_chain=500, faults={"503": 0.1}, fault_seed=4) as flaky:
        assert cli(capsys, *args, "--url", flaky.url).code == 3
        first = flaky.url
    state = state_of(out)
    assert state["request"]["source"] == {"service": {"base_url": first}}
    state["request"]["source"] = {"service": {"base_url": "https://data-api.example"}}  # as if written from there
    Path(str(out) + ".avax-state.json").write_text(json.dumps(state))
    with ad.Emulator(data_blocks_per_chain=500) as local:
        res = cli(capsys, *args, "--url", local.url, "--resume")
    line = one_error_line(res.err)
    assert res.code == 2, line
    assert f"the service at https://data-api.example there, the service at {local.url} here" in line, line
