"""Two builds side by side on the Data API walk: CPU per block of ``blocks(...).to_polars()`` (sync),
runs alternated against one emulator, with the pure-Python client for the ratio.

    python benches/data_ab.py --base /work/venv-main/bin/python --this .venv/bin/python \\
        --rounds 4 --count 10000 --latencies 0,0.02

Each run is ``workers.py data`` in a fresh process of the given interpreter (each has its own
build of avax_data installed); the pure-Python client runs under ``--base``. Prints every run and
the medians. Under load the spread of one build is wide: compare sets run one after the other.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import Emulator  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the base build's Python interpreter")
    parser.add_argument("--this", required=True, help="the compared build's Python interpreter")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--count", type=int, default=10_000, help="blocks per walk (at most 20,000)")
    parser.add_argument("--latencies", default="0,0.02", help="comma-separated added latencies, seconds")
    args = parser.parse_args()
    runs: dict[tuple[float, str], list[float]] = {}
    emu = Emulator({"X/tx": 1}, 20_000)
    try:
        emu.get("/v1/chains/43114/blocks?pageSize=1")
        for latency in (float(x) for x in args.latencies.split(",")):
            emu.set_latency(latency)
            for r in range(args.rounds):
                whos = ["base", "this", "pure-python"]
                for who in whos if r % 2 == 0 else whos[::-1]:
                    exe = args.this if who == "this" else args.base
                    spec = {"url": emu.url, "chain": "43114", "count": args.count, "page_size": 100,
                            "contender": "pure-python" if who == "pure-python" else "avax-sync"}
                    done = subprocess.run([exe, str(HERE / "workers.py"), "data", json.dumps(spec)],
                                          capture_output=True, text=True, cwd=HERE, check=True)
                    result = json.loads(done.stdout.strip().splitlines()[-1])
                    assert result["rows"] == args.count, result
                    us = result["cpu_s"] / args.count * 1e6
                    runs.setdefault((latency, who), []).append(us)
                    print(f"{latency * 1000:.0f} ms {who}: {us:.2f} µs/block, wall {result['wall_s']:.1f} s", flush=True)
    finally:
        emu.close()
    for (latency, who), values in sorted(runs.items()):
        py = statistics.median(runs[(latency, "pure-python")])
        median = statistics.median(values)
        shown = ", ".join(f"{v:.2f}" for v in values)
        print(f"{latency * 1000:.0f} ms {who:12s} median {median:.2f} µs/block ({shown}); pure Python ÷ this {py / median:.2f}x")


if __name__ == "__main__":
    main()
