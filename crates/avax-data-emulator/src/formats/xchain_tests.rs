//! Tests of the X-chain encoders: the Index API doc containers and the avm CreateAssetTx vector
//! re-encoded from their field values, generated txs and blocks walked independently.

use std::collections::BTreeMap;

use serde_json::Value;

use super::avax_codec::{self as codec, Atomic};
use super::test_json::{self as tj, vector};
use super::walk;
use super::xchain::{dag_tx, encode_standard_block, standard_block, x_tx, XTx};
use avax_data_core::decode::xchain::{InitialState, XTxBody};

fn from_decoded(d: &Value) -> XTx {
    let u = &d["unsignedTx"];
    let type_id = u["typeID"].as_u64().unwrap() as u32;
    let body = match type_id {
        0 => XTxBody::Base,
        1 => XTxBody::CreateAsset {
            name: u["name"].as_str().unwrap().to_string(),
            symbol: u["symbol"].as_str().unwrap().to_string(),
            denomination: u["denomination"].as_u64().unwrap() as u8,
            initial_states: u["initialStates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| InitialState {
                    fx_index: s["fxIndex"].as_u64().unwrap() as u32,
                    outputs: tj::outputs(&add_asset(&s["outputs"])).into_iter().map(|o| o.output).collect(),
                })
                .collect(),
        },
        4 => XTxBody::Atomic(Atomic::Export {
            destination_chain: tj::id(&u["destinationChain"]),
            outputs: tj::outputs(&u["exportedOutputs"]),
        }),
        t => panic!("type {t}"),
    };
    x_tx(type_id, tj::base(u), body, tj::credentials(&d["credentials"]))
}

/// Initial-state outputs have no asset ID; give them one so the shared JSON reader takes them.
fn add_asset(outputs: &Value) -> Value {
    let mut v = outputs.clone();
    for o in v.as_array_mut().unwrap() {
        o["assetID"] = Value::from("11111111111111111111111111111111LpoYY");
    }
    v
}

#[test]
fn doc_containers_and_create_asset_vector_are_reproduced() {
    for name in [
        "Index API doc: local-network /ext/index/X/tx index 0 (avm.ExportTx) -- the container in the Index RPC spec",
        "Index API doc: Mainnet /ext/index/X/tx index 1 (avm.BaseTx)",
        "TestCreateAssetTxSerialization",
    ] {
        let v = vector("xchain_txs", name);
        let tx = from_decoded(&v["decoded"]);
        assert_eq!(hex::encode(tx.standalone()), v["hex"].as_str().unwrap(), "{name}");
        assert_eq!(codec::sha256(&tx.standalone()), tj::id(&v["decoded"]["txID"]), "{name}");
        assert_eq!(codec::tx_id(&tx.bytes()), tj::id(&v["decoded"]["txID"]), "{name}");
    }
}

#[test]
fn constructed_standard_block_is_reproduced() {
    let v = vector("constructed_examples", "X-Chain avm.StandardBlock (typeID 20) carrying the two Index-API doc txs");
    let e = &v["expected"];
    let txs: Vec<Vec<u8>> = [
        "Index API doc: Mainnet /ext/index/X/tx index 1 (avm.BaseTx)",
        "Index API doc: local-network /ext/index/X/tx index 0 (avm.ExportTx) -- the container in the Index RPC spec",
    ]
    .iter()
    .map(|n| from_decoded(&vector("xchain_txs", n)["decoded"]).bytes())
    .collect();
    let parent: [u8; 32] = tj::hexv(&e["parentID_hex"]).try_into().unwrap();
    let block = encode_standard_block(&parent, e["height"].as_u64().unwrap(), e["time"].as_u64().unwrap(), &txs);
    assert_eq!(hex::encode(&block), v["hex"].as_str().unwrap());
    let (_, _, spans) = walk::x_block(&block);
    let ids: Vec<[u8; 32]> = spans.iter().map(|s| codec::tx_id(&block[s.start..s.end])).collect();
    let want: Vec<[u8; 32]> = e["txIDs"].as_array().unwrap().iter().map(tj::id).collect();
    assert_eq!(ids, want);
}

#[test]
fn dag_txs_walk_cleanly_with_a_realistic_mix_and_size() {
    let mut types = BTreeMap::new();
    let mut total = 0;
    for i in 0..3000 {
        let tx = dag_tx(9, i);
        let span = walk::x_tx(&tx);
        *types.entry(span.type_id).or_insert(0) += 1;
        assert!((250..=700).contains(&tx.len()), "tx {i}: {} bytes", tx.len());
        assert_eq!(codec::sha256(&tx), codec::tx_id(&tx[2..]));
        total += tx.len();
    }
    assert_eq!(types.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4], "{types:?}");
    assert!(types[&0] > 1200 && types[&1] > 100, "{types:?}");
    let mean = total / 3000;
    assert!((330..520).contains(&mean), "mean X tx {mean}");
    assert_eq!(dag_tx(9, 5), dag_tx(9, 5));
    assert_ne!(dag_tx(9, 5), dag_tx(9, 6));
    assert_ne!(dag_tx(9, 5), dag_tx(10, 5));
}

#[test]
fn standard_blocks_walk_cleanly_and_ids_match() {
    let mut counts = BTreeMap::new();
    for h in 0..400u64 {
        let parent = codec::sha256(&h.to_be_bytes());
        let b = standard_block(4, h, parent, 1_700_000_000 + h);
        assert_eq!(b.id, codec::sha256(&b.bytes));
        assert_eq!(&b.bytes[6..38], &parent);
        let (height, time, spans) = walk::x_block(&b.bytes);
        assert_eq!((height, time), (h, 1_700_000_000 + h));
        let ids: Vec<[u8; 32]> =
            spans.iter().map(|s| codec::sha256(&codec::with_version(&b.bytes[s.start..s.end]))).collect();
        assert_eq!(ids, b.tx_ids);
        *counts.entry(spans.len()).or_insert(0) += 1;
        assert_eq!(b, standard_block(4, h, parent, 1_700_000_000 + h));
        assert_ne!(b.bytes, standard_block(4, h + 1, parent, 1_700_000_000 + h).bytes);
    }
    assert_eq!(counts.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
}

/// The emulator's signed tx of what the core decoded.
fn rebuilt(tx: avax_data_core::decode::xchain::XTx) -> XTx {
    x_tx(tx.type_id, tx.base, tx.body, tx.credentials.unwrap())
}

#[test]
fn published_and_generated_x_txs_decode_and_write_back_to_their_bytes() {
    use avax_data_core::decode::xchain as xdecode;
    let path = format!("{}/../../tests/data/decode/xchain_txs.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let published = doc["vectors"].as_array().unwrap().iter().map(|v| tj::hexv(&v["hex"]));
    let mut types = BTreeMap::new();
    for raw in published.chain((0..300).map(|i| dag_tx(3, i))) {
        let tx = xdecode::decode_tx(&raw).unwrap();
        *types.entry(tx.type_id).or_insert(0) += 1;
        assert_eq!(hex::encode(rebuilt(tx).standalone()), hex::encode(&raw));
    }
    assert_eq!(types.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4], "{types:?}");
    let block = standard_block(3, 9, [1; 32], 1_700_000_000);
    let txs: Vec<Vec<u8>> =
        xdecode::decode_block(&block.bytes).unwrap().txs.into_iter().map(|t| rebuilt(t).bytes()).collect();
    assert_eq!(encode_standard_block(&[1; 32], 9, 1_700_000_000, &txs), block.bytes);
}
