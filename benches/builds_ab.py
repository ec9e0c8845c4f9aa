"""Builds side by side on what the emulator's world costs: the default world's build, the first
``C/block`` walk and a Data API walk per item, each run in a fresh process of each build's
interpreter, the builds' order reversed every other round.

    python benches/builds_ab.py --build main=/path/to/main/python --build this=.venv/bin/python \\
        --rounds 5 --cblock 20000 --items 20000

- ``world``: ``workers.py world`` (``ad.Emulator()`` started, ``emu.world``, the first answer of
  each service), wall seconds.
- ``cblock``: ``emulator_serve.py --count N``: the first walk's ``C/block`` containers per CPU
  second of the process holding the emulator (the emulator builds every block it serves).
- ``endpoint``: ``workers.py endpoint`` (``blocks("43114")`` and ``chain_transactions("43114")``
  to a DataFrame, pages of 100, 0 ms): client CPU per item, all builds' clients against one
  emulator (of the ``--serve`` build, default the last), so they read the same bytes.
- ``data``: ``workers.py data`` (``run.py``'s Data API scenario: ``blocks("43114")`` to a
  DataFrame with the sync client, pages of 100) at each of ``--latencies``, every build and the
  pure-Python client (run by the first build's interpreter) alternated against one emulator;
  client CPU per block and each build's ratio to the pure-Python client, the figure of
  ``run.py``'s "5x below pure Python" row.

``--only`` picks some of them. Prints every run, then the medians with each build's ratio to the
first one's. Each ``--build`` is ``NAME=INTERPRETER``: an interpreter that imports that build of
``avax_data`` (its own virtualenv, or a wrapper script setting ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
from pathlib import Path
from collections.abc import Iterator
from typing import Any

HERE = Path(__file__).resolve().parent
WORKERS = HERE / "workers.py"
SCENARIOS = ("world", "cblock", "endpoint", "data")


def run_json(command: list[str]) -> dict[str, Any]:
    """Runs ``command`` in ``benches/`` and returns the JSON of its last output line."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600, cwd=HERE)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def serve(python: str) -> tuple[subprocess.Popen[str], str]:
    """The emulator of the ``python`` build in its own process (``workers.py serve``) and its URL."""
    spec = json.dumps({"containers": {"X/tx": 1}, "data_blocks": 20_000})
    process = subprocess.Popen([python, str(WORKERS), "serve", spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, cwd=HERE)
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    if not url.startswith("http"):
        raise RuntimeError("the emulator did not start")
    return process, url


def set_latency(process: subprocess.Popen[str], seconds: float) -> None:
    """Sets the added latency of an emulator started by :func:`serve`."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"latency {seconds}\n")
    process.stdin.flush()
    if process.stdout.readline().strip() != "ok":
        raise RuntimeError("the emulator did not take the latency")


@contextlib.contextmanager
def served(python: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """The emulator of the ``python`` build (:func:`serve`) for the ``with`` block, then closed."""
    process, url = serve(python)
    try:
        yield process, url
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)


def per_item(python: str, task: str, spec: dict[str, Any], what: str) -> tuple[float, float]:
    """Client CPU µs per item and wall seconds of one ``workers.py task`` walk of ``spec["count"]``
    items (``what`` names it in the error when the walk gave another count)."""
    t = run_json([python, str(WORKERS), task, json.dumps(spec)])
    if t["rows"] != spec["count"]:
        raise RuntimeError(f"{what}: {t['rows']} rows, not {spec['count']}")
    return t["cpu_s"] / spec["count"] * 1e6, t["wall_s"]


def ordered(builds: list[tuple[str, str]], r: int) -> list[tuple[str, str]]:
    """The builds in round ``r``'s order (reversed every other round)."""
    return builds if r % 2 == 0 else builds[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", required=True, help="NAME=INTERPRETER (two or more)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cblock", type=int, default=20_000, help="containers of the first C/block walk")
    parser.add_argument("--items", type=int, default=20_000, help="items of each Data API walk (at most 20,000)")
    parser.add_argument("--only", default=",".join(SCENARIOS), help=f"comma-separated subset of {','.join(SCENARIOS)}")
    parser.add_argument("--serve", default=None, help="the build whose emulator serves the endpoint and data walks")
    parser.add_argument("--latencies", default="0,0.02", help="comma-separated added latencies of the data walks, seconds")
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if len(builds) < 2 or any(len(b) != 2 for b in builds):
        parser.error("give two or more --build NAME=INTERPRETER")
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    if set(only) - set(SCENARIOS):
        parser.error(f"unknown scenarios {sorted(set(only) - set(SCENARIOS))}; choose from {SCENARIOS}")
    names = [name for name, _ in builds]
    runs: dict[tuple[str, str], list[float]] = {}

    def record(what: str, name: str, value: float, shown: str) -> None:
        runs.setdefault((what, name), []).append(value)
        print(f"  {what} {name}: {shown}", flush=True)

    if "world" in only:
        print("== world (wall ms: start, world, data, index, metrics; total)", flush=True)
        for r in range(args.rounds):
            for name, python in ordered(builds, r):
                t = run_json([python, str(WORKERS), "world", "{}"])
                for key in ("start_s", "world_s", "data_s", "index_s", "metrics_s", "total_s"):
                    runs.setdefault((f"world {key[:-2]}", name), []).append(t[key] * 1e3)
                steps = ", ".join(f"{t[k] * 1e3:.1f}" for k in ("start_s", "world_s", "data_s", "index_s", "metrics_s"))
                print(f"  world {name}: {steps}; {t['total_s'] * 1e3:.1f}", flush=True)
    if "cblock" in only:
        print(f"== cblock (first walk of {args.cblock:,} containers, per CPU s)", flush=True)
        for r in range(args.rounds):
            for name, python in ordered(builds, r):
                t = run_json([python, str(HERE / "emulator_serve.py"), "--count", str(args.cblock)])
                record("cblock first walk per CPU s", name, t["first_walk_per_cpu_s"],
                       f"{t['first_walk_per_cpu_s']:,} (wall {t['first_walk_per_wall_s']:,}/s)")
    if "endpoint" in only:
        server = dict(builds).get(args.serve or names[-1])
        if server is None:
            parser.error(f"--serve names no build of {names}")
        with served(server) as (_, url):
            print(f"== endpoint ({args.items:,} items by pages of 100, client CPU µs/item)", flush=True)
            for r in range(args.rounds):
                for name, python in ordered(builds, r):
                    for what in ("blocks", "transactions"):
                        spec = {"url": url, "chain": "43114", "count": args.items, "page_size": 100, "what": what}
                        us, _ = per_item(python, "endpoint", spec, f"{name} {what}")
                        record(f"endpoint {what} µs/item", name, us, f"{what} {us:.2f} µs/item")
    if "data" in only:
        server = dict(builds).get(args.serve or names[-1])
        if server is None:
            parser.error(f"--serve names no build of {names}")
        contenders = builds + [("pure-python", builds[0][1])]
        with served(server) as (process, url):
            for latency in (float(x) for x in args.latencies.split(",")):
                set_latency(process, latency)
                key = f"data {latency * 1e3:.0f} ms µs/block"
                print(f"== data ({args.items:,} blocks by pages of 100 at {latency * 1e3:.0f} ms, client CPU µs/block)",
                      flush=True)
                for r in range(args.rounds):
                    for name, python in ordered(contenders, r):
                        who = "pure-python" if name == "pure-python" else "avax-sync"
                        spec = {"url": url, "chain": "43114", "count": args.items, "page_size": 100, "contender": who}
                        us, wall = per_item(python, "data", spec, f"{name} data")
                        record(key, name, us, f"{us:.2f} µs/block, wall {wall:.2f} s")
                py = statistics.median(runs[(key, "pure-python")])
                for name in names:
                    gain = py / statistics.median(runs[(key, name)])
                    record(f"data {latency * 1e3:.0f} ms pure-Python ÷ build", name, gain, f"{gain:.2f}x")
    base = names[0]
    print(f"\n| measure | {' | '.join(names)} | " + " | ".join(f"{n} ÷ {base}" for n in names[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(names) - 1))
    for what in dict.fromkeys(w for w, _ in runs):
        medians = [statistics.median(runs[(what, n)]) for n in names]
        cells = [f"{m:,.2f}" if m < 100 else f"{m:,.1f}" if m < 1000 else f"{m:,.0f}" for m in medians]
        ratios = [f"{m / medians[0]:.3f}" if medians[0] else "-" for m in medians[1:]]
        print(f"| {what} | {' | '.join(cells)} | {' | '.join(ratios)} |")
    for what in dict.fromkeys(w for w, n in runs if n == "pure-python"):
        print(f"\n{what}, pure-Python client: {statistics.median(runs[(what, 'pure-python')]):.2f} (median)")
    print("\nruns: " + json.dumps({f"{w} | {n}": [round(v, 2) for v in vs] for (w, n), vs in runs.items()}))


if __name__ == "__main__":
    sys.exit(main())
