"""argparse ``type=`` functions: each turns one argument's text into a value or refuses it.

A refusal raises :class:`argparse.ArgumentTypeError`, which the parser reports as one line
``error: argument --x: ...`` with exit code 2, before any request.
"""

from __future__ import annotations

import argparse
import math
from typing import Callable

__all__ = [
    "INDEX_PATHS",
    "non_negative_int",
    "positive_int",
    "non_negative_float",
    "positive_float",
    "port",
    "chain_path",
    "containers",
    "faults",
    "fault_options",
    "header",
    "rate_limit",
    "time_of",
    "block_id",
]

#: The five index paths a node serves, in their canonical spelling.
INDEX_PATHS = ("C/block", "P/block", "X/tx", "X/block", "X/vtx")


def _number(text: str, parse: Callable[[str], float], what: str, *rules: tuple[Callable[[float], bool], str]) -> float:
    """``parse(text)``, refused with "is not {what}" when it cannot be read and with "must be
    {allowed}" at the first ``(ok, allowed)`` rule it breaks."""
    try:
        value = parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    for ok, allowed in rules:
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be {allowed}")
    return value


_AT_LEAST_ZERO = (lambda v: v >= 0, ">= 0")
_FINITE_AT_LEAST_ZERO = (lambda v: v >= 0.0 and math.isfinite(v), "a finite number >= 0")


def non_negative_int(text: str) -> int:
    """An integer >= 0."""
    return int(_number(text, int, "an integer", _AT_LEAST_ZERO))


def positive_int(text: str) -> int:
    """An integer >= 1."""
    return int(_number(text, int, "an integer", _AT_LEAST_ZERO, (lambda v: v != 0, ">= 1")))


def non_negative_float(text: str) -> float:
    """A finite number >= 0."""
    return _number(text, float, "a number", _FINITE_AT_LEAST_ZERO)


def positive_float(text: str) -> float:
    """A finite number > 0."""
    return _number(text, float, "a number", _FINITE_AT_LEAST_ZERO, (lambda v: v != 0.0, "> 0"))


def port(text: str) -> int:
    """A TCP port number (0 picks a free one)."""
    value = non_negative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port in [0, 65535]")
    return value


def chain_path(text: str) -> str:
    """An index path as the node spells it (``X/tx``, or ``/ext/index/X/tx``) -> ``X/tx``.

    Paths are case-sensitive on the node: ``c/block`` is refused, suggesting ``C/block``.
    """
    short = text.strip()
    if short.startswith("/ext/index/"):
        short = short[len("/ext/index/") :]
    short = short.strip("/")
    if short in INDEX_PATHS:
        return short
    near = [path for path in INDEX_PATHS if path.lower() == short.lower()]
    hint = f" (paths are case-sensitive: did you mean {near[0]}?)" if near else ""
    raise argparse.ArgumentTypeError(f"{text!r} is not an index path; allowed: {', '.join(INDEX_PATHS)}{hint}")


def _pairs(text: str, form: str, example: str) -> list[tuple[str, str]]:
    """``a=1,b=2`` -> ``[("a", "1"), ("b", "2")]``."""
    pairs = []
    for item in text.split(","):
        name, sep, value = item.strip().partition("=")
        if not sep or not name.strip() or not value.strip():
            raise argparse.ArgumentTypeError(f"{item.strip()!r} is not {form} (e.g. {example})")
        pairs.append((name.strip(), value.strip()))
    return pairs


def containers(text: str) -> int | dict[str, int]:
    """``5000`` (every index path) or ``X/tx=5000,C/block=100`` (per path; the others get 0)."""
    if "=" not in text:
        return non_negative_int(text)
    pairs = _pairs(text, "path=count", "X/tx=5000,C/block=100")
    return {chain_path(path): non_negative_int(count) for path, count in pairs}


def _rate(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}={text}: {text!r} is not a number") from None


def faults(text: str) -> dict[str, float]:
    """``kind=rate,kind=rate`` -> ``{kind: rate}`` (kinds and rates are checked by the emulator)."""
    return {name: _rate(name, value) for name, value in _pairs(text, "kind=rate", "502=0.05,short_batch=0.1")}


def fault_options(text: str) -> dict[str, float]:
    """``retry_after=1,lag=5`` -> ``{name: number}`` (names checked by the emulator)."""
    return {name: _rate(name, value) for name, value in _pairs(text, "name=value", "retry_after=1,lag=5")}


def header(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` (also ``NAME: VALUE``) -> ``(name, value)``; the value is never echoed."""
    cuts = [i for i in (text.find("="), text.find(":")) if i > 0]
    if cuts and text[: min(cuts)].strip():
        cut = min(cuts)
        return text[:cut].strip(), text[cut + 1 :].strip()
    raise argparse.ArgumentTypeError("a header is NAME=VALUE or 'NAME: VALUE' (the text given is not shown)")


def rate_limit(text: str) -> tuple[int, float]:
    """``LIMIT/SECONDS`` (e.g. ``100/60``: 100 requests per key per minute)."""
    limit, sep, window = text.partition("/")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r} is not LIMIT/SECONDS (e.g. 100/60)")
    return positive_int(limit.strip()), positive_float(window.strip())


def time_of(param: str) -> Callable[[str], int]:
    """The ``type=`` of a time option: its text read as Unix seconds by the rule every entry point
    shares (the core's, through ``_native.unix_seconds``): Unix seconds (``1704067200``), a date
    (``2024-01-01``, 00:00 UTC) or an RFC 3339 time with its offset (``2024-01-01T12:00:00Z``).
    A refusal is the message a Python call with the same text raises."""

    def time(text: str) -> int:
        from .. import _native
        from ..exceptions import InvalidParameterError

        try:
            return _native.unix_seconds(text, param)
        except InvalidParameterError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return time


def block_id(text: str) -> int | str:
    """A block number (digits) or a block hash (anything else, checked by the client)."""
    value = text.strip()
    return int(value) if value.isdigit() else value
