"""The transport against servers that misbehave on purpose (issue 10): Retry-After values that
used to panic, redirects to other origins and in loops, gzip bombs and endless bodies (peak memory
measured in a subprocess), huge error bodies, cut JSON, echoed keys, strict shapes, path tricks,
base URLs and the new options' argument checks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import avax_data as ad

KEY = "hardening-key-0123456789abcdef"
BLOCK = {
    "chainId": "43114", "blockNumber": "9", "blockTimestamp": 1_700_000_000, "blockHash": "0x" + "ab" * 32,
    "txCount": 1, "baseFee": "1", "gasUsed": "2", "gasLimit": "3", "gasCost": "4", "parentHash": "0x" + "cd" * 32,
    "feesSpent": "5", "cumulativeTransactions": "6",
}


class Server:
    """A loopback server whose answer to each request is ``script(n, handler)`` (n from 0)."""

    def __init__(self, script):
        self.requests: list[tuple[str, dict[str, str]]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _any(self):
                n = len(outer.requests)
                outer.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                length = int(self.headers.get("content-length") or 0)
                if length:
                    self.rfile.read(length)
                script(n, self)

            do_GET = do_POST = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def reply(h, status=200, body=b"", headers=None, declared=None):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    h.send_response(status)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(len(raw) if declared is None else declared))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(raw)
    h.wfile.flush()


@pytest.fixture
def serve():
    servers = []

    def make(script):
        s = Server(script)
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.close()


def data(server, **kw):
    kw.setdefault("max_retries", 2)
    kw.setdefault("backoff", 0.01)
    kw.setdefault("max_backoff", 0.05)
    return ad.DataClient(server.url, api_key=KEY, **kw)


# ---- 3. Retry-After ----

@pytest.mark.parametrize("value", ["1e20", "-1", "NaN", "inf", "whenever"])
def test_unusable_retry_after_waits_max_backoff_and_never_panics(serve, value):
    s = serve(lambda n, h: reply(h, 429, {"message": "slow"}, {"retry-after": value}) if n == 0
              else reply(h, 200, {"status": "ok"}))
    started = time.monotonic()
    assert data(s).health() == {"status": "ok"}
    assert time.monotonic() - started < 2 and len(s.requests) == 2


def test_a_retry_after_past_the_budget_raises_rate_limit_error_at_once(serve):
    s = serve(lambda n, h: reply(h, 429, {"message": "later"}, {"retry-after": "3600"}))
    started = time.monotonic()
    with pytest.raises(ad.RateLimitError) as e:
        data(s, retry_budget=30.0, max_retries=5).health()
    assert time.monotonic() - started < 2 and len(s.requests) == 1
    assert e.value.retry_after == 3600.0 and e.value.status == 429


def test_unusable_retry_after_inside_a_pager_ends_in_a_typed_error_not_silently(serve):
    s = serve(lambda n, h: reply(h, 429, {"message": "x"}, {"retry-after": "1e20"}))
    with pytest.raises(ad.RateLimitError) as e:
        list(data(s, max_retries=1).blocks("43114"))
    assert e.value.retry_after == 0.05


# ---- 1. Redirects ----

def test_a_cross_origin_redirect_raises_and_sends_nothing_there(serve):
    other = serve(lambda n, h: reply(h, 200, {"status": "ok"}))
    s = serve(lambda n, h: reply(h, 302, b"", {"location": other.url + "/v1/health-check"}))
    with pytest.raises(ad.RedirectError) as e:
        data(s, headers={"Authorization": "Bearer secret-token-xyz"}).health()
    err = e.value
    assert isinstance(err, ad.HTTPStatusError)
    assert (err.status, err.reason, err.location, err.hops) == (302, "cross-origin", other.url + "/v1/health-check", 0)
    assert err.url == s.url + "/v1/health-check"
    assert "follow_cross_origin_redirects" in str(err)
    assert other.requests == [] and len(s.requests) == 1


def test_an_allowed_cross_origin_redirect_strips_key_and_credentials(serve):
    other = serve(lambda n, h: reply(h, 200, {"status": "ok"}))
    s = serve(lambda n, h: reply(h, 307, b"", {"location": other.url + "/v1/health-check"}))
    c = data(s, follow_cross_origin_redirects=True,
             headers={"Authorization": "Bearer secret-token-xyz", "Cookie": "s=cookie-value-1", "X-Team": "team-value-1"})
    assert c.health() == {"status": "ok"}
    first, moved = s.requests[0][1], other.requests[0][1]
    assert first["x-glacier-api-key"] == KEY and first["authorization"] == "Bearer secret-token-xyz"
    for name in ("x-glacier-api-key", "x-data-api-key", "authorization", "cookie", "x-team", "proxy-authorization"):
        assert name not in moved, name


def test_a_redirect_loop_ends_in_two_requests(serve):
    s = serve(lambda n, h: reply(h, 302, b"", {"location": "/v1/b" if n % 2 == 0 else "/v1/health-check"}))
    with pytest.raises(ad.RedirectError) as e:
        data(s).health()
    assert e.value.reason == "loop" and len(s.requests) == 2


# ---- 2. Body limits ----

def test_error_bodies_are_cut_at_64_kib_and_marked(serve):
    s = serve(lambda n, h: reply(h, 500, b"e" * 5_000_000))
    with pytest.raises(ad.ServerError) as e:
        data(s, max_retries=0).health()
    assert e.value.body.endswith("…[cut: 5000000 bytes total]")
    assert len(e.value.body) < 64 * 1024 + 100 and len(str(e.value)) < 64 * 1024 + 300


def test_a_large_answer_is_a_response_too_large_error(serve):
    s = serve(lambda n, h: reply(h, 200, {"status": "x" * 100_000}))
    with pytest.raises(ad.ResponseTooLargeError) as e:
        data(s, max_response_bytes=10_000).health()
    assert e.value.limit == 10_000 and e.value.method == "GET" and e.value.url.endswith("/v1/health-check")
    assert len(s.requests) == 1


MEMORY_SCRIPT = textwrap.dedent('''
    import threading, zlib
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import avax_data as ad

    def bomb():
        c = zlib.compressobj(9, zlib.DEFLATED, 31)
        zeros = b" " * (1 << 20)
        parts = [c.compress(zeros) for _ in range(2048)]
        parts.append(c.flush())
        return b"".join(parts)

    BOMB = bomb()
    assert len(BOMB) < 3_000_000, len(BOMB)

    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a):
            pass
        def do_GET(self):
            self.send_response(200)
            self.send_header("content-type", "application/json")
            if self.path.startswith("/v1/health-check"):
                self.send_header("content-encoding", "gzip")
                self.send_header("content-length", str(len(BOMB)))
                self.end_headers()
                self.wfile.write(BOMB)
                return
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                while True:
                    self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(chunk), chunk))
            except OSError:
                pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % httpd.server_address[1]
    c = ad.DataClient(base_url=url, max_response_bytes=32 << 20, max_retries=0, timeout=120.0)
    for call in (c.health, lambda: c.chain("43114")):
        try:
            call()
            raise SystemExit("no error")
        except ad.ResponseTooLargeError as e:
            assert e.limit == 32 << 20
    # VmHWM: the peak of this process image (ru_maxrss would carry the parent's peak across exec)
    status = open("/proc/self/status").read()
    print(int(status.split("VmHWM:")[1].split()[0]) * 1024)
''')


@pytest.mark.timeout(300)
def test_a_gzip_bomb_and_an_endless_body_stay_under_the_limit_plus_200_mb():
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True, timeout=280)
    assert out.returncode == 0, out.stderr
    peak = int(out.stdout.strip().splitlines()[-1])
    assert peak < (32 << 20) + (200 << 20), f"peak RSS {peak / 2**20:.0f} MiB"


# ---- 9. Cut and malformed JSON ----

def test_a_truncated_json_body_is_retried(serve):
    whole = json.dumps({"status": "ok"}).encode()
    s = serve(lambda n, h: reply(h, 200, whole[:7]) if n == 0 else reply(h, 200, whole))
    assert data(s).health() == {"status": "ok"} and len(s.requests) == 2


def test_malformed_json_is_a_decode_error_at_once(serve):
    s = serve(lambda n, h: reply(h, 200, b'{"status": nope}'))
    with pytest.raises(ad.DecodeError) as e:
        data(s).health()
    assert e.value.body == '{"status": nope}' and len(s.requests) == 1


# ---- 5. Redaction ----

def echo(n, h):
    seen = "; ".join(f"{k}={v}" for k, v in h.headers.items())
    if n == 0:
        reply(h, 200, f"not json {seen}".encode())
    else:
        reply(h, 401, {"message": f"bad key, you sent {seen}", "statusCode": 401})


def test_an_echoed_key_appears_in_no_message_attribute_body_or_repr(serve):
    s = serve(echo)
    c = data(s, headers={"X-Secret-Team": "team-secret-value-42"})
    for cls in (ad.DecodeError, ad.UnauthorizedError):
        with pytest.raises(cls) as e:
            c.health()
        err = e.value
        shown = [str(err), repr(err)] + [str(v) for v in vars(err).values()]
        for secret in (KEY, "team-secret-value-42"):
            assert not any(secret in text for text in shown), cls
        assert "[redacted]" in err.body
    assert KEY not in repr(c)


# ---- 6, 7. Strict shapes ----

def test_a_timestamp_beyond_2262_is_a_decode_error_naming_field_and_value(serve):
    s = serve(lambda n, h: reply(h, 200, {"blocks": [dict(BLOCK, blockTimestamp=1e20)]}))
    with pytest.raises(ad.DecodeError) as e:
        data(s).blocks("43114").to_polars()
    assert 'field "blockTimestamp": 1e+20 is not a Unix time' in str(e.value)


@pytest.mark.parametrize("items", [[1, "x", None], [BLOCK, 5]])
def test_list_items_that_are_not_objects_are_a_decode_error(serve, items):
    s = serve(lambda n, h: reply(h, 200, {"blocks": items}))
    with pytest.raises(ad.DecodeError, match=r"blocks\[\d\] must be a JSON object"):
        list(data(s).blocks("43114"))


def test_a_numeric_page_token_is_a_decode_error(serve):
    s = serve(lambda n, h: reply(h, 200, {"blocks": [BLOCK], "nextPageToken": 7}))
    with pytest.raises(ad.DecodeError, match="nextPageToken must be a string"):
        list(data(s).blocks("43114"))


def test_single_objects_must_have_their_resource_fields(serve):
    s = serve(lambda n, h: reply(h, 200, {"anything": True} if n == 0 else dict(BLOCK, blockNumber=9)))
    with pytest.raises(ad.DecodeError, match='chain: field "chainId" must be a string, found nothing'):
        data(s).chain("43114")
    with pytest.raises(ad.DecodeError, match='block: field "blockNumber" must be a string, found 9'):
        data(s).block("43114", "9")


# ---- 4, 8. Path segments ----

@pytest.mark.parametrize("value", ["..", ".", "%2e%2e", "", "a/b", "1" * 1_000_000])
def test_path_tricks_and_huge_ids_are_refused_before_any_request(serve, value):
    s = serve(lambda n, h: reply(h, 200, BLOCK))
    c = data(s)
    started = time.monotonic()
    with pytest.raises(ad.InvalidParameterError) as e:
        c.block("43114", value)
    assert e.value.param == "block_id" and e.value.value == value and "block number" in e.value.allowed
    with pytest.raises(ad.InvalidParameterError) as e:
        c.chain(value)
    assert e.value.param == "chain_id" and e.value.value == value
    assert time.monotonic() - started < 1.0 and s.requests == []


def test_a_megabyte_container_id_is_refused_at_once(serve):
    s = serve(lambda n, h: reply(h, 200, {}))
    chain = ad.IndexClient(s.url).chain("X/tx")
    started = time.monotonic()
    for call in (lambda i: chain.container(id=i), chain.index_of, chain.is_accepted):
        with pytest.raises(ad.InvalidParameterError):
            call("1" * 1_000_000)
    assert time.monotonic() - started < 1.0 and s.requests == []


# ---- 9. Small ones ----

@pytest.mark.parametrize("suffix", ["/v1", "/v1/", "/"])
def test_a_base_url_ending_in_the_api_version_is_not_doubled(serve, suffix):
    s = serve(lambda n, h: reply(h, 200, {"status": "ok"}))
    assert ad.DataClient(base_url=s.url + suffix).health() == {"status": "ok"}
    assert s.requests[0][0] == "/v1/health-check"


def test_an_evm_rpc_url_gets_a_hint_naming_the_index_path(serve):
    s = serve(lambda n, h: reply(h, 404, b"404 page not found"))
    with pytest.raises(ad.IndexNotEnabledError) as e:
        ad.IndexClient(s.url + "/ext/bc/C/rpc", max_retries=0).chain("C/block").last_accepted()
    assert "/ext/index/C/block" in str(e.value) and "--index-enabled" not in str(e.value)


@pytest.mark.parametrize("cls", [ad.DataClient, ad.AsyncDataClient, ad.MetricsClient, ad.AsyncMetricsClient,
                                 ad.IndexClient, ad.AsyncIndexClient])
@pytest.mark.parametrize("kw,param", [
    ({"max_response_bytes": "big"}, "max_response_bytes"),
    ({"max_response_bytes": 0}, "max_response_bytes"),
    ({"danger_accept_invalid_certs": 1}, "danger_accept_invalid_certs"),
    ({"follow_cross_origin_redirects": "yes"}, "follow_cross_origin_redirects"),
    ({"ca_bundle": 5}, "ca_bundle"),
    ({"ca_bundle": "/nonexistent/ca.pem"}, "ca_bundle"),
])
def test_the_new_options_are_checked_on_every_client(cls, kw, param):
    with pytest.raises(ad.InvalidParameterError) as e:
        cls(**kw)
    assert e.value.param == param


def test_a_ca_bundle_without_certificates_is_refused(tmp_path):
    pem = tmp_path / "empty.pem"
    pem.write_text("not a certificate\n")
    with pytest.raises(ad.InvalidParameterError, match="at least one CA certificate") as e:
        ad.DataClient(ca_bundle=pem)
    assert e.value.value == str(pem)


def test_the_new_options_are_accepted(serve):
    s = serve(lambda n, h: reply(h, 200, {"status": "ok"}))
    c = ad.MetricsClient(base_url=s.url, max_response_bytes=1 << 20, danger_accept_invalid_certs=False,
                         follow_cross_origin_redirects=False, ca_bundle=None)
    assert c.live_check() == {"status": "ok"} and s.requests[0][0] == "/v2/live-check"
