"""Output formats: which one a command writes, and frames made fit for the text formats.

- **parquet**: the typed frame as it is (nested columns, decimals, binary, ns timestamps).
- **ndjson**: one JSON object per row. Binary columns (``bytes``, ``extra_data``) become
  ``"0x"``-prefixed hex strings (JSON has no bytes); the rest is written by polars: timestamps as
  ISO 8601 strings, ``Decimal`` as strings of digits (lossless), nested columns as JSON.
- **csv**: a header row, then one line per row. Binary as ``0x`` hex; nested columns (``List``,
  ``Struct``) are written as JSON text in one cell (CSV cannot hold them), e.g.
  ``[{"asset_id":"...","amount":"1000"}]``; timestamps as ISO 8601; decimals as digits.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import EXIT_USAGE, CliError

if TYPE_CHECKING:  # polars is imported where a frame is made: `avax-data --help` stays quick
    import polars as pl

__all__ = ["FORMATS", "resolve_format", "default_out", "for_ndjson", "for_csv", "STDOUT"]

#: The formats an export can write.
FORMATS = ("parquet", "csv", "ndjson")

#: ``--out -``: NDJSON on stdout.
STDOUT = "-"

_EXTENSIONS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".ndjson": "ndjson",
    ".jsonl": "ndjson",
}


def resolve_format(out: str, explicit: str | None) -> str:
    """The format to write: ``--format`` if given, NDJSON for ``-``, else the extension of ``out``."""
    if out == STDOUT:
        if explicit not in (None, "ndjson"):
            raise CliError(f"--out - writes NDJSON to stdout, not {explicit}", "drop --format or write to a file")
        return "ndjson"
    if explicit is not None:
        return explicit
    suffix = Path(out).suffix.lower()
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    raise CliError(
        f"cannot tell the format of {out!r} from its extension",
        "name it .parquet, .csv, .ndjson or .jsonl, or pass --format parquet|csv|ndjson",
        EXIT_USAGE,
    )


def default_out(stem: str, fmt: str | None) -> str:
    """``x_tx`` -> ``x_tx.parquet`` (or the extension of ``--format``)."""
    return f"{stem}.{fmt or 'parquet'}"


def _hex(expr: pl.Expr) -> pl.Expr:
    """Binary -> ``0x...`` hex string (null stays null)."""
    import polars as pl

    return pl.concat_str([pl.lit("0x"), expr.bin.encode("hex")])


def _has_binary(dtype: Any) -> bool:
    import polars as pl

    if isinstance(dtype, pl.Struct):
        return any(_has_binary(field.dtype) for field in dtype.fields)
    if isinstance(dtype, (pl.List, pl.Array)):
        return _has_binary(dtype.inner)
    return dtype == pl.Binary


def _binary_to_hex(expr: pl.Expr, dtype: Any) -> pl.Expr:
    """``expr`` with every Binary inside it (at any depth) as hex strings."""
    import polars as pl

    if not _has_binary(dtype):
        return expr
    if isinstance(dtype, pl.Struct):
        fields = [_binary_to_hex(expr.struct.field(f.name), f.dtype).alias(f.name) for f in dtype.fields]
        return pl.when(expr.is_null()).then(None).otherwise(pl.struct(fields))
    if isinstance(dtype, (pl.List, pl.Array)):
        items = expr.list if isinstance(dtype, pl.List) else expr.arr.to_list().list
        return items.eval(_binary_to_hex(pl.element(), dtype.inner))
    return _hex(expr)


def for_ndjson(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with binary values as ``0x`` hex strings, ready for ``write_ndjson``."""
    import polars as pl

    exprs = [_binary_to_hex(pl.col(name), dtype).alias(name) for name, dtype in frame.schema.items()]
    return frame.select(exprs) if any(_has_binary(d) for d in frame.schema.values()) else frame


def _json_text(expr: pl.Expr) -> pl.Expr:
    """A nested value as its JSON text (null stays null)."""
    import polars as pl

    wrapped = pl.struct(expr.alias("v")).struct.json_encode()
    text = wrapped.str.strip_prefix('{"v":').str.strip_suffix("}")
    return pl.when(expr.is_null()).then(None).otherwise(text)


def for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with binary values as ``0x`` hex and nested columns as JSON text, ready for CSV."""
    import polars as pl

    exprs = []
    for name, dtype in frame.schema.items():
        expr = _binary_to_hex(pl.col(name), dtype)
        if isinstance(dtype, (pl.Struct, pl.List, pl.Array)):
            expr = _json_text(expr)
        exprs.append(expr.alias(name))
    return frame.select(exprs)
