"""Client options shared by every command, and opening the client they describe."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import _native
from . import argtypes
from .embedded import add_embedded_options, start_embedded

__all__ = ["client_parent", "open_client", "SERVICES"]

#: service -> (client class name, URL environment variable, default URL)
SERVICES = {
    "index": ("IndexClient", "AVAX_NODE_URL", "https://api.avax.network"),
    "data": ("DataClient", "AVAX_DATA_API_URL", "https://data-api.avax.network"),
    "metrics": ("MetricsClient", "AVAX_METRICS_API_URL", "https://metrics.avax.network"),
}

# argparse dest -> client keyword, for the transport options every client takes.
_TRANSPORT = (
    "timeout",
    "connect_timeout",
    "max_retries",
    "backoff",
    "max_backoff",
    "retry_budget",
    "max_response_bytes",
    "ca_bundle",
    "rate_limit",
    "compute_units_per_minute",
)


#: The timeout and retry options of every client: flag, argument type, metavar, help.
_TIMING = (
    ("--timeout", argtypes.positive_float, "SECONDS", "whole-request timeout (default 30)"),
    ("--connect-timeout", argtypes.positive_float, "SECONDS", "connection timeout (default 10)"),
    ("--max-retries", argtypes.non_negative_int, "N",
     "retries of a failed request: connection errors, timeouts, 5xx, 429 (default 3)"),
    ("--backoff", argtypes.non_negative_float, "SECONDS", "first retry delay, doubled each retry (default 0.2)"),
    ("--max-backoff", argtypes.non_negative_float, "SECONDS", "longest retry delay (default 10)"),
    ("--retry-budget", argtypes.non_negative_float, "SECONDS", "total time retries of one request may take (default 60)"),
)


def client_parent(service: str) -> argparse.ArgumentParser:
    """A parent parser with the options of ``service``'s client (``index``, ``data``, ``metrics``)."""
    _, env, default_url = SERVICES[service]
    parent = argparse.ArgumentParser(add_help=False)
    source = parent.add_argument_group("service")
    where = source.add_mutually_exclusive_group()
    names = ["--base-url", "--url"]  # every service: --base-url, as every client's base_url=
    what = "the node's base URL" if service == "index" else "the service's base URL"
    where.add_argument(*names, dest="url", default=None, metavar="URL",
                       help=f"{what} (default: ${env}, then {default_url})")
    where.add_argument("--emulator", action="store_true",
                       help="start an emulator in this process and use it (no network needed)")
    if service == "data":
        source.add_argument("--api-key", default=None, metavar="KEY",
                            help="Data API key (default: $AVAX_DATA_API_KEY; optional, never printed)")
    net = parent.add_argument_group("transport")
    for flag, kind, metavar, text in _TIMING:
        net.add_argument(flag, type=kind, metavar=metavar, help=text)
    if service == "index":
        net.add_argument("--concurrency", type=argtypes.positive_int, metavar="N",
                         help="requests in flight during a walk (default 4)")
        net.add_argument("--no-verify-ids", dest="verify_ids", action="store_false",
                         help="skip checking each container's id against its bytes")
    net.add_argument("--rate-limit", type=argtypes.positive_float, metavar="PER_SECOND",
                     help="most requests per second this command sends (default: no limit)")
    net.add_argument("--compute-units-per-minute", type=argtypes.positive_int, metavar="N",
                     help="most compute units per minute this command spends, paced before each request "
                     "(default: no budget)")
    net.add_argument("--header", dest="headers", type=argtypes.header, action="append", metavar="NAME=VALUE",
                     help="extra HTTP header, repeatable (values are secrets: never printed)")
    net.add_argument("--max-response-bytes", type=argtypes.positive_int, metavar="BYTES",
                     help="largest response body accepted, after decompression (default 268435456)")
    net.add_argument("--ca-bundle", metavar="PEM", help="extra CA certificates to trust (a PEM file)")
    net.add_argument("--insecure", dest="danger_accept_invalid_certs", action="store_true",
                     help="accept invalid TLS certificates (dangerous; for test set-ups only)")
    net.add_argument("--follow-cross-origin-redirects", action="store_true",
                     help="follow redirects to another host (the API key and headers are dropped there)")
    add_embedded_options(parent)
    parent.add_argument("-q", "--quiet", action="store_true",
                        help="no progress line and no messages on stderr (errors still are)")
    return parent


def client_kwargs(args: argparse.Namespace, service: str) -> dict[str, Any]:
    """Keyword arguments of the client constructor: only the options given on the command line."""
    kwargs: dict[str, Any] = {name: getattr(args, name) for name in _TRANSPORT if getattr(args, name) is not None}
    if args.headers:
        kwargs["headers"] = dict(args.headers)
    if args.danger_accept_invalid_certs:
        kwargs["danger_accept_invalid_certs"] = True
    if args.follow_cross_origin_redirects:
        kwargs["follow_cross_origin_redirects"] = True
    if service == "index":
        if args.concurrency is not None:
            kwargs["concurrency"] = args.concurrency
        if not args.verify_ids:
            kwargs["verify_ids"] = False
    return kwargs


@contextmanager
def open_client(args: argparse.Namespace, service: str) -> Iterator[Any]:
    """Open the client of ``service`` the arguments describe (starting the embedded emulator if asked)."""
    emulator = start_embedded(args, quiet=args.quiet) if args.emulator else None
    try:
        url = emulator.url if emulator is not None else args.url
        kwargs = client_kwargs(args, service)
        client: Any
        if service == "index":
            client = _native.IndexClient(url, **kwargs)
        elif service == "data":
            client = _native.DataClient(url, api_key=args.api_key, **kwargs)  # None: AVAX_DATA_API_KEY
        else:
            client = _native.MetricsClient(url, **kwargs)
        with client:
            yield client
    finally:
        if emulator is not None:
            emulator.close()
