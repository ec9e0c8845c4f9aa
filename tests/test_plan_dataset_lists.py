"""The plan of a Data API list written as a dataset (``pager.plan(dataset=, chunk=)``, ``data
blocks|vertices --dataset DIR --dry-run``) partition by partition: a list has no range filter,
so a rerun reads from the head down and stops at the first whole partition below which the
dataset is whole. Checked against the emulator's request log of the write that follows."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

import avax_data as ad
from _cli import cli
from test_plan import walk_log as logged, within


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    with ad.Emulator(containers=10, data_blocks_per_chain=500) as emulator:
        yield emulator


def blocks(emu: ad.Emulator, ds: Path, chunk: int = 100) -> ad.DataClient:
    data = ad.DataClient(base_url=emu.url)
    assert data.blocks("43114", page_size=10).write_dataset(ds, chunk=chunk)["rows_written"] == 500
    return data


def test_a_missing_middle_partition_costs_the_pages_down_to_it(emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "blocks"
    data = blocks(emu, ds)
    shutil.rmtree(ds / "block=200")
    pager = data.blocks("43114", page_size=10)
    before = len(emu.request_log())
    plan = pager.plan(dataset=ds, chunk=100)
    assert len(emu.request_log()) == before, "a plan sends nothing"
    # Blocks 499..200 are read again (the whole partitions above the hole are passed, not
    # rewritten), then block 199 of partition 100, below which all is whole: 301 items, 31 pages.
    assert (plan.requests, plan.requests_kind, plan.items, plan.held) == (31, "at least", 301, 200)
    assert plan.compute_units == 31 * plan.units_per_request == 310
    done: list[dict[str, int]] = []
    requests, units = logged(emu, lambda: done.append(pager.write_dataset(ds, chunk=100)))
    assert (requests, units) == (plan.requests, plan.compute_units)
    assert done[0] == {"partitions_written": 1, "partitions_skipped": 4, "rows_written": 100, "rows_skipped": 400}
    # Whole now: the rerun reads the head page only (to see what is new) and stops.
    again = data.blocks("43114", page_size=10)
    whole = again.plan(dataset=ds, chunk=100)
    assert (whole.requests, whole.items, whole.held) == (1, 1, 500)
    assert logged(emu, lambda: again.write_dataset(ds, chunk=100)) == (1, whole.compute_units)


def test_partial_and_altered_partitions_are_read_through(emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "blocks200"
    data = blocks(emu, ds, chunk=200)  # 0..199, 200..399 whole; 400..499 partial (new blocks may come)
    pager = data.blocks("43114", page_size=10)
    plan = pager.plan(dataset=ds, chunk=200)
    assert (plan.requests, plan.items, plan.held) == (11, 101, 400)
    assert logged(emu, lambda: pager.write_dataset(ds, chunk=200))[0] == plan.requests

    ds = tmp_path / "altered"
    data = blocks(emu, ds)
    part = ds / "block=300" / "part.parquet"
    part.write_bytes(part.read_bytes() + b"x")  # altered: the rerun writes it again
    pager = data.blocks("43114", page_size=25)
    plan = pager.plan(dataset=ds, chunk=100)
    assert (plan.requests, plan.items, plan.held) == (math.ceil(201 / 25), 201, 300)
    requests, units = logged(emu, lambda: pager.write_dataset(ds, chunk=100))
    assert within(plan.requests, requests) and within(plan.compute_units, units), (plan, requests)
    # A limit shorter than the reach: exactly the limit's pages.
    assert data.blocks("43114", page_size=10, limit=35).plan(dataset=tmp_path / "blocks200", chunk=200).requests == 4


def test_a_month_keyed_list_plans_from_its_manifest(emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "vertices"
    data = ad.DataClient(base_url=emu.url)
    data.vertices("mainnet", page_size=20).write_dataset(ds)
    [month] = json.loads((ds / "_avax_dataset.json").read_text())["partitions"]  # the world's last month
    assert month["complete"] and month["rows"] > 40
    # Whole (it ended over a day before the walk): the rerun reads the head page and stops.
    pager = data.vertices("mainnet", page_size=20)
    plan = pager.plan(dataset=ds)
    assert (plan.requests, plan.requests_kind, plan.items, plan.held) == (1, "at least", 1, month["rows"])
    assert logged(emu, lambda: pager.write_dataset(ds))[0] == 1
    # Its file altered: no whole partition to stop at, so the rerun reads the list to its
    # recorded end, every row the manifest counts.
    part = ds / month["file"]
    part.write_bytes(part.read_bytes() + b"x")
    pager = data.vertices("mainnet", page_size=20)
    plan = pager.plan(dataset=ds)
    assert (plan.items, plan.held, plan.requests) == (month["rows"], 0, math.ceil(month["rows"] / 20))
    requests, units = logged(emu, lambda: pager.write_dataset(ds))
    assert within(plan.requests, requests) and within(plan.compute_units, units), (plan, requests)


def test_bad_parameters_and_another_walk_are_refused_before_any_request(emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "blocks"
    data = ad.DataClient(base_url=emu.url)
    data.blocks("43114", limit=100).write_dataset(ds, chunk=50)
    before = len(emu.request_log())
    with pytest.raises(ValueError, match="same walk"):
        data.blocks("43114").plan(dataset=ds, chunk=100)
    with pytest.raises(ValueError, match=r"chunk.*0"):
        data.blocks("43114").plan(dataset=ds, chunk=0)
    with pytest.raises(ValueError, match="chunk.*without dataset"):
        data.blocks("43114").plan(chunk=100)
    with pytest.raises(ValueError, match="dataset"):
        data.blocks("43114").plan(dataset=3)
    with pytest.raises(ValueError, match="chunk.*month"):
        data.vertices("mainnet").plan(dataset=tmp_path / "v", chunk=100)
    with pytest.raises(ValueError, match="resource"):
        data.icm_messages().plan(dataset=tmp_path / "r")
    fresh = data.blocks("43114", page_size=10, limit=50).plan(dataset=tmp_path / "none", chunk=100)
    assert (fresh.held, fresh.requests, fresh.requests_kind) == (0, 5, "at most")
    assert not (tmp_path / "none").exists() and not (tmp_path / "v").exists()
    assert len(emu.request_log()) == before


def test_dry_run_of_a_block_dataset_with_a_hole(capsys, emu: ad.Emulator, tmp_path: Path) -> None:
    ds = tmp_path / "blocks"
    blocks(emu, ds)
    shutil.rmtree(ds / "block=300")
    base = ["data", "blocks", "43114", "--url", emu.url, "--page-size", "10", "--chunk", "100", "--dataset", str(ds)]
    before = len(emu.request_log())
    res = cli(capsys, *base, "--dry-run", "--json")
    assert res.code == 0 and len(emu.request_log()) == before, res.err
    plan = json.loads(res.out)
    assert (plan["requests"], plan["requests_kind"], plan["items"], plan["held"]) == (21, "at least", 201, 300)
    assert logged(emu, lambda: cli(capsys, *base, "-q"))[0] == plan["requests"]
