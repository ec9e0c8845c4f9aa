"""Reconcile a node's index against the Data API: every block and transaction of a range of
heights, compared on both sides.

:func:`reconcile` walks the node's block index of one chain (``C/block``, ``P/block`` or
``X/block``) and the Data API's blocks of the same chain over ``range(start, stop)``, and returns
each fact on which they disagree as a row of a polars DataFrame, with a summary of what was
compared. :func:`reconcile_async` is its awaitable twin.

Example:
    >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
    >>> result = ad.reconcile(node, data, chain="C", start=0, stop=50)
    >>> result.differences.height, result.summary["blocks_compared"]
    (0, 50)
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple

from . import _native

if TYPE_CHECKING:
    import polars as pl

__all__ = ["Reconciliation", "reconcile", "reconcile_async"]


class Reconciliation(NamedTuple):
    """What :func:`reconcile` found: the differences and a summary of what was compared.

    Attributes:
        differences: a polars DataFrame, one row per difference, by height, with the columns
            ``kind`` (``"missing"``: in the index, not in the Data API; ``"extra"``: in the
            Data API, not in the index; ``"different"``: on both, a field differs), ``chain``
            (``"C"``, ``"P"``, ``"X"``), ``height`` (UInt64), ``id`` (the block's hash or id, or
            the transaction's), ``field`` (the field, or ``"block"``/``"transaction"`` for one
            present on one side only), ``index_value`` and ``data_value`` (strings; null on the
            side that lacks it). Empty, with these columns, when the sides agree.
        summary: a dict of ints: ``heights``, ``index_blocks``, ``data_blocks``,
            ``blocks_compared``, ``index_transactions``, ``data_transactions``, ``missing``,
            ``extra``, ``different``, ``index_requests``, ``data_requests``.

    Example:
        >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
        >>> differences, summary = ad.reconcile(node, data, chain="C", start=10, stop=20)
        >>> differences.columns
        ['kind', 'chain', 'height', 'id', 'field', 'index_value', 'data_value']
        >>> summary["heights"], summary["missing"] + summary["extra"] + summary["different"]
        (10, 0)
    """

    differences: pl.DataFrame
    summary: dict[str, int]


def reconcile(
    node: Any,
    data: Any,
    chain: str = "C",
    *,
    start: int,
    stop: int,
    network: str = "mainnet",
    progress: Any = None,
) -> Reconciliation:
    """Compare a node's block index with the Data API over the heights ``range(start, stop)``.

    Both sides are walked at once, a chunk of 256 heights at a time (one ``getContainerRange``
    call on the node; one request per block on the Data API, plus one per 100 transactions of a
    C-Chain block), through the clients' own rate limits and retries. Compared, per height: the
    block's hash, its transaction count and time, for the C-Chain also its parent hash, gas used
    and base fee (the index states no base fee before ApricotPhase3: not compared there), and
    its transactions by hash (for the C-Chain each one's effective gas price too).

    Args:
        node: the node, an :class:`IndexClient` (or :class:`AsyncIndexClient`).
        data: the Data API, a :class:`DataClient` (or :class:`AsyncDataClient`).
        chain: ``"C"`` (``C/block`` against ``/v1/chains/{43114|43113}/blocks``), ``"P"``
            (``P/block`` against the primary network's ``p-chain`` blocks) or ``"X"``
            (``X/block`` against its ``x-chain`` blocks).
        start: the first height (an int >= 0).
        stop: one past the last height (an int > ``start``).
        network: the Data API's network: ``"mainnet"`` (default), ``"fuji"`` or ``"testnet"``.
        progress: ``True`` for a tqdm bar of the heights done, a tqdm bar of yours, or
            ``None``/``False`` (default).

    Returns:
        Reconciliation: ``(differences, summary)``; see :class:`Reconciliation`.

    Raises:
        InvalidParameterError: a bad argument, before any request.
        DecodeError: an index container that does not decode.
        AvaxDataError: the errors of the two clients (HTTP, transport, closed client).

    Example:
        >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
        >>> differences, summary = ad.reconcile(node, data, chain="C", start=0, stop=100)
        >>> differences.is_empty(), summary["blocks_compared"], summary["index_requests"]
        (True, 100, 3)
        >>> ad.reconcile(node, data, chain="C", start=5, stop=5)
        Traceback (most recent call last):
        ...
        avax_data.exceptions.InvalidParameterError: invalid stop=5: an int > start (5)
    """
    frame, summary = _native.reconcile(node, data, chain, start, stop, network, progress)
    return Reconciliation(frame, summary)


def reconcile_async(
    node: Any,
    data: Any,
    chain: str = "C",
    *,
    start: int,
    stop: int,
    network: str = "mainnet",
    progress: Any = None,
) -> Coroutine[Any, Any, Reconciliation]:
    """:func:`reconcile`, awaited: the same arguments, checks and result.

    The arguments are checked by the call itself, inside a running event loop (as the async
    clients' methods are); the walk starts then and the coroutine returned ends with it.

    Args:
        node: an :class:`AsyncIndexClient` (or :class:`IndexClient`).
        data: an :class:`AsyncDataClient` (or :class:`DataClient`).
        chain: ``"C"``, ``"P"`` or ``"X"``.
        start: the first height.
        stop: one past the last height.
        network: the Data API's network.
        progress: as in :func:`reconcile`.

    Returns:
        Reconciliation: ``(differences, summary)``.

    Raises:
        InvalidParameterError: a bad argument, raised by the call, before any request.

    Example:
        >>> import asyncio
        >>> async def main():
        ...     async with ad.AsyncIndexClient(emu.url) as node, ad.AsyncDataClient(base_url=emu.url) as data:
        ...         return await ad.reconcile_async(node, data, chain="C", start=0, stop=20)
        >>> asyncio.run(main()).summary["blocks_compared"]
        20
    """
    pending = _native.reconcile_async(node, data, chain, start, stop, network, progress)

    async def finished() -> Reconciliation:
        frame, summary = await pending
        return Reconciliation(frame, summary)

    return finished()


Reconciliation.differences.__doc__ = """The differences, one row per fact, by height (a polars DataFrame).

Example:
    >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
    >>> ad.reconcile(node, data, start=0, stop=10).differences.schema["height"]
    UInt64
"""

Reconciliation.summary.__doc__ = """What was compared: a dict of ints (blocks and transactions on each side, rows of each kind,
requests sent).

Example:
    >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
    >>> summary = ad.reconcile(node, data, start=0, stop=10).summary
    >>> summary["index_blocks"], summary["data_blocks"], summary["different"]
    (10, 10, 0)
"""
