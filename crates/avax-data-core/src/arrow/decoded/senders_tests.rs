//! `decode="senders"`: the `from` field of each transaction, against the senders the decoder's
//! own recovery gives for the coreth fixture blocks, and the refusals.

use arrow_array::cast::AsArray;
use arrow_array::Array;
use serde_json::Value;

use super::frame::{bytes_schema, check_mode, decode_bytes, decoded_schema_for, DecodeMode};
use super::senders::{senders_schema, FROM};
use crate::decode::senders::block_senders;
use crate::error::Error;
use crate::index::IndexPath;

fn fixture(name_prefix: &str) -> Vec<Vec<u8>> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json"))
            .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["name"].as_str().unwrap().starts_with(name_prefix))
        .map(|v| hex::decode(v["hex"].as_str().unwrap().trim_start_matches("0x")).unwrap())
        .collect()
}

/// The `from` values of each row's transactions (`None` for a row without transactions).
fn froms(batch: &arrow_array::RecordBatch) -> Vec<Option<Vec<String>>> {
    let list = batch.column_by_name("transactions").unwrap().as_list::<i32>();
    (0..list.len())
        .map(|r| {
            list.is_valid(r).then(|| {
                let txs = list.value(r);
                let from = txs.as_struct().column_by_name(FROM).unwrap().as_string_view().clone();
                (0..from.len()).map(|i| from.value(i).to_string()).collect()
            })
        })
        .collect()
}

#[test]
fn each_transaction_carries_the_sender_its_signature_gives() {
    let mut blocks = fixture("synchronoustest");
    assert!(blocks.len() >= 4);
    blocks.push(vec![1, 2, 3]); // does not decode: its row stays, without transactions
    let batch = decode_bytes(IndexPath::CBlock, blocks.iter().map(Vec::as_slice), DecodeMode::Senders).unwrap();
    assert_eq!(batch.schema(), senders_schema(&bytes_schema(IndexPath::CBlock).unwrap()).unwrap());
    let got = froms(&batch);
    assert_eq!(got.len(), blocks.len());
    assert_eq!(got.last().unwrap(), &None);
    let mut total = 0;
    for (bytes, from) in blocks.iter().zip(&got).take(blocks.len() - 1) {
        let expected: Vec<String> =
            block_senders(bytes).unwrap().iter().map(|a| format!("0x{}", hex::encode(a))).collect();
        total += expected.len();
        assert_eq!(from.as_ref().unwrap(), &expected);
    }
    assert!(total >= 5, "{total}");
    // `from` sits right after `hash`; the other fields are those of decode=True.
    let lenient = decode_bytes(IndexPath::CBlock, blocks.iter().map(Vec::as_slice), DecodeMode::Lenient).unwrap();
    let names = |b: &arrow_array::RecordBatch| {
        let list = b.column_by_name("transactions").unwrap().as_list::<i32>();
        list.values().as_struct().column_names().iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let mut with = names(&lenient);
    let at = with.iter().position(|n| n == "hash").unwrap() + 1;
    with.insert(at, FROM.to_string());
    assert_eq!(names(&batch), with);
    assert_eq!(batch.column_by_name("tx_count").unwrap(), lenient.column_by_name("tx_count").unwrap());
}

#[test]
fn an_invalid_signature_fails_the_batch_naming_the_item_and_the_transaction() {
    let bad = fixture("TestEIP1559BlockEncoding");
    let err = decode_bytes(IndexPath::CBlock, bad.iter().map(Vec::as_slice), DecodeMode::Senders).unwrap_err();
    match err {
        Error::ContainerDecode { position, message, .. } => {
            assert_eq!(position, "item 0");
            assert!(message.contains("transaction 0 (0x77b19baa") && message.contains("curve order"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // decode=True keeps the row: senders are opt-in.
    assert!(decode_bytes(IndexPath::CBlock, bad.iter().map(Vec::as_slice), DecodeMode::Lenient).is_ok());
}

#[test]
fn senders_are_refused_off_c_block_and_the_values_are_named() {
    for path in [IndexPath::PBlock, IndexPath::XBlock, IndexPath::XTx] {
        let err = check_mode(path, DecodeMode::Senders).unwrap_err().to_string();
        assert!(err.contains("decode") && err.contains("'senders'") && err.contains("only on C/block"), "{err}");
        assert!(decoded_schema_for(path, DecodeMode::Senders).is_err());
        assert!(check_mode(path, DecodeMode::Strict).is_ok());
    }
    assert!(check_mode(IndexPath::CBlock, DecodeMode::Senders).is_ok());
    assert_eq!(DecodeMode::parse("senders").unwrap(), DecodeMode::Senders);
    assert_eq!(DecodeMode::parse("strict").unwrap(), DecodeMode::Strict);
    let err = DecodeMode::parse("sender").unwrap_err().to_string();
    assert!(err.contains("decode") && err.contains("\"sender\"") && err.contains("'senders'"), "{err}");
}
