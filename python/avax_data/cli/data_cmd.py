"""``avax-data data <endpoint>``: every method of the Data API client.

Single objects (``chains``, ``chain``, ``block``, ``health``) print JSON; lists (``blocks``,
``latest-blocks``, ``collectibles``, ``pending-rewards``, ``vertices``, ``icm-messages``) export
typed frames, resumably. Every other GET operation of the Data API's OpenAPI document has a
command built from its generated method (``erc20-transfers``, ``validators``, ``utxos``, ...;
see ``generated_cmd.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from . import argtypes
from .client import client_parent, open_client
from .dataset_export import add_dataset_options, run_dataset
from .embedded import embedded_identity
from .export import add_export_options, export_from_args, run_export
from .generated_cmd import add_generated_commands, page_options
from .jsonout import emit_json
from .parser import Parser, add_command
from .sources import PagerSource

__all__ = ["add_data_commands"]

_NETWORKS = "mainnet, fuji or testnet"


def _list_command(
    actions: argparse._SubParsersAction,
    name: str,
    *,
    client: argparse.ArgumentParser,
    help: str,
    description: str,
    examples: str,
    most: int,
) -> argparse.ArgumentParser:
    parser = add_command(actions, name, parents=[client], help=help, description=description, examples=examples)
    page_options(parser, most)
    add_export_options(parser, default_stem=name.replace("-", "_"))
    parser.set_defaults(handler=run_list, endpoint=name)
    return parser


def _json_command(actions: argparse._SubParsersAction, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    parser = add_command(actions, name, **kwargs)
    parser.add_argument("-o", "--out", default=None, metavar="PATH", help="write the JSON here instead of stdout")
    parser.set_defaults(handler=run_single, endpoint=name)
    return parser


def add_data_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``data`` and its endpoints to the top-level subparsers."""
    data = add_command(
        sub, "data", help="the hosted Data API: chains, blocks, NFTs, rewards, vertices, ICM messages",
        description="Read the hosted Data API (/v1/...). The key comes from --api-key or AVAX_DATA_API_KEY\n"
        "(optional: a key gives higher rate limits). Lists export to Parquet, CSV or NDJSON; single\n"
        "objects print JSON.",
        examples="""
avax-data data chains --emulator --network mainnet
avax-data data blocks 43114 --limit 10000 -o blocks.parquet
avax-data data icm-messages --network mainnet -o - | head""",
    )
    actions = data.add_subparsers(dest="action", metavar="ENDPOINT", required=True, parser_class=Parser)
    client = client_parent("data")

    chains = _json_command(
        actions, "chains", parents=[client], help="list the supported chains (JSON)",
        description="GET /v1/chains: the supported chains, as a JSON list.",
        examples="avax-data data chains --emulator\navax-data data chains --network fuji --feature teleporter",
    )
    chains.add_argument("--network", default=None, help=f"only chains of this network: {_NETWORKS}")
    chains.add_argument("--feature", default=None, help="only chains with this feature: nftIndexing, webhooks, "
                        "teleporter")

    chain = _json_command(
        actions, "chain", parents=[client], help="one chain (JSON)",
        description="GET /v1/chains/{chainId}: one chain, by EVM chain id or blockchain id.",
        examples="""
avax-data data chain 43114 --emulator
avax-data data chain 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5""",
    )
    chain.add_argument("chain_id", metavar="CHAIN_ID", help="EVM chain id (43114) or blockchain id")

    block = _json_command(
        actions, "block", parents=[client], help="one block, by number or hash (JSON)",
        description="GET /v1/chains/{chainId}/blocks/{blockId}: one block.",
        examples="avax-data data block 43114 5 --emulator\navax-data data block 43114 0xabc... -o block.json",
    )
    block.add_argument("chain_id", metavar="CHAIN_ID", help="EVM chain id or blockchain id")
    block.add_argument("block_id", metavar="BLOCK", type=argtypes.block_id, help="block number or 0x hash")

    _json_command(
        actions, "health", parents=[client], help="the service's health check (JSON)",
        description="GET /v1/health-check.",
        examples="avax-data data health --emulator",
    )

    blocks = _list_command(
        actions, "blocks", client=client, most=100, help="export a chain's blocks, newest first",
        description="Export the blocks of one EVM chain, newest first (GET /v1/chains/{chainId}/blocks).",
        examples="""
avax-data data blocks 43114 --emulator --limit 1000 -o blocks.parquet
avax-data data blocks 43114 --limit 100000 -o blocks.csv --resume
avax-data data blocks 43114 --dataset blocks_43114/ --chunk 100000  # a partitioned dataset; rerun to update""",
    )
    add_dataset_options(blocks, "DIR/block=<first block of the chunk>/part.parquet", chunk=True)
    blocks.add_argument("chain_id", metavar="CHAIN_ID", help="EVM chain id or blockchain id")

    latest = _list_command(
        actions, "latest-blocks", client=client, most=100, help="export the latest blocks of all chains",
        description="Export the latest blocks across all chains (GET /v1/blocks), optionally of one network.",
        examples="avax-data data latest-blocks --emulator --network mainnet -o - | head",
    )
    latest.add_argument("--network", default=None, help=_NETWORKS)

    nfts = _list_command(
        actions, "collectibles", client=client, most=500, help="export a wallet's ERC-721/ERC-1155 balances",
        description="Export the NFT (ERC-721 and ERC-1155) balances of a wallet on one chain.",
        examples="avax-data data collectibles 43114 0x6a2474f3e677ce65e495508043237ea93738a031 --emulator -o nfts.csv",
    )
    nfts.add_argument("chain_id", metavar="CHAIN_ID", help="EVM chain id")
    nfts.add_argument("address", metavar="ADDRESS", help="the wallet's 0x address")
    nfts.add_argument("--contract-address", default=None, metavar="ADDRESS", help="only this NFT contract")

    rewards = _list_command(
        actions, "pending-rewards", client=client, most=100, help="export pending staking rewards",
        description="Export pending staking rewards of addresses and/or node ids (at least one of them).",
        examples="""
avax-data data pending-rewards mainnet --addresses avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr --emulator
avax-data data pending-rewards mainnet --node-ids NodeID-a,NodeID-b --sort-order desc -o rewards.parquet""",
    )
    rewards.add_argument("network", metavar="NETWORK", help=_NETWORKS)
    rewards.add_argument("--addresses", default=None, metavar="ADDR,...", help="[P-|X-]avax1... addresses")
    rewards.add_argument("--node-ids", default=None, metavar="ID,...", help="NodeID-... ids")
    rewards.add_argument("--sort-order", default=None, help="asc or desc")

    vertices = _list_command(
        actions, "vertices", client=client, most=100, help="export X-chain vertices",
        description="Export the X-chain vertices of a network.",
        examples="""
avax-data data vertices mainnet --emulator -o vertices.ndjson
avax-data data vertices mainnet --dataset vertices/  # DIR/month=<YYYYMM>/part.parquet; rerun to update""",
    )
    add_dataset_options(vertices, "DIR/month=<YYYYMM>/part.parquet (UTC month of vertexTimestamp)", chunk=False)
    vertices.add_argument("network", metavar="NETWORK", help=_NETWORKS)
    vertices.add_argument("blockchain_id", metavar="BLOCKCHAIN_ID", nargs="?", default="x-chain",
                          help="x-chain or the network's X-chain id (default x-chain)")

    icm = _list_command(
        actions, "icm-messages", client=client, most=100, help="export interchain (ICM) messages",
        description="Export interchain (ICM) messages, newest first, with optional filters.",
        examples="""
avax-data data icm-messages --emulator --limit 500 -o icm.parquet
avax-data data icm-messages --network mainnet --to 0x3de98061fd3305d6d72356f63708fa73cd3cf87d -o -""",
    )
    for flag in ("--source-blockchain-id", "--destination-blockchain-id", "--blockchain-id", "--to", "--from"):
        icm.add_argument(flag, dest=flag[2:].replace("-", "_") + ("_" if flag == "--from" else ""), default=None,
                         metavar="ID" if "blockchain" in flag else "ADDRESS")
    icm.add_argument("--network", default=None, help=_NETWORKS)
    add_generated_commands(actions, client, "data")


