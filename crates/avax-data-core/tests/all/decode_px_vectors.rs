//! The P-Chain and X-Chain decoders against the spec's vectors (tests/data/decode): every vector
//! decodes, consumes every byte, and the facts its source publishes match.

use std::collections::BTreeSet;

use avax_data_core::decode::avax::{Atomic, Input, Output};
use avax_data_core::decode::pchain::{self, PTxBody};
use avax_data_core::decode::xchain::{self, XTxBody};
use avax_data_core::index::cb58;
use serde_json::Value;

fn vectors(file: &str) -> Vec<Value> {
    let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

fn bytes(v: &Value) -> Vec<u8> {
    hex::decode(v["hex"].as_str().unwrap().trim_start_matches("0x")).unwrap()
}

fn cb(id: &[u8]) -> String {
    cb58::encode(id)
}

fn name(v: &Value) -> &str {
    v["name"].as_str().unwrap()
}

/// Every vector's `api_hex`, when given, is `hex ‖ checksum`.
fn check_api_hex(v: &Value, payload: &[u8]) {
    if let Some(api) = v["api_hex"].as_str() {
        assert_eq!(cb58::decode_hex_with_checksum(api).unwrap(), payload, "{}", name(v));
    }
}

/// The `count` vectors of `file`, each with its `api_hex` checked and decoded by `decode`;
/// `check` gets each vector, its bytes, what it decoded to and its `expected` facts.
fn each_decoded<T, E: std::fmt::Display>(
    file: &str,
    count: usize,
    decode: impl Fn(&[u8]) -> Result<T, E>,
    mut check: impl FnMut(&Value, &[u8], T, &Value),
) -> Vec<Value> {
    let vs = vectors(file);
    assert_eq!(vs.len(), count);
    for v in &vs {
        let raw = bytes(v);
        check_api_hex(v, &raw);
        let decoded = decode(&raw).unwrap_or_else(|e| panic!("{}: {e}", name(v)));
        check(v, &raw, decoded, &v["expected"]);
    }
    vs
}

/// Bech32 (BIP 173) of a 20-byte address, as the published `P-avax1…`/`X-local1…` addresses
/// show it without the chain prefix. Test-only; the decoders keep raw bytes.
fn bech32(hrp: &str, data: &[u8]) -> String {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    fn polymod(values: &[u8]) -> u32 {
        let gen = [0x3b6a57b2u32, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
        let mut chk = 1u32;
        for &v in values {
            let top = chk >> 25;
            chk = ((chk & 0x1ffffff) << 5) ^ u32::from(v);
            for (i, g) in gen.iter().enumerate() {
                if (top >> i) & 1 == 1 {
                    chk ^= g;
                }
            }
        }
        chk
    }
    let mut five = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            five.push(((acc >> bits) & 31) as u8);
        }
    }
    if bits > 0 {
        five.push(((acc << (5 - bits)) & 31) as u8);
    }
    let mut values: Vec<u8> = hrp.bytes().map(|c| c >> 5).collect();
    values.push(0);
    values.extend(hrp.bytes().map(|c| c & 31));
    values.extend(&five);
    values.extend([0; 6]);
    let checksum = polymod(&values) ^ 1;
    five.extend((0..6).map(|i| ((checksum >> (5 * (5 - i))) & 31) as u8));
    let mut out = format!("{hrp}1");
    out.extend(five.iter().map(|&v| CHARSET[usize::from(v)] as char));
    out
}

