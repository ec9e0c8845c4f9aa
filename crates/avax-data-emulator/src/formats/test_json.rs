//! Test-only: field values of the decode vectors (`tests/data/decode/*.json`, their `decoded`
//! objects) turned into the writer's value types, so tests can re-encode the vectors.

use serde_json::Value;

use super::avax_codec::{
    BaseTx, Credential, Input, Output, OutputOwners, TransferableInput, TransferableOutput, Validator,
};
use avax_data_core::index::cb58;

/// The vector named `name` of `tests/data/decode/{file}.json`.
pub fn vector(file: &str, name: &str) -> Value {
    let path = format!("{}/../../tests/data/decode/{file}.json", env!("CARGO_MANIFEST_DIR"));
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all["vectors"].as_array().unwrap().iter().find(|v| v["name"] == name).unwrap_or_else(|| panic!("{name}")).clone()
}

/// A CB58 ID.
pub fn id(v: &Value) -> [u8; 32] {
    cb58::decode_id(v.as_str().unwrap()).unwrap()
}

/// A hex string (optional `0x`).
pub fn hexv(v: &Value) -> Vec<u8> {
    let s = v.as_str().unwrap();
    hex::decode(s.strip_prefix("0x").unwrap_or(s)).unwrap()
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap()
}

/// OutputOwners from `locktime`, `threshold`, `addresses_hex`.
pub fn owners(v: &Value) -> OutputOwners {
    OutputOwners {
        locktime: n(&v["locktime"]),
        threshold: n(&v["threshold"]) as u32,
        addresses: v["addresses_hex"].as_array().unwrap().iter().map(|a| hexv(a).try_into().unwrap()).collect(),
    }
}

fn output(v: &Value) -> Output {
    match n(&v["typeID"]) {
        7 => Output::Transfer { amount: n(&v["amount"]), owners: owners(v) },
        6 => Output::SecpMint { owners: owners(v) },
        22 => {
            let inner = &v["transferableOutput"];
            let transfer = Output::Transfer { amount: n(&inner["amount"]), owners: owners(inner) };
            Output::StakeableLock { locktime: n(&v["stakeableLocktime"]), output: Box::new(transfer) }
        }
        t => panic!("output {t}"),
    }
}

/// `[]TransferableOutput`.
pub fn outputs(v: &Value) -> Vec<TransferableOutput> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|o| TransferableOutput { asset_id: id(&o["assetID"]), output: output(o) })
        .collect()
}

fn sig_indices(v: &Value) -> Vec<u32> {
    v["signatureIndices"].as_array().unwrap().iter().map(|x| n(x) as u32).collect()
}

/// `[]TransferableInput`.
pub fn inputs(v: &Value) -> Vec<TransferableInput> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| TransferableInput {
            tx_id: id(&i["txID"]),
            output_index: n(&i["outputIndex"]) as u32,
            asset_id: id(&i["assetID"]),
            input: match n(&i["typeID"]) {
                5 => Input::Transfer { amount: n(&i["amount"]), sig_indices: sig_indices(i) },
                21 => {
                    let inner = &i["transferableInput"];
                    let transfer = Input::Transfer { amount: n(&inner["amount"]), sig_indices: sig_indices(inner) };
                    Input::StakeableLock { locktime: n(&i["stakeableLocktime"]), input: Box::new(transfer) }
                }
                t => panic!("input {t}"),
            },
        })
        .collect()
}

/// The BaseTx fields of an `unsignedTx` object.
pub fn base(u: &Value) -> BaseTx {
    BaseTx {
        network_id: n(&u["networkID"]) as u32,
        blockchain_id: hexv(&u["blockchainID_hex"]).try_into().unwrap(),
        outputs: outputs(&u["outputs"]),
        inputs: inputs(&u["inputs"]),
        memo: hexv(&u["memo"]),
    }
}

/// A `validator` object.
pub fn validator(v: &Value) -> Validator {
    let node = cb58::decode(v["nodeID"].as_str().unwrap().trim_start_matches("NodeID-")).unwrap();
    Validator { node_id: node.try_into().unwrap(), start: n(&v["start"]), end: n(&v["end"]), weight: n(&v["weight"]) }
}

/// The `credentials` array of a decoded tx.
pub fn credentials(v: &Value) -> Vec<Credential> {
    v.as_array()
        .map(|cs| {
            cs.iter()
                .map(|c| Credential {
                    type_id: n(&c["typeID"]) as u32,
                    signatures: c["signatures"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| hexv(s).try_into().unwrap())
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default()
}
