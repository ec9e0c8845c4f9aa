//! The published proposervm and coreth vectors (`tests/data/decode/`, copied from the spec with
//! their sources) decode to their published ids, hashes and fields, consuming every byte; and
//! the id rules accept them by the rule of their index.

use avax_data_core::decode::{cchain, ids, proposervm};
use avax_data_core::index::{cb58, IndexPath};
use serde_json::Value;

fn vectors(file: &str) -> Vec<Value> {
    let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

fn bytes_of(v: &Value) -> Vec<u8> {
    hex::decode(v["hex"].as_str().unwrap()).unwrap()
}

fn hex0x(b: &[u8]) -> String {
    format!("0x{}", hex::encode(b))
}

fn num(v: &Value) -> u128 {
    match v {
        Value::String(s) => s.parse().unwrap(),
        other => other.as_u64().unwrap() as u128,
    }
}

#[test]
fn proposervm_vectors_parse_with_their_ids_and_proposers() {
    let mut parsed = 0;
    for v in vectors("proposervm_blocks.json") {
        let bytes = bytes_of(&v);
        let decoded = &v["decoded"];
        if decoded.get("error").is_some() {
            let err = proposervm::parse(&bytes).unwrap_err();
            assert!(err.message.contains("unknown codec version 1"), "{}: {err}", v["name"]);
            continue;
        }
        let env = proposervm::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
        let expected = &v["expected"];
        assert_eq!(
            env.kind,
            if expected["typeID"] == 2 {
                proposervm::EnvelopeKind::Granite
            } else {
                proposervm::EnvelopeKind::Stateless
            }
        );
        assert_eq!(hex::encode(env.parent_id), expected["parentID_hex"].as_str().unwrap());
        assert_eq!(env.timestamp, Some(expected["timestamp"].as_i64().unwrap()));
        assert_eq!(env.pchain_height, Some(expected["pChainHeight"].as_u64().unwrap()));
        assert_eq!(hex::encode(env.inner), expected["innerBlock_hex"].as_str().unwrap());
        assert_eq!(env.certificate.len() as u64, decoded["certificateLen"].as_u64().unwrap());
        assert_eq!(env.signature.len() as u64, decoded["signatureLen"].as_u64().unwrap());
        if let Some(epoch) = expected.get("epoch") {
            let e = env.epoch.unwrap();
            assert_eq!(e.pchain_height, epoch["pChainHeight"].as_u64().unwrap());
            assert_eq!(e.number, epoch["number"].as_u64().unwrap());
        }
        let proposer = format!("NodeID-{}", cb58::encode(&env.proposer().unwrap()));
        assert_eq!(proposer, decoded["proposer"].as_str().unwrap());
        let id = cb58::sha256(&bytes[..env.id_len]);
        assert_eq!(cb58::encode(&id), decoded["blockID"].as_str().unwrap());
        // The id is not sha256 of all the bytes: a signed block carries its signature.
        assert_ne!(cb58::sha256(&bytes), id);
        for path in [IndexPath::CBlock, IndexPath::PBlock, IndexPath::XBlock] {
            let rule = ids::check(path, &bytes, &id, &cb58::sha256(&bytes), None).unwrap();
            assert_eq!(rule, ids::IdRule::Sha256BeforeSignature);
        }
        let err =
            ids::check(IndexPath::CBlock, &bytes, &cb58::sha256(&bytes), &cb58::sha256(&bytes), None).unwrap_err();
        assert_eq!(err.expected, Some(id));
        parsed += 1;
    }
    assert_eq!(parsed, 2);
}

fn check_header(name: &str, block: &cchain::CBlock, h: &Value) {
    let hashes: [(&str, &[u8]); 8] = [
        ("parentHash", &block.header.parent_hash),
        ("sha3Uncles", &block.header.uncle_hash),
        ("miner", &block.header.coinbase),
        ("stateRoot", &block.header.state_root),
        ("transactionsRoot", &block.header.transactions_root),
        ("receiptsRoot", &block.header.receipts_root),
        ("mixHash", &block.header.mix_digest),
        ("logsBloom", &block.header.logs_bloom),
    ];
    for (key, value) in hashes {
        assert_eq!(hex0x(value), h[key].as_str().unwrap(), "{name} {key}");
    }
    assert_eq!(hex0x(&block.header.nonce), h["nonce"].as_str().unwrap(), "{name}");
    assert_eq!(hex0x(&block.header.ext_data_hash), h["extDataHash"].as_str().unwrap(), "{name}");
    assert_eq!(hex0x(&block.header.extra), h["extraData"].as_str().unwrap(), "{name}");
    assert_eq!(hex0x(&block.hash), h["hash"].as_str().unwrap(), "{name}");
    assert_eq!(block.header.difficulty, num(&h["difficulty"]), "{name}");
    assert_eq!(u128::from(block.header.number), num(&h["number"]), "{name}");
    assert_eq!(u128::from(block.header.gas_limit), num(&h["gasLimit"]), "{name}");
    assert_eq!(u128::from(block.header.gas_used), num(&h["gasUsed"]), "{name}");
    assert_eq!(u128::from(block.header.time), num(&h["timestamp"]), "{name}");
    assert_eq!(u128::from(block.header_fields), num(&h["_fieldCount"]), "{name}");
    let optional: [(&str, Option<u128>); 7] = [
        ("baseFeePerGas", block.header.base_fee),
        ("extDataGasUsed", block.header.ext_data_gas_used),
        ("blockGasCost", block.header.block_gas_cost),
        ("blobGasUsed", block.header.blob_gas_used.map(u128::from)),
        ("excessBlobGas", block.header.excess_blob_gas.map(u128::from)),
        ("timestampMilliseconds", block.header.time_milliseconds.map(u128::from)),
        ("minDelayExcess", block.header.min_delay_excess.map(u128::from)),
    ];
    for (key, value) in optional {
        assert_eq!(value, h.get(key).map(num), "{name} {key}");
    }
    assert_eq!(
        block.header.parent_beacon_root.map(|r| hex0x(&r)),
        h.get("parentBeaconBlockRoot").map(|v| v.as_str().unwrap().to_string())
    );
}

#[test]
fn coreth_vectors_decode_to_their_published_hashes_fields_and_tx_hashes() {
    let mut blocks = 0;
    let mut field_counts = std::collections::BTreeSet::new();
    let mut tx_types = std::collections::BTreeSet::new();
    for v in vectors("cchain_blocks.json") {
        let name = v["name"].as_str().unwrap().to_string();
        let bytes = bytes_of(&v);
        let expected = &v["expected"];
        let decoded = &v["decoded"];
        if decoded.get("header").is_none() {
            // The body-only golden vector: [txs, uncles, version, extData], not a block.
            assert!(cchain::decode_block(&bytes).is_err(), "{name}");
            continue;
        }
        let block = if decoded.get("transactions").is_some() {
            cchain::decode_block(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
        } else {
            cchain::decode_header_only(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        check_header(&name, &block, &decoded["header"]);
        assert_eq!(
            hex0x(&block.hash),
            expected["hash"].as_str().unwrap_or_else(|| decoded["header"]["hash"].as_str().unwrap()),
            "{name}"
        );
        if let Some(n) = expected.get("number") {
            assert_eq!(u128::from(block.header.number), num(n), "{name}");
        }
        // `txHashes` is in block order; the fixture's RPC listing is not, so it compares as a set.
        let in_order = expected.get("txHashes").is_some();
        let published = expected.get("txHashes").or_else(|| expected.get("txHashes_from_rpc"));
        if let Some(txs) = decoded.get("transactions") {
            let txs = txs.as_array().unwrap();
            assert_eq!(block.transactions.len(), txs.len(), "{name}");
            for (tx, reference) in block.transactions.iter().zip(txs) {
                assert_eq!(hex0x(&tx.hash), reference["hash"].as_str().unwrap(), "{name}");
                assert_eq!(u64::from(tx.tx_type), reference["type"].as_u64().unwrap(), "{name}");
                if let Some(nonce) = reference.get("nonce") {
                    assert_eq!(tx.nonce, nonce.as_u64().unwrap(), "{name}");
                }
                tx_types.insert(tx.tx_type);
            }
            assert_eq!(block.uncle_count as usize, decoded["uncles"].as_array().map_or(0, |u| u.len()), "{name}");
            assert_eq!(block.version.map(u64::from), decoded["version"].as_u64(), "{name}");
            assert_eq!(block.ext_data_size.map(u64::from), decoded["extData_len"].as_u64(), "{name}");
            // A raw (pre-fork) C/block container's id is its Ethereum hash.
            let rule = ids::check(IndexPath::CBlock, &bytes, &block.hash, &cb58::sha256(&bytes), None).unwrap();
            assert_eq!(rule, ids::IdRule::EthBlockHash);
            let err =
                ids::check(IndexPath::CBlock, &bytes, &cb58::sha256(&bytes), &cb58::sha256(&bytes), None).unwrap_err();
            assert_eq!((err.rule, err.expected), (ids::IdRule::EthBlockHash, Some(block.hash)));
            blocks += 1;
        }
        if let Some(published) = published {
            let mut ours: Vec<String> = block.transactions.iter().map(|t| hex0x(&t.hash)).collect();
            let mut theirs: Vec<String> =
                published.as_array().unwrap().iter().map(|h| h.as_str().unwrap().to_string()).collect();
            if !in_order {
                ours.sort();
                theirs.sort();
            }
            assert_eq!(ours, theirs, "{name}");
        }
        field_counts.insert(block.header_fields);
    }
    assert_eq!(blocks, 16);
    // Every upgrade step's header shape: pre-AP3, AP3, AP4, Etna, Granite, and all 30 fields.
    assert_eq!(field_counts.into_iter().collect::<Vec<_>>(), vec![16, 17, 19, 22, 24, 30]);
    assert_eq!(tx_types.into_iter().collect::<Vec<_>>(), vec![0, 2]);
}

#[test]
fn the_constructed_granite_envelope_wraps_a_real_coreth_block() {
    let v = vectors("constructed_examples.json").into_iter().find(|v| v["expected"]["typeID"] == 2).unwrap();
    let bytes = bytes_of(&v);
    let env = proposervm::parse(&bytes).unwrap();
    assert_eq!(env.kind, proposervm::EnvelopeKind::Granite);
    let epoch = env.epoch.unwrap();
    assert_eq!((epoch.pchain_height, epoch.number, epoch.start_time), (100, 1, 1_617_383_000));
    assert_eq!(env.pchain_height, Some(101));
    assert!(!env.is_signed() && env.proposer().is_none());
    let inner = cchain::decode_block(env.inner).unwrap();
    assert_eq!(hex0x(&inner.hash), "0x0608e5d5e13c337f226b621a0b08b3d50470f1961329826fd59f5a241d1df49e");
    let id = cb58::sha256(&bytes[..env.id_len]);
    assert_eq!(cb58::encode(&id), v["decoded"]["blockID"].as_str().unwrap());
    assert_eq!(env.id_len, bytes.len() - 4);
    assert_eq!(
        ids::check(IndexPath::CBlock, &bytes, &id, &cb58::sha256(&bytes), None),
        Ok(ids::IdRule::Sha256BeforeSignature)
    );
}

#[test]
fn the_two_doc_x_tx_containers_keep_the_sha256_rule() {
    for v in vectors("xchain_txs.json").into_iter().filter(|v| v.get("api_hex").is_some()) {
        let bytes = bytes_of(&v);
        let id = cb58::decode_id(v["expected"]["id"].as_str().unwrap()).unwrap();
        assert_eq!(ids::check(IndexPath::XTx, &bytes, &id, &cb58::sha256(&bytes), None), Ok(ids::IdRule::Sha256));
    }
}