#[test]
fn pchain_blocks_decode_with_their_published_facts() {
    let vs = each_decoded("pchain_blocks.json", 5, pchain::decode_block, |v, _, block, exp| {
        if let Some(type_id) = exp["typeID"].as_u64() {
            assert_eq!(u64::from(block.type_id), type_id, "{}", name(v));
        }
        if exp["all other fields zero"] == true {
            assert_eq!((block.parent_id, block.height, block.time), ([0; 32], 0, Some(0)), "{}", name(v));
        }
        if let Some(t) = exp["tx.typeID"].as_u64() {
            assert_eq!(block.txs.len(), 1);
            assert_eq!(u64::from(block.txs[0].type_id), t);
            assert_eq!(block.txs[0].body, PTxBody::AdvanceTime { time: exp["tx.time"].as_u64().unwrap() });
        }
    });
    assert_eq!(vs[0].get("expected").unwrap()["typeID"], 29);
    assert_eq!(pchain::decode_block(&bytes(&vs[0])).unwrap().type_name, "BanffProposalBlock");
    assert_eq!(pchain::decode_block(&bytes(&vs[1])).unwrap().type_name, "BanffCommitBlock");
    let standard = pchain::decode_block(&bytes(&vs[2])).unwrap();
    assert_eq!((standard.type_name, standard.txs.len()), ("BanffStandardBlock", 0));

    // The Mainnet block at height 1000001 and its ExportTx.
    let v = &vs[3];
    let exp = &v["expected"];
    let block = pchain::decode_block(&bytes(v)).unwrap();
    assert_eq!(cb(&block.block_id), exp["blockID (request param)"].as_str().unwrap());
    assert_eq!(block.height, exp["height"].as_u64().unwrap());
    assert_eq!(cb(&block.parent_id), exp["parentID"].as_str().unwrap());
    assert_eq!((block.type_name, block.time), ("ApricotStandardBlock", None));
    assert_eq!(block.txs.len(), 1);
    let tx = &block.txs[0];
    let etx = &exp["txs[0]"];
    assert_eq!(tx.type_name, etx["type"].as_str().unwrap());
    let base = tx.base.as_ref().unwrap();
    assert_eq!(u64::from(base.network_id), etx["networkID"].as_u64().unwrap());
    assert_eq!(cb(&base.blockchain_id), etx["blockchainID"].as_str().unwrap());
    assert!(base.memo.is_empty());
    let input = &base.inputs[0];
    let ein = &etx["inputs[0]"];
    assert_eq!(cb(&input.tx_id), ein["txID"].as_str().unwrap());
    assert_eq!(u64::from(input.output_index), ein["outputIndex"].as_u64().unwrap());
    assert_eq!(cb(&input.asset_id), ein["assetID"].as_str().unwrap());
    assert_eq!(input.input, Input::Transfer { amount: 13839124063, sig_indices: vec![0] });
    assert_eq!(input.input.amount(), ein["amount"].as_u64().unwrap());
    let PTxBody::Atomic(Atomic::Export { destination_chain, outputs }) = &tx.body else { panic!("{:?}", tx.body) };
    assert_eq!(cb(destination_chain), etx["destinationChain"].as_str().unwrap());
    let eout = &etx["exportedOutputs[0]"];
    assert_eq!(outputs.len(), 1);
    assert_eq!(cb(&outputs[0].asset_id), eout["assetID"].as_str().unwrap());
    assert_eq!(outputs[0].output.amount(), eout["amount"].as_u64());
    let Output::Transfer { owners, .. } = &outputs[0].output else { panic!() };
    assert_eq!((owners.locktime, owners.threshold, owners.addresses.len()), (0, 1, 1));
    let published = eout["addresses"][0].as_str().unwrap();
    assert_eq!(format!("P-{}", bech32("avax", &owners.addresses[0])), published);
    let creds = tx.credentials.as_ref().unwrap();
    assert_eq!(hex::encode(creds[0].signatures[0]), etx["credentials[0].signatures[0]"].as_str().unwrap());
    // consumed = the input, produced = the export; the difference is the 1,000,000 nAVAX fee.
    assert_eq!(tx.consumed.len(), 1);
    assert_eq!(tx.consumed[0].amount, 13839124063);
    assert_eq!(tx.produced[0].amount, 13838124063);

    // The mislabeled avm.getBlock example is a Mainnet P-Chain BanffStandardBlock.
    let v = &vs[4];
    let block = pchain::decode_block(&bytes(v)).unwrap();
    assert_eq!(cb(&block.block_id), v["expected"]["request"]["blockID"].as_str().unwrap());
    assert_eq!(block.type_name, "BanffStandardBlock");
    assert!(!block.txs.is_empty());
    for tx in &block.txs {
        assert_eq!(tx.base.as_ref().unwrap().network_id, 1);
        assert_eq!(tx.base.as_ref().unwrap().blockchain_id, [0; 32]);
    }
}

