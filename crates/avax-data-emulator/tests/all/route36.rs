//! The primary-network routes the P-, X- and C-Chain share (transactions, a transaction,
//! UTXOs, balances) after the dispatch by chain (issue 36 clean-up): each chain's answer for the
//! chain asked, the exact 400/404 bodies of a path naming no chain, and `listAddressChains`
//! equal to what the world's blocks show.

use std::collections::{BTreeMap, BTreeSet};

use avax_data_core::decode::pchain::tx_type_name;
use avax_data_emulator::world::busy::BUSY_ADDRESS;
use avax_data_emulator::world::{chains, pool_address};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::{json, Value};

use crate::common::{get, ok};

const P_ID: &str = "11111111111111111111111111111111LpoYY";
const X_ID: &str = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
const X_FUJI_ID: &str = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm";
const C_ID: &str = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
const C_FUJI_ID: &str = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp";
const CHAIN_PROBLEM: &str = "blockchainId must be one of the following values: \
11111111111111111111111111111111LpoYY, 2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM, \
2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm, 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5, \
yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp, p-chain, x-chain, c-chain";
const NETWORK_PROBLEM: &str = "network must be one of the following values: mainnet, fuji, testnet";

async fn start(seed: u64, blocks: u64) -> Emulator {
    let config = EmulatorConfig { seed, data_blocks_per_chain: blocks, ..Default::default() };
    Emulator::start(config).await.expect("emulator starts")
}

