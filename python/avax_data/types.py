"""Types shared by the public API and its stubs.

The container dict, the rate-limit dict, and the argument aliases. They exist at run time, so ``from avax_data.types import Container`` works
in annotations and in ``isinstance``-free code alike.

- :class:`Container`: a container dict, as the index methods return it.
- :class:`RateLimitInfo`: ``DataClient.rate_limit``.
- ``DecodedRow`` (``dict[str, Any]``): a decoded container: ``id``, ``timestamp``, ``index``, the
  typed columns, ``decode_error``, ``bytes``.
- ``Decode`` (``bool | Literal["strict"] | None``): ``decode=``.
- ``TimeArg`` (``int | datetime | date``): a time argument (``start=``, ``end=``).
- ``Compression`` (``Literal["snappy", "zstd", "lz4", "gzip", "none"]``): ``compression=``.
- :class:`ProgressBar` and ``Progress`` (``bool | ProgressBar | None``): ``progress=``.

Example:
    >>> from avax_data.types import Container, Decode
    >>> def tip(chain: ad.Chain, decode: Decode = None) -> Container:
    ...     return chain.last_accepted(decode=decode)
    >>> tip(ad.IndexClient(emu.url).chain("X/tx"))["index"]
    999
"""

from __future__ import annotations

import datetime
from typing import Any, Literal, Protocol, TypeAlias, TypedDict

__all__ = ["Compression", "Container", "DecodedRow", "Decode", "Progress", "ProgressBar", "RateLimitInfo", "TimeArg"]


class Container(TypedDict):
    """A container (block, vertex or transaction) as the node's index returns it.

    Keys: ``id`` (CB58 str, checked by the rule of its index), ``bytes`` (checksum verified and
    stripped), ``timestamp`` (timezone-aware ``datetime`` in UTC; DataFrames keep nanoseconds),
    ``index`` (int, from 0), ``encoding`` (``"hex"``).

    Example:
        >>> c = ad.IndexClient(emu.url).chain("X/tx").container(0)
        >>> list(c) == list(ad.Container.__annotations__)
        True
        >>> c["index"], c["encoding"], c["timestamp"].isoformat()
        (0, 'hex', '2020-09-21T00:02:01.463371+00:00')
    """

    id: str
    bytes: bytes
    timestamp: datetime.datetime
    index: int
    encoding: str


class RateLimitInfo(TypedDict):
    """The last ``ratelimit-*`` headers a service sent (``None`` for a missing header).

    Keys: ``policy`` (str, e.g. ``"100;w=60"``: 100 requests per 60 s), ``limit``, ``remaining``
    and ``reset`` (seconds until the window resets) as ints.

    Example:
        >>> with ad.Emulator(rate_limit=(100, 60)) as limited:
        ...     data = ad.DataClient("my-key", base_url=limited.url)
        ...     _ = data.health()
        ...     info: ad.RateLimitInfo | None = data.rate_limit
        >>> sorted(info) == sorted(ad.RateLimitInfo.__annotations__), info["remaining"]
        (True, 99)
    """

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
    """What ``progress=`` accepts besides ``True``: a bar with ``update(n)``.

    A ``tqdm`` bar, or anything with ``update(n)``, advanced by the rows handed out. Your bar is advanced and left open; with ``progress=True`` the package makes a
    ``tqdm.auto`` bar (a widget in Jupyter) and closes it at the end.

    Example:
        >>> class Count:
        ...     rows = 0
        ...     def update(self, n: int) -> None:
        ...         self.rows += n
        >>> bar = Count()
        >>> frames = ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).batches(progress=bar)
        >>> [f.height for f in frames], bar.rows
        ([100, 100, 50], 250)
    """

    def update(self, n: int) -> object:
        """Advance the bar by ``n``."""


Progress: TypeAlias = bool | ProgressBar | None
"""``progress=``: ``None``/``False`` (no bar), ``True`` (a ``tqdm.auto`` bar, a widget in Jupyter; needs tqdm)
or a tqdm bar of your own (any object with ``update(n)``), which is advanced and left open."""