#[test]
fn pchain_txs_decode_and_cover_every_type_in_the_vectors() {
    let vs = vectors("pchain_txs.json");
    let mut seen = BTreeSet::new();
    for v in &vs {
        let raw = bytes(v);
        let exp = &v["expected"];
        let unsigned_only = exp["bytes_are"].as_str().is_some_and(|s| s.contains("no credentials"));
        let tx = if unsigned_only { pchain::decode_unsigned_tx(&raw) } else { pchain::decode_tx(&raw) }
            .unwrap_or_else(|e| panic!("{}: {e}", name(v)));
        // The reference decoding's type name and type ID.
        let reference = &v["decoded"]["unsignedTx"];
        assert_eq!(tx.type_name, reference["type"].as_str().unwrap(), "{}", name(v));
        assert_eq!(u64::from(tx.type_id), reference["typeID"].as_u64().unwrap(), "{}", name(v));
        // The type the vector's source names (test name or fee-calculator case).
        if let Some(t) = exp["tx name in test"].as_str() {
            assert!(t.starts_with(tx.type_name), "{}: {}", name(v), tx.type_name);
        }
        if let Some(t) = exp["tx type from test name"].as_str() {
            let snake: String = tx.type_name.chars().fold(String::new(), |mut s, c| {
                if c.is_ascii_uppercase() && !s.is_empty() {
                    s.push('_');
                }
                s.push(c.to_ascii_lowercase());
                s
            });
            assert_eq!(snake, t, "{}", name(v));
        }
        if unsigned_only {
            assert!(tx.credentials.is_none());
            // The signed decoder refuses the same bytes (no credential count).
            assert!(pchain::decode_tx(&raw).is_err(), "{}", name(v));
        } else {
            let creds = tx.credentials.as_ref().unwrap();
            let reference_creds = v["decoded"]["credentials"].as_array().unwrap();
            assert_eq!(creds.len(), reference_creds.len(), "{}", name(v));
            assert_eq!(cb(&tx.tx_id), v["decoded"]["txID"].as_str().unwrap(), "{}", name(v));
            assert_eq!(tx.tx_id, cb58::sha256(&raw));
        }
        // Amount totals equal the reference's inputs/outputs summed.
        let sum = |items: &Value, key: &str| -> u128 {
            items.as_array().map_or(0, |a| a.iter().map(|o| amount_of(o, key)).sum::<u128>())
        };
        let consumed: u128 = tx.consumed.iter().map(|a| a.amount).sum();
        let produced: u128 = tx.produced.iter().map(|a| a.amount).sum();
        assert_eq!(consumed, sum(&reference["inputs"], "transferableInput"), "{}", name(v));
        assert_eq!(
            produced,
            sum(&reference["outputs"], "transferableOutput")
                + sum(&reference["stake"], "transferableOutput")
                + sum(&reference["exportedOutputs"], "transferableOutput"),
            "{}",
            name(v)
        );
        seen.insert(tx.type_name);
    }
    let want = [
        "AddAutoRenewedValidatorTx",
        "AddDelegatorTx",
        "AddPermissionlessDelegatorTx",
        "AddPermissionlessValidatorTx",
        "AddSubnetValidatorTx",
        "AddValidatorTx",
        "BaseTx",
        "ConvertSubnetToL1Tx",
        "CreateSubnetTx",
        "DisableL1ValidatorTx",
        "ExportTx",
        "IncreaseL1ValidatorBalanceTx",
        "RegisterL1ValidatorTx",
        "RemoveSubnetValidatorTx",
        "SetAutoRenewedValidatorConfigTx",
        "SetL1ValidatorWeightTx",
        "TransferSubnetOwnershipTx",
        "TransformSubnetTx",
    ];
    assert_eq!(seen, want.into_iter().collect::<BTreeSet<_>>());
    // Types no vector carries are covered by the unit tests in src/decode/pchain.rs
    // (CreateChainTx, ImportTx, AdvanceTimeTx, RewardValidatorTx, RewardAutoRenewedValidatorTx);
    // AdvanceTimeTx also appears in the BanffProposalBlock vector.
}

