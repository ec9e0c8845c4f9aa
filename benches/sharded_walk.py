"""Sharded vs sequential walk of the busy address's ERC-20 transfers at a tier's budget.

    python benches/sharded_walk.py [--latency 0.2] [--blocks 1500] [--units 20000] [--unauth-blocks 300]
                                   [--time-units 20000,100000] [--only time|blocks|all]

The emulator adds ``--latency`` seconds to every answer and enforces ``--units`` compute units a
minute (``Emulator.set_compute_budget``: the pro tier's 20,000 by default); the client keeps to
the same budget (``compute_units_per_minute=``, ``tier="pro"``). Both walks read the transfers
of the busy address (``emu.world["busy_address"]``: 100,000+ transfers over the 10,000 blocks of
the world) in the last ``--blocks`` blocks (10,000: all of them), pages of 100: first in
sequence (``concurrency=1``), then in shards (the default ``concurrency`` of the budget). It
prints each wall time, the share of the budget spent (units charged over the minutes walked
times the budget), the 429s, and checks the rows are identical. Then the unauthenticated tier
(6,000 units a minute) over the last ``--unauth-blocks`` blocks, sharded: its share and its 429s.
A full run of 10,000 blocks at 200 ms takes several minutes (the sequential walk alone ~5).

Then a list cut in seconds (``--only time`` runs it alone): the P-Chain's transactions of the
emulator (16,000 of them, from genesis to now, 100 a page; a page weighs 100 compute units, so
the pro tier's 20,000 a minute is 3.3 pages a second, below the 5 a second of one call at
200 ms), in sequence and in time shards (the default ``concurrency``), at each budget of
``--time-units``, with the same checks.
"""

from __future__ import annotations

import time

import polars as pl

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script

CHAIN = 43114


def walk(emu: ad.Emulator, busy: str, start: int, units: int, tier: str,
         concurrency: int | None) -> tuple[pl.DataFrame, float, dict, int]:
    """One walk under a fresh budget: its frame, wall seconds, the emulator's budget use, the
    requests it sent."""
    emu.set_compute_budget(units)
    before = emu.request_count()
    with ad.DataClient(emu.url, compute_units_per_minute=units, tier=tier) as data:
        pager = data.erc20_transfers(CHAIN, busy, start_block=start, page_size=100, concurrency=concurrency)
        t = time.perf_counter()
        df = pager.to_polars()
        seconds = time.perf_counter() - t
    return df, seconds, emu.compute_budget_use(), emu.request_count() - before


def time_walk(emu: ad.Emulator, units: int, concurrency: int | None) -> tuple[pl.DataFrame, float, dict, int]:
    """One walk of the P-Chain's transactions under a fresh budget of ``units`` (as :func:`walk`)."""
    emu.set_compute_budget(units)
    before = emu.request_count()
    with ad.DataClient(emu.url, compute_units_per_minute=units) as data:
        pager = data.primary_network_transactions("mainnet", "p-chain", page_size=100, concurrency=concurrency)
        t = time.perf_counter()
        df = pager.to_polars()
        seconds = time.perf_counter() - t
    return df, seconds, emu.compute_budget_use(), emu.request_count() - before


def time_shards(emu: ad.Emulator, budgets: list[int]) -> None:
    """The sequential and time-sharded walks of the P-Chain's transactions at each budget."""
    for units in budgets:
        with ad.DataClient(emu.url, compute_units_per_minute=units) as data:
            plan = data.primary_network_transactions("mainnet", "p-chain", page_size=100).plan().operation
        print(f"P-Chain transactions (time shards), budget {units:,} CU/min; plan: {plan}")
        seq = time_walk(emu, units, 1)
        par = time_walk(emu, units, None)
        report("sequential (concurrency=1)", *seq)
        share = report("time shards (default)", *par)
        assert par[0].equals(seq[0]), "the time-sharded walk's rows differ from the sequential walk's"
        assert seq[2]["refused"] == 0 and par[2]["refused"] == 0, "a 429 under the budget"
        print(f"  identical rows: yes; speed-up {seq[1] / par[1]:.2f}x; sharded budget share {share:.1%}")


def report(name: str, df: pl.DataFrame, seconds: float, usage: dict, requests: int) -> float:
    share = usage["spent"] / (usage["units_per_minute"] * seconds / 60)
    print(f"  {name:28s} {seconds:8.2f} s  {df.height:8,} rows  {requests:6,} requests  "
          f"{usage['spent']:8,} CU  {share:6.1%} of the budget  {usage['refused']} x 429")
    return share


def main() -> None:
    args = options(__doc__, latency=0.2, blocks=1500, units=20000, unauth_blocks=300, time_units="20000,100000",
                   only="all")
    with ad.Emulator(latency=args.latency) as emu:
        if args.only in ("all", "time"):
            time_shards(emu, [int(u) for u in args.time_units.split(",")])
        if args.only == "time":
            return
        busy = emu.world["busy_address"]["address"]
        tip = emu.world["chains"][0]["last_block"]
        start = max(0, tip + 1 - args.blocks)
        default = ad.DataClient(emu.url, compute_units_per_minute=args.units, tier="pro")
        shards = default.erc20_transfers(CHAIN, busy, start_block=start, page_size=100).plan().operation
        default.close()
        print(f"busy address {busy}: blocks {start}..{tip}, latency {args.latency * 1000:.0f} ms, "
              f"budget {args.units:,} CU/min on both sides")
        print(f"  plan: {shards}")
        seq = walk(emu, busy, start, args.units, "pro", 1)
        par = walk(emu, busy, start, args.units, "pro", None)
        report("sequential (concurrency=1)", *seq)
        share = report("sharded (default)", *par)
        assert par[0].equals(seq[0]), "the sharded walk's rows differ from the sequential walk's"
        assert seq[2]["refused"] == 0 and par[2]["refused"] == 0, "a 429 under the budget"
        print(f"  identical rows: yes; speed-up {seq[1] / par[1]:.2f}x; sharded budget share {share:.1%}")
        start = max(0, tip + 1 - args.unauth_blocks)
        un = walk(emu, busy, start, 6_000, "unauthenticated", None)
        report("unauthenticated, sharded", *un)
        assert un[2]["refused"] == 0, "a 429 under the unauthenticated budget"


if __name__ == "__main__":
    main()
