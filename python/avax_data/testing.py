"""Test helpers: the offline :class:`Emulator` and a pytest plugin with fixtures for all three APIs.

The emulator serves the node's Index RPC, the Data API and the Metrics API on one loopback URL,
in-process, from a deterministic synthetic world (container ``i`` of a path is a function of the
seed and ``i``):

>>> from avax_data.testing import Emulator
>>> import avax_data as ad
>>> with Emulator(seed=0, containers=1_000) as emu:
...     node = ad.IndexClient(emu.url)
...     last = node.chain("X/tx").last_accepted()
...     assert last == emu.expected_container("X/tx", 999)

Installing ``avax-data`` registers this module as a pytest plugin (entry point ``pytest11``), so
every test suite gets these fixtures, each fresh for each test function unless said otherwise:

- ``avax_emulator``: a running :class:`Emulator`, closed after the test;
- ``avax_index_client``, ``avax_data_client``, ``avax_metrics_client``: the sync clients on that
  emulator, closed after the test;
- ``avax_async_index_client``, ``avax_async_data_client``, ``avax_async_metrics_client``: their
  async twins, plain fixtures (no pytest-asyncio needed to get them; awaiting them needs an event
  loop: an ``async def`` test run by pytest-asyncio or anyio, or ``asyncio.run`` in the test),
  closed after the test on a private event loop;
- ``avax_emulator_factory``: ``make(**kwargs) -> Emulator`` for more emulators, all closed after;
- ``avax_emulator_session``: one emulator for the whole session (shared: faults, clocks, rate-limit
  windows and counters carry over between tests).

Settings, strongest first: the marker ``@pytest.mark.avax_emulator(**kwargs)`` (the ``Emulator``
keyword arguments; on a function, class or module, the closest wins per argument), then the ini
options ``avax_emulator_seed``, ``avax_emulator_containers``, ``avax_emulator_data_blocks_per_chain``,
``avax_emulator_latency``, ``avax_emulator_faults`` (``502=0.05,reset=0.01``),
``avax_emulator_fault_seed``, ``avax_emulator_fault_options`` (``retry_after=0``) and
``avax_emulator_rate_limit`` (``100/60``: limit/window seconds), then the emulator's defaults
(``seed=0``). The ini options set every emulator the plugin starts (the factory's and the session
one too). Client fixtures: the marker ``@pytest.mark.avax_client(**kwargs)`` (client keyword
arguments; each client takes those it has), then ``avax_client_max_retries`` and
``avax_client_timeout``. The Data API clients send the key :data:`TEST_API_KEY` unless the marker
gives ``api_key``.

For example::

    @pytest.mark.avax_emulator(faults={"502": 0.1, "short_batch": 0.2}, fault_seed=7)
    def test_walk_survives(avax_emulator, avax_index_client):
        rows = avax_index_client.chain("X/tx").range(0, 5_000).to_polars()
        assert rows.height == 5_000
        assert avax_emulator.fault_counts()["502"] > 0

This module imports without pytest installed; the fixtures and hooks are defined only when it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ._native import (
    AsyncDataClient,
    AsyncIndexClient,
    AsyncMetricsClient,
    DataClient,
    Emulator,
    IndexClient,
    MetricsClient,
)
from ._pytest_options import (
    CLIENT_OPTIONS,
    EMULATOR_OPTIONS,
    TEST_API_KEY,
    check_client_marker,
    client_kwargs,
    option_error,
    read_options,
)
from .exceptions import InvalidParameterError

__all__ = ["Emulator", "TEST_API_KEY"]

try:
    import pytest
except ImportError:  # pragma: no cover - pytest is optional at run time
    pytest = None  # type: ignore[assignment]

_Client = TypeVar("_Client")


@dataclass(frozen=True)
class _Settings:
    """What the ini options set: Emulator and client keyword arguments."""

    emulator: dict[str, Any] = field(default_factory=dict)
    client: dict[str, Any] = field(default_factory=dict)


def _close_async(client: Any) -> None:
    """Awaits ``client.close()`` on a private event loop, leaving the thread's current loop (a
    test runner's) as it was; on a helper thread if a loop is running in this one."""

    async def close() -> None:
        await client.close()

    def run() -> None:
        with asyncio.Runner(loop_factory=asyncio.new_event_loop) as runner:
            runner.run(close())

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        run()
        return
    failure: list[BaseException] = []

    def run_catching() -> None:
        try:
            run()
        except BaseException as exc:  # handed to the caller below
            failure.append(exc)

    worker = threading.Thread(target=run_catching, name="avax-data-close")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]


