"""One rule reads the decimal digits of an amount on every path: a frame's column and a dict's
value accept the same texts with the same value, and refuse the others with the same error
(``field "feesSpent": "+5" is not an integer of at most 38 digits``). The core's table test
(``one_rule_reads_the_digits_of_both_integer_kinds``) pins the rule itself; this one shows the two
paths of the package agree on it, for a ``Decimal128(38, 0)`` field and a ``UInt64`` one. One
difference is the type's, not the rule's: an amount past 38 digits (a uint256 token value, up to
2^256 - 1) does not fit the frame's column, which refuses it, while a dict keeps its exact ``int``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import avax_data as ad
from _hostile import GrowingList, fetch_list, serve

BLOCKS = "/v1/chains/43114/blocks"
DECIMAL_38 = "an integer of at most 38 digits"
U64_RANGE = "an integer in [0, 2^64)"

# (value sent, its value as a Decimal128(38, 0) amount, as a UInt64 block number); None: refused.
# An amount past 38 digits: refused by the frame, kept by the dict (LONG).
TABLE: list[tuple[Any, int | None, int | None]] = [
    ("5", 5, 5),
    ("+5", None, None),
    ("007", 7, 7),
    ("0" * 60 + "42", 42, 42),
    ("-0", 0, 0),
    ("-5", -5, None),
    ("", None, None),
    ("   ", None, None),
    (" 12\t", 12, 12),
    ("\u00a012", None, None),
    ("-", None, None),
    ("1e3", None, None),
    ("1.0", None, None),
    ("0x10", None, None),
    ("18446744073709551615", 18446744073709551615, 2**64 - 1),
    ("18446744073709551616", 18446744073709551616, None),
    ("9" * 38, int("9" * 38), None),
    ("9" * 39, None, None),
    ("1" + "0" * 39, None, None),
    (7, 7, 7),
    (-7, -7, None),
    (10**30, 10**30, None),
    (10**40, None, None),
    (True, None, None),
    (str(2**256 - 1), None, None),
    ("-" + "0" * 3 + "1" * 45, None, None),
]

#: What a dict keeps of the amounts a frame column cannot hold.
LONG = {"9" * 39: int("9" * 39), "1" + "0" * 39: 10**39, 10**40: 10**40, str(2**256 - 1): 2**256 - 1,
        "-" + "0" * 3 + "1" * 45: -int("1" * 45)}


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=10, data_blocks_per_chain=20) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def block(emu: ad.Emulator) -> dict[str, Any]:
    return fetch_list(emu.url, BLOCKS, "blocks")[0]


def read_both(url: str) -> tuple[Any, Any]:
    """The one block of the list at ``url`` through a frame and through a dict: each is its row (or
    the exception it raised)."""
    out: list[Any] = []
    with ad.DataClient(base_url=url, max_retries=0) as data:
        for read in (lambda: data.blocks("43114").to_polars().row(0, named=True),
                     lambda: next(iter(data.blocks("43114")))):
            try:
                out.append(read())
            except ad.DecodeError as e:
                out.append(e)
    return out[0], out[1]


@pytest.mark.parametrize("field,what,column", [("feesSpent", DECIMAL_38, 1), ("blockNumber", U64_RANGE, 2)])
@pytest.mark.parametrize("row", TABLE, ids=[repr(r[0])[:24] for r in TABLE])
def test_frames_and_dicts_read_the_same_digits_the_same_way(emu: ad.Emulator, block: dict[str, Any],
                                                            field: str, what: str, column: int,
                                                            row: tuple[Any, int | None, int | None]) -> None:
    sent, want = row[0], row[column]
    item = {**block, field: sent}
    listed = GrowingList(BLOCKS, "blocks", [item], shown=1, grow=0, tokens="offset")
    with serve(emu.url, [listed]) as url:
        frame, dicts = read_both(url)
    if field == "feesSpent" and want is None and sent in LONG:
        assert isinstance(frame, ad.DecodeError) and f" is not {what}" in str(frame), frame
        assert dicts[field] == LONG[sent] and type(dicts[field]) is int, dicts
        return
    if want is None:
        shown = json.dumps(sent)
        for got in (frame, dicts):
            assert isinstance(got, ad.DecodeError), f"{sent!r} accepted: {got!r}"
            assert f'field "{field}": ' in str(got) and f" is not {what}" in str(got)
            if "\\u" not in shown:  # the value as sent (an escape may be shown as its character)
                assert f'field "{field}": {shown} is not {what}' in str(got)
    else:
        assert not isinstance(frame, Exception) and not isinstance(dicts, Exception), (frame, dicts)
        assert int(frame[field]) == want and frame[field] == want
        assert dicts[field] == want and type(dicts[field]) is int
