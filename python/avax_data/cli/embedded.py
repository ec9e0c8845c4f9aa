"""``--emulator``: run a command against an emulator started in the same process.

The emulator's world is a pure function of its seed and sizes, so an export from an embedded
emulator is the same on every run (and can be resumed by position, see :mod:`.export`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._native import Emulator, emulator_defaults
from . import argtypes

__all__ = ["add_embedded_options", "start_embedded", "embedded_identity", "world_arguments"]

#: The emulator's one table of defaults (the same for ``ad.Emulator()`` and the pytest plugin).
_DEFAULTS = emulator_defaults()
#: Containers per index path of the embedded emulator unless ``--emulator-containers`` says.
DEFAULT_CONTAINERS = int(_DEFAULTS["containers"])
#: Data API blocks per EVM chain unless ``--emulator-data-blocks`` says.
DEFAULT_DATA_BLOCKS = int(_DEFAULTS["data_blocks_per_chain"])


#: The ``--emulator-*`` knobs: flag, argument type, default, metavar, help.
_OPTIONS = (
    ("--emulator-seed", argtypes.non_negative_int, 0, "N", "the emulated world's seed (default 0)"),
    ("--emulator-containers", argtypes.containers, DEFAULT_CONTAINERS, "N|PATH=N,...",
     f"containers on every index path, or per path (default {DEFAULT_CONTAINERS:,})"),
    ("--emulator-data-blocks", argtypes.positive_int, None, "N",
     f"Data API blocks per EVM chain (default {DEFAULT_DATA_BLOCKS:,})"),
    ("--emulator-tip-rate", argtypes.non_negative_float, 0.0, "PER_S",
     "new containers per second on every index path (default 0)"),
    ("--emulator-latency", argtypes.non_negative_float, 0.0, "SECONDS", "seconds added to every response (default 0)"),
    ("--emulator-faults", argtypes.faults, None, "KIND=RATE,...",
     "injected faults per request (kinds: see avax-data emulator --help)"),
    ("--emulator-fault-seed", argtypes.non_negative_int, 0, "N", "seed of the fault decisions (default 0)"),
)


def add_embedded_options(parser: argparse.ArgumentParser | Any) -> None:
    """The ``--emulator-*`` knobs (``--emulator`` itself is added with the URL options)."""
    group = parser.add_argument_group("embedded emulator (with --emulator)")
    for flag, kind, default, metavar, text in _OPTIONS:
        group.add_argument(flag, type=kind, default=default, metavar=metavar, help=text)


#: ``Emulator`` keyword -> the argument (``--X`` of ``avax-data emulator``, ``--emulator-X`` here)
#: of the world knobs both ways of starting an emulator take.
_WORLD_ARGUMENTS = {
    "seed": "seed", "containers": "containers", "tip_rate": "tip_rate", "latency": "latency",
    "data_blocks_per_chain": "data_blocks", "faults": "faults", "fault_seed": "fault_seed",
}


def world_arguments(args: argparse.Namespace, prefix: str) -> dict[str, Any]:
    """The ``Emulator`` keyword arguments of the world knobs, read from ``args`` (each argument's
    destination prefixed with ``prefix``: ``"emulator_"`` for ``--emulator-X``, ``""`` for ``--X``)."""
    return {keyword: getattr(args, prefix + dest) for keyword, dest in _WORLD_ARGUMENTS.items()}


def start_embedded(args: argparse.Namespace, *, quiet: bool) -> Emulator:
    """Start the emulator the ``--emulator-*`` arguments describe and say where it listens."""
    emulator = Emulator(**world_arguments(args, "emulator_"))
    if not quiet:
        print(f"embedded emulator at {emulator.url}", file=sys.stderr, flush=True)
    return emulator


def embedded_identity(args: argparse.Namespace) -> dict[str, Any] | None:
    """What defines the embedded emulator's world (for the resume state), or ``None`` without one."""
    if not getattr(args, "emulator", False):
        return None
    return {
        "seed": args.emulator_seed,
        "containers": args.emulator_containers,
        "data_blocks": args.emulator_data_blocks,
    }
