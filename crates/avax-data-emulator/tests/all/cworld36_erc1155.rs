//! The world's ERC-1155 collection (issue 36, section 5): its mints and resales are real
//! `C/block` transactions (the contract called with the ABI-encoded call, in the container the
//! index serves), each emitting one `TransferSingle`/`TransferBatch` log, and the Data API's
//! `listErc1155Transactions`, `listErc1155Balances` and collectibles answer from those logs,
//! coherent with each other.

use std::collections::{BTreeMap, HashMap};

use avax_data_core::decode::cchain::decode_block;
use avax_data_core::index::IndexPath;
use avax_data_emulator::formats::coreth::Tx as CorethTx;
use avax_data_emulator::formats::{fill, Source};
use avax_data_emulator::world::erc1155::{
    Erc1155Item, ITEMS, MINT_BATCH_SELECTOR, MINT_SELECTOR, SAFE_BATCH_TRANSFER_SELECTOR, SAFE_TRANSFER_SELECTOR,
    TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC,
};
use avax_data_emulator::world::nft::contracts;
use avax_data_emulator::world::{chain, pool_address, DataWorld};
use avax_data_emulator::{Emulator, EmulatorConfig};
use serde_json::Value;

use crate::common::{all_pages, ok};

const C: u64 = 43114;
const SEED: u64 = 5;
const BLOCKS: u64 = 3_000;

fn input(tx: &CorethTx) -> &[u8] {
    match tx {
        CorethTx::Legacy { data, .. } | CorethTx::DynamicFee { data, .. } => data,
    }
}

/// The `uint256` words of an ABI encoding (after a selector, if any), as u64 (all of ours fit).
fn words(bytes: &[u8]) -> Vec<u64> {
    bytes.chunks(32).map(|w| u64::from_be_bytes(w[24..].try_into().unwrap())).collect()
}

#[test]
fn cworld36_every_erc1155_item_is_a_log_of_a_c_block_transaction() {
    let world = DataWorld::new(SEED, BLOCKS);
    let c = chain(C).unwrap();
    let ledger = world.erc1155_ledger(c);
    let items = ledger.items();
    let contract = contracts(c)[ITEMS].0.clone();
    let source = Source::new(SEED, BLOCKS);
    let mut by_log: BTreeMap<(u64, u32), Vec<&Erc1155Item>> = BTreeMap::new();
    for item in items {
        by_log.entry((item.number, item.log_index)).or_default().push(item);
    }
    let (mut mints, mut resales, mut batches) = (0, 0, 0);
    let mut container = Vec::new();
    for ((number, log_index), group) in &by_log {
        let first = group[0];
        assert!(group.iter().all(|t| (t.index, t.from, t.to) == (first.index, first.from, first.to)));
        // The transaction is in the container the index serves at that height, by hash.
        fill(source, IndexPath::CBlock, *number, &mut container);
        let inner = if *number < 48 { &container[..] } else { inner_block(&container) };
        let decoded = decode_block(inner).expect("a coreth block");
        let (_, hash) = world.tx_facts_and_hash(c, *number, first.index);
        let in_block = &decoded.transactions[first.index as usize];
        assert_eq!(format!("0x{}", hex::encode(in_block.hash)), hash, "block {number}");
        assert_eq!(format!("0x{}", hex::encode(in_block.to.unwrap())), contract, "the collection is called");
        assert_eq!(in_block.value, 0);
        // The Data API's transaction carries the log, at that index, with the right topics and data.
        let tx = &world.transactions(c, *number).unwrap()[first.index as usize];
        assert_eq!((tx.hash.as_str(), tx.to.as_deref(), tx.failed), (hash.as_str(), Some(contract.as_str()), false));
        let log = tx.erc1155.as_ref().expect("the log");
        assert_eq!((log.log_index, log.contract.as_str()), (*log_index, contract.as_str()));
        let call = log.call;
        assert_eq!(call.len as usize, group.len(), "one item per id moved");
        let topics = call.topics();
        assert_eq!(topics[0], if call.batch { TRANSFER_BATCH_TOPIC } else { TRANSFER_SINGLE_TOPIC });
        assert_eq!(format!("0x{}", hex::encode(&topics[1][12..])), tx.from, "the operator is the sender");
        let zero = first.from.is_none();
        assert_eq!(topics[2][12..] == [0; 20], zero, "from is zero for a mint");
        if let Some(from) = first.from {
            assert_eq!(format!("0x{}", hex::encode(&topics[2][12..])), pool_address(from));
            assert_eq!(pool_address(from), tx.from, "the holder sends its resale");
        }
        assert_eq!(format!("0x{}", hex::encode(&topics[3][12..])), pool_address(first.to));
        let data = words(&call.log_data());
        let ids: Vec<u64> = group.iter().map(|t| u64::from(t.token_id)).collect();
        let values: Vec<u64> = group.iter().map(|t| u64::from(t.value)).collect();
        if call.batch {
            batches += 1;
            let n = ids.len();
            assert_eq!(data[..3], [64, 64 + 32 * (n as u64 + 1), n as u64]);
            assert_eq!(data[3..3 + n], ids[..]);
            assert_eq!(data[4 + n..], values[..]);
        } else {
            assert_eq!(data, [ids[0], values[0]]);
        }
        // The input in the block is the call: its selector and arguments.
        let coreth = world.evm_chain(c).txs(*number);
        let raw = input(&coreth[first.index as usize]);
        assert_eq!(in_block.input_len as usize, raw.len());
        let args = words(&raw[4..]);
        match (zero, call.batch) {
            (true, false) => {
                mints += 1;
                assert_eq!(raw[..4], MINT_SELECTOR);
                assert_eq!(args, [args[0], ids[0], values[0], 128, 0]);
            }
            (true, true) => {
                mints += 1;
                assert_eq!(raw[..4], MINT_BATCH_SELECTOR);
                assert_eq!(args[4..5 + ids.len()], [&[ids.len() as u64][..], &ids].concat());
            }
            (false, false) => {
                resales += 1;
                assert_eq!(raw[..4], SAFE_TRANSFER_SELECTOR);
                assert_eq!(args[2..], [ids[0], values[0], 160, 0]);
            }
            (false, true) => {
                resales += 1;
                assert_eq!(raw[..4], SAFE_BATCH_TRANSFER_SELECTOR);
                assert_eq!(args[5..6 + ids.len()], [&[ids.len() as u64][..], &ids].concat());
            }
        }
    }
    assert!(mints > 200 && resales > 60 && batches > 40, "{mints} mints, {resales} resales, {batches} batches");
    // A failed resale emits nothing: its transaction is in the block, the ledger has no item of it.
    let failed = (0..BLOCKS)
        .flat_map(|n| world.transactions(c, n).unwrap())
        .filter(|t| t.failed && t.to.as_deref() == Some(contract.as_str()))
        .count();
    assert!(failed > 0, "some resales fail");
}

