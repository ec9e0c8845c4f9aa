//! Tests of [`super::select`]: selections of the C/block frame (values equal to the full
//! decode's, in the order given), the hashes each needs, the blocks decoded without hashes, and
//! the refusals.

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};

use super::frame::{decode_c_container, decode_c_container_with};
use super::select::Selection;
use super::{decode_bytes, decoded_schema_for, DecodeMode};
use crate::decode::cchain::Hashes;
use crate::index::IndexPath;

/// The coreth blocks of the fixtures (raw blocks: pre-fork rows of the C/block frame).
fn blocks() -> Vec<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let blocks: Vec<Vec<u8>> = doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| hex::decode(v["hex"].as_str()?).ok())
        .filter(|b| decode_c_container(b).inner.is_ok_and(|b| !b.transactions.is_empty()))
        .collect();
    assert!(blocks.len() >= 2, "fixture blocks with transactions");
    blocks
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn full_batch(blocks: &[Vec<u8>]) -> RecordBatch {
    decode_bytes(IndexPath::CBlock, blocks.iter().map(Vec::as_slice), DecodeMode::Strict).unwrap()
}

#[test]
fn a_selection_hands_out_the_full_decodes_values_in_the_order_given() {
    let blocks = blocks();
    let full = full_batch(&blocks);
    let selection =
        Selection::new(&full.schema(), &names(&["transactions.to", "number", "transactions.value", "hash"])).unwrap();
    let out = selection.project(&full).unwrap();
    let schema = out.schema();
    let top: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(top, ["transactions", "number", "hash"], "in the order of first mention");
    assert_eq!(out.column(1), full.column_by_name("number").unwrap());
    assert_eq!(out.column(2), full.column_by_name("hash").unwrap());
    let (got, want) = (out.column(0).as_list::<i32>(), full.column_by_name("transactions").unwrap().as_list::<i32>());
    assert_eq!(got.offsets(), want.offsets());
    let (got, want) = (got.values().as_struct(), want.values().as_struct());
    let fields: Vec<&str> = got.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(fields, ["to", "value"]);
    assert_eq!(got.column(0), want.column_by_name("to").unwrap());
    assert_eq!(got.column(1), want.column_by_name("value").unwrap());
    assert_eq!(out.schema(), selection.schema());
    assert!(got.len() > 0);
}

#[test]
fn the_hashes_a_selection_needs() {
    let schema = decoded_schema_for(IndexPath::CBlock, DecodeMode::Lenient).unwrap();
    let hashes = |list: &[&str]| Selection::new(&schema, &names(list)).unwrap().hashes();
    let none = Hashes { block: false, transactions: false };
    assert_eq!(hashes(&["number", "transactions.to", "transactions.value"]), none);
    assert_eq!(hashes(&["number", "tx_count", "gas_used"]), none);
    assert_eq!(hashes(&["hash"]), Hashes { block: true, transactions: false });
    assert_eq!(hashes(&["inner_id"]), Hashes { block: true, transactions: false }, "a C-chain block's id is its hash");
    assert_eq!(hashes(&["transactions"]), Hashes { block: false, transactions: true });
    assert_eq!(hashes(&["transactions.hash", "number"]), Hashes { block: false, transactions: true });
    let senders = decoded_schema_for(IndexPath::CBlock, DecodeMode::Senders).unwrap();
    let from = Selection::new(&senders, &names(&["transactions.from", "number"])).unwrap();
    assert_eq!(from.hashes(), none, "senders need the signing hash, not the transaction's");
}

#[test]
fn blocks_decoded_without_hashes_equal_the_full_decode_but_for_the_hashes() {
    for bytes in blocks() {
        let full = decode_c_container(&bytes).inner.unwrap();
        for hashes in [
            Hashes { block: false, transactions: false },
            Hashes { block: true, transactions: false },
            Hashes { block: false, transactions: true },
        ] {
            let mut lazy = decode_c_container_with(&bytes, hashes).inner.unwrap();
            assert_eq!(lazy.hash == full.hash, hashes.block);
            assert!(hashes.block || lazy.hash == [0; 32]);
            for (tx, want) in lazy.transactions.iter().zip(&full.transactions) {
                assert_eq!(tx.hash == want.hash, hashes.transactions);
            }
            lazy.hash = full.hash;
            lazy.transactions.iter_mut().zip(&full.transactions).for_each(|(t, w)| t.hash = w.hash);
            assert_eq!(lazy, full, "{hashes:?}");
        }
    }
}

#[test]
fn refusals_name_the_column_and_what_is_allowed() {
    let schema = decoded_schema_for(IndexPath::CBlock, DecodeMode::Lenient).unwrap();
    let refuse = |list: &[&str]| Selection::new(&schema, &names(list)).unwrap_err().to_string();
    let err = refuse(&["number", "gas_usd"]);
    assert!(err.starts_with("invalid columns=\"gas_usd\": one of id, timestamp, index, "), "{err}");
    assert!(err.ends_with("(did you mean 'gas_used'?)"), "{err}");
    let err = refuse(&["transactions.hsh"]);
    assert!(
        err.starts_with("invalid columns=\"transactions.hsh\": a field of transactions: one of block_number"),
        "{err}"
    );
    assert!(err.ends_with("(did you mean 'hash'?)"), "{err}");
    assert!(refuse(&["number.x"]).starts_with("invalid columns=\"number.x\": one of id,"), "number is no list");
    for twice in
        [&["number", "number"][..], &["transactions", "transactions.to"], &["transactions.to", "transactions.to"]]
    {
        let err = refuse(twice);
        assert!(err.contains("each column once"), "{twice:?}: {err}");
    }
    assert!(refuse(&[]).starts_with("invalid columns=[]: a list of at least one of id, timestamp"));
}