/// The amount of a reference output or input, looking through a stakeable lock.
fn amount_of(item: &Value, inner: &str) -> u128 {
    match item.get("amount") {
        Some(a) => u128::from(a.as_u64().unwrap()),
        None => item.get(inner).map_or(0, |i| amount_of(i, inner)),
    }
}

#[test]
fn pchain_vector_details() {
    let vs = vectors("pchain_txs.json");
    let find = |n: &str| vs.iter().find(|v| name(v) == n).unwrap();

    let v = find("add_permissionless_validator_tx_test.go:expectedUnsignedComplexAddSubnetTxBytes");
    let tx = pchain::decode_unsigned_tx(&bytes(v)).unwrap();
    let base = tx.base.as_ref().unwrap();
    assert_eq!(base.memo, hex::decode("f09f98850a77656c6c2074686174277301234521").unwrap());
    assert_eq!(
        base.outputs[1].output,
        Output::StakeableLock {
            locktime: 87654321,
            output: Box::new(Output::Transfer {
                amount: 1,
                owners: avax_data_core::decode::avax::OutputOwners {
                    locktime: 12345678,
                    threshold: 0,
                    addresses: vec![]
                },
            }),
        }
    );
    assert_eq!(base.inputs[1].input.type_id(), 21);
    assert_eq!(base.inputs[1].input.amount(), 17293822569102704639);
    let PTxBody::AddPermissionlessValidator { validator, subnet_id, signer, shares, .. } = &tx.body else { panic!() };
    assert_eq!(format!("NodeID-{}", cb(&validator.node_id)), "NodeID-2ZbTY9GatRTrfinAoYiYLcf6CvrPAUYgo");
    assert_eq!((validator.start, validator.end, validator.weight), (12345, 12346, 9));
    assert_eq!(cb(subnet_id), "SkB92YpWm4UpburLz9tEKZw2i67H3FF6YkjaU4BkFUDTG9Xm");
    assert!(signer.public_key().is_none());
    assert_eq!(u64::from(*shares), v["decoded"]["unsignedTx"]["shares"].as_u64().unwrap());

    let v = find("fee/calculator_test ConvertSubnetToL1Tx");
    let tx = pchain::decode_tx(&bytes(v)).unwrap();
    let PTxBody::ConvertSubnetToL1 { subnet_id, chain_id, address, validators, subnet_auth } = &tx.body else {
        panic!()
    };
    assert_eq!(cb(subnet_id), "2DeHa7Qb6sufPkmQcFWG2uCd4pBPv9WB6dkzroiMQhd1NSRtof");
    assert_eq!(cb(chain_id), "rVPmsy4tQrQhQpRE6embdYnmYtwQi8kQAg1ZdaZGzeVdjc4qT");
    assert!(address.is_empty());
    assert_eq!(validators.len(), 1);
    assert_eq!(hex::encode(&validators[0].node_id), "c582872c37c81efa2c94ea347af49cdc23a830aa");
    assert_eq!((validators[0].weight, validators[0].balance), (49463, 1000000000));
    assert_eq!(subnet_auth, &vec![0]);

    let v = find("add_auto_renewed_validator_tx_test.go:wantBytes");
    let tx = pchain::decode_unsigned_tx(&bytes(v)).unwrap();
    let PTxBody::AddAutoRenewedValidator(v) = &tx.body else { panic!() };
    assert_eq!((v.delegation_shares, v.auto_compound_reward_shares, v.period), (1000000, 500000, 17280000));
    assert_eq!(hex::encode(&v.node_id), "1122334455667788112233445566778811223344");
}

