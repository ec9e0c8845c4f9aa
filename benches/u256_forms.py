"""How to hold a uint256 column (token amounts and ids) in a frame: the forms side by side on one
set of ERC-20 amounts (mostly 18-decimal amounts, some zeros, some spam amounts up to 2^256 - 1).

    python benches/u256_forms.py            # 200,000 values
    python benches/u256_forms.py --rows 20000

For each form: whether it holds every value exactly, the Parquet bytes (polars' writer, its
default zstd), the seconds to build the column from the amounts' decimal text, and what a user
can do with it in polars: an exact sort (against Python's sort of the ints), a filter
(``> 10**30``, against Python's), a sum of the amounts under 10^38 (its relative error against Python's exact sum). The
forms are cryo's (``--u256-types``: binary, string, f64, decimal128) and ours (the exact
text with a Float64 companion). Medians of ``--rounds`` builds.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import options  # noqa: E402

U256_MAX = 2**256 - 1


def amounts(rows: int, seed: int = 7) -> list[int]:
    """Amounts as real ERC-20 transfers carry them: 90% between 10^12 and 10^26 wei-like units,
    5% zero, 5% spam (random up to 78 digits, 2^256 - 1 among them)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(rows):
        roll = rnd.random()
        if roll < 0.05:
            out.append(0)
        elif roll < 0.10:
            out.append(U256_MAX if rnd.random() < 0.3 else rnd.randrange(10**38, U256_MAX))
        else:
            out.append(rnd.randrange(10**12, 10**26))
    return out


def text_f64(texts: pl.Series) -> pl.DataFrame:
    return pl.DataFrame({"value": texts, "valueFloat": texts.cast(pl.Float64)})


def binary(texts: pl.Series) -> pl.DataFrame:
    return pl.DataFrame({"value": pl.Series([int(t).to_bytes(32, "big") for t in texts], dtype=pl.Binary)})


FORMS: dict[str, Callable[[pl.Series], pl.DataFrame]] = {
    "text + Float64 (ours)": text_f64,
    "text (cryo string)": lambda t: pl.DataFrame({"value": t}),
    "binary 32 B (cryo binary)": binary,
    "Float64 (cryo f64)": lambda t: pl.DataFrame({"value": t.cast(pl.Float64)}),
    "Decimal(38, 0) (cryo decimal128)": lambda t: pl.DataFrame({"value": t.cast(pl.Decimal(38, 0), strict=False)}),
}


def exact(form: str, frame: pl.DataFrame, want: list[int]) -> bool:
    col = frame["value"]
    if col.dtype == pl.String:
        return [int(v) for v in col] == want
    if col.dtype == pl.Binary:
        return [int.from_bytes(v, "big") for v in col] == want
    return [None if v is None else int(v) for v in col] == want


def sorted_right(frame: pl.DataFrame, want: list[int]) -> bool:
    """An ascending sort in polars, checked against Python's sort of the exact ints."""
    col = frame["value"]
    if "valueFloat" in frame.columns:  # exact: the float orders, the length and the text break ties
        order = frame.sort(["valueFloat", pl.col("value").str.len_chars(), "value"])["value"]
        return [int(v) for v in order] == sorted(want)
    if col.dtype == pl.Binary:  # 32 bytes big-endian sort as the numbers do
        return [int.from_bytes(v, "big") for v in col.sort()] == sorted(want)
    if col.dtype == pl.String:
        return [int(v) for v in col.sort()] == sorted(want)
    got = frame.with_row_index().sort("value", nulls_last=True)["index"].to_list()
    return [want[i] for i in got] == sorted(want)


def filtered_right(frame: pl.DataFrame, want: list[int]) -> bool:
    """``value > 10**30`` in polars against Python's."""
    expected = sum(1 for v in want if v > 10**30)
    if "valueFloat" in frame.columns:
        # the float decides away from the bound; the text decides the values next to it
        big = pl.col("value").str.len_chars() > 31
        got = frame.filter(big | ((pl.col("value").str.len_chars() == 31) & (pl.col("value") > "1" + "0" * 30))).height
        return got == expected
    col = frame["value"]
    if col.dtype == pl.Binary:
        return frame.filter(pl.col("value") > (10**30).to_bytes(32, "big")).height == expected
    if col.dtype == pl.String:
        return frame.filter(pl.col("value") > str(10**30)).height == expected
    return frame.filter(pl.col("value") > 10**30).height == expected


def sum_error(frame: pl.DataFrame, want: list[int]) -> str:
    """The sum of the amounts under 10^38 (the spam left out, as an analysis would), its
    relative error against Python's exact sum."""
    keep = pl.Series([v < 10**38 for v in want])
    total = sum(v for v in want if v < 10**38)
    column = "valueFloat" if "valueFloat" in frame.columns else "value"
    col = frame[column].filter(keep)
    if col.dtype in (pl.String, pl.Binary):
        return "none (cast first)"
    return f"{abs(float(col.sum()) - total) / total:.1e}"


def parquet_bytes(frame: pl.DataFrame) -> int:
    buf = io.BytesIO()
    frame.write_parquet(buf)
    return buf.getbuffer().nbytes


def main() -> None:
    opts = options(__doc__, rows=200_000, rounds=5)
    want = amounts(opts.rows)
    texts = pl.Series("value", [str(v) for v in want])
    print(f"{opts.rows:,} amounts, {sum(1 for v in want if v >= 10**38):,} past 38 digits; medians of {opts.rounds}")
    print("| form | exact | Parquet bytes/row | build ms | sort exact | filter > 1e30 exact | sum < 1e38 rel. error |")
    print("|---|---|---|---|---|---|---|")
    for form, build in FORMS.items():
        times: list[float] = []
        frame: Any = None
        for _ in range(opts.rounds):
            t0 = time.perf_counter()
            frame = build(texts)
            times.append(time.perf_counter() - t0)
        print(f"| {form} | {exact(form, frame, want)} | {parquet_bytes(frame) / opts.rows:.1f} | "
              f"{statistics.median(times) * 1e3:.1f} | {sorted_right(frame, want)} | {filtered_right(frame, want)} | "
              f"{sum_error(frame, want)} |", flush=True)


if __name__ == "__main__":
    main()
