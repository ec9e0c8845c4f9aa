"""The benchmark harness: avax_data (sync and async) against an idiomatic pure-Python client and a
fetch-and-parse floor written in Rust, side by side in one run, against the emulator.

    python benches/run.py --quick          # a smoke run, under 2 minutes
    python benches/run.py                  # the full run (about 45 minutes on 2 cores)

The emulator runs in its own process (``workers.py serve``), so every figure of CPU time is the
client's alone; each measured run is a fresh process (``workers.py TASK``) that warms up first.
Every scenario runs each contender once per round, the order reversed every other round, and
reports medians. Scenarios (full sizes; ``--quick`` shrinks them):

- Index: 200,000 ``C/block`` containers to a DataFrame at 0 and 20 ms added latency (avax_data
  sync and async, pure Python, the floor), and decoded (``decode=True``).
- Index concurrency: 200,000 ``X/tx`` containers at 20 ms with 1, 4 and 16 calls in flight.
- Data API: 20,000 blocks by pages of 100 at 0 and 20 ms; prefetch against a page-at-a-time walk
  for a consumer that works 20 ms per page.
- Metrics API: one year of an hourly series at 20 ms, sequential (pages of 100) and sharded.
- 1,000,000 ``X/tx`` and 200,000 ``C/block`` containers streamed to Parquet: peak RSS.
- ``async for`` against ``for`` over 200,000 ``X/tx`` containers as dicts.
- Import time and the first request, in fresh processes.
- The emulator's own throughput under ``wrk`` (requests/s, MB/s), the ceiling of every wall time.
- The emulator building and serving ``C/block`` containers it has not built before
  (``emulator_serve.py``): containers per CPU second.

It prints the tables and writes them to ``benches/RESULTS.md`` (machine, versions, command,
targets met or missed), keeping the hand-written notes between the ``notes`` markers there.
Needs ``pip install '.[bench]'``, cargo (the floor: ``cargo build --release -p avax-data-core --bench floor``) and
``wrk`` (``apt-get install wrk``; the throughput table is skipped without it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORKERS = HERE / "workers.py"
NOTES_START, NOTES_END = "<!-- notes: kept by run.py -->", "<!-- /notes -->"
METRICS_CHAIN = "11111"  # the emulator chain with the widest block gap (6 s): a year is 5.3 M blocks
METRICS_BLOCKS = 5_300_000


@dataclass
class Sizes:
    """How big each scenario is."""

    cblock: int
    cblock_rounds: int
    xtx: int
    parquet_xtx: int
    parquet_cblock: int
    data_blocks: int
    rounds: int
    startup_runs: int
    wrk_seconds: int
    emulator_cblock: int
    latencies: tuple[float, ...] = (0.0, 0.02)
    concurrency_levels: tuple[int, ...] = (1, 4, 16)
    page_size: int = 100
    work_s: float = 0.02


FULL = Sizes(cblock=200_000, cblock_rounds=2, xtx=200_000, parquet_xtx=1_000_000, parquet_cblock=200_000, data_blocks=20_000,
             rounds=3, startup_runs=5, wrk_seconds=5, emulator_cblock=20_000)
QUICK = Sizes(cblock=3_000, cblock_rounds=1, xtx=20_000, parquet_xtx=100_000, parquet_cblock=3_000, data_blocks=2_000,
              rounds=1, startup_runs=3, wrk_seconds=2, emulator_cblock=3_000)


@dataclass
class Results:
    """Every measured run, by scenario and contender, and the text of the report."""

    runs: dict[tuple[str, ...], list[dict[str, Any]]] = field(default_factory=dict)
    sections: list[str] = field(default_factory=list)
    targets: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, key: tuple[str, ...], result: dict[str, Any]) -> None:
        self.runs.setdefault(key, []).append(result)

    def median(self, key: tuple[str, ...], name: str) -> float:
        return statistics.median(r[name] for r in self.runs[key])

    def section(self, title: str, intro: str, header: list[str], rows: list[list[str]]) -> None:
        lines = [f"### {title}", "", intro, "", "| " + " | ".join(header) + " |",
                 "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        text = "\n".join(lines)
        self.sections.append(text)
        print("\n" + text, flush=True)

    def target(self, goal: str, measured: str, met: bool | None) -> None:
        verdict = "n/a" if met is None else ("met" if met else "**missed**")
        self.targets.append((goal, measured, verdict))


class Emulator:
    """The emulator in its own process; ``set_latency`` talks to it over its stdin."""

    def __init__(self, containers: dict[str, int], data_blocks: int) -> None:
        spec = json.dumps({"containers": containers, "data_blocks": data_blocks})
        self.process = subprocess.Popen([sys.executable, str(WORKERS), "serve", spec], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise RuntimeError("the emulator did not start")

    def set_latency(self, seconds: float) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"latency {seconds}\n")
        self.process.stdin.flush()
        if self.process.stdout.readline().strip() != "ok":
            raise RuntimeError("the emulator did not take the latency")

    def rpc(self, path: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
        request = urllib.request.Request(f"{self.url}/ext/index/{path}", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as answer:
            return json.loads(answer.read())

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + path, timeout=600) as answer:
            return json.loads(answer.read())

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def work(task: str, **spec: Any) -> dict[str, Any]:
    """Runs one measured task in a fresh process and returns its JSON result."""
    done = subprocess.run([sys.executable, str(WORKERS), task, json.dumps(spec)], capture_output=True, text=True,
                          timeout=3600, cwd=HERE)
    if done.returncode != 0:
        raise RuntimeError(f"{task} {spec} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def build_floor() -> Path | None:
    """Builds the floor (``cargo build --release -p avax-data-core --bench floor``) and returns its executable."""
    if shutil.which("cargo") is None:
        print("cargo not found: the floor is left out", file=sys.stderr)
        return None
    done = subprocess.run(["cargo", "build", "--release", "-p", "avax-data-core", "--bench", "floor", "--message-format=json"], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"building the floor failed:\n{done.stderr[-3000:]}")
    for line in done.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "floor" and message.get("executable"):
            return Path(message["executable"])
    raise RuntimeError("cargo built no floor executable")


def floor(exe: Path, url: str, path: str, count: int, concurrency: int) -> dict[str, Any]:
    """One walk of the floor binary (it warms up on 2,048 containers first)."""
    done = subprocess.run([str(exe), "--url", url, "--path", path, "--count", str(count), "--concurrency",
                           str(concurrency), "--warmup", str(min(2048, count))], capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the floor failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def rounds_of(n: int, contenders: list[Any]) -> list[list[Any]]:
    """The contenders' order in each round: reversed every other round, so drift hits all alike."""
    return [contenders if r % 2 == 0 else contenders[::-1] for r in range(n)]


