"""Benchmark: the first ``listAddressChains`` answer (``GET /v1/address/{address}/chains``) of a
fresh default emulator, per kind of address, for builds side by side: pool address 0 (the
busiest sender, on every chain), a contract the world deployed, and an address the world does
not know. Each run is a
fresh process of each build's interpreter (the builds' order reversed every other round); it
prints every run, the medians with each build's ratio to the first build's, and checks that
every build answers the same chains::

    python benches/address_chains.py --build base=/path/to/old/python --build this=python --rounds 3

Each ``--build`` is ``NAME=INTERPRETER``: an interpreter that imports that build of ``avax_data``
(its own virtualenv, or a wrapper script setting ``PYTHONPATH``). ``--one ADDRESS`` is what a
run does: starts ``ad.Emulator()``, asks once, prints ``{"seconds", "chains"}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.request

# Of the default world (seed 0): pool entries are seed independent, the contract is the first
# that pool address 0 deployed on the Mainnet C-Chain (`listContractDeployments`).
ADDRESSES = {
    "pool 0": "0x6a2474f3e677ce65e495508043237ea93738a031",
    "deployed contract": "0xc9542e837d67c665f52d1b865778d7f661b880ca",
    "unknown": "0x" + "ab" * 20,
}


def one(address: str) -> None:
    import avax_data as ad

    with ad.Emulator() as emu:
        began = time.perf_counter()
        with urllib.request.urlopen(f"{emu.url}/v1/address/{address}/chains", timeout=600) as response:
            body = json.loads(response.read())
        seconds = time.perf_counter() - began
    print(json.dumps({"seconds": seconds, "chains": [c["chainId"] for c in body["indexedChains"]]}))


def run(python: str, address: str) -> dict[str, object]:
    done = subprocess.run([python, __file__, "--one", address], capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", default=[], help="NAME=INTERPRETER")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one")
    args = parser.parse_args()
    if args.one:
        one(args.one)
        return
    builds = [b.split("=", 1) for b in args.build] or [["this", sys.executable]]
    seconds: dict[tuple[str, str], list[float]] = {}
    answers: dict[str, set[str]] = {}
    for r in range(args.rounds):
        order = builds if r % 2 == 0 else builds[::-1]
        for kind, address in ADDRESSES.items():
            for name, python in order:
                got = run(python, address)
                seconds.setdefault((kind, name), []).append(float(got["seconds"]))  # type: ignore[arg-type]
                answers.setdefault(kind, set()).add(json.dumps(got["chains"]))
                print(f"round {r} {kind:18} {name:6} {got['seconds']:.3f} s  {got['chains']}", flush=True)
    for kind in ADDRESSES:
        assert len(answers[kind]) == 1, f"{kind}: the builds answer differently: {answers[kind]}"
        base = statistics.median(seconds[(kind, builds[0][0])])
        line = ", ".join(f"{name} {statistics.median(seconds[(kind, name)]):.3f} s "
                         f"({statistics.median(seconds[(kind, name)]) / base:.2f}x)" for name, _ in builds)
        print(f"median {kind:18} {line}")


if __name__ == "__main__":
    main()
