"""What the benches share: their command line and their table of medians.

Import it from a bench run as a script (``benches/`` is then on ``sys.path``).
"""

from __future__ import annotations

import argparse
import statistics


def options(description: str | None = None, **defaults: int | float | str) -> argparse.Namespace:
    """The bench's command line, parsed: one ``--name`` per keyword (``page_size`` is
    ``--page-size``), of the type of its default."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name, default in defaults.items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(default), default=default,
                            help=f"default {default}")
    return parser.parse_args()


def print_medians(times: dict[str, list[float]], rows: int, base: str, against: str = "") -> None:
    """One line per run: its median seconds, rows per second and speed against run ``base``
    (``{ratio}x{against}``)."""
    base_median = statistics.median(times[base])
    width = max(map(len, times))
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:{width}s} {median:7.3f} s  {rows / median:10,.0f} rows/s  {base_median / median:5.2f}x{against}")