def fmt(x: float, digits: int = 2) -> str:
    return f"{x:,.{digits}f}"


def ratio(x: float) -> str:
    return f"{x:.2f}x"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


# ---------------------------------------------------------------- scenarios


def index_walks(res: Results, emu: Emulator, path: str, n: int, latencies: tuple[float, ...], rounds: int,
                floor_exe: Path | None, decoded: bool) -> list[list[str]]:
    """Every contender walks ``path`` to a DataFrame at each latency; returns the table rows."""
    contenders = ["avax-sync", "avax-async", "pure-python"] + (["floor"] if floor_exe else [])
    extra = ["avax-sync decoded"] if decoded else []
    for latency in latencies:
        emu.set_latency(latency)
        for order in rounds_of(rounds, contenders + extra):
            for who in order:
                key = ("index", path, str(latency), who)
                if who == "floor":
                    assert floor_exe is not None
                    res.add(key, floor(floor_exe, emu.url, path, n, 4))
                else:
                    name, _, decode = who.partition(" ")
                    res.add(key, work("index", url=emu.url, path=path, count=n, concurrency=4, decode=bool(decode),
                                      contender=name))
                print(f"  index {path} latency={latency} {who}: {res.runs[key][-1]}", flush=True)
    rows = []
    for latency in latencies:
        cpu_of = {w: res.median(("index", path, str(latency), w), "cpu_s") for w in contenders}
        wall_of = {w: res.median(("index", path, str(latency), w), "wall_s") for w in contenders}
        for who in contenders + extra:
            key = ("index", path, str(latency), who)
            cpu, w = res.median(key, "cpu_s"), res.median(key, "wall_s")
            hwm = res.median(key, "hwm_mb") if "hwm_mb" in res.runs[key][0] else None
            rows.append([ms(latency), who, fmt(cpu), fmt(cpu / n * 1e6), fmt(w), f"{n / w:,.0f}",
                         ratio(cpu / cpu_of["floor"]) if "floor" in cpu_of else "-",
                         ratio(cpu_of["pure-python"] / cpu), ratio(wall_of["pure-python"] / w),
                         "-" if hwm is None else fmt(hwm, 0)])
    return rows


INDEX_HEADER = ["latency", "contender", "CPU s", "CPU µs/container", "wall s", "containers/s", "CPU ÷ floor",
                "pure-Python CPU ÷ this", "pure-Python wall ÷ this", "peak RSS MB"]


