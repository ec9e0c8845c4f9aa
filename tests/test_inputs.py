"""One rule for times and chain ids in every entry point (docs/guides/inputs.md).

A table of inputs, each with the Unix seconds it means or the message it is refused with, runs
through a Metrics API time range, a Data API time-filtered list (a generated endpoint method),
``plan()`` and the CLI: the same value must send the same query everywhere, and a bad one raise
the same ``InvalidParameterError`` message (naming each entry point's own parameter).
"""

from __future__ import annotations

import datetime as dt
import warnings
from typing import Any, Iterator

import pytest

import avax_data as ad
from _helpers import GetServer
from avax_data import _native
from avax_data.cli import argtypes

from _cli import cli, one_error_line

try:  # numpy is not a dependency: numpy.datetime64 is read by its type when numpy is there
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

UTC = dt.timezone.utc
JAN1 = 1_704_067_200  # 2024-01-01T00:00:00Z
ALLOWED = (
    "a time from 1970-01-01 to 9999-12-31 UTC: Unix seconds (an int >= 0, or its digits), an ISO date "
    "'YYYY-MM-DD' (00:00 UTC), an RFC 3339 time with its offset ('2024-01-01T12:00:00Z', "
    "'2024-01-01T14:00:00+02:00'), a date, an aware datetime or a numpy.datetime64"
)
NAIVE = "an aware datetime: this one has no tzinfo; add one, e.g. .replace(tzinfo=datetime.timezone.utc)"
NO_OFFSET = "an RFC 3339 time with its offset: this one has none; add Z (UTC) or one like +02:00"

GOOD: list[Any] = [
    JAN1,
    "1704067200",
    " 2024-01-01 ",
    "2024-01-01T00:00:00Z",
    "2024-01-01T02:00:00+02:00",
    "2023-12-31T19:00:00.75-05:00",
    dt.date(2024, 1, 1),
    dt.datetime(2024, 1, 1, tzinfo=UTC),
    dt.datetime(2024, 1, 1, 0, 0, 0, 999_999, tzinfo=UTC),
    dt.datetime(2024, 1, 1, 2, tzinfo=dt.timezone(dt.timedelta(hours=2))),
]
BAD: list[tuple[Any, str]] = [
    (dt.datetime(2024, 1, 1), NAIVE),
    ("2024-01-01T00:00:00", NO_OFFSET),
    ("2024-01-01 12:00", NO_OFFSET),
    (-1, ALLOWED),
    ("-1", ALLOWED),
    (dt.date(1969, 12, 31), ALLOWED),
    (2**70, ALLOWED),
    ("10000-01-01", ALLOWED),
    ("2024-02-30", ALLOWED),
    ("soon", ALLOWED),
    ("", ALLOWED),
    (True, ALLOWED),
    (1.5, ALLOWED),
    ([JAN1], ALLOWED),
]
if np is not None:
    GOOD += [
        np.datetime64("2024-01-01T00:00:00.123456789", "ns"),
        np.datetime64(JAN1 * 1_000 + 999, "ms"),
        np.datetime64("2024-01-01", "D"),
        np.datetime64("2024-01", "M"),
        np.datetime64("2024", "Y"),
    ]
    BAD += [(np.datetime64("NaT"), "a time (NaT, not-a-time, is none)"), (np.datetime64("NaT", "s"),
            "a time (NaT, not-a-time, is none)"), (np.datetime64("1969-12-31", "D"), ALLOWED)]


CLI_SAMPLES = ["2024-01-01T00:00:00", "-1", "soon"]


def message(param: str, value: Any, allowed: str) -> str:
    return f"invalid {param}={value!r}: {allowed}"


EMPTY_PAGE = {"results": [], "blocks": [], "transactions": []}


