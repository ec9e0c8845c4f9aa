"""Test helpers: the offline :class:`Emulator` and pytest fixtures.

The emulator serves the node's Index RPC on a loopback port, in-process, from a deterministic
synthetic world (container ``i`` of a path is a function of the seed and ``i``):

>>> from avax_data.testing import Emulator
>>> import avax_data as ad
>>> with Emulator(seed=0, containers=1_000) as emu:
...     node = ad.IndexClient(emu.url)
...     last = node.chain("X/tx").last_accepted()
...     assert last == emu.expected_container("X/tx", 999)

Installing ``avax-data`` registers this module as a pytest plugin (entry point ``pytest11``), so
every test suite gets three fixtures, each fresh for each test function:

- ``avax_emulator``: a running ``Emulator(seed=0)``, closed after the test; the marker
  ``@pytest.mark.avax_emulator(**kwargs)`` passes ``kwargs`` to the :class:`Emulator` instead
  (for example ``faults={"502": 0.1}, fault_seed=7``);
- ``avax_index_client``: an :class:`~avax_data.IndexClient` on that emulator, closed after;
- ``avax_emulator_factory``: a function ``make(**kwargs) -> Emulator`` for tests that need
  several emulators or decide their settings while running; every one is closed after the test.

Faults, for example::

    @pytest.mark.avax_emulator(faults={"502": 0.1, "short_batch": 0.2}, fault_seed=7)
    def test_walk_survives(avax_emulator, avax_index_client):
        rows = avax_index_client.chain("X/tx").range(0, 5_000).to_polars()
        assert rows.height == 5_000
        assert avax_emulator.fault_counts()["502"] > 0

This module imports without pytest installed; the fixtures are defined only when it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._native import Emulator, IndexClient

__all__ = ["Emulator"]

try:
    import pytest
except ImportError:  # pragma: no cover - pytest is optional at run time
    pytest = None  # type: ignore[assignment]

if pytest is not None:

    def pytest_configure(config: pytest.Config) -> None:
        """Registers the ``avax_emulator`` marker."""
        config.addinivalue_line(
            "markers",
            "avax_emulator(**kwargs): keyword arguments of the Emulator the avax_emulator fixture starts "
            "(seed, containers, latency, faults, fault_seed, fault_options, ...)",
        )

    @pytest.fixture
    def avax_emulator(request: pytest.FixtureRequest) -> Iterator[Emulator]:
        """A fresh :class:`Emulator` for one test, closed after it.

        It has ``seed=0`` and the default sizes, or the keyword arguments of the test's
        ``@pytest.mark.avax_emulator(...)`` marker."""
        marker = request.node.get_closest_marker("avax_emulator")
        kwargs: dict[str, Any] = {"seed": 0}
        if marker is not None:
            if marker.args:
                raise TypeError("@pytest.mark.avax_emulator takes keyword arguments only, e.g. faults={'502': 0.1}")
            kwargs.update(marker.kwargs)
        emulator = Emulator(**kwargs)
        try:
            yield emulator
        finally:
            emulator.close()

    @pytest.fixture
    def avax_emulator_factory() -> Iterator[Callable[..., Emulator]]:
        """A function ``make(**kwargs)`` that starts an :class:`Emulator`, closed after the test.

        ``seed`` defaults to 0; every emulator it started is closed after the test."""
        started: list[Emulator] = []

        def make(**kwargs: Any) -> Emulator:
            kwargs.setdefault("seed", 0)
            emulator = Emulator(**kwargs)
            started.append(emulator)
            return emulator

        try:
            yield make
        finally:
            for emulator in started:
                emulator.close()

    @pytest.fixture
    def avax_index_client(avax_emulator: Emulator) -> Iterator[IndexClient]:
        """An :class:`~avax_data.IndexClient` on the ``avax_emulator`` fixture, closed after."""
        client = IndexClient(avax_emulator.url)
        try:
            yield client
        finally:
            client.close()

    __all__ += ["avax_emulator", "avax_emulator_factory", "avax_index_client"]
