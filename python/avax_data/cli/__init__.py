"""The ``avax-data`` command line (also ``python -m avax_data``).

Subcommands (``avax-data COMMAND --help`` shows each one's options and examples):

``index range|follow|last|container``
    The node's Index RPC: export a range or follow the tip to Parquet, CSV or NDJSON; print one
    container as JSON. ``walk`` is ``index range`` plus a summary of the file written.
``data <endpoint>``
    Every Data API method: ``chains``, ``chain``, ``block``, ``health`` print JSON; ``blocks``,
    ``latest-blocks``, ``collectibles``, ``pending-rewards``, ``vertices``, ``icm-messages`` export.
``metrics series|chains|icm-summary|live-check``
    The Metrics API.
``dataset verify DIR``
    Check a dataset directory fully (every sha256, extra and temporary files, gaps, duplicates).
``emulator``
    Serve the emulator until Ctrl-C.

Every service command takes the client's options (``--url``, ``--timeout``, ``--max-retries``,
``--header``, ...) and ``--emulator`` (an emulator started in the process). Exports are resumable
(``--resume``, see :mod:`avax_data.cli.export`) and show progress on a terminal. Exit codes are in
:mod:`avax_data.cli.errors`: 0 done, 1 local I/O error, 2 bad usage, 3 service error, 130
interrupted.

Example::

    avax-data walk --emulator --chain X/tx --out x_tx.parquet
    avax-data index range --emulator --chain C/block --decode --count 5000 -o c.parquet
    avax-data data blocks 43114 --emulator --limit 1000 -o - | head -3
"""

from __future__ import annotations

from .app import build_parser, main

__all__ = ["main", "build_parser"]
