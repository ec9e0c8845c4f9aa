"""Where a client's CPU goes: ``perf record`` of one measured run of ``workers.py``, grouped.

    python benches/perf_profile.py                                   # avax_data, 200,000 C/block to a DataFrame
    python benches/perf_profile.py --path X/tx --count 200000
    python benches/perf_profile.py --task data --count 200000        # Data API blocks by pages of 100
    python benches/perf_profile.py --task data --count 20000 --latency 0.02   # ... with 20 ms added latency
    python benches/perf_profile.py --contender pure-python --count 20000
    python benches/perf_profile.py --task endpoint --count 20000 --what transactions   # generated endpoint

Starts the emulator in its own process (so its CPU is not in the profile), records the worker
with ``perf record -e cpu-clock`` (software clock: works without hardware counters) only while
it runs the measured walk (the worker turns recording on and off through ``perf record
--control``: imports and the warm-up are left out), and prints the top symbols and the share of
each kind of work (JSON, hex, sha256, CB58, Arrow, malloc/free, kernel, Python, ...) as
Markdown. Needs ``perf`` (Debian: ``apt-get install linux-perf``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import Emulator  # noqa: E402

# First match wins: (kind of work, regex on "dso symbol").
KINDS = [
    ("sha256", r"sha2::|libcrypto"),
    ("keccak256 (decode, pre-fork ids)", r"sha3::|(?i:keccak)"),
    ("hex decode", r"const_hex|hex::|_PyBytes_FromHex"),
    ("CB58 ids (base58)", r"bs58::|divrem"),
    ("JSON scanning and parsing", r"serde_json|serde::|serde_core|U64Field|WireContainer|RangeResult|from_utf8|"
                                  r"parse_response|Envelope|_json\.|scanstring"),
    ("timestamps (RFC 3339)", r"chrono::|parse_timestamp"),
    ("id rules, envelope and decoding", r"avax_data::decode|alloy_rlp|ripemd"),
    ("Arrow building", r"arrow_|pyo3_arrow|ArrayBuilder|RecordBatch"),
    ("malloc/free", r"\b(malloc|free|cfree|_int_malloc|_int_free|_int_realloc|realloc|calloc|malloc_consolidate|"
                    r"tcache\w*|unlink_chunk\w*|sysmalloc|__libc_\w*alloc\w*)\b|jemalloc|je_"),
    ("memcpy/memmove", r"memmove|memcpy|memset|memcmp"),
    ("kernel: page faults and memory", r"\[kernel\.kallsyms\].*(page|fault|mm_|_mm|memcg|alloc|folio|lru|vma|"
                                       r"clear_|charge|rmap|pte|zone|buddy|mmap|munmap|brk)"),
    ("kernel: network, scheduling, other", r"\[kernel\.kallsyms\]"),
    ("HTTP and async runtime (tokio, hyper, reqwest)", r"tokio|hyper|reqwest|\bh2::|mio::|futures|want::|"
                                                       r"parking|epoll|\[vdso\]|httparse|http::|bytes::|pthread|"
                                                       r"futex|syscall"),
    ("Python interpreter", r"libpython|python3"),
    ("polars", r"_polars_runtime|polars"),
    ("avax_data other", r"_native\.abi3\.so"),
]


def record(args: argparse.Namespace, out: Path, tmp: Path) -> dict:
    """Runs the measured task under ``perf record`` against a fresh emulator; returns its result."""
    containers = {args.path: args.count} if args.task == "index" else {"X/tx": 1}
    blocks = args.count if args.task in ("data", "endpoint") else 20_000
    emu = Emulator(containers, blocks)
    try:
        if args.task == "index" and args.path == "C/block":
            emu.rpc("C/block", "index.getContainerByIndex", {"index": args.count - 1, "encoding": "hex"})
        emu.get("/v1/chains/43114/blocks?pageSize=1")
        if args.latency:
            emu.set_latency(args.latency)
        if args.task == "index":
            spec = {"url": emu.url, "path": args.path, "count": args.count, "concurrency": 4, "decode": args.decode,
                    "contender": args.contender}
        elif args.task == "endpoint":
            spec = {"url": emu.url, "chain": "43114", "count": args.count, "page_size": 100, "what": args.what}
        else:
            spec = {"url": emu.url, "chain": "43114", "count": args.count, "page_size": 100,
                    "contender": args.contender}
        ctl, ack = tmp / "ctl", tmp / "ack"
        os.mkfifo(ctl)
        os.mkfifo(ack)
        command = ["perf", "record", "-q", "-F", str(args.frequency), "-e", "cpu-clock", "-D", "-1",
                   "--control", f"fifo:{ctl},{ack}", "-o", str(out), "--", sys.executable, str(HERE / "workers.py"),
                   args.task, json.dumps(spec)]
        env = dict(os.environ, AVAX_BENCH_PERF_CTL=f"{ctl},{ack}")
        done = subprocess.run(command, capture_output=True, text=True, cwd=HERE, env=env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        return json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        emu.close()


def report(data: Path) -> list[tuple[float, str, str]]:
    """(percent, dso, symbol) of every sampled symbol."""
    text = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--stdio", "-g", "none",
                           "--sort", "dso,symbol", "-F", "overhead,dso,sym", "--percent-limit", "0"],
                          capture_output=True, text=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*?)(?:\s+-\s+-)?\s*$", line)
        if m:
            rows.append((float(m.group(1)), m.group(2), m.group(3)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", choices=["index", "data", "endpoint"], default="index")
    parser.add_argument("--what", default="transactions", choices=["transactions", "blocks"],
                        help="endpoint task: chain_transactions (generated) or blocks (default transactions)")
    parser.add_argument("--path", default="C/block", help="index path (default C/block)")
    parser.add_argument("--count", type=int, default=200_000, help="containers or blocks (default 200000)")
    parser.add_argument("--contender", default="avax-sync", choices=["avax-sync", "avax-async", "pure-python"])
    parser.add_argument("--decode", action="store_true", help="decode=True (index, avax_data only)")
    parser.add_argument("--latency", type=float, default=0.0, help="added latency in seconds (default 0)")
    parser.add_argument("--frequency", type=int, default=999, help="samples per second (default 999)")
    parser.add_argument("--top", type=int, default=20, help="symbols listed (default 20)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        result = record(args, data, Path(tmp))
        rows = report(data)
    kinds: dict[str, float] = defaultdict(float)
    for pct, dso, sym in rows:
        name = next((k for k, pattern in KINDS if re.search(pattern, f"{dso} {sym}")), "other")
        kinds[name] += pct
    what = {"index": f"{args.count:,} {args.path}", "data": f"{args.count:,} Data API blocks",
            "endpoint": f"{args.count:,} Data API {args.what} (endpoint task)"}[args.task]
    print(f"{args.contender} {'decode=True ' if args.decode else ''}{what}: "
          f"CPU {result['cpu_s']:.2f} s ({result['cpu_s'] / args.count * 1e6:.2f} µs each), "
          f"wall {result['wall_s']:.1f} s, {sum(p for p, _, _ in rows):.0f}% of samples attributed\n")
    print("| kind of work | share of CPU |\n|---|---:|")
    for name, pct in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {pct:.1f}% |")
    print("\n| symbol | dso | share |\n|---|---|---:|")
    for pct, dso, sym in sorted(rows, reverse=True)[:args.top]:
        print(f"| `{sym.strip()[:90]}` | {dso} | {pct:.1f}% |")


if __name__ == "__main__":
    main()
