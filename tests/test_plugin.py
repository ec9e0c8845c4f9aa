"""The pytest plugin (``avax_data.testing``): its fixtures used directly, and small test suites run
with ``pytester`` to check the ini options, the markers, their precedence and their errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import avax_data as ad
from avax_data.testing import TEST_API_KEY, _close_async

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "test_my_pipeline.py"

#: Inner runs load neither pytest-asyncio nor anyio unless a test asks for it.
NO_ASYNC_PLUGINS = ("-p", "no:asyncio", "-p", "no:anyio")


# ---- the fixtures, used directly -----------------------------------------------------------------


@pytest.mark.avax_emulator(containers=25, rate_limit=(10, 60))
def test_sync_clients_are_on_the_test_emulator(
    avax_emulator: ad.Emulator,
    avax_index_client: ad.IndexClient,
    avax_data_client: ad.DataClient,
    avax_metrics_client: ad.MetricsClient,
) -> None:
    assert avax_index_client.chain("X/tx").last_accepted() == avax_emulator.expected_container("X/tx", 24)
    assert avax_data_client.health()["status"] == "ok"
    assert avax_metrics_client.live_check()["status"] == "ok"
    assert avax_emulator.request_count() == 3
    # The Data API client sends the test key, so the emulator's per-key rate limit applies.
    assert avax_data_client.rate_limit == {"policy": "10;w=60", "limit": 10, "remaining": 9, "reset": None}


@pytest.mark.avax_emulator(data_api_refused_keys=[TEST_API_KEY])
@pytest.mark.avax_client(max_retries=0)
def test_data_client_sends_the_test_key(avax_data_client: ad.DataClient) -> None:
    with pytest.raises(ad.ForbiddenError):
        avax_data_client.chains()


@pytest.mark.avax_emulator(data_api_refused_keys=["revoked"])
@pytest.mark.avax_client(api_key="revoked", max_retries=0)
def test_client_marker_sets_the_data_api_key(avax_data_client: ad.DataClient) -> None:
    with pytest.raises(ad.ForbiddenError):
        avax_data_client.chains()


@pytest.mark.avax_emulator(containers=8)
def test_async_clients_work_on_any_loop(
    avax_emulator: ad.Emulator,
    avax_async_index_client: ad.AsyncIndexClient,
    avax_async_data_client: ad.AsyncDataClient,
    avax_async_metrics_client: ad.AsyncMetricsClient,
) -> None:
    async def ask() -> tuple[int, str, str]:
        last = await avax_async_index_client.chain("C/block").last_accepted()
        health = await avax_async_data_client.health()
        live = await avax_async_metrics_client.live_check()
        return last["index"], health["status"], live["status"]

    # Created before any loop ran, used on two loops one after the other.
    assert asyncio.run(ask()) == (7, "ok", "ok")
    assert asyncio.run(ask()) == (7, "ok", "ok")
    assert avax_emulator.request_count() == 6


def test_async_close_leaves_the_current_loop_alone() -> None:
    """The async fixtures close their client on a private loop: the loop a test runner set as
    the thread's current one stays current and open."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        with ad.Emulator(containers=3) as emu:
            client = ad.AsyncIndexClient(emu.url)
            _close_async(client)
            assert asyncio.get_event_loop_policy().get_event_loop() is loop and not loop.is_closed()

            async def ask() -> object:
                return await client.chain("X/tx").last_accepted()

            with pytest.raises(ad.AvaxDataError, match="the client is closed"):
                loop.run_until_complete(ask())
    finally:
        asyncio.set_event_loop(None)
        loop.close()


# ---- inner suites: ini options -------------------------------------------------------------------

INI_ALL = """
[pytest]
avax_emulator_seed = 7
avax_emulator_containers = 40
avax_emulator_data_blocks_per_chain = 30
avax_emulator_latency = 2.0
avax_emulator_faults = 503=1.0
avax_emulator_fault_seed = 5
avax_emulator_fault_options = retry_after=0
avax_emulator_rate_limit = 3/60
avax_client_max_retries = 0
avax_client_timeout = 0.5
"""

