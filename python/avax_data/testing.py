"""Test helpers: the offline :class:`Emulator` and pytest fixtures.

The emulator serves the node's Index RPC on a loopback port, in-process, from a deterministic
synthetic world (container ``i`` of a path is a function of the seed and ``i``)::

    from avax_data.testing import Emulator
    import avax_data as ad

    with Emulator(seed=0, containers=1_000) as emu:
        node = ad.IndexClient(emu.url)
        last = node.chain("X/tx").last_accepted()
        assert last == emu.expected_container("X/tx", 999)

Installing ``avax-data`` registers this module as a pytest plugin (entry point ``pytest11``), so
every test suite gets two fixtures, each fresh for each test function:

- ``avax_emulator``: a running ``Emulator(seed=0)``, closed after the test;
- ``avax_index_client``: an :class:`~avax_data.IndexClient` on that emulator, closed after.

This module imports without pytest installed; the fixtures are defined only when it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._native import Emulator, IndexClient

__all__ = ["Emulator"]

try:
    import pytest
except ImportError:  # pragma: no cover - pytest is optional at run time
    pytest = None  # type: ignore[assignment]

if pytest is not None:

    @pytest.fixture
    def avax_emulator() -> Iterator[Emulator]:
        """A fresh :class:`Emulator` (``seed=0``, default sizes) for one test, closed after it."""
        emulator = Emulator(seed=0)
        try:
            yield emulator
        finally:
            emulator.close()

    @pytest.fixture
    def avax_index_client(avax_emulator: Emulator) -> Iterator[IndexClient]:
        """An :class:`~avax_data.IndexClient` on the ``avax_emulator`` fixture, closed after."""
        client = IndexClient(avax_emulator.url)
        try:
            yield client
        finally:
            client.close()

    __all__ += ["avax_emulator", "avax_index_client"]
