"""Client-side rate limits (``rate_limit=``, ``compute_units_per_minute=``), the waits the
service asks for (``ratelimit-remaining: 0``, 429 + ``Retry-After``) and ``RetryPolicy``, checked
against the emulator's per-key limit and its request log (arrival time, path, status).

Only lower bounds of time are asserted (the limiter guarantees them however slow the machine
is); the request log's times are arrival times at the emulator.
"""

from __future__ import annotations

import asyncio
import math

import pytest

import avax_data as ad

KEY = "rate-limit-test-key"

CLIENTS = [ad.IndexClient, ad.AsyncIndexClient, ad.DataClient, ad.AsyncDataClient, ad.MetricsClient,
           ad.AsyncMetricsClient]


def make(cls: type, url: str, **kwargs: object) -> object:
    """A client of any of the six classes on ``url``."""
    if cls in (ad.IndexClient, ad.AsyncIndexClient):
        return cls(url, **kwargs)
    return cls(base_url=url, **kwargs)


def most_within(times: list[float], window: float) -> int:
    """The most requests arriving within any ``window`` seconds."""
    times = sorted(times)
    best, j = 0, 0
    for i, start in enumerate(times):
        while j < len(times) and times[j] < start + window:
            j += 1
        best = max(best, j - i)
    return best


def statuses(emu: ad.Emulator) -> list[int | None]:
    return [status for _, _, status in emu.request_log(with_status=True)]


# ---- the client's own rate ----

def test_a_long_walk_under_the_services_limit_sees_no_429_and_keeps_the_rate() -> None:
    # The service allows 100 requests per 1 s window and key; the client asks for 80/s.
    with ad.Emulator(data_blocks_per_chain=400, rate_limit=(100, 1.0)) as emu:
        with ad.DataClient(emu.url, api_key=KEY, rate_limit=80) as data:
            rows = data.blocks("43114", page_size=1).to_polars(limit=240)
        assert rows.height == 240
        log = emu.request_log(with_status=True)
        n = len(log)
        assert n >= 240, "one request per page (and maybe one page fetched ahead)"
        assert [s for _, _, s in log] == [200] * n, "no request bounced off a 429"
        times = [t for t, _, _ in log]
        # The limiter's burst at 80/s is 4 requests (50 ms worth). Arrival times: the first
        # request's also holds connecting, and a loaded machine delays any arrival by tens of ms
        # (the bound allows 0.1 s; without the limit the walk takes well under 1 s).
        assert times[-1] - times[0] >= (n - 4) / 80 - 0.1
        # It allows floor(1 s * 80/s) + 4 = 84 in any second; one more for the network's jitter
        # between sending and arriving.
        assert most_within(times, 1.0) <= 85


def test_concurrent_calls_and_pagers_share_one_rate() -> None:
    with ad.Emulator(data_blocks_per_chain=50, rate_limit=(30, 1.0)) as emu:
        async def run() -> None:
            async with ad.AsyncDataClient(emu.url, api_key=KEY, rate_limit=20) as data:
                walks = [data.blocks("43114", page_size=2).to_polars(limit=10) for _ in range(3)]
                calls = [data.block("43114", n + 1) for n in range(15)]
                await asyncio.gather(*walks, *calls)

        asyncio.run(run())
        times = [t for t, _ in emu.request_log()]
        n = len(times)
        assert n >= 30, "15 pages (and maybe a page fetched ahead per walk) and 15 calls"
        assert statuses(emu) == [200] * n
        # Arrivals, not sends: the first one's also holds connecting (0.1 s allowed, as above).
        assert times[-1] - times[0] >= (n - 1) / 20 - 0.1
        # At most 21 are sent in any second (burst 1). The calls are concurrent, so a loaded
        # machine can delay one arrival and not the next, moving a few sends of the next second
        # into this one: 25 allows 0.2 s of it, and is still below the 30 a burst of all the
        # walks and calls, each with a rate of its own, would show.
        assert most_within(times, 1.0) <= 25


def test_compute_units_are_charged_by_operation_weight() -> None:
    # 1,200 CU per minute = 20 CU/s, with a bucket of 200 CU. `GET /v1/chains/{id}/blocks/{id}` is
    # `small` (10 CU): 20 calls empty the bucket, the next two wait 0.5 s each.
    with ad.Emulator(data_blocks_per_chain=50) as emu:
        with ad.DataClient(base_url=emu.url, compute_units_per_minute=1200) as data:
            for n in range(22):
                data.block("43114", n + 1)
        times = [t for t, _ in emu.request_log()]
        # The limiter's second starts when the first call is let through; the first call's
        # arrival also includes connecting (37 ms seen on a loaded machine), so the bound allows
        # 0.1 s of it. Without the limit the 22 calls take about 50 ms.
        assert times[21] - times[0] >= 0.9
        assert times[20] - times[0] >= 0.4, "the 21st call waited for the bucket"
        # The first 20 calls fit the bucket of 200 CU: a bucket of 150 CU would have let the 20th
        # out no sooner than 2.5 s after the first (150 CU at once, 50 more at 20 CU/s); an upper
        # bound this far from the 20 ms they take unloaded holds on a machine busy with builds.
        assert times[19] - times[0] < 2.0, "the first 20 calls fit the bucket of 200 CU"


