"""Shared pytest configuration: ``live`` tests run only with ``AVAX_LIVE=1``.

The ``avax_emulator`` and ``avax_index_client`` fixtures come from the package's own pytest plugin
(``avax_data.testing``, registered through the ``pytest11`` entry point).
"""

from __future__ import annotations

import os

import pytest

import avax_data as ad

#: The five index paths a node serves.
PATHS = ("C/block", "P/block", "X/tx", "X/block", "X/vtx")

#: Containers per path in the shared module-scoped emulator: more than one full range call.
SIZE = 2100


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``live`` unless ``AVAX_LIVE=1``."""
    if os.environ.get("AVAX_LIVE") == "1":
        return
    skip = pytest.mark.skip(reason="needs the real services: set AVAX_LIVE=1")
    for item in items:
        if "live" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def emu() -> ad.Emulator:
    """A read-only emulator shared by a module: ``SIZE`` containers on every path, seed 0.

    Tests that change an emulator (advance, latency, index switch) make their own.
    """
    with ad.Emulator(seed=0, containers=SIZE) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def client(emu: ad.Emulator) -> ad.IndexClient:
    """An :class:`IndexClient` on :func:`emu`."""
    with ad.IndexClient(emu.url) as c:
        yield c
