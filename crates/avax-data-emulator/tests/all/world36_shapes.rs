//! Shapes a data scientist meets (issue 36, section 5), in the world and over HTTP: heavy-tailed
//! senders and recipients, failed transactions, deployments, the spam token and the NFT
//! collection, the same facts in the Data API, the coreth blocks the `C/block` index serves and
//! the metrics, deterministic per seed.

use std::collections::HashMap;

use avax_data_core::decode::cchain::decode_block;
use avax_data_emulator::formats::coreth::Tx as CorethTx;
use avax_data_emulator::world::cchain::created_address;
use avax_data_emulator::world::erc20::{SPAM_TOKEN, SPAM_VALUE, TOKENS};
use avax_data_emulator::world::{block_transactions, chain, pool_address, DataWorld};
use avax_data_emulator::{Emulator, EmulatorConfig};

use crate::common::ok;

const C: u64 = 43114;

/// The input data of a coreth transaction.
fn input(tx: &CorethTx) -> &[u8] {
    match tx {
        CorethTx::Legacy { data, .. } | CorethTx::DynamicFee { data, .. } => data,
    }
}

#[test]
fn senders_and_recipients_are_heavy_tailed_and_the_shapes_all_occur() {
    let mut seen: HashMap<String, u32> = HashMap::new();
    let (mut txs, mut failed, mut deployments, mut spam, mut mints) = (0, 0, 0, 0, 0);
    for n in 9_000..9_200 {
        for t in block_transactions(7, C, n) {
            txs += 1;
            *seen.entry(t.from.clone()).or_default() += 1;
            if let Some(to) = t.to.as_ref().filter(|_| t.erc20.is_none() && t.nft.is_none()) {
                *seen.entry(to.clone()).or_default() += 1;
            }
            failed += u32::from(t.failed);
            deployments += u32::from(t.contract_address.is_some());
            spam += u32::from(t.erc20.as_ref().is_some_and(|e| e.token.spam));
            mints += u32::from(t.nft.is_some());
        }
    }
    let mut counts: Vec<u32> = seen.values().copied().collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let median = counts[counts.len() / 2];
    assert!(counts[0] >= 30 * median, "busiest {} vs median {median}", counts[0]);
    assert_eq!(seen[&pool_address(0)], counts[0], "pool entry 0 is the busiest");
    let once = counts.iter().filter(|&&c| c == 1).count();
    assert!(once * 4 >= counts.len(), "{once} one-time addresses of {}", counts.len());
    // Each shape occurs at about its rate (per thousand transactions: 3% creations, 2.5% of the
    // rest fail, 1% spam calls, 2.5% of the plain ones mint).
    let per_mille = |k: u32| k as f64 * 1000.0 / txs as f64;
    assert!((15.0..45.0).contains(&per_mille(deployments)), "{deployments} of {txs}");
    assert!((12.0..40.0).contains(&per_mille(failed)), "{failed} of {txs}");
    assert!((4.0..20.0).contains(&per_mille(spam)), "{spam} of {txs}");
    assert!((8.0..30.0).contains(&per_mille(mints)), "{mints} of {txs}");
    assert_eq!(block_transactions(7, C, 9_100), block_transactions(7, C, 9_100), "deterministic");
    assert_ne!(block_transactions(7, C, 9_100), block_transactions(8, C, 9_100), "per seed");
}

