"""The progress line: on a terminal only, with an ETA when the total is known, throttled."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from avax_data.cli.progress import Progress, format_line


def run_on_pty(args: list[str]) -> tuple[int, str, str]:
    """Run ``avax-data ARGS`` with stderr on a pseudo-terminal; returns (code, stdout, terminal text)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "avax_data", *args], stdout=subprocess.PIPE, stderr=slave,
                                stdin=subprocess.DEVNULL)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        out = proc.stdout.read() if proc.stdout else b""
        code = proc.wait(timeout=60)
    finally:
        os.close(master)
    return code, out.decode(), b"".join(chunks).decode(errors="replace")


RANGE = ["index", "range", "--emulator", "--emulator-containers", "3000", "--emulator-latency", "0.02",
         "--batch-size", "250", "--concurrency", "1"]


def test_progress_on_a_terminal_with_a_total(tmp_path: Path) -> None:
    code, _, text = run_on_pty([*RANGE, "--count", "3000", "-o", str(tmp_path / "x.parquet")])
    assert code == 0, text
    assert "rows/s" in text and "\r" in text  # redrawn in place
    assert "3,000" in text or "3000" in text
    assert "100" in text and "%" in text  # a share of the known total
    assert text.rstrip().endswith(f"wrote 3,000 rows to {tmp_path / 'x.parquet'} (parquet) in " +
                                  text.rstrip().split(" in ")[-1])


def test_spinner_without_a_total_and_quiet(tmp_path: Path) -> None:
    data = ["data", "blocks", "43114", "--emulator", "--emulator-data-blocks", "300", "--page-size", "50"]
    code, _, text = run_on_pty([*data, "-o", str(tmp_path / "b.csv")])
    assert code == 0 and "rows/s" in text and "%" not in text
    code, _, text = run_on_pty([*data, "-o", str(tmp_path / "c.csv"), "--quiet"])
    assert code == 0 and text == ""


def test_no_progress_when_stderr_is_a_pipe(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "avax_data", *RANGE, "--count", "1000", "-o", "-"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("embedded emulator at ") and lines[1].startswith("wrote 1,000 rows to stdout")
    assert len(lines) == 2 and "\r" not in proc.stderr and "rows/s" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 1000


def test_line_format() -> None:
    assert format_line(250, 1000, 50.0, 0) == "[#####...............]  25.0%  250 rows  50 rows/s  ETA 0:15"
    assert format_line(1000, 1000, 50.0, 0).endswith("100.0%  1,000 rows  50 rows/s  ETA 0:00")
    assert format_line(5, 1000, 0.0, 0).endswith("ETA ?")
    assert format_line(10, 10**9, 10.0, 0).endswith("ETA 27777:46:39")
    spins = {format_line(12_345, None, 1234.4, tick)[0] for tick in range(4)}
    assert spins == set("|/-\\")
    assert format_line(12_345, None, 1234.4, 0)[1:] == " 12,345 rows  1,234 rows/s"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_redraws_at_most_ten_times_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("avax_data.cli.progress.time.monotonic", lambda: clock[0])
    term = FakeTerminal()
    bar = Progress(None, stream=term, use_tqdm=False, initial=40)
    for _ in range(1000):  # 1000 updates within 50 ms: one draw
        bar.update(1)
        clock[0] += 0.00005
    assert term.getvalue().count("\r") == 1
    clock[0] += 0.2
    bar.update(1)
    assert term.getvalue().count("\r") == 2
    bar.close()
    final = term.getvalue().split("\r")[-1]
    assert final == "\\ 1,041 rows  4,004 rows/s\n"  # the initial 40 count in the rows, not in the rate


def test_hidden_when_not_a_terminal_or_quiet() -> None:
    for stream, quiet in ((io.StringIO(), False), (FakeTerminal(), True)):
        bar = Progress(10, stream=stream, use_tqdm=False, quiet=quiet)
        bar.update(5)
        bar.close()
        assert stream.getvalue() == ""
