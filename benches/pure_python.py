"""An idiomatic pure-Python client of the three services, written for the benchmark (``run.py``).

It does the work ``avax_data`` does and gives the same DataFrames (same columns, types and
order), the way a careful Python programmer would write it with the usual libraries:

- ``httpx.AsyncClient`` (one keep-alive pool), ``asyncio`` with a semaphore keeping the same
  number of calls in flight as ``avax_data`` (4 by default), results in plan order;
- ``json`` (through ``response.json()``) for the bodies, ``bytes.fromhex``, ``hashlib`` and ``base58`` for
  the containers: the 4-byte checksum (last 4 bytes of sha256) and the id by the rule of its
  index (sha256 of the proposervm block without its signature, sha256 of option blocks and of
  transactions, keccak256 of the header of a pre-fork ``C/block``, via pycryptodome), the CB58
  id compared as a string;
- ``polars`` for the frame: timestamps parsed by ``str.to_datetime`` (nanoseconds kept), Data
  API decimal strings cast to ``Decimal(38, 0)``.

``python benches/pure_python.py --check`` walks a small emulator with both clients and asserts
that the frames are equal, so the benchmark compares like with like.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

import base58
import httpx
import polars as pl
from Crypto.Hash import keccak

_BLOCK_INDEXES = ("C/block", "P/block", "X/block")
_BLOCK_COLUMNS = ("chainId", "blockNumber", "blockTimestamp", "blockTimestampMilliseconds", "blockMinDelayExcess",
                  "blockHash", "txCount", "baseFee", "gasUsed", "gasLimit", "gasCost", "parentHash", "feesSpent",
                  "cumulativeTransactions")


class IntegrityError(ValueError):
    """A container whose checksum or id does not match its bytes."""


def cb58(raw: bytes) -> str:
    """CB58: base58 of ``raw`` followed by the last 4 bytes of its sha256."""
    return base58.b58encode(raw + hashlib.sha256(raw).digest()[-4:]).decode()


def _envelope(data: bytes) -> tuple[str, int] | None:
    """``("option", len)`` or ``("signed", id_len)`` for a proposervm envelope, else ``None``."""
    def u32(i: int) -> int | None:
        return int.from_bytes(data[i:i + 4], "big") if i + 4 <= len(data) else None

    if data[:2] != b"\0\0":
        return None
    kind = u32(2)
    if kind == 1:
        inner = u32(38)
        return ("option", len(data)) if inner is not None and 42 + inner == len(data) else None
    if kind not in (0, 2):
        return None
    cert = u32(54)
    inner = u32(58 + cert) if cert is not None else None
    if inner is None:
        return None
    end = 62 + cert + inner + (24 if kind == 2 else 0)
    sig = u32(end)
    return ("signed", end) if sig is not None and end + 4 + sig == len(data) else None


def _rlp_list(data: bytes) -> tuple[int, int]:
    """(header length, payload length) of the RLP list at the start of ``data``."""
    lead = data[0]
    if 0xC0 <= lead <= 0xF7:
        return 1, lead - 0xC0
    if lead >= 0xF8:
        n = lead - 0xF7
        return 1 + n, int.from_bytes(data[1:1 + n], "big")
    raise IntegrityError("not an RLP list")


def expected_id(path: str, data: bytes, digest: bytes) -> bytes:
    """The raw id the node gives ``data`` on index ``path`` (``digest`` is sha256(data))."""
    if path not in _BLOCK_INDEXES:
        return digest
    env = _envelope(data)
    if env is not None:
        kind, end = env
        return digest if kind == "option" else hashlib.sha256(data[:end]).digest()
    if path == "C/block":  # a pre-fork coreth block: the Ethereum hash of its header
        outer, _ = _rlp_list(data)
        head, length = _rlp_list(data[outer:])
        return keccak.new(data=data[outer:outer + head + length], digest_bits=256).digest()
    return digest


def digests(path: str, data: bytes) -> tuple[bytes, bytes]:
    """``(sha256(data), raw id)`` in one pass over a signed proposervm block: its id is the digest
    of the prefix before the signature, and the checksum's hash continues from that state (as the
    floor and avax_data do); every other container is hashed once and its id found by its rule."""
    env = _envelope(data) if path in _BLOCK_INDEXES else None
    if env is not None and env[0] == "signed":
        view = memoryview(data)
        hasher = hashlib.sha256(view[:env[1]])
        raw_id = hasher.digest()
        hasher.update(view[env[1]:])
        return hasher.digest(), raw_id
    digest = hashlib.sha256(data).digest()
    return digest, expected_id(path, data, digest)


class PurePythonClient:
    """The three services over one ``httpx.AsyncClient``."""

    def __init__(self, url: str, *, concurrency: int = 4, timeout: float = 60.0) -> None:
        self.url = url.rstrip("/")
        self.concurrency = concurrency
        limits = httpx.Limits(max_connections=max(concurrency, 1), max_keepalive_connections=max(concurrency, 1))
        self.http = httpx.AsyncClient(timeout=timeout, limits=limits)
        self._rpc_id = 0

    async def __aenter__(self) -> PurePythonClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    # ---- Index RPC ----

    async def _container_range(self, path: str, start: int, count: int) -> dict[str, list[Any]]:
        self._rpc_id += 1
        body = {"jsonrpc": "2.0", "id": self._rpc_id, "method": "index.getContainerRange",
                "params": {"startIndex": start, "numToFetch": count, "encoding": "hex"}}
        response = await self.http.post(f"{self.url}/ext/index/{path}", json=body)
        response.raise_for_status()
        reply = response.json()
        if "error" in reply:
            raise RuntimeError(f"getContainerRange from {start}: {reply['error']['message']}")
        containers = reply["result"]["containers"]
        if len(containers) != count:
            raise IntegrityError(f"asked for {count} containers from {start}, got {len(containers)}")
        cols: dict[str, list[Any]] = {"id": [], "bytes": [], "timestamp": [], "index": [], "encoding": []}
        for k, c in enumerate(containers):
            raw = bytes.fromhex(c["bytes"][2:])
            data, check = raw[:-4], raw[-4:]
            digest, raw_id = digests(path, data)
            if digest[-4:] != check:
                raise IntegrityError(f"container {c['index']}: checksum mismatch")
            if cb58(raw_id) != c["id"] and not (path != "C/block" and cb58(digest) == c["id"]):
                raise IntegrityError(f"container {c['index']}: id {c['id']} does not match its bytes")
            index = int(c["index"])
            if index != start + k:
                raise IntegrityError(f"range from {start}: position {k} holds container {index}")
            cols["id"].append(c["id"])
            cols["bytes"].append(data)
            cols["timestamp"].append(c["timestamp"])
            cols["index"].append(index)
            cols["encoding"].append(c["encoding"])
        return cols

    async def index_range(self, path: str, start: int, count: int, *, batch: int = 1024) -> pl.DataFrame:
        """Containers ``[start, start+count)`` of ``path`` as a DataFrame (calls of ``batch``,
        ``concurrency`` in flight, every checksum and id checked)."""
        gate = asyncio.Semaphore(self.concurrency)

        async def one(s: int) -> dict[str, list[Any]]:
            async with gate:
                return await self._container_range(path, s, min(batch, start + count - s))

        parts = await asyncio.gather(*(one(s) for s in range(start, start + count, batch)))
        return pl.DataFrame({
            "id": pl.Series([x for p in parts for x in p["id"]], dtype=pl.String),
            "bytes": pl.Series([x for p in parts for x in p["bytes"]], dtype=pl.Binary),
            "timestamp": pl.Series([x for p in parts for x in p["timestamp"]], dtype=pl.String)
            .str.to_datetime(time_unit="ns", time_zone="UTC"),
            "index": pl.Series([x for p in parts for x in p["index"]], dtype=pl.UInt64),
            "encoding": pl.Series([x for p in parts for x in p["encoding"]], dtype=pl.String),
        })

    # ---- Data API and Metrics API: token pages ----

    async def pages(self, url: str, key: str, params: dict[str, Any], limit: int | None = None) -> AsyncIterator[list[dict]]:
        """The pages of a token-paged list, one request at a time; stops after ``limit`` items."""
        token, seen = None, 0
        while True:
            query = dict(params)
            if limit is not None:
                query["pageSize"] = min(query["pageSize"], limit - seen)
            if token:
                query["pageToken"] = token
            response = await self.http.get(url, params=query)
            response.raise_for_status()
            body = response.json()
            items = body[key]
            seen += len(items)
            yield items
            token = body.get("nextPageToken")
            if not token or (limit is not None and seen >= limit):
                return

    async def blocks(self, chain_id: str, *, page_size: int = 100, limit: int | None = None) -> pl.DataFrame:
        """``GET /v1/chains/{chain_id}/blocks`` walked page by page, as a typed DataFrame."""
        items: list[dict] = []
        async for page in self.pages(f"{self.url}/v1/chains/{chain_id}/blocks", "blocks", {"pageSize": page_size}, limit):
            items.extend(page)
        return blocks_frame(items)

    async def metric(self, chain_id: str, metric: str, *, interval: str, start: int, end: int,
                     page_size: int = 100) -> pl.DataFrame:
        """``GET /v2/chains/{chain_id}/metrics/{metric}`` over ``[start, end)``, page by page."""
        params = {"timeInterval": interval, "startTimestamp": start, "endTimestamp": end, "pageSize": page_size}
        items: list[dict] = []
        async for page in self.pages(f"{self.url}/v2/chains/{chain_id}/metrics/{metric}", "results", params):
            items.extend(page)
        return pl.DataFrame({
            "timestamp": (pl.Series([p["timestamp"] for p in items], dtype=pl.Int64) * 1_000_000_000)
            .cast(pl.Datetime("ns", "UTC")),
            "value": pl.Series([p["value"] for p in items], dtype=pl.Float64),
            "extra": pl.Series([_extra(p, ("timestamp", "value")) for p in items], dtype=pl.String),
        })


def _extra(item: dict, named: tuple[str, ...]) -> str | None:
    """The fields of ``item`` the document does not name, as JSON text (``None`` when there are none)."""
    rest = {k: v for k, v in item.items() if k not in named}
    return json.dumps(rest, separators=(",", ":")) if rest else None


def blocks_frame(items: list[dict]) -> pl.DataFrame:
    """Data API blocks as the typed frame ``avax_data`` gives (big numbers as ``Decimal(38, 0)``)."""
    raw = pl.DataFrame(items, infer_schema_length=None)
    for name in _BLOCK_COLUMNS:
        if name not in raw.columns:
            raw = raw.with_columns(pl.lit(None, dtype=pl.String).alias(name))
    extra = pl.Series("extra", [_extra(item, _BLOCK_COLUMNS) for item in items], dtype=pl.String)
    return raw.select(
        pl.col("chainId").cast(pl.String),
        pl.col("blockNumber").cast(pl.UInt64),
        (pl.col("blockTimestamp").cast(pl.Int64) * 1_000_000_000).cast(pl.Datetime("ns", "UTC")),
        (pl.col("blockTimestampMilliseconds").cast(pl.Int64) * 1_000_000).cast(pl.Datetime("ns", "UTC")),
        pl.col("blockMinDelayExcess").cast(pl.UInt64),
        pl.col("blockHash").cast(pl.String),
        pl.col("txCount").cast(pl.UInt64),
        *(pl.col(name).cast(pl.String).cast(pl.Decimal(38, 0)) for name in ("baseFee", "gasUsed", "gasLimit", "gasCost")),
        pl.col("parentHash").cast(pl.String),
        pl.col("feesSpent").cast(pl.String).cast(pl.Decimal(38, 0)),
        pl.col("cumulativeTransactions").cast(pl.UInt64),
    ).with_columns(extra)


def check() -> None:
    """Asserts that this client's frames equal ``avax_data``'s on a small emulator."""
    import avax_data as ad
    from polars.testing import assert_frame_equal

    # From genesis (pre-fork blocks) and across height 4,096 (Granite envelopes).
    ranges = [(0, 600), (4000, 600)]
    paths = ("C/block", "P/block", "X/block", "X/tx")

    async def ours(url: str, end: int) -> tuple[dict[tuple[str, int], pl.DataFrame], pl.DataFrame, pl.DataFrame]:
        async with PurePythonClient(url) as py:
            frames = {(path, s): await py.index_range(path, s, n) for path in paths for s, n in ranges}
            return (frames, await py.blocks("43114", page_size=100, limit=450),
                    await py.metric("43114", "txCount", interval="hour", start=end - 30 * 86400, end=end))

    with ad.Emulator(containers=5000, data_blocks_per_chain=20_000) as emu:
        with ad.MetricsClient(base_url=emu.url) as m:
            end = int(m.metric("43114", "txCount", interval="hour", limit=1).to_polars()["timestamp"][0].timestamp()) + 3600
            theirs_metric = m.metric("43114", "txCount", interval="hour", start=end - 30 * 86400, end=end,
                                     page_size=100).to_polars()
        frames, blocks, metric = asyncio.run(ours(emu.url, end))
        with ad.IndexClient(emu.url) as node, ad.DataClient(base_url=emu.url) as data:
            for (path, start), frame in frames.items():
                assert_frame_equal(frame, node.chain(path).range(start, count=dict(ranges)[start]).to_polars())
            assert_frame_equal(blocks, data.blocks("43114", page_size=100, limit=450).to_polars())
            # One pass over a signed block (Granite envelope): the prefix's digest is the id, the whole's the checksum.
            signed = node.chain("C/block").container(4500)
            envelope = _envelope(signed["bytes"])
            assert envelope is not None and envelope[0] == "signed"
            whole, raw_id = digests("C/block", signed["bytes"])
            assert cb58(raw_id) == signed["id"] and whole == hashlib.sha256(signed["bytes"]).digest()
        assert_frame_equal(metric, theirs_metric)
    print("pure-Python frames equal avax_data's: C/block, P/block, X/block, X/tx ranges (pre-fork to Granite), "
          "Data API blocks, Metrics")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="assert equal frames against avax_data on an emulator")
    if parser.parse_args().check:
        check()
    else:
        parser.print_help()