SUITE_ALL = """
import pytest
import avax_data as ad


def test_emulator_settings(avax_emulator):
    assert avax_emulator.container_count("X/tx") == 40
    assert avax_emulator.faults() == {"503": 1.0} and avax_emulator.fault_seed == 5
    with ad.Emulator(seed=7) as seven, ad.Emulator(seed=0) as zero:
        assert avax_emulator.expected_container("X/tx", 3) == seven.expected_container("X/tx", 3)
        assert avax_emulator.expected_container("X/tx", 3) != zero.expected_container("X/tx", 3)


def test_client_settings(avax_emulator, avax_index_client):
    avax_emulator.set_faults(None)
    # latency 2 s > timeout 0.5 s; the timeout also bounds the two calls below (no latency),
    # so it is not one a busy machine's scheduling can reach
    with pytest.raises(ad.RequestTimeoutError):
        avax_index_client.chain("X/tx").last_accepted()
    assert avax_emulator.request_count() == 1        # max_retries 0
    avax_emulator.set_latency(0)
    assert avax_index_client.chain("X/tx").last_accepted()["index"] == 39
    avax_emulator.set_faults({"503": 1.0})
    with pytest.raises(ad.ServerError):
        avax_index_client.chain("X/tx").last_accepted()
    assert avax_emulator.request_count() == 3


@pytest.mark.avax_emulator(containers=5, faults=None, latency=0)
@pytest.mark.avax_client(timeout=5, retry_budget=1)
def test_markers_beat_ini(avax_emulator, avax_index_client, avax_data_client):
    assert avax_emulator.container_count("X/tx") == 5 and avax_emulator.faults() == {}
    with ad.Emulator(seed=7) as seven:                # seed 7 still from the ini
        assert avax_emulator.expected_container("X/tx", 1) == seven.expected_container("X/tx", 1)
    assert avax_index_client.chain("X/tx").last_accepted()["index"] == 4
    assert [b["blockNumber"] for b in avax_data_client.blocks("43114", limit=2)] == [29, 28]
    assert avax_data_client.rate_limit["limit"] == 3 and avax_data_client.rate_limit["remaining"] == 2
    avax_data_client.health(); avax_data_client.health()
    with pytest.raises(ad.RateLimitError):           # the 4th keyed request: the 60 s wait is past the budget
        avax_data_client.health()


def test_factory_and_session_take_the_ini(avax_emulator_factory, avax_emulator_session):
    assert avax_emulator_factory().container_count("X/tx") == 40
    assert avax_emulator_factory(containers=2, faults=None).faults() == {}
    assert avax_emulator_session.container_count("X/tx") == 40
    assert avax_emulator_session.faults() == {"503": 1.0}
"""


def test_ini_options_set_the_emulators_and_the_clients(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI_ALL)
    pytester.makepyfile(SUITE_ALL)
    result = pytester.runpytest(*NO_ASYNC_PLUGINS)
    result.assert_outcomes(passed=4)


def test_ini_options_in_pyproject_toml(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml(
        """
        [tool.pytest.ini_options]
        avax_emulator_containers = 12
        avax_emulator_latency = 0.0
        avax_emulator_faults = "502=0.25, reset=0.5"
        avax_emulator_rate_limit = "100/60"
        avax_client_timeout = 2.5
        """
    )
    pytester.makepyfile(
        """
        def test_it(avax_emulator, avax_data_client):
            assert avax_emulator.container_count("P/block") == 12
            assert avax_emulator.faults() == {"502": 0.25, "reset": 0.5}
        """
    )
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=1)


