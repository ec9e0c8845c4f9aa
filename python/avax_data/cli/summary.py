"""The summary ``walk`` prints: read back from the file it wrote."""

from __future__ import annotations

import os

import polars as pl

from .export import ExportResult

__all__ = ["summary_lines", "human_bytes"]


def human_bytes(n: int) -> str:
    """``1536`` -> ``1.5 KiB``."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{n} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


def _scan(path: str, fmt: str) -> pl.LazyFrame:
    if fmt == "parquet":
        return pl.scan_parquet(path)
    if fmt == "csv":
        return pl.scan_csv(path, schema_overrides={"timestamp": pl.Datetime("ns", "UTC"), "bytes": pl.String})
    return pl.scan_ndjson(path, schema_overrides={"timestamp": pl.Datetime("ns", "UTC"), "bytes": pl.String})


def summary_lines(result: ExportResult) -> list[str]:
    """Rows, index range, first and last time, container bytes, file size, time and rate."""
    frame = _scan(result.out, result.fmt)
    size_expr = (
        pl.col("bytes").bin.size()
        if result.fmt == "parquet"
        else ((pl.col("bytes").str.len_bytes() - 2) // 2)  # "0x" + two hex digits a byte
    )
    stats = (
        frame.select(
            pl.len().alias("rows"),
            pl.col("index").min().alias("first_index"),
            pl.col("index").max().alias("last_index"),
            pl.col("timestamp").min().alias("first_ts"),
            pl.col("timestamp").max().alias("last_ts"),
            size_expr.cast(pl.UInt64).sum().alias("total_bytes"),
        )
        .collect()
        .row(0, named=True)
    )
    rows = int(stats["rows"])
    size = os.path.getsize(result.out)
    rate = result.rows / result.seconds if result.seconds > 0 else float("inf")
    lines = [f"rows:        {rows:,}"]
    if rows:
        lines.append(f"index range: {stats['first_index']} .. {stats['last_index']}")
        lines.append(f"first time:  {stats['first_ts']}")
        lines.append(f"last time:   {stats['last_ts']}")
    else:
        lines.append("index range: (empty)")
    total = int(stats["total_bytes"] or 0)
    lines.append(f"bytes:       {total:,} ({human_bytes(total)}) of container data")
    lines.append(f"file:        {result.out} ({size:,} bytes, {human_bytes(size)})")
    if result.skipped:
        lines.append("time:        0.00 s (nothing walked: the file was already complete)")
    else:
        lines.append(f"time:        {result.seconds:.2f} s ({rate:,.0f} rows/s)")
    return lines
