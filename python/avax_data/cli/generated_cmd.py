"""Commands built from the operation table: one per generated endpoint method of a service.

``avax-data data <operation>`` and ``avax-data metrics <operation>`` get one command for every GET
operation of the service's OpenAPI document that has a generated method (``_endpoints.SPECS``):
list operations export typed frames like ``blocks`` (``--out``, ``--format``, ``--resume``; the
Data API's lists with a block range or a time window also ``--dataset DIR``), object operations
print JSON. Path parameters are positional, the other parameters are
``--options`` (lists of values comma-separated); the arguments are checked by the core, from the
document, before any request.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from . import argtypes
from .client import open_client
from .dataset_export import add_dataset_options, run_dataset
from .embedded import embedded_identity
from .export import add_export_options, export_from_args, run_export
from .jsonout import emit_json
from .parser import add_command
from .sources import PagerSource

__all__ = ["add_generated_commands", "run_generated_list", "run_generated_object"]

# (service, command) -> (client method, positional argument names, keyword argument names)
GENERATED: dict[tuple[str, str], tuple[str, tuple[str, ...], tuple[str, ...]]] = {}
# (service, command) -> (deprecated option's dest, its new name) pairs: ``--start-timestamp`` is
# ``--start`` for one release, with a warning.
DEPRECATED: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}


def page_options(parser: argparse.ArgumentParser, most: int) -> None:
    """``--page-size`` (1 to ``most``) and ``--limit``: the options of every list command."""
    parser.add_argument("--page-size", type=argtypes.positive_int, default=None, metavar="N",
                        help=f"items per request, 1-{most} (default {most}, the largest)")
    parser.add_argument("--limit", type=argtypes.positive_int, default=None, metavar="N",
                        help="at most N items in all (default: the whole list); gives the progress an ETA")


def add_generated_commands(
    actions: argparse._SubParsersAction,
    client: argparse.ArgumentParser,
    service: str,
    *,
    on_list: Callable[[argparse.Namespace], int] | None = None,
) -> list[str]:
    """Add a command for each generated method of ``service`` (``"data"`` or ``"metrics"``) to
    ``actions``; returns the command names. ``on_list`` replaces the list handler (default
    :func:`run_generated_list`)."""
    from .. import _endpoints, _native

    table = {o["operation_id"]: o for o in _native.openapi_operations() if o["service"] == service}
    methods = _endpoints.DATA_METHODS if service == "data" else _endpoints.METRICS_METHODS
    names = []
    for (owner, method), (op_id, positional, keywords, is_list) in _endpoints.SPECS.items():
        if owner != service:
            continue
        name = method.replace("_", "-")
        doc = (methods[method].__doc__ or method).strip().splitlines()[0]
        op = table[op_id]
        examples = f"avax-data {service} {name} {' '.join(p.upper() for p in positional)}".rstrip()
        description = f"{doc}\n(operationId {op_id})"
        if is_list:
            size = next((p["maximum"] for p in op["params"] if p["name"] == "pageSize"), None)
            parser = add_command(actions, name, parents=[client], help=doc, description=description,
                                 examples=examples + " -o out.parquet")
            page_options(parser, int(size or 100))
            if op.get("block_ranged") or op.get("time_windowed"):
                kind = "block" if op.get("block_ranged") else "time"
                parser.add_argument("--concurrency", type=argtypes.positive_int, default=None, metavar="N",
                                    help=f"{kind} shards walked side by side, 1 to 64 (default: what the client's "
                                         "compute-unit budget fills; 1: the service's pages in sequence)")
            add_export_options(parser, default_stem=method)
            if service == "data" and op.get("block_ranged"):
                add_dataset_options(parser, "DIR/block=<first block of the chunk>/part.parquet", chunk=True)
            elif service == "data" and op.get("time_windowed"):
                add_dataset_options(parser, "DIR/month=<YYYYMM>/part.parquet (UTC month of each item's second)",
                                    chunk=False)
            parser.set_defaults(handler=on_list or run_generated_list)
        else:
            parser = add_command(actions, name, parents=[client], help=doc, description=description,
                                 examples=examples)
            parser.add_argument("-o", "--out", default=None, metavar="PATH",
                                help="write the JSON here instead of stdout")
            parser.set_defaults(handler=run_generated_object)
        parser.set_defaults(endpoint=name, service=service)
        described = {p["py_name"]: p for p in op["params"]}
        for arg in positional:
            parser.add_argument(arg, metavar=arg.upper(), help=(described[arg]["description"] or arg).replace("%", "%%"))
        for arg in keywords:
            if arg == "page_size" and is_list:
                continue
            flag = "--" + arg.rstrip("_").replace("_", "-")
            parser.add_argument(flag, dest=arg, default=None, required=described[arg]["required"],
                                type=argtypes.time_of(arg) if described[arg]["time"] else None,
                                metavar="VALUE,..." if described[arg]["array"] else "VALUE",
                                help=(described[arg]["description"] or arg).replace("%", "%%"))
            old = described[arg].get("deprecated_name")
            if old:
                parser.add_argument("--" + old.replace("_", "-"), dest=old, default=None,
                                    type=argtypes.time_of(old) if described[arg]["time"] else None,
                                    help=argparse.SUPPRESS)
        GENERATED[(service, name)] = (method, positional, tuple(k for k in keywords if k != "page_size"))
        DEPRECATED[(service, name)] = tuple((described[k]["deprecated_name"], k) for k in keywords
                                            if described[k].get("deprecated_name"))
        names.append(name)
    return names


def _call_args(args: argparse.Namespace) -> tuple[str, list[Any], dict[str, Any]]:
    method, positional, keywords = GENERATED[(args.service, args.endpoint)]
    options = {name: getattr(args, name) for name in keywords if getattr(args, name) is not None}
    for old, new in DEPRECATED[(args.service, args.endpoint)]:
        value = getattr(args, old)
        if value is None:
            continue
        flag, new_flag = "--" + old.replace("_", "-"), "--" + new.replace("_", "-")
        if new in options:
            from ..exceptions import InvalidParameterError

            allowed = f"only one of {new_flag} and {flag} (its deprecated name)"
            raise InvalidParameterError(f"invalid {flag}={value!r}: {allowed}", param=flag, value=value, allowed=allowed)
        print(f"avax-data: warning: {flag} is deprecated: use {new_flag} (it goes in the next release)",
              file=sys.stderr)
        options[new] = value
    return method, [getattr(args, name) for name in positional], options


def run_generated_list(args: argparse.Namespace) -> int:
    """A generated list command: export its pager (resumable with ``--resume``)."""
    method, values, options = _call_args(args)
    if args.page_size is not None:
        options["page_size"] = args.page_size
    walk = {"endpoint": args.endpoint, "args": values, **options, "limit": args.limit,
            "emulator": embedded_identity(args)}
    if getattr(args, "concurrency", None) is not None:
        options["concurrency"] = args.concurrency  # the same rows whatever it is: not part of the walk
    if getattr(args, "dataset", None) is not None:
        return run_dataset(args, args.service, method, values, options)
    export = export_from_args(args, f"{args.service} {args.endpoint}", walk, args.endpoint.replace("-", "_"))
    with open_client(args, args.service) as client:
        call = getattr(client, method)

        def make_pager(token: str | None, limit: int | None) -> Any:
            return call(*values, **options, page_token=token, limit=limit)

        run_export(export, PagerSource(make_pager, args.limit, base_url=None if args.emulator else client.base_url,
                                       tokens_survive=not args.emulator))
    return 0


def run_generated_object(args: argparse.Namespace) -> int:
    """A generated object command: print its JSON."""
    method, values, options = _call_args(args)
    with open_client(args, args.service) as client:
        emit_json(getattr(client, method)(*values, **options), args.out)
    return 0