@pytest.mark.skipif(pytest.version_tuple[:2] < (9, 2), reason="[tool.pytest] with typed values: pytest >= 9.2")
def test_numbers_in_pytest_9_native_toml_table(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml(
        """
        [tool.pytest]
        avax_emulator_containers = 12
        avax_emulator_latency = 0.0
        avax_emulator_faults = "502=0.25"
        """
    )
    pytester.makepyfile(
        """
        def test_it(avax_emulator):
            assert avax_emulator.container_count("P/block") == 12 and avax_emulator.faults() == {"502": 0.25}
        """
    )
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("avax_emulator_seed = seven", "invalid ini option avax_emulator_seed = 'seven': not an integer; expected"),
        ("avax_emulator_seed = -1", "avax_emulator_seed = '-1': negative; expected an integer >= 0"),
        ("avax_emulator_containers = 1e3", "avax_emulator_containers = '1e3': not an integer"),
        ("avax_emulator_faults = 502", "avax_emulator_faults = '502': '502' is not kind=number"),
        ("avax_emulator_faults = 502=often", "avax_emulator_faults = '502=often': 'often' (for '502') is not a number"),
        ("avax_emulator_faults = 599=0.1", 'avax_emulator_faults = {\'599\': 0.1}: invalid faults="599": a fault kind'),
        ("avax_emulator_faults = 502=2", "avax_emulator_faults = {'502': 2.0}: invalid faults=502=2: a rate"),
        ("avax_emulator_fault_options = wait=1", 'invalid fault_options="wait": an option, one of retry_after'),
        ("avax_emulator_rate_limit = 100", "avax_emulator_rate_limit = '100': no '/' between limit and window"),
        ("avax_emulator_rate_limit = 10/soon", "avax_emulator_rate_limit = '10/soon': not a number"),
        ("avax_emulator_rate_limit = 0/60", "avax_emulator_rate_limit = (0, 60.0): invalid rate_limit=(0, 60.0)"),
        ("avax_emulator_latency = -1", "avax_emulator_latency = -1.0: invalid latency=-1"),
        ("avax_emulator_data_blocks_per_chain = 0", "avax_emulator_data_blocks_per_chain = 0: invalid"),
        ("avax_client_timeout = 0", "avax_client_timeout = 0.0: invalid timeout=0: a finite number of seconds > 0"),
        ("avax_client_max_retries = lots", "avax_client_max_retries = 'lots': not an integer"),
        ("avax_client_max_retries = 1000", "avax_client_max_retries = 1000: invalid max_retries=1000"),
    ],
)
def test_bad_ini_values_stop_the_run_naming_the_option(pytester: pytest.Pytester, line: str, message: str) -> None:
    pytester.makeini(f"[pytest]\n{line}\n")
    pytester.makepyfile("def test_never_runs(avax_emulator):\n    raise AssertionError\n")
    result = pytester.runpytest(*NO_ASYNC_PLUGINS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()
    result.stdout.no_fnmatch_line("*test_never_runs*")


# ---- inner suites: markers -----------------------------------------------------------------------


def test_markers_merge_from_module_class_and_function(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.avax_emulator(containers=10, fault_seed=3)

        @pytest.mark.avax_emulator(faults={"502": 0.5})
        class TestFlaky:
            def test_class_and_module(self, avax_emulator):
                assert avax_emulator.container_count("X/tx") == 10
                assert avax_emulator.faults() == {"502": 0.5} and avax_emulator.fault_seed == 3

            @pytest.mark.avax_emulator(containers=4, faults=None)
            def test_function_wins(self, avax_emulator):
                assert avax_emulator.container_count("X/tx") == 4
                assert avax_emulator.faults() == {} and avax_emulator.fault_seed == 3

        def test_module_only(avax_emulator):
            assert avax_emulator.container_count("X/tx") == 10 and avax_emulator.faults() == {}
        """
    )
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=3)


def test_bad_markers_fail_the_test_with_a_clear_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.avax_emulator({"502": 0.1})
        def test_positional(avax_emulator):
            pass

        @pytest.mark.avax_client(retries=0)
        def test_unknown_client_option(avax_index_client):
            pass

        @pytest.mark.avax_emulator(faults={"nope": 0.1})
        def test_bad_fault_kind(avax_emulator):
            pass
        """
    )
    result = pytester.runpytest(*NO_ASYNC_PLUGINS)
    result.assert_outcomes(errors=3)
    result.stdout.fnmatch_lines(
        [
            "*InvalidParameterError: @pytest.mark.avax_emulator takes keyword arguments only*",
            "*InvalidParameterError: invalid @pytest.mark.avax_client argument retries=0: not a client option; "
            "allowed: api_key, *, max_retries, *",
            '*InvalidParameterError: invalid faults="nope": a fault kind*',
        ]
    )


def test_client_marker_options_go_to_the_clients_that_take_them(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        import avax_data as ad

        @pytest.mark.avax_emulator(faults={"503": 1.0}, containers=3)
        @pytest.mark.avax_client(max_retries=0, concurrency=1, api_key="mine")
        def test_each_client_takes_its_own(avax_emulator, avax_index_client, avax_data_client, avax_metrics_client):
            for call in (lambda: avax_index_client.chain("X/tx").last_accepted(),
                         avax_data_client.health, avax_metrics_client.live_check):
                with pytest.raises(ad.ServerError):
                    call()
            assert avax_emulator.request_count() == 3    # max_retries=0 reached all three

        @pytest.mark.avax_emulator(data_api_require_key=True, data_api_refused_keys=["mine"])
        def test_default_key(avax_data_client):
            assert avax_data_client.health()["status"] == "ok"    # a key was sent, not "mine"
        """
    )
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=2)


# ---- inner suites: scopes and async ----------------------------------------------------------------


def test_fixtures_are_fresh_per_test_but_the_session_emulator_is_shared(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import avax_data as ad

        seen = []

        def test_first(avax_emulator, avax_emulator_session, avax_index_client):
            avax_emulator.advance("X/tx", 5)
            avax_emulator_session.advance("X/tx", 5)
            seen.extend([avax_emulator.url, avax_emulator_session.url, avax_index_client])

        def test_second(avax_emulator, avax_emulator_session):
            assert avax_emulator.url != seen[0] and avax_emulator_session.url == seen[1]
            assert avax_emulator_session.container_count("X/tx") == avax_emulator.container_count("X/tx") + 5
            try:
                seen[2].chain("X/tx").last_accepted()
            except ad.AvaxDataError as exc:
                assert "the client is closed" in str(exc)
            else:
                raise AssertionError("the client of the first test is still open")
        """
    )
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=2)


