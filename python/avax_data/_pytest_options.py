"""Settings of the pytest plugin (:mod:`avax_data.testing`), without pytest.

The plugin's ini options (``pytest.ini``, ``[tool.pytest.ini_options]``) are read here into the
keyword arguments of :class:`~avax_data.Emulator` and of the clients, and the
``@pytest.mark.avax_client(...)`` keyword arguments are checked and split between the clients.
Every problem is an :class:`~avax_data.exceptions.InvalidParameterError` whose ``param`` is the
ini option (or marker argument) concerned; the plugin turns those into pytest usage errors.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ._native import (AsyncDataClient, AsyncIndexClient, AsyncMetricsClient, DataClient, IndexClient, MetricsClient,
                      emulator_defaults)
from .exceptions import InvalidParameterError

#: The API key the Data API client fixtures send unless the ``avax_client`` marker names another:
#: the emulator applies its ``rate_limit`` to keyed requests only, and a fixed key keeps a real
#: ``AVAX_DATA_API_KEY`` of the environment out of the tests.
TEST_API_KEY = "avax-data-test-key"


def _pairs(text: str, what: str) -> dict[str, float]:
    """``"a=1,b=0.5"`` (commas or new lines between pairs) as ``{"a": 1.0, "b": 0.5}``."""
    pairs: dict[str, float] = {}
    for item in text.replace("\n", ",").split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, number = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"{item!r} is not {what}=number")
        try:
            pairs[name.strip()] = float(number)
        except ValueError:
            raise ValueError(f"{number.strip()!r} (for {name.strip()!r}) is not a number") from None
    return pairs


_Number = TypeVar("_Number", int, float)


def _number(parse: Callable[[str], _Number], what: str) -> Callable[[str], _Number]:
    """A reader of one ini number whose refusal says ``not {what}``."""

    def read(text: str) -> _Number:
        try:
            return parse(text)
        except ValueError:
            raise ValueError(f"not {what}") from None

    return read


_int = _number(int, "an integer")
_float = _number(float, "a number")


def _uint(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise ValueError("negative")
    return value


def _rate_limit(text: str) -> tuple[int, float]:
    limit, sep, window = text.partition("/")
    if not sep:
        raise ValueError("no '/' between limit and window")
    return _int(limit.strip()), _float(window.strip())


@dataclass(frozen=True)
class IniOption:
    """One ini option: the keyword argument it sets, how its text is read, and its help."""

    name: str
    kwarg: str
    parse: Callable[[str], Any]
    allowed: str
    help: str


#: The emulator's one table of defaults (the same for ``ad.Emulator()`` and the command line).
_SIZES = emulator_defaults()

#: The ini options that set the emulators the plugin starts (``Emulator`` keyword arguments).
EMULATOR_OPTIONS: tuple[IniOption, ...] = (
    IniOption("avax_emulator_seed", "seed", _uint, "an integer >= 0, e.g. 7", "seed of the emulated world (default 0)"),
    IniOption(
        "avax_emulator_containers",
        "containers",
        _uint,
        "an integer >= 0, e.g. 5000",
        f"containers per index path (default {int(_SIZES['containers']):,})",
    ),
    IniOption(
        "avax_emulator_data_blocks_per_chain",
        "data_blocks_per_chain",
        _int,
        "an integer >= 1, e.g. 500",
        f"Data API blocks per EVM chain (default {int(_SIZES['data_blocks_per_chain']):,})",
    ),
    IniOption(
        "avax_emulator_latency",
        "latency",
        _float,
        "seconds >= 0, e.g. 0.01",
        "seconds added to every response (default 0)",
    ),
    IniOption(
        "avax_emulator_faults",
        "faults",
        lambda text: _pairs(text, "kind"),
        "kind=rate pairs separated by commas, e.g. 502=0.05,reset=0.01",
        "fault kinds and their rates per request, e.g. 502=0.05,reset=0.01 (default none)",
    ),
    IniOption(
        "avax_emulator_fault_seed",
        "fault_seed",
        _uint,
        "an integer >= 0, e.g. 7",
        "seed of the fault decisions (default 0)",
    ),
    IniOption(
        "avax_emulator_fault_options",
        "fault_options",
        lambda text: _pairs(text, "option"),
        "option=value pairs separated by commas, e.g. retry_after=0,lag=5",
        "fault options, e.g. retry_after=0,lag=5 (default: the emulator's)",
    ),
    IniOption(
        "avax_emulator_rate_limit",
        "rate_limit",
        _rate_limit,
        "limit/window_seconds, e.g. 100/60",
        "Data API requests per key and window, as limit/window_seconds, e.g. 100/60 (default none)",
    ),
)

#: The ini options that set the client fixtures (client keyword arguments).
CLIENT_OPTIONS: tuple[IniOption, ...] = (
    IniOption(
        "avax_client_max_retries",
        "max_retries",
        _int,
        "an integer in [0, 100], e.g. 0",
        "retries of the client fixtures (default 3)",
    ),
    IniOption(
        "avax_client_timeout",
        "timeout",
        _float,
        "seconds > 0, e.g. 5",
        "request timeout of the client fixtures in seconds (default 30)",
    ),
)


def read_options(options: tuple[IniOption, ...], getini: Callable[[str], Any]) -> dict[str, Any]:
    """The keyword arguments that the options set (options left empty are left out).

    Raises :class:`InvalidParameterError` naming the option when its text does not parse.
    """
    kwargs: dict[str, Any] = {}
    for option in options:
        raw = getini(option.name)
        if isinstance(raw, list):  # a TOML array in [tool.pytest.ini_options]
            raw = ",".join(str(item) for item in raw)
        text = str(raw).strip() if raw is not None else ""
        if not text:
            continue
        try:
            kwargs[option.kwarg] = option.parse(text)
        except ValueError as exc:
            raise InvalidParameterError(
                f"invalid ini option {option.name} = {text!r}: {exc}; expected {option.allowed}",
                param=option.name,
                value=text,
                allowed=option.allowed,
            ) from None
    return kwargs


def option_error(options: tuple[IniOption, ...], kwargs: Mapping[str, Any], exc: Exception) -> InvalidParameterError:
    """``exc`` (raised by a constructor given ``kwargs`` read from ``options``) as an error naming
    the ini option: the one whose keyword argument ``exc.param`` names, else every option set."""
    param = getattr(exc, "param", None)
    named = [o for o in options if o.kwarg == param and o.kwarg in kwargs]
    if not named:
        named = [o for o in options if o.kwarg in kwargs]
    names = ", ".join(o.name for o in named)
    shown = "; ".join(f"{o.name} = {kwargs[o.kwarg]!r}" for o in named)
    allowed = "; ".join(o.allowed for o in named)
    return InvalidParameterError(
        f"invalid ini option {shown}: {exc}",
        param=names,
        value=kwargs[named[0].kwarg] if len(named) == 1 else {o.name: kwargs[o.kwarg] for o in named},
        allowed=allowed,
    )


def _keywords(cls: type) -> frozenset[str]:
    """The keyword arguments of a client class's constructor, less the URL/key it is pointed with."""
    return frozenset(inspect.signature(cls).parameters) - {"url", "base_url"}


