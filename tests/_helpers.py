"""Independent re-implementations used to check the package: CB58, checksums, a stub node."""

from __future__ import annotations

import hashlib
import http.client
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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


class StubNode:
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
                status, headers, body = answer
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> StubNode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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


def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``predicate`` every 10 ms until it is true or ``timeout`` runs out; returns its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
