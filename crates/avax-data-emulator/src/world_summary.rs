//! [`summary`]: what an emulator's world holds, as one JSON object (the Python `emu.world`): the
//! world's now, each index path's containers and the times of its first and last one, each EVM
//! chain's launch, blocks and their times, and named things to use in examples and tests
//! (addresses, the busy address of [`busy`], tokens, validators, subnets, and the shapes of the
//! C-Chain: its busiest address, spam token, NFT collection, newest failed transaction and newest
//! deployment).

use avax_data_core::index::IndexPath;
use serde_json::{json, Value};

use crate::formats::{self, Source};
use crate::timefmt::rfc3339_nano;
use crate::world::rewards::{node_id, p_address};
use crate::world::{busy, chain, nft, pool_address, DataWorld, Tx, C_CHAIN_FUJI_ID, C_CHAIN_MAINNET_ID};
use crate::world::{erc20, history, known_owner_addresses, Network, PRIMARY_NETWORK_SUBNET_ID, WORLD_NOW_MS};

/// How many validators and P-addresses per network the summary names.
const NAMED: u64 = 3;

fn utc_ms(ms: i64) -> String {
    rfc3339_nano(ms.saturating_mul(1_000_000), 0)
}

/// The summary of the world `(source, data)` whose index paths hold `counts` containers now.
pub fn summary(source: Source, data: &DataWorld, counts: &[(IndexPath, u64)]) -> Value {
    let index: serde_json::Map<String, Value> = counts
        .iter()
        .map(|&(path, n)| {
            let time = |i: u64| rfc3339_nano(formats::timestamp_ns(source, path, i), 0);
            let span = if n == 0 {
                json!({"containers": 0, "first_time": null, "last_time": null})
            } else {
                json!({"containers": n, "first_time": time(0), "last_time": time(n - 1)})
            };
            (path.as_str().to_string(), span)
        })
        .collect();
    let chains: Vec<Value> = data
        .chains()
        .iter()
        .map(|c| {
            let tip = data.tip();
            json!({
                "evm_chain_id": c.evm_chain_id,
                "name": c.name,
                "network": c.network.as_str(),
                "blockchain_id": c.blockchain_id,
                "subnet_id": c.subnet_id,
                "launch_time": utc_ms(history::launch_s(c) * 1000),
                "blocks": data.blocks_per_chain(),
                "first_block_time": utc_ms(data.block_timestamp_ms(c, 0)),
                "last_block": tip,
                "last_block_time": utc_ms(data.block_timestamp_ms(c, tip)),
            })
        })
        .collect();
    let tokens: Vec<Value> = erc20::TOKENS
        .iter()
        .map(|t| {
            json!({"evm_chain_id": t.evm_chain_id, "address": t.address, "symbol": t.symbol,
                   "name": t.name, "decimals": t.decimals, "spam": t.spam})
        })
        .collect();
    let per_network = |f: &dyn Fn(Network, u64) -> String| -> Value {
        Network::ALL
            .iter()
            .map(|&n| (n.as_str().to_string(), json!((0..NAMED).map(|i| f(n, i)).collect::<Vec<_>>())))
            .collect()
    };
    let (first_ms, now_ms) = data.span_ms();
    json!({
        "seed": data.seed(),
        "name": data.name(),
        "now": utc_ms(WORLD_NOW_MS),
        "first_time": utc_ms(first_ms),
        "last_time": utc_ms(now_ms),
        "index": index,
        "chains": chains,
        "c_chain_ids": {"mainnet": C_CHAIN_MAINNET_ID, "fuji": C_CHAIN_FUJI_ID},
        "addresses": known_owner_addresses(),
        "busy_address": {"address": busy::BUSY_ADDRESS, "evm_chain_id": busy::BUSY_CHAIN,
                         "erc20_transfers": busy::total_transfers(data.seed(), data.blocks_per_chain())},
        "tokens": tokens,
        "validators": per_network(&node_id),
        "p_addresses": per_network(&|n: Network, i: u64| format!("P-{}", p_address(n, i))),
        "shapes": shapes(data),
        "subnets": {
            "primary_network": PRIMARY_NETWORK_SUBNET_ID,
            "l1s": data.chains().iter().filter(|c| c.subnet_id != PRIMARY_NETWORK_SUBNET_ID)
                .map(|c| json!({"name": c.name, "subnet_id": c.subnet_id})).collect::<Vec<_>>(),
        },
    })
}

/// The newest transaction of the Mainnet C-Chain's blocks that `pick` accepts, as
/// `{block, hash, index, from}` plus what `extra` adds; `null` if none.
fn newest(data: &DataWorld, pick: impl Fn(&Tx) -> bool, extra: impl Fn(&Tx) -> Value) -> Value {
    let c = chain(43114).expect("the world has a C-Chain");
    for n in (0..data.blocks_per_chain()).rev() {
        let txs = data.transactions(c, n).unwrap_or_default();
        if let Some(tx) = txs.iter().rev().find(|t| pick(t)) {
            let mut out = json!({"block": n, "hash": tx.hash, "index": tx.index, "from": tx.from});
            if let (Some(map), Value::Object(more)) = (out.as_object_mut(), extra(tx)) {
                map.extend(more);
            }
            return out;
        }
    }
    Value::Null
}

/// The C-Chain's shapes a data scientist meets, named for examples and tests.
fn shapes(data: &DataWorld) -> Value {
    let c = chain(43114).expect("the world has a C-Chain");
    let spam = &erc20::TOKENS[erc20::SPAM_TOKEN];
    let (address, name, symbol, _) = nft::contracts(c).swap_remove(0);
    json!({
        "evm_chain_id": c.evm_chain_id,
        "busiest_address": pool_address(0),
        "spam_token": {"address": spam.address, "symbol": spam.symbol, "name": spam.name,
                       "value": erc20::SPAM_VALUE},
        "nft_collection": {"address": address, "name": name, "symbol": symbol, "erc_type": "ERC-721"},
        "failed_tx": newest(data, |t| t.failed, |_| json!({})),
        "deployment": newest(data, |t| t.contract_address.is_some(),
                             |t| json!({"contract_address": t.contract_address})),
        "nft_mint": newest(data, |t| t.nft.is_some(),
                           |t| json!({"token_id": t.nft.as_ref().map(|m| m.token_id.to_string())})),
    })
}
