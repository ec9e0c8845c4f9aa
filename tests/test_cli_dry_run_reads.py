"""``--dry-run`` counts every request the export then sends: the tip a fresh export reads, the
chain's identity (container 0) recorded as the export's source, and the walk, with or without a
cache (cold and warm), fresh and resumed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import avax_data as ad
from _cli import cli


def _export(capsys: pytest.CaptureFixture[str], emu: ad.Emulator, out: Path, *extra: str) -> tuple[int, int]:
    """The plan's requests (``--dry-run --json``) and the requests the export then sent."""
    args = ["index", "range", "--chain", "X/block", "--url", emu.url, "--start", "0", "--count", "500",
            "--batch-size", "100", "-o", str(out), "-q", *extra]
    before = emu.request_count()
    res = cli(capsys, *args, "--dry-run", "--json")
    assert res.code == 0 and emu.request_count() == before, res.err
    planned = json.loads(res.out)["requests"]
    before = emu.request_count()
    assert cli(capsys, *args).code == 0
    return planned, emu.request_count() - before


@pytest.mark.parametrize("cache", ["none", "cold", "warm"])
def test_the_plan_counts_the_tip_and_the_identity_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch, cache: str) -> None:
    with ad.Emulator(containers=1000) as emu:
        if cache == "none":
            monkeypatch.delenv("AVAX_DATA_CACHE", raising=False)
        else:
            monkeypatch.setenv("AVAX_DATA_CACHE", str(tmp_path / "cache"))
        if cache == "warm":
            _export(capsys, emu, tmp_path / "first.parquet")
        planned, sent = _export(capsys, emu, tmp_path / "x.parquet")
        assert planned == sent, (cache, planned, sent)


def test_a_resumed_export_plans_what_it_sends(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AVAX_DATA_CACHE", raising=False)
    out = tmp_path / "part.ndjson"
    args = ["index", "range", "--count", "1000", "--batch-size", "100", "--concurrency", "1", "--chunk-rows", "100",
            "--max-retries", "0", "-o", str(out)]
    with ad.Emulator(containers=1000, faults={"503": 0.15}, fault_seed=4) as flaky:
        assert cli(capsys, *args, "--url", flaky.url).code == 3
        flaky.set_faults(None)
        res = cli(capsys, *args, "--url", flaky.url, "--resume", "--dry-run", "--json")
        assert res.code == 0, res.err
        planned = json.loads(res.out)["requests"]
        before = flaky.request_count()
        assert cli(capsys, *args, "--url", flaky.url, "--resume", "-q").code == 0
        assert planned == flaky.request_count() - before