def index_scenario(res: Results, emu: Emulator, sizes: Sizes, floor_exe: Path | None) -> None:
    """C/block to a DataFrame at each latency, raw and decoded; then X/tx (small containers) at 0 ms."""
    n = sizes.cblock
    rows = index_walks(res, emu, "C/block", n, sizes.latencies, sizes.cblock_rounds, floor_exe, decoded=True)
    lat0 = str(sizes.latencies[0])
    decode_cost = [res.median(("index", "C/block", str(lat), "avax-sync decoded"), "cpu_s")
                   / res.median(("index", "C/block", str(lat), "avax-sync"), "cpu_s") for lat in sizes.latencies]
    res.section(
        f"Index: {n:,} C/block containers to a DataFrame",
        "Calls of 1,024 containers, 4 in flight, every checksum and id checked, then one DataFrame. "
        "CPU is the client process's (all threads); the emulator runs in another process. The "
        "containers are real-format C-chain blocks of about 3.9 KB (7.8 KB of hex on the wire), and "
        "the emulator signs each one as it serves it, so the wall times are the emulator's (see its "
        "throughput below), not the clients'. `avax-sync decoded` adds `decode=True` (neither the "
        "pure-Python client nor the floor decodes): "
        + ", ".join(f"{c:.2f}x the raw walk's CPU at {ms(lat)}" for c, lat in zip(decode_cost, sizes.latencies))
        + ".",
        INDEX_HEADER, rows)
    m = sizes.xtx
    rows = index_walks(res, emu, "X/tx", m, sizes.latencies[:1], sizes.rounds, floor_exe, decoded=False)
    res.section(
        f"Index: {m:,} X/tx containers to a DataFrame",
        "The same walk over small containers (X-chain transactions of about 0.5 KB), where the work "
        "per container, not per byte, dominates.", INDEX_HEADER, rows)
    sync = res.median(("index", "C/block", lat0, "avax-sync"), "cpu_s")
    py = res.median(("index", "C/block", lat0, "pure-python"), "cpu_s")
    x_sync = res.median(("index", "X/tx", lat0, "avax-sync"), "cpu_s")
    x_py = res.median(("index", "X/tx", lat0, "pure-python"), "cpu_s")
    if floor_exe:
        fl = res.median(("index", "C/block", lat0, "floor"), "cpu_s")
        x_fl = res.median(("index", "X/tx", lat0, "floor"), "cpu_s")
        res.target("Client CPU per container within 1.3x of the floor (C/block, 0 ms, sync)",
                   f"{sync / n * 1e6:.2f} vs {fl / n * 1e6:.2f} µs: {ratio(sync / fl)} "
                   f"(X/tx: {ratio(x_sync / x_fl)})", sync / fl <= 1.3)
    py_wall = res.median(("index", "C/block", lat0, "pure-python"), "wall_s")
    sync_wall = res.median(("index", "C/block", lat0, "avax-sync"), "wall_s")
    res.target("Client CPU per container at least 10x below the pure-Python client's (C/block, 0 ms)",
               f"{ratio(py / sync)}, wall {ratio(py_wall / sync_wall)} (X/tx: {ratio(x_py / x_sync)})",
               py / sync >= 10)
    res.target("`decode=True` on C/block at most 2.5x the raw walk's client CPU",
               ", ".join(f"{ratio(c)} at {ms(lat)}" for c, lat in zip(decode_cost, sizes.latencies)),
               max(decode_cost) <= 2.5)


def concurrency_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """X/tx at 20 ms with 1, 4 and 16 calls in flight."""
    n, latency = sizes.xtx, sizes.latencies[-1]
    emu.set_latency(latency)
    for order in rounds_of(sizes.rounds, list(sizes.concurrency_levels)):
        for c in order:
            key = ("concurrency", str(c))
            res.add(key, work("index", url=emu.url, path="X/tx", count=n, concurrency=c, decode=False,
                              contender="avax-sync"))
            print(f"  concurrency {c}: {res.runs[key][-1]}", flush=True)
    seq = res.median(("concurrency", "1"), "wall_s")
    rows = []
    for c in sizes.concurrency_levels:
        w, cpu = res.median(("concurrency", str(c)), "wall_s"), res.median(("concurrency", str(c)), "cpu_s")
        rows.append([str(c), fmt(w), f"{n / w:,.0f}", ratio(seq / w), fmt(cpu)])
    res.section(
        f"Index concurrency: {n:,} X/tx containers at {ms(latency)}",
        "avax_data (sync) `range(...).to_polars()` with `concurrency` calls of 1,024 in flight. X/tx "
        "containers are cheap for the emulator to make, so the latency, not the emulator, is what "
        "concurrency hides (C/block calls cost the emulator about 0.35 s of CPU each).",
        ["concurrency", "wall s", "containers/s", "speed-up vs 1", "CPU s"], rows)
    best = max(sizes.concurrency_levels)
    gain = seq / res.median(("concurrency", str(best)), "wall_s")
    res.target(f"At {ms(latency)}: concurrent range at least 6x sequential",
               f"concurrency 4: {ratio(seq / res.median(('concurrency', '4'), 'wall_s'))}, {best}: {ratio(gain)}",
               gain >= 6)