class Recorder(GetServer):
    """A loopback HTTP server that answers every GET with an empty page and records its query."""

    def __init__(self) -> None:
        super().__init__(lambda request: (200, EMPTY_PAGE))

    def last(self, pager: Any) -> tuple[str, dict[str, str]]:
        """Walk ``pager`` (one empty page) and return the request it sent."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert list(pager) == []
        return self.requests[-1].path, self.requests[-1].query


@pytest.fixture(scope="module")
def recorder() -> Iterator[Recorder]:
    with Recorder() as rec:
        yield rec


@pytest.fixture(scope="module")
def metrics(recorder: Recorder) -> Iterator[ad.MetricsClient]:
    with ad.MetricsClient(base_url=recorder.url, max_retries=0) as client:
        yield client


@pytest.fixture(scope="module")
def data(recorder: Recorder) -> Iterator[ad.DataClient]:
    with ad.DataClient(base_url=recorder.url, max_retries=0) as client:
        yield client


@pytest.mark.parametrize("value", GOOD, ids=repr)
def test_every_form_of_one_instant_sends_the_same_request_everywhere(
    value: Any, recorder: Recorder, metrics: ad.MetricsClient, data: ad.DataClient
) -> None:
    assert _native.unix_seconds(value, "start") == JAN1
    path, query = recorder.last(metrics.metric(43114, "txCount", interval="hour", start=value, concurrency=1))
    assert (path, query) == ("/v2/chains/43114/metrics/txCount",
                             {"timeInterval": "hour", "startTimestamp": str(JAN1), "pageSize": "2160"})
    path, query = recorder.last(data.primary_network_blocks("mainnet", "p-chain", start=value))
    assert path == "/v1/networks/mainnet/blockchains/p-chain/blocks" and query["startTimestamp"] == str(JAN1)
    # plan(): the window is read by the same rule (a sharded series plans one request per shard).
    end = JAN1 + 3 * 86_400
    assert metrics.metric("43114", "txCount", interval="day", start=value, end=end).plan().to_dict() == \
        metrics.metric("43114", "txCount", interval="day", start=JAN1, end=end).plan().to_dict()
    if isinstance(value, str):
        assert argtypes.time_of("start")(value) == JAN1


@pytest.mark.parametrize("value,allowed", BAD, ids=[repr(value) for value, _ in BAD])
def test_a_bad_time_is_one_message_everywhere(
    value: Any, allowed: str, metrics: ad.MetricsClient, data: ad.DataClient, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = {
        "start": [
            lambda: _native.unix_seconds(value, "start"),
            lambda: metrics.metric("43114", "txCount", start=value),
            lambda: metrics.metric("43114", "txCount", interval="day", start=value, end=JAN1).plan(),
            lambda: metrics.write_dataset("unused", "43114", "txCount", interval="day", start=value),
            lambda: data.primary_network_blocks("mainnet", "p-chain", start=value),
        ],
        "end": [lambda: metrics.metric("43114", "txCount", end=value)],
    }
    for param, entry_points in calls.items():
        for call in entry_points:
            with pytest.raises(ad.InvalidParameterError) as info:
                call()
            assert str(info.value) == message(param, value, allowed)
            assert info.value.param == param and isinstance(info.value, ValueError)
    if isinstance(value, str) and value in CLI_SAMPLES:  # the CLI builds its parser per run: a few texts, one per kind of refusal
        result = cli(capsys, "metrics", "series", "43114", "txCount", "--base-url", "http://127.0.0.1:9",
                     "--start", value)
        assert result.code == 2
        assert one_error_line(result.err).startswith(f"error: argument --start: {message('start', value, allowed)}")


def test_the_cli_sends_what_python_sends(recorder: Recorder, capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    for text in ["2024-01-01", "2024-01-01T02:00:00+02:00"]:
        out = tmp_path / "series.csv"
        result = cli(capsys, "metrics", "series", "43114", "txCount", "--base-url", recorder.url, "--interval",
                     "hour", "--start", text, "--concurrency", "1", "-o", str(out), "--overwrite")
        assert result.code == 0, result.err
        assert recorder.requests[-1].query["startTimestamp"] == str(JAN1)
        generated = cli(capsys, "data", "primary-network-blocks", "mainnet", "p-chain", "--base-url", recorder.url,
                        "--start", text, "-o", str(tmp_path / "blocks.csv"), "--overwrite")
        assert generated.code == 0, generated.err
        assert recorder.requests[-1].query["startTimestamp"] == str(JAN1)
    refused = cli(capsys, "data", "primary-network-blocks", "mainnet", "p-chain", "--base-url", recorder.url,
                  "--start", "2024-01-01T00:00")
    assert one_error_line(refused.err).startswith(
        f"error: argument --start: {message('start', '2024-01-01T00:00', NO_OFFSET)}")


@pytest.mark.parametrize("value", [43114, "43114", " 043114 "], ids=repr)
def test_a_chain_id_as_int_or_text_is_one_id(value: Any, recorder: Recorder, metrics: ad.MetricsClient,
                                             data: ad.DataClient) -> None:
    assert recorder.last(metrics.metric(value, "txCount", concurrency=1))[0] == "/v2/chains/43114/metrics/txCount"
    assert recorder.last(data.blocks(value))[0] == "/v1/chains/43114/blocks"
    assert recorder.last(data.erc20_transfers(value, "0x" + "ab" * 20))[0].startswith("/v1/chains/43114/")


@pytest.mark.parametrize("value", [-1, 2**64, True, 1.5, [43114], "  "], ids=repr)
def test_a_bad_chain_id_is_one_message_everywhere(value: Any, metrics: ad.MetricsClient, data: ad.DataClient) -> None:
    allowed = ("an EVM chain id as an int in [0, 18446744073709551615] or its decimal digits, or a str id the "
               "service names")
    for call in [lambda: metrics.metric(value, "txCount"), lambda: data.blocks(value), lambda: data.chain(value),
                 lambda: data.erc20_transfers(value, "0x" + "ab" * 20)]:
        with pytest.raises(ad.InvalidParameterError) as info:
            call()
        assert str(info.value) == message("chain_id", value, allowed)


def test_numpy_is_optional_and_duck_typed() -> None:
    if np is None:
        pytest.skip("numpy is not installed: numpy.datetime64 is then never passed")
    assert _native.unix_seconds(np.datetime64(JAN1 // 10, "10s")) == JAN1
    assert _native.unix_seconds(np.datetime64(JAN1 // 604_800, "W")) == JAN1 - JAN1 % 604_800