#[test]
fn xchain_txs_decode_with_their_published_ids_and_amounts() {
    let vs = each_decoded("xchain_txs.json", 7, xchain::decode_tx, |v, raw, tx, exp| {
        let published = exp["id"].as_str().or(exp["txID"].as_str());
        if let Some(id) = published {
            assert_eq!(cb(&tx.tx_id), id, "{}", name(v));
        }
        assert_eq!(tx.tx_id, cb58::sha256(raw));
        if let Some(t) = exp["typeID"].as_u64() {
            assert_eq!(u64::from(tx.type_id), t);
        }
    });

    // §6.3: the Index API doc's local-network ExportTx.
    let tx = xchain::decode_tx(&bytes(&vs[0])).unwrap();
    assert_eq!(tx.type_name, "ExportTx");
    assert_eq!(tx.base.network_id, 12345);
    assert_eq!(cb(&tx.base.blockchain_id), "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed");
    let avax_local = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe";
    assert_eq!(tx.base.outputs.len(), 1);
    assert_eq!(cb(&tx.base.outputs[0].asset_id), avax_local);
    assert_eq!(tx.base.outputs[0].output.amount(), Some(299995999998000000));
    assert_eq!(
        hex::encode(tx.base.outputs[0].output.owners().addresses[0]),
        "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c"
    );
    // The funded local "ewoq" address, X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u.
    assert_eq!(
        bech32("local", &tx.base.outputs[0].output.owners().addresses[0]),
        "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
    );
    assert_eq!(tx.base.inputs[0].input.amount(), 300000000000000000);
    let XTxBody::Atomic(Atomic::Export { destination_chain, outputs }) = &tx.body else { panic!("{:?}", tx.body) };
    assert_eq!(cb(destination_chain), "2XFHbWN57HrjHW1JqhP9wzj92eYHpiH7EGLnY9mNfWn9w9CvWR");
    assert_eq!(outputs[0].output.amount(), Some(4000001000000));
    assert_eq!(cb(&tx.consumed[0].asset_id), avax_local);
    assert_eq!(tx.consumed[0].amount, 300000000000000000);
    assert_eq!(tx.produced[0].amount, 299995999998000000 + 4000001000000);
    assert_eq!(tx.consumed[0].amount - tx.produced[0].amount, 1_000_000);
    assert_eq!(tx.credentials.as_ref().unwrap().len(), 1);

    // The Mainnet BaseTx against the doc's avm.getTx JSON.
    let v = &vs[1];
    let doc = &v["expected"]["avm.getTx json (from the same doc)"];
    let tx = xchain::decode_tx(&bytes(v)).unwrap();
    assert_eq!((tx.type_name, tx.body.clone()), ("BaseTx", XTxBody::Base));
    assert_eq!(u64::from(tx.base.network_id), doc["networkID"].as_u64().unwrap());
    assert_eq!(cb(&tx.base.blockchain_id), doc["blockchainID"].as_str().unwrap());
    let outs = doc["outputs"].as_array().unwrap();
    assert_eq!(tx.base.outputs.len(), outs.len());
    for (o, e) in tx.base.outputs.iter().zip(outs) {
        assert_eq!(cb(&o.asset_id), e["assetID"].as_str().unwrap());
        assert_eq!(o.output.amount(), e["amount"].as_u64());
        assert_eq!(u64::from(o.output.owners().threshold), e["threshold"].as_u64().unwrap());
        let address = format!("X-{}", bech32("avax", &o.output.owners().addresses[0]));
        assert_eq!(address, e["addresses"][0].as_str().unwrap());
    }
    let ins = doc["inputs"].as_array().unwrap();
    assert_eq!(cb(&tx.base.inputs[0].tx_id), ins[0]["txID"].as_str().unwrap());
    assert_eq!(tx.base.inputs[0].input.amount(), ins[0]["amount"].as_u64().unwrap());
    let sig = doc["credentials[0].signatures"][0].as_str().unwrap().trim_start_matches("0x");
    assert_eq!(hex::encode(tx.credentials.as_ref().unwrap()[0].signatures[0]), sig);
    assert_eq!(tx.consumed[0].amount, 2352999000000);
    assert_eq!(tx.produced[0].amount, 4999000000 + 2347999000000);

    // The serialization tests: credentials, import and export bodies.
    let tx = xchain::decode_tx(&bytes(&vs[3])).unwrap();
    assert_eq!(tx.credentials.as_ref().unwrap().len(), 2);
    assert_eq!(xchain::decode_tx(&bytes(&vs[4])).unwrap().type_name, "ExportTx");
    assert_eq!(xchain::decode_tx(&bytes(&vs[5])).unwrap().type_name, "ImportTx");

    // CreateAssetTx: the published name, symbol, denomination and network.
    let v = &vs[6];
    let exp = &v["expected"];
    let tx = xchain::decode_tx(&bytes(v)).unwrap();
    assert_eq!(u64::from(tx.base.network_id), exp["networkID"].as_u64().unwrap());
    let XTxBody::CreateAsset { name: asset, symbol, denomination, initial_states } = &tx.body else { panic!() };
    assert_eq!(asset, exp["name"].as_str().unwrap());
    assert_eq!(symbol, exp["symbol"].as_str().unwrap());
    assert_eq!(u64::from(*denomination), exp["denomination"].as_u64().unwrap());
    assert!(!initial_states.is_empty());
}

