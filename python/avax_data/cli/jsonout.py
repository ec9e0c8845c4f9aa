"""Single objects (a container, a chain, a block, a summary) as JSON on stdout or in a file.

``bytes`` become ``"0x"`` hex strings, times ISO 8601 strings, whole ``Decimal`` values JSON
integers (other decimals strings), DataFrames a list of row objects.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import sys
from typing import Any

__all__ = ["jsonable", "emit_json"]


def jsonable(value: Any) -> Any:
    """``value`` with every part converted to a JSON type."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    polars = sys.modules.get("polars")  # a DataFrame means polars is loaded; never import it here
    if polars is not None and isinstance(value, polars.DataFrame):
        return [jsonable(row) for row in value.iter_rows(named=True)]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "0x" + bytes(value).hex()
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    return value


def emit_json(value: Any, out: str | None) -> None:
    """Print ``value`` as indented JSON to stdout, or write it to ``out`` (``-`` is stdout)."""
    text = json.dumps(jsonable(value), indent=2, ensure_ascii=False) + "\n"
    if out in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with open(out, "w", encoding="utf-8") as file:
            file.write(text)
