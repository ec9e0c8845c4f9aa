"""``ad.reconcile`` and ``avax-data reconcile`` stopped at the worst moment: Ctrl-C in the middle
of the walk (the Python call, its async twin, the command in a subprocess) and a full disk under
``reconcile -o``.

The rule they hold (docs/guides/reconcile.md, "Errors"): Ctrl-C stops the walk promptly with
``KeyboardInterrupt`` itself (exit 130 and one line saying nothing was written, for the command);
the differences are written only once the whole range is compared, and a file is written whole or
not at all, so neither an interruption nor a full disk leaves a file that looks complete (nor a
temporary one); a file already at the path stays as it was.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import avax_data as ad
from _cli import cli, one_error_line
from _helpers import signal_child, tiny_tmpfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /dev/full, tmpfs")

# The child's reconcile: thousands of Data API requests behind a 50 ms latency, so it is in the
# middle of its walk when the signal comes 1 s after `ready`; then a short one on the same
# clients, which must still work.
CHILD = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import avax_data as ad
emu = ad.Emulator(containers=3_000, data_blocks_per_chain=3_000, latency=0.05)
{setup}
print("ready", flush=True)
try:
{body}
except KeyboardInterrupt as stop:
    print("interrupted", time.monotonic(), type(stop).__name__, flush=True)
except BaseException as exc:
    print("other", type(exc).__name__, str(exc)[:300].replace("\\n", " "), flush=True)
    sys.exit(4)
else:
    print("finished", flush=True)
    sys.exit(5)
emu.set_latency(0)
print("after", flush=True)
{after}
"""