# ---- the service's waits ----

def test_remaining_zero_makes_the_client_wait_for_the_window_instead_of_taking_429s() -> None:
    # 10 requests per 1 s window and no client-side rate: the 10th answer says remaining 0 (with
    # the policy's window, w=1, but no reset: the service sends ratelimit-reset only with a 429),
    # so the client holds its next request for one window. A token walk is sequential, so no
    # request is ever in flight when that answer arrives: zero 429s.
    with ad.Emulator(data_blocks_per_chain=100, rate_limit=(10, 1.0)) as emu:
        with ad.DataClient(emu.url, api_key=KEY) as data:
            rows = data.blocks("43114", page_size=2).to_polars(limit=70)
            assert data.rate_limit["limit"] == 10
        assert rows.height == 70
        times = [t for t, _ in emu.request_log()]
        assert len(times) >= 35, "a request per page (and maybe one page fetched ahead)"
        # No request bounced: the emulator's windows (fixed ones, each starting at the first
        # request after the last one ended) never held more than 10. A sliding second is not
        # bounded by 10: on a slow machine it can hold the tail of one window and the head of the
        # next, when the first window ends before its 10th request.
        assert statuses(emu) == [200] * len(times)
        assert times[-1] - times[0] >= 3.0, "35 requests need at least 4 windows"


def test_after_a_429_no_request_of_the_client_leaves_before_retry_after() -> None:
    with ad.Emulator(containers=100, faults={"429": 1.0}, fault_options={"retry_after": 1}) as emu:
        async def run() -> float:
            async with ad.AsyncIndexClient(emu.url, max_retries=0) as node:
                xtx = node.chain("X/tx")
                with pytest.raises(ad.RateLimitError) as err:
                    await xtx.last_accepted()
                assert err.value.retry_after == 1.0
                emu.set_faults({})
                # Five concurrent calls of the same client: all held until the 429's retry-after.
                await asyncio.gather(*(xtx.container(index=n) for n in range(5)))
                return err.value.retry_after

        asyncio.run(run())
        log = emu.request_log(with_status=True)
        assert [s for _, _, s in log] == [429, 200, 200, 200, 200, 200]
        first = log[0][0]
        assert all(t - first >= 1.0 for t, _, _ in log[1:]), log


def test_a_walk_with_429_faults_waits_each_retry_after() -> None:
    # A sequential walk (one request at a time): after each 429, the next request arrives no
    # sooner than its retry-after.
    with ad.Emulator(containers=40, faults={"429": 0.1}, fault_seed=3, fault_options={"retry_after": 1}) as emu:
        with ad.IndexClient(emu.url, backoff=0.01) as node:
            rows = node.chain("X/tx").range(0, 40, batch_size=2, concurrency=1).to_polars()
        assert rows["index"].to_list() == list(range(40))
        log = emu.request_log(with_status=True)
        limited = [i for i, (_, _, s) in enumerate(log) if s == 429]
        assert limited, "the seed gives at least one 429"
        for i in limited:
            assert log[i + 1][0] - log[i][0] >= 1.0, log[i : i + 2]


def test_a_reset_beyond_the_retry_budget_raises_without_sending() -> None:
    with ad.Emulator(data_blocks_per_chain=10, rate_limit=(2, 60.0)) as emu:
        with ad.DataClient(emu.url, api_key=KEY, retry_budget=1.0) as data:
            data.block("43114", 1)
            data.block("43114", 2)  # remaining 0; the 60 s window does not fit the budget
            with pytest.raises(ad.RateLimitError) as sent:
                data.block("43114", 3)  # sent: the service answers 429 with its reset
            assert 58 <= sent.value.retry_after <= 60
            count = emu.request_count()
            with pytest.raises(ad.RateLimitError) as held:
                data.block("43114", 4)
            assert emu.request_count() == count, "not sent: the reset is still ahead"
            assert "not sent" in str(held.value)
            assert 0 < held.value.retry_after <= sent.value.retry_after


# ---- RetryPolicy ----

@pytest.mark.parametrize(("kind", "attempts", "error"), [("503", 3, ad.ServerError), ("502", 1, ad.ServerError)])
def test_retry_policy_statuses_choose_what_is_retried(kind: str, attempts: int, error: type) -> None:
    policy = ad.RetryPolicy(max_retries=2, backoff=0.01, max_backoff=0.02, statuses=(503,))
    with ad.Emulator(containers=10, faults={kind: 1.0}) as emu:
        with ad.IndexClient(emu.url, retry=policy) as node:
            assert node.retry == policy
            with pytest.raises(error) as err:
                node.chain("X/tx").last_accepted()
            assert err.value.status == int(kind)
        assert emu.request_count() == attempts


