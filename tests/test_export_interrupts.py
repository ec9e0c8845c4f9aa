"""Interruptions of ``write_parquet`` and ``write_dataset`` lose nothing (issue 33, section 1).

Ctrl-C (sync) or a task cancellation (async) at random points finishes the file with every row
handed to it and leaves the walk's position right after them, so a second ``write_parquet`` of
the same walk writes exactly the rest: each variant runs in a child process of its own
(``_export_interrupts.py``: SIGINT needs the main thread, and a stray one must not hit pytest),
which checks the two files against an uninterrupted walk after each of its interruptions.

A file that cannot be finished (a file object whose ``write`` or ``flush`` raises) puts the
position back where the export began, with an ``OSError`` naming the target; an error of the
walk finishes the file with the rows before the position (the Pager's contract as the Range's).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import avax_data as ad

CHILD = Path(__file__).with_name("_export_interrupts.py")

#: Variant: (interruptions, seed). Each interruption lands at a random point (seeded, so a
#: failure is reproduced by running the child with the same arguments) within the length of an
#: uninterrupted export measured in the same process.
VARIANTS = {
    "range": (50, 1),
    "range-async": (50, 2),
    "pager": (50, 3),
    "pager-async": (50, 4),
    "range-fileobj": (20, 5),
    "range-dataset": (15, 6),
    "pager-dataset": (15, 7),
}


def run_children() -> dict[str, tuple[int, str, str]]:
    """Every variant's child, run side by side (their walks mostly wait on the emulator's
    latency; one test, so a parallel run does not start them twice): return code, stdout and
    stderr by variant."""
    procs = {
        name: subprocess.Popen([sys.executable, str(CHILD), name, str(seed), str(points)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=CHILD.parent)
        for name, (points, seed) in VARIANTS.items()
    }
    out = {}
    try:
        for name, proc in procs.items():
            stdout, stderr = proc.communicate(timeout=300)
            out[name] = (proc.returncode, stdout, stderr)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return out


def check_child(variant: str, code: int, stdout: str, stderr: str) -> str | None:
    """What is wrong with a variant's run, or None."""
    records = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    errors = [r for r in records if "error" in r]
    if code != 0 or errors:
        return f"{variant}: exit {code}, {errors or records[-3:]}\n{stderr[-3000:]}"
    points = VARIANTS[variant][0]
    if len(records) != points:
        return f"{variant}: {len(records)} points checked, not {points}"
    interrupted = [r for r in records if r["interrupted"]]
    # The class users catch: the original exception, not a wrapped one.
    expected = "CancelledError" if variant.endswith("async") else "KeyboardInterrupt"
    classes = {r.get("exception") or expected for r in interrupted}
    if classes != {expected}:
        return f"{variant}: raised {classes}, not {expected}"
    # Enough of the interruptions landed inside the walk (not before it or after it) for the
    # check to mean something: most do; the bound is loose for a loaded machine.
    inside = [r for r in interrupted if r["first_rows"] > 0 and r["second_rows"] > 0]
    if len(inside) < points // 10:
        return f"{variant}: only {len(inside)} of {points} interruptions inside the walk"
    return None


def test_an_interrupted_export_and_a_second_one_hold_the_walk_each_row_once() -> None:
    wrong = [check_child(name, *outcome) for name, outcome in run_children().items()]
    assert [w for w in wrong if w] == []


class FailingFile(io.RawIOBase):
    """A binary file object that takes the first `room` bytes, then raises on `write` (a full
    disk); or, with `fail_flush`, takes everything and raises on `flush`."""

    def __init__(self, room: int = 4, fail_flush: bool = False) -> None:
        self.room, self.fail_flush, self.data = room, fail_flush, bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if not self.fail_flush and len(self.data) + len(b) > self.room:
            raise OSError(28, "No space left on device")
        self.data += bytes(b)
        return len(b)

    def flush(self) -> None:
        if self.fail_flush and self.data:
            self.fail_flush = False  # once: the close at garbage collection flushes too
            raise OSError(5, "the disk went away")


@pytest.mark.parametrize("fail_flush", [False, True], ids=["write-raises", "flush-raises"])
def test_a_range_export_that_cannot_finish_leaves_the_position_where_it_was(tmp_path: Path, fail_flush: bool) -> None:
    with ad.Emulator(containers=400) as emu, ad.IndexClient(emu.url, cache=False) as c:
        rng = c.chain("X/tx").range(37, 237, batch_size=50)
        with pytest.raises(OSError, match="could not be finished") as failed:
            rng.write_parquet(FailingFile(fail_flush=fail_flush))
        assert failed.value.filename == "the file object"
        assert rng.next_index == 37 and failed.value.next_index == 37  # type: ignore[attr-defined]
        assert rng.write_parquet(tmp_path / "rest.parquet") == 200
    assert pl.read_parquet(tmp_path / "rest.parquet")["index"].to_list() == list(range(37, 237))


def test_a_pager_export_that_cannot_finish_leaves_the_position_where_it_was(tmp_path: Path) -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=120) as emu, \
            ad.DataClient(base_url=emu.url, cache=False) as data:
        truth = data.blocks("43114").to_polars()["blockNumber"].to_list()
        pager = data.blocks("43114", page_size=10)
        for _ in zip(range(25), pager):  # part way into the third page
            pass
        before = (pager.items_read, pager.next_page_token, pager.page_offset)
        with pytest.raises(OSError, match="could not be finished"):
            pager.write_parquet(FailingFile())
        assert (pager.items_read, pager.next_page_token, pager.page_offset) == before
        assert pager.write_parquet(tmp_path / "rest.parquet") == 95
    assert pl.read_parquet(tmp_path / "rest.parquet")["blockNumber"].to_list() == truth[25:]


def test_a_path_export_that_cannot_finish_leaves_no_file(tmp_path: Path) -> None:
    target = tmp_path / "taken.parquet"
    target.mkdir()  # a directory under the file's name, not empty: the final move fails
    (target / "keep").write_bytes(b"x")
    with ad.Emulator(containers=300) as emu, ad.IndexClient(emu.url, cache=False) as c:
        rng = c.chain("X/tx").range(0, 300, batch_size=50)
        with pytest.raises(OSError) as failed:
            rng.write_parquet(target)
        assert failed.value.filename == str(target)
        assert rng.next_index == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.parquet"], "a temporary file was left behind"


def test_a_pager_walk_error_finishes_the_file_with_the_rows_before_the_position(tmp_path: Path) -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=200) as emu:
        truth = ad.DataClient(base_url=emu.url, cache=False).blocks("43114").to_polars()["blockNumber"].to_list()
        with ad.DataClient(base_url=emu.url, cache=False, max_retries=0) as data:
            pager = data.blocks("43114", page_size=10)
            emu.set_faults({"503": 0.2}, fault_seed=3)  # seeded: the same page fails every run
            try:
                with pytest.raises(ad.ServerError) as failed:
                    pager.write_parquet(tmp_path / "a.parquet")
            finally:
                emu.set_faults(None)
            head = pl.read_parquet(tmp_path / "a.parquet")["blockNumber"].to_list()
            assert 0 < len(head) < 200, "the fault did not land inside the walk: pick another seed"
            assert failed.value.items_read == pager.items_read == len(head)  # type: ignore[attr-defined]
            assert pager.write_parquet(tmp_path / "b.parquet") == 200 - len(head)
    assert head + pl.read_parquet(tmp_path / "b.parquet")["blockNumber"].to_list() == truth
