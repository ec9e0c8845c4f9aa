"""Hostile servers for tests, in front of the emulator: a Data API list whose head grows while it
is walked (page tokens by key or by offset), the same list behind a load balancer over two
replicas, one lagging, and a load balancer over two Index nodes, one lagging, that answers the
tip from either. Each runs in a thread of the test process."""

from __future__ import annotations

import json
import threading
import uuid
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def fetch_list(url: str, route: str, field: str) -> list[dict[str, Any]]:
    """Every item of a Data API list of the emulator at ``url``, newest first, as its JSON."""
    items: list[dict[str, Any]] = []
    token = None
    while True:
        query = {"pageSize": "100", **({"pageToken": token} if token else {})}
        with urllib.request.urlopen(f"{url}{route}?{urllib.parse.urlencode(query)}") as answer:
            page = json.load(answer)
        items.extend(page[field])
        token = page.get("nextPageToken")
        if not token:
            return items


class GrowingList:
    """Serves ``route`` as the list ``items`` (newest first) of which only the oldest ``shown``
    are out yet; each page served brings ``grow`` more onto the head. ``tokens``: ``"key"`` (a
    token names the last item served: new items on top move nothing) or ``"offset"`` (a token
    is a position in the list as it stands: new items on top push the rest down, so a page
    repeats the last items of the page before it)."""

    def __init__(self, route: str, field: str, items: list[dict[str, Any]], shown: int, grow: int, tokens: str,
                 fail_at: int | None = None):
        self.route, self.field, self.items, self.grow, self.tokens = route, field, items, grow, tokens
        self.shown = shown
        self.pages = 0
        self.fail_at = fail_at  # the request (counted from 0) answered 503 instead of a page
        self.requests = 0
        self.lock = threading.Lock()

    def visible(self) -> list[dict[str, Any]]:
        return self.items[len(self.items) - self.shown:]

    def page(self, query: dict[str, str]) -> dict[str, Any] | None:
        """The page ``query`` asks for; ``None`` for the request ``fail_at`` (a 503)."""
        size = int(query.get("pageSize", "10"))
        token = query.get("pageToken")
        with self.lock:
            self.requests += 1
            if self.fail_at is not None and self.requests - 1 == self.fail_at:
                return None
            now = self.visible()
            if self.tokens == "key":
                # the token: how many items lie above the next one in the full list
                at = len(self.items) - self.shown if token is None else int(token)
                rows = self.items[at:at + size]
                more = at + size < len(self.items)
                nxt = str(at + size)
            else:
                at = 0 if token is None else int(token)
                rows = now[at:at + size]
                more = at + size < len(now)
                nxt = str(at + size)
            self.pages += 1
            self.shown = min(len(self.items), self.shown + self.grow)
        return {self.field: rows, **({"nextPageToken": nxt} if more else {})}


class LaggingReplicas:
    """``route`` served by two replicas of a newest-first list behind a load balancer: the
    ``fresh`` one has the oldest ``shown`` of ``items`` out, the ``stale`` one ``lag`` fewer (it
    has not seen the newest yet). ``order`` says which answers each request in turn (``"f"``,
    ``"s"``, cycled). Page tokens (``tokens``): ``"issued"``, an id that the replica answering
    keeps with the offset of the next page, as the emulator's and a service's are (the other
    replica answers it 400 as unknown), or ``"offset"``, a position in the list as the replica
    answering has it. ``catch_up()`` brings the stale replica level: the same list, every token."""

    def __init__(self, route: str, field: str, items: list[dict[str, Any]], shown: int, lag: int, tokens: str,
                 order: str = "fs"):
        self.route, self.field, self.items, self.shown, self.lag, self.tokens = route, field, items, shown, lag, tokens
        self.order = order
        self.issued: dict[str, tuple[str, int]] = {}
        self.requests = 0
        self.caught_up = False
        self.lock = threading.Lock()

    def catch_up(self) -> None:
        with self.lock:
            self.caught_up = True

    def page(self, query: dict[str, str]) -> dict[str, Any] | tuple[int, dict[str, Any]]:
        """The page ``query`` asks for, as the replica whose turn it is answers it (a status and
        a body for a 400)."""
        size = int(query.get("pageSize", "10"))
        token = query.get("pageToken")
        with self.lock:
            replica = self.order[self.requests % len(self.order)]
            self.requests += 1
            shown = self.shown if replica == "f" or self.caught_up else self.shown - self.lag
            now = self.items[len(self.items) - shown:]
            if token is None:
                at = 0
            elif self.tokens == "offset":
                at = int(token)
            else:
                mine = self.issued.get(token)
                if mine is None or (mine[0] != replica and not self.caught_up):
                    return 400, {"statusCode": 400, "message": f"Invalid pageToken: {token} is unknown"}
                at = mine[1]
            rows = now[at:at + size]
            more = at + size < len(now)
            nxt = str(at + size)
            if self.tokens == "issued":
                nxt = str(uuid.uuid4())
                self.issued[nxt] = (replica, at + size)
        return {self.field: rows, **({"nextPageToken": nxt} if more else {})}


class LaggingBalancer:
    """An Index RPC behind a load balancer: containers come from ``ahead``; the tip
    (``index.getLastAccepted``) from ``behind`` only (``alternate=False``) or from each node in
    turn (``alternate=True``)."""

    def __init__(self, ahead: str, behind: str, alternate: bool):
        self.ahead, self.behind, self.alternate = ahead, behind, alternate
        self.tips = 0

    def target(self, body: bytes) -> str:
        if json.loads(body).get("method") != "index.getLastAccepted":
            return self.ahead
        self.tips += 1
        if self.alternate:
            return self.ahead if self.tips % 2 else self.behind
        return self.behind


@contextmanager
def serve(upstream: str, lists: Sequence[GrowingList | LaggingReplicas] = (),
          balancer: LaggingBalancer | None = None) -> Iterator[str]:
    """A server in a thread: the routes of ``lists`` answered by them, Index RPC posts by
    ``balancer``, everything else passed to ``upstream``. Yields its URL."""
    by_route = {g.route: g for g in lists}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            pass

        def reply(self, status: int, body: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def relay(self, url: str, body: bytes | None) -> None:
            request = urllib.request.Request(url, data=body, method=self.command,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request) as answer:
                    self.reply(answer.status, answer.read(), answer.headers.get("Content-Type", "application/json"))
            except urllib.error.HTTPError as e:
                self.reply(e.code, e.read())

        def do_GET(self) -> None:  # noqa: N802
            parsed = urllib.parse.urlsplit(self.path)
            if parsed.path in by_route:
                query = dict(urllib.parse.parse_qsl(parsed.query))
                page = by_route[parsed.path].page(query)
                if page is None:
                    self.reply(503, json.dumps({"statusCode": 503, "message": "unavailable"}).encode())
                elif isinstance(page, tuple):
                    self.reply(page[0], json.dumps(page[1]).encode())
                else:
                    self.reply(200, json.dumps(page).encode())
            else:
                self.relay(upstream + self.path, None)

        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            target = balancer.target(body) if balancer else upstream
            self.relay(target + self.path, body)

    with serving(Handler) as url:
        yield url


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on a loopback port in a thread, for the ``with`` block: its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
