"""The Python types of the extension's parameters and results: the one table ``tools/native_stubs.py`` reads.

Everything else in ``python/avax_data/_native.pyi`` comes from the built module itself: the classes
and functions, each method's parameters (names, order, positional or keyword-only, defaults: what
``#[pyo3(signature = ...)]`` declares), which members are properties, and the docstrings (the
``///`` comments). The bindings take most arguments as ``&Bound<PyAny>`` and check them in the core,
so the Rust types say little a type checker can use; the types a user may pass live here.

- ``PARAMS``: the type of a parameter, by its name, wherever it appears.
- ``SECTIONS``: the functions and sync classes in the order the stub lists them. A function or
  method is a dict: ``"return"`` and any parameter whose type differs from ``PARAMS``; a property
  is the text of its type; overloads are a list of such dicts. ``*name`` is a ``*args``.

The generator refuses a table that misses a parameter, a member or a class of the module, or
names one the module does not have, so the table cannot drift from the bindings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Class:
    """The types of one sync class: its base (e.g. ``Iterator[Container]``) and its members."""

    #: By member name, in the stub's order: a property's type, a method's dict, or overloads.
    members: dict[str, object]
    base: str | None = None


#: The type of a parameter, by its name, wherever it appears (unless an entry says otherwise).
PARAMS: dict[str, str] = {
    "address": "str",
    "arguments": "Mapping[str, Any]",
    "addresses": "Sequence[str] | str | None",
    "api_key": "str | None",
    "backoff": "float | None",
    "base_url": "str | None",
    "batch_size": "int",
    "block_id": "int | str",
    "blockchain_id": "str | None",
    "ca_bundle": "str | os.PathLike[str] | None",
    "cache": "str | os.PathLike[str] | Literal[False] | None",
    "cache_max_bytes": "int | None",
    "chain_id": "str",
    "chunk": "int",
    "client": "object",
    "columns": "Sequence[str] | str | None",
    "compression": "Compression",
    "compute_units_per_minute": "int | None",
    "concurrency": "int | None",
    "connect_timeout": "float",
    "containers": "int | Mapping[str, int] | None",
    "contract_address": "str | None",
    "count": "int",
    "danger_accept_invalid_certs": "bool",
    "data_api_refused_keys": "Sequence[str] | None",
    "data_api_require_key": "bool",
    "data_blocks_per_chain": "int | None",
    "decode": "Decode",
    "dest_blockchain_id": "str | None",
    "destination_blockchain_id": "str | None",
    "dir": "str | os.PathLike[str]",
    "enabled": "bool",
    "end": "TimeArg | None",
    "fault_options": "Mapping[str, float] | None",
    "fault_seed": "int",
    "faults": "Mapping[str, float] | None",
    "feature": "Feature | None",
    "follow_cross_origin_redirects": "bool",
    "from_": "str | None",
    "group_by": "GroupBy | Sequence[GroupBy] | None",
    "headers": "Mapping[str, str] | None",
    "host": "str",
    "id": "str",
    "index": "int",
    "index_enabled": "bool",
    "interval": "Interval | None",
    "items": "Sequence[bytes]",
    "keys": "Sequence[str]",
    "latency": "float",
    "limit": "int | None",
    "max_backoff": "float | None",
    "max_poll_interval": "float",
    "max_response_bytes": "int",
    "max_retries": "int | None",
    "metric": "MetricName",
    "n": "int",
    "name": "str",
    "network": "Network | None",
    "operation_id": "str",
    "node_ids": "Sequence[str] | str | None",
    "page_size": "int | None",
    "page_token": "str | None",
    "path": "IndexPathName",
    "poll_interval": "float",
    "port": "int",
    "progress": "Progress",
    "rate_limit": "float | None",
    "requested_schema": "object | None",
    "require": "bool",
    "retry": "RetryPolicy | None",
    "retry_budget": "float | None",
    "row_group_size": "int",
    "seconds": "float",
    "seed": "int",
    "sort_order": "SortOrder | None",
    "source_blockchain_id": "str | None",
    "src_blockchain_id": "str | None",
    "staged": "Sequence[str | os.PathLike[str]]",
    "start": "int",
    "strict": "bool",
    "threads": "int",
    "tier": "str | None",
    "timeout": "float",
    "tip_rate": "float",
    "to": "str | None",
    "url": "str | None",
    "utc_offset_minutes": "int",
    "verify_ids": "bool",
}

def _closing(name: str) -> dict[str, object]:
    """The members of a class that is its own context manager: ``close``, ``__enter__``, ``__exit__``."""
    return {"close": {"return": "None"}, "__enter__": {"return": name}, "__exit__": {"*_exc": "object", "return": "None"}}


def _iterator(name: str, item: str, position: dict[str, object] | None = None, *, arrow: bool = False) -> Class:
    """An iterator of ``item`` (``position``: the members before ``__iter__``; ``arrow``: it is
    also an Arrow stream)."""
    members: dict[str, object] = {**(position or {}), "__iter__": {"return": name}, "__next__": {"return": item},
                                  "close": {"return": "None"}}
    if arrow:
        members["__arrow_c_stream__"] = {"return": "object"}
    return Class(base=f"Iterator[{item}]", members=members)


def _walk(name: str, iterator: str, position: dict[str, object], chunks: dict[str, object],
          write_dataset: dict[str, str], plan: dict[str, str] | None = None) -> Class:
    """A walk (a range or a pager): its position, its iterators, its whole-walk outputs
    (``plan``: the parameters of its ``plan`` method)."""
    return Class(members={
        "plan": {**(plan or {}), "return": "Plan"},
        **position,
        "__iter__": {"return": iterator},
        "items": {"return": iterator},
        **chunks,
        "to_polars": {"return": "pl.DataFrame"},
        "to_arrow": {"return": "Any"},
        "to_pandas": {"return": "Any"},
        "__arrow_c_stream__": {"return": "object"},
        "_repr_html_": {"return": "str"},
        "restart": {"return": name},
        "write_parquet": {"path": "str | os.PathLike[str] | IO[bytes]", "return": "int"},
        "write_dataset": {"path": "str | os.PathLike[str]", **write_dataset, "return": "dict[str, int]"},
    })


#: The generic calls behind the generated endpoint methods of a REST client.
_GENERIC_CALLS: dict[str, object] = {"_call_list": {"return": "Pager"}, "_call_object": {"return": "dict[str, Any]"}}

#: The stub's sections: a heading (``None``: the module's functions) and its functions and classes.
SECTIONS: list[tuple[str | None, dict[str, object]]] = [
    (None, {
        "_client_settings": {"return": "list[tuple[str, str]]"},
        "_default_settings": {"return": "list[tuple[str, str]]"},
        "literal_tables": {"return": "list[tuple[str, tuple[list[str], str]]]"},
        "emulator_defaults": {"return": "dict[str, float]"},
        "reset_logging": {"return": "None"},
        "decode_bytes": {"return": "pl.DataFrame"},
        "c_block_senders": {"return": "list[list[str]]"},
        "openapi_operations": {"return": "list[dict[str, Any]]"},
        "month_windows": {"end": "int", "return": "list[tuple[int, int, int, int]]"},
        "complete_partitions": {"path": "str | os.PathLike[str]", "return": "list[tuple[int, int, int, int]]"},
        "merge_dataset": {"path": "str | os.PathLike[str]", "return": "dict[str, int]"},
        "cache_info": {"dir": "str | os.PathLike[str] | None", "return": "dict[str, Any]"},
        "cache_clear": {"dir": "str | os.PathLike[str] | None", "return": "dict[str, Any]"},
        "cache_default_dir": {"return": "str | None"},
        "verify_dataset": {"return": "dict[str, Any]"},
        "unix_seconds": {"value": "TimeArg", "param": "str", "return": "int"},
        "_verify_checkpoint": {"path": "str | os.PathLike[str]", "return": "dict[str, Any]"},
        "_export_plan": {"rng": "Range", "reads_tip": "bool", "held": "int", "return": "Plan"},
        "_chain_identity": {"chain": "Chain", "return": "str | None"},
        "reconcile": {"node": "IndexClient | AsyncIndexClient", "data": "DataClient | AsyncDataClient",
                      "chain": "str", "stop": "int", "network": "Network",
                      "return": "tuple[pl.DataFrame, dict[str, int]]"},
        "reconcile_async": {"node": "IndexClient | AsyncIndexClient", "data": "DataClient | AsyncDataClient",
                            "chain": "str", "stop": "int", "network": "Network",
                            "return": "Coroutine[Any, Any, tuple[pl.DataFrame, dict[str, int]]]"},
    }),
    ("Index RPC client", {
        "IndexClient": Class(
            members={
                "__new__": {"concurrency": "int", "return": "IndexClient"},
                "base_url": "str",
                "url": "str",
                "_repr_html_": {"return": "str"},
                "chain": {"return": "Chain"},
                "retry": "RetryPolicy",
                **_closing("IndexClient"),
            },
        ),
        "Chain": Class(
            members={
                "path": "str",
                "last_accepted": [
                    {"decode": "Literal[False, None]", "return": "Container"},
                    {"decode": 'Literal[True, "strict", "senders"]', "return": "DecodedRow"},
                ],
                "container": [
                    {"index": "int | None", "id": "str | None", "decode": "Literal[False, None]",
                     "return": "Container"},
                    {"index": "int | None", "id": "str | None", "decode": 'Literal[True, "strict", "senders"]',
                     "return": "DecodedRow"},
                ],
                "container_range": {"return": "list[Container]"},
                "index_of": {"return": "int"},
                "is_accepted": {"return": "bool"},
                "range": {"stop": "int | None", "count": "int | None", "return": "Range"},
                "follow": {"start": "int | None", "return": "Follow"},
            },
        ),
        "Range": _walk("Range", "RangeIterator", {"start": "int", "stop": "int | None", "end": "int | None",
                                                  "next_index": "int"},
                       {"batches": {"return": "BatchIterator"}}, {},
                       {"dataset": "str | os.PathLike[str] | None", "chunk": "int | None"}),
        "RangeIterator": _iterator("RangeIterator", "Container", {"next_index": "int"}),
        "BatchIterator": _iterator("BatchIterator", "pl.DataFrame", {"next_index": "int"}, arrow=True),
        "Follow": _iterator("Follow", "Container", {"next_index": "int | None"}),
    }),
    ("Data API client", {
        "DataClient": Class(
            members={
                "__new__": {"url": "None", "return": "DataClient"},  # url= refused, naming base_url=
                "base_url": "str",
                "_repr_html_": {"return": "str"},
                "rate_limit": "RateLimitInfo | None",
                "chains": {"return": "list[dict[str, Any]]"},
                "chain": {"return": "dict[str, Any]"},
                "block": {"return": "dict[str, Any]"},
                "health": {"return": "dict[str, Any]"},
                "blocks": {"return": "Pager"},
                "latest_blocks": {"return": "Pager"},
                "collectibles": {"return": "Pager"},
                "pending_rewards": {"network": "Network", "return": "Pager"},
                "vertices": {"network": "Network", "return": "Pager"},
                "icm_messages": {"return": "Pager"},
                "retry": "RetryPolicy",
                **_closing("DataClient"),
                **_GENERIC_CALLS,
            },
        ),
    }),
    ("Metrics API client", {
        "MetricsClient": Class(
            members={
                "__new__": {"url": "None", "return": "MetricsClient"},  # url= refused, naming base_url=
                "_repr_html_": {"return": "str"},
                "base_url": "str",
                "metric": {"chain_id": "str | int", "start": "TimeArg | None", "return": "Pager"},
                "chains": {"return": "Pager"},
                "icm_summary": {"return": "dict[str, Any] | pl.DataFrame"},
                "live_check": {"return": "dict[str, Any]"},
                "plan_dataset": {"path": "str | os.PathLike[str]", "chain_id": "str | int", "interval": "Interval",
                                 "start": "TimeArg", "return": "Plan"},
                "write_dataset": {"path": "str | os.PathLike[str]", "chain_id": "str | int", "interval": "Interval",
                                  "start": "TimeArg", "return": "dict[str, int]"},
                "retry": "RetryPolicy",
                **_closing("MetricsClient"),
                **_GENERIC_CALLS,
            },
        ),
    }),
    ("Pagers (Data API and Metrics API lists)", {
        "Plan": Class(
            members={
                "operation": "str",
                "requests": "int | None",
                "requests_kind": 'Literal["exact", "at most", "at least", "unknown"]',
                "compute_units": "int | None",
                "metered": "bool",
                "units_per_request": "int",
                "page_size": "int",
                "items": "int | None",
                "held": "int",
                "cached_items": "int",
                "pages_per_1000_items": "int",
                "units_per_1000_items": "int",
                "tier": 'Literal["unauthenticated", "free", "base", "growth", "pro"]',
                "units_per_minute": "int",
                "per_minute_source": 'Literal["tier", "ratelimit headers"]',
                "units_per_day": "int",
                "seconds_at_client_limits": "float | None",
                "seconds_at_tier_budget": "float | None",
                "daily_share": "float | None",
                "unknown": "list[str]",
                "over_daily_budget": "str | None",
                "less_held": {"items": "int", "return": "Plan"},
                "to_dict": {"return": "dict[str, Any]"},
                "_repr_html_": {"return": "str"},
            },
        ),
        "Pager": _walk("Pager", "PagerIterator",
                       {"next_page_token": "str | None", "page_offset": "int", "items_read": "int", "exhausted": "bool",
                        "resume_state": "dict[str, Any]",
                        "resume": {"state": "Mapping[str, Any]", "return": "None"},
                        "limit": "int | None", "resource": "str"},
                       {"pages": {"return": "PageIterator"}, "batches": {"return": "PagerBatchIterator"}},
                       {"chunk": "int | None"}, {"dataset": "str | os.PathLike[str] | None", "chunk": "int | None"}),
        "PagerIterator": _iterator("PagerIterator", "dict[str, Any]"),
        "PageIterator": _iterator("PageIterator", "list[dict[str, Any]]"),
        "PagerBatchIterator": _iterator("PagerBatchIterator", "pl.DataFrame", arrow=True),
        "Ready": Class(
            members={
                "__await__": {"return": "Ready"},
                "__iter__": {"return": "Ready"},
                "__next__": {"return": "None"},
            },
        ),
        "Next": Class(
            members={
                "__await__": {"return": "Next"},
                "__iter__": {"return": "Next"},
                "__next__": {"return": "Any"},
            },
        ),
        "Pending": Class(
            members={
                "__await__": {"return": "Generator[Any, None, Any]"},
                "send": {"value": "Any", "return": "Any"},
                "throw": {"exc": "type[BaseException] | BaseException", "value": "BaseException | object | None",
                          "traceback": "object | None", "return": "Any"},
                "close": {"return": "None"},
            },
        ),
    }),
    ("The emulator", {
        "Emulator": Class(
            members={
                "__new__": {"rate_limit": "tuple[int, float] | None", "return": "Emulator"},
                "set_faults": {"return": "None"},
                "faults": {"return": "dict[str, float]"},
                "fault_seed": "int",
                "fault_counts": {"return": "dict[str, int]"},
                "fault_counts_by_path": {"return": "dict[tuple[str, str], int]"},
                "request_log": [
                    {"with_status": "Literal[False]", "return": "list[tuple[float, str]]"},
                    {"with_status": "Literal[True]", "return": "list[tuple[float, str, int | None]]"},
                ],
                "second_url": "str",
                "advance_clock": {"return": "None"},
                "set_rate_limit": {"rate_limit": "tuple[int, float] | None", "return": "None"},
                "set_compute_budget": {"units_per_minute": "int | None", "return": "None"},
                "compute_budget_use": {"return": "dict[str, Any]"},
                "set_data_api_require_key": {"return": "None"},
                "set_data_api_refused_keys": {"return": "None"},
                "url": "str",
                "port": "int",
                "world_span": "tuple[datetime.datetime, datetime.datetime]",
                "world": "dict[str, Any]",
                "_repr_html_": {"return": "str"},
                "container_count": {"return": "int"},
                "advance": {"return": "int"},
                "set_index_enabled": {"return": "None"},
                "set_latency": {"return": "None"},
                "expected_container": {"return": "Container"},
                "request_count": {"return": "int"},
                **_closing("Emulator"),
            },
        ),
    }),    ("Export checkpoints (the command line's --resume)", {
        "_ExportCheckpoint": Class(
            members={
                "__new__": {"command": "str", "format": "str", "output": "str", "args": "str",
                            "return": "_ExportCheckpoint"},
                "path": "str",
                "saved": "bool",
                "rows_written": "int",
                "set_source": {"network": "str | None", "base_url": "str | None", "return": "None"},
                "resume": {"return": "tuple[str, int, str]"},
                "save": {"position": "str", "return": "None"},
                "next_part": {"return": "str"},
                "add_part": {"rows": "int", "position": "str", "return": "None"},
                "add_bytes": {"size": "int", "rows": "int", "position": "str", "return": "None"},
                "finish": {"return": "None"},
                "release": {"return": "None"},
            },
        ),
    }),
]
