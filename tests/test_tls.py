"""TLS trust (issue 10): an HTTPS server with a CA and a certificate made at test time (trustme).

Without trust the client refuses it with a ``ConnectError`` naming the certificate problem; it
is trusted through ``ca_bundle=``, through ``SSL_CERT_FILE``, through the platform store (found
through ``SSL_CERT_DIR`` on Linux), and not checked at all with ``danger_accept_invalid_certs``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import trustme

import avax_data as ad
from _helpers import container_id, to_wire_hex

DATA = b"\x00\x00" + (7).to_bytes(8, "big") + hashlib.sha256(b"tls").digest()
TIMESTAMP = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
CONTAINER = {"id": container_id(DATA), "bytes": to_wire_hex(DATA), "timestamp": "2024-05-01T00:00:00Z",
             "encoding": "hex", "index": "7"}


class Handler(BaseHTTPRequestHandler):
    """The node's ``index.getLastAccepted`` and the Data API's health check, nothing else."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def answer(self, value: object) -> None:
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.answer({"jsonrpc": "2.0", "result": CONTAINER, "id": request["id"]})

    def do_GET(self) -> None:
        self.answer({"status": "ok"})


class TLSServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, context: ssl.SSLContext) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.context = context

    def get_request(self):  # type: ignore[no-untyped-def]
        sock, address = super().get_request()
        return self.context.wrap_socket(sock, server_side=True), address

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        pass  # a client refusing the certificate ends its handshake: expected here


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="module")
def server(ca: trustme.CA) -> Iterator[str]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    httpd = TLSServer(context)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"https://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def ca_file(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


def last_accepted(url: str, **options: object) -> dict:
    with ad.IndexClient(url, max_retries=0, timeout=10.0, **options) as node:
        return node.chain("X/tx").last_accepted()


def test_an_untrusted_certificate_is_a_connect_error_saying_so(server: str) -> None:
    with pytest.raises(ad.ConnectError) as info:
        last_accepted(server)
    assert "certificate" in str(info.value).lower(), str(info.value)
    assert info.value.url.startswith(server)
    with ad.DataClient(base_url=server, max_retries=0) as data, pytest.raises(ad.ConnectError, match="(?i)certificate"):
        data.health()


def test_ca_bundle_trusts_the_ca(server: str, ca_file: Path) -> None:
    c = last_accepted(server, ca_bundle=ca_file)
    assert (c["index"], c["id"], c["bytes"], c["timestamp"]) == (7, CONTAINER["id"], DATA, TIMESTAMP)
    with ad.DataClient(base_url=server, ca_bundle=str(ca_file)) as data:
        assert data.health() == {"status": "ok"}


def test_danger_accept_invalid_certs_skips_verification(server: str) -> None:
    assert last_accepted(server, danger_accept_invalid_certs=True)["index"] == 7


SCRIPT = """
import sys, avax_data as ad
with ad.IndexClient(sys.argv[1], max_retries=0, timeout=10.0) as node:
    print(node.chain("X/tx").last_accepted()["index"])
"""


def run_client(server: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    return subprocess.run([sys.executable, "-c", SCRIPT, server], env={**base, **env}, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "SSL_CERT_DIR"])
def test_the_environment_and_the_platform_store_are_trusted(server: str, ca_file: Path, variable: str) -> None:
    """``SSL_CERT_FILE`` names a bundle; ``SSL_CERT_DIR`` is where the platform store is read
    from on Linux: a CA installed there is trusted as a system-wide one is."""
    value = str(ca_file) if variable == "SSL_CERT_FILE" else str(ca_file.parent)
    done = run_client(server, {variable: value})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "7"
    refused = run_client(server, {})
    assert refused.returncode != 0 and "ConnectError" in refused.stderr, refused.stderr