def data_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """Data API blocks to a DataFrame, then prefetch against page-at-a-time."""
    n, size = sizes.data_blocks, sizes.page_size
    contenders = ["avax-sync", "avax-async", "pure-python"]
    for latency in sizes.latencies:
        emu.set_latency(latency)
        for order in rounds_of(sizes.rounds, contenders):
            for who in order:
                key = ("data", str(latency), who)
                res.add(key, work("data", url=emu.url, chain="43114", count=n, page_size=size, contender=who))
                print(f"  data latency={latency} {who}: {res.runs[key][-1]}", flush=True)
    rows = []
    for latency in sizes.latencies:
        py = res.median(("data", str(latency), "pure-python"), "cpu_s")
        for who in contenders:
            key = ("data", str(latency), who)
            cpu, w = res.median(key, "cpu_s"), res.median(key, "wall_s")
            rows.append([ms(latency), who, fmt(cpu, 3), fmt(cpu / n * 1e6), fmt(w), ratio(py / cpu)])
    res.section(
        f"Data API: {n:,} blocks by pages of {size} to a DataFrame",
        "`blocks(\"43114\", page_size=100, limit=...).to_polars()` against the same token-paged walk "
        "with httpx + json + polars (typed columns: UInt64, Datetime, Decimal(38, 0)).",
        ["latency", "contender", "CPU s", "CPU µs/block", "wall s", "pure-Python CPU ÷ this"], rows)
    gains = [res.median(("data", str(lat), "pure-python"), "cpu_s") / res.median(("data", str(lat), "avax-sync"), "cpu_s")
             for lat in sizes.latencies]
    res.target("Data API: client CPU at least 5x below the pure-Python client's, at every latency",
               ", ".join(f"{ratio(g)} at {ms(lat)}" for g, lat in zip(gains, sizes.latencies)), min(gains) >= 5)

    latency = sizes.latencies[-1]
    emu.set_latency(latency)
    modes = ["prefetch", "page-at-a-time"]
    for order in rounds_of(sizes.rounds, modes):
        for mode in order:
            key = ("prefetch", mode)
            res.add(key, work("prefetch", url=emu.url, chain="43114", count=n, page_size=size,
                              work_s=sizes.work_s, mode=mode))
            print(f"  prefetch {mode}: {res.runs[key][-1]}", flush=True)
    slow = res.median(("prefetch", "page-at-a-time"), "wall_s")
    pages = -(-n // size)
    # Overlapping fetch and work cannot beat the longer of the two walks: the fetch-only walk
    # (to_polars at this latency, measured above) and the consumer's work alone.
    fetch_only = res.median(("data", str(latency), "avax-sync"), "wall_s")
    bound = slow / max(fetch_only, pages * sizes.work_s)
    rows = [[mode, fmt(res.median(("prefetch", mode), "wall_s")), f"{pages}",
             ratio(slow / res.median(("prefetch", mode), "wall_s"))] for mode in modes]
    res.section(
        f"Data API prefetch at {ms(latency)}: a consumer working {ms(sizes.work_s)} per page",
        "`for page in pager.pages(): time.sleep(0.02)` (the pager fetches the next page while the "
        "consumer works) against asking for each page only after the consumer is done with the "
        "last (a pager per page from `next_page_token`). Token pages cannot be fetched side by "
        "side, so without consumer work both walks take one round trip per page; with it, the "
        f"gain is at most (fetch + work) / max(fetch, work): here {ratio(bound)} (fetch-only walk "
        f"{fmt(fetch_only)} s, work {fmt(pages * sizes.work_s)} s).",
        ["walk", "wall s", "pages", "gain"], rows)
    gain = slow / res.median(("prefetch", "prefetch"), "wall_s")
    res.target(f"At {ms(latency)}: prefetch at least 2x a page-at-a-time walk",
               f"{ratio(gain)} (at most {ratio(bound)} with this work and latency)", gain >= 2)


def endpoint_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """A generated list endpoint (``listLatestTransactions``) against ``blocks``, CPU per item."""
    emu.set_latency(0.0)
    n, size = sizes.data_blocks, sizes.page_size
    for order in rounds_of(sizes.rounds, ["blocks", "transactions"]):
        for what in order:
            res.add(("endpoint", what), work("endpoint", url=emu.url, chain="43114", count=n, page_size=size,
                                             what=what))
            print(f"  endpoint {what}: {res.runs[('endpoint', what)][-1]}", flush=True)
    per = {w: res.median(("endpoint", w), "cpu_s") / n * 1e6 for w in ("blocks", "transactions")}
    rows = [[w, fmt(per[w]), ratio(per[w] / per["blocks"])] for w in ("blocks", "transactions")]
    res.section(
        f"A generated list endpoint against blocks: {n:,} items by pages of {size}",
        "`chain_transactions(\"43114\")` (``listLatestTransactions``, typed by the schema rule from the "
        "document) against `blocks(\"43114\")` (hand tables), both `.to_polars()`, 0 ms.",
        ["endpoint", "CPU µs/item", "÷ blocks"], rows)
    slower = per["transactions"] / per["blocks"]
    res.target("A new list endpoint within 1.5x of blocks per item (client CPU)", ratio(slower), slower <= 1.5)


def metrics_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """One year of an hourly series, sequential against sharded, and against pure Python."""
    latency = sizes.latencies[-1]
    emu.set_latency(0.0)
    newest = emu.get(f"/v2/chains/{METRICS_CHAIN}/metrics/txCount?timeInterval=hour&pageSize=1")
    end = newest["results"][0]["timestamp"] + 3600
    start = end - 365 * 86400
    emu.set_latency(latency)
    runs = [("avax-sync", 1), ("avax-sync", 4), ("avax-async", 4), ("pure-python", 1)]
    for order in rounds_of(sizes.rounds, runs):
        for who, c in order:
            key = ("metrics", who, str(c))
            res.add(key, work("metrics", url=emu.url, chain=METRICS_CHAIN, start=start, end=end,
                              page_size=sizes.page_size, concurrency=c, contender=who))
            print(f"  metrics {who} concurrency={c}: {res.runs[key][-1]}", flush=True)
    points = res.runs[("metrics", "avax-sync", "1")][0]["rows"]
    seq = res.median(("metrics", "avax-sync", "1"), "wall_s")
    py = res.median(("metrics", "pure-python", "1"), "cpu_s")
    rows = []
    for who, c in runs:
        key = ("metrics", who, str(c))
        cpu, w = res.median(key, "cpu_s"), res.median(key, "wall_s")
        rows.append([who, "sequential" if c == 1 else f"sharded ({c})", fmt(cpu, 3), fmt(cpu / points * 1e6),
                     fmt(w), ratio(seq / w), ratio(py / cpu)])
    res.section(
        f"Metrics API: one year hourly ({points:,} points) at {ms(latency)}, pages of {sizes.page_size}",
        f"`metric(\"{METRICS_CHAIN}\", \"txCount\", interval=\"hour\", start=..., end=..., page_size=100, "
        "concurrency=...)`: `concurrency=1` walks the pages in one sequence, 4 (the default) fetches "
        "4 sub-windows side by side. The pure-Python client walks the pages in one sequence.",
        ["contender", "walk", "CPU s", "CPU µs/point", "wall s", "speed-up vs sequential",
         "pure-Python CPU ÷ this"], rows)
    sharded = seq / res.median(("metrics", "avax-sync", "4"), "wall_s")
    res.target(f"At {ms(latency)}: sharded metrics at least 3x sequential", ratio(sharded), sharded >= 3)
    gain = py / res.median(("metrics", "avax-sync", "1"), "cpu_s")
    res.target("Metrics: client CPU at least 5x below the pure-Python client's (sequential walks)", ratio(gain),
               gain >= 5)


def parquet_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """Ranges streamed to Parquet: peak RSS of the client process."""
    emu.set_latency(0.0)
    cases = [("X/tx", sizes.parquet_xtx), ("C/block", sizes.parquet_cblock)]
    for path, n in cases:
        for _ in range(1 if path == "C/block" else sizes.rounds):  # C/block: about 2.5 min per walk
            res.add(("parquet", path), work("parquet", url=emu.url, path=path, count=n))
            print(f"  parquet {path}: {res.runs[('parquet', path)][-1]}", flush=True)
    rows = []
    for path, n in cases:
        key = ("parquet", path)
        rows.append([path, f"{n:,}", fmt(res.median(key, "hwm_before_mb"), 0), fmt(res.median(key, "hwm_mb"), 0),
                     fmt(res.median(key, "file_mb"), 0), fmt(res.median(key, "wall_s")),
                     fmt(res.median(key, "cpu_s") / n * 1e6)])
    res.section(
        "Streaming to Parquet: peak memory",
        "`range(0, n).write_parquet(path)` (snappy, row groups of 65,536) in a fresh process; peak RSS "
        "is the process's `VmHWM` after the import and a warm-up walk, then after the measured walk.",
        ["path", "containers", "peak RSS before MB", "peak RSS after MB", "file MB", "wall s", "CPU µs/container"],
        rows)
    hwm = res.median(("parquet", "X/tx"), "hwm_mb")
    res.target(f"{sizes.parquet_xtx:,} containers to Parquet under 300 MB peak RSS",
               f"X/tx: {hwm:.0f} MB; C/block ({sizes.parquet_cblock:,}): {res.median(('parquet', 'C/block'), 'hwm_mb'):.0f} MB",
               hwm < 300)


def iterate_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """``async for`` against ``for``."""
    emu.set_latency(0.0)
    n = sizes.xtx
    for order in rounds_of(sizes.rounds, ["for", "async for"]):
        for mode in order:
            res.add(("iterate", mode), work("iterate", url=emu.url, path="X/tx", count=n, mode=mode))
            print(f"  iterate {mode}: {res.runs[('iterate', mode)][-1]}", flush=True)
    base = res.median(("iterate", "for"), "cpu_s")
    rows = [[mode, fmt(res.median(("iterate", mode), "cpu_s")), fmt(res.median(("iterate", mode), "cpu_s") / n * 1e6),
             fmt(res.median(("iterate", mode), "wall_s")), ratio(res.median(("iterate", mode), "cpu_s") / base)]
            for mode in ("for", "async for")]
    res.section(f"`async for` against `for`: {n:,} X/tx containers as dicts",
                "`for c in chain.range(0, n)` and `async for c in chain.range(0, n)` (AsyncIndexClient).",
                ["loop", "CPU s", "CPU µs/item", "wall s", "CPU ÷ for"], rows)
    r = res.median(("iterate", "async for"), "cpu_s") / base
    res.target("`async for` per item within 2x of `for`", ratio(r), r <= 2)


def startup_scenario(res: Results, emu: Emulator, sizes: Sizes) -> None:
    """Import time and first request, each in a fresh process."""
    emu.set_latency(0.0)
    who = ["avax", "pure-python", "polars"]
    for order in rounds_of(sizes.startup_runs, who):
        for w in order:
            res.add(("startup", w), work("startup", url=emu.url, contender=w))
    labels = {"avax": "import avax_data; IndexClient(...).chain('X/tx').last_accepted()",
              "pure-python": "import httpx, polars; httpx.Client().post(...getLastAccepted...)",
              "polars": "import polars (avax_data imports it only when a frame is made)"}
    rows = [[labels[w], ms(res.median(("startup", w), "import_s")),
             "-" if w == "polars" else ms(res.median(("startup", w), "first_request_s"))] for w in who]
    commands = {"`python -c pass` (the interpreter alone: whole process)": [sys.executable, "-c", "pass"],
                "`avax-data --help` (whole process)": [sys.executable, "-m", "avax_data", "--help"]}
    for label, command in commands.items():
        walls = []
        for _ in range(sizes.startup_runs):
            t0 = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True, timeout=120, cwd=HERE)
            walls.append(time.perf_counter() - t0)
        rows.append([label, ms(statistics.median(walls)), "-"])
    res.section("Start-up", f"Fresh processes, median of {sizes.startup_runs}; the first request includes making "
                "the client (and, for avax_data, starting its runtime). The last two rows are the wall time of "
                "a whole process, interpreter start-up included.",
                ["what", "import", "first request"], rows)
    imported = res.median(("startup", "avax"), "import_s")
    res.target("Import time of avax_data under 150 ms",
               f"{ms(imported)} ({ratio(imported / res.median(('startup', 'polars'), 'import_s'))} of `import polars`)",
               imported < 0.150)