fn not_found(message: &str) -> (u16, Value) {
    (404, json!({"message": message, "error": "Not Found", "statusCode": 404}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route36_a_path_naming_no_chain_keeps_its_exact_answer() {
    let emu = start(8, 2_000).await;
    // A path naming no chain is checked as the P-Chain's route checks its query (every problem
    // at once, the P-Chain's address and tx type rules; a P-address only on a valid network):
    // the answers of the build before the dispatch by chain.
    let p_types = format!(
        "txTypes \"Nope\" is no P-Chain transaction type; one of: {}",
        (0..64).filter_map(tx_type_name).collect::<Vec<_>>().join(", ")
    );
    let mut cases: Vec<(String, (u16, Value))> = Vec::new();
    for (network, chain) in [("mainnet", "q-chain"), ("fuji", X_ID), ("devnet", "x-chain"), ("devnet", "q-chain")] {
        let (first, hrp) = match network {
            "devnet" => (NETWORK_PROBLEM, None),
            "mainnet" => (CHAIN_PROBLEM, Some("avax")),
            _ => (CHAIN_PROBLEM, Some("fuji")),
        };
        let none = hrp.map(|_| "addresses must be a comma separated list of P-Chain addresses".to_string());
        let nope = hrp.map(|h| format!("addresses: \"nope\" is no {network} P-Chain address ({h}1...)"));
        let texts = |items: &[&str]| items.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let routes: [(&str, Vec<String>); 7] = [
            ("transactions?pageSize=3", vec![]),
            (
                "transactions?pageSize=0&txTypes=Nope&addresses=nope",
                vec!["pageSize must not be less than 1".into(), p_types.clone()],
            ),
            ("transactions/abc", vec![]),
            ("utxos", none.clone().into_iter().collect()),
            (
                "utxos?addresses=nope&minUtxoAmount=-1&sortBy=x",
                [
                    texts(&[
                        "sortBy must be one of the following values: timestamp, amount",
                        "minUtxoAmount must not be less than 0",
                    ]),
                    nope.clone().into_iter().collect(),
                ]
                .concat(),
            ),
            ("balances", none.into_iter().collect()),
            (
                "balances?addresses=nope&blockTimestamp=x",
                [nope.into_iter().collect(), texts(&["blockTimestamp must be an integer number"])].concat(),
            ),
        ];
        for (route, more) in routes {
            let messages: Vec<String> = std::iter::once(first.to_string()).chain(more).collect();
            let body = json!({"message": messages, "error": "Bad Request", "statusCode": 400});
            cases.push((format!("/v1/networks/{network}/blockchains/{chain}/{route}"), (400, body)));
        }
    }
    for (path, want) in cases {
        let a = get(&emu, &path).await;
        assert_eq!((a.status, a.body), want, "{path}");
    }
}

/// The first `(tx hash, owner)` of the list of `chain` (an owner of an output it emitted).
async fn first_tx(emu: &Emulator, chain: &str) -> (String, String) {
    let body = ok(emu, &format!("/v1/networks/mainnet/blockchains/{chain}/transactions?pageSize=1")).await;
    let tx = &body["transactions"][0];
    (tx["txHash"].as_str().unwrap().to_string(), tx["emittedUtxos"][0]["addresses"][0].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route36_each_chain_answers_the_routes_from_its_own_world() {
    let emu = start(8, 2_000).await;
    let (p_tx, p_owner) = first_tx(&emu, "p-chain").await;
    let (x_tx, x_owner) = first_tx(&emu, "x-chain").await;
    let asked = [
        ("mainnet", "p-chain", "p-chain"),
        ("mainnet", P_ID, "p-chain"),
        ("mainnet", "x-chain", "x-chain"),
        ("mainnet", X_ID, "x-chain"),
        ("mainnet", "c-chain", "c-chain"),
        ("mainnet", C_ID, "c-chain"),
        ("fuji", X_FUJI_ID, "x-chain"),
        ("testnet", C_FUJI_ID, "c-chain"),
    ];
    for (network, id, name) in asked {
        let root = format!("/v1/networks/{network}/blockchains/{id}");
        let info = json!({"chainName": name, "network": if network == "mainnet" { "mainnet" } else { "fuji" }});
        // The owners are Mainnet addresses: their UTXOs and balances are asked on the Mainnet.
        let owner = if name == "p-chain" { &p_owner } else { &x_owner };
        let mut paths = vec![format!("{root}/transactions?pageSize=3")];
        if network == "mainnet" {
            paths.extend([format!("{root}/utxos?addresses={owner}"), format!("{root}/balances?addresses={owner}")]);
        }
        let mut bodies = Vec::new();
        for path in paths {
            let body = ok(&emu, &path).await;
            assert_eq!(body["chainInfo"], info, "{path}");
            bodies.push(body);
        }
        let hashes: Vec<&str> =
            bodies[0]["transactions"].as_array().unwrap().iter().map(|t| t["txHash"].as_str().unwrap()).collect();
        let mut shape: Vec<&str> =
            bodies.get(2).map_or(vec![], |b| b["balances"].as_object().unwrap().keys().map(String::as_str).collect());
        shape.sort_unstable();
        match (network, name) {
            ("mainnet", "p-chain") => {
                assert_eq!(hashes[0], p_tx);
                assert_eq!(shape.len(), 8, "the P-Chain's balance categories: {shape:?}");
            }
            ("mainnet", "x-chain") => {
                assert_eq!(hashes[0], x_tx);
                assert_eq!(shape, ["atomicMemoryLocked", "atomicMemoryUnlocked", "locked", "unlocked"]);
            }
            // The world's C-Chain holds no atomic tx; the Fuji X-Chain is not emulated.
            ("mainnet", "c-chain") => {
                assert!(hashes.is_empty(), "{root}");
                assert_eq!(shape, ["atomicMemoryLocked", "atomicMemoryUnlocked"]);
            }
            _ => assert!(hashes.is_empty(), "{root}"),
        }
        // A tx of the P- or X-Chain is found on its own chain only.
        for (tx, of) in [(&p_tx, "p-chain"), (&x_tx, "x-chain")] {
            let a = get(&emu, &format!("{root}/transactions/{tx}")).await;
            if network == "mainnet" && of == name {
                assert_eq!((a.status, &a.body["txHash"]), (200, &json!(tx)), "{root}");
            } else {
                assert_eq!((a.status, a.body), not_found(&format!("Transaction {tx} not found on {name}")), "{root}");
            }
        }
    }
}

/// What the world's blocks show: for each address, the chains (ids, in the world's order) whose
/// transactions it sent, received (tokens too) or created, or whose contract it is.
fn chains_in_blocks(emu: &Emulator) -> BTreeMap<String, Vec<String>> {
    let world = emu.data_world();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for chain in chains() {
        let mut seen = BTreeSet::new();
        for n in 0..world.blocks_per_chain() {
            for tx in world.transactions(chain, n).unwrap() {
                seen.insert(tx.from.clone());
                seen.extend(tx.to.clone());
                seen.extend(tx.erc20.as_ref().map(|t| t.to.clone()));
                seen.extend(tx.contract_address.clone());
            }
        }
        for a in seen {
            out.entry(a).or_default().push(chain.evm_chain_id.to_string());
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route36_address_chains_are_the_chains_the_blocks_show() {
    let emu = start(5, 300).await;
    let shown = chains_in_blocks(&emu);
    let all: Vec<String> = chains().iter().map(|c| c.evm_chain_id.to_string()).collect();
    let on = |a: &str| shown.get(a).cloned().unwrap_or_default();
    // The busy sender, a pool address on some chains but not all, one on none, a deployed
    // contract, a token, a stranger.
    let some = (0..1_000).map(pool_address).find(|a| !on(a).is_empty() && on(a).len() < all.len()).unwrap();
    let none = (0..1_000).map(pool_address).find(|a| on(a).is_empty());
    let contract = shown.keys().find(|a| on(a).len() == 1 && !(0..1_000).any(|i| pool_address(i) == **a)).unwrap();
    let mut addresses = vec![pool_address(0), some, contract.clone(), "0x".to_string() + &"ab".repeat(20)];
    addresses.extend(none);
    for address in &addresses {
        let body = ok(&emu, &format!("/v1/address/{address}/chains")).await;
        let got: Vec<&str> =
            body["indexedChains"].as_array().unwrap().iter().map(|c| c["chainId"].as_str().unwrap()).collect();
        assert_eq!(got, on(address), "{address}");
        assert_eq!(body["unindexedChains"], json!([]));
    }
    assert_eq!(on(&pool_address(0)), all, "the busiest sender is on every chain");
    // The busy address's transfers are a stream of their own, on the Mainnet C-Chain.
    let busy = ok(&emu, &format!("/v1/address/{BUSY_ADDRESS}/chains")).await;
    assert_eq!(busy["indexedChains"].as_array().unwrap().len(), 1);
    assert_eq!(busy["indexedChains"][0]["chainId"], "43114");
}