#[test]
fn constructed_x_standard_block_carries_the_two_doc_txs() {
    let v = &vectors("constructed_examples.json")[0];
    let exp = &v["expected"];
    let raw = bytes(v);
    let block = xchain::decode_block(&raw).unwrap();
    assert_eq!(u64::from(block.type_id), exp["typeID"].as_u64().unwrap());
    assert_eq!(block.type_name, "StandardBlock");
    assert_eq!(hex::encode(block.parent_id), exp["parentID_hex"].as_str().unwrap());
    assert_eq!(block.height, exp["height"].as_u64().unwrap());
    assert_eq!(block.time, exp["time"].as_u64().unwrap());
    assert_eq!(hex::encode(block.merkle_root), exp["merkleRoot_hex"].as_str().unwrap());
    assert_eq!(block.block_id, cb58::sha256(&raw));
    let ids: Vec<String> = block.txs.iter().map(|t| cb(&t.tx_id)).collect();
    let want: Vec<&str> = exp["txIDs"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(ids, want);
    // Trailing bytes and a wrong type ID are refused.
    let mut longer = raw.clone();
    longer.push(0);
    assert!(xchain::decode_block(&longer).unwrap_err().message.contains("trailing"));
    let mut wrong = raw.clone();
    wrong[5] = 21;
    assert!(xchain::decode_block(&wrong).unwrap_err().message.contains("21"));
}

/// Every vector's bytes (read once), for the fuzz tests.
fn all_vector_bytes() -> &'static [Vec<u8>] {
    static ALL: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for file in ["pchain_blocks.json", "pchain_txs.json", "xchain_txs.json"] {
            out.extend(vectors(file).iter().map(bytes));
        }
        out.push(bytes(&vectors("constructed_examples.json")[0]));
        out
    })
}

/// Runs every P and X decoder on `data`: each returns Ok or an error inside the bytes, and
/// whatever decodes also goes through the Arrow columns.
fn decode_everything(data: &[u8]) {
    use avax_data_core::arrow::decoded::pchain::{PBlockColumns, PTxColumns};
    use avax_data_core::arrow::decoded::xchain::{XBlockColumns, XTxColumns};
    use avax_data_core::arrow::decoded::RowColumns;

    fn check<T>(data: &[u8], result: Result<T, avax_data_core::decode::DecodeError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                assert!(e.offset <= data.len(), "{e} beyond {} bytes", data.len());
                None
            }
        }
    }
    let mut p_txs = PTxColumns::with_capacity(2);
    for tx in [check(data, pchain::decode_tx(data)), check(data, pchain::decode_unsigned_tx(data))].iter().flatten() {
        p_txs.append(Some(tx));
    }
    let mut p_blocks = PBlockColumns::with_capacity(1);
    p_blocks.append(check(data, pchain::decode_block(data)).as_ref());
    let mut x_txs = XTxColumns::with_capacity(2);
    for tx in [check(data, xchain::decode_tx(data)), check(data, xchain::decode_unsigned_tx(data))].iter().flatten() {
        x_txs.append(Some(tx));
    }
    let mut x_blocks = XBlockColumns::with_capacity(1);
    x_blocks.append(check(data, xchain::decode_block(data)).as_ref());
    for arrays in [p_txs.finish(), p_blocks.finish(), x_txs.finish(), x_blocks.finish()] {
        let len = arrays[0].len();
        assert!(arrays.iter().all(|a| a.len() == len));
    }
}

