"""A sync call waiting for answers is woken by a signal, not by a clock.

On the main thread a blocking call points CPython's wakeup fd (``signal.set_wakeup_fd``) at a
pipe of the extension for as long as it waits, so an idle wait costs no wake-ups (a walk at 20 ms
a page used to wake the caller and a ticking thread 20 times a second each), and Ctrl-C still
lands at once. The fd the caller had is put back after every call; when someone else holds it
(an asyncio loop's signal handlers), the call polls as before and leaves it alone.

Each case runs in a child process: the wakeup fd and the threads are per process, and a child
gets a real SIGINT from this one (``tests/test_interrupt.py`` covers every mode's delay).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from _helpers import signal_child

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and wakeup fds")

PRELUDE = """
import os
import signal
import sys
import threading
import time
signal.signal(signal.SIGINT, signal.default_int_handler)
import avax_data as ad
emu = ad.Emulator(latency=0.0)
data = ad.DataClient(base_url=emu.url)
data.blocks("43114", page_size=10, limit=10).to_polars()  # the client and its connection made


def threads():
    names = []
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/comm") as f:
            names.append(f.read().strip())
    return names


def switches():
    with open("/proc/thread-self/status") as f:
        return int(next(line for line in f if line.startswith("voluntary_ctxt_switches")).split()[1])
"""


def run_child(body: str) -> list[str]:
    """Runs PRELUDE + ``body`` in a fresh interpreter; its stdout lines (it must exit 0)."""
    script = textwrap.dedent(PRELUDE) + textwrap.dedent(body)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    return done.stdout.splitlines()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread counters of /proc")
def test_an_idle_sync_wait_is_not_woken_by_a_clock() -> None:
    lines = run_child("""
        emu.set_latency(1.0)
        before = switches()
        rows = data.blocks("43114", page_size=10, limit=10).to_polars().height
        print("rows", rows)
        print("switches", switches() - before)
        print("threads", ",".join(sorted(set(threads()))))
    """)
    found = dict(line.split(" ", 1) for line in lines)
    assert found["rows"] == "10"
    # About 1 s of waiting: polling every 50 ms woke the calling thread about 20 times.
    assert int(found["switches"]) < 8, lines
    names = found["threads"].split(",")  # thread names as the kernel keeps them (15 bytes)
    assert "avax-data-sig" in names, names
    assert "avax-data-tick" not in names, names


def test_the_callers_wakeup_fd_is_put_back_after_every_call() -> None:
    lines = run_child("""
        print("unset", signal.set_wakeup_fd(-1))
        data.blocks("43114", page_size=10, limit=30).to_polars()
        print("after_unset", signal.set_wakeup_fd(-1))
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        signal.set_wakeup_fd(write_end)
        data.blocks("43114", page_size=10, limit=30).to_polars()
        print("after_own", signal.set_wakeup_fd(-1) == write_end)
        # A call on another thread leaves the main thread's fd alone.
        signal.set_wakeup_fd(write_end)
        worker = threading.Thread(target=lambda: data.blocks("43114", page_size=10, limit=30).to_polars())
        worker.start()
        worker.join()
        print("after_thread", signal.set_wakeup_fd(-1) == write_end)
    """)
    assert lines == ["unset -1", "after_unset -1", "after_own True", "after_thread True"]


@pytest.mark.parametrize("own_fd", [False, True], ids=["pipe", "callers_fd_polls"])
def test_ctrl_c_in_a_waiting_call_is_a_prompt_keyboard_interrupt(own_fd: bool) -> None:
    # With the caller's own wakeup fd set, the call polls (ticks) and leaves the fd alone.
    setup = "r, w = os.pipe()\nos.set_blocking(w, False)\nsignal.set_wakeup_fd(w)\n" if own_fd else "w = -1\n"
    script = textwrap.dedent(PRELUDE) + setup + textwrap.dedent("""
        emu.set_latency(30.0)
        print("ready", flush=True)
        try:
            data.blocks("43114", page_size=10, limit=10).to_polars()
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            print("fd_kept", signal.set_wakeup_fd(-1) == w, flush=True)
            sys.exit(3)
        print("finished", flush=True)
    """)
    sent, out, err, returncode = signal_child(script)
    lines = out.splitlines()
    assert returncode == 3, (returncode, out, err[-3000:])
    stamp = next(float(line.split()[1]) for line in lines if line.startswith("interrupted "))
    # The contract is 250 ms; 5 s leaves room for a loaded machine (the answer was 30 s away).
    assert 0 <= stamp - sent < 5.0, f"KeyboardInterrupt came {stamp - sent:.2f} s after SIGINT"
    assert "fd_kept True" in lines, lines
