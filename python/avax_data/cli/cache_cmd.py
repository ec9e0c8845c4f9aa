"""``avax-data cache info [DIR]`` and ``avax-data cache clear [DIR]``: the on-disk cache."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .errors import EXIT_OK, CliError
from .parser import Command, add_group

__all__ = ["add_cache_commands", "info_lines"]


def add_cache_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``cache`` and its actions (``info``, ``clear``) to the top-level subparsers."""
    cache = Command("cache", """
show or clear the cache of what cannot change (cache= of the clients)

Work with a cache directory (cache= of the clients, or $AVAX_DATA_CACHE): accepted
index containers kept on disk so a rerun asks the node only for what is not cached.

avax-data cache info ~/.cache/avax-data
avax-data cache info --json | jq .bytes
avax-data cache clear ~/.cache/avax-data""",
    )
    info = Command("info", """
entries and bytes of a cache directory, per kind

Print how many entries and bytes a cache directory holds, per kind (index, metrics,
data). DIR defaults to $AVAX_DATA_CACHE.

avax-data cache info ~/.cache/avax-data
avax-data cache info --json""",
        arguments=_dir_and_json("print one JSON object"), handler=_info,
    )
    clear = Command("clear", """
delete every entry of a cache directory

Delete every entry of a cache directory, under its lock (safe while other processes
use it: they fetch again what they miss). Only the cache's own entries are deleted:
any other file is left alone, and a directory that is not a cache (no .avax-data-cache
marker, other files) is refused. DIR defaults to $AVAX_DATA_CACHE.

avax-data cache clear ~/.cache/avax-data""",
        arguments=_dir_and_json("print what was deleted as one JSON object"), handler=_clear,
    )
    add_group(sub, cache, [info, clear])


def _dir_and_json(json_help: str) -> Callable[[argparse.ArgumentParser], None]:
    """The arguments of every cache action: an optional DIR and ``--json`` (helped by ``json_help``)."""

    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("dir", metavar="DIR", nargs="?", help="the cache directory (default: $AVAX_DATA_CACHE)")
        parser.add_argument("--json", action="store_true", help=json_help)

    return arguments


def _directory(args: argparse.Namespace) -> str:
    from .._native import cache_default_dir

    directory = args.dir or cache_default_dir()
    if not directory:
        raise CliError("no cache directory: give DIR", "or set AVAX_DATA_CACHE")
    return str(directory)


def info_lines(info: dict[str, Any]) -> list[str]:
    """The lines ``cache info`` prints for ``info`` (see ``avax_data.cache_info``)."""
    lines = [
        f"cache {info['dir']}: {info['entries']} entries, {info['bytes']} bytes "
        f"(default limit {info['default_max_bytes']} bytes; cache_max_bytes= sets it per client)"
    ]
    for kind, counts in info["kinds"].items():
        lines.append(f"  {kind}: {counts['entries']} entries, {counts['bytes']} bytes")
    return lines


def _info(args: argparse.Namespace) -> int:
    from .._native import cache_info

    info = cache_info(_directory(args))
    return _report(args, info, "\n".join(info_lines(info)))


def _clear(args: argparse.Namespace) -> int:
    from .._native import cache_clear

    removed = cache_clear(_directory(args))
    return _report(args, removed, f"cache {removed['dir']}: deleted {removed['entries']} entries, {removed['bytes']} bytes")


def _report(args: argparse.Namespace, result: dict[str, Any], text: str) -> int:
    """Print ``result`` as JSON with ``--json``, else ``text``; the command's exit code."""
    print(json.dumps(result, sort_keys=True) if args.json else text)
    sys.stdout.flush()
    return EXIT_OK