def test_the_default_policy_is_todays_and_the_old_keywords_still_work() -> None:
    default = ad.RetryPolicy()
    assert default.statuses == (429, *range(500, 600))
    assert (default.max_retries, default.backoff, default.max_backoff, default.jitter, default.retry_budget) == (
        3, 0.2, 10.0, True, 60.0)
    assert repr(default).endswith("statuses=(429, *range(500, 600)))")
    assert eval(repr(default), {"RetryPolicy": ad.RetryPolicy}) == default
    for cls in CLIENTS:
        client = make(cls, "http://127.0.0.1:9")
        assert client.retry == default, cls
        client = make(cls, "http://127.0.0.1:9", max_retries=0, backoff=1, max_backoff=2.5, retry_budget=5)
        assert client.retry == ad.RetryPolicy(max_retries=0, backoff=1.0, max_backoff=2.5, retry_budget=5.0), cls
        chosen = ad.RetryPolicy(jitter=False, statuses=[504, 429, 504])
        assert make(cls, "http://127.0.0.1:9", retry=chosen).retry.statuses == (429, 504)


def test_retry_policy_is_frozen_and_checks_its_fields() -> None:
    policy = ad.RetryPolicy()
    with pytest.raises(AttributeError):
        policy.max_retries = 5  # type: ignore[misc]
    cases = [
        ({"max_retries": -1}, "max_retries"), ({"max_retries": 101}, "max_retries"),
        ({"max_retries": 2.0}, "max_retries"), ({"max_retries": True}, "max_retries"),
        ({"backoff": -0.1}, "backoff"), ({"backoff": math.nan}, "backoff"), ({"backoff": "1"}, "backoff"),
        ({"max_backoff": math.inf}, "max_backoff"), ({"retry_budget": False}, "retry_budget"),
        ({"jitter": 1}, "jitter"), ({"jitter": None}, "jitter"),
        ({"statuses": (200,)}, "statuses"), ({"statuses": (429, 600)}, "statuses"),
        ({"statuses": "429"}, "statuses"), ({"statuses": 429}, "statuses"), ({"statuses": (True,)}, "statuses"),
        ({"statuses": (429.0,)}, "statuses"),
    ]
    for kwargs, param in cases:
        with pytest.raises(ad.InvalidParameterError) as err:
            ad.RetryPolicy(**kwargs)
        ((name, value),) = kwargs.items()
        assert err.value.param == param, kwargs
        assert str(err.value).startswith(f"invalid {param}="), err.value
        assert err.value.allowed
        if param != "statuses":
            assert err.value.value is value or err.value.value == value or value != value


@pytest.mark.parametrize("cls", CLIENTS, ids=lambda c: c.__name__)
def test_bad_limit_arguments_are_refused_before_any_request(cls: type) -> None:
    with ad.Emulator(containers=10) as emu:
        bad = [
            ({"rate_limit": 0}, "rate_limit"), ({"rate_limit": -2.5}, "rate_limit"),
            ({"rate_limit": math.nan}, "rate_limit"), ({"rate_limit": math.inf}, "rate_limit"),
            ({"rate_limit": True}, "rate_limit"), ({"rate_limit": "10"}, "rate_limit"),
            ({"compute_units_per_minute": 0}, "compute_units_per_minute"),
            ({"compute_units_per_minute": -5}, "compute_units_per_minute"),
            ({"compute_units_per_minute": 10.0}, "compute_units_per_minute"),
            ({"compute_units_per_minute": True}, "compute_units_per_minute"),
            ({"retry": 3}, "retry"), ({"retry": {"max_retries": 3}}, "retry"),
            ({"retry": ad.RetryPolicy(), "max_retries": 1}, "retry"),
            ({"retry": ad.RetryPolicy(), "backoff": 0.2}, "retry"),
            ({"retry": ad.RetryPolicy(), "max_backoff": 10.0}, "retry"),
            ({"retry": ad.RetryPolicy(), "retry_budget": 60.0}, "retry"),
        ]
        for kwargs, param in bad:
            with pytest.raises(ad.InvalidParameterError) as err:
                make(cls, emu.url, **kwargs)
            assert err.value.param == param, kwargs
            assert isinstance(err.value, ValueError)
            assert str(err.value).startswith(f"invalid {param}="), err.value
        assert emu.request_count() == 0
        # Good values are taken.
        client = make(cls, emu.url, rate_limit=0.5, compute_units_per_minute=1, retry=None)
        assert client.retry == ad.RetryPolicy()
