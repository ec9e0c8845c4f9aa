"""A child process of ``test_export_interrupts.py``: interrupts ``write_parquet`` of one kind of
walk at random points (seeded) and checks after each that nothing was lost.

``python _export_interrupts.py VARIANT SEED POINTS`` with VARIANT one of ``range``,
``range-async``, ``pager``, ``pager-async``, ``range-fileobj``, ``range-dataset``,
``pager-dataset`` (``write_dataset`` interrupted, then run again into the same directory). Each point: a fresh walk, an
interruption (SIGINT from a timer thread, or ``task.cancel()``) after a random delay within the
length of an uninterrupted export, then a second ``write_parquet`` of the same walk to another
file. The two files together must hold the uninterrupted walk, each row once, in order. Prints
one JSON line per point; exits non-zero at the first point that breaks the rule.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import polars as pl

import avax_data as ad

CONTAINERS = 400  # X/tx containers of a range walk (16 calls of 25)
BLOCKS = 160  # Data API blocks of a pager walk (16 pages of 10)
DATASET_CHUNK = 40  # indices or block numbers a dataset partition
LATENCY = 0.002  # the emulator's answer delay: each call of a walk takes a few ms

warnings.simplefilter("ignore")  # an exhausted walk's warning: not what this checks


class Armed:
    """SIGINT raises KeyboardInterrupt only while armed: a signal that lands after the export
    returned (the timer raced it) is counted and ignored, so it cannot hit the checks."""

    def __init__(self) -> None:
        self.armed = False
        self.late = 0
        signal.signal(signal.SIGINT, self.handler)

    def handler(self, signum: int, frame: Any) -> None:
        if self.armed:
            raise KeyboardInterrupt
        self.late += 1


def key_of(variant: str) -> str:
    return "blockNumber" if variant.startswith("pager") else "index"


def rows(source: Path | bytes | None, key: str) -> list[int]:
    """The keys of the rows a file holds; none for no file, or for a file object written nothing
    (a signal that landed before the export began, which the caller checks by the position)."""
    if source is None or source == b"":
        return []
    data = io.BytesIO(source) if isinstance(source, bytes) else source
    return [int(v) for v in pl.read_parquet(data)[key].to_list()]


def readable(data: bytes) -> bool:
    try:
        pl.read_parquet(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - any failure to read is the answer
        return False
    return True


def sync_walk(variant: str, emu: ad.Emulator) -> Any:
    if variant.startswith("pager"):
        return ad.DataClient(base_url=emu.url, cache=False).blocks("43114", page_size=10)
    return ad.IndexClient(emu.url, concurrency=1, cache=False).chain("X/tx").range(0, CONTAINERS, batch_size=25)


def async_walk(variant: str, emu: ad.Emulator) -> Any:
    if variant.startswith("pager"):
        return ad.AsyncDataClient(base_url=emu.url, cache=False).blocks("43114", page_size=10)
    return ad.AsyncIndexClient(emu.url, concurrency=1, cache=False).chain("X/tx").range(0, CONTAINERS, batch_size=25)


def position(walk: Any) -> int:
    return walk.items_read if hasattr(walk, "items_read") else walk.next_index


def interrupt_sync(variant: str, emu: ad.Emulator, armed: Armed, delay: float, first: Path) -> dict[str, Any]:
    """Ctrl-C `delay` s into `write_parquet(first)`: what the export left."""
    walk = sync_walk(variant, emu)
    fileobj = variant.endswith("fileobj")
    target: Any = io.BytesIO() if fileobj else first
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    outcome: dict[str, Any] = {"interrupted": False}
    armed.armed = True
    try:
        timer.start()  # inside: an early signal may land here, before the export began
        walk.write_parquet(target)
    except KeyboardInterrupt as e:
        armed.armed = False
        outcome.update(interrupted=True, exception=type(e).__name__, at=getattr(e, "next_index", None)
                       if not variant.startswith("pager") else getattr(e, "items_read", None))
        # The file is finished before the exception is raised.
        outcome["file_then"] = readable(target.getvalue()) if fileobj else first.exists()
    finally:
        armed.armed = False
        timer.cancel()
        timer.join()
    outcome["position"] = position(walk)
    outcome["held"] = target.getvalue() if fileobj else (first if first.exists() else None)
    outcome["walk"] = walk
    return outcome


def interrupt_async(variant: str, emu: ad.Emulator, delay: float, first: Path, second: Path) -> dict[str, Any]:
    """`task.cancel()` `delay` s into `write_parquet(first)`, then `write_parquet(second)`."""

    async def run() -> dict[str, Any]:
        walk = async_walk(variant, emu)
        started = asyncio.Event()

        async def export() -> int:
            started.set()
            return await walk.write_parquet(first)

        task = asyncio.create_task(export())
        await asyncio.sleep(delay)
        task.cancel()
        outcome: dict[str, Any] = {"interrupted": False}
        try:
            await task
        except asyncio.CancelledError as e:
            outcome.update(interrupted=True, exception=type(e).__name__)
        # Waits for the cancelled export to finish its file, then writes the rest.
        await walk.write_parquet(second)
        outcome["started"] = started.is_set()
        outcome["position"] = position(walk)
        return outcome

    outcome = asyncio.run(run())
    outcome["held"] = first if first.exists() else None
    return outcome


def dataset_rows(directory: Path, key: str) -> list[int]:
    parts = sorted(directory.glob("**/*.parquet"))
    return [int(v) for part in parts for v in pl.read_parquet(part)[key].to_list()]


def interrupt_dataset(variant: str, emu: ad.Emulator, armed: Armed, delay: float, directory: Path) -> dict[str, Any]:
    """Ctrl-C `delay` s into `write_dataset(directory)`, then `write_dataset(directory)` again
    from the same walk: what the dataset held after the interruption and at the end."""
    walk = sync_walk(variant, emu)
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    outcome: dict[str, Any] = {"interrupted": False}
    armed.armed = True
    try:
        timer.start()
        walk.write_dataset(directory, chunk=DATASET_CHUNK)
    except KeyboardInterrupt as e:
        armed.armed = False
        outcome.update(interrupted=True, exception=type(e).__name__)
    finally:
        armed.armed = False
        timer.cancel()
        timer.join()
    outcome["position"] = position(walk)
    outcome["held_then"] = dataset_rows(directory, key_of(variant))
    walk.write_dataset(directory, chunk=DATASET_CHUNK)
    return outcome


def follow_load(span: float, began: float) -> float:
    """The length of a whole export, following the machine's load: the two exports of a point
    since `began` together walk the whole list once."""
    return (span + time.monotonic() - began) / 2


def main() -> int:
    variant, seed, points = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    key = key_of(variant)
    draw = random.Random(seed)
    with ad.Emulator(containers=CONTAINERS, data_blocks_per_chain=BLOCKS, latency=LATENCY) as emu, \
            tempfile.TemporaryDirectory() as tmp:
        whole = Path(tmp) / "whole.parquet"
        began = time.monotonic()
        if variant.endswith("dataset"):
            sync_walk(variant, emu).write_dataset(Path(tmp) / "whole", chunk=DATASET_CHUNK)
        elif variant.endswith("async"):
            async def uninterrupted() -> None:
                await async_walk(variant, emu).write_parquet(whole)

            asyncio.run(uninterrupted())
        else:
            sync_walk(variant, emu).write_parquet(whole)
        # The interruptions fall within the length of an uninterrupted export of the same kind.
        span = time.monotonic() - began
        expected = dataset_rows(Path(tmp) / "whole", key) if variant.endswith("dataset") else rows(whole, key)
        assert len(expected) == (BLOCKS if key == "blockNumber" else CONTAINERS), len(expected)
        armed = Armed()
        for point in range(points):
            delay = draw.uniform(0, span)
            began = time.monotonic()
            first, second = Path(tmp) / f"a{point}.parquet", Path(tmp) / f"b{point}.parquet"
            if variant.endswith("dataset"):
                directory = Path(tmp) / f"d{point}"
                outcome = interrupt_dataset(variant, emu, armed, delay, directory)
                span = follow_load(span, began)
                held, final = sorted(outcome["held_then"]), sorted(dataset_rows(directory, key))
                record = {"point": point, "delay": round(delay, 4), "interrupted": outcome["interrupted"],
                          "first_rows": len(held), "second_rows": len(final) - len(held),
                          "position": outcome["position"]}
                print(json.dumps(record), flush=True)
                if final != sorted(expected) or len(set(held)) != len(held) or not set(held) <= set(final):
                    print(json.dumps({"point": point, "error": "the dataset is not the walk, each row once"}))
                    return 1
                if outcome["position"] != len(held):
                    print(json.dumps({"point": point, "error": f"the position is {outcome['position']}, "
                                                                f"the dataset holds {len(held)} rows"}))
                    return 1
                continue
            if variant.endswith("async"):
                outcome = interrupt_async(variant, emu, delay, first, second)
                span = follow_load(span, began)
                if outcome["started"] and outcome["held"] is None:
                    print(json.dumps({"point": point, "error": "the cancelled export left no file"}))
                    return 1
            else:
                outcome = interrupt_sync(variant, emu, armed, delay, first)
                # No file is right only for a signal that landed before the export began.
                if outcome["interrupted"] and not outcome["file_then"] and position(outcome["walk"]) > 0:
                    print(json.dumps({"point": point, "error": "KeyboardInterrupt came before the file was finished"}))
                    return 1
                walk = outcome.pop("walk")
                walk.write_parquet(second)
                span = follow_load(span, began)
            head = rows(outcome["held"], key)
            tail = rows(second, key)
            record = {"point": point, "delay": round(delay, 4), "interrupted": outcome["interrupted"],
                      "exception": outcome.get("exception"), "at": outcome.get("at"), "first_rows": len(head),
                      "second_rows": len(tail), "position": outcome["position"]}
            print(json.dumps(record), flush=True)
            if head + tail != expected:
                print(json.dumps({"point": point, "error": "the two files are not the walk",
                                  "head": head[:3] + head[-3:], "tail": tail[:3] + tail[-3:]}))
                return 1
            settled = len(expected) if variant.endswith("async") else len(head)
            if outcome["position"] != settled:
                print(json.dumps({"point": point, "error": f"the position is {outcome['position']}, not {settled}"}))
                return 1
            if outcome.get("at") is not None and outcome["at"] != len(head):
                print(json.dumps({"point": point, "error": "the exception's position is not where the file ends"}))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
