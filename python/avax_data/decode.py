"""Decoding container bytes you already have, and the transaction table of decoded blocks.

Walks decode on their own with ``decode=True`` (``chain.range(..., decode=True).to_polars()``);
this module serves bytes that came from elsewhere (a saved Parquet file of raw containers, a
capture) and turns the ``transactions`` list column of decoded C-chain blocks into one row per
transaction.

Bytes are the container without the Index API's 4-byte checksum, as :class:`Chain` hands them
out in ``bytes``. Each index has its own decoder: ``C/block``, ``P/block``, ``X/block`` and
``X/tx`` (``X/vtx`` has no published layout).

Example:
    >>> raw = ad.IndexClient(emu.url).chain("P/block").range(0, 3).to_polars()   # raw bytes
    >>> ad.decode_frame("P/block", raw)["block_type"].to_list()
    ['ApricotStandardBlock', 'ApricotProposalBlock', 'ApricotCommitBlock']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _native

if TYPE_CHECKING:  # polars is imported when a function here needs it: `import avax_data` stays light
    import polars as pl

__all__ = ["decode_container", "decode_frame", "transactions"]


def decode_container(path: str, data: bytes, *, strict: bool = False) -> dict[str, Any]:
    """Decode one container's bytes into a dict of the decoded frame's columns.

    Args:
        path: the index the bytes come from, e.g. ``"C/block"``.
        data: the container bytes (checksum stripped).
        strict: raise ``DecodeError`` instead of returning a row with ``decode_error`` set.

    Returns:
        A dict: the envelope columns for block indexes (``block_kind``, ``parent_id``,
        ``proposer``, ...), the inner block's or transaction's columns, ``decode_error``
        (``None`` when decoding succeeded) and ``bytes``.

    Raises:
        InvalidParameterError: an unknown path, or ``X/vtx``.
        DecodeError: with ``strict=True``, bytes that do not decode.

    Example:
        >>> c = ad.IndexClient(emu.url).chain("C/block").container(3)
        >>> row = ad.decode_container("C/block", c["bytes"])
        >>> row["number"], row["tx_count"], row["decode_error"]
        (3, 27, None)
        >>> ad.decode_container("C/block", b"\\x00")["decode_error"]
        'block: expected an RLP list, found a string at byte 0'
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise _invalid("data", data, "bytes")
    frame = _native.decode_bytes(path, [bytes(data)], strict=strict)
    return frame.row(0, named=True)


def decode_frame(
    path: str, frame: pl.DataFrame, *, column: str = "bytes", strict: bool = False
) -> pl.DataFrame:
    """Decode a DataFrame's column of container bytes; the other columns are kept in front.

    ``frame`` is typically a raw walk saved earlier (``range(...).write_parquet(...)``, read back
    with ``pl.read_parquet``). Decoded columns that clash with existing ones replace them.

    Args:
        path: the index the bytes come from, e.g. ``"P/block"``.
        frame: a polars DataFrame with a Binary column of container bytes.
        column: the name of that column.
        strict: raise ``DecodeError`` on the first row that does not decode.

    Returns:
        The frame's columns, then the decoded columns of the index and ``decode_error``.

    Raises:
        InvalidParameterError: an unknown path, ``X/vtx``, a missing or non-binary column, or
            a column with nulls.
        DecodeError: with ``strict=True``, a row that does not decode.

    Example:
        >>> raw = ad.IndexClient(emu.url).chain("C/block").range(0, 3).to_polars()
        >>> decoded = ad.decode_frame("C/block", raw)
        >>> decoded.columns[:5], decoded["number"].to_list()
        (['id', 'bytes', 'timestamp', 'index', 'encoding'], [0, 1, 2])
        >>> ad.decode_frame("C/block", raw, column="id")
        Traceback (most recent call last):
        ...
        avax_data.exceptions.InvalidParameterError: invalid column='id': a Binary column of the frame (columns: [...])
    """
    import polars as pl

    if not isinstance(frame, pl.DataFrame):
        raise _invalid("frame", frame, "a polars DataFrame")
    if column not in frame.columns or frame.schema[column] != pl.Binary:
        raise _invalid("column", column, f"a Binary column of the frame (columns: {frame.columns})")
    if frame[column].null_count():
        raise _invalid("column", column, "a column without nulls")
    decoded = _native.decode_bytes(path, frame[column].to_list(), strict=strict)
    decoded = decoded.drop("bytes")
    kept = frame.drop([c for c in decoded.columns if c in frame.columns])
    return pl.concat([kept, decoded], how="horizontal")


def transactions(blocks: pl.DataFrame, *, senders: bool = False) -> pl.DataFrame:
    """One row per transaction of decoded C-chain blocks, in block and position order.

    Args:
        blocks: a decoded ``C/block`` frame (``decode=True``), with its ``transactions`` column;
            a ``decode="senders"`` frame gives the ``from`` column without ``senders=True``.
        senders: ``True`` adds a ``from`` column after ``hash``: each transaction's sender,
            recovered from its secp256k1 signature (read from the frame's ``bytes`` column,
            spread over the cores; about one point multiplication per transaction).

    Returns:
        The transaction columns: ``block_number``, ``position``, ``hash``, ``type``,
        ``chain_id``, ``nonce``, ``to``, ``value`` (lossless ``Decimal(38, 0)`` wei), ``gas``,
        ``gas_price``, ``max_fee_per_gas``, ``max_priority_fee_per_gas``, ``input_len``,
        ``access_list_len``, ``max_fee_per_blob_gas``, ``blob_hash_count``,
        ``authorization_count``; blocks without transactions (or that did not decode) add none.

    Raises:
        InvalidParameterError: a frame without a ``transactions`` list column, or
            ``senders=True`` on a frame without its ``bytes`` column.
        DecodeError: ``senders=True`` and a transaction whose signature is invalid (the
            message names the block item and the transaction).

    Example:
        >>> blocks = ad.IndexClient(emu.url).chain("C/block").range(0, 3, decode=True).to_polars()
        >>> blocks["tx_count"].to_list()
        [28, 17, 13]
        >>> txs = ad.transactions(blocks)
        >>> txs.height, txs.columns[:4]
        (58, ['block_number', 'position', 'hash', 'type'])
    """
    import polars as pl

    if not isinstance(blocks, pl.DataFrame) or "transactions" not in blocks.columns:
        raise _invalid("blocks", type(blocks).__name__, "a decoded C/block DataFrame with a 'transactions' column")
    if senders and "bytes" not in blocks.columns:
        raise _invalid("senders", senders, "False on a frame without the containers' 'bytes' column")
    txs = blocks.select("transactions").explode("transactions").drop_nulls("transactions").unnest("transactions")
    if not senders or "from" in txs.columns:  # decode="senders" frames carry it already
        return txs
    decoded = blocks.filter(pl.col("transactions").is_not_null())
    recovered = _native.c_block_senders(decoded["bytes"].to_list())
    flat = [sender for block in recovered for sender in block]
    at = txs.columns.index("hash") + 1
    return txs.insert_column(at, pl.Series("from", flat, dtype=pl.String))


def _invalid(param: str, value: object, allowed: str) -> Exception:
    from .exceptions import InvalidParameterError

    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return InvalidParameterError(f"invalid {param}={shown}: {allowed}", param=param, value=value, allowed=allowed)
