"""Running the command line in tests: in this process (fast) or as a user would (a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from avax_data.cli import main


@dataclass
class Result:
    """Exit code and captured output of one command."""

    code: int
    out: str
    err: str


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    """``avax-data ARGS`` in this process; argparse's exits become exit codes."""
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = int(stop.code or 0)
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def run(*args: str, cwd: Path | None = None, timeout: float = 120, **kwargs: object) -> subprocess.CompletedProcess:
    """``python -m avax_data ARGS`` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "avax_data", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, **kwargs)


def one_error_line(err: str) -> str:
    """The single ``error: ...`` line of stderr (fails if there is not exactly one line, or a traceback)."""
    lines = [line for line in err.strip().splitlines() if not line.startswith("embedded emulator at")]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]