mod fuzz {
    use proptest::prelude::*;

    use super::{all_vector_bytes, decode_everything};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        #[test]
        fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..400)) {
            decode_everything(&data);
        }

        #[test]
        fn random_bodies_behind_every_type_id(type_id in 0u32..45, body in proptest::collection::vec(any::<u8>(), 0..400)) {
            let mut data = vec![0, 0];
            data.extend(type_id.to_be_bytes());
            data.extend(body);
            decode_everything(&data);
        }

        #[test]
        fn flipped_vectors_never_panic(
            pick in any::<prop::sample::Index>(),
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        ) {
            let vectors = all_vector_bytes();
            let mut data = vectors[pick.index(vectors.len())].clone();
            for (at, byte) in flips {
                let i = at.index(data.len());
                data[i] = byte;
            }
            decode_everything(&data);
        }

        #[test]
        fn truncated_vectors_never_panic(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
            let vectors = all_vector_bytes();
            let data = &vectors[pick.index(vectors.len())];
            let data = &data[..cut.index(data.len())];
            decode_everything(data);
        }

        #[test]
        fn huge_length_prefixes_fail_cleanly(pick in any::<prop::sample::Index>(), at in any::<prop::sample::Index>()) {
            let vectors = all_vector_bytes();
            let mut data = vectors[pick.index(vectors.len())].clone();
            let i = at.index(data.len() - 3);
            data[i..i + 4].copy_from_slice(&[0xFF; 4]);
            decode_everything(&data);
        }
    }
}

#[test]
fn every_length_prefix_of_every_vector_set_to_max_is_refused_or_decoded() {
    // Deterministic companion of the fuzz test: each 4-byte window of each vector set to
    // 0xFFFFFFFF, and every truncation of each vector.
    for v in all_vector_bytes() {
        for i in 0..v.len().saturating_sub(3) {
            let mut data = v.clone();
            data[i..i + 4].copy_from_slice(&[0xFF; 4]);
            decode_everything(&data);
        }
        // The decoder that reads the whole vector refuses every strict prefix of it: the parse
        // of a prefix follows the full parse until it runs out of bytes.
        let decoders: [fn(&[u8]) -> bool; 6] = [
            |d| pchain::decode_block(d).is_ok(),
            |d| pchain::decode_tx(d).is_ok(),
            |d| pchain::decode_unsigned_tx(d).is_ok(),
            |d| xchain::decode_block(d).is_ok(),
            |d| xchain::decode_tx(d).is_ok(),
            |d| xchain::decode_unsigned_tx(d).is_ok(),
        ];
        let whole: Vec<_> = decoders.iter().filter(|decodes| decodes(v)).collect();
        assert!(!whole.is_empty());
        for cut in 0..v.len() {
            decode_everything(&v[..cut]);
            assert!(whole.iter().all(|decodes| !decodes(&v[..cut])), "prefix of {cut} bytes decodes");
        }
    }
}

#[test]
fn a_count_of_four_billion_fails_at_the_count() {
    // The Index API doc's ExportTx: its output count sits at byte 42.
    let mut data = bytes(&vectors("xchain_txs.json")[0]);
    data[42..46].copy_from_slice(&[0xFF; 4]);
    let err = xchain::decode_tx(&data).unwrap_err();
    assert_eq!(err.offset, 42);
    assert!(err.message.starts_with("output count: count 4294967295 needs at least"), "{err}");
    // The same inside the X StandardBlock: the doc ExportTx is the block's second tx, after the
    // Mainnet BaseTx (379 bytes standalone, 377 without its codec version) from byte 90.
    let mut block = bytes(&vectors("constructed_examples.json")[0]);
    let at = 90 + 377 + 40;
    assert_eq!(&block[at..at + 4], &[0, 0, 0, 1]);
    block[at..at + 4].copy_from_slice(&[0xFF; 4]);
    let err = xchain::decode_block(&block).unwrap_err();
    assert_eq!(err.offset, at);
}