# endpoint -> (client method, positional argument names, keyword argument names)
_LISTS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "blocks": ("blocks", ("chain_id",), ()),
    "latest-blocks": ("latest_blocks", (), ("network",)),
    "collectibles": ("collectibles", ("chain_id", "address"), ("contract_address",)),
    "pending-rewards": ("pending_rewards", ("network",), ("addresses", "node_ids", "sort_order")),
    "vertices": ("vertices", ("network", "blockchain_id"), ()),
    "icm-messages": (
        "icm_messages",
        (),
        ("source_blockchain_id", "destination_blockchain_id", "blockchain_id", "to", "from_", "network"),
    ),
}


def run_list(args: argparse.Namespace) -> int:
    """A list endpoint: export its pager."""
    method, positional, keywords = _LISTS[args.endpoint]
    values = [getattr(args, name) for name in positional]
    options = {name: getattr(args, name) for name in keywords if getattr(args, name) is not None}
    if args.page_size is not None:
        options["page_size"] = args.page_size
    if getattr(args, "dataset", None) is not None:
        return run_dataset(args, "data", method, values, options)
    walk = {"endpoint": args.endpoint, "args": values, **options, "limit": args.limit,
            "emulator": embedded_identity(args)}
    export = export_from_args(args, f"data {args.endpoint}", walk, args.endpoint.replace("-", "_"))
    with open_client(args, "data") as client:
        call = getattr(client, method)

        def make_pager(token: str | None, limit: int | None) -> Any:
            return call(*values, **options, page_token=token, limit=limit)

        run_export(export, PagerSource(make_pager, args.limit, base_url=None if args.emulator else client.base_url,
                                       tokens_survive=not args.emulator))
    return 0


def run_single(args: argparse.Namespace) -> int:
    """A single-object endpoint: print its JSON."""
    with open_client(args, "data") as client:
        if args.endpoint == "chains":
            value: Any = client.chains(network=args.network, feature=args.feature)
        elif args.endpoint == "chain":
            value = client.chain(args.chain_id)
        elif args.endpoint == "block":
            value = client.block(args.chain_id, args.block_id)
        else:
            value = client.health()
        emit_json(value, args.out)
    return 0