def emulator_scenario(res: Results, sizes: Sizes) -> None:
    """The emulator serving C/block containers it builds on first touch (``emulator_serve.py``):
    containers per CPU second of a process holding the emulator and a client that only reads."""
    runs = []
    for _ in range(sizes.rounds):
        done = subprocess.run([sys.executable, str(HERE / "emulator_serve.py"), "--count", str(sizes.emulator_cblock)],
                              capture_output=True, text=True, timeout=3600, cwd=HERE)
        if done.returncode != 0:
            raise RuntimeError(f"emulator_serve.py failed:\n{done.stderr[-3000:]}")
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"  emulator: {runs[-1]}", flush=True)
    first = statistics.median(r["first_walk_per_cpu_s"] for r in runs)
    again = statistics.median(r["cached_walk_per_cpu_s"] for r in runs)
    wall = statistics.median(r["first_walk_per_wall_s"] for r in runs)
    res.section(
        f"Emulator: {sizes.emulator_cblock:,} C/block containers built and served",
        "`python benches/emulator_serve.py --count N`: `getContainerRange` calls of 1,024 over HTTP "
        "to the in-process emulator, answers read but not parsed; containers per CPU second of the "
        "whole process. The first walk builds every block (transactions signed, envelope signed); "
        "the second walks the last 4,096 again from the emulator's cache. The first walk per wall second "
        "too: a run's blocks are encoded on both cores.",
        ["walk", "containers per s", "runs"],
        [["first (built), per CPU s", f"{first:,.0f}", ", ".join(f"{r['first_walk_per_cpu_s']:,}" for r in runs)],
         ["first (built), per wall s", f"{wall:,.0f}", ", ".join(f"{r['first_walk_per_wall_s']:,}" for r in runs)],
         ["again (cached), per CPU s", f"{again:,.0f}", ", ".join(f"{r['cached_walk_per_cpu_s']:,}" for r in runs)]])
    res.target("The emulator serves at least 30,000 C/block containers a second (first walk, per CPU second)",
               f"{first:,.0f}/s (per wall s: {wall:,.0f}/s; cached: {again:,.0f}/s)", first >= 30_000)


