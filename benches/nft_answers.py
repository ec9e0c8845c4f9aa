"""Whether an NFT answer grows with the chain: the median wall time of ``listCollectibleBalances``,
``listErc721Balances`` and ``getTokenDetails`` (a token it minted: block ``n``'s transactions are the same in both worlds) of pool address 0 on the Mainnet
C-Chain, in a world of ``--small`` blocks per chain against one of ``--large``, side by side (the
two emulators run at once, the requests alternate), after one warm-up answer each (the first
builds the chain's mint table, once). A ratio near 1.0 is an answer that does not scan the
blocks; the first answer's time (the table's one pass) is printed too. ``listErc721Balances``
carries the native balance, which sums the address's transactions up to the tip, so it still
grows with the chain::

    python benches/nft_answers.py --small 10000 --large 100000
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.request

import avax_data as ad
from _bench import options  # benches/ is on sys.path when a bench runs as a script

ADDRESS = "0x6a2474f3e677ce65e495508043237ea93738a031"


def timed(url: str) -> tuple[float, object]:
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as response:
        body = json.loads(response.read())
    return time.perf_counter() - began, body


def main() -> None:
    args = options(__doc__, small=10_000, large=100_000, rounds=15)
    with ad.Emulator(seed=1, data_blocks_per_chain=args.small, containers=args.small) as small, \
            ad.Emulator(seed=1, data_blocks_per_chain=args.large, containers=args.large) as large:
        paths = {"collectibles": f"/v1/chains/43114/addresses/{ADDRESS}/balances:listCollectibles?pageSize=100"}
        first = {}
        for name, emu in (("small", small), ("large", large)):
            first[name], _ = timed(emu.url + paths["collectibles"])
        _, minted = timed(small.url + f"/v1/chains/43114/addresses/{ADDRESS}/transactions:listErc721?pageSize=1")
        token = minted["transactions"][0]["erc721Token"]
        paths["token"] = f"/v1/chains/43114/nfts/collections/{token['address']}/tokens/{token['tokenId']}"
        paths["erc721"] = f"/v1/chains/43114/addresses/{ADDRESS}/balances:listErc721?pageSize=100"
        times: dict[tuple[str, str], list[float]] = {}
        for name, emu in (("small", small), ("large", large)):
            for op, path in paths.items():
                timed(emu.url + path)  # warm-up
        for r in range(args.rounds):
            order = [("small", small), ("large", large)]
            for name, emu in order if r % 2 == 0 else reversed(order):
                for op, path in paths.items():
                    times.setdefault((op, name), []).append(timed(emu.url + path)[0])
    print(f"first collectibles answer (builds the mint table): {args.small:,} blocks {first['small']:.3f} s, "
          f"{args.large:,} blocks {first['large']:.3f} s")
    for op in ("collectibles", "erc721", "token"):
        s, big = statistics.median(times[(op, "small")]), statistics.median(times[(op, "large")])
        print(f"{op:13s} {args.small:>9,} blocks {s * 1e3:8.2f} ms   {args.large:>9,} blocks {big * 1e3:8.2f} ms"
              f"   large/small {big / s:5.2f}x")


if __name__ == "__main__":
    main()