ASYNC_SUITE = """
import asyncio
import pytest
import avax_data as ad

clients = []

@pytest.mark.avax_emulator(containers=6)
{mark}
async def test_awaits_every_client(avax_async_index_client, avax_async_data_client, avax_async_metrics_client):
    last = await avax_async_index_client.chain("X/tx").last_accepted()
    assert last["index"] == 5
    assert (await avax_async_data_client.health())["status"] == "ok"
    assert (await avax_async_metrics_client.live_check())["status"] == "ok"
    clients.append(avax_async_index_client)

def test_it_was_closed_after_the_test():
    if not clients:
        pytest.skip("the async test did not run")

    async def ask():
        await clients[0].chain("X/tx").last_accepted()
    with pytest.raises(ad.AvaxDataError, match="the client is closed"):
        asyncio.run(ask())
"""


def test_async_fixtures_need_no_async_plugin_to_exist(pytester: pytest.Pytester) -> None:
    """Without pytest-asyncio/anyio the fixtures still work (``asyncio.run`` in the test, as in
    ``test_async_clients_work_on_any_loop``), but pytest itself does not run an ``async def`` test:
    pytest >= 8.4 fails it, older versions skip it with a warning."""
    pytester.makepyfile(ASYNC_SUITE.format(mark=""))
    result = pytester.runpytest(*NO_ASYNC_PLUGINS)
    outcomes = result.parseoutcomes()
    assert "passed" not in outcomes and outcomes.get("skipped") in (1, 2)
    result.stdout.fnmatch_lines(["*async def functions are not natively supported*"])


@pytest.mark.parametrize("mode", ["strict", "auto"])
def test_async_fixtures_under_pytest_asyncio(pytester: pytest.Pytester, mode: str) -> None:
    pytest.importorskip("pytest_asyncio")
    pytester.makeini(f"[pytest]\nasyncio_mode = {mode}\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(ASYNC_SUITE.format(mark="@pytest.mark.asyncio" if mode == "strict" else ""))
    pytester.runpytest("-p", "no:anyio").assert_outcomes(passed=2)


# ---- the examples --------------------------------------------------------------------------------


def docs_python_blocks(section: str) -> list[str]:
    """The ```python blocks of one ``## `` section of the emulator guide (docs/guides/emulator.md)."""
    text = (EXAMPLE.parent.parent / "docs" / "guides" / "emulator.md").read_text()
    start = text.index(section)
    body = text[start : text.index("\n## ", start + 1)]
    return [block.split("```", 1)[0] for block in body.split("```python\n")[1:]]


def test_the_documented_fixture_examples_pass(pytester: pytest.Pytester) -> None:
    suite, async_suite = docs_python_blocks("## pytest fixtures")
    pytester.makepyfile(test_readme=suite)
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=3)
    pytest.importorskip("pytest_asyncio")
    pytester.makepyfile(test_readme=async_suite)
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.runpytest("-p", "no:anyio").assert_outcomes(passed=2)


def test_the_example_suite_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_my_pipeline=EXAMPLE.read_text())
    pytester.runpytest(*NO_ASYNC_PLUGINS).assert_outcomes(passed=5)