def wrk_scenario(res: Results, emu: Emulator, metrics_emu: Emulator, sizes: Sizes) -> None:
    """The emulator's throughput under wrk: the ceiling of the wall times above."""
    emu.set_latency(0.0)
    metrics_emu.set_latency(0.0)
    if shutil.which("wrk") is None:
        res.sections.append("### Emulator throughput\n\nwrk was not installed: not measured.")
        return
    start = sizes.cblock // 2
    # (name, whole URL, items an answer holds, JSON-RPC params or None for a GET, where the items are)
    cases = [
        ("C/block getContainerRange(1,024)", emu.url + "/ext/index/C/block", 1024,
         {"startIndex": start, "numToFetch": 1024, "encoding": "hex"}, ("result", "containers")),
        ("X/tx getContainerRange(1,024)", emu.url + "/ext/index/X/tx", 1024,
         {"startIndex": start, "numToFetch": 1024, "encoding": "hex"}, ("result", "containers")),
        ("Data API blocks page of 100", emu.url + "/v1/chains/43114/blocks?pageSize=100", 100, None, ("blocks",)),
        ("Metrics hourly page of 100",
         metrics_emu.url + f"/v2/chains/{METRICS_CHAIN}/metrics/txCount?timeInterval=hour&pageSize=100", 100, None,
         ("results",)),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path, items, params, where in cases:  # path: the whole URL
            body = None if params is None else json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "index.getContainerRange", "params": params})
            # Once by hand first: wrk counts any 2xx answer, so make sure this one is a full page, not an error.
            request = urllib.request.Request(path, data=None if body is None else body.encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=600) as answer:
                answered: Any = json.loads(answer.read())
            for key in where:
                answered = answered.get(key) if isinstance(answered, dict) else None
            if not isinstance(answered, list) or len(answered) != items:
                raise RuntimeError(f"wrk {name}: the emulator's answer does not hold {items} items")
            command = ["wrk", "-t2", "-c4", f"-d{sizes.wrk_seconds}s", "--timeout", "60s"]
            if body is not None:
                script = Path(tmp) / "post.lua"
                script.write_text(f'wrk.method = "POST"\nwrk.body = \'{body}\'\n'
                                  'wrk.headers["Content-Type"] = "application/json"\n')
                command += ["-s", str(script)]
            out = subprocess.run(command + [path], capture_output=True, text=True, timeout=120).stdout
            rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
            size, unit = re.search(r"Transfer/sec:\s+([\d.]+)(\w+)", out).groups()  # type: ignore[union-attr]
            mbps = float(size) * {"B": 1e-6, "KB": 1.024e-3, "MB": 1.048576, "GB": 1073.741824}[unit]
            bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
            sockets = re.search(r"Socket errors:(.*)", out)
            if bad is not None:
                raise RuntimeError(f"wrk {name}: {bad.group(1)} answers were not 2xx:\n{out}")
            res.runs[("wrk", name)] = [{"rps": rps, "mbps": mbps}]
            rows.append([name, fmt(rps, 1), fmt(mbps, 1), f"{rps * items:,.0f}",
                         sockets.group(1).strip() if sockets else "none"])
    res.section("Emulator throughput (wrk)",
                f"`wrk -t2 -c4 -d{sizes.wrk_seconds}s --timeout 60s` (4 connections, like the clients' 4 calls in "
                "flight) against the emulator alone at 0 ms: the most any client can get from it on this machine. "
                "Each request is first sent once and its answer checked (a full page, not an error), and a run "
                "with any non-2xx answer stops the benchmark.",
                ["request", "requests/s", "MB/s", "items/s", "socket errors"], rows)