CASES = {
    "sync": (
        "node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)",
        "ad.reconcile(node, data, chain='C', start=0, stop=3_000)",
        "again = ad.reconcile(node, data, chain='C', start=0, stop=20)\n"
        "print('again', again.summary['blocks_compared'], again.differences.height, flush=True)",
    ),
    "async": (
        "import asyncio\n"
        "async def walk(start, stop):\n"
        "    async with ad.AsyncIndexClient(emu.url) as node, ad.AsyncDataClient(base_url=emu.url) as data:\n"
        "        return await ad.reconcile_async(node, data, chain='P', start=start, stop=stop)",
        "asyncio.run(walk(0, 3_000))",
        "again = asyncio.run(walk(0, 20))\n"
        "print('again', again.summary['blocks_compared'], again.differences.height, flush=True)",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_ctrl_c_stops_a_reconcile_promptly_and_the_clients_still_work(name: str) -> None:
    setup, body, after = CASES[name]
    script = textwrap.dedent(CHILD).format(setup=setup, body=textwrap.indent(body, "    "), after=after)
    sent, out, err, code = signal_child(script, after=1.0)
    lines = out.splitlines()
    stopped = [line.split() for line in lines if line.startswith("interrupted ")]
    assert stopped, f"no KeyboardInterrupt: {out}\n{err[-3000:]}"
    # KeyboardInterrupt itself, never wrapped; within 5 s (the contract is 250 ms; a loaded
    # machine runs other builds).
    assert stopped[0][2] == "KeyboardInterrupt"
    assert 0 <= float(stopped[0][1]) - sent < 5.0, f"came {float(stopped[0][1]) - sent:.2f} s after SIGINT"
    assert code == 0, (code, out, err[-3000:])
    assert "again 20 0" in lines, lines


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=3_000, data_blocks_per_chain=3_000) as emulator:
        yield emulator


def _command(emu: ad.Emulator, out: Path | str, *extra: str) -> list[str]:
    return ["reconcile", "--node-url", emu.url, "--base-url", emu.url, "--chain", "C", *extra, "-o", str(out)]


@pytest.mark.parametrize("existing", [False, True])
def test_ctrl_c_stops_the_command_with_130_and_writes_nothing(emu: ad.Emulator, tmp_path: Path,
                                                              existing: bool) -> None:
    out = tmp_path / "diff.parquet"
    if existing:
        out.write_bytes(b"a file of an earlier run")
    emu.set_latency(0.05)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "avax_data", *_command(emu, out, "--start", "0", "--stop",
                                                                               "3000")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        began = emu.request_count()
        deadline = time.monotonic() + 60
        while emu.request_count() < began + 40:  # the walk is under way
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command sent no request"
            time.sleep(0.01)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        elapsed = time.monotonic() - sent
    finally:
        emu.set_latency(0)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (proc.returncode, stderr)
    assert elapsed < 5.0, f"exited {elapsed:.2f} s after SIGINT"
    assert stdout == ""
    assert stderr.strip() == ("interrupted (nothing written: the differences are written once the whole range "
                              "is compared)"), stderr
    assert sorted(os.listdir(tmp_path)) == (["diff.parquet"] if existing else [])
    if existing:
        assert out.read_bytes() == b"a file of an earlier run"


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs filled to the last byte by ``filler`` (skipped where no tmpfs can be mounted)."""
    with tiny_tmpfs(tmp_path / "full") as mount:
        with open(mount / "filler", "wb", buffering=0) as filler:
            try:
                while filler.write(b"\0" * 4096):
                    pass
            except OSError as full:
                assert full.errno == errno.ENOSPC
        yield mount


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".ndjson"])
def test_a_full_disk_under_reconcile_o_is_a_clear_error_and_no_file(capsys: pytest.CaptureFixture[str],
                                                                    full_disk: Path, suffix: str) -> None:
    out = full_disk / f"diff{suffix}"
    # The Data API lists 3,000 blocks, the node stops at 2,900: 100 `extra` rows to write.
    with ad.Emulator(containers=2_900, data_blocks_per_chain=3_000) as behind:
        result = cli(capsys, *_command(behind, out, "--start", "2850", "--stop", "3000"))
    assert result.code == 1, result.err
    assert one_error_line(result.err) == (f"error: {out}: No space left on device (check the output path, its "
                                          "directory and free space)")
    assert os.listdir(full_disk) == ["filler"], "no partial file left, under any name"


def test_dev_full_as_the_output_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    # Not a regular file: written to directly (no temporary name beside it in /dev).
    with ad.Emulator(containers=2_990, data_blocks_per_chain=3_000) as behind:
        result = cli(capsys, *_command(behind, "/dev/full", "--start", "2980", "--stop", "3000", "--format", "ndjson"))
    assert result.code == 1, result.err
    assert one_error_line(result.err) == ("error: /dev/full: No space left on device (check the output path, its "
                                          "directory and free space)")
    assert not Path("/dev/full.tmp").exists()


def test_a_whole_file_replaces_an_earlier_one_and_no_temporary_is_left(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    out = tmp_path / "diff.csv"
    out.write_text("an earlier run's file\n")
    with ad.Emulator(containers=290, data_blocks_per_chain=300) as behind:
        result = cli(capsys, *_command(behind, out, "--start", "280", "--stop", "300", "-q"))
    assert result.code == 1 and result.err == ""
    frame = pl.read_csv(out)
    assert frame["kind"].to_list() == ["extra"] * 10 and frame["height"].to_list() == list(range(290, 300))
    assert os.listdir(tmp_path) == ["diff.csv"]


def test_ctrl_c_in_the_middle_of_the_write_leaves_the_earlier_file(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from avax_data.cli import reconcile_cmd

    written = reconcile_cmd._write_file

    def half_then_ctrl_c(differences: pl.DataFrame, out: str, fmt: str) -> None:
        written(differences.head(3), out, fmt)  # a smaller, complete-looking file under the temporary name
        raise KeyboardInterrupt

    monkeypatch.setattr(reconcile_cmd, "_write_file", half_then_ctrl_c)
    out = tmp_path / "diff.parquet"
    out.write_bytes(b"an earlier run's file")
    with ad.Emulator(containers=290, data_blocks_per_chain=300) as behind:
        result = cli(capsys, *_command(behind, out, "--start", "280", "--stop", "300"))
    assert result.code == 130 and result.err.strip() == "interrupted", result.err
    assert os.listdir(tmp_path) == ["diff.parquet"] and out.read_bytes() == b"an earlier run's file"
