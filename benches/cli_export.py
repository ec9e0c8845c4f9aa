"""Benchmark: what the command line's export adds to a walk, and what its progress line costs.

Walks the same X/tx range of an in-process emulator with ``Range.write_parquet`` (the library,
one streamed file) and with ``avax-data index range`` run in this process: Parquet (part files
per chunk, then combined), the same with the progress line drawn on a (fake) terminal, CSV and
NDJSON. Interleaved rounds; reports the median CPU time of each (the emulator's included) and the
ratio to ``write_parquet``.

    python benches/cli_export.py [--containers 100000] [--rounds 3]
"""

from __future__ import annotations

import contextlib
import io
import statistics
import tempfile
import time
from pathlib import Path

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script
from avax_data.cli import main as cli


class FakeTerminal(io.StringIO):
    """stderr that says it is a terminal, so the progress line is drawn (into memory)."""

    def isatty(self) -> bool:
        return True


def library(url: str, out: Path) -> float:
    with ad.IndexClient(url) as node:
        t = time.process_time()
        node.chain("X/tx").range(0).write_parquet(out)
        return time.process_time() - t


def command(url: str, out: Path, *, progress: bool) -> float:
    stderr = FakeTerminal() if progress else io.StringIO()
    t = time.process_time()
    with contextlib.redirect_stderr(stderr):
        code = cli(["index", "range", "--url", url, "-o", str(out)] + ([] if progress else ["-q"]))
    elapsed = time.process_time() - t
    assert code == 0, stderr.getvalue()
    if progress:
        assert "rows/s" in stderr.getvalue()
    return elapsed


def main() -> None:
    args = options(containers=100_000, rounds=3)
    runs = {
        "Range.write_parquet": lambda url, d: library(url, d / "lib.parquet"),
        "avax-data parquet": lambda url, d: command(url, d / "a.parquet", progress=False),
        "avax-data parquet + progress": lambda url, d: command(url, d / "b.parquet", progress=True),
        "avax-data csv": lambda url, d: command(url, d / "c.csv", progress=False),
        "avax-data ndjson": lambda url, d: command(url, d / "d.ndjson", progress=False),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    with ad.Emulator(containers=args.containers) as emu, tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, run in runs.items():
                times[name].append(run(emu.url, Path(tmp)))
    base = statistics.median(times["Range.write_parquet"])
    print(f"X/tx range of {args.containers:,} containers, median of {args.rounds} rounds "
          "(CPU seconds, the in-process emulator included)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:30s} {median:6.3f} s  {median / base:5.2f}x")
    shown = statistics.median(times["avax-data parquet + progress"])
    hidden = statistics.median(times["avax-data parquet"])
    print(f"  progress line: {shown / hidden:.3f}x the export without it")


if __name__ == "__main__":
    main()
