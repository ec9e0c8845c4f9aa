"""Fuzzing of the answers the Python clients turn into dicts and DataFrames (issue 10).

A proxy in front of the emulator hands each request the true answer with hypothesis-drawn
changes: fields dropped, set to nulls, booleans, numbers out of every integer type, digit strings
longer than Python converts, huge raw numbers, deep nesting, empty or foreign containers. Every
Index method, Data API endpoint and Metrics API endpoint, as dicts, iterated and as DataFrames,
must return or raise an ``AvaxDataError``: never a ``PanicException``, a bare ``ValueError`` or any
other exception. The Data API dicts must also be exact (issue 20): what a call returns equals
``json.loads`` of the answers served, under the documented conversions (typed fields to ``int``
and ``datetime``), and items holding a value the rule refuses (a number past ``f64``, a lone
surrogate) are never returned, as dicts or frames. (``tests/fuzz_endpoints.rs`` fuzzes statuses,
headers and framing of the same endpoints in the core, and checks the same rule there.)
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime
from urllib.parse import parse_qs, urlsplit
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import avax_data as ad
from avax_data import Emulator

OWNER = "0x6a2474f3e677ce65e495508043237ea93738a031"
STAKER = "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr"

#: Written into the JSON text as is (Python's json cannot produce them).
RAW = ["1e400", "-1e400", "123456789012345678901234567890123456789012345", "-0", "18446744073709551616",
       "-9223372036854775809", "1" * 5000, "[" * 100 + "1" + "]" * 100, '{"a":' * 100 + "null" + "}" * 100]
VALUES = [None, True, False, 0, -1, 2**63, 2**64, -(2**63) - 1, 1.5, 1e308, -1e-300, "", "x", "-1", "0x",
          "1" * 5000, "9" * 39, "2262-04-12T00:00:00Z", "1677-01-01T00:00:00Z", "\u0000\u202e", "NaN", [], {},
          [1, "a", None], {"a": {"b": []}}]


#: What a field is set to in every item at once.
HOSTILE = ["1" * 5000, "9" * 39, 2**64, -1, None, "x", 1e308, [], {}, 10**30]


class Proxy:
    """Forwards each request to the emulator and answers with the mutated true answer."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.mutations: list[tuple[int, int, int]] = []
        self.served: list[tuple[str, bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                request = urllib.request.Request(outer.upstream + self.path, data=body, method=self.command,
                                                 headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=30) as answer:
                        status, raw = answer.status, answer.read()
                except urllib.error.HTTPError as exc:
                    status, raw = exc.code, exc.read()
                raw = outer.mutate(raw)
                outer.served.append((self.path, raw))
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                except OSError:
                    pass  # the client went away (a pager stops its prefetch)

            do_GET = do_POST = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def mutate(self, raw: bytes) -> bytes:
        try:
            value = json.loads(raw)
        except ValueError:
            return raw
        raws: list[str] = []
        for pick, op, arg in self.mutations:
            nodes = list(walk(value))
            parent, key, _ = nodes[pick % len(nodes)]
            if op == 0 and parent is not None:  # drop
                del parent[key]
                continue
            new: Any
            if op == 3:
                keys = sorted({k for _, k, _ in nodes if isinstance(k, str)}) or [None]
                key = keys[pick % len(keys)]
                new = HOSTILE[arg % len(HOSTILE)]
            elif op == 1:
                new = VALUES[arg % len(VALUES)]
            else:
                raws.append(RAW[arg % len(RAW)])
                new = f"\u0001RAW{len(raws) - 1}"
            if parent is None:
                value = new
            elif op == 3 and isinstance(key, str):  # the field, in every item
                for p, k, _ in list(walk(value)):
                    if k == key:
                        p[k] = new
            else:
                parent[key] = new
        text = json.dumps(value)
        for i, raw_text in enumerate(raws):
            text = text.replace(json.dumps(f"\u0001RAW{i}"), raw_text)
        return text.encode()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def walk(value: Any, parent: Any = None, key: Any = None) -> Iterator[tuple[Any, Any, Any]]:
    """Every node of a JSON value with its parent and key (the root has none)."""
    yield parent, key, value
    if isinstance(value, dict):
        for k in list(value):
            yield from walk(value[k], value, k)
    elif isinstance(value, list):
        for i in range(len(value)):
            yield from walk(value[i], value, i)


@pytest.fixture(scope="module")
def proxy() -> Iterator[Proxy]:
    with Emulator(containers=100, data_blocks_per_chain=300) as emu:
        p = Proxy(emu.url)
        p.container_id = emu.expected_container("X/tx", 3)["id"]  # type: ignore[attr-defined]
        yield p
        p.close()


def touch(result: Any) -> None:
    """Uses a result the way a caller would: every value of every row."""
    if isinstance(result, pl.DataFrame):
        result.to_dicts()
    elif isinstance(result, (list, tuple)):
        for item in result:
            touch(item)
    elif isinstance(result, dict):
        for v in result.values():
            touch(v)


Call = Callable[[str, str], Any]
#: The last day and month of the emulator's world (it ends at 2026-01-01 00:00 UTC).
LAST_DAY, LAST_MONTH = "2025-12-31T00:00:00Z", "2025-12-01T00:00:00Z"
OPTIONS = {"max_retries": 0, "timeout": 2.0}


def index(f: Callable[[Any, str], Any]) -> Call:
    def call(url: str, cid: str) -> Any:
        with ad.IndexClient(url, **OPTIONS) as node:
            return f(node.chain("X/tx"), cid)
    return call


def data(f: Callable[[Any], Any]) -> Call:
    def call(url: str, _: str) -> Any:
        with ad.DataClient(url, api_key="fuzz-key", **OPTIONS) as d:
            return f(d)
    return call


def metrics(f: Callable[[Any], Any]) -> Call:
    def call(url: str, _: str) -> Any:
        with ad.MetricsClient(base_url=url, **OPTIONS) as m:
            return f(m)
    return call


CALLS: dict[str, Call] = {
    "last_accepted": index(lambda c, _: c.last_accepted()),
    "last_accepted decoded": index(lambda c, _: c.last_accepted(decode=True)),
    "container": index(lambda c, _: c.container(3)),
    "container by id": index(lambda c, cid: c.container(id=cid)),
    "container_range": index(lambda c, _: c.container_range(2, 5)),
    "index_of": index(lambda c, cid: c.index_of(cid)),
    "is_accepted": index(lambda c, cid: c.is_accepted(cid)),
    "range dicts": index(lambda c, _: list(c.range(60, 90, batch_size=7))),
    "range frame": index(lambda c, _: c.range(60, batch_size=7).to_polars()),
    "chains": data(lambda d: d.chains(network="mainnet")),
    "chain": data(lambda d: d.chain("43114")),
    "block": data(lambda d: d.block("43114", 5)),
    "health": data(lambda d: d.health()),
    "blocks dicts": data(lambda d: list(d.blocks("43114", page_size=10, limit=25))),
    "blocks frame": data(lambda d: d.blocks("43114", page_size=10).to_polars(limit=25)),
    "latest blocks": data(lambda d: list(d.latest_blocks(network="mainnet", page_size=10, limit=15))),
    "collectibles dicts": data(lambda d: list(d.collectibles("43114", OWNER, page_size=10, limit=15))),
    "collectibles frame": data(lambda d: d.collectibles("43114", OWNER, page_size=10).to_polars(limit=15)),
    "rewards dicts": data(lambda d: list(d.pending_rewards("mainnet", addresses=[STAKER], page_size=10, limit=15))),
    "rewards frame": data(lambda d: d.pending_rewards("mainnet", addresses=[STAKER]).to_polars(limit=15)),
    "vertices dicts": data(lambda d: list(d.vertices("mainnet", page_size=10, limit=15))),
    "vertices frame": data(lambda d: d.vertices("mainnet", page_size=10).to_polars(limit=15)),
    "icm dicts": data(lambda d: list(d.icm_messages(network="mainnet", page_size=10, limit=15))),
    "icm frame": data(lambda d: d.icm_messages(network="mainnet", page_size=10).to_polars(limit=15)),
    # The windows start in the world's last day and month: its series reach back to each chain's
    # launch (46,000 hours on the C-Chain), and an answer that drops the one item a pager asks for
    # would make it follow the tokens of empty pages through all of them.
    "metric dicts": metrics(lambda m: list(m.metric("43114", "txCount", interval="hour", start=LAST_DAY,
                                                    page_size=5, limit=12))),
    "metric frame": metrics(lambda m: m.metric("43114", "txCount", interval="day", start=LAST_MONTH, end=2**31,
                                               page_size=3, concurrency=3).to_polars()),
    "metrics chains": metrics(lambda m: m.chains(network="mainnet").to_polars()),
    "icm summary": metrics(lambda m: m.icm_summary(network="mainnet")),
    "icm summary grouped": metrics(lambda m: m.icm_summary(group_by="srcBlockchainId")),
    "live check": metrics(lambda m: m.live_check()),
}

def refused(value: Any) -> bool:
    """Whether a value (as ``json.loads`` gave it) holds what the rule refuses: a number past
    ``f64`` (``inf`` to ``json.loads``) or a lone surrogate, in a value or a key."""
    for _, key, v in walk(value):
        if isinstance(v, float) and v in (float("inf"), float("-inf")):
            return True
        if any(isinstance(s, str) and any("\ud800" <= c <= "\udfff" for c in s) for s in (key, v)):
            return True
    return False


def agrees(got: Any, want: Any) -> bool:
    """A returned value equals the served one under the documented conversions: JSON integers exact
    ``int`` (never ``float``), decimal strings of typed fields ``int``, Unix times ``datetime``."""
    if isinstance(got, datetime):
        digits = isinstance(want, str) and want.strip().lstrip("-").isdigit()
        if not (digits or (isinstance(want, (int, float)) and not isinstance(want, bool))):
            return False
        t, w = got.timestamp(), float(want)
        return abs(t - w) < 1e-3 or abs(t * 1000 - w) < 1
    if isinstance(got, bool) or isinstance(want, bool) or got is None or want is None:
        return got is want
    if isinstance(got, int):
        return (type(want) is int and got == want) or (
            isinstance(want, str) and want.strip().lstrip("-").isdigit() and int(want) == got)
    if isinstance(got, float):
        return (type(want) is float and got == want) or (isinstance(want, str) and float(want) == got)
    if isinstance(got, dict):
        return isinstance(want, dict) and list(got) == list(want) and all(agrees(got[k], want[k]) for k in got)
    if isinstance(got, list):
        return isinstance(want, list) and len(got) == len(want) and all(agrees(g, w) for g, w in zip(got, want))
    return type(got) is type(want) and got == want


def single(result: Any, served: list[tuple[str, Any]]) -> Any:
    return served[-1][1]


def listed(field: str) -> Callable[[Any, list[tuple[str, Any]]], Any]:
    """The items of the pages served, in the walk's order: the page asked without a token, then
    the page of each answer's ``nextPageToken`` (pages may be served out of order, or twice)."""
    def items(result: Any, served: list[tuple[str, Any]]) -> Any:
        by_token = {parse_qs(urlsplit(path).query).get("pageToken", [None])[0]: answer for path, answer in served}
        out: list[Any] = []
        token = None
        while token in by_token and len(out) < len(result):
            answer = by_token.pop(token)
            out += answer[field]
            token = answer.get("nextPageToken") or None
        return out[:len(result)]
    return items


#: The calls checked for exactness, with what each handed out of the answers served (dicts must
#: agree with it; a frame is only checked not to come from refused items).
EXACT: dict[str, Callable[[Any, list[Any]], Any]] = {
    "chain": single, "block": single, "health": single, "live check": single, "chains": listed("chains"),
    "blocks dicts": listed("blocks"), "latest blocks": listed("blocks"), "blocks frame": listed("blocks"),
}


def check_exact(name: str, result: Any, served: list[tuple[str, bytes]]) -> None:
    """The property of issue 20 on a call that returned ``result`` from the answers ``served``."""
    try:
        answers = [(path, json.loads(raw)) for path, raw in served]
    except ValueError:
        return  # an integer past 4,300 digits outside what was handed out: nothing to compare
    want = EXACT[name](result, answers)
    assert not refused(want), f"{name}: returned items the rule refuses: {want!r}"
    if not isinstance(result, pl.DataFrame):
        assert agrees(result, want), f"{name}: {result!r} is not {want!r}"


mutation = st.tuples(st.integers(0, 10_000), st.integers(0, 3), st.integers(0, 100))


@settings(max_examples=600, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(CALLS)), mutations=st.lists(mutation, min_size=1, max_size=3))
def test_every_answer_gives_a_result_or_a_typed_error(proxy: Proxy, name: str,
                                                      mutations: list[tuple[int, int, int]]) -> None:
    proxy.mutations = mutations
    proxy.served = []
    try:
        result = CALLS[name](proxy.url, proxy.container_id)  # type: ignore[attr-defined]
        touch(result)
    except ad.AvaxDataError:
        return
    except BaseException as exc:  # noqa: BLE001 - a PanicException is a BaseException
        raise AssertionError(f"{name}: {type(exc).__module__}.{type(exc).__name__}: {exc}") from exc
    finally:
        proxy.mutations = []
    if name in EXACT:
        check_exact(name, result, proxy.served)


def test_the_proxy_serves_true_answers_without_mutations(proxy: Proxy) -> None:
    """The harness itself: with no change every call succeeds."""
    for name, call in CALLS.items():
        proxy.served = []
        result = call(proxy.url, proxy.container_id)  # type: ignore[attr-defined]
        touch(result)
        if name in EXACT:
            check_exact(name, result, proxy.served)
