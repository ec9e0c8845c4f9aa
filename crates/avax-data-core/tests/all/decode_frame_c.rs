//! The C/block frame against the published coreth vectors (`tests/data/decode/cchain_blocks.json`)
//! and against itself: its rows hold the published block hashes, fields and transaction hashes;
//! a column selection's frame (decoded without the hashes it does not hand out) equals the same
//! columns of the full frame; and blocks decoded one after another into one reused block (as a
//! walk decodes a batch) equal blocks decoded each on its own, whatever came before them (a
//! block that failed half way included).

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal128Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use avax_data_core::arrow::decoded::{decode_containers, decode_containers_with, DecodeMode, Selection};
use avax_data_core::decode::cchain::{self, CBlock, Hashes};
use avax_data_core::decode::rlp::Items;
use avax_data_core::index::{Container, IndexPath};
use avax_data_emulator::formats::random::container;
use serde_json::Value;

/// The published blocks with transactions: (name, bytes, the vector's `decoded` part).
fn published() -> Vec<(String, Vec<u8>, Value)> {
    let path = format!("{}/../../tests/data/decode/cchain_blocks.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let out: Vec<_> = doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["decoded"].get("transactions").is_some() && v["decoded"].get("header").is_some())
        .map(|v| {
            let name = v["name"].as_str().unwrap().to_string();
            (name, hex::decode(v["hex"].as_str().unwrap()).unwrap(), v["decoded"].clone())
        })
        .collect();
    assert_eq!(out.len(), 16, "the published coreth blocks");
    out
}

fn containers_of(blocks: &[Vec<u8>]) -> Vec<Container> {
    blocks
        .iter()
        .enumerate()
        .map(|(k, bytes)| Container {
            id: format!("id{k}"),
            bytes: bytes.clone(),
            timestamp_ns: k as i64,
            index: k as u64,
            encoding: "hex".into(),
        })
        .collect()
}

fn num(v: &Value) -> u128 {
    match v {
        Value::String(s) => s.parse().unwrap(),
        other => other.as_u64().unwrap() as u128,
    }
}

#[test]
fn the_full_frame_holds_the_published_hashes_fields_and_transactions() {
    let vectors = published();
    let blocks: Vec<Vec<u8>> = vectors.iter().map(|(_, b, _)| b.clone()).collect();
    let frame = decode_containers(IndexPath::CBlock, &containers_of(&blocks), DecodeMode::Strict).unwrap();
    assert_eq!(frame.num_rows(), vectors.len());
    let text = |name: &str| frame.column_by_name(name).unwrap().as_string_view().clone();
    let (hash, parent, inner_id) = (text("hash"), text("parent_hash"), text("inner_id"));
    let number = frame.column_by_name("number").unwrap().as_primitive::<UInt64Type>().clone();
    let gas_used = frame.column_by_name("gas_used").unwrap().as_primitive::<UInt64Type>().clone();
    let base_fee = frame.column_by_name("base_fee").unwrap().as_primitive::<Decimal128Type>().clone();
    let txs = frame.column_by_name("transactions").unwrap().as_list::<i32>().clone();
    let mut published_txs = 0;
    for (row, (name, bytes, decoded)) in vectors.iter().enumerate() {
        let h = &decoded["header"];
        assert_eq!(hash.value(row), h["hash"].as_str().unwrap(), "{name}");
        assert_eq!(parent.value(row), h["parentHash"].as_str().unwrap(), "{name}");
        assert_eq!(u128::from(number.value(row)), num(&h["number"]), "{name}");
        assert_eq!(u128::from(gas_used.value(row)), num(&h["gasUsed"]), "{name}");
        match h.get("baseFeePerGas") {
            Some(fee) => assert_eq!(base_fee.value(row) as u128, num(fee), "{name}"),
            None => assert!(base_fee.is_null(row), "{name}"),
        }
        // A raw (pre-fork) block's inner id is the CB58 text of its hash.
        let raw_hash: [u8; 32] = hex::decode(&h["hash"].as_str().unwrap()[2..]).unwrap().try_into().unwrap();
        assert_eq!(inner_id.value(row), avax_data_core::index::cb58::encode(&raw_hash), "{name}");
        let listed = txs.value(row);
        let listed = listed.as_struct();
        let tx_hash = listed.column_by_name("hash").unwrap().as_string_view();
        let tx_type = listed.column_by_name("type").unwrap().as_primitive::<UInt8Type>();
        let position = listed.column_by_name("position").unwrap().as_primitive::<arrow_array::types::UInt32Type>();
        let block_number = listed.column_by_name("block_number").unwrap().as_primitive::<UInt64Type>();
        let reference = decoded["transactions"].as_array().unwrap();
        assert_eq!(listed.len(), reference.len(), "{name}");
        for (k, tx) in reference.iter().enumerate() {
            assert_eq!(tx_hash.value(k), tx["hash"].as_str().unwrap(), "{name} tx {k}");
            assert_eq!(u64::from(tx_type.value(k)), tx["type"].as_u64().unwrap(), "{name} tx {k}");
            assert_eq!(position.value(k) as usize, k, "{name}");
            assert_eq!(block_number.value(k), number.value(row), "{name}");
            published_txs += 1;
        }
        // The frame's row is the block the struct decoder gives.
        let block = cchain::decode_block(bytes).unwrap();
        assert_eq!(listed.len(), block.transactions.len(), "{name}");
    }
    assert!(published_txs >= 16, "{published_txs} published transactions");
}

/// The selections checked: without any hash, with the block hash only, with the transactions'
/// hashes only, and with both (one through `inner_id`).
const SELECTIONS: [&[&str]; 5] = [
    &["index", "number", "time", "gas_used", "base_fee", "tx_count", "transactions.to", "transactions.value"],
    &["hash", "transactions.nonce", "transactions.gas_price"],
    &["transactions.hash", "number", "transactions.type"],
    &["inner_id", "transactions"],
    &["transactions.max_fee_per_gas", "decode_error", "block_kind", "proposervm_parent_id"],
];

fn selected_equal_full(containers: &[Container]) -> usize {
    let full = decode_containers(IndexPath::CBlock, containers, DecodeMode::Lenient).unwrap();
    for names in SELECTIONS {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let selection = Selection::new(&full.schema(), &names).unwrap();
        let lazy =
            decode_containers_with(IndexPath::CBlock, containers, DecodeMode::Lenient, selection.hashes()).unwrap();
        let (got, want): (RecordBatch, RecordBatch) =
            (selection.project(&lazy).unwrap(), selection.project(&full).unwrap());
        assert_eq!(got, want, "{names:?}");
        assert!(got.num_rows() == containers.len() && got.num_columns() > 0);
    }
    full.num_rows()
}

#[test]
fn a_selections_frame_equals_the_same_columns_of_the_full_frame() {
    let blocks: Vec<Vec<u8>> = published().into_iter().map(|(_, b, _)| b).collect();
    assert_eq!(selected_equal_full(&containers_of(&blocks)), 16);
    // The emulator's enveloped blocks (stateless, Granite, pre-fork), and one that does not decode.
    let mut containers: Vec<Container> = (0..300).map(|i| container(3, IndexPath::CBlock, i, 0).0).collect();
    let half = containers[17].bytes.len() / 2;
    containers[17].bytes.truncate(half);
    assert_eq!(selected_equal_full(&containers), 300);
    let full = decode_containers(IndexPath::CBlock, &containers, DecodeMode::Lenient).unwrap();
    let errors = full.column_by_name("decode_error").unwrap();
    assert_eq!(errors.null_count(), 299, "only the cut container fails");
    assert!(errors.is_valid(17));
    let Some(hashes) = Selection::new(&full.schema(), &["number".to_string()]).ok().map(|s| s.hashes()) else {
        panic!("a selection of number")
    };
    assert_eq!(hashes, Hashes { block: false, transactions: false });
}

#[test]
fn blocks_decoded_into_one_reused_block_equal_blocks_decoded_alone() {
    let vectors = published();
    let mut blocks: Vec<Vec<u8>> = vectors.iter().map(|(_, b, _)| b.clone()).collect();
    // Blocks of every header shape (16 to 24 fields, with and without a version), then a block
    // that fails half way through its transactions, in both orders.
    let (_, eip1559, _) = vectors.iter().find(|(name, ..)| name == "TestEIP1559BlockEncoding").unwrap();
    let mut broken = eip1559.clone();
    let second = {
        let mut top = Items::new(eip1559, 0);
        let mut block = top.list("block").unwrap();
        block.item("header").unwrap();
        let mut txs = block.list("transactions").unwrap();
        txs.item("first").unwrap();
        txs.item("second").unwrap()
    };
    assert!(!second.is_list && second.payload[0] == 2, "the second transaction is an EIP-1559 one");
    broken[second.payload_offset()] = 7;
    let err = cchain::decode_block(&broken).unwrap_err();
    assert!(err.message.starts_with("transaction 1: unknown transaction type 7"), "{err}");
    blocks.insert(5, broken);
    for order in [false, true] {
        if order {
            blocks.reverse();
        }
        let mut scratch = CBlock::empty();
        for bytes in &blocks {
            let alone = cchain::decode_block(bytes);
            match cchain::decode_block_into(bytes, Hashes::ALL, &mut scratch) {
                Ok(()) => assert_eq!(&scratch, alone.as_ref().unwrap()),
                Err(e) => assert_eq!(e, alone.unwrap_err()),
            }
        }
    }
}
