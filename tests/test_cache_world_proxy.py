"""A proxy that strips the emulator's world header (``x-avax-emulator-world-id``) must not make
the cache mix worlds.

Behind such a proxy the client cannot tell one emulator world from another under the same URL.
What holds (docs/guides/cache.md): a Data or Metrics service on a loopback host whose answers
name no world is not cached at all (nothing read from the cache, nothing stored), so a proxy
switched to an emulator of another seed answers from the new world. With the header, the same
lookups are cached as before.
"""

from __future__ import annotations

import datetime as dt
import http.server
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import avax_data as ad
from avax_data._native import cache_info

C_CHAIN = "43114"
WORLD_HEADER = "x-avax-emulator-world-id"
END_OF_WORLD = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)  # the emulator's Data and Metrics worlds end then


class _Proxy(http.server.ThreadingHTTPServer):
    target: str
    strip: bool


class _Forward(http.server.BaseHTTPRequestHandler):
    server: _Proxy

    def do_GET(self) -> None:  # noqa: N802 (the handler's name)
        request = urllib.request.Request(self.server.target + self.path,
                                         headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
        try:
            answer = urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as failed:
            answer = failed
        body = answer.read()
        self.send_response(answer.status)
        for name, value in answer.headers.items():
            if name.lower() in ("content-length", "transfer-encoding", "connection"):
                continue
            if self.server.strip and name.lower() == WORLD_HEADER:
                continue
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[_Proxy]:
    server = _Proxy(("127.0.0.1", 0), _Forward)
    server.strip = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _url(server: _Proxy) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


def test_a_stripped_world_header_caches_nothing_and_never_mixes_worlds(proxy: _Proxy, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with ad.Emulator(seed=1) as one, ad.Emulator(seed=2) as two:
        truth = {w: ad.DataClient(base_url=e.url, cache=False).block(C_CHAIN, 7)["blockHash"]
                 for w, e in (("one", one), ("two", two))}
        assert truth["one"] != truth["two"], "two worlds with different blocks"
        proxy.target = one.url
        first = ad.DataClient(base_url=_url(proxy), cache=cache)
        assert first.block(C_CHAIN, 7)["blockHash"] == truth["one"]
        before = one.request_count()
        assert first.block(C_CHAIN, 7)["blockHash"] == truth["one"]
        assert one.request_count() - before == 1, "not served from the cache: the world is unnamed"
        # The proxy now forwards to another world under the same URL.
        proxy.target = two.url
        for client in (first, ad.DataClient(base_url=_url(proxy), cache=cache)):
            assert client.block(C_CHAIN, 7)["blockHash"] == truth["two"]
        metrics = ad.MetricsClient(base_url=_url(proxy), cache=cache)
        window = dict(interval="hour", start=END_OF_WORLD - dt.timedelta(hours=30), end=END_OF_WORLD, page_size=2)
        points = list(metrics.metric(C_CHAIN, "txCount", **window))
        assert points == list(ad.MetricsClient(base_url=two.url, cache=False).metric(C_CHAIN, "txCount", **window))
    kinds = cache_info(cache)["kinds"]
    assert kinds["data"]["entries"] == 0 and kinds["metrics"]["entries"] == 0, kinds


def test_with_the_world_header_the_same_lookups_are_cached(proxy: _Proxy, tmp_path: Path) -> None:
    proxy.strip = False
    cache = tmp_path / "cache"
    with ad.Emulator(seed=1) as one:
        proxy.target = one.url
        data = ad.DataClient(base_url=_url(proxy), cache=cache)
        block = data.block(C_CHAIN, 7)
        before = one.request_count()
        assert data.block(C_CHAIN, 7) == block
        assert one.request_count() == before, "served from the cache"
    assert cache_info(cache)["kinds"]["data"]["entries"] == 1
