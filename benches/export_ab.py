"""Two builds side by side on a decoded export: CPU and wall time of
``chain("C/block").range(0, N, decode=True).write_parquet(...)``, runs alternated against one
emulator serving from its own process.

    python benches/export_ab.py --base /work/venv-main/bin/python --this .venv/bin/python \\
        --rounds 5 --containers 20000

Each run is a fresh process of the given interpreter (each has its own build of avax_data
installed); its CPU time is ``time.process_time`` of that process (the client's work: decoding
and encoding the file). Prints every run, the medians and this ÷ base. Under load the spread of
one build is wide: read the medians of alternated runs, not single runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from decode_cblock import serve_emulator  # noqa: E402

# One run: the export, its rows, CPU and wall seconds as a JSON line.
RUN = """
import json, sys, time
import avax_data as ad
url, count, out, decode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
decode = True if decode == "True" else decode
rng = ad.IndexClient(url).chain("C/block").range(0, count, decode=decode)
cpu, wall = time.process_time(), time.perf_counter()
rows = rng.write_parquet(out)
print(json.dumps({"rows": rows, "cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the base build's Python interpreter")
    parser.add_argument("--this", required=True, help="the compared build's Python interpreter")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--containers", type=int, default=20_000)
    parser.add_argument("--decode", default="True", help="True or senders")
    parser.add_argument("--port", type=int, default=19657)
    args = parser.parse_args()
    emulator = serve_emulator(args.containers, args.port)
    runs: dict[str, list[tuple[float, float]]] = {"base": [], "this": []}
    out = str(Path(tempfile.mkdtemp()) / "a.parquet")
    try:
        for r in range(args.rounds):
            for who in ("base", "this") if r % 2 == 0 else ("this", "base"):
                exe = args.this if who == "this" else args.base
                command = [exe, "-c", RUN, f"http://127.0.0.1:{args.port}", str(args.containers), out, args.decode]
                done = subprocess.run(command, capture_output=True, text=True, check=True)
                result = json.loads(done.stdout.strip().splitlines()[-1])
                assert result["rows"] == args.containers, result
                runs[who].append((result["cpu_s"], result["wall_s"]))
                print(f"round {r} {who}: CPU {result['cpu_s']:.2f} s, wall {result['wall_s']:.2f} s", flush=True)
    finally:
        emulator.terminate()
        emulator.wait()
    medians = {who: [statistics.median(v[i] for v in values) for i in (0, 1)] for who, values in runs.items()}
    print(f"decode={args.decode}, {args.containers:,} C/block containers, {args.rounds} rounds alternated")
    print("| build | CPU s (median) | wall s (median) |\n|---|---:|---:|")
    for who, (cpu, wall) in medians.items():
        print(f"| {who} | {cpu:.2f} | {wall:.2f} |")
    cpu_ratio, wall_ratio = (medians["this"][i] / medians["base"][i] for i in (0, 1))
    print(f"this ÷ base: CPU {cpu_ratio:.3f}, wall {wall_ratio:.3f}")


if __name__ == "__main__":
    main()
