"""The endpoint methods of the Data and Metrics API clients: one per GET operation of the vendored
OpenAPI documents that has no hand-written method, built at import from the table
``_endpoints.json``, which ``tools/gen_endpoints.py`` writes from the core's operation table (do
not edit the table; run the tool).

Each method is a plain function with the operation's own signature (its path parameters
positional, in the path's order; every other parameter keyword-only; a list also takes
``page_token=`` and ``limit=``) and the docstring the table gives it. It checks nothing itself: it
hands its arguments to the client's ``_call_list``/``_call_object``, which check them against the
operation (in the Rust core) before any request.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from .exceptions import InvalidParameterError

#: The table: one entry per operation, ``service``, ``name``, ``operation``, ``positional``
#: (``[name, type]`` pairs), ``keyword`` (``[name, type, required]``), ``deprecated``
#: (``[old name, new name]`` pairs: the old names still taken, with a warning), ``is_list`` and
#: ``doc``.
_TABLE: list[dict[str, Any]] = json.loads(Path(__file__).with_name("_endpoints.json").read_text(encoding="utf-8"))


def _source(entry: dict[str, Any]) -> str:
    """The ``def`` of one entry's method (named ``_{service}_{name}``; :func:`install` names it)."""
    names = [p[0] for p in entry["positional"]] + [p[0] for p in entry["keyword"]]
    keyword = [f"{name}: {kind}" if required else f"{name}: {kind} | None = None"
               for name, kind, required in entry["keyword"]]
    if entry["is_list"]:
        keyword += ["page_token: str | None = None", "limit: int | None = None"]
    if entry.get("block_ranged") or entry.get("time_windowed"):
        keyword.append("concurrency: int | None = None")
    deprecated = entry.get("deprecated", [])
    keyword += [f"{old}: Any = None" for old, _ in deprecated]
    params = ["self", *(f"{name}: {kind}" for name, kind in entry["positional"]), *(["*", *keyword] if keyword else [])]
    arguments = "{" + ", ".join(f"{name!r}: {name}" for name in names) + "}"
    renames = "".join(f"    {new} = _renamed({entry['name']!r}, {old!r}, {old}, {new!r}, {new})\n"
                      for old, new in deprecated)
    if entry["is_list"]:
        shards = ", concurrency" if entry.get("block_ranged") or entry.get("time_windowed") else ""
        result, call = "Pager", f"self._call_list({entry['operation']!r}, {arguments}, page_token, limit{shards})"
    else:
        result, call = "dict[str, Any]", f"self._call_object({entry['operation']!r}, {arguments})"
    return f"def _{entry['service']}_{entry['name']}({', '.join(params)}) -> {result}:\n{renames}    return {call}\n"


def _renamed(method: str, old: str, old_value: Any, new: str, new_value: Any) -> Any:
    """The value of the parameter ``new`` given under its deprecated name ``old`` (with a
    ``DeprecationWarning``); both at once is refused."""
    if old_value is None:
        return new_value
    if new_value is not None:
        allowed = f"only one of {new}= and {old}= (its deprecated name)"
        raise InvalidParameterError(f"invalid {old}={old_value!r}: {allowed}", param=old, value=old_value,
                                    allowed=allowed)
    warnings.warn(f"{method}({old}=...) is deprecated: use {new}= (it takes the same values); {old}= goes in "
                  "the next release", DeprecationWarning, stacklevel=3)
    return old_value


def _build(table: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The methods of each service, by name, in the table's order."""
    namespace: dict[str, Any] = {"__name__": __name__, "_renamed": _renamed}
    source = "from __future__ import annotations\n" + "".join(map(_source, table))
    exec(compile(source, "<avax_data endpoint methods>", "exec"), namespace)  # noqa: S102 - our own table
    methods: dict[str, dict[str, Any]] = {"data": {}, "metrics": {}}
    for entry in table:
        fn = namespace[f"_{entry['service']}_{entry['name']}"]
        fn.__doc__ = entry["doc"]
        methods[entry["service"]][entry["name"]] = fn
    return methods


_METHODS = _build(_TABLE)
DATA_METHODS: dict[str, Any] = _METHODS["data"]
METRICS_METHODS: dict[str, Any] = _METHODS["metrics"]

#: (service, method) -> (operationId, positional parameters, keyword parameters, is a list): the CLI
#: builds its commands from it.
SPECS: dict[tuple[str, str], tuple[str, tuple[str, ...], tuple[str, ...], bool]] = {
    (e["service"], e["name"]): (e["operation"], tuple(p[0] for p in e["positional"]),
                                tuple(p[0] for p in e["keyword"]), e["is_list"])
    for e in _TABLE
}


def install(methods: dict[str, Any], *classes: type) -> None:
    """Sets each method on each class (sync and async twins share them: the async twin's
    ``_call_object`` returns an awaitable and its ``_call_list`` an ``AsyncPager``)."""
    for cls in classes:
        for name, fn in methods.items():
            fn.__name__ = fn.__qualname__ = name
            setattr(cls, name, fn)
