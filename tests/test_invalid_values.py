"""One convention for ``InvalidParameterError.value`` (docs/guides/errors.md, "The refused value").

Whichever rule refuses an argument (the shared chain-id and time rules, the path grammar, the
network, metric and interval lists, an integer range, the index path, the tier, the Python type
checks), ``.value`` is the value as it was passed: the same ``str``, ``int``, ``float``, ``bool``
or ``list``, and nothing is sent.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Iterator

import pytest

import avax_data as ad


@pytest.fixture(scope="module")
def emu() -> Iterator[ad.Emulator]:
    with ad.Emulator(containers=10) as emulator:
        yield emulator


def cases(url: str) -> list[tuple[str, Any, Callable[[Any], Any]]]:
    """(param, a refused value, the call that refuses it) for each rule."""
    data, metrics, node = ad.DataClient(base_url=url), ad.MetricsClient(url), ad.IndexClient(url)
    return [
        ("chain_id", "", data.chain),                       # the shared chain-id rule
        ("chain_id", "  ", data.chain),
        ("chain_id", "1" * 30, data.chain),
        ("chain_id", -1, data.chain),
        ("chain_id", 2**64, data.chain),
        ("chain_id", True, data.chain),
        ("chain_id", 1.5, data.chain),
        ("chain_id", [43114], data.chain),
        ("chain_id", "..", data.chain),                     # the path grammar
        ("chain_id", "%2e%2e", data.chain),
        ("chain_id", "it's/\"quoted\"", data.chain),
        ("block_id", "a/b", lambda v: data.block("43114", v)),
        ("page_size", 101, lambda v: data.blocks(43114, page_size=v)),
        ("page_size", "10", lambda v: data.blocks(43114, page_size=v)),
        ("network", "devnet", lambda v: data.primary_network_blocks(v, "p-chain")),
        ("metric", "txcount", lambda v: metrics.metric(43114, v)),
        ("interval", "fortnight", lambda v: metrics.metric(43114, "txCount", interval=v)),
        ("start", "2024-01-01T12:00", lambda v: metrics.metric(43114, "txCount", start=v)),
        ("start", -5, lambda v: metrics.metric(43114, "txCount", start=v)),
        ("path", "Y/tx", node.chain),
        ("path", "x/TX", node.chain),
        ("count", 2_000, lambda v: node.chain("X/tx").container_range(0, v)),
        ("tier", "enterprise", lambda v: ad.DataClient(base_url=url, tier=v)),
        ("tier", 3, lambda v: ad.DataClient(base_url=url, tier=v)),
        ("backoff", "1", lambda v: ad.RetryPolicy(backoff=v)),
    ]


def test_the_refused_value_is_the_value_passed_whichever_rule_refuses_it(emu: ad.Emulator) -> None:
    for param, value, call in cases(emu.url):
        with pytest.raises(ad.InvalidParameterError) as refused:
            call(value)
        err = refused.value
        assert err.param == param, (param, value, str(err))
        assert err.value == value and type(err.value) is type(value), (param, value, err.value)
        assert str(err).startswith(f"invalid {param}="), str(err)
    assert emu.request_count() == 0


def test_a_value_without_a_literal_form_is_the_text_the_message_shows(emu: ad.Emulator) -> None:
    naive = dt.datetime(2024, 1, 1, 12)
    with pytest.raises(ad.InvalidParameterError) as refused:
        ad.MetricsClient(emu.url).metric(43114, "txCount", start=naive)
    assert refused.value.value == repr(naive)
    assert str(refused.value).startswith(f"invalid start={naive!r}: an aware datetime")
    with pytest.raises(ad.InvalidParameterError) as refused:
        ad.DataClient(base_url=emu.url).chain(float("nan"))
    assert refused.value.value == "nan" and str(refused.value).startswith("invalid chain_id=nan: ")
    assert emu.request_count() == 0
