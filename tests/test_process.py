"""Process-level contracts: Ctrl-C interrupts any wait promptly, and clients work after fork."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import avax_data as ad

from _helpers import signal_child

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and fork")

# The child installs Python's own SIGINT handler: a shell's background job (`cmd &`, `nohup`)
# starts with SIGINT ignored, which its children inherit, and Ctrl-C would then never arrive.
PRELUDE = """
import signal
import sys
import time
signal.signal(signal.SIGINT, signal.default_int_handler)
import avax_data as ad
emu = ad.Emulator(containers=1_000_000, latency={latency})
client = ad.IndexClient(emu.url)
chain = client.chain("X/tx")
print("ready", flush=True)
"""

SCRIPTS = {
    "iterate": (0.2, "for item in chain.range(0, concurrency=2):\n    pass"),
    "to_polars": (0.2, "chain.range(0, 1_000_000, concurrency=2).to_polars()"),
    "batches": (0.2, "for frame in chain.range(0).batches():\n    pass"),
    "single_call": (60.0, "chain.last_accepted()"),
    "follow": (0.0, "for item in chain.follow(poll_interval=0.5):\n    pass"),
    # A pager's to_polars runs its pages on the runtime: Ctrl-C stops it, and all or nothing
    # holds (the position has not moved).
    "data_to_polars": (
        0.2,
        "pager = ad.DataClient(base_url=emu.url).blocks('43114', page_size=10)\n"
        "try:\n"
        "    pager.to_polars()\n"
        "except KeyboardInterrupt:\n"
        "    print('items_read', pager.items_read, pager.next_page_token, flush=True)\n"
        "    raise",
    ),
    "async_to_polars": (
        0.2,
        "import asyncio\n"
        "async def main():\n"
        "    async with ad.AsyncIndexClient(emu.url) as c:\n"
        "        await c.chain('X/tx').range(0).to_polars()\n"
        "asyncio.run(main())",
    ),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_ctrl_c_interrupts_promptly(name: str) -> None:
    latency, body = SCRIPTS[name]
    # The child stamps the instant its KeyboardInterrupt reaches Python (CLOCK_MONOTONIC is one
    # clock for every process of the machine): the contract is about that instant, not about how
    # long interpreter shutdown (the emulator's runtime, polars, the traceback) takes on a busy
    # machine, which the exit is only waited for.
    script = (textwrap.dedent(PRELUDE.format(latency=latency)) + "try:\n" + textwrap.indent(body, "    ")
              + "\nexcept KeyboardInterrupt:\n    print('interrupted', time.monotonic(), flush=True)\n    raise\n"
              + "print('finished', flush=True)\n")
    sent, out, err, returncode = signal_child(script, timeout=60)
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    if name == "data_to_polars":
        assert "items_read 0 None" in out, out
    assert returncode != 0
    stamps = [float(line.split()[1]) for line in out.splitlines() if line.startswith("interrupted ")]
    assert len(stamps) == 1, out
    elapsed = stamps[0] - sent
    # the contract is 250 ms; 2 s leaves room for a busy machine's scheduling
    assert 0 <= elapsed < 2.0, f"KeyboardInterrupt reached Python {elapsed:.2f} s after SIGINT"


def _last_index(url: str) -> int:
    """Worker: a fresh client in a forked child."""
    return ad.IndexClient(url).chain("X/tx").last_accepted()["index"]


def _walk_count(url: str) -> int:
    """Worker: a range walk in a forked child."""
    with ad.IndexClient(url) as c:
        return c.chain("C/block").range(0, 3000).to_polars().height


def test_clients_work_after_fork() -> None:
    with ad.Emulator(containers=3000) as emu:
        # use the runtime in the parent first, so the child inherits a started one
        with ad.IndexClient(emu.url) as parent:
            assert parent.chain("X/tx").last_accepted()["index"] == 2999
            assert len(list(parent.chain("X/tx").range(0, 2000))) == 2000
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(2) as pool:
            assert pool.map_async(_last_index, [emu.url] * 4).get(timeout=60) == [2999] * 4
            assert pool.map_async(_walk_count, [emu.url] * 2).get(timeout=60) == [3000, 3000]
        # the parent, and its emulator, still work
        with ad.IndexClient(emu.url) as again:
            assert again.chain("X/tx").container(5) == emu.expected_container("X/tx", 5)


def _child_exit_code(pid: int) -> int:
    """Waits (at most 60 s) for a forked child and returns its exit code."""
    deadline = time.monotonic() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        time.sleep(0.05)


def test_raw_fork_child_exit_code() -> None:
    with ad.Emulator(containers=77) as emu:
        with ad.IndexClient(emu.url) as parent:
            parent.chain("P/block").last_accepted()
        pid = os.fork()
        if pid == 0:  # child: report through the exit code only
            code = 1
            try:
                code = 0 if _last_index(emu.url) == 76 else 2
            finally:
                os._exit(code)
        assert _child_exit_code(pid) == 0


def test_a_client_created_before_fork_works_in_the_child() -> None:
    with ad.Emulator(containers=500) as emu:
        inherited = ad.IndexClient(emu.url)
        chain = inherited.chain("X/block")
        assert chain.last_accepted()["index"] == 499  # its pool and the runtime are live in the parent
        pid = os.fork()
        if pid == 0:  # child: the inherited client, a range walk included
            code = 1
            try:
                ok = chain.container(7) == emu.expected_container("X/block", 7)
                ok = ok and chain.range(0, 500).to_polars().height == 500
                code = 0 if ok else 2
            finally:
                os._exit(code)
        assert _child_exit_code(pid) == 0
        assert chain.container(8) == emu.expected_container("X/block", 8)  # the parent's client still works


EXIT_SCRIPT = textwrap.dedent("""
    import asyncio
    import avax_data as ad

    emu = ad.Emulator(containers=300, data_blocks_per_chain=100)

    async def main():
        node = ad.AsyncIndexClient(emu.url)
        data = ad.AsyncDataClient(base_url=emu.url)
        last = await node.chain("X/tx").last_accepted()
        rows = [c["index"] async for c in node.chain("X/tx").range(0, 300)]
        blocks = await data.blocks("43114", limit=30).to_polars()
        return last["index"], len(rows), blocks.height

    print(asyncio.run(main()))
""")


def test_a_process_that_used_the_async_clients_exits_cleanly() -> None:
    """The runtime's threads hand results to asyncio from their own threads; once the
    interpreter exits they must stay out of Python (they used to crash it about one exit in
    six). Twelve runs: the old crash would show in nearly all of them."""
    codes = []
    for _ in range(12):
        proc = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], capture_output=True, text=True, timeout=120)
        assert proc.stdout.strip() == "(299, 300, 30)", proc.stderr
        codes.append(proc.returncode)
    assert codes == [0] * 12
