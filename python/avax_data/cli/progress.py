"""The progress line on stderr: rows, rows/s, and a bar with an ETA when the total is known.

Shown only when stderr is a terminal (and not with ``--quiet``). Uses tqdm when it is
installed, else the small renderer here. Either redraws at most 10 times a second, so the
export does not slow down measurably.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO

__all__ = ["Progress", "format_line"]

_SPINNER = "|/-\\"
_MIN_INTERVAL = 0.1
_BAR = 20


def _duration(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3725`` -> ``1:02:05``."""
    seconds = int(max(seconds, 0))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_line(done: int, total: int | None, rate: float, tick: int) -> str:
    """One progress line: a bar, percentage and ETA with a total, a spinner without."""
    text = f"{done:,} rows  {rate:,.0f} rows/s"
    if total is None:
        return f"{_SPINNER[tick % len(_SPINNER)]} {text}"
    share = min(done / total, 1.0) if total else 1.0
    filled = int(share * _BAR)
    eta = _duration((total - done) / rate) if rate > 0 and done < total else "0:00" if done >= total else "?"
    return f"[{'#' * filled}{'.' * (_BAR - filled)}] {share * 100:5.1f}%  {text}  ETA {eta}"


class Progress:
    """Progress of one export: ``update(rows)`` as rows arrive, ``close()`` at the end.

    ``initial`` rows were written by an earlier (interrupted) run; the rate counts this run's.
    """

    def __init__(
        self,
        total: int | None,
        *,
        initial: int = 0,
        quiet: bool = False,
        stream: TextIO | None = None,
        use_tqdm: bool | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = not quiet and _isatty(self.stream)
        self.total = total
        self.done = initial
        self._initial = initial
        self._began = time.monotonic()
        self._drawn = 0.0
        self._tick = 0
        self._width = 0
        self._bar: Any = None
        if self.enabled and use_tqdm is not False:
            try:
                from tqdm import tqdm
            except ImportError:
                if use_tqdm:
                    raise
            else:
                # A terminal of unknown size (0 x 0, e.g. a bare pty) gets 80 x 24: tqdm hides its bar
                # on a screen of 0 rows.
                sized = _columns(self.stream) > 0
                self._bar = tqdm(
                    total=total, initial=initial, unit="rows", file=self.stream, mininterval=_MIN_INTERVAL,
                    dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24, leave=True,
                )

    def update(self, rows: int) -> None:
        """``rows`` more rows were exported."""
        self.done += rows
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(rows)
            return
        now = time.monotonic()
        if now - self._drawn >= _MIN_INTERVAL:
            self._draw(now)

    def _draw(self, now: float) -> None:
        self._drawn = now
        self._tick += 1
        elapsed = now - self._began
        rate = (self.done - self._initial) / elapsed if elapsed > 0 else 0.0
        line = format_line(self.done, self.total, rate, self._tick)
        pad = max(self._width - len(line), 0)
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line (nothing when hidden)."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        else:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
        self.enabled = False


def _columns(stream: TextIO) -> int:
    """Columns of the terminal ``stream`` writes to (0 when unknown)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
