"""Benchmark: the first X- and P-Chain UTXO request of a fresh default emulator, against a baseline
build, side by side.

The first UTXO request of an address builds the chain's lookups (the X-Chain's: every `X/tx`
and `X/block` tx made again from the seed; the P-Chain's: which txs pay each address); a second
request of the same address reads them. Each round starts a fresh interpreter of each build
(this one, then ``--baseline``, alternating which goes first), which times in its own process:
the first X-Chain UTXO request of an address the newest X tx pays, that request again, the first
P-Chain UTXO request and the first ``getAvaxSupply``. The report gives each build's medians and
the ratio this/baseline.

    python benches/px_first_utxo.py --baseline /path/to/other/venv/bin/python [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

PROBE = r"""
import json, time, urllib.request
import avax_data as ad

def get(url):
    with urllib.request.urlopen(url, timeout=600) as r:
        return json.loads(r.read())

def timed(url):
    t = time.perf_counter()
    get(url)
    return time.perf_counter() - t

with ad.Emulator(seed=3) as emu:
    base = emu.url + "/v1/networks/mainnet/blockchains"
    x_owner = get(base + "/x-chain/transactions?pageSize=1")["transactions"][0]["emittedUtxos"][0]["addresses"][0]
    p_txs = get(base + "/p-chain/transactions?pageSize=20")["transactions"]
    p_owner = [t for t in p_txs if t["emittedUtxos"]][0]["emittedUtxos"][0]["addresses"][0]
    out = {"x_first": timed(base + f"/x-chain/utxos?addresses={x_owner}&pageSize=10"),
           "x_again": timed(base + f"/x-chain/utxos?addresses={x_owner}&pageSize=10"),
           "p_first": timed(base + f"/p-chain/utxos?addresses={p_owner}&pageSize=10"),
           "supply": timed(emu.url + "/v1/avax/supply")}
print(json.dumps(out))
"""

KEYS = ("x_first", "x_again", "p_first", "supply")


def probe(python: str) -> dict[str, float]:
    done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the Python of the baseline build's virtualenv")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"this": [], "baseline": []}
    for r in range(args.rounds):
        order = [("this", sys.executable), ("baseline", args.baseline)]
        for name, python in order if r % 2 == 0 else order[::-1]:
            runs[name].append(probe(python))
    print(f"| request | this build (median of {args.rounds}) | baseline | this/baseline |")
    print("|---|---:|---:|---:|")
    for key in KEYS:
        this = statistics.median(run[key] for run in runs["this"])
        base = statistics.median(run[key] for run in runs["baseline"])
        print(f"| {key} | {this * 1000:.1f} ms | {base * 1000:.1f} ms | {this / base:.2f}x |")


if __name__ == "__main__":
    main()