if pytest is not None:
    _SETTINGS = pytest.StashKey[_Settings]()

    #: pytest >= 9.2 takes union types, so its native ``[tool.pytest]`` TOML table may give numbers.
    _TOML_NUMBERS = tuple(pytest.version_tuple[:2]) >= (9, 2)

    def pytest_addoption(parser: pytest.Parser) -> None:
        """Registers the ini options of the emulator and client fixtures (text, or a TOML number)."""
        for option in EMULATOR_OPTIONS + CLIENT_OPTIONS:
            if _TOML_NUMBERS:
                parser.addini(option.name, f"avax-data: {option.help}", type=str | int | float, default="")
            else:
                parser.addini(option.name, f"avax-data: {option.help}")

    def _read_settings(config: pytest.Config) -> _Settings:
        """The ini options, parsed and checked by building an emulator and a client with them."""
        try:
            emulator = read_options(EMULATOR_OPTIONS, config.getini)
            client = read_options(CLIENT_OPTIONS, config.getini)
        except InvalidParameterError as exc:
            raise pytest.UsageError(str(exc)) from None
        if emulator:
            try:
                Emulator(**emulator).close()
            except (InvalidParameterError, OverflowError, TypeError) as exc:
                raise pytest.UsageError(str(option_error(EMULATOR_OPTIONS, emulator, exc))) from None
        if client:
            try:
                IndexClient("http://127.0.0.1:9", **client).close()
            except (InvalidParameterError, OverflowError, TypeError) as exc:
                raise pytest.UsageError(str(option_error(CLIENT_OPTIONS, client, exc))) from None
        return _Settings(emulator, client)

    def pytest_configure(config: pytest.Config) -> None:
        """Registers the ``avax_emulator`` and ``avax_client`` markers and reads the ini options
        (a bad value stops the run with a usage error naming the option)."""
        config.addinivalue_line(
            "markers",
            "avax_emulator(**kwargs): keyword arguments of the Emulator the avax_emulator fixture starts "
            "(seed, containers, latency, faults, fault_seed, fault_options, rate_limit, ...)",
        )
        config.addinivalue_line(
            "markers",
            "avax_client(**kwargs): keyword arguments of the avax_*_client fixtures' clients "
            "(max_retries, timeout, api_key, concurrency, ...; each client takes those it has)",
        )
        config.stash[_SETTINGS] = _read_settings(config)

    def _settings(config: pytest.Config) -> _Settings:
        return config.stash.get(_SETTINGS, _Settings())

    def _marker_kwargs(request: pytest.FixtureRequest, name: str) -> dict[str, Any]:
        """The keyword arguments of every ``name`` marker on the test, the closest winning."""
        kwargs: dict[str, Any] = {}
        for marker in reversed(list(request.node.iter_markers(name))):
            if name == "avax_client":
                kwargs.update(check_client_marker(marker.args, marker.kwargs))
                continue
            if marker.args:
                raise InvalidParameterError(
                    f"@pytest.mark.{name} takes keyword arguments only, e.g. faults={{'502': 0.1}}; "
                    f"got {marker.args!r}",
                    param=name,
                    value=marker.args,
                    allowed="keyword arguments of Emulator",
                )
            kwargs.update(marker.kwargs)
        return kwargs

    def _start(config: pytest.Config, overrides: Mapping[str, Any]) -> Emulator:
        """An emulator of ``seed=0``, then the ini options, then ``overrides``."""
        return Emulator(**{"seed": 0, **_settings(config).emulator, **overrides})

    @pytest.fixture
    def avax_emulator(request: pytest.FixtureRequest) -> Iterator[Emulator]:
        """A fresh :class:`Emulator` for one test, closed after it: ``seed=0`` and the emulator's
        defaults, overridden by the ini options, overridden by the test's
        ``@pytest.mark.avax_emulator(...)`` keyword arguments."""
        emulator = _start(request.config, _marker_kwargs(request, "avax_emulator"))
        try:
            yield emulator
        finally:
            emulator.close()

    @pytest.fixture(scope="session")
    def avax_emulator_session(pytestconfig: pytest.Config) -> Iterator[Emulator]:
        """One :class:`Emulator` for the whole session (the ini options apply, markers do not).

        Shared: what one test changes (faults, tip, clock, latency, rate-limit windows, counters
        and the request log) the next one sees. Use it for read-only tests that want speed."""
        emulator = _start(pytestconfig, {})
        try:
            yield emulator
        finally:
            emulator.close()

    @pytest.fixture
    def avax_emulator_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., Emulator]]:
        """``make(**kwargs)`` starts an :class:`Emulator`: ``seed=0``, the ini options, then
        ``kwargs``; every emulator it started is closed after the test."""
        started: list[Emulator] = []

        def make(**kwargs: Any) -> Emulator:
            emulator = _start(request.config, kwargs)
            started.append(emulator)
            return emulator

        try:
            yield make
        finally:
            for emulator in started:
                emulator.close()

    def _client(cls: Callable[..., _Client], request: pytest.FixtureRequest, *args: Any, **url: Any) -> _Client:
        """``cls`` pointed at the emulator, with the ini client options overridden by the marker."""
        settings = {**_settings(request.config).client, **_marker_kwargs(request, "avax_client")}
        return cls(*args, **url, **client_kwargs(cls, settings))  # type: ignore[arg-type]

    @contextlib.contextmanager
    def _async_client(cls: Callable[..., _Client], request: pytest.FixtureRequest, *args: Any,
                      **url: Any) -> Iterator[_Client]:
        """``_client``'s async client, closed on a private event loop when the block ends."""
        client = _client(cls, request, *args, **url)
        try:
            yield client
        finally:
            _close_async(client)

    @pytest.fixture
    def avax_index_client(request: pytest.FixtureRequest, avax_emulator: Emulator) -> Iterator[IndexClient]:
        """An :class:`~avax_data.IndexClient` on the ``avax_emulator`` fixture, closed after."""
        with _client(IndexClient, request, avax_emulator.url) as client:
            yield client

    @pytest.fixture
    def avax_data_client(request: pytest.FixtureRequest, avax_emulator: Emulator) -> Iterator[DataClient]:
        """A :class:`~avax_data.DataClient` on the ``avax_emulator`` fixture (key
        :data:`TEST_API_KEY` unless the ``avax_client`` marker gives ``api_key``), closed after."""
        with _client(DataClient, request, base_url=avax_emulator.url) as client:
            yield client

    @pytest.fixture
    def avax_metrics_client(request: pytest.FixtureRequest, avax_emulator: Emulator) -> Iterator[MetricsClient]:
        """A :class:`~avax_data.MetricsClient` on the ``avax_emulator`` fixture, closed after."""
        with _client(MetricsClient, request, base_url=avax_emulator.url) as client:
            yield client

    @pytest.fixture
    def avax_async_index_client(request: pytest.FixtureRequest, avax_emulator: Emulator) -> Iterator[AsyncIndexClient]:
        """An :class:`~avax_data.AsyncIndexClient` on the ``avax_emulator`` fixture.

        A plain fixture: the client binds to no event loop, so any loop may await it (an ``async
        def`` test under pytest-asyncio or anyio, or ``asyncio.run`` inside a sync test). Closed
        after the test on a private event loop."""
        with _async_client(AsyncIndexClient, request, avax_emulator.url) as client:
            yield client

    @pytest.fixture
    def avax_async_data_client(request: pytest.FixtureRequest, avax_emulator: Emulator) -> Iterator[AsyncDataClient]:
        """An :class:`~avax_data.AsyncDataClient` on the ``avax_emulator`` fixture (key
        :data:`TEST_API_KEY` unless the ``avax_client`` marker gives ``api_key``); a plain
        fixture like ``avax_async_index_client``, closed after the test."""
        with _async_client(AsyncDataClient, request, base_url=avax_emulator.url) as client:
            yield client

    @pytest.fixture
    def avax_async_metrics_client(
        request: pytest.FixtureRequest, avax_emulator: Emulator
    ) -> Iterator[AsyncMetricsClient]:
        """An :class:`~avax_data.AsyncMetricsClient` on the ``avax_emulator`` fixture; a plain
        fixture like ``avax_async_index_client``, closed after the test."""
        with _async_client(AsyncMetricsClient, request, base_url=avax_emulator.url) as client:
            yield client

    __all__ += [
        "avax_emulator",
        "avax_emulator_session",
        "avax_emulator_factory",
        "avax_index_client",
        "avax_data_client",
        "avax_metrics_client",
        "avax_async_index_client",
        "avax_async_data_client",
        "avax_async_metrics_client",
    ]