#: The keyword arguments each client fixture accepts from ``avax_client`` / the ini options.
CLIENT_KEYWORDS: dict[type, frozenset[str]] = {
    cls: _keywords(cls)
    for cls in (IndexClient, AsyncIndexClient, DataClient, AsyncDataClient, MetricsClient, AsyncMetricsClient)
}

#: Every keyword argument the ``avax_client`` marker accepts (each client takes the ones it has).
ALL_CLIENT_KEYWORDS: frozenset[str] = frozenset().union(*CLIENT_KEYWORDS.values())


def check_client_marker(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The ``@pytest.mark.avax_client(...)`` arguments, checked: keywords only, each one a client
    option (``url``/``base_url`` are the emulator's and refused)."""
    allowed = ", ".join(sorted(ALL_CLIENT_KEYWORDS))
    if args:
        raise InvalidParameterError(
            f"@pytest.mark.avax_client takes keyword arguments only, got {args!r}; allowed: {allowed}",
            param="avax_client",
            value=args,
            allowed=allowed,
        )
    for name in kwargs:
        if name not in ALL_CLIENT_KEYWORDS:
            raise InvalidParameterError(
                f"invalid @pytest.mark.avax_client argument {name}={kwargs[name]!r}: not a client option; "
                f"allowed: {allowed}",
                param=name,
                value=kwargs[name],
                allowed=allowed,
            )
    return dict(kwargs)


def client_kwargs(cls: type, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The part of ``settings`` (ini options overridden by the marker) that ``cls`` accepts; a
    Data API client gets :data:`TEST_API_KEY` unless ``api_key`` is set."""
    accepted = CLIENT_KEYWORDS[cls]
    kwargs = {name: value for name, value in settings.items() if name in accepted}
    if "api_key" in accepted:
        kwargs.setdefault("api_key", TEST_API_KEY)
    return kwargs
