"""Ctrl-C while several time shards are in flight: the ``KeyboardInterrupt`` comes within the
bound of ``tests/test_interrupt.py``, the rows handed out (or written) are a prefix of the list in
its order with none repeated, and a resume from the pager's ``resume_state`` completes the walk
exactly (the same rows as an uninterrupted walk), asking the emulator for no page whose items were
handed out and planning no shard again: at most the uninterrupted sharded walk's requests less
the pages handed out (plus the page of the last item handed out, which the resume reads to seek
past it).

The child process walks the emulator's P-Chain transactions (latency 30 ms a page, 4 shards in
flight), gets a real SIGINT 1 s in, and checks its own rows against a sequential walk it makes
afterwards; it prints what it found for this process to assert.
"""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from _helpers import signal_child

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

CHILD = """
import json, os, signal, sys, tempfile, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import polars as pl
import avax_data as ad
emu = ad.Emulator(seed=5, latency=0.03)
data = ad.DataClient(emu.url)
walk = lambda: data.primary_network_transactions("mainnet", "p-chain", page_size=25, concurrency=4)
pager = walk()
handed = []
out = os.path.join(tempfile.mkdtemp(), "t.parquet")
print("ready", flush=True)
try:
{body}
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
else:
    print("finished", flush=True)
    sys.exit(4)
{written}
state = pager.resume_state
emu.set_latency(0.0)
whole = data.primary_network_transactions("mainnet", "p-chain", page_size=25, concurrency=1).to_polars()
hashes = whole["txHash"].to_list()
counted = emu.request_count()
walk().to_polars()
sharded_requests = emu.request_count() - counted
later = walk()
later.resume(state)
counted = emu.request_count()
rest = later.to_polars()["txHash"].to_list()
resume_requests = emu.request_count() - counted
print("report", json.dumps({{
    "handed": len(handed), "items_read": state["items_read"], "total": len(hashes),
    "prefix": handed == hashes[:len(handed)], "distinct": len(set(handed)) == len(handed),
    "token": state["next_page_token"] or "", "resumed_exact": handed + rest == hashes,
    "sharded_requests": sharded_requests, "resume_requests": resume_requests,
}}), flush=True)
sys.exit(3)
"""

CASES = {
    # iteration: the rows handed out are the ones counted
    "iterate": ("for item in pager:\n    handed.append(item['txHash'])", ""),
    # an export: the file finished holds the rows before the position
    "write_parquet": (
        "pager.write_parquet(out)",
        "if os.path.exists(out):\n    handed = pl.read_parquet(out)['txHash'].to_list()",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_ctrl_c_with_time_shards_in_flight_stops_promptly_and_resumes_exactly(name: str) -> None:
    body, written = CASES[name]
    script = CHILD.format(body=textwrap.indent(body, "    "), written=written)
    sent, out, err, returncode = signal_child(script, timeout=300)
    lines = out.splitlines()
    stamps = [float(line.split()[1]) for line in lines if line.startswith("interrupted ")]
    assert stamps, f"no KeyboardInterrupt: {out}\n{err[-3000:]}"
    assert returncode == 3, (returncode, out, err[-3000:])
    # The contract is 250 ms (benches/interrupt.py); the bound of tests/test_interrupt.py leaves
    # room for a machine running other builds.
    assert 0 <= stamps[0] - sent < 5.0, f"KeyboardInterrupt came {stamps[0] - sent:.2f} s after SIGINT"
    report = json.loads(next(line for line in lines if line.startswith("report ")).split(" ", 1)[1])
    assert 0 < report["items_read"] < report["total"], report
    assert report["handed"] == report["items_read"], "the position counts exactly the rows handed out"
    assert report["prefix"] and report["distinct"], "a prefix of the list in its order, none repeated"
    assert report["token"].startswith("avax-shard:2:"), report
    assert report["resumed_exact"], "the resume completes the walk with the same rows"
    # Pages hold at most 25 items: the pages handed out whole number at least (items_read - 24) / 25.
    handed_pages = -(-(report["items_read"] - 24) // 25)
    assert report["resume_requests"] <= report["sharded_requests"] - handed_pages + 1, report