# ---------------------------------------------------------------- report


def machine() -> list[str]:
    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = ""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GB RAM"
    return [f"- CPU: {cpu}, {os.cpu_count()} cores, {mem}", f"- OS: `{' '.join(platform.uname())}`"]


def versions() -> list[str]:
    import avax_data
    import httpx
    import polars

    def run(*cmd: str) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT).stdout.strip()
        except OSError:
            return "not found"

    commit = run("git", "rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if run("git", "status", "--porcelain", "--untracked-files=no") else ""
    return [f"- Python {platform.python_version()}, polars {polars.__version__}, avax_data {avax_data.__version__} "
            f"(commit {commit}{dirty}), httpx {httpx.__version__}", f"- {run('rustc', '--version')}",
            f"- wrk: {run('wrk', '--version').splitlines()[0] if shutil.which('wrk') else 'not installed'}"]


def write_report(res: Results, out: Path, command: str, elapsed: float, quick: bool) -> None:
    notes = f"{NOTES_START}\n\n(no notes yet)\n\n{NOTES_END}"
    if out.exists():
        old = out.read_text()
        if NOTES_START in old and NOTES_END in old:
            notes = old[old.index(NOTES_START):old.index(NOTES_END) + len(NOTES_END)]
    targets = ["| target | measured | |", "|---|---|---|"] + [f"| {g} | {m} | {v} |" for g, m, v in res.targets]
    text = "\n".join([
        "# Benchmark results",
        "",
        f"Written by `benches/run.py` ({'quick smoke run' if quick else 'full run'}, "
        f"{elapsed / 60:.0f} min, {time.strftime('%Y-%m-%d')}). Medians; CPU is the client process's "
        "only (the emulator runs in its own process). Figures are from a shared 2-core machine: read "
        "the ratios, not the absolute times.",
        "",
        "Command:",
        "",
        "```sh",
        command,
        "```",
        "",
        "## Machine and versions",
        "",
        *machine(),
        *versions(),
        "",
        "## Targets",
        "",
        *targets,
        "",
        "## Notes",
        "",
        notes,
        "",
        "## Tables",
        "",
        "\n\n".join(res.sections),
        "",
    ])
    out.write_text(text)
    print(f"\nwrote {out}")


SCENARIOS = ["wrk", "emulator", "index", "concurrency", "data", "endpoint", "metrics", "parquet", "iterate", "startup"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes and one round: a smoke run under 2 minutes")
    parser.add_argument("--rounds", type=int, default=None, help="repetitions of each run (default: 3, quick: 1)")
    parser.add_argument("--cblock-rounds", type=int, default=None,
                        help="repetitions of the C/block walks, about 100 s each (default: 2, quick: 1)")
    parser.add_argument("--cblock", type=int, default=None,
                        help="C/block containers of the index and Parquet walks (default 200,000; the emulator signs "
                             "each one it serves, about 1,600 a second)")
    parser.add_argument("--only", default=",".join(SCENARIOS), help=f"comma-separated subset of {','.join(SCENARIOS)}")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md", help="the report (default benches/RESULTS.md)")
    parser.add_argument("--no-write", action="store_true", help="print the tables only")
    parser.add_argument("--skip-check", action="store_true", help="skip checking the pure-Python frames first")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    if args.rounds is not None:
        sizes.rounds = max(1, args.rounds)
    if args.cblock_rounds is not None:
        sizes.cblock_rounds = max(1, args.cblock_rounds)
    if args.cblock is not None:
        sizes.cblock = sizes.parquet_cblock = max(1_000, args.cblock)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios {sorted(unknown)}; choose from {SCENARIOS}")
    command = "python benches/run.py" + "".join(f" {a}" for a in sys.argv[1:])
    began = time.perf_counter()
    if not args.skip_check:
        subprocess.run([sys.executable, str(HERE / "pure_python.py"), "--check"], check=True, cwd=HERE)
    floor_exe = build_floor() if "index" in only else None
    containers = {"C/block": max(sizes.cblock, sizes.parquet_cblock), "X/tx": max(sizes.xtx, sizes.parquet_xtx)}
    # Two worlds: the index and Data API one, and a Metrics one whose chains span a year (the
    # Data API's first page of a 5.3 M-block chain costs the emulator half a minute).
    emu = Emulator(containers, sizes.data_blocks)
    metrics_emu = Emulator({"X/tx": 1}, METRICS_BLOCKS)
    res = Results()
    try:
        # The emulator makes C/block hash chains on first use: walk its cache to the tip once.
        emu.rpc("C/block", "index.getContainerByIndex", {"index": containers["C/block"] - 1, "encoding": "hex"})
        emu.get("/v1/chains/43114/blocks?pageSize=1")  # and the Data API chain's
        metrics_emu.get(f"/v2/chains/{METRICS_CHAIN}/metrics/txCount?timeInterval=hour&pageSize=1")  # its buckets
        runners = {"wrk": lambda: wrk_scenario(res, emu, metrics_emu, sizes),
                   "emulator": lambda: emulator_scenario(res, sizes),
                   "index": lambda: index_scenario(res, emu, sizes, floor_exe),
                   "concurrency": lambda: concurrency_scenario(res, emu, sizes),
                   "data": lambda: data_scenario(res, emu, sizes),
                   "endpoint": lambda: endpoint_scenario(res, emu, sizes),
                   "metrics": lambda: metrics_scenario(res, metrics_emu, sizes),
                   "parquet": lambda: parquet_scenario(res, emu, sizes),
                   "iterate": lambda: iterate_scenario(res, emu, sizes),
                   "startup": lambda: startup_scenario(res, emu, sizes)}
        for name in SCENARIOS:
            if name in only:
                print(f"\n== {name} ({time.perf_counter() - began:.0f} s)", flush=True)
                runners[name]()
    finally:
        emu.close()
        metrics_emu.close()
    elapsed = time.perf_counter() - began
    print("\n### Targets\n")
    for goal, measured, verdict in res.targets:
        print(f"- {goal}: {measured}: {verdict}")
    print(f"\n{elapsed:.0f} s in all")
    if not args.no_write:
        write_report(res, args.out, command, elapsed, args.quick)


if __name__ == "__main__":
    main()
