//! The X-Chain in the Data API from the X world (issue 36, sections 3 and 4): its transactions
//! are the `X/tx` containers (before Cortina) and the txs of the `X/block` containers (after),
//! with equal ids, heights and timestamps; addresses hold exactly the UTXOs those txs pay them;
//! assets, vertices, last activity and chain ids follow; the C-Chain's atomic side answers what
//! the X world exported to it.

use std::collections::HashSet;

use avax_data_core::decode::{proposervm as penv, xchain as xdecode};
use avax_data_core::index::{cb58, IndexPath};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::{json, Value};

use crate::common::{all_pages, error, ok};

const SEC: i64 = 1_000_000_000;
const CORTINA_S: i64 = 1_682_434_800;
const X: &str = "/v1/networks/mainnet/blockchains/x-chain";
const X_ID: &str = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
const C_ID: &str = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";

async fn start(seed: u64) -> Emulator {
    Emulator::start(EmulatorConfig { seed, ..Default::default() }).await.expect("emulator starts")
}

/// `(tx ids in block order, block id, seconds)` of `X/block` container `h` as the index serves it.
fn x_block(emu: &Emulator, h: u64) -> (Vec<String>, String, i64) {
    let (c, _) = emu.expected_container(IndexPath::XBlock, h).unwrap();
    let block = xdecode::decode_block(penv::parse(&c.bytes).unwrap().inner).unwrap();
    (block.txs.iter().map(|t| cb58::encode(&t.tx_id)).collect(), c.id, c.timestamp_ns.div_euclid(SEC))
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("not text: {v}")).to_string()
}

