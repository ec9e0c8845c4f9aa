"""Types shared by the public API and its stubs: the container dict, the rate-limit dict, and
the argument aliases. They exist at run time, so ``from avax_data.types import Container`` works
in annotations and in ``isinstance``-free code alike."""

from __future__ import annotations

import datetime
from typing import Any, Literal, Protocol, TypeAlias, TypedDict

__all__ = ["Compression", "Container", "DecodedRow", "Decode", "Progress", "ProgressBar", "RateLimitInfo", "TimeArg"]


class Container(TypedDict):
    """A container (block, vertex or transaction) as the node's index returns it.

    Keys: ``id`` (CB58 str, checked by the rule of its index), ``bytes`` (checksum verified and
    stripped), ``timestamp`` (timezone-aware ``datetime`` in UTC; DataFrames keep nanoseconds),
    ``index`` (int, from 0), ``encoding`` (``"hex"``).
    """

    id: str
    bytes: bytes
    timestamp: datetime.datetime
    index: int
    encoding: str


class RateLimitInfo(TypedDict):
    """The last ``ratelimit-*`` headers a service sent (``None`` for a missing header)."""

    policy: str | None
    limit: int | None
    remaining: int | None
    reset: int | None


DecodedRow: TypeAlias = dict[str, Any]
"""A decoded container: ``id``, ``timestamp``, ``index``, the typed columns, ``decode_error``, ``bytes``."""

Decode: TypeAlias = bool | Literal["strict"] | None
"""``decode=``: ``False``/``None`` raw containers, ``True`` decoded rows with ``decode_error``, ``"strict"`` raise."""

TimeArg: TypeAlias = int | datetime.datetime | datetime.date
"""A time argument: Unix seconds, a ``datetime`` (naive means UTC) or a ``date`` (00:00 UTC)."""

Compression: TypeAlias = Literal["snappy", "zstd", "lz4", "gzip", "none"]
"""Parquet codecs of ``write_parquet(compression=...)``."""


class ProgressBar(Protocol):
    """What ``progress=`` accepts besides ``True``: a bar advanced by the rows handed out (a
    ``tqdm`` bar, or anything with ``update(n)``)."""

    def update(self, n: int) -> object:
        """Advance the bar by ``n``."""


Progress: TypeAlias = bool | ProgressBar | None
"""``progress=``: ``None``/``False`` (no bar), ``True`` (a ``tqdm.auto`` bar, a widget in Jupyter; needs tqdm)
or a tqdm bar of your own (any object with ``update(n)``), which is advanced and left open."""