#[test]
fn the_coreth_blocks_hold_the_data_apis_failed_calls_deployments_and_mints() {
    let world = DataWorld::new(3, 4_200);
    let c = chain(C).unwrap();
    let evm = world.evm_chain(c);
    let (mut failed, mut deployments, mut mints) = (0, 0, 0);
    for n in 4_100..4_200 {
        let mut raw = Vec::new();
        evm.encode_block(n, evm.parent_hash(n), &mut raw);
        let decoded = decode_block(&raw).expect("a coreth block decodes");
        let txs = world.transactions(c, n).unwrap();
        let coreth = evm.txs(n);
        assert_eq!((decoded.transactions.len(), coreth.len()), (txs.len(), txs.len()));
        for ((d, t), raw_tx) in decoded.transactions.iter().zip(&txs).zip(&coreth) {
            assert_eq!(format!("0x{}", hex::encode(d.hash)), t.hash);
            assert_eq!(d.gas, t.gas_used, "a failed transaction pays its gas");
            if let Some(contract) = &t.contract_address {
                deployments += 1;
                assert_eq!(d.to, None, "a deployment has no recipient");
                let from: [u8; 20] = hex::decode(&t.from[2..]).unwrap().try_into().unwrap();
                assert_eq!(format!("0x{}", hex::encode(created_address(&from, d.nonce))), *contract);
            }
            if let Some(e) = &t.erc20 {
                let word = &input(raw_tx)[36..68];
                if e.token.spam {
                    assert_eq!(word, [0xff; 32], "the spam call says 2^256-1");
                    assert_eq!(e.value(), SPAM_VALUE);
                }
            }
            if t.failed {
                failed += 1;
                assert!(t.erc20.is_none() && t.nft.is_none(), "a failed transaction emits no log");
            }
            if let Some(m) = &t.nft {
                mints += 1;
                assert_eq!(input(raw_tx), [0x12, 0x49, 0xc5, 0x8b], "mint()");
                assert_eq!(format!("0x{}", hex::encode(d.to.unwrap())), m.contract);
            }
        }
        assert_eq!(decoded.header.gas_used, txs.iter().map(|t| t.gas_used).sum::<u64>());
    }
    assert!(failed > 10 && deployments > 10 && mints > 10, "{failed} {deployments} {mints}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_api_reports_status_deployments_spam_and_mints() {
    let emu = Emulator::start(EmulatorConfig { seed: 2, data_blocks_per_chain: 600, ..Default::default() })
        .await
        .expect("emulator starts");
    let world = DataWorld::new(2, 600);
    let c = chain(C).unwrap();
    let txs: Vec<_> = (0..600).rev().flat_map(|n| world.transactions(c, n).unwrap()).collect();
    let failed = txs.iter().find(|t| t.failed).unwrap();
    let body = ok(&emu, &format!("/v1/chains/{C}/transactions/{}", failed.hash)).await;
    assert_eq!(body["nativeTransaction"]["txStatus"], "0");
    let fine = txs.iter().find(|t| !t.failed).unwrap();
    let body = ok(&emu, &format!("/v1/chains/{C}/transactions/{}", fine.hash)).await;
    assert_eq!(body["nativeTransaction"]["txStatus"], "1");
    let dep = txs.iter().find(|t| t.contract_address.is_some()).unwrap();
    let body = ok(&emu, &format!("/v1/chains/{C}/transactions/{}", dep.hash)).await;
    assert_eq!(body["internalTransactions"][0]["internalTxType"], "CREATE");
    assert_eq!(body["internalTransactions"][0]["to"]["address"].as_str(), dep.contract_address.as_deref());
    let spam = TOKENS[SPAM_TOKEN].address;
    let body = ok(&emu, &format!("/v1/chains/{C}/tokens/{spam}/transfers?pageSize=5")).await;
    let values: Vec<&str> =
        body["transfers"].as_array().unwrap().iter().map(|t| t["value"].as_str().unwrap()).collect();
    assert_eq!(values, [SPAM_VALUE; 5]);
    let mint = txs.iter().find(|t| t.nft.is_some()).unwrap();
    let body = ok(&emu, &format!("/v1/chains/{C}/addresses/{}/transactions:listErc721?pageSize=100", mint.from)).await;
    let listed = body["transactions"].as_array().unwrap();
    let item = listed.iter().find(|t| t["txHash"] == mint.hash.as_str()).expect("the mint is listed");
    assert_eq!(item["erc721Token"]["tokenId"], mint.nft.as_ref().unwrap().token_id.to_string());
    assert_eq!(item["from"]["address"], format!("0x{}", "0".repeat(40)));
    emu.stop().await;
}
