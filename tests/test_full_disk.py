"""A real full disk (``ENOSPC`` from the kernel, not a simulated writer): an export that cannot
finish its file raises ``OSError`` with ``errno.ENOSPC``, keeps no partial file, and leaves the
walk's position where the call began, so the same walk written elsewhere is whole.

Two disks: ``/dev/full`` as a file object (every Linux), and a 256 KiB tmpfs mounted for the test
(when this process may mount one: root in a container; skipped otherwise).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _helpers import tiny_tmpfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/full and tmpfs")

ROWS = 3_000


@pytest.fixture(scope="module")
def world() -> Iterator[ad.Emulator]:
    with ad.Emulator(seed=5, containers=ROWS, data_blocks_per_chain=ROWS) as emu:
        yield emu


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    with tiny_tmpfs(tmp_path / "tiny") as mount:
        yield mount


def _walks(emu: ad.Emulator) -> dict[str, tuple[object, str, str]]:
    """name: (walk, its position attribute, its key column)."""
    return {
        "range": (ad.IndexClient(emu.url).chain("X/tx").range(0, ROWS, batch_size=500), "next_index", "index"),
        "pager": (ad.DataClient(base_url=emu.url, cache=False).blocks("43114", page_size=100), "items_read",
                  "blockNumber"),
    }


def _assert_whole_elsewhere(walk: object, key: str, out: Path, truth: list[int]) -> None:
    walk.write_parquet(out)  # type: ignore[attr-defined]
    assert pl.read_parquet(out)[key].cast(pl.Int64).to_list() == truth


@pytest.mark.parametrize("name", ["range", "pager"])
def test_a_file_object_on_dev_full(world: ad.Emulator, tmp_path: Path, name: str) -> None:
    walk, position, key = _walks(world)[name]
    truth = walk.restart().to_polars()[key].cast(pl.Int64).to_list()  # type: ignore[attr-defined]
    with open("/dev/full", "wb", buffering=0) as full, pytest.raises(OSError) as failed:
        walk.write_parquet(full)  # type: ignore[attr-defined]
    assert failed.value.errno == errno.ENOSPC, failed.value
    assert failed.value.filename == "the file object"
    assert "not a whole Parquet file" in str(failed.value)
    assert getattr(walk, position) == 0, "the position stays where the call began"
    _assert_whole_elsewhere(walk, key, tmp_path / "whole.parquet", truth)


@pytest.mark.parametrize("name", ["range", "pager"])
def test_a_path_on_a_full_tmpfs(world: ad.Emulator, tmp_path: Path, tiny_disk: Path, name: str) -> None:
    walk, position, key = _walks(world)[name]
    truth = walk.restart().to_polars()[key].cast(pl.Int64).to_list()  # type: ignore[attr-defined]
    target = tiny_disk / "walk.parquet"
    with pytest.raises(OSError) as failed:
        walk.write_parquet(target)  # type: ignore[attr-defined]
    assert failed.value.errno == errno.ENOSPC, failed.value
    assert failed.value.filename == str(target)
    assert os.listdir(tiny_disk) == [], "no partial file left, under any name"
    assert getattr(walk, position) == 0
    _assert_whole_elsewhere(walk, key, tmp_path / "whole.parquet", truth)
