"""Independent re-implementations used to check the package: CB58, checksums, a stub node."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58encode(data: bytes) -> str:
    """Bitcoin-alphabet base58 of ``data`` (leading zero bytes become ``1``)."""
    n = int.from_bytes(data, "big")
    out = []
    while n:
        n, r = divmod(n, 58)
        out.append(_ALPHABET[r])
    pad = len(data) - len(data.lstrip(b"\0"))
    return "1" * pad + "".join(reversed(out))


def cb58(raw: bytes) -> str:
    """CB58: base58(raw ‖ last 4 bytes of sha256(raw))."""
    return b58encode(raw + hashlib.sha256(raw).digest()[-4:])


def container_id(data: bytes) -> str:
    """The id a node gives a container: cb58(sha256(bytes))."""
    return cb58(hashlib.sha256(data).digest())


_KECCAK_RC = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000, 0x000000000000808B,
    0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008A, 0x0000000000000088,
    0x0000000080008009, 0x000000008000000A, 0x000000008000808B, 0x800000000000008B, 0x8000000000008089,
    0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]
_KECCAK_ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56],
               [27, 20, 39, 8, 14]]
_M64 = (1 << 64) - 1


def _keccak_f(a: list[list[int]]) -> None:
    for rc in _KECCAK_RC:
        c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
        d = [c[(x - 1) % 5] ^ (((c[(x + 1) % 5] << 1) | (c[(x + 1) % 5] >> 63)) & _M64) for x in range(5)]
        a[:] = [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]
        b = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                r = _KECCAK_ROT[x][y]
                b[y][(2 * x + 3 * y) % 5] = ((a[x][y] << r) | (a[x][y] >> (64 - r))) & _M64 if r else a[x][y]
        a[:] = [[b[x][y] ^ ((~b[(x + 1) % 5][y]) & b[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
        a[0][0] ^= rc


def keccak256(data: bytes) -> bytes:
    """Ethereum's keccak256 (original Keccak padding, not SHA3-256)."""
    rate = 136
    pad = rate - len(data) % rate
    padded = bytearray(data) + (b"\x81" if pad == 1 else b"\x01" + b"\0" * (pad - 2) + b"\x80")
    a = [[0] * 5 for _ in range(5)]
    for off in range(0, len(padded), rate):
        block = padded[off:off + rate]
        for i in range(rate // 8):
            a[i % 5][i // 5] ^= int.from_bytes(block[8 * i:8 * i + 8], "little")
        _keccak_f(a)
    return b"".join(a[i % 5][i // 5].to_bytes(8, "little") for i in range(4))


def _signed_envelope_end(data: bytes) -> int | None:
    """Where the signature length of a typeID 0/2 proposervm envelope starts, if ``data`` is one."""
    def at(i: int) -> int | None:
        return int.from_bytes(data[i:i + 4], "big") if i + 4 <= len(data) else None

    if data[:2] != b"\0\0" or at(2) not in (0, 2):
        return None
    cert = at(54)
    inner = at(58 + cert) if cert is not None else None
    if inner is None:
        return None
    end = 62 + cert + inner + (24 if at(2) == 2 else 0)
    sig = at(end)
    return end if sig is not None and end + 4 + sig == len(data) else None


def node_id(path: str, data: bytes) -> str:
    """The id a node gives a container of ``path`` (FORMATS.md): cb58(sha256(bytes)) for txs,
    vertices, option blocks and raw P/X blocks; sha256 of the bytes without the signature for a
    proposervm block of typeID 0 or 2; keccak256 of the header for a raw coreth block."""
    if path in ("X/tx", "X/vtx"):
        return container_id(data)
    if path == "C/block" and data[0] >= 0xF8:
        outer = 1 + data[0] - 0xF7
        head = data[outer:]
        n = head[0] - 0xF7
        length = int.from_bytes(head[1:1 + n], "big")
        return cb58(keccak256(head[:1 + n + length]))
    end = _signed_envelope_end(data)
    if end is None:
        assert path != "C/block", data[:6].hex()
        return container_id(data)
    return cb58(hashlib.sha256(data[:end]).digest())


def split_hex(wire: str) -> tuple[bytes, bytes]:
    """``0x`` + hex(bytes ‖ checksum) -> (bytes, checksum)."""
    assert wire.startswith("0x"), wire[:10]
    raw = bytes.fromhex(wire[2:])
    return raw[:-4], raw[-4:]


def to_wire_hex(data: bytes) -> str:
    """The node's hex encoding: ``0x`` + hex(bytes ‖ last 4 bytes of sha256(bytes))."""
    return "0x" + (data + hashlib.sha256(data).digest()[-4:]).hex()


def real_containers() -> list[dict[str, Any]]:
    """The two real X-chain transactions of ``fixtures/real_containers.json`` (wire form)."""
    return json.loads((FIXTURES / "real_containers.json").read_text())["containers"]


def rpc(url: str, path: str, method: str, params: dict | None = None, *, rid: Any = 1,
        content_type: str | None = "application/json", http_method: str = "POST",
        raw_body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP request to ``url`` + ``/ext/index/`` + ``path``: (status, headers, body)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        if raw_body is None:
            envelope: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
            if rid is not None:
                envelope["id"] = rid
            raw_body = json.dumps(envelope).encode()
        headers = {"Content-Type": content_type} if content_type is not None else {}
        conn.request(http_method, f"/ext/index/{path}", body=raw_body if http_method == "POST" else None,
                     headers=headers)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def send_answer(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes) -> None:
    """Sends one whole answer with its Content-Length; a client that went away (a pager stopping
    its prefetch) is not an error."""
    try:
        handler.send_response(status)
        for k, v in headers.items():
            handler.send_header(k, v)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    except OSError:
        pass


class LoopbackServer:
    """An HTTP server on a loopback port whose requests a handler class answers, each in a daemon
    thread; a context manager (or call :meth:`close`)."""

    httpd: ThreadingHTTPServer
    url: str

    def serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        """Start serving with ``handler``."""
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class StubNode(LoopbackServer):
    """A scripted node on a loopback port, for what the emulator cannot produce.

    By default it serves the two real containers of the fixture on every index path. Set
    ``handler`` to a function ``(request_number, envelope) -> (status, headers, body)`` to script
    answers; ``None`` from it falls back to the default behaviour. Every request is recorded in
    ``requests`` as ``(path, headers, envelope)``.
    """

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self.handler: Callable[[int, Any], tuple[int, dict[str, str], bytes] | None] | None = None
        self.containers = real_containers()
        self.range_form = "object"  # "object" -> {"containers": [...]}, "array" -> [...]
        self.index_as_number = False
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    envelope = json.loads(raw)
                except ValueError:
                    envelope = None
                with stub._lock:
                    number = len(stub.requests)
                    stub.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, envelope))
                answer = stub.handler(number, envelope) if stub.handler else None
                if answer is None:
                    answer = stub.default(envelope)
                send_answer(self, *answer)

        self.serve(Handler)

    def wire(self, i: int) -> dict[str, Any]:
        """Container ``i`` in wire form (index as string or number)."""
        c = {k: self.containers[i][k] for k in ("id", "bytes", "timestamp", "encoding", "index")}
        if self.index_as_number:
            c["index"] = int(c["index"])
        return c

    @staticmethod
    def reply(result: Any, rid: Any = 1) -> tuple[int, dict[str, str], bytes]:
        """A JSON-RPC success answer."""
        body = json.dumps({"jsonrpc": "2.0", "result": result, "id": rid}).encode()
        return 200, {"Content-Type": "application/json"}, body

    @staticmethod
    def error(message: str, code: int = -32000, rid: Any = 1) -> tuple[int, dict[str, str], bytes]:
        """A JSON-RPC error answer (HTTP 200, as the node sends them)."""
        body = json.dumps({"jsonrpc": "2.0", "error": {"code": code, "message": message, "data": None},
                           "id": rid}).encode()
        return 200, {"Content-Type": "application/json"}, body

    def default(self, env: Any) -> tuple[int, dict[str, str], bytes]:
        """What a node holding exactly the fixture's containers answers."""
        if not isinstance(env, dict):
            return self.error("invalid request", -32700, None)
        rid, method, params = env.get("id"), env.get("method"), env.get("params") or {}
        n = len(self.containers)
        by_id = {c["id"]: i for i, c in enumerate(self.containers)}
        if method == "index.getLastAccepted":
            return self.reply(self.wire(n - 1), rid)
        if method == "index.getContainerByIndex":
            i = int(params["index"])
            return self.reply(self.wire(i), rid) if i < n else self.error(f"no container at index {i}", rid=rid)
        if method == "index.getContainerByID":
            i = by_id.get(params["id"])
            return self.reply(self.wire(i), rid) if i is not None else self.error("not found", rid=rid)
        if method == "index.getIndex":
            i = by_id.get(params["id"])
            if i is None:
                return self.error("not found", rid=rid)
            return self.reply({"index": i if self.index_as_number else str(i)}, rid)
        if method == "index.isAccepted":
            return self.reply({"isAccepted": params["id"] in by_id}, rid)
        if method == "index.getContainerRange":
            start, count = int(params["startIndex"]), int(params["numToFetch"])
            if start > n - 1:
                return self.error(f"start index ({start}) > last accepted index ({n - 1})", rid=rid)
            items = [self.wire(i) for i in range(start, min(n, start + count))]
            return self.reply({"containers": items} if self.range_form == "object" else items, rid)
        return self.error(f'rpc: can\'t find method "{method}"', rid=rid)


@dataclass(frozen=True)
class GetRequest:
    """One GET request as a :class:`GetServer` script sees it."""

    target: str  #: the request target, query included (``/v1/chains/43114/blocks?pageSize=5``)
    path: str  #: the target without its query
    query: dict[str, str]  #: the query's parameters (the first value of each)
    headers: dict[str, str]  #: the request's headers, names in lower case


#: What a script answers: ``(status, body)`` or ``(status, body, headers)``; a ``bytes`` body is
#: sent as it is, anything else as JSON.
GetAnswer = tuple[int, Any] | tuple[int, Any, dict[str, str]]


class GetServer(LoopbackServer):
    """A scripted HTTP/1.1 server on a loopback port: ``answer(request)`` decides every GET.

    Records each request in ``requests``; sends ``content-type: application/json`` unless the
    answer's headers name another. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, answer: Callable[[GetRequest], GetAnswer]) -> None:
        self.requests: list[GetRequest] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server API
                url = urlsplit(self.path)
                request = GetRequest(self.path, url.path, dict(parse_qsl(url.query)),
                                     {k.lower(): v for k, v in self.headers.items()})
                outer.requests.append(request)
                status, body, *more = answer(request)
                extra = more[0] if more else {}
                headers = {"content-type": "application/json", **{k.lower(): v for k, v in extra.items()}}
                send_answer(self, status, headers, body if isinstance(body, bytes) else json.dumps(body).encode())

        self.serve(Handler)

    @property
    def paths(self) -> list[str]:
        """The path of every request so far, in order (queries left out)."""
        return [r.path for r in self.requests]


def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``predicate`` every 10 ms until it is true or ``timeout`` runs out; returns its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


@contextlib.contextmanager
def emulator_process(*args: str) -> Iterator[subprocess.Popen[str]]:
    """``avax-data emulator --port 0 ARGS`` in a subprocess (text pipes). Leaving the block
    normally sends Ctrl-C, which must stop the server cleanly (exit status 0); the process is
    killed whatever happens."""
    proc = subprocess.Popen([sys.executable, "-m", "avax_data", "emulator", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def superseded(walk: Any, key: str, taken: int) -> tuple[list[Any], list[Any], RuntimeError]:
    """Takes ``taken`` rows from one iterator of ``walk``, opens a second, checks the first now
    refuses with "superseded", and returns the ``key`` of the first's rows, of all the second's
    rows, and the refusal (which says where the walk stands)."""
    first = iter(walk)
    head = [next(first)[key] for _ in range(taken)]
    second = iter(walk)
    with pytest.raises(RuntimeError, match="superseded") as info:
        next(first)
    return head, [row[key] for row in second], info.value


def assert_bucket_starts(items: list[dict[str, Any]], interval: str) -> None:
    """Every item's ``timestamp`` starts a bucket of ``interval``: on the hour, at 00:00 UTC for
    a day, on a Monday for a week, on the 1st for a month."""
    assert items
    for item in items:
        t: dt.datetime = item["timestamp"]
        assert (t.minute, t.second, t.microsecond) == (0, 0, 0), t
        if interval != "hour":
            assert t.hour == 0, t
        if interval == "week":
            assert t.weekday() == 0, t
        if interval == "month":
            assert t.day == 1, t


def signal_child(script: str, *, after: float = 1.0, timeout: float = 120) -> tuple[float, str, str, int]:
    """Runs ``python -c script``, waits for its ``ready`` line, sends it SIGINT ``after`` seconds
    later and returns the instant the signal was sent (``time.monotonic()``: one clock for every
    process of the machine), the child's stdout after ``ready``, its stderr and exit status. The
    child is killed whatever happens."""
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        assert first == "ready", first + (proc.stderr.read() if proc.stderr else "")
        time.sleep(after)
        assert proc.poll() is None, "the walk ended before the signal"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return sent, out, err, proc.returncode


@contextlib.contextmanager
def tiny_tmpfs(mount: Path, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on the new directory ``mount`` for the ``with`` block: a disk
    that fills up (``ENOSPC`` from the kernel). Skips the test where this process may not mount
    one (root in a container can)."""
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def api_get(url: str, path: str, **query: Any) -> tuple[int, Any]:
    """(status, JSON body) of ``GET url+path?query`` (an HTTP error's body too)."""
    import urllib.error
    import urllib.parse
    import urllib.request

    target = url + path + ("?" + urllib.parse.urlencode(query) if query else "")
    try:
        with urllib.request.urlopen(target, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def api_ok(url: str, path: str, **query: Any) -> Any:
    """The JSON body of ``GET url+path?query``, which must answer 200."""
    status, body = api_get(url, path, **query)
    assert status == 200, (path, query, body)
    return body


def api_pages(url: str, path: str, key: str, *, limit: int = 1_000_000, **query: Any) -> list[Any]:
    """Items of a token-paged list under ``key``, at most ``limit`` (whole pages)."""
    items: list[Any] = []
    token = None
    while len(items) < limit:
        body = api_ok(url, path, **query, **({"pageToken": token} if token else {}))
        items.extend(body[key])
        token = body.get("nextPageToken")
        if not token:
            break
    return items
