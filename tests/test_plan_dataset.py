"""The plan of a dataset write counts out exactly what each partition of the existing dataset
holds: a missing, partial or altered partition is planned (and then fetched) whole, the others
not at all; checked against the emulator's request log."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import avax_data as ad
from _cli import cli


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=1_000, data_blocks_per_chain=10) as emulator:
        yield emulator


def sent(emu: ad.Emulator, run) -> int:
    """Index calls of X/tx that `run` sends."""
    before = len(emu.request_log())
    run()
    return sum(1 for _, path in emu.request_log()[before:] if path.startswith("/ext/index/X/tx"))


def test_a_missing_middle_partition_plans_exactly_its_requests(emu: ad.Emulator, tmp_path: Path) -> None:
    xtx = ad.IndexClient(emu.url).chain("X/tx")
    ds = tmp_path / "ds"
    summary = xtx.range(0, 500, batch_size=30).write_dataset(ds, chunk=100)
    assert summary["partitions_written"] == 5
    shutil.rmtree(ds / "chunk=200")
    rng = xtx.range(0, 500, batch_size=30)
    before = len(emu.request_log())
    plan = rng.plan(dataset=ds, chunk=100)
    assert len(emu.request_log()) == before, "a plan sends nothing"
    assert (plan.held, plan.items, plan.requests, plan.requests_kind) == (400, 100, 4, "exact")
    assert (plan.compute_units, plan.metered) == (0, False)  # a node of your own is unmetered
    calls = sent(emu, lambda: rng.write_dataset(ds, chunk=100))
    assert calls == plan.requests
    # Whole now: a rerun plans (and sends) nothing.
    again = xtx.range(0, 500, batch_size=30)
    assert (again.plan(dataset=ds, chunk=100).requests, again.plan(dataset=ds, chunk=100).held) == (0, 500)
    assert sent(emu, lambda: again.write_dataset(ds, chunk=100)) == 0


def test_partial_and_altered_partitions_are_planned_whole(emu: ad.Emulator, tmp_path: Path) -> None:
    xtx = ad.IndexClient(emu.url).chain("X/tx")
    ds = tmp_path / "ds"
    xtx.range(0, 350, batch_size=40).write_dataset(ds, chunk=100)  # the last partition holds 300..350
    part = ds / "chunk=100" / "part.parquet"
    part.write_bytes(part.read_bytes() + b"x")  # altered: a rerun writes it again
    rng = xtx.range(0, 420, batch_size=40)
    plan = rng.plan(dataset=ds, chunk=100)
    # Partitions 100 (altered: 3 calls) and 300..400 (partial: 3 calls), 400..420 (new: 1 call).
    assert (plan.held, plan.items, plan.requests) == (200, 220, 7)
    assert sent(emu, lambda: rng.write_dataset(ds, chunk=100)) == 7


def test_a_dataset_of_another_walk_and_bad_arguments_are_refused(emu: ad.Emulator, tmp_path: Path) -> None:
    xtx = ad.IndexClient(emu.url).chain("X/tx")
    ds = tmp_path / "ds"
    xtx.range(0, 100).write_dataset(ds, chunk=50)
    with pytest.raises(ValueError, match="same walk"):
        xtx.range(0, 100).plan(dataset=ds, chunk=100)
    with pytest.raises(ValueError, match=r"chunk.*0"):
        xtx.range(0, 100).plan(dataset=ds, chunk=0)
    with pytest.raises(ValueError, match="chunk.*without dataset"):
        xtx.range(0, 100).plan(chunk=100)
    with pytest.raises(ValueError, match="dataset"):
        xtx.range(0, 100).plan(dataset=3)
    fresh = xtx.range(0, 250, batch_size=100).plan(dataset=tmp_path / "none", chunk=100)
    assert (fresh.held, fresh.requests) == (0, 3) and not (tmp_path / "none").exists()


def test_dry_run_of_a_dataset_write_with_a_gap(capsys, emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "x_tx"
    base = ["index", "range", "--chain", "X/tx", "--url", emu.url, "--start", "0", "--batch-size", "25",
            "--chunk", "100", "--dataset", str(ds)]
    assert cli(capsys, *base, "--count", "400", "-q").code == 0
    shutil.rmtree(ds / "chunk=100")
    before = len(emu.request_log())
    res = cli(capsys, *base, "--count", "400", "--dry-run", "--json")
    assert res.code == 0 and len(emu.request_log()) == before, res.err
    plan = json.loads(res.out)
    # the gap's 4 calls, and the read of container 0 that checks the dataset's network (a new client)
    assert (plan["held"], plan["items"], plan["requests"]) == (300, 100, 5)
    # The command checks the range against the tip first (one call), then container 0 and the gap.
    assert sent(emu, lambda: cli(capsys, *base, "--count", "400", "-q")) == 1 + 5