fn amount(u: &Value) -> u128 {
    text(&u["asset"]["amount"]).parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xchain36_transactions_are_the_txs_of_the_index_containers_newest_first() {
    let emu = start(3).await;
    let n = emu.container_count(IndexPath::XBlock);
    let body = ok(&emu, &format!("{X}/transactions?pageSize=100")).await;
    assert_eq!(body["chainInfo"], json!({"chainName": "x-chain", "network": "mainnet"}));
    let txs = body["transactions"].as_array().unwrap();
    assert_eq!(txs.len(), 100);
    // Walk the index from its newest block: each block's txs, in reverse block order.
    let mut expected = Vec::new();
    let mut h = n;
    while expected.len() < 100 {
        h -= 1;
        let (ids, hash, secs) = x_block(&emu, h);
        expected.extend(ids.into_iter().rev().map(|id| (id, h, hash.clone(), secs)));
    }
    for (tx, (id, h, hash, secs)) in txs.iter().zip(&expected) {
        assert_eq!(text(&tx["txHash"]), *id);
        assert_eq!(tx["chainFormat"], "linear");
        assert_eq!((tx["blockHeight"].as_u64(), text(&tx["blockHash"])), (Some(*h), hash.clone()));
        assert_eq!(tx["timestamp"].as_i64(), Some(*secs));
        // One by its hash: the same answer.
        assert_eq!(&ok(&emu, &format!("{X}/transactions/{id}")).await, tx);
    }
    // Before Cortina: the X/tx containers, one tx each, newest first.
    let m = emu.container_count(IndexPath::XTx);
    let dag = ok(&emu, &format!("{X}/transactions?pageSize=30&endTimestamp={}", CORTINA_S - 1)).await;
    for (k, tx) in dag["transactions"].as_array().unwrap().iter().enumerate() {
        let (c, _) = emu.expected_container(IndexPath::XTx, m - 1 - k as u64).unwrap();
        assert_eq!((text(&tx["txHash"]), tx["timestamp"].as_i64()), (c.id, Some(c.timestamp_ns.div_euclid(SEC))));
        assert_eq!(tx["chainFormat"], "non-linear");
        assert!(tx.get("blockHeight").is_none());
    }
    // Unknown and malformed hashes are 404s; the C-Chain's atomic list is empty.
    let unknown = cb58::encode(&[9; 32]);
    error(&emu, &format!("{X}/transactions/{unknown}"), 404, "Not Found").await;
    error(&emu, &format!("{X}/transactions/nope"), 404, "Not Found").await;
    let c = ok(&emu, "/v1/networks/mainnet/blockchains/c-chain/transactions").await;
    assert_eq!(c, json!({"transactions": [], "chainInfo": {"chainName": "c-chain", "network": "mainnet"}}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xchain36_pages_give_each_tx_once_in_order_across_cortina_and_filters_hold() {
    let emu = start(4).await;
    let m = emu.container_count(IndexPath::XTx);
    let (c_lo, _) = emu.expected_container(IndexPath::XTx, m - 12).unwrap();
    let (_, _, t_hi) = x_block(&emu, 9);
    let window = format!("startTimestamp={}&endTimestamp={t_hi}", c_lo.timestamp_ns.div_euclid(SEC));
    let (one, _) = all_pages(&emu, &format!("{X}/transactions?pageSize=100&{window}"), "transactions").await;
    let (paged, pages) = all_pages(&emu, &format!("{X}/transactions?pageSize=7&{window}"), "transactions").await;
    assert_eq!(one, paged);
    assert!(pages > 3);
    let ids: Vec<String> = paged.iter().map(|t| text(&t["txHash"])).collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "each once");
    let times: Vec<i64> = paged.iter().map(|t| t["timestamp"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    assert!(
        paged.iter().any(|t| t["chainFormat"] == "linear") && paged.iter().any(|t| t["chainFormat"] == "non-linear")
    );
    let (asc, _) =
        all_pages(&emu, &format!("{X}/transactions?pageSize=9&sortOrder=asc&{window}"), "transactions").await;
    let reversed: Vec<Value> = paged.iter().rev().cloned().collect();
    // Oldest first: the same txs; a block's txs in block order.
    assert_eq!(asc.iter().map(|t| text(&t["txHash"])).collect::<HashSet<_>>(), ids.iter().cloned().collect());
    assert_eq!(asc.len(), reversed.len());
    // txTypes keeps only those; addresses only the txs paying one of them.
    let (exports, _) =
        all_pages(&emu, &format!("{X}/transactions?pageSize=5&txTypes=ExportTx&{window}"), "transactions").await;
    let want: Vec<&Value> = paged.iter().filter(|t| t["txType"] == "ExportTx").collect();
    assert_eq!(exports.iter().collect::<Vec<_>>(), want);
    let payee = text(&paged[3]["emittedUtxos"][0]["addresses"][0]);
    let (paying, _) =
        all_pages(&emu, &format!("{X}/transactions?pageSize=2&addresses=X-{payee}"), "transactions").await;
    assert!(paying.contains(&paged[3]));
    for t in &paying {
        let owners: Vec<String> = t["emittedUtxos"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|u| u["addresses"].as_array().unwrap().iter().map(text))
            .collect();
        assert!(owners.contains(&payee));
    }
    // Refused before any work: a bad checksum, another network's prefix, an unknown tx type.
    let mut typo = payee.clone();
    typo.pop();
    typo.push(if payee.ends_with('q') { 'p' } else { 'q' });
    for bad in [format!("addresses={typo}"), format!("addresses=fuji{}", &payee[4..]), "txTypes=Nope".into()] {
        error(&emu, &format!("{X}/transactions?{bad}"), 400, "Bad Request").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xchain36_an_address_holds_what_the_x_txs_paid_it_and_its_balance_is_their_sum() {
    let emu = start(5).await;
    let txs = ok(&emu, &format!("{X}/transactions?pageSize=100")).await["transactions"].as_array().unwrap().clone();
    let mut owners: Vec<String> = txs
        .iter()
        .flat_map(|t| t["emittedUtxos"].as_array().unwrap().iter())
        .filter(|u| u["consumedOnChainId"] == X_ID)
        .map(|u| text(&u["addresses"][0]))
        .collect();
    owners.sort();
    owners.dedup();
    assert!(owners.len() > 20);
    let spent: HashSet<String> =
        txs.iter().flat_map(|t| t["consumedUtxos"].as_array().unwrap().iter().map(|u| text(&u["utxoId"]))).collect();
    for owner in owners.iter().take(12) {
        let (utxos, _) = all_pages(&emu, &format!("{X}/utxos?addresses={owner}&pageSize=1"), "utxos").await;
        assert!(!utxos.is_empty());
        let mut sum = 0u128;
        for u in &utxos {
            assert!(u["addresses"].as_array().unwrap().contains(&json!(owner)));
            assert_eq!(u["consumedOnChainId"], X_ID);
            assert!(text(&u["outputIndex"]).parse::<u32>().is_ok(), "decimal text");
            assert!(!spent.contains(&text(&u["utxoId"])), "a spent UTXO is not held");
            // The tx that created it lists it among its emitted UTXOs.
            let tx = ok(&emu, &format!("{X}/transactions/{}", text(&u["creationTxHash"]))).await;
            assert!(tx["emittedUtxos"].as_array().unwrap().contains(u), "{u}");
            if u["asset"]["symbol"] == "AVAX" {
                sum += amount(u);
            }
        }
        assert!(sum < 720_000_000 * 1_000_000_000, "within the AVAX supply");
        let balances = ok(&emu, &format!("{X}/balances?addresses=X-{owner}")).await;
        let avax = balances["balances"]["unlocked"].as_array().unwrap().iter().find(|a| a["symbol"] == "AVAX");
        assert_eq!(avax.map(amount_of), if sum == 0 { None } else { Some(sum) });
        assert_eq!(balances["balances"]["locked"], json!([]));
        // Before the first UTXO was created (spent ones included: a DAG-era payment spent later
        // was held in between), nothing.
        let (ever, _) =
            all_pages(&emu, &format!("{X}/utxos?addresses={owner}&pageSize=100&includeSpent=true"), "utxos").await;
        assert!(ever.len() >= utxos.len() && utxos.iter().all(|u| ever.contains(u)));
        let first = ever.iter().map(|u| u["timestamp"].as_i64().unwrap()).min().unwrap();
        let before = ok(&emu, &format!("{X}/balances?addresses={owner}&blockTimestamp={}", first - 1)).await;
        assert_eq!(before["balances"]["unlocked"], json!([]));
    }
    let missing = error(&emu, &format!("{X}/utxos"), 400, "Bad Request").await;
    assert!(missing.to_string().contains("addresses"), "{missing}");
}

fn amount_of(a: &Value) -> u128 {
    text(&a["amount"]).parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xchain36_assets_exports_to_the_c_chain_vertices_and_chain_ids_follow_the_world() {
    let emu = start(6).await;
    let (txs, _) = all_pages(
        &emu,
        &format!("{X}/transactions?pageSize=100&txTypes=CreateAssetTx,ExportTx&startTimestamp={CORTINA_S}"),
        "transactions",
    )
    .await;
    // An asset a CreateAssetTx created: its details, its transactions.
    let created = txs.iter().find(|t| t["txType"] == "CreateAssetTx").expect("the X world creates assets");
    let asset = text(&created["txHash"]);
    let details = ok(&emu, &format!("{X}/assets/{asset}")).await;
    assert_eq!(details, created["assetCreated"]);
    assert_eq!(details["createdAtTimestamp"], created["timestamp"]);
    let (moving, _) = all_pages(&emu, &format!("{X}/assets/{asset}/transactions"), "transactions").await;
    assert_eq!(moving, vec![created.clone()]);
    let avax = ok(
        &emu,
        &format!("/v1/networks/mainnet/blockchains/{X_ID}/assets/FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"),
    )
    .await;
    assert_eq!((avax["symbol"].clone(), avax["createdAtTimestamp"].clone()), (json!("AVAX"), json!(1_599_696_000)));
    error(&emu, &format!("{X}/assets/{}", cb58::encode(&[3; 32])), 404, "Not Found").await;
    error(&emu, "/v1/networks/mainnet/blockchains/p-chain/assets/x", 400, "Bad Request").await;
    // An export to the C-Chain: its owner holds it in the C-Chain's atomic memory.
    let export = txs.iter().find(|t| t["txType"] == "ExportTx" && t["destinationChain"] == C_ID).unwrap();
    let exported = export["emittedUtxos"].as_array().unwrap().iter().find(|u| u["consumedOnChainId"] == C_ID).unwrap();
    let owner = text(&exported["addresses"][0]);
    let c = "/v1/networks/mainnet/blockchains/c-chain";
    let held = ok(&emu, &format!("{c}/utxos?addresses={owner}")).await;
    assert!(held["utxos"].as_array().unwrap().contains(exported));
    let shared = ok(&emu, &format!("{c}/balances?addresses={owner}")).await;
    assert_eq!(shared["balances"]["atomicMemoryUnlocked"][0]["sharedWithChainId"], X_ID);
    assert_eq!(amount_of(&shared["balances"]["atomicMemoryUnlocked"][0]), amount(exported));
    let fuji = format!("/v1/networks/mainnet/addresses:listChainIds?addresses=fuji{}", &owner[4..]);
    error(&emu, &fuji, 400, "Bad Request").await;
    let ids = ok(&emu, &format!("/v1/networks/mainnet/addresses:listChainIds?addresses=X-{owner}")).await;
    assert_eq!(ids["addresses"][0]["address"], json!(owner));
    assert!(ids["addresses"][0]["blockchainIds"].as_array().unwrap().contains(&json!(C_ID)));
    let last = ok(&emu, &format!("{c}/lastActivityTimestampByAddresses?addresses={owner}")).await;
    assert_eq!((last["txHash"].clone(), last["isConsumed"].clone()), (export["txHash"].clone(), json!(false)));
    assert_eq!(last["blockNumber"], json!(export["blockHeight"].as_u64().unwrap().to_string()));
    // Vertices by hash and by height are the listed ones.
    let list = ok(&emu, &format!("{X}/vertices?pageSize=3")).await;
    let v = &list["vertices"][1];
    assert_eq!(&ok(&emu, &format!("{X}/vertices/{}", text(&v["vertexHash"]))).await, v);
    let at = ok(&emu, &format!("{X}/vertices:listByHeight?vertexHeight={}", v["vertexHeight"])).await;
    assert_eq!(at["vertices"], json!([v]));
    error(&emu, &format!("{X}/vertices/{}", cb58::encode(&[1; 32])), 404, "Not Found").await;
    error(&emu, &format!("{X}/vertices:listByHeight"), 400, "Bad Request").await;
}