/// The inner coreth block of a proposervm envelope (the core's parser).
fn inner_block(container: &[u8]) -> &[u8] {
    avax_data_core::decode::proposervm::parse(container).expect("an envelope").inner
}

#[test]
fn cworld36_balances_are_the_sum_of_the_transfers_and_never_negative() {
    let world = DataWorld::new(SEED, BLOCKS);
    let c = chain(C).unwrap();
    let ledger = world.erc1155_ledger(c);
    let mut running: HashMap<(u64, u32), i128> = HashMap::new();
    for t in ledger.items() {
        *running.entry((t.to, t.token_id)).or_default() += i128::from(t.value);
        if let Some(from) = t.from {
            let left = running.entry((from, t.token_id)).or_default();
            *left -= i128::from(t.value);
            assert!(*left >= 0, "{from} sent more of {} than it held in block {}", t.token_id, t.number);
        }
    }
    for i in 0..c.address_pool {
        let expected: Vec<(u32, u128)> =
            (1..=24).filter_map(|id| running.get(&(i, id)).filter(|&&b| b > 0).map(|&b| (id, b as u128))).collect();
        assert_eq!(ledger.balances(i, world.tip()), expected, "pool address {i}");
        let held: Vec<(u128, u128)> = world
            .collectibles(c, &pool_address(i))
            .into_iter()
            .filter(|x| x.contract == contracts(c)[ITEMS].0)
            .map(|x| (x.token_id, x.balance.unwrap()))
            .collect();
        assert_eq!(held, expected.iter().map(|&(id, b)| (u128::from(id), b)).collect::<Vec<_>>());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cworld36_the_data_api_lists_transfers_balances_and_collectibles_from_the_logs() {
    let emu = Emulator::start(EmulatorConfig { seed: SEED, data_blocks_per_chain: BLOCKS, ..Default::default() })
        .await
        .expect("emulator starts");
    // The emulator's C-Chain timeline spans its `C/block` index (the default length).
    let world = DataWorld::with_c_span(SEED, BLOCKS, avax_data_emulator::defaults::CONTAINERS);
    let c = chain(C).unwrap();
    let ledger = world.erc1155_ledger(c);
    let items_contract = contracts(c)[ITEMS].0.clone();
    // The busiest holder and one address with a batch.
    let holder = 0;
    let address = pool_address(holder);
    let base = format!("/v1/chains/{C}/addresses/{address}");
    let (listed, pages) = all_pages(&emu, &format!("{base}/transactions:listErc1155?pageSize=7"), "transactions").await;
    let mine: Vec<&Erc1155Item> =
        ledger.items().iter().rev().filter(|t| t.to == holder || t.from == Some(holder)).collect();
    assert!(mine.len() > 14 && pages > 2, "{} items", mine.len());
    assert_eq!(listed.len(), mine.len());
    let key = |v: &Value| {
        (
            v["blockNumber"].as_str().unwrap().parse::<u64>().unwrap(),
            v["logIndex"].as_u64().unwrap() as u32,
            v["erc1155Token"]["tokenId"].as_str().unwrap().parse::<u32>().unwrap(),
        )
    };
    let numbers: Vec<(u64, u32)> = listed.iter().map(|v| (key(v).0, key(v).1)).collect();
    assert!(numbers.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let mut in_ledger: Vec<(u64, u32, u32)> = mine.iter().map(|t| (t.number, t.log_index, t.token_id)).collect();
    let mut got: Vec<(u64, u32, u32)> = listed.iter().map(key).collect();
    in_ledger.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, in_ledger);
    let zero = format!("0x{}", "0".repeat(40));
    for v in &listed {
        let (number, _, _) = key(v);
        assert_eq!(v["blockHash"].as_str().unwrap(), world.block_hash(c, number));
        assert_eq!(v["erc1155Token"]["address"], items_contract.as_str());
        assert_eq!(v["erc1155Token"]["ercType"], "ERC-1155");
        let tx =
            world.transactions(c, number).unwrap().into_iter().find(|t| t.hash == v["txHash"]).expect("in its block");
        let log = tx.erc1155.expect("a log");
        assert_eq!(u64::from(log.log_index), v["logIndex"].as_u64().unwrap());
        let from = v["from"]["address"].as_str().unwrap();
        assert_eq!(from == zero, log.call.from.is_none());
        assert!(from == address || v["to"]["address"] == address.as_str());
    }
    // A block range: startBlock inclusive, endBlock exclusive.
    let (low, high) = (1_000, 2_000);
    let (ranged, _) = all_pages(
        &emu,
        &format!("{base}/transactions:listErc1155?pageSize=100&startBlock={low}&endBlock={high}"),
        "transactions",
    )
    .await;
    let expected = mine.iter().filter(|t| (low..high).contains(&t.number)).count();
    assert_eq!(ranged.len(), expected);
    assert!(ranged.iter().all(|v| (low..high).contains(&key(v).0)));
    // Balances: the sum of the transfers, now and at an earlier block; the collectibles agree.
    let sum = |upto: u64| -> BTreeMap<u32, i128> {
        let mut b = BTreeMap::new();
        for t in mine.iter().filter(|t| t.number <= upto) {
            let sign = if t.to == holder { 1 } else { -1 };
            *b.entry(t.token_id).or_default() += sign * i128::from(t.value);
        }
        b.retain(|_, v| *v != 0);
        b
    };
    for upto in [world.tip(), 1_500] {
        let (balances, _) = all_pages(
            &emu,
            &format!("{base}/balances:listErc1155?pageSize=5&blockNumber={upto}&contractAddress={items_contract}"),
            "erc1155TokenBalances",
        )
        .await;
        let got: BTreeMap<u32, i128> = balances
            .iter()
            .map(|b| (b["tokenId"].as_str().unwrap().parse().unwrap(), b["balance"].as_str().unwrap().parse().unwrap()))
            .collect();
        assert_eq!(got, sum(upto), "after block {upto}");
    }
    let (collectibles, _) =
        all_pages(&emu, &format!("{base}/balances:listCollectibles?pageSize=100"), "collectibleBalances").await;
    let from_collectibles: BTreeMap<u32, i128> = collectibles
        .iter()
        .filter(|b| b["address"] == items_contract.as_str())
        .map(|b| (b["tokenId"].as_str().unwrap().parse().unwrap(), b["balance"].as_str().unwrap().parse().unwrap()))
        .collect();
    assert_eq!(from_collectibles, sum(world.tip()));
    // An address outside the pool has none.
    let stranger = ok(&emu, &format!("/v1/chains/{C}/addresses/0x{}/transactions:listErc1155", "ab".repeat(20))).await;
    assert_eq!(stranger["transactions"], serde_json::json!([]));
    emu.shutdown();
}
