"""The retry policy of a client: how often, how long and on which answers a request is retried.

Pass one to any client as ``retry=``::

    import avax_data as ad

    policy = ad.RetryPolicy(max_retries=5, backoff=0.5, statuses=(429, 503))
    data = ad.DataClient(retry=policy)
    data.retry                      # the policy in force

Connection failures, timeouts and cut bodies are always retried (within ``max_retries`` and
``retry_budget``); an HTTP error status only when it is in ``statuses``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RetryPolicy", "DEFAULT_STATUSES"]

#: The statuses retried by default: 429 and every 5xx (500 to 599).
DEFAULT_STATUSES: tuple[int, ...] = (429, *range(500, 600))

_MAX_RETRIES = 100
_MAX_SECONDS = 1e9


def _invalid(param: str, value: object, allowed: str) -> Exception:
    from .exceptions import InvalidParameterError

    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return InvalidParameterError(f"invalid {param}={shown}: {allowed}", param=param, value=value, allowed=allowed)


def _seconds(param: str, value: Any) -> float:
    allowed = "a finite number of seconds >= 0 and < 1e9"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _invalid(param, value, f"{allowed} (got {type(value).__name__})")
    if not (math.isfinite(value) and 0 <= value < _MAX_SECONDS):
        raise _invalid(param, value, allowed)
    return float(value)


def _statuses(value: Any) -> tuple[int, ...]:
    allowed = "an iterable of HTTP error statuses, ints in [400, 599]"
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise _invalid("statuses", value, allowed)
    items = list(value)
    for status in items:
        if isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599:
            raise _invalid("statuses", status, allowed)
    return tuple(sorted(set(items)))


def _shown_statuses(statuses: tuple[int, ...]) -> str:
    """``statuses`` as Python source, runs of 3 or more written as ``*range(a, b)``."""
    parts: list[str] = []
    i = 0
    while i < len(statuses):
        j = i
        while j + 1 < len(statuses) and statuses[j + 1] == statuses[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"*range({statuses[i]}, {statuses[j] + 1})")
        else:
            parts.extend(str(s) for s in statuses[i : j + 1])
        i = j + 1
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


@dataclass(frozen=True)
class RetryPolicy:
    """When and how a failed request is tried again.

    Args:
        max_retries: retries after the first attempt, an int in [0, 100] (0 turns retrying off).
        backoff: the first wait in seconds; it doubles each retry, up to ``max_backoff``.
        max_backoff: the largest single wait in seconds; also the wait taken for a
            ``Retry-After`` or ``ratelimit-reset`` the client cannot read.
        jitter: add a random part (up to one more delay) to each wait, so that many clients do
            not retry in step.
        retry_budget: the most time in seconds one request spends waiting on the service's
            say-so: backoff, ``Retry-After`` and ``ratelimit-reset`` waits. A wait that would pass
            it is not taken: the error is raised at once (a :class:`RateLimitError` carries the
            ``retry_after`` asked for).
        statuses: the HTTP statuses retried (ints in [400, 599], any iterable; kept sorted and
            without repeats). Default: 429 and every 5xx. Connection failures, timeouts and cut
            bodies are always retried.

    Every field is checked when the policy is made: a bad value raises
    :class:`InvalidParameterError` naming the field, the value and what is allowed.

    Example:
        >>> policy = ad.RetryPolicy(max_retries=5, backoff=0.5, statuses=(503, 429))
        >>> policy.statuses
        (429, 503)
        >>> ad.DataClient(base_url=emu.url, retry=policy).retry == policy
        True
        >>> ad.RetryPolicy(max_retries=-1)
        Traceback (most recent call last):
        ...
        avax_data.exceptions.InvalidParameterError: invalid max_retries=-1: an int in [0, 100]
    """

    max_retries: int = 3
    backoff: float = 0.2
    max_backoff: float = 10.0
    jitter: bool = True
    retry_budget: float = 60.0
    statuses: tuple[int, ...] = field(default=DEFAULT_STATUSES)

    def __post_init__(self) -> None:
        max_retries = self.max_retries
        if isinstance(max_retries, bool) or not isinstance(max_retries, int):
            raise _invalid("max_retries", max_retries, f"an int in [0, {_MAX_RETRIES}]")
        if not 0 <= max_retries <= _MAX_RETRIES:
            raise _invalid("max_retries", max_retries, f"an int in [0, {_MAX_RETRIES}]")
        if not isinstance(self.jitter, bool):
            raise _invalid("jitter", self.jitter, "True or False")
        for name in ("backoff", "max_backoff", "retry_budget"):
            object.__setattr__(self, name, _seconds(name, getattr(self, name)))
        object.__setattr__(self, "statuses", _statuses(self.statuses))

    def __repr__(self) -> str:
        return (
            f"RetryPolicy(max_retries={self.max_retries}, backoff={self.backoff!r}, "
            f"max_backoff={self.max_backoff!r}, jitter={self.jitter}, retry_budget={self.retry_budget!r}, "
            f"statuses={_shown_statuses(self.statuses)})"
        )
